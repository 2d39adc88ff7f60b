// SPDX-License-Identifier: BSD-3-Clause
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "io_test_support.hpp"

namespace proxima {
namespace {

using test::Bytes;
using test::expect_error;
using test::TempDir;

const double kNan = std::numeric_limits<double>::quiet_NaN();

// Writes PLY element data in any of the three encodings, one value at a time.
class PlyData {
 public:
  explicit PlyData(const std::string& encoding) : ascii_(encoding == "ascii"), bytes_(encoding == "binary_big_endian") {}
  PlyData& value(const std::string& type, double v) {
    if (ascii_) {
      std::ostringstream s;
      s.precision(17);
      s << v;
      text_ += s.str() + " ";
    } else if (type == "char" || type == "int8") bytes_.put(static_cast<std::int8_t>(v));
    else if (type == "uchar" || type == "uint8") bytes_.put(static_cast<std::uint8_t>(v));
    else if (type == "short" || type == "int16") bytes_.put(static_cast<std::int16_t>(v));
    else if (type == "ushort" || type == "uint16") bytes_.put(static_cast<std::uint16_t>(v));
    else if (type == "int" || type == "int32") bytes_.put(static_cast<std::int32_t>(v));
    else if (type == "uint" || type == "uint32") bytes_.put(static_cast<std::uint32_t>(v));
    else if (type == "float" || type == "float32") bytes_.put(static_cast<float>(v));
    else bytes_.put(v);
    return *this;
  }
  void end_instance() {
    if (ascii_) text_.back() = '\n';
  }
  std::string str() const { return ascii_ ? text_ : bytes_.str(); }

 private:
  bool ascii_;
  std::string text_;
  Bytes bytes_;
};

struct PlyCube {
  std::string encoding = "ascii";
  // Types of x, y, z, of the face list's count and of its indices.
  std::string x = "double", y = "float", z = "short", count = "uchar", index = "int";
  bool faces_first = false;
  std::size_t declared_faces = 6;
  double x0 = 0.0;  // x of vertex 0
  int bad_index = -1;  // when >= 0, the last index of face 2
};

// Cube [0,2]³ as six outward quads, with properties and an element we skip.
std::string cube_ply(const PlyCube& c) {
  std::ostringstream h;
  h << "ply\nformat " << c.encoding << " 1.0\ncomment written by the Proxima tests\nobj_info none\n";
  const std::string vertex_header = "element vertex 8\nproperty float nx\nproperty " + c.x + " x\nproperty " + c.y +
                                    " y\nproperty " + c.z + " z\nproperty uchar red\nproperty list uchar float uv\n";
  const std::string face_header = "element face " + std::to_string(c.declared_faces) + "\nproperty list " + c.count +
                                  " " + c.index + " vertex_indices\nproperty int flags\n";
  h << (c.faces_first ? face_header + vertex_header : vertex_header + face_header);
  h << "element edge 2\nproperty int v1\nproperty int v2\nend_header\n";

  PlyData vertices(c.encoding), faces(c.encoding), edges(c.encoding);
  for (int i = 0; i < 8; ++i) {
    vertices.value("float", 0.5).value(c.x, i == 0 ? c.x0 : (i & 1) * 2.0).value(c.y, (i & 2) ? 2.0 : 0.0);
    vertices.value(c.z, (i & 4) ? 2.0 : 0.0).value("uchar", 200).value("uchar", 2).value("float", 0.25).value("float", 0.75);
    vertices.end_instance();
  }
  const int quads[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
  for (int f = 0; f < 6; ++f) {
    faces.value(c.count, 4);
    for (int k = 0; k < 4; ++k) faces.value(c.index, (f == 2 && k == 3 && c.bad_index >= 0) ? c.bad_index : quads[f][k]);
    faces.value("int", 7);
    faces.end_instance();
  }
  for (int e = 0; e < 2; ++e) {
    edges.value("int", e).value("int", e + 1);
    edges.end_instance();
  }
  return h.str() + (c.faces_first ? faces.str() + vertices.str() : vertices.str() + faces.str()) + edges.str();
}

void expect_cube(const TriangleMesh& m) {
  ASSERT_EQ(m.vertices().size(), 8u);
  ASSERT_EQ(m.triangle_count(), 12u);
  EXPECT_EQ(m.vertices()[7], Vec3(2, 2, 2));
  EXPECT_EQ(m.triangles()[0], (TriangleIndices{0, 2, 3}));
  EXPECT_EQ(m.triangles()[1], (TriangleIndices{0, 3, 1}));
  ASSERT_TRUE(m.is_closed());
  const auto mp = m.mass_properties();
  ASSERT_TRUE(mp.has_value());
  EXPECT_NEAR(mp->volume, 8.0, 1e-12);
}

const char* const kEncodings[] = {"ascii", "binary_little_endian", "binary_big_endian"};

TEST(PlyReader, EveryEncodingAndScalarTypeGivesTheSameCube) {
  TempDir dir;
  const PlyCube types[] = {
      {.x = "double", .y = "float", .z = "short", .count = "uchar", .index = "int"},
      {.x = "float32", .y = "int8", .z = "uint16", .count = "uint8", .index = "uint32"},
      {.x = "int", .y = "uint", .z = "uchar", .count = "int", .index = "ushort"},
      {.x = "char", .y = "double", .z = "float64", .count = "ushort", .index = "int8"},
  };
  for (const char* encoding : kEncodings) {
    for (PlyCube c : types) {
      c.encoding = encoding;
      SCOPED_TRACE(std::string(encoding) + " x " + c.x + " index " + c.index);
      expect_cube(read_ply(dir.write("cube.ply", cube_ply(c))));
      c.faces_first = true;
      expect_cube(read_ply(dir.write("cube.ply", cube_ply(c))));
    }
  }
}

TEST(PlyReader, ScaleAndMargin) {
  TempDir dir;
  const auto path = dir.write("cube.ply", cube_ply({.encoding = "binary_little_endian"}));
  const TriangleMesh m = read_ply(path, {.scale = 0.001, .margin = 0.002});
  EXPECT_EQ(m.vertices()[7], Vec3(0.002, 0.002, 0.002));
  EXPECT_DOUBLE_EQ(m.margin(), 0.002);
  EXPECT_EQ(m.name(), path.string());
}

TEST(PlyReader, WrongElementCountsAreRejected) {
  TempDir dir;
  // Header: ply, format, comment, obj_info, 7 vertex, 3 face, 3 edge lines,
  // end_header on line 18; vertex k on line 19 + k, face f on 27 + f, edges on 33-34.
  // One face too many declared: the first edge line is read as a face.
  expect_error([&] { read_ply(dir.write("more.ply", cube_ply({.declared_faces = 7}))); },
               {"more.ply", "line 34", "file ends before edge 1 of 2", "wrong element count"});
  // One too few: the last face line is read as an edge.
  expect_error([&] { read_ply(dir.write("fewer.ply", cube_ply({.declared_faces = 5}))); },
               {"fewer.ply", "line 32", "more values than the header declares for edge 0 of 2"});
  for (const char* enc : {"binary_little_endian", "binary_big_endian"}) {
    const std::string full = cube_ply({.encoding = enc});
    expect_error([&] { read_ply(dir.write("extra.ply", full + "xy")); },
                 {"extra.ply", "byte " + std::to_string(full.size()), "2 bytes after the last element"});
    // Cut inside the last edge: its v2 starts 4 bytes before the end.
    expect_error([&] { read_ply(dir.write("cut.ply", full.substr(0, full.size() - 2))); },
                 {"cut.ply", "byte " + std::to_string(full.size() - 4), "truncated", "edge 1 of 2"});
    expect_error([&] { read_ply(dir.write("seven.ply", cube_ply({.encoding = enc, .declared_faces = 7}))); },
                 {"seven.ply", "truncated", "edge 1 of 2"});
  }
  // ASCII data after the last element.
  expect_error([&] { read_ply(dir.write("tail.ply", cube_ply({}) + "1 2\n")); },
               {"tail.ply", "line 35", "data after the last element"});
}

TEST(PlyReader, BadIndicesAndCoordinatesNameTheirPlace) {
  TempDir dir;
  // ASCII: vertex k on line 19 + k, face f on line 27 + f.
  expect_error([&] { read_ply(dir.write("idx.ply", cube_ply({.bad_index = 8}))); },
               {"idx.ply", "line 29", "vertex index 8 out of range in face 2", "8 vertices"});
  expect_error([&] { read_ply(dir.write("neg.ply", cube_ply({.bad_index = 1000}))); },
               {"neg.ply", "line 29", "out of range"});
  expect_error([&] { read_ply(dir.write("nan.ply", cube_ply({.x0 = kNan}))); },
               {"nan.ply", "line 19", "not finite", "vertex 0"});
  // Binary: vertex 0's x follows the header and its 4-byte nx.
  const PlyCube bin{.encoding = "binary_big_endian", .x0 = kNan};
  const std::string text = cube_ply(bin);
  const std::size_t data = text.find("end_header\n") + 11;
  expect_error([&] { read_ply(dir.write("nan.ply", text)); },
               {"nan.ply", "byte " + std::to_string(data + 4), "not finite"});
  // Face 2's last index: 8 vertices of 4+8+4+2+1+1+8 bytes, 2 faces of 1+16+4, then count and 3 indices.
  const std::string bad = cube_ply({.encoding = "binary_little_endian", .bad_index = 9});
  const std::size_t at = bad.find("end_header\n") + 11 + 8 * 28 + 2 * 21 + 1 + 12;
  expect_error([&] { read_ply(dir.write("idx.ply", bad)); },
               {"idx.ply", "byte " + std::to_string(at), "vertex index 9 out of range"});
}

TEST(PlyReader, BadTokensAndHeadersAreRejected) {
  TempDir dir;
  auto with = [](std::string s, const std::string& from, const std::string& to) {
    s.replace(s.find(from), from.size(), to);
    return s;
  };
  const std::string good = cube_ply({});
  expect_error([&] { read_ply(dir.write("tok.ply", with(good, "0.5 2 0 0 200", "0.5 2 0 zero 200"))); },
               {"tok.ply", "line 20", "bad integer 'zero'"});
  expect_error([&] { read_ply(dir.write("tok2.ply", with(good, "0.5 0 0 0 200", "0.5 0x 0 0 200"))); },
               {"tok2.ply", "line 19", "bad number '0x'"});
  expect_error([&] { read_ply(dir.write("range.ply", with(good, "0.5 0 0 0 200", "0.5 0 0 0 300"))); },
               {"range.ply", "line 19", "'300' does not fit"});
  expect_error([&] { read_ply(dir.write("magic.ply", with(good, "ply\n", "plx\n"))); }, {"magic.ply", "line 1", "'ply'"});
  expect_error([&] { read_ply(dir.write("fmt.ply", with(good, "format ascii", "format binary_middle_endian"))); },
               {"fmt.ply", "line 2", "unknown PLY encoding"});
  expect_error([&] { read_ply(dir.write("end.ply", with(good, "end_header", "end_head"))); },
               {"end.ply", "line 18", "keyword 'end_head'"});
  expect_error([&] { read_ply(dir.write("noend.ply", "ply\nformat ascii 1.0\nelement vertex 0\n")); },
               {"noend.ply", "line 3", "no 'end_header'"});
  expect_error([&] { read_ply(dir.write("noz.ply", with(good, "property short z", "property short w"))); },
               {"noz.ply", "x, y, z"});
  expect_error([&] { read_ply(dir.write("noface.ply", "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\n"
                                                          "property float y\nproperty float z\nend_header\n0 0 0\n")); },
               {"noface.ply", "line 7", "no 'face' element"});
  expect_error([&] { read_ply(dir.write("type.ply", with(good, "property float nx", "property real nx"))); },
               {"type.ply", "line 6", "unknown PLY type 'real'"});
  expect_error([&] { read_ply(dir.write("two.ply", with(good, "4 0 2 3 1 7", "2 0 2 7"))); },
               {"two.ply", "line 27", "2 corners"});
  expect_error([&] { read_ply(dir.write("zero.ply", "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\n"
                                                         "property float y\nproperty float z\nelement face 0\n"
                                                         "property list uchar int vertex_indices\nend_header\n"
                                                         "0 0 0\n1 0 0\n0 1 0\n")); },
               {"zero.ply", "line 9", "no triangles"});
  expect_error([&] { read_ply(dir.write("empty.ply", "")); }, {"empty.ply", "empty file"});
}

}  // namespace
}  // namespace proxima
