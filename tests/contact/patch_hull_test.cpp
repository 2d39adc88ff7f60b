// SPDX-License-Identifier: BSD-3-Clause
// keep_patch_hulls against hulls known by construction: grids on squares,
// corners whose neighbours on a side differ from them by one rounding step,
// a square turned by a micro-radian over another (the overlap's extra
// vertices lie 5e-8 m off the sides), copies, and separate normals.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include <proxima/contact/patch_hull.hpp>

#include "../support/random.hpp"

namespace proxima {
namespace {

Contact at(double x, double y, double z = 0.0, Vec3 n = Vec3::UnitZ(), double depth = 1e-3) {
  Contact c;
  c.point = Vec3(x, y, z);
  c.normal = n;
  c.depth = depth;
  return c;
}

// Sorted (x, y) of the kept contacts, for comparison.
std::vector<std::pair<double, double>> corners(const std::vector<Contact>& c) {
  std::vector<std::pair<double, double>> out;
  for (const Contact& k : c) out.emplace_back(k.point.x(), k.point.y());
  std::sort(out.begin(), out.end());
  return out;
}

const std::vector<std::pair<double, double>> kSquare = {{-0.05, -0.05}, {-0.05, 0.05}, {0.05, -0.05}, {0.05, 0.05}};

TEST(PatchHull, GridOnASquareKeepsItsFourCorners) {
  std::vector<Contact> c;
  for (int i = 0; i <= 10; ++i)
    for (int j = 0; j <= 10; ++j) c.push_back(at(-0.05 + 0.01 * i, -0.05 + 0.01 * j));
  keep_patch_hulls(c, 1e-6);
  EXPECT_EQ(corners(c), kSquare);
}

// The corner and its side's other points share x only to rounding: a side
// point one step left of the corner's column is the lexicographic extreme,
// and a hull built with the tolerance inside its chains started there and
// dropped the true corner as collinear.
TEST(PatchHull, CornerSurvivesNeighboursOneRoundingStepOutside) {
  std::vector<Contact> c = {at(-0.05, -0.05), at(0.05, -0.05), at(0.05, 0.05), at(-0.05, 0.05)};
  const double left = std::nextafter(-0.05, -1.0);
  for (int j = 1; j < 10; ++j) c.push_back(at(j % 2 ? left : -0.05, -0.05 + 0.01 * j));
  for (int i = 1; i < 10; ++i) c.push_back(at(-0.05 + 0.01 * i, std::nextafter(0.05, 1.0)));
  keep_patch_hulls(c, 1e-6);
  EXPECT_EQ(corners(c), kSquare);
}

// A square turned by 1e-6 rad about its centre over an equal square: their
// overlap is an octagon whose side midpoints lie 5e-8 m off the line of the
// corners. With a 1e-6 m tolerance the patch is its 4 corners, whatever
// order the contacts come in.
TEST(PatchHull, MicroRotatedOverlapIsItsCornersInAnyOrder) {
  const double e = 0.05 * 1e-6;
  std::vector<Contact> base = {at(-0.05, -0.05 + e), at(0.05 - e, -0.05), at(0.05, 0.05 - e), at(-0.05 + e, 0.05),
                               at(0.0, -0.05),       at(0.05, 0.0),       at(0.0, 0.05),       at(-0.05, 0.0),
                               at(0.0, 0.0)};
  testing::Rng rng(5);
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<Contact> c = base;
    for (std::size_t i = c.size(); i > 1; --i) std::swap(c[i - 1], c[static_cast<std::size_t>(rng.uniform(0, 1) * double(i)) % i]);
    keep_patch_hulls(c, 1e-6);
    ASSERT_EQ(c.size(), 4u);
    for (const Contact& k : c) {
      EXPECT_NEAR(std::abs(k.point.x()), 0.05, 1e-6);
      EXPECT_NEAR(std::abs(k.point.y()), 0.05, 1e-6);
    }
  }
}

TEST(PatchHull, CopiesMergeKeepingTheDeepest) {
  std::vector<Contact> c = {at(0, 0, 0, Vec3::UnitZ(), 1e-3), at(1e-7, 0, 0, Vec3::UnitZ(), 2e-3),
                            at(1, 0, 0), at(0, 1, 0)};
  keep_patch_hulls(c, 1e-6);
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(c[0].depth, 2e-3);
  EXPECT_EQ(c[0].point.x(), 1e-7);
}

// Two patches with different normals (a box's bottom and side) and a
// curved set (every normal its own) are reduced separately; none loses a
// hull vertex.
TEST(PatchHull, PatchesWithDifferentNormalsStaySeparate) {
  std::vector<Contact> c;
  for (int i = 0; i <= 4; ++i)
    for (int j = 0; j <= 4; ++j) {
      c.push_back(at(0.01 * i, 0.01 * j, 0.0, Vec3::UnitZ()));
      c.push_back(at(0.0, 0.01 * i, 0.01 * j + 0.001, Vec3::UnitX()));
    }
  for (int k = 0; k < 5; ++k) {
    const double a = 0.3 * k;
    c.push_back(at(0.2 + std::cos(a), std::sin(a), 0.0, Vec3(std::cos(a), std::sin(a), 0.0)));
  }
  keep_patch_hulls(c, 1e-6);
  EXPECT_EQ(c.size(), 4u + 4u + 5u);
}

TEST(PatchHull, CollinearPatchKeepsItsEnds) {
  std::vector<Contact> c;
  for (int i = 0; i <= 20; ++i) c.push_back(at(0.005 * i, 1e-9 * (i % 3), 0.0));
  keep_patch_hulls(c, 1e-6);
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(c[0].point.x(), 0.0);
  EXPECT_NEAR(c[1].point.x(), 0.1, 1e-15);
}

}  // namespace
}  // namespace proxima
