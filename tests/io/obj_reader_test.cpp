// SPDX-License-Identifier: BSD-3-Clause
#include <string>

#include <gtest/gtest.h>

#include "io_test_support.hpp"

namespace proxima {
namespace {

using test::expect_error;
using test::TempDir;

// Unit cube [0,1]³ as six outward quads, written the way exporters do:
// texture and normal indices, negative (relative) indices, records we ignore.
const char* kCubeObj = R"(# cube
mtllib cube.mtl
o Cube
v 0 0 0
v 1 0 0
v 1 1 0
v 0 1 0
v 0 0 1
v 1 0 1
v 1 1 1
v 0 1 1 1.0
vt 0 0
vt 1 0
vn 0 0 1
g faces
usemtl steel
s off
f 1/1/1 4/2/1 3/1/1 2/2/1
f 5//1 6//1 7//1 8//1
f 1/1 2/2 6/1 5/2
f 4 8 7 3
f -8 -4 -1 -5
f -7/1/1 -6/1/1 -2/1/1 -3/1/1
l 1 2
)";

TEST(ObjReader, QuadsNegativeIndicesAndIgnoredRecords) {
  TempDir dir;
  const auto path = dir.write("cube.obj", kCubeObj);
  const TriangleMesh m = read_obj(path, {.scale = 2.0, .margin = 0.01});
  EXPECT_EQ(m.vertices().size(), 8u);
  EXPECT_EQ(m.triangle_count(), 12u);
  EXPECT_EQ(m.name(), path.string());
  EXPECT_DOUBLE_EQ(m.margin(), 0.01);
  EXPECT_EQ(m.vertices()[6], Vec3(2, 2, 2));
  ASSERT_TRUE(m.is_closed());
  const auto mp = m.mass_properties();
  ASSERT_TRUE(mp.has_value());
  EXPECT_NEAR(mp->volume, 8.0, 1e-12);
  EXPECT_LT((mp->centroid - Vec3(1, 1, 1)).norm(), 1e-12);
  // Fans start at the first corner; negative indices count back from the last vertex.
  EXPECT_EQ(m.triangles()[6], (TriangleIndices{3, 7, 6}));
  EXPECT_EQ(m.triangles()[7], (TriangleIndices{3, 6, 2}));
  EXPECT_EQ(m.triangles()[8], (TriangleIndices{0, 4, 7}));
  EXPECT_EQ(m.triangles()[11], (TriangleIndices{1, 6, 5}));
}

TEST(ObjReader, ConvexPolygonBecomesAFan) {
  TempDir dir;
  const auto path = dir.write("pentagon.obj",
                              "v 0 0 0\nv 2 0 0\nv 3 1 0\nv 1 2 0\nv -1 1 0\n"
                              "f 1 2 3 4 5\n"
                              // collinear corner on an edge: still convex
                              "v 0 0 5\nv 1 0 5\nv 2 0 5\nv 1 1 5\nf 6 7 8 9\n");
  const TriangleMesh m = read_obj(path);
  ASSERT_EQ(m.triangle_count(), 5u);
  EXPECT_EQ(m.triangles()[0], (TriangleIndices{0, 1, 2}));
  EXPECT_EQ(m.triangles()[2], (TriangleIndices{0, 3, 4}));
  EXPECT_EQ(m.triangles()[4], (TriangleIndices{5, 7, 8}));
}

TEST(ObjReader, RejectsPolygonsThatAreNotConvexAndPlanar) {
  TempDir dir;
  // A dart: corner 3 points back inside.
  const auto dart = dir.write("dart.obj", "v 0 0 0\nv 2 0 0\nv 1 0.5 0\nv 1 2 0\n# comment\nf 1 2 3 4\n");
  expect_error([&] { read_obj(dart); }, {"dart.obj", "line 6", "not convex", "corner 3"});
  // A bent quad: one corner 0.1 off the plane of the others.
  const auto bent = dir.write("bent.obj", "v 0 0 0\nv 1 0 0\nv 1 1 0.1\nv 0 1 0\nf 1 2 3 4\n");
  expect_error([&] { read_obj(bent); }, {"bent.obj", "line 5", "not planar", "tolerance 1e-06"});
  // A pentagram: every turn the same way, but twice round.
  const auto star = dir.write("star.obj",
                              "v 0 1 0\nv 0.588 -0.809 0\nv -0.951 0.309 0\nv 0.951 0.309 0\nv -0.588 -0.809 0\n"
                              "f 1 2 3 4 5\n");
  expect_error([&] { read_obj(star); }, {"star.obj", "line 6", "not simple"});
  const auto flat = dir.write("line.obj", "v 0 0 0\nv 1 0 0\nv 2 0 0\nv 3 0 0\nf 1 2 3 4\n");
  expect_error([&] { read_obj(flat); }, {"line.obj", "line 5", "no area"});
  const auto two = dir.write("two.obj", "v 0 0 0\nv 1 0 0\nf 1 2\n");
  expect_error([&] { read_obj(two); }, {"two.obj", "line 3", "2 corners"});
}

TEST(ObjReader, RejectsBadIndicesNamingTheLine) {
  TempDir dir;
  const char* v3 = "v 0 0 0\nv 1 0 0\nv 0 1 0\n";
  expect_error([&] { read_obj(dir.write("a.obj", std::string(v3) + "f 1 2 4\n")); },
               {"a.obj", "line 4", "vertex index 4 out of range", "3 vertices"});
  expect_error([&] { read_obj(dir.write("b.obj", std::string(v3) + "\nf 0 1 2\n")); },
               {"b.obj", "line 5", "index 0", "start at 1"});
  expect_error([&] { read_obj(dir.write("c.obj", std::string(v3) + "f -1 -2 -4\n")); },
               {"c.obj", "line 4", "index -4 out of range"});
  // Forward references are out of range: OBJ faces use vertices defined above.
  expect_error([&] { read_obj(dir.write("d.obj", "v 0 0 0\nv 1 0 0\nf 1 2 3\nv 0 1 0\n")); },
               {"d.obj", "line 3", "index 3 out of range"});
  expect_error([&] { read_obj(dir.write("e.obj", std::string(v3) + "f 1 x 3\n")); },
               {"e.obj", "line 4", "bad face corner 'x'"});
}

TEST(ObjReader, RejectsBadCoordinatesNamingTheLine) {
  TempDir dir;
  expect_error([&] { read_obj(dir.write("nan.obj", "v 0 0 0\nv nan 0 0\nv 0 1 0\nf 1 2 3\n")); },
               {"nan.obj", "line 2", "not finite"});
  expect_error([&] { read_obj(dir.write("inf.obj", "v 0 0 0\nv 1 0 0\nv 0 -inf 0\nf 1 2 3\n")); },
               {"inf.obj", "line 3", "not finite"});
  expect_error([&] { read_obj(dir.write("big.obj", "v 0 0 0\nv 1e400 0 0\nv 0 1 0\nf 1 2 3\n")); },
               {"big.obj", "line 2", "not finite"});
  expect_error([&] { read_obj(dir.write("tok.obj", "v 0 0 0\nv 1 0 0\nv 0 1.5.2 0\nf 1 2 3\n")); },
               {"tok.obj", "line 3", "bad number '1.5.2'"});
  expect_error([&] { read_obj(dir.write("short.obj", "v 0 0\n")); }, {"short.obj", "line 1", "3 coordinates"});
  // Finite in the file, not once scaled.
  expect_error([&] { read_obj(dir.write("scaled.obj", "v 1e300 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"), {.scale = 1e10}); },
               {"scaled.obj", "line 1", "scale"});
}

TEST(ObjReader, RejectsMissingEmptyAndFacelessFiles) {
  TempDir dir;
  expect_error([&] { read_obj(dir.path() / "nowhere.obj"); }, {"nowhere.obj", "no such file"});
  expect_error([&] { read_obj(dir.path()); }, {dir.path().string(), "not a regular file"});
  expect_error([&] { read_obj(dir.write("empty.obj", "")); }, {"empty.obj", "empty file"});
  expect_error([&] { read_obj(dir.write("points.obj", "# only points\nv 0 0 0\nv 1 0 0\n")); },
               {"points.obj", "no triangles"});
  const auto ok = dir.write("ok.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
  expect_error([&] { read_obj(ok, {.scale = 0.0}); }, {"ok.obj", "scale"});
  expect_error([&] { read_obj(ok, {.scale = 1.0, .margin = -1.0}); }, {"ok.obj", "margin"});
}

TEST(ObjReader, WindowsLineEndingsAndSigns) {
  TempDir dir;
  const TriangleMesh m = read_obj(dir.write("crlf.obj", "v +1 0 0\r\nv 0 -1e-3 0\r\nv 0 0 1E2\r\nf 1 2 3\r\n"));
  EXPECT_EQ(m.vertices()[0], Vec3(1, 0, 0));
  EXPECT_EQ(m.vertices()[1], Vec3(0, -1e-3, 0));
  EXPECT_EQ(m.vertices()[2], Vec3(0, 0, 100));
}

}  // namespace
}  // namespace proxima
