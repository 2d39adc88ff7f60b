// SPDX-License-Identifier: BSD-3-Clause
// COLLADA and glTF through assimp, against coordinates worked out by hand from the
// files the tests write: units, node transforms (nested), polygons, the up
// axis left as written, and errors that name the file.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
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

// glTF 2.0 written here: a tetrahedron (corners 0, x, y, z) in one buffer,
// embedded as base64 or in a file beside the .gltf, placed by a node that
// translates it by (1, 2, 3).
std::string tetra_gltf(const std::string& buffer_uri) {
  return R"({"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}],
    "nodes": [{"mesh": 0, "translation": [1, 2, 3]}],
    "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]}],
    "buffers": [{"byteLength": 72, "uri": ")" + buffer_uri + R"("}],
    "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 48}, {"buffer": 0, "byteOffset": 48, "byteLength": 24}],
    "accessors": [{"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 1]},
                  {"bufferView": 1, "componentType": 5125, "count": 6, "type": "SCALAR"}]})";
}

// The buffer: 4 float corners, then 6 uint32 indices (two of the faces, so
// the mesh is open; enough for the placement and the count).
std::string tetra_buffer() {
  const float corners[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
  const std::uint32_t indices[6] = {0, 2, 1, 0, 1, 3};
  std::string b(reinterpret_cast<const char*>(corners), sizeof corners);
  b.append(reinterpret_cast<const char*>(indices), sizeof indices);
  return b;
}

std::string base64(const std::string& bytes) {
  static const char* k = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    const unsigned n = (static_cast<unsigned char>(bytes[i]) << 16) |
                       (i + 1 < bytes.size() ? static_cast<unsigned char>(bytes[i + 1]) << 8 : 0u) |
                       (i + 2 < bytes.size() ? static_cast<unsigned char>(bytes[i + 2]) : 0u);
    out += k[(n >> 18) & 63];
    out += k[(n >> 12) & 63];
    out += i + 1 < bytes.size() ? k[(n >> 6) & 63] : '=';
    out += i + 2 < bytes.size() ? k[n & 63] : '=';
  }
  return out;
}

void expect_placed_tetra(const TriangleMesh& m) {
  ASSERT_EQ(m.vertices().size(), 4u);
  ASSERT_EQ(m.triangle_count(), 2u);
  Vec3 lo = m.vertices()[0], hi = m.vertices()[0];
  for (const Vec3& v : m.vertices()) {
    lo = lo.cwiseMin(v);
    hi = hi.cwiseMax(v);
  }
  EXPECT_LE((lo - Vec3(1, 2, 3)).norm(), 1e-12);
  EXPECT_LE((hi - Vec3(2, 3, 4)).norm(), 1e-12);
}

TEST(GltfReader, EmbeddedAndExternalBuffersArePlacedByTheirNodes) {
  TempDir dir;
  const std::string data_uri = "data:application/octet-stream;base64," + base64(tetra_buffer());
  const auto embedded = dir.write("embedded.gltf", tetra_gltf(data_uri));
  expect_placed_tetra(read_gltf(embedded));
  dir.write("parts/tetra.bin", tetra_buffer());
  const auto external = dir.write("parts/external.gltf", tetra_gltf("tetra.bin"));
  expect_placed_tetra(read_gltf(external));
  expect_placed_tetra(read_mesh(external));  // by the extension
  // Scaled, with a margin.
  const TriangleMesh s = read_gltf(external, {.scale = 2.0, .margin = 0.01});
  EXPECT_DOUBLE_EQ(s.margin(), 0.01);
  EXPECT_NEAR(s.vertices()[0].norm(), 2.0 * Vec3(1, 2, 3).norm(), 1e-9 * 8);
}

// glTF 2.0 from assimp's own test models (Debian's assimp-testmodels): the
// textured box, with its buffer beside it and as one GLB, is the cube of its
// accessor's bounds (±0.5) turned by its root node: closed, volume 1.
TEST(GltfReader, TheTestModelsBoxIsAUnitCube) {
  const std::filesystem::path root = "/usr/share/assimp/models/glTF2";
  for (const std::filesystem::path& file :
       {root / "BoxTextured-glTF/BoxTextured.gltf", root / "BoxTextured-glTF-Binary/BoxTextured.glb"}) {
    ASSERT_TRUE(std::filesystem::exists(file)) << file << " (Debian package assimp-testmodels)";
    const TriangleMesh m = read_mesh(file);
    EXPECT_EQ(m.triangle_count(), 12u) << file;
    double volume = 0.0;
    Vec3 lo = Vec3::Constant(1e9), hi = Vec3::Constant(-1e9);
    for (const TriangleIndices& t : m.triangles()) {
      const Vec3 &a = m.vertices()[t[0]], &b = m.vertices()[t[1]], &c = m.vertices()[t[2]];
      volume += a.dot(b.cross(c)) / 6.0;
    }
    for (const Vec3& v : m.vertices()) {
      lo = lo.cwiseMin(v);
      hi = hi.cwiseMax(v);
    }
    EXPECT_NEAR(std::abs(volume), 1.0, 1e-6) << file;
    EXPECT_LE((lo + Vec3::Constant(0.5)).norm(), 1e-6) << file;
    EXPECT_LE((hi - Vec3::Constant(0.5)).norm(), 1e-6) << file;
  }
}

TEST(GltfReader, BadFilesNameTheFileAndReason) {
  TempDir dir;
  expect_error([&] { read_gltf(dir.path() / "missing.gltf"); }, {"missing.gltf"});
  expect_error([&] { read_gltf(dir.write("zero.glb", "")); }, {"zero.glb", "empty"});
  expect_error([&] { read_gltf(dir.write("junk.gltf", "{not json")); }, {"junk.gltf", "glTF"});
  // The buffer the file names is not there.
  expect_error([&] { read_gltf(dir.write("lost.gltf", tetra_gltf("lost.bin"))); }, {"lost.gltf", "glTF"});
  // Infinite coordinates (assimp's test model): refused, naming the file.
  const std::filesystem::path inf = "/usr/share/assimp/models/glTF2/BoxWithInfinites-glTF-Binary/BoxWithInfinites.glb";
  ASSERT_TRUE(std::filesystem::exists(inf));
  expect_error([&] { read_mesh(inf); }, {"BoxWithInfinites.glb"});
  const auto good =
      dir.write("good.gltf", tetra_gltf("data:application/octet-stream;base64," + base64(tetra_buffer())));
  expect_error([&] { read_gltf(good, {.scale = 0.0}); }, {"good.gltf", "scale"});
}

}  // namespace
}  // namespace proxima::test
