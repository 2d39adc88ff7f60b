// SPDX-License-Identifier: BSD-3-Clause
// COLLADA through assimp, against coordinates worked out by hand from the
// files the tests write: units, node transforms (nested), polygons, the up
// axis left as written, and errors that name the file.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include <proxima/io/mesh_io.hpp>

#include "io_test_support.hpp"

namespace proxima::test {
namespace {

using testing::expect_error;

// A COLLADA document: `asset` inside <asset>, one geometry "g" whose
// <mesh> holds `positions` and `primitives`, instanced by `nodes` (which
// must contain <instance_geometry url="#g"/> somewhere).
std::string collada(const std::string& asset, const std::string& positions, int count, const std::string& primitives,
                    const std::string& nodes) {
  return R"(<?xml version="1.0" encoding="utf-8"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
  <asset>)" + asset + R"(</asset>
  <library_geometries><geometry id="g" name="g"><mesh>
    <source id="pos"><float_array id="pos-array" count=")" +
         std::to_string(3 * count) + R"(">)" + positions + R"(</float_array>
      <technique_common><accessor source="#pos-array" count=")" +
         std::to_string(count) + R"(" stride="3">
        <param name="X" type="float"/><param name="Y" type="float"/><param name="Z" type="float"/>
      </accessor></technique_common></source>
    <vertices id="verts"><input semantic="POSITION" source="#pos"/></vertices>
    )" + primitives + R"(
  </mesh></geometry></library_geometries>
  <library_visual_scenes><visual_scene id="s">)" +
         nodes + R"(</visual_scene></library_visual_scenes>
  <scene><instance_visual_scene url="#s"/></scene>
</COLLADA>
)";
}

const char* kTetraPositions = "0 0 0 100 0 0 0 200 0 0 0 300";
const char* kTetraFaces =
    R"(<triangles count="4"><input semantic="VERTEX" source="#verts" offset="0"/><p>0 2 1 0 1 3 0 3 2 1 2 3</p></triangles>)";

bool has_vertex(const TriangleMesh& m, const Vec3& v, double tol) {
  for (const Vec3& x : m.vertices())
    if ((x - v).norm() <= tol) return true;
  return false;
}

// Millimetres, Z up, the node 10, 20, 30 mm off: every corner moves by the
// node's translation and shrinks by 1000; the axes stay as written.
TEST(DaeReader, UnitsAndNodeTransformsAreApplied) {
  TempDir dir;
  const auto path = dir.write(
      "tetra.dae", collada(R"(<unit name="millimeter" meter="0.001"/><up_axis>Z_UP</up_axis>)", kTetraPositions, 4,
                           kTetraFaces,
                           R"(<node id="n"><matrix>1 0 0 10 0 1 0 20 0 0 1 30 0 0 0 1</matrix>
                                <instance_geometry url="#g"/></node>)"));
  const TriangleMesh m = read_dae(path);
  ASSERT_EQ(m.triangle_count(), 4u);
  ASSERT_EQ(m.vertices().size(), 4u);
  // assimp keeps coordinates in single precision: ~1e-7 relative.
  for (const Vec3& v : {Vec3(0.01, 0.02, 0.03), Vec3(0.11, 0.02, 0.03), Vec3(0.01, 0.22, 0.03), Vec3(0.01, 0.02, 0.33)})
    EXPECT_TRUE(has_vertex(m, v, 1e-7)) << v.transpose();
  EXPECT_TRUE(m.is_closed());
  EXPECT_EQ(m.name(), path.string());
  // read_mesh picks it by extension, and by content under another name.
  EXPECT_EQ(read_mesh(path).triangle_count(), 4u);
  const auto renamed = dir.write("tetra.mesh", collada("", kTetraPositions, 4, kTetraFaces,
                                                       R"(<node id="n"><instance_geometry url="#g"/></node>)"));
  const TriangleMesh r = read_mesh(renamed, {.scale = 0.5});
  EXPECT_TRUE(has_vertex(r, Vec3(0, 0, 150), 1e-9));
}

// A Y-up file stays in its own axes (as ROS's loaders read URDF meshes), and
// nested nodes compose: a quarter turn about z, then 1 m along x.
TEST(DaeReader, YUpStaysAsWrittenAndNestedNodesCompose) {
  TempDir dir;
  const auto path = dir.write(
      "nested.dae",
      collada("<up_axis>Y_UP</up_axis>", kTetraPositions, 4, kTetraFaces,
              R"(<node id="outer"><matrix>1 0 0 1 0 1 0 0 0 0 1 0 0 0 0 1</matrix>
                   <node id="inner"><matrix>0 -1 0 0 1 0 0 0 0 0 1 0 0 0 0 1</matrix>
                     <instance_geometry url="#g"/></node></node>)"));
  const TriangleMesh m = read_dae(path);
  // R_z(90°)·(x, y, z) = (−y, x, z), then + (1, 0, 0).
  for (const Vec3& v : {Vec3(1, 0, 0), Vec3(1, 100, 0), Vec3(-199, 0, 0), Vec3(1, 0, 300)})
    EXPECT_TRUE(has_vertex(m, v, 1e-9)) << v.transpose();
}

TEST(DaeReader, PolygonsAreTriangulated) {
  TempDir dir;
  const auto path = dir.write(
      "quad.dae", collada("", "0 0 0 1 0 0 1 1 0 0 1 0", 4,
                          R"(<polylist count="1"><input semantic="VERTEX" source="#verts" offset="0"/>
                               <vcount>4</vcount><p>0 1 2 3</p></polylist>)",
                          R"(<node id="n"><instance_geometry url="#g"/></node>)"));
  const TriangleMesh m = read_dae(path);
  EXPECT_EQ(m.triangle_count(), 2u);
  double area = 0.0;
  for (const TriangleIndices& t : m.triangles()) {
    const Vec3 &a = m.vertices()[t[0]], &b = m.vertices()[t[1]], &c = m.vertices()[t[2]];
    area += 0.5 * (b - a).cross(c - a).norm();
  }
  EXPECT_NEAR(area, 1.0, 1e-12);
}

TEST(DaeReader, BadFilesNameTheFileAndReason) {
  TempDir dir;
  const auto broken = dir.write("broken.dae", "<COLLADA version=\"1.4.1\"><library_geometries>");
  expect_error([&] { read_dae(broken); }, {broken.string(), "COLLADA"});
  const auto lines_only = dir.write(
      "lines.dae", collada("", kTetraPositions, 4,
                           R"(<lines count="1"><input semantic="VERTEX" source="#verts" offset="0"/><p>0 1</p></lines>)",
                           R"(<node id="n"><instance_geometry url="#g"/></node>)"));
  expect_error([&] { read_dae(lines_only); }, {lines_only.string()});
  const auto not_xml = dir.write("junk.dae", "this is not xml at all");
  expect_error([&] { read_dae(not_xml); }, {not_xml.string()});
  expect_error([&] { read_dae(dir.path() / "missing.dae"); }, {"missing.dae"});
  expect_error([&] { read_dae(dir.write("zero.dae", "")); }, {"zero.dae", "empty"});
  const auto good = dir.write("good.dae", collada("", kTetraPositions, 4, kTetraFaces,
                                                  R"(<node id="n"><instance_geometry url="#g"/></node>)"));
  expect_error([&] { read_dae(good, {.scale = 0.0}); }, {"good.dae", "scale"});
  expect_error([&] { read_dae(good, {.scale = 1.0, .margin = -1.0}); }, {"margin"});
}

}  // namespace
}  // namespace proxima::test
