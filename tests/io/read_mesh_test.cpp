// SPDX-License-Identifier: BSD-3-Clause
#include <limits>
#include <string>

#include <gtest/gtest.h>

#include "io_test_support.hpp"

namespace proxima {
namespace {

using test::Bytes;
using test::expect_error;
using test::TempDir;

const char* kObj = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";
const char* kStl = "solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\n"
                   "endloop\nendfacet\nendsolid t\n";
const char* kPly = "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\n"
                   "element face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n";

std::string binary_triangle() {
  Bytes b;
  b.text(std::string(80, ' ')).put(std::uint32_t{1});
  for (float f : {0.f, 0.f, 1.f, 0.f, 0.f, 0.f, 1.f, 0.f, 0.f, 0.f, 1.f, 0.f}) b.put(f);
  b.put(std::uint16_t{0});
  return b.str();
}

void expect_triangle(const TriangleMesh& m, double scale = 1.0) {
  ASSERT_EQ(m.triangle_count(), 1u);
  EXPECT_EQ(m.corner(0, 1), Vec3(scale, 0, 0));
  EXPECT_EQ(m.corner(0, 2), Vec3(0, scale, 0));
}

TEST(ReadMesh, PicksTheReaderByExtensionInAnyCase) {
  TempDir dir;
  expect_triangle(read_mesh(dir.write("a.obj", kObj), {.scale = 3.0}), 3.0);
  expect_triangle(read_mesh(dir.write("a.OBJ", kObj)));
  expect_triangle(read_mesh(dir.write("a.Stl", kStl)));
  expect_triangle(read_mesh(dir.write("b.stl", binary_triangle())));
  expect_triangle(read_mesh(dir.write("a.PLY", kPly)));
  const TriangleMesh m = read_mesh(dir.write("m.ply", kPly), {.scale = 1.0, .margin = 0.25});
  EXPECT_DOUBLE_EQ(m.margin(), 0.25);
  // The extension decides: an OBJ named .stl is read (and rejected) as STL.
  expect_error([&] { read_mesh(dir.write("wrong.stl", kObj)); }, {"wrong.stl", "truncated binary STL"});
}

TEST(ReadMesh, PicksTheReaderByContentForOtherExtensions) {
  TempDir dir;
  expect_triangle(read_mesh(dir.write("a.mesh", kObj)));
  expect_triangle(read_mesh(dir.write("b.mesh", kStl)));
  expect_triangle(read_mesh(dir.write("c", binary_triangle())));
  expect_triangle(read_mesh(dir.write("d.tmp", kPly)));
  expect_error([&] { read_mesh(dir.write("e.xyz", "1 2 3\n4 5 6\n")); }, {"e.xyz", "unknown mesh format", "'.xyz'"});
  expect_error([&] { read_mesh(dir.write("f.bin", std::string(20, '\0'))); }, {"f.bin", "unknown mesh format"});
}

TEST(ReadMesh, RejectsMissingEmptyAndBadOptions) {
  TempDir dir;
  expect_error([&] { read_mesh(dir.path() / "gone.ply"); }, {"gone.ply", "no such file"});
  expect_error([&] { read_mesh(dir.write("empty.stl", "")); }, {"empty.stl", "empty file"});
  for (double scale : {0.0, -1.0, std::numeric_limits<double>::quiet_NaN()}) {
    expect_error([&] { read_mesh(dir.write("a.obj", kObj), {.scale = scale}); }, {"a.obj", "scale"});
  }
  expect_error([&] { read_mesh(dir.write("a.ply", kPly), {.scale = 1.0, .margin = -0.1}); }, {"a.ply", "margin"});
}

}  // namespace
}  // namespace proxima
