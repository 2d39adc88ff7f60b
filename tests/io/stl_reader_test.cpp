// SPDX-License-Identifier: BSD-3-Clause
#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "io_test_support.hpp"

namespace proxima {
namespace {

using test::Bytes;
using test::expect_error;
using test::TempDir;

using Facet = std::array<std::array<float, 3>, 3>;

// Right tetrahedron O, x, 2y, 3z with outward corners. Some zeros are -0,
// as exporters write them, to check they weld with +0.
const std::vector<Facet> kTetra = {
    {{{0, 0, 0}, {0, 2, 0}, {1, 0, 0}}},
    {{{-0.0f, 0, 0}, {1, 0, 0}, {0, 0, 3}}},
    {{{0, -0.0f, 0}, {0, 0, 3}, {0, 2, 0}}},
    {{{1, 0, 0}, {0, 2, 0}, {0, 0, 3}}},
};

std::string ascii_stl(const std::vector<Facet>& facets, const std::string& name = "tetra") {
  std::string s = "solid " + name + "\n";
  for (const Facet& f : facets) {
    s += "  facet normal 0 0 0\n    outer loop\n";
    for (const auto& v : f) {
      s += "      vertex " + std::to_string(v[0]) + " " + std::to_string(v[1]) + " " + std::to_string(v[2]) + "\n";
    }
    s += "    endloop\n  endfacet\n";
  }
  return s + "endsolid " + name + "\n";
}

std::string binary_stl(const std::vector<Facet>& facets, const std::string& header, std::uint32_t count) {
  Bytes b;
  std::string h = header;
  h.resize(80, '\0');
  b.text(h).put(count);
  for (const Facet& f : facets) {
    b.put(0.0f).put(0.0f).put(0.0f);
    for (const auto& v : f) b.put(v[0]).put(v[1]).put(v[2]);
    b.put(std::uint16_t{0});
  }
  return b.str();
}

void expect_tetrahedron(const TriangleMesh& m, double scale) {
  EXPECT_EQ(m.triangle_count(), 4u);
  EXPECT_EQ(m.vertices().size(), 4u);  // welded, -0 with +0
  ASSERT_TRUE(m.is_closed());
  const auto mp = m.mass_properties();
  ASSERT_TRUE(mp.has_value());
  EXPECT_NEAR(mp->volume, scale * scale * scale * 1.0, 1e-12);
  EXPECT_LT((mp->centroid - scale * Vec3(0.25, 0.5, 0.75)).norm(), 1e-12);
}

TEST(StlReader, AsciiRoundTripWeldsEqualCorners) {
  TempDir dir;
  expect_tetrahedron(read_stl(dir.write("tetra.stl", ascii_stl(kTetra))), 1.0);
  expect_tetrahedron(read_stl(dir.write("scaled.stl", ascii_stl(kTetra)), {.scale = 0.5}), 0.5);
}

TEST(StlReader, AsciiKeywordsInAnyCaseAndSeveralSolids) {
  TempDir dir;
  std::string upper = "SOLID part\nFACET NORMAL 0 0 1\nOUTER LOOP\nVERTEX 0 0 0\nVERTEX 1 0 0\nVERTEX 0 1 0\n"
                      "ENDLOOP\nENDFACET\nENDSOLID part\n";
  const std::vector<Facet> rest(kTetra.begin() + 1, kTetra.end());
  const TriangleMesh m = read_stl(dir.write("two.stl", upper + ascii_stl(rest, "second")));
  EXPECT_EQ(m.triangle_count(), 4u);
  EXPECT_EQ(m.vertices().size(), 5u);
}

TEST(StlReader, BinaryRoundTripEvenWithSolidHeader) {
  TempDir dir;
  for (const std::string header : {"binary tetra", "solid tetra exported by a CAD tool"}) {
    const auto path = dir.write("tetra.stl", binary_stl(kTetra, header, 4));
    const TriangleMesh m = read_stl(path, {.scale = 2.0});
    expect_tetrahedron(m, 2.0);
    EXPECT_EQ(m.name(), path.string());
  }
}

TEST(StlReader, LargeShuffledGridWeldsEveryCornerInOrderOfFirstUse) {
  // 120 × 120 squares of two facets each, in shuffled order: 14,641
  // distinct corners, enough to grow the welder's table many times. The
  // vertices are the distinct corners in the order the file first uses
  // them, and every triangle's corners are its facet's.
  constexpr int k = 120;
  std::vector<Facet> facets;
  for (int i = 0; i < k; ++i)
    for (int j = 0; j < k; ++j) {
      const auto p = [](int x, int y) { return std::array<float, 3>{0.25f * x, 0.5f * y, 0.125f * ((x * 7 + y * 3) % 5)}; };
      facets.push_back({{p(i, j), p(i + 1, j), p(i + 1, j + 1)}});
      facets.push_back({{p(i, j), p(i + 1, j + 1), p(i, j + 1)}});
    }
  std::mt19937 rng(3);
  std::shuffle(facets.begin(), facets.end(), rng);
  TempDir dir;
  const TriangleMesh m =
      read_stl(dir.write("grid.stl", binary_stl(facets, "grid", static_cast<std::uint32_t>(facets.size()))));
  ASSERT_EQ(m.triangle_count(), facets.size());
  EXPECT_EQ(m.vertices().size(), static_cast<std::size_t>((k + 1) * (k + 1)));
  EXPECT_FALSE(m.is_closed());
  std::map<std::array<float, 3>, std::uint32_t> first_use;
  for (std::size_t t = 0; t < facets.size(); ++t)
    for (std::size_t c = 0; c < 3; ++c) {
      const auto corner = facets[t][c];
      const auto at = first_use.try_emplace(corner, static_cast<std::uint32_t>(first_use.size())).first;
      ASSERT_EQ(m.triangles()[t][c], at->second) << "triangle " << t << " corner " << c;
      ASSERT_EQ(m.corner(t, c), Vec3(corner[0], corner[1], corner[2]));
    }
}

TEST(StlReader, BinaryWithWrongCountOrTruncatedIsRejectedAtTheCount) {
  TempDir dir;
  // Count says 5, four records present.
  expect_error([&] { read_stl(dir.write("count.stl", binary_stl(kTetra, "x", 5))); },
               {"count.stl", "byte 80", "declares 5 triangles", "284 bytes", "truncated or wrong face count"});
  // Count says 3, four records present.
  expect_error([&] { read_stl(dir.write("extra.stl", binary_stl(kTetra, "solid x", 3))); },
               {"extra.stl", "byte 80", "declares 3 triangles", "wrong face count"});
  // Cut in the middle of the last record.
  std::string cut = binary_stl(kTetra, "x", 4);
  cut.resize(cut.size() - 20);
  expect_error([&] { read_stl(dir.write("cut.stl", cut)); }, {"cut.stl", "byte 80", "264 bytes", "truncated"});
  expect_error([&] { read_stl(dir.write("tiny.stl", std::string(40, '\x01'))); },
               {"tiny.stl", "byte 40", "truncated", "84 bytes"});
  // A zero count is a well-formed empty file.
  expect_error([&] { read_stl(dir.write("none.stl", binary_stl({}, "x", 0))); }, {"none.stl", "byte 80", "no triangles"});
}

TEST(StlReader, BinaryNonFiniteCoordinateNamesItsByte) {
  TempDir dir;
  std::vector<Facet> bad = kTetra;
  bad[2][1][2] = std::numeric_limits<float>::quiet_NaN();
  // record 2 starts at 84 + 100; corner 1 at +12 +12; z at +8.
  expect_error([&] { read_stl(dir.write("nan.stl", binary_stl(bad, "x", 4))); },
               {"nan.stl", "byte 216", "not finite", "triangle 2"});
  bad[2][1][2] = std::numeric_limits<float>::infinity();
  expect_error([&] { read_stl(dir.write("inf.stl", binary_stl(bad, "x", 4))); }, {"inf.stl", "byte 216", "not finite"});
}

TEST(StlReader, AsciiErrorsNameTheLine) {
  TempDir dir;
  const std::string good = ascii_stl(kTetra);  // facet k's corners on lines 7k+4..7k+6
  auto with = [&](const std::string& from, const std::string& to) {
    std::string s = good;
    s.replace(s.find(from), from.size(), to);
    return s;
  };
  expect_error([&] { read_stl(dir.write("nan.stl", with("vertex 1.000000 0.000000 0.000000", "vertex 1 nan 0"))); },
               {"nan.stl", "line 6", "not finite"});
  expect_error([&] { read_stl(dir.write("tok.stl", with("vertex 1.000000 0.000000 0.000000", "vertex 1 0,5 0"))); },
               {"tok.stl", "line 6", "bad vertex coordinate '0,5'"});
  expect_error([&] { read_stl(dir.write("four.stl", with("    endloop\n", "      vertex 5 5 5\n    endloop\n"))); },
               {"four.stl", "line 8", "4 vertices", "triangles"});
  expect_error([&] { read_stl(dir.write("kw.stl", with("outer loop", "outer lop"))); },
               {"kw.stl", "line 3", "expected 'loop'", "'lop'"});
  std::string no_end = good.substr(0, good.find("endsolid"));
  expect_error([&] { read_stl(dir.write("noend.stl", no_end)); }, {"noend.stl", "line 29", "endsolid"});
  std::string cut = good.substr(0, good.find("vertex 0.000000 2.000000"));
  expect_error([&] { read_stl(dir.write("cut.stl", cut)); }, {"cut.stl", "line 5", "file ends inside a facet"});
  expect_error([&] { read_stl(dir.write("faceless.stl", "solid empty\nendsolid empty\n")); },
               {"faceless.stl", "line 2", "no triangles"});
  // A "solid" file with NUL bytes is a binary file whose count is wrong.
  std::string nul = good;
  nul[100] = '\0';
  expect_error([&] { read_stl(dir.write("nul.stl", nul)); }, {"nul.stl", "byte 80", "binary STL declares"});
}

// What exporters get wrong around the geometry: normals are not read (the
// corner order gives the orientation), so a missing, NaN or wrong normal
// changes nothing; the endsolid name is informational; a file of a few
// facets is an open surface, loaded as it is.
TEST(StlReader, AsciiNormalsAndNamesAreNotReadAndOpenFilesLoad) {
  TempDir dir;
  const std::string good = ascii_stl(kTetra);
  auto every = [&](const std::string& from, const std::string& to) {
    std::string s = good;
    for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) {
      s.replace(at, from.size(), to);
    }
    return s;
  };
  const struct {
    const char* file;
    std::string text;
  } closed[] = {
      {"no_normal.stl", every("facet normal 0 0 0", "facet")},
      {"nan_normal.stl", every("facet normal 0 0 0", "facet normal nan NaN -nan")},
      {"wrong_normal.stl", every("facet normal 0 0 0", "facet normal 0 0 -1")},
      {"name_mismatch.stl", every("endsolid tetra", "endsolid another")},
  };
  for (const auto& c : closed) {
    SCOPED_TRACE(c.file);
    expect_tetrahedron(read_stl(dir.write(c.file, c.text)), 1.0);
  }
  for (std::size_t facets : {1u, 3u}) {
    const std::vector<Facet> part(kTetra.begin(), kTetra.begin() + facets);
    const TriangleMesh m = read_stl(dir.write("open.stl", ascii_stl(part)));
    EXPECT_EQ(m.triangle_count(), facets);
    EXPECT_EQ(m.vertices().size(), facets == 1 ? 3u : 4u);
    EXPECT_FALSE(m.is_closed());
    EXPECT_FALSE(m.mass_properties().has_value());
  }
  // A facet of two corners is no triangle; the error names the endloop line.
  std::string two = good;
  const std::string corner = "      vertex 0.000000 0.000000 3.000000\n";
  two.erase(two.find(corner), corner.size());  // facet 1 keeps two corners
  expect_error([&] { read_stl(dir.write("two.stl", two)); }, {"two.stl", "line 13", "2 vertices"});
}

TEST(StlReader, RejectsMissingAndEmptyFiles) {
  TempDir dir;
  expect_error([&] { read_stl(dir.path() / "absent.stl"); }, {"absent.stl", "no such file"});
  expect_error([&] { read_stl(dir.write("empty.stl", "")); }, {"empty.stl", "empty file"});
}

}  // namespace
}  // namespace proxima
