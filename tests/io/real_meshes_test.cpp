// SPDX-License-Identifier: BSD-3-Clause
// Meshes nobody here made, from Debian packages scripts/deps.sh installs:
// the scanned Stanford bunny of glmark2-data, the scanned mug of
// libmujoco-samples, and files from assimp's own test suite
// (assimp-testmodels): STL written by real exporters, and its invalid/
// inputs. The counts each test expects are read off the files by the test
// itself (lines, facets, bytes), not by our readers. Missing data fails
// these tests with the package that provides it; nothing is skipped.
#include <array>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "io_test_support.hpp"

namespace proxima {
namespace {

using test::expect_error;

// Fails the calling test (it returns false) when `file` is absent.
bool have(const std::filesystem::path& file, const char* package) {
  if (std::filesystem::exists(file)) return true;
  ADD_FAILURE() << "test data missing: " << file << "; install Debian's " << package << " (scripts/deps.sh does)";
  return false;
}

const std::filesystem::path kBunny = "/usr/share/glmark2/models/bunny.obj";
const std::filesystem::path kAssimp = "/usr/share/assimp/models";

// Finite, in range and the advertised size: what a loaded file must be.
void expect_sane(const TriangleMesh& m, std::size_t triangles) {
  EXPECT_EQ(m.triangle_count(), triangles);
  for (const Vec3& v : m.vertices()) ASSERT_TRUE(v.allFinite());
  for (const auto& t : m.triangles()) {
    for (auto i : t) ASSERT_LT(i, m.vertices().size());
  }
}

// An OBJ of plain `v x y z` and `f a b c` lines, read here without our
// reader: its vertices, its triangles (0-based), how many of their undirected
// edges are not used by exactly two triangles (a closed surface has none),
// and the volume by the divergence theorem (signed tetrahedra on the origin).
struct PlainObj {
  std::vector<Vec3> vertices;
  std::vector<std::array<std::size_t, 3>> triangles;
  std::size_t open_edges = 0;
  double volume = 0.0;
};

PlainObj read_plain_obj(const std::filesystem::path& file) {
  PlainObj obj;
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string kind;
    words >> kind;
    if (kind == "v") {
      Vec3 v;
      words >> v.x() >> v.y() >> v.z();
      obj.vertices.push_back(v);
    } else if (kind == "f") {
      std::array<std::size_t, 3> t{};
      for (auto& i : t) {
        words >> i;
        --i;
      }
      obj.triangles.push_back(t);
    }
  }
  std::map<std::pair<std::size_t, std::size_t>, int> uses;
  for (const auto& t : obj.triangles) {
    for (int k = 0; k < 3; ++k) ++uses[std::minmax(t[k], t[(k + 1) % 3])];
  }
  for (const auto& [edge, n] : uses) obj.open_edges += n == 2 ? 0 : 1;
  for (const auto& t : obj.triangles) {
    obj.volume += obj.vertices[t[0]].dot(obj.vertices[t[1]].cross(obj.vertices[t[2]])) / 6.0;
  }
  return obj;
}

// The scanned bunny as glmark2 ships it: its base holes closed, so a closed
// surface whose volume our mass properties must match.
TEST(RealMeshes, StanfordBunnyScanIsReadWithItsVolume) {
  if (!have(kBunny, "glmark2-data")) return;
  const PlainObj plain = read_plain_obj(kBunny);
  ASSERT_GT(plain.triangles.size(), 60000u);
  ASSERT_EQ(plain.open_edges, 0u);
  ASSERT_GT(plain.volume, 0.0);
  const TriangleMesh m = read_mesh(kBunny);
  expect_sane(m, plain.triangles.size());
  ASSERT_EQ(m.vertices().size(), plain.vertices.size());
  for (std::size_t i = 0; i < plain.triangles.size(); i += 997) {
    for (int k = 0; k < 3; ++k) {
      const Vec3 v = m.vertices()[m.triangles()[i][k]];
      ASSERT_EQ(v, plain.vertices[plain.triangles[i][k]]) << "triangle " << i;
    }
  }
  EXPECT_TRUE(m.is_closed());
  ASSERT_TRUE(m.mass_properties().has_value());
  EXPECT_NEAR(m.mass_properties()->volume, plain.volume, 1e-12 * plain.volume);
  // Scaled on reading, as a URDF's <mesh scale> does.
  const TriangleMesh small = read_mesh(kBunny, {.scale = 0.001});
  EXPECT_LT((small.local_aabb().max - 0.001 * m.local_aabb().max).norm(), 1e-12);
  EXPECT_NEAR(small.mass_properties().value().volume, 1e-9 * plain.volume, 1e-21 * plain.volume);
}

// A facet count read off the file: `facet` lines of an ASCII STL, the count
// at byte 80 of a binary one.
std::size_t ascii_facets(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::string word;
  std::size_t n = 0;
  while (in >> word) n += word == "facet" ? 1 : 0;
  return n;
}
std::size_t binary_facets(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  in.seekg(80);
  std::uint32_t n = 0;
  in.read(reinterpret_cast<char*>(&n), sizeof n);
  return n;
}

// The same model from one exporter as ASCII and as binary STL: the same
// triangles, corners equal to the ASCII file's six printed digits.
TEST(RealMeshes, AssimpSpiderAsciiAndBinaryStlAgree) {
  const std::filesystem::path ascii_file = kAssimp / "STL/Spider_ascii.stl";
  const std::filesystem::path binary_file = kAssimp / "STL/Spider_binary.stl";
  if (!have(ascii_file, "assimp-testmodels") || !have(binary_file, "assimp-testmodels")) return;
  const TriangleMesh ascii = read_mesh(ascii_file);
  const TriangleMesh binary = read_mesh(binary_file);
  const std::size_t facets = ascii_facets(ascii_file);
  ASSERT_GT(facets, 1000u);
  EXPECT_EQ(binary_facets(binary_file), facets);
  expect_sane(ascii, facets);
  expect_sane(binary, facets);
  ASSERT_EQ(ascii.vertices().size(), binary.vertices().size());
  for (std::size_t t = 0; t < facets; ++t) {
    for (int k = 0; k < 3; ++k) {
      const Vec3 a = ascii.vertices()[ascii.triangles()[t][k]];
      const Vec3 b = binary.vertices()[binary.triangles()[t][k]];
      ASSERT_LT((a - b).lpNorm<Eigen::Infinity>(), 1e-6 * (1.0 + b.lpNorm<Eigen::Infinity>())) << "triangle " << t;
    }
  }
}

// Other exporters' files: 3ds Max's binary STL (header "STLEXP"), and a
// sphere with a hole, open, written with tabs.
TEST(RealMeshes, AssimpExporterStlFilesLoad) {
  const std::filesystem::path max_file = kAssimp / "STL/3DSMaxExport.STL";
  const std::filesystem::path hole_file = kAssimp / "STL/sphereWithHole.stl";
  if (!have(max_file, "assimp-testmodels") || !have(hole_file, "assimp-testmodels")) return;
  const std::size_t max_facets = binary_facets(max_file);
  EXPECT_EQ(std::filesystem::file_size(max_file), 84 + 50 * max_facets);
  expect_sane(read_mesh(max_file), max_facets);
  const TriangleMesh hole = read_mesh(hole_file);
  expect_sane(hole, ascii_facets(hole_file));
  EXPECT_FALSE(hole.is_closed());
}

// assimp's invalid/ inputs: empty files, and an OBJ whose faces index
// vertices that are not there (12 and 0 of 8).
TEST(RealMeshes, AssimpInvalidInputsAreRejectedWithReasons) {
  const std::filesystem::path dir = kAssimp / "invalid";
  if (!have(dir / "malformed.obj", "assimp-testmodels")) return;
  for (const char* f : {"empty.obj", "empty.ply"}) {
    expect_error([&] { read_mesh(dir / f); }, {f, "empty file"});
  }
  expect_error([&] { read_mesh(dir / "malformed.obj"); }, {"malformed.obj", "line 23", "12"});
}

// The scanned mug of MuJoCo's samples: an open surface (800 edges used by
// one triangle), triangles only, texture and normal indices on every corner.
TEST(RealMeshes, ScannedMugFromMujocoSamples) {
  const std::filesystem::path mug = "/usr/share/mujoco/model/mug/mug.obj";
  if (!have(mug, "libmujoco-samples")) return;
  const TriangleMesh m = read_mesh(mug);
  expect_sane(m, 24544);
  EXPECT_EQ(m.vertices().size(), 12676u);
  EXPECT_FALSE(m.is_closed());
  EXPECT_FALSE(m.mass_properties().has_value());
}

}  // namespace
}  // namespace proxima
