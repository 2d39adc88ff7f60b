// SPDX-License-Identifier: BSD-3-Clause
// Contact manifolds against configurations whose manifold is known in closed
// form, and the requirements of Contact data for convex polyhedra on the points and the normal.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>

#include <proxima/query.hpp>

#include "../oracle/minkowski_oracle.hpp"
#include "../support/random.hpp"
#include "../support/test_shapes.hpp"

namespace proxima {
namespace {

constexpr double kPi = std::numbers::pi;

using testing::at;
Transform rot(const Vec3& axis, double angle, const Vec3& p) {
  return Transform::from_axis_angle(axis.normalized(), angle, p);
}

// True when some point of the set lies within tol of x.
bool has_point(const ContactSet& s, const Vec3& x, double tol = 1e-9) {
  return std::any_of(s.points.begin(), s.points.end(),
                     [&](const Contact& c) { return (c.point - x).norm() <= tol; });
}

void expect_uniform_depth(const ContactSet& s, double depth, double tol = 1e-9) {
  for (const Contact& c : s.points) {
    EXPECT_NEAR(c.depth, depth, tol);
    EXPECT_NEAR((c.normal - s.normal).norm(), 0.0, 1e-15);
  }
}

TEST(Manifold, BoxOnBoxAlignedGivesTheFourCorners) {
  const Shape a = Box(1, 1, 1), b = Box(2, 2, 1);
  const ContactSet s = contacts(a, at(0, 0, 0.999), b, at(0, 0, 0));
  ASSERT_EQ(s.status, Status::ok);
  EXPECT_NEAR(s.distance, -0.001, 1e-12);
  EXPECT_NEAR((s.normal - Vec3::UnitZ()).norm(), 0.0, 1e-12);
  ASSERT_EQ(s.size(), 4u);
  expect_uniform_depth(s, 0.001);
  for (double x : {-0.5, 0.5})
    for (double y : {-0.5, 0.5}) EXPECT_TRUE(has_point(s, {x, y, 0.4995})) << x << " " << y;
}

TEST(Manifold, OffsetBoxGivesTheCornersOfTheFaceOverlap) {
  const Shape a = Box(1, 1, 1), b = Box(1, 1, 1);
  const ContactSet s = contacts(a, at(0.7, -0.2, 0.99), b, at(0, 0, 0));
  ASSERT_EQ(s.size(), 4u);
  expect_uniform_depth(s, 0.01);
  for (double x : {0.2, 0.5})
    for (double y : {-0.5, 0.3}) EXPECT_TRUE(has_point(s, {x, y, 0.495})) << x << " " << y;
}

TEST(Manifold, SquareRotated45DegreesGivesTheOctagon) {
  const Shape a = Box(1, 1, 1), b = Box(1, 1, 1);
  const ContactSet s = contacts(a, rot(Vec3::UnitZ(), kPi / 4, {0, 0, 0.98}), b, at(0, 0, 0));
  ASSERT_EQ(s.size(), 8u);
  expect_uniform_depth(s, 0.02);
  // Octagon vertices: where the rotated square's edges |x| + |y| = √2/2
  // cross the lines |x| = 0.5 and |y| = 0.5.
  const double c = std::sqrt(0.5) - 0.5;
  for (double sx : {-1.0, 1.0})
    for (double sy : {-1.0, 1.0}) {
      EXPECT_TRUE(has_point(s, {sx * 0.5, sy * c, 0.49}));
      EXPECT_TRUE(has_point(s, {sx * c, sy * 0.5, 0.49}));
    }
}

TEST(Manifold, EdgeOnFaceGivesTheEdgeEnds) {
  const Shape a = Box(1, 1, 1), b = Box(4, 4, 1);
  const double h = std::sqrt(0.5);  // half diagonal of the unit square
  const ContactSet s = contacts(a, rot(Vec3::UnitX(), kPi / 4, {0, 0, 0.5 + h - 0.01}), b, at(0, 0, 0));
  ASSERT_EQ(s.size(), 2u);
  expect_uniform_depth(s, 0.01);
  EXPECT_TRUE(has_point(s, {-0.5, 0, 0.495}));
  EXPECT_TRUE(has_point(s, {0.5, 0, 0.495}));
}

TEST(Manifold, EdgeAcrossEdgeGivesOnePoint) {
  const Shape a = Box(1, 1, 1), b = Box(1, 1, 1);
  const double h = std::sqrt(0.5);
  // A's lowest edge runs along x, B's highest along y: they cross over the origin.
  const ContactSet s = contacts(a, rot(Vec3::UnitX(), kPi / 4, {0, 0, 2 * h - 0.01}), b,
                                rot(Vec3::UnitY(), kPi / 4, {0, 0, 0}));
  ASSERT_EQ(s.status, Status::ok);
  EXPECT_NEAR((s.normal - Vec3::UnitZ()).norm(), 0.0, 1e-9);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_NEAR(s.points[0].depth, 0.01, 1e-9);
  EXPECT_TRUE(has_point(s, {0, 0, h - 0.005}));
}

TEST(Manifold, VertexOnFaceGivesOnePoint) {
  const Shape a = Box(1, 1, 1), b = Box(4, 4, 1);
  // Turn the body diagonal (1,1,1) onto −z: a corner points down.
  const Mat3 R = Eigen::Quaterniond::FromTwoVectors(Vec3(1, 1, 1).normalized(), -Vec3::UnitZ())
                     .toRotationMatrix();
  const double half_diag = std::sqrt(3.0) / 2;
  const Transform pa{R, Vec3(0.3, 0.2, 0.5 + half_diag - 0.02)};
  const ContactSet s = contacts(a, pa, b, at(0, 0, 0));
  ASSERT_EQ(s.size(), 1u);
  EXPECT_NEAR(s.points[0].depth, 0.02, 1e-9);
  EXPECT_TRUE(has_point(s, {0.3, 0.2, 0.49}));
}

TEST(Manifold, CoincidentBoxesGiveAFaceWithTheFullDepth) {
  const Shape a = Box(1, 2, 3), b = Box(1, 2, 3);
  const ContactSet s = contacts(a, at(0, 0, 0), b, at(0, 0, 0));
  ASSERT_EQ(s.status, Status::ok);
  EXPECT_NEAR(s.distance, -1.0, 1e-12);  // the thinnest axis
  EXPECT_NEAR(std::abs(s.normal.x()), 1.0, 1e-12);
  ASSERT_EQ(s.size(), 4u);
  expect_uniform_depth(s, 1.0);
}

TEST(Manifold, BoxInsideABoxIsFiniteWithADeepManifold) {
  const Shape a = Box(0.2, 0.2, 0.2), b = Box(2, 2, 2);
  const ContactSet s = contacts(a, rot(Vec3(1, 2, 3), 0.4, {0.1, 0.5, 0.0}), b, at(0, 0, 0));
  ASSERT_EQ(s.status, Status::ok);
  ASSERT_FALSE(s.empty());
  for (const Contact& c : s.points) {
    EXPECT_TRUE(c.point.allFinite());
    EXPECT_GT(c.depth, 0.5);
  }
  EXPECT_NEAR((s.normal - Vec3::UnitY()).norm(), 0.0, 1e-12);
}

TEST(Manifold, BoxOnHalfspaceGivesFourCornersWithTheirOwnDepths) {
  const Shape a = Box(1, 1, 1), b = Halfspace(Vec3::UnitZ(), 0.0);
  const ContactSet s = contacts(a, at(2, 3, 0.45), b, at(0, 0, 0));
  ASSERT_EQ(s.size(), 4u);
  expect_uniform_depth(s, 0.05);
  EXPECT_TRUE(has_point(s, {1.5, 2.5, -0.025}));
  // Halfspace as A: the normal flips, the points stay.
  const ContactSet t = contacts(b, at(0, 0, 0), a, at(2, 3, 0.45));
  ASSERT_EQ(t.size(), 4u);
  EXPECT_NEAR((t.normal + Vec3::UnitZ()).norm(), 0.0, 1e-12);
  expect_uniform_depth(t, 0.05);
  EXPECT_TRUE(has_point(t, {2.5, 3.5, -0.025}));
}

TEST(Manifold, TiltedBoxOnHalfspaceWithinMarginReportsGaps) {
  const Shape a = Box(1, 1, 1), b = Halfspace(Vec3::UnitZ(), 0.0);
  // Tilted about y by -0.1 rad: the corners at local x = -0.5 are lowest.
  const Transform pa = rot(Vec3::UnitY(), -0.1, {0, 0, 0.5});
  ContactOptions o;
  o.margin = 0.2;
  const ContactSet s = contacts(a, pa, b, at(0, 0, 0), o);
  ASSERT_EQ(s.status, Status::ok);
  // Only the lowest edge is the feature (the tilt is far above tolerance).
  ASSERT_EQ(s.size(), 2u);
  const double lowest = (pa.apply({-0.5, 0.5, -0.5})).z();
  expect_uniform_depth(s, -lowest);
}

TEST(Manifold, CapsuleLyingOnABoxIsClippedToTheFace) {
  const Shape a = Capsule(0.1, 3.0), b = Box(1, 1, 1);
  // Capsule axis along x, longer than the face: both ends clip at x = ±0.5.
  const ContactSet s = contacts(a, rot(Vec3::UnitY(), kPi / 2, {0.2, 0.1, 0.59}), b, at(0, 0, 0));
  ASSERT_EQ(s.size(), 2u);
  expect_uniform_depth(s, 0.01);
  EXPECT_TRUE(has_point(s, {-0.5, 0.1, 0.495}));
  EXPECT_TRUE(has_point(s, {0.5, 0.1, 0.495}));
  // A short capsule keeps its own ends.
  const Shape c = Capsule(0.1, 0.4);
  const ContactSet t = contacts(c, rot(Vec3::UnitY(), kPi / 2, {0.0, 0.1, 0.59}), b, at(0, 0, 0));
  ASSERT_EQ(t.size(), 2u);
  EXPECT_TRUE(has_point(t, {-0.2, 0.1, 0.495}));
  EXPECT_TRUE(has_point(t, {0.2, 0.1, 0.495}));
}

TEST(Manifold, CylinderStandingGivesTheRimPolygonClippedToTheFace) {
  const Shape a = Cylinder(0.3, 1.0), b = Box(1, 1, 1);
  ContactOptions o;
  o.disc_points = 12;
  const ContactSet s = contacts(a, at(0, 0, 0.99), b, at(0, 0, 0), o);
  ASSERT_EQ(s.size(), 12u);
  expect_uniform_depth(s, 0.01);
  for (const Contact& c : s.points) EXPECT_NEAR(std::hypot(c.point.x(), c.point.y()), 0.3, 1e-12);
  // Overhanging the edge x = 0.5: the rim polygon is cut there.
  const ContactSet t = contacts(a, at(0.5, 0, 0.99), b, at(0, 0, 0), o);
  ASSERT_GE(t.size(), 3u);
  for (const Contact& c : t.points) {
    EXPECT_LE(c.point.x(), 0.5 + 1e-12);
    EXPECT_LE(std::hypot(c.point.x() - 0.5, c.point.y()), 0.3 + 1e-12);
  }
  EXPECT_TRUE(std::count_if(t.points.begin(), t.points.end(),
                            [](const Contact& c) { return std::abs(c.point.x() - 0.5) < 1e-12; }) == 2);
}

TEST(Manifold, CylinderLyingGivesItsSideLine) {
  const Shape a = Cylinder(0.2, 0.6), b = Box(2, 2, 1);
  const ContactSet s = contacts(a, rot(Vec3::UnitX(), kPi / 2, {0, 0, 0.695}), b, at(0, 0, 0));
  ASSERT_EQ(s.size(), 2u);
  expect_uniform_depth(s, 0.005);
  EXPECT_TRUE(has_point(s, {0, -0.3, 0.4975}));
  EXPECT_TRUE(has_point(s, {0, 0.3, 0.4975}));
}

TEST(Manifold, SphereAndEllipsoidGiveOnePoint) {
  const Shape b = Box(1, 1, 1);
  const ContactSet s = contacts(Sphere(0.25), at(0.1, 0.2, 0.74), b, at(0, 0, 0));
  ASSERT_EQ(s.size(), 1u);
  EXPECT_NEAR(s.points[0].depth, 0.01, 1e-12);
  EXPECT_TRUE(has_point(s, {0.1, 0.2, 0.495}));
  const ContactSet e = contacts(Ellipsoid({0.3, 0.2, 0.1}), at(0, 0, 0.59), b, at(0, 0, 0));
  ASSERT_EQ(e.size(), 1u);
  EXPECT_NEAR(e.points[0].depth, 0.01, 1e-9);
}

TEST(Manifold, PolytopeFaceOnBoxMatchesTheBoxManifold) {
  std::vector<Vec3> cube;
  for (int i = 0; i < 8; ++i) cube.push_back({i & 1 ? 0.5 : -0.5, i & 2 ? 0.5 : -0.5, i & 4 ? 0.5 : -0.5});
  const Shape p = ConvexPolytope(cube), box = Box(1, 1, 1);
  const Transform pa = rot(Vec3::UnitZ(), 0.3, {0.2, 0.1, 0.97});
  const ContactSet s = contacts(p, pa, box, at(0, 0, 0));
  const ContactSet t = contacts(box, pa, box, at(0, 0, 0));
  ASSERT_EQ(s.size(), t.size());
  ASSERT_GE(s.size(), 4u);
  for (const Contact& c : t.points) EXPECT_TRUE(has_point(s, c.point, 1e-9));
  expect_uniform_depth(s, 0.03);
}

TEST(Manifold, PairsBeyondTheMarginHaveNoContacts) {
  const Shape a = Box(1, 1, 1), b = Box(1, 1, 1);
  ContactOptions o;
  o.margin = 0.05;
  const ContactSet near = contacts(a, at(0, 0, 1.02), b, at(0, 0, 0), o);
  ASSERT_EQ(near.size(), 4u);
  expect_uniform_depth(near, -0.02);
  const ContactSet far = contacts(a, at(0, 0, 1.06), b, at(0, 0, 0), o);
  EXPECT_EQ(far.status, Status::ok);
  EXPECT_TRUE(far.empty());
  EXPECT_TRUE(contacts(a, at(0, 0, 1.001), b, at(0, 0, 0)).empty());  // zero margin
}

// A pair proven farther apart than the margin may stop its search early: its
// distance is then a lower bound, and the set says so. Any distance it does
// not flag is the pair's. Truth: the cylinder lies between the 360-gon
// prisms inscribed in it and circumscribed about it, so its distance to the
// box lies between theirs (the Minkowski-difference oracle).
TEST(Manifold, BeyondTheMarginTheDistanceIsTheDistanceOrAFlaggedLowerBound) {
  const double r = 0.3, half = 0.35;
  const Shape cyl = Cylinder(r, 2.0 * half), box = Box(0.6, 0.4, 0.8);
  std::vector<Vec3> inner, outer;
  const double out_r = r / std::cos(kPi / 360.0);
  for (int k = 0; k < 360; ++k) {
    const double t = 2.0 * kPi * k / 360.0;
    for (const double z : {-half, half}) {
      inner.emplace_back(r * std::cos(t), r * std::sin(t), z);
      outer.emplace_back(out_r * std::cos(t), out_r * std::sin(t), z);
    }
  }
  std::vector<Vec3> corners;
  for (int k = 0; k < 8; ++k) corners.emplace_back(k & 1 ? 0.3 : -0.3, k & 2 ? 0.2 : -0.2, k & 4 ? 0.4 : -0.4);
  const auto world = [](const std::vector<Vec3>& local, const Transform& t) {
    std::vector<Vec3> w;
    for (const Vec3& p : local) w.push_back(t.apply(p));
    return w;
  };
  testing::Rng rng(41);
  ContactOptions o;
  o.margin = 0.05;
  int flagged = 0, measured = 0;
  for (int i = 0; i < 60; ++i) {
    const Transform tb = rng.pose(0.0);
    const double reach = rng.uniform(0.9, 1.3);
    Transform ta = rng.pose(0.0);
    ta.p = reach * rng.unit_vector();
    const double below = oracle::minkowski_signed_distance(world(outer, ta), world(corners, tb));
    const double above = oracle::minkowski_signed_distance(world(inner, ta), world(corners, tb));
    if (!(below > o.margin + 1e-3)) continue;  // within the margin, or too near it to tell
    const ContactSet s = contacts(cyl, ta, box, tb, o);
    ASSERT_EQ(s.status, Status::ok);
    EXPECT_TRUE(s.empty());
    EXPECT_LE(s.distance, above + 1e-9) << i;  // never above the pair's distance
    if (s.bound_exceeded) {
      ++flagged;
      EXPECT_GT(s.distance, o.margin) << i;
    } else {
      ++measured;
      EXPECT_GE(s.distance, below - 1e-9) << i;  // unflagged: the distance itself
    }
  }
  // Both kinds occur here: an early stop, and a search that converged first.
  EXPECT_GT(flagged, 10);
  EXPECT_GT(measured, 0);
}

TEST(Manifold, ShapeMarginsShiftTheDepths) {
  const Shape a = Box(1, 1, 1, 0.01), b = Box(1, 1, 1, 0.02);
  const ContactSet s = contacts(a, at(0, 0, 1.0), b, at(0, 0, 0));
  ASSERT_EQ(s.size(), 4u);
  expect_uniform_depth(s, 0.03);
  EXPECT_TRUE(has_point(s, {0.5, 0.5, 0.505}));
}

TEST(Manifold, BadInputIsAStatusNeverNaN) {
  const Shape a = Box(1, 1, 1), b = Box(1, 1, 1);
  Transform bad = at(0, 0, 0.5);
  bad.p.x() = std::nan("");
  EXPECT_EQ(contacts(a, bad, b, at(0, 0, 0)).status, Status::invalid_input);
  bad = at(0, 0, 0.5);
  bad.R(0, 0) = std::numeric_limits<double>::infinity();
  EXPECT_EQ(contacts(a, at(0, 0, 0), b, bad).status, Status::invalid_input);
  ContactOptions o;
  o.margin = -1.0;
  EXPECT_EQ(contacts(a, at(0, 0, 0.5), b, at(0, 0, 0), o).status, Status::invalid_input);
  o = {};
  o.feature_tolerance = std::nan("");
  EXPECT_EQ(contacts(a, at(0, 0, 0.5), b, at(0, 0, 0), o).status, Status::invalid_input);
  o = {};
  o.disc_points = 2;
  EXPECT_EQ(contacts(a, at(0, 0, 0.5), b, at(0, 0, 0), o).status, Status::invalid_input);
  const Shape h = Halfspace(Vec3::UnitZ(), 0.0);
  EXPECT_EQ(contacts(h, at(0, 0, 0), h, at(0, 0, 0)).status, Status::not_implemented);
}

TEST(Manifold, ReusedSetKeepsItsCapacity) {
  const Shape a = Box(1, 1, 1), b = Box(1, 1, 1);
  ContactSet s;
  contacts(a, at(0, 0, 0.99), b, at(0, 0, 0), {}, s);
  const auto* data = s.points.data();
  contacts(a, at(0.1, 0, 0.99), b, at(0, 0, 0), {}, s);
  EXPECT_EQ(s.points.data(), data);
  EXPECT_EQ(s.size(), 4u);
}

}  // namespace
}  // namespace proxima
