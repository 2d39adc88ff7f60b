// Meshes nobody here made: npm's stl-models (fetched by
// scripts/fetch_test_data.sh) and the scanned mug of Debian's
// libmujoco-samples (scripts/deps.sh). Missing data fails these tests with
// the command that provides it; nothing is skipped.
#include <cstdlib>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "io_test_support.hpp"

namespace proxima {
namespace {

using test::expect_error;

std::filesystem::path stl_models() {
  const char* env = std::getenv("PROXIMA_TEST_DATA");
  const std::filesystem::path cache = env != nullptr && *env != '\0' ? env : PROXIMA_TEST_DATA_DIR;
  return cache / ("stl-models-" + std::string(PROXIMA_STL_MODELS_VERSION));
}

// Fails the calling test (it returns false) when stl-models is absent.
bool have_stl_models() {
  const std::filesystem::path dir = stl_models();
  if (std::filesystem::exists(dir / ".complete")) return true;
  ADD_FAILURE() << "test data missing: " << dir << " is not there; run scripts/fetch_test_data.sh "
                << "(or set PROXIMA_TEST_DATA to the cache it fills)";
  return false;
}

// Finite, in range and the advertised size: what a loaded file must be.
void expect_sane(const TriangleMesh& m, std::size_t triangles) {
  EXPECT_EQ(m.triangle_count(), triangles);
  for (const Vec3& v : m.vertices()) ASSERT_TRUE(v.allFinite());
  for (const auto& t : m.triangles()) {
    for (auto i : t) ASSERT_LT(i, m.vertices().size());
  }
}

// What each file of stl-models' broken/ does with our STL reader, and why:
//
//   empty.stl                    rejected: empty file
//   fourVertices.ascii.stl       rejected, line 8: a facet with 4 vertices (STL facets are triangles)
//   quad.ascii.stl               rejected, line 8: same (STL has no polygons to triangulate)
//   twoVertices.ascii.stl        rejected, line 6: a facet with 2 vertices
//   incorrectFaceCounter.bin.stl rejected, byte 80: declares 66 triangles, holds 4 (size 284 = 84 + 50·4)
//   missingEndsolid.ascii.stl    rejected, line 29: no 'endsolid'; it is the only sign of a file cut
//                                between facets, so a silently short mesh is not accepted
//   missingFace.ascii.stl        loaded: 3 well-formed facets; an open tetrahedron
//   singleFace.ascii.stl         loaded: 1 facet; open
//   missingNormal.ascii.stl      loaded, closed: normals are not read (corner order gives orientation)
//   notANumberNormal.ascii.stl   loaded, closed: same; the NaN is in a normal, not a coordinate
//   wrongNormal.ascii.stl        loaded, closed: same
//   wrongNormals.ascii.stl       loaded, closed: same
//   solidNameMismatch.ascii.stl  loaded, closed: the endsolid name is informational
//   wrongHeader.bin.stl          loaded, closed: a binary cube (side 100) whose header begins with
//                                "solid"; its size 684 = 84 + 50·12 identifies it as binary
TEST(RealMeshes, BrokenStlModelsAreRejectedWithReasonsOrLoadedSane) {
  if (!have_stl_models()) return;
  const std::filesystem::path broken = stl_models() / "broken";
  struct Rejected { const char* file; const char* where; const char* reason; };
  const Rejected rejected[] = {
      {"empty.stl", "", "empty file"},
      {"fourVertices.ascii.stl", "line 8", "4 vertices"},
      {"quad.ascii.stl", "line 8", "4 vertices"},
      {"twoVertices.ascii.stl", "line 6", "2 vertices"},
      {"incorrectFaceCounter.bin.stl", "byte 80", "declares 66 triangles"},
      {"missingEndsolid.ascii.stl", "line 29", "endsolid"},
  };
  struct Loaded { const char* file; std::size_t triangles; bool closed; };
  const Loaded loaded[] = {
      {"missingFace.ascii.stl", 3, false},       {"singleFace.ascii.stl", 1, false},
      {"missingNormal.ascii.stl", 4, true},      {"notANumberNormal.ascii.stl", 4, true},
      {"wrongNormal.ascii.stl", 4, true},        {"wrongNormals.ascii.stl", 4, true},
      {"solidNameMismatch.ascii.stl", 4, true},  {"wrongHeader.bin.stl", 12, true},
  };
  std::size_t covered = 0;
  for (const Rejected& r : rejected) {
    SCOPED_TRACE(r.file);
    expect_error([&] { read_mesh(broken / r.file); }, {(broken / r.file).string(), r.where, r.reason});
    ++covered;
  }
  for (const Loaded& l : loaded) {
    SCOPED_TRACE(l.file);
    const TriangleMesh m = read_mesh(broken / l.file);
    expect_sane(m, l.triangles);
    EXPECT_EQ(m.is_closed(), l.closed);
    if (l.closed) {
      const auto mp = m.mass_properties();
      ASSERT_TRUE(mp.has_value());
      EXPECT_GT(mp->volume, 0.0);
    }
    ++covered;
  }
  // Every file of broken/ has its line above.
  std::size_t files = 0;
  for (const auto& e : std::filesystem::directory_iterator(broken)) files += e.is_regular_file() ? 1 : 0;
  EXPECT_EQ(covered, files);
  EXPECT_NEAR(read_mesh(broken / "wrongHeader.bin.stl").mass_properties()->volume, 1e6, 1e-6);
}

TEST(RealMeshes, StlModelsPolytopesHaveTheirClosedFormVolumes) {
  if (!have_stl_models()) return;
  const std::filesystem::path dir = stl_models() / "polytopes";
  // cube: [-1, 1]³; unitCube: [0, 1]³; tetrahedron: O, x, y, z (-0 mixed in, welded with +0).
  for (const char* f : {"cube.ascii.stl", "cube.bin.stl"}) {
    EXPECT_NEAR(read_mesh(dir / f).mass_properties().value().volume, 8.0, 1e-9) << f;
  }
  for (const char* f : {"unitCube.ascii.stl", "unitCube.binary.stl"}) {
    EXPECT_NEAR(read_mesh(dir / f).mass_properties().value().volume, 1.0, 1e-9) << f;
  }
  for (const char* f : {"tetrahedron.ascii.stl", "tetrahedron.bin.stl", "tetrahedron.min.ascii.stl",
                        "tetrahedronMinusZero.bin.stl"}) {
    const TriangleMesh m = read_mesh(dir / f);
    EXPECT_EQ(m.vertices().size(), 4u) << f;
    EXPECT_NEAR(m.mass_properties().value().volume, 1.0 / 6.0, 1e-9) << f;
  }
  expect_error([&] { read_mesh(stl_models() / "misc/faceless.ascii.stl"); }, {"faceless.ascii.stl", "no triangles"});
}

// The scanned bunny has holes in its base (223 edges used by one triangle),
// so it is not closed even with its equal corners welded.
TEST(RealMeshes, StanfordBunnyBinaryAndAsciiAgree) {
  if (!have_stl_models()) return;
  const TriangleMesh bin = read_mesh(stl_models() / "objects/bunny.bin.stl");
  expect_sane(bin, 69451);
  EXPECT_EQ(bin.vertices().size(), 34834u);
  EXPECT_EQ(bin.is_closed(), false);
  const TriangleMesh ascii = read_mesh(stl_models() / "objects/bunny.ascii.stl", {.scale = 0.001});
  expect_sane(ascii, 69451);
  EXPECT_LT((ascii.local_aabb().max - 0.001 * bin.local_aabb().max).norm(), 1e-6);
}

// The scanned mug of MuJoCo's samples: an open surface (800 edges used by
// one triangle), triangles only, texture and normal indices on every corner.
TEST(RealMeshes, ScannedMugFromMujocoSamples) {
  const std::filesystem::path mug = "/usr/share/mujoco/model/mug/mug.obj";
  ASSERT_TRUE(std::filesystem::exists(mug)) << mug << " missing: install libmujoco-samples (scripts/deps.sh)";
  const TriangleMesh m = read_mesh(mug);
  expect_sane(m, 24544);
  EXPECT_EQ(m.vertices().size(), 12676u);
  EXPECT_FALSE(m.is_closed());
  EXPECT_FALSE(m.mass_properties().has_value());
}

}  // namespace
}  // namespace proxima
