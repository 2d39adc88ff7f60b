// SPDX-License-Identifier: BSD-3-Clause
// Closed-form pairs against hand-derived values.
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include <proxima/narrow/closed_form.hpp>
#include <proxima/query.hpp>

#include "../oracle/minkowski_oracle.hpp"
#include "../oracle/oracle_geometry.hpp"
#include "../oracle/sweep_oracle.hpp"
#include "../support/random.hpp"
#include "../support/test_shapes.hpp"

namespace proxima {
namespace {

const double kS2 = std::sqrt(2.0);
using testing::at;
// Rotation taking local z to world x (about y by +90°).
Transform z_to_x(double x, double y, double z) {
  return Transform::from_axis_angle(Vec3::UnitY(), M_PI / 2, Vec3(x, y, z));
}

void expect_result(const DistanceResult& r, double d, const Vec3& n, double tol = 1e-14) {
  ASSERT_EQ(r.status, Status::ok);
  EXPECT_NEAR(r.distance, d, tol);
  EXPECT_NEAR((r.normal - n).norm(), 0.0, 1e-12) << r.normal.transpose();
  EXPECT_NEAR((r.point_b - (r.point_a - r.distance * r.normal)).norm(), 0.0, 1e-12);
}

TEST(ClosedForm, SphereSphere) {
  const Sphere a(1.0), b(0.5);
  expect_result(signed_distance(a, at(3, 0, 0), b, at(0, 0, 0)), 1.5, Vec3::UnitX());
  expect_result(signed_distance(a, at(0, 1, 0), b, at(0, 0, 0)), -0.5, Vec3::UnitY());
  const DistanceResult c = signed_distance(a, at(0, 0, 0), b, at(0, 0, 0));
  EXPECT_NEAR(c.distance, -1.5, 1e-15);
  EXPECT_NEAR(c.normal.norm(), 1.0, 1e-15);
  const DistanceResult d = distance(a, at(0, 1, 0), b, at(0, 0, 0));
  EXPECT_EQ(d.distance, 0.0);
  // A common point: the centres' segment divided in the ratio of the radii
  // (2/3 m from A's centre, 1/3 m from B's: inside both).
  EXPECT_NEAR((d.point_a - Vec3(0, 1.0 / 3.0, 0)).norm(), 0.0, 1e-15);
  EXPECT_TRUE(collide(a, at(0, 1.5, 0), b, at(0, 0, 0)).collide);   // touching counts
  EXPECT_FALSE(collide(a, at(0, 1.5 + 1e-12, 0), b, at(0, 0, 0)).collide);
}

TEST(ClosedForm, SphereCapsule) {
  const Sphere s(0.25);
  const Capsule c(0.5, 2.0);
  expect_result(signed_distance(s, at(1, 0, 0.5), c, at(0, 0, 0)), 0.25, Vec3::UnitX());
  expect_result(signed_distance(s, at(0, 0, 2), c, at(0, 0, 0)), 0.25, Vec3::UnitZ());
  expect_result(signed_distance(c, at(0, 0, 0), s, at(0, 0, -2)), 0.25, Vec3::UnitZ());
  const DistanceResult inside = signed_distance(s, at(0, 0, 0.3), c, at(0, 0, 0));
  EXPECT_NEAR(inside.distance, -0.75, 1e-15);
  EXPECT_NEAR(inside.normal.z(), 0.0, 1e-15);  // on the axis: leave sideways
  // Capsule lying along x.
  expect_result(signed_distance(s, at(0.8, 0, 1), c, z_to_x(0, 0, 0)), 0.25, Vec3::UnitZ(), 1e-12);
}

TEST(ClosedForm, CapsuleCapsule) {
  const Capsule a(0.25, 2.0), b(0.25, 1.0);
  expect_result(signed_distance(a, at(1, 0, 0), b, at(0, 0, 0)), 0.5, Vec3::UnitX());
  // Axes crossing at right angles one meter apart.
  expect_result(signed_distance(a, z_to_x(0, 0, 1), b, Transform::from_axis_angle(Vec3::UnitX(), M_PI / 2)),
                0.5, Vec3::UnitZ(), 1e-12);
  // End to end along the axis: gap 0.5 between segment ends.
  expect_result(signed_distance(a, at(0, 0, 2), b, at(0, 0, 0)), 0.0, Vec3::UnitZ());
  // Crossing through each other: depth = sum of radii along the common normal.
  const DistanceResult x = signed_distance(a, z_to_x(0, 0, 0), b, Transform::from_axis_angle(Vec3::UnitX(), M_PI / 2));
  EXPECT_NEAR(x.distance, -0.5, 1e-15);
  EXPECT_NEAR(std::abs(x.normal.z()), 1.0, 1e-12);
  // Parallel, overlapping along their length.
  expect_result(signed_distance(a, at(0.3, 0, 0.2), b, at(0, 0, 0)), -0.2, Vec3::UnitX());
}

// Segment–segment distance by ternary search over the first segment: the
// distance from a point moving along a segment to a fixed segment is convex
// in its parameter. Shares nothing with closest_segment_params.
double segment_distance_by_search(const Vec3& a0, const Vec3& a1, const Vec3& b0, const Vec3& b1) {
  auto f = [&](double u) {
    const Vec3 p = a0 + u * (a1 - a0);
    return (p - oracle::closest_point_on_segment(p, b0, b1)).norm();
  };
  double lo = 0.0, hi = 1.0;
  for (int k = 0; k < 200; ++k) {
    const double m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3;
    (f(m1) < f(m2) ? hi : lo) = f(m1) < f(m2) ? m2 : m1;
  }
  return f(0.5 * (lo + hi));
}

// Capsule pairs at random poses, a third of them with parallel or nearly
// parallel axes (where the closest-point system is singular), against the
// search. The cores' closest points, recovered from the result, must lie on
// the segments and be that far apart.
TEST(ClosedForm, CapsulePairsMatchSegmentSearch) {
  const Capsule a(0.25, 0.5), b(0.1, 1.2);
  const Sphere s(0.3);
  testing::Rng rng(707);
  const double tilts[] = {0.0, 1e-12, 1e-8, 1e-5, 1e-2};
  const int poses = testing::scaled(3000);
  int overlapping = 0;
  for (int i = 0; i < poses; ++i) {
    const Transform ta = rng.pose(0.6);
    Transform tb = rng.pose(0.6);
    if (i % 3 == 0) tb.R = Transform::from_axis_angle(rng.unit_vector(), tilts[i / 3 % 5]).R * ta.R;
    const Vec3 a0 = ta.apply(Vec3(0, 0, -a.half_length())), a1 = ta.apply(Vec3(0, 0, a.half_length()));
    const Vec3 b0 = tb.apply(Vec3(0, 0, -b.half_length())), b1 = tb.apply(Vec3(0, 0, b.half_length()));
    auto check = [&](const DistanceResult& r, const std::vector<Vec3>& ca_pts, double ra, double rb) {
      ASSERT_EQ(r.status, Status::ok);
      const double core = segment_distance_by_search(ca_pts[0], ca_pts.back(), b0, b1);
      EXPECT_NEAR(r.distance, core - ra - rb, 1e-12) << "pose " << i;
      EXPECT_NEAR(r.normal.norm(), 1.0, 1e-14);
      const Vec3 ca = r.point_a + ra * r.normal, cb = r.point_b - rb * r.normal;
      const Vec3 on_a = ca_pts.size() == 1 ? ca_pts[0] : oracle::closest_point_on_segment(ca, ca_pts[0], ca_pts[1]);
      EXPECT_LT((ca - on_a).norm(), 1e-12) << "pose " << i;
      EXPECT_LT((cb - oracle::closest_point_on_segment(cb, b0, b1)).norm(), 1e-12) << "pose " << i;
      EXPECT_NEAR((ca - cb).norm(), core, 1e-12) << "pose " << i;
      if (core > 1e-9) {
        EXPECT_LT((r.normal - (ca - cb) / (ca - cb).norm()).norm(), 1e-9) << "pose " << i;
      }
      overlapping += r.distance < 0.0;
    };
    check(signed_distance(a, ta, b, tb), {a0, a1}, 0.25, 0.1);
    check(signed_distance(s, ta, b, tb), {ta.p}, 0.3, 0.1);
  }
  EXPECT_GT(overlapping, poses / 4);
}

// closest_segment_params on segments of different lengths, half of them
// nearly parallel, against the same search.
TEST(ClosedForm, SegmentParamsMatchSegmentSearch) {
  testing::Rng rng(708);
  const double tilts[] = {0.0, 1e-12, 1e-8, 1e-5, 1e-2, 0.2};
  for (int i = 0; i < testing::scaled(3000); ++i) {
    const Vec3 u = rng.unit_vector();
    const Vec3 v = i % 2 == 0 ? rng.unit_vector()
                              : Vec3(Transform::from_axis_angle(rng.unit_vector(), tilts[i / 2 % 6]).R * u);
    const Vec3 p0 = rng.uniform_vec(-1, 1), q0(rng.uniform(-1, 1), 0.1, 0.2);
    const Vec3 p1 = p0 + rng.uniform(0.01, 2.0) * u, q1 = q0 + rng.uniform(0.01, 2.0) * v;
    const auto [s, t] = closed_form::closest_segment_params(p0, p1, q0, q1);
    ASSERT_TRUE(s >= 0.0 && s <= 1.0 && t >= 0.0 && t <= 1.0) << "pose " << i;
    const double d = ((p0 + s * (p1 - p0)) - (q0 + t * (q1 - q0))).norm();
    EXPECT_NEAR(d, segment_distance_by_search(p0, p1, q0, q1), 1e-12) << "pose " << i;
  }
}

TEST(ClosedForm, SphereBox) {
  const Sphere s(0.5);
  const Box b(2.0, 2.0, 2.0);
  expect_result(signed_distance(s, at(2, 0, 0), b, at(0, 0, 0)), 0.5, Vec3::UnitX());
  expect_result(signed_distance(s, at(2, 2, 0), b, at(0, 0, 0)), kS2 - 0.5, Vec3(1, 1, 0) / kS2);
  expect_result(signed_distance(s, at(2, 2, 2), b, at(0, 0, 0)), std::sqrt(3.0) - 0.5, Vec3(1, 1, 1) / std::sqrt(3.0));
  expect_result(signed_distance(s, at(0, 0, 0.8), b, at(0, 0, 0)), -0.7, Vec3::UnitZ());
  expect_result(signed_distance(b, at(0, 0, 0), s, at(0, -0.9, 0)), -0.6, Vec3::UnitY());
  // Rotated box: corner pointing at the sphere.
  const Transform r = Transform::from_axis_angle(Vec3::UnitZ(), M_PI / 4);
  expect_result(signed_distance(s, at(3, 0, 0), b, r), 3 - kS2 - 0.5, Vec3::UnitX(), 1e-14);
}

// Capsule–box against the signed distance of the explicitly built Minkowski
// difference of the cores (segment endpoints ⊖ box corners, qhull), minus
// the radii: separated cores, a segment reaching into the box, and the
// segment exactly or nearly parallel to the box's faces and edges (where
// the closest points are not unique and slope breaks coincide).
TEST(ClosedForm, CapsuleBoxMatchesMinkowskiOracle) {
  testing::Rng rng(709);
  const double tilts[] = {0.0, 1e-12, 1e-8, 1e-4};
  const int poses = testing::scaled(4000);
  int cores_apart = 0, layers_overlap = 0, cores_overlap = 0;
  for (int i = 0; i < poses; ++i) {
    const Capsule cap(rng.uniform(0.01, 0.3), rng.uniform(0.05, 1.5), i % 4 == 0 ? 0.02 : 0.0);
    const Box box(rng.uniform_vec(0.1, 1.2), i % 5 == 0 ? 0.03 : 0.0);
    const Transform tb = i % 7 == 0 ? at(0.1, -0.2, 0.3) : rng.pose(0.5);
    Transform ta = rng.pose(1.0);
    if (i % 3 == 0) {
      // The axis along the box's axis k (a cyclic permutation of the axes
      // takes local z there), turned by a tiny angle, the centre near a
      // face: parallel and nearly parallel placements.
      const int k = i / 3 % 3;
      Mat3 cycle;
      cycle << Vec3::Unit((k + 1) % 3), Vec3::Unit((k + 2) % 3), Vec3::Unit(k);
      ta.R = Transform::from_axis_angle(rng.unit_vector(), tilts[i / 9 % 4]).R * tb.R * cycle;
      Vec3 local = rng.uniform_vec(-0.6, 0.6);
      local[(k + 1) % 3] = box.half_extents()[(k + 1) % 3] + rng.uniform(-0.2, 0.3);
      ta.p = tb.apply(local);
    }
    const double l = cap.half_length(), ra = cap.core_inflation(), rb = box.core_inflation();
    const Vec3 s0 = ta.apply(Vec3(0, 0, -l)), s1 = ta.apply(Vec3(0, 0, l));
    std::vector<Vec3> corners;
    for (int m = 0; m < 8; ++m) {
      const Vec3& h = box.half_extents();
      corners.push_back(tb.apply(Vec3(m & 1 ? h.x() : -h.x(), m & 2 ? h.y() : -h.y(), m & 4 ? h.z() : -h.z())));
    }
    Vec3 closest;
    const double core = oracle::minkowski_signed_distance({s0, s1}, corners, &closest);
    const DistanceResult r = signed_distance(cap, ta, box, tb);
    ASSERT_EQ(r.status, Status::ok) << "pose " << i;
    EXPECT_NEAR(r.distance, core - ra - rb, 1e-9) << "pose " << i;
    EXPECT_NEAR(r.normal.norm(), 1.0, 1e-12) << "pose " << i;
    EXPECT_NEAR((r.point_b - (r.point_a - r.distance * r.normal)).norm(), 0.0, 1e-9) << "pose " << i;
    const double cn = closest.norm();
    if (cn > 1e-6) {
      // B→A: along the closest point of the difference when apart, against
      // the nearest boundary point when the cores overlap.
      const Vec3 truth = core > 0.0 ? Vec3(closest / cn) : Vec3(-closest / cn);
      EXPECT_LT((r.normal - truth).norm(), 1e-6) << "pose " << i << " core " << core;
    }
    if (core > 1e-9) {
      // Witnesses: A's core point on the segment, B's on the box, as far
      // apart as the cores.
      const Vec3 ca = r.point_a + ra * r.normal, cb = r.point_b - rb * r.normal;
      EXPECT_LT((ca - oracle::closest_point_on_segment(ca, s0, s1)).norm(), 1e-9) << "pose " << i;
      const Vec3 cb_local = tb.apply_inverse(cb);
      EXPECT_LE((cb_local.cwiseAbs() - box.half_extents()).maxCoeff(), 1e-9) << "pose " << i;
      EXPECT_NEAR((ca - cb).norm(), core, 1e-9) << "pose " << i;
    }
    // The reversed pair: the same distance, the normal flipped.
    const DistanceResult f = signed_distance(box, tb, cap, ta);
    ASSERT_EQ(f.status, Status::ok) << "pose " << i;
    EXPECT_NEAR(f.distance, r.distance, 1e-12) << "pose " << i;
    EXPECT_LT((f.normal + r.normal).norm(), 1e-12) << "pose " << i;
    cores_apart += core > 0.0 && r.distance > 0.0;
    layers_overlap += core > 0.0 && r.distance < 0.0;
    cores_overlap += core < 0.0;
  }
  // Every regime is exercised.
  EXPECT_GT(cores_apart, poses / 10);
  EXPECT_GT(layers_overlap, poses / 50);
  EXPECT_GT(cores_overlap, poses / 10);
}

TEST(ClosedForm, SphereCylinder) {
  const Sphere s(0.25);
  const Cylinder c(0.5, 2.0);  // radius 0.5, caps at z = ±1
  expect_result(signed_distance(s, at(1, 0, 0), c, at(0, 0, 0)), 0.25, Vec3::UnitX());
  expect_result(signed_distance(s, at(0, 0, 1.5), c, at(0, 0, 0)), 0.25, Vec3::UnitZ());
  expect_result(signed_distance(s, at(0.3, 0, -1.5), c, at(0, 0, 0)), 0.25, -Vec3::UnitZ());
  // Beyond the rim: nearest the rim circle at (0.5, 0, 1).
  expect_result(signed_distance(s, at(1, 0, 2), c, at(0, 0, 0)), std::sqrt(1.25) - 0.25,
                Vec3(0.5, 0, 1) / std::sqrt(1.25));
  // Inside: out through the side (gap 0.2 < cap gap 0.8), or the cap (0.05 < 0.4).
  expect_result(signed_distance(s, at(0, 0.3, 0.2), c, at(0, 0, 0)), -0.45, Vec3::UnitY());
  expect_result(signed_distance(s, at(0.1, 0, -0.95), c, at(0, 0, 0)), -0.3, -Vec3::UnitZ());
  // On the axis every side direction is as deep: +x, deterministically.
  expect_result(signed_distance(s, at(0, 0, 0), c, at(0, 0, 0)), -0.75, Vec3::UnitX());
  // The reversed pair, a lying cylinder and margins on both.
  expect_result(signed_distance(c, at(0, 0, 0), s, at(1, 0, 0)), 0.25, -Vec3::UnitX());
  expect_result(signed_distance(s, at(0, 1, 0), c, z_to_x(0, 0, 0)), 0.25, Vec3::UnitY(), 1e-14);
  expect_result(signed_distance(Sphere(0.25, 0.05), at(1, 0, 0), Cylinder(0.5, 2.0, 0.1), at(0, 0, 0)), 0.1,
                Vec3::UnitX());
}

TEST(ClosedForm, SphereCone) {
  const Sphere s(0.25);
  const Cone c(1.0, 2.0);  // base radius 1 at z = −1, apex at z = +1
  const Vec3 slant = Vec3(2, 0, 1) / std::sqrt(5.0);  // outward normal of the side, in the x–z plane
  expect_result(signed_distance(s, at(0, 0, -1.5), c, at(0, 0, 0)), 0.25, -Vec3::UnitZ());
  expect_result(signed_distance(s, at(0, 0, 2), c, at(0, 0, 0)), 0.75, Vec3::UnitZ());
  // Half a metre off the side's midpoint (0.5, 0, 0), along its normal.
  expect_result(signed_distance(s, Transform::from_translation(Vec3(0.5, 0, 0) + 0.5 * slant), c, at(0, 0, 0)),
                0.25, slant);
  // Beyond the rim, inside its normal cone: nearest the rim (1, 0, −1).
  expect_result(signed_distance(s, at(2, 0, -1.5), c, at(0, 0, 0)), std::sqrt(1.25) - 0.25,
                Vec3(1, 0, -0.5) / std::sqrt(1.25));
  // Inside: the centre leaves through the side (1/√5 < 1), near the base through it.
  expect_result(signed_distance(s, at(0, 0, 0), c, at(0, 0, 0)), -1 / std::sqrt(5.0) - 0.25, slant);
  expect_result(signed_distance(s, at(0.2, 0, -0.9), c, at(0, 0, 0)), -0.35, -Vec3::UnitZ());
  // The same around the axis: the side's normal turns with the azimuth.
  expect_result(signed_distance(s, at(0, 0.1, 0), c, at(0, 0, 0)), -(2 * 0.9 - 1) / std::sqrt(5.0) - 0.25,
                Vec3(0, 2, 1) / std::sqrt(5.0));
  expect_result(signed_distance(c, at(0, 0, 0), s, at(0, 0, 2)), 0.75, -Vec3::UnitZ());
  expect_result(signed_distance(s, at(0, 0, -1.5), Cone(1.0, 2.0, 0.1), at(0, 0, 0)), 0.15, -Vec3::UnitZ());
}

TEST(ClosedForm, SphereEllipsoid) {
  const Sphere s(0.1);
  const Ellipsoid e(Vec3(0.3, 0.5, 0.2));
  expect_result(signed_distance(s, at(1, 0, 0), e, at(0, 0, 0)), 0.6, Vec3::UnitX());
  expect_result(signed_distance(s, at(0, -1, 0), e, at(0, 0, 0)), 0.4, -Vec3::UnitY());
  expect_result(signed_distance(s, at(0, 0, 0.5), e, at(0, 0, 0)), 0.2, Vec3::UnitZ());
  // The centre leaves along the shortest semi-axis (z).
  expect_result(signed_distance(s, at(0, 0, 0), e, at(0, 0, 0)), -0.3, Vec3::UnitZ());
  // Inside on the long axis, near its end: out through that end.
  expect_result(signed_distance(s, at(0, 0.45, 0), e, at(0, 0, 0)), -0.15, Vec3::UnitY(), 1e-12);
  // A centre off the smallest axis's plane by a denormal (y/e underflows;
  // a fuzz finding gave −inf): the concentric answer, out along ±z.
  for (const double tiny : {5e-324, -5e-324, 1e-310}) {
    const DistanceResult r = signed_distance(s, at(0, 0, tiny), e, at(0, 0, 0));
    ASSERT_EQ(r.status, Status::ok);
    EXPECT_NEAR(r.distance, -0.3, 1e-15) << tiny;
    EXPECT_NEAR(std::abs(r.normal.z()), 1.0, 1e-15) << tiny;
  }
  // Far outside, the centre a subnormal or tiny distance off the smallest
  // axis's plane (a rotation entry of −2e-323 put it there; a fuzz finding
  // whose Newton root placed the witness on the ellipsoid's far side): the
  // independent point–ellipsoid distance, witnesses consistent.
  const Ellipsoid long_one(Vec3(4.6227206836041814, 50.164034485389486, 6.5600061036087585));
  for (const double tiny : {-1.9762625833649862e-323, 2e-321, -1e-300, 1e-160, 0.0}) {
    Transform tb = Transform::from_axis_angle(Vec3::UnitX(), 3.4851, Vec3(0, 0, 99.937438010223545));
    tb.R(0, 2) = tb.R(2, 0) = tiny;
    const DistanceResult r = signed_distance(s, Transform(), long_one, tb);
    ASSERT_EQ(r.status, Status::ok) << tiny;
    const Vec3 local = tb.R.transpose() * (-tb.p);
    EXPECT_NEAR(r.distance, oracle::point_ellipsoid_distance(long_one.radii(), local) - 0.1, 1e-9) << tiny;
    EXPECT_NEAR((r.point_a - r.point_b - r.distance * r.normal).norm(), 0.0, 1e-9) << tiny;
  }
  expect_result(signed_distance(e, at(0, 0, 0), s, at(0, 0, -0.5)), 0.2, Vec3::UnitZ());
  // Equal semi-axes: the sphere–sphere answer, inside and out.
  const Ellipsoid round(Vec3(0.3, 0.3, 0.3), 0.05);
  const Sphere ball(0.3, 0.05);
  testing::Rng rng(5);
  for (int i = 0; i < 200; ++i) {
    const Transform ta = rng.pose(0.6), tb = rng.pose(0.1);
    const DistanceResult r = signed_distance(s, ta, round, tb), q = signed_distance(s, ta, ball, tb);
    ASSERT_EQ(r.status, Status::ok);
    EXPECT_NEAR(r.distance, q.distance, 1e-14) << i;
    EXPECT_NEAR((r.normal - q.normal).norm(), 0.0, 1e-12) << i;
  }
}

// Sphere against the solids of revolution and the ellipsoid at random
// poses, against ground truth that shares no code with the closed forms: separated, the certified
// support-sweep oracle; overlapping, A moved along the normal by the depth
// plus (minus) 1e-7 is 1e-7 apart by the oracle (still overlaps), so the
// depth is attained along the normal, and EPA (forced, its own code) finds
// none shallower.
TEST(ClosedForm, SphereCurvedMatchesOracles) {
  std::vector<testing::TestShape> spheres, solids;
  for (testing::TestShape& t : testing::bounded_test_shapes()) {
    if (t.label == "sphere") spheres.push_back(t);
    if (t.label == "cylinder" || t.label.rfind("cone", 0) == 0 || t.label == "ellipsoid") solids.push_back(t);
  }
  ASSERT_EQ(spheres.size(), 1u);
  ASSERT_EQ(solids.size(), 3u);
  DistanceRequest epa;
  epa.method = Method::gjk;
  testing::Rng rng(606);
  const int poses = testing::scaled(400);
  int separated = 0, overlapping = 0;
  for (const testing::TestShape& b : solids) {
    for (int i = 0; i < poses; ++i) {
      const bool flip = i % 2 == 1;  // the reversed pair too
      const testing::TestShape& x = flip ? b : spheres[0];
      const testing::TestShape& y = flip ? spheres[0] : b;
      const Transform ta = rng.pose(0.5), tb = rng.pose(0.1);
      const DistanceResult r = signed_distance(x.shape, ta, y.shape, tb);
      ASSERT_EQ(r.status, Status::ok);
      ASSERT_TRUE(std::isfinite(r.distance) && r.normal.allFinite() && r.point_a.allFinite() && r.point_b.allFinite());
      EXPECT_NEAR(r.normal.norm(), 1.0, 1e-14);
      EXPECT_NEAR((r.point_b - (r.point_a - r.distance * r.normal)).norm(), 0.0, 1e-12);
      auto sweep = [&](const Transform& a_pose) {
        return oracle::sweep_separation_report([&](const Vec3& d) { return x.support(a_pose, d); },
                                               [&](const Vec3& d) { return y.support(tb, d); });
      };
      if (r.distance > 1e-6) {
        const oracle::SweepReport rep = sweep(ta);
        ASSERT_TRUE(rep.separated);
        EXPECT_NEAR(r.distance, rep.value, 1e-9 + (rep.upper - rep.lower)) << b.label << " pose " << i;
        ++separated;
      } else if (r.distance < -1e-6) {
        const double depth = -r.distance;
        const oracle::SweepReport out = sweep(Transform{ta.R, ta.p + (depth + 1e-7) * r.normal});
        ASSERT_TRUE(out.separated) << b.label << " pose " << i;
        EXPECT_NEAR(out.value, 1e-7, 1e-10) << b.label << " pose " << i;
        EXPECT_FALSE(sweep(Transform{ta.R, ta.p + (depth - 1e-7) * r.normal}).separated) << b.label << " pose " << i;
        const DistanceResult e = signed_distance(x.shape, ta, y.shape, tb, epa);
        EXPECT_GE(e.distance, r.distance - 1e-9) << b.label << " pose " << i;
        EXPECT_NEAR(e.distance, r.distance, 1e-8) << b.label << " pose " << i;
        ++overlapping;
      }
    }
  }
  EXPECT_GT(separated, poses / 4);
  EXPECT_GT(overlapping, poses / 4);
}

TEST(ClosedForm, ShapesOnHalfspace) {
  const Halfspace ground(Vec3::UnitZ(), 0.0);
  const Box box(2.0, 2.0, 2.0);
  // Box rotated 45° about x stands on an edge: lowest point √2 below its centre.
  expect_result(signed_distance(box, Transform::from_axis_angle(Vec3::UnitX(), M_PI / 4, Vec3(0, 0, 2)), ground, {}),
                2 - kS2, Vec3::UnitZ(), 1e-14);
  expect_result(signed_distance(ground, {}, box, at(0, 0, 1.5)), 0.5, -Vec3::UnitZ(), 1e-14);
  // Ellipsoid: lowest point c·n − sqrt(nᵀ R D² Rᵀ n).
  const Ellipsoid e(Vec3(0.5, 0.3, 0.2));
  const Transform te = Transform::from_axis_angle(Vec3(1, 2, 3), 0.7, Vec3(0.1, 0.2, 0.3));
  const Vec3 nl = te.R.transpose() * Vec3::UnitZ();
  const double lowest = 0.3 - std::sqrt(std::pow(0.5 * nl.x(), 2) + std::pow(0.3 * nl.y(), 2) + std::pow(0.2 * nl.z(), 2));
  expect_result(signed_distance(e, te, ground, {}), lowest, Vec3::UnitZ(), 1e-14);
  // Tilted ground: offset 1 along (0, 1, 1)/√2 and a sphere with a margin.
  const Halfspace tilted(Vec3(0, 1, 1), 1.0, 0.1);
  expect_result(signed_distance(Sphere(0.5), at(0, 2, 2), tilted, {}), 2 * kS2 - 1 - 0.6, Vec3(0, 1, 1) / kS2, 1e-14);
  // Cylinder standing: its bottom rim touches at z = −h/2.
  expect_result(signed_distance(Cylinder(0.3, 1.0), at(0, 0, 0.4), ground, {}), -0.1, Vec3::UnitZ(), 1e-15);
}

// Sphere, capsule and box against halfspaces whose normals lie along an
// axis (taken as a column of the pose's rotation) and off every axis, both
// bodies at random poses: the signed distance is the lowest core vertex's
// height over the turned plane, less the radii, computed here from the
// vertices; the normal is the turned plane's; the witness on B lies on the
// plane (shifted by B's margin) and A's is the distance away along it.
TEST(ClosedForm, ShapesOnHalfspaceMatchTheirLowestVertexAtRandomPoses) {
  EXPECT_EQ(Halfspace(Vec3::UnitZ(), 0.0).axis(), 2);
  EXPECT_EQ(Halfspace(Vec3(0, 0, 3), 0.0).axis(), 2);  // normalized first
  EXPECT_EQ(Halfspace(-Vec3::UnitX(), 0.0).axis(), 0);
  EXPECT_EQ(Halfspace(-Vec3::UnitX(), 0.0).axis_sign(), -1.0);
  EXPECT_EQ(Halfspace(Vec3(0, 1, 1), 0.0).axis(), -1);
  EXPECT_EQ(Halfspace(Vec3(0, 1e-300, 1), 0.0).axis(), -1);
  const Halfspace planes[] = {Halfspace(Vec3::UnitZ(), 0.3), Halfspace(-Vec3::UnitY(), -0.2, 0.05),
                              Halfspace(Vec3::UnitX(), 0.0), Halfspace(Vec3(0.2, -0.5, 1.0), 0.1),
                              Halfspace(Vec3(0, 1e-300, 1), 0.3)};
  struct Body {
    Shape shape;
    std::vector<Vec3> core;  // local core vertices
    double radius;           // core inflation
  };
  const std::vector<Body> bodies = {
      {Sphere(0.25, 0.01), {Vec3::Zero()}, 0.26},
      {Capsule(0.1, 0.6), {Vec3(0, 0, -0.3), Vec3(0, 0, 0.3)}, 0.1},
      {Box(1.0, 0.6, 0.4), {}, 0.0},
  };
  std::vector<Vec3> corners;
  for (int c = 0; c < 8; ++c) corners.emplace_back((c & 1) ? 0.5 : -0.5, (c & 2) ? 0.3 : -0.3, (c & 4) ? 0.2 : -0.2);
  testing::Rng rng(2611);
  int overlapping = 0, checked = 0;
  for (const Halfspace& plane : planes) {
    for (const Body& body : bodies) {
      const std::vector<Vec3>& core = body.core.empty() ? corners : body.core;
      for (int i = 0; i < 300; ++i) {
        const Transform ta = rng.pose(1.0), tb = rng.pose(0.5);
        const Vec3 n = tb.R * plane.normal();
        const double offset = plane.offset() + n.dot(tb.p);
        double lowest = std::numeric_limits<double>::infinity();
        for (const Vec3& v : core) lowest = std::min(lowest, n.dot(ta.apply(v)) - offset);
        const double truth = lowest - body.radius - plane.margin();
        const DistanceResult r = signed_distance(body.shape, ta, Shape(plane), tb);
        ASSERT_EQ(r.status, Status::ok);
        EXPECT_NEAR(r.distance, truth, 1e-14) << "plane axis " << plane.axis() << ", pose " << i;
        EXPECT_LT((r.normal - n).norm(), 1e-15);
        EXPECT_NEAR(n.dot(r.point_b) - offset, plane.margin(), 1e-14);
        EXPECT_LT((r.point_a - r.point_b - r.distance * n).norm(), 1e-14);
        overlapping += truth < 0.0;
        ++checked;
      }
    }
  }
  EXPECT_GT(overlapping, checked / 5);
  EXPECT_LT(overlapping, checked - checked / 5);
}

TEST(ClosedForm, HalfspacePairs) {
  const Halfspace below(Vec3::UnitZ(), 0.0), above(-Vec3::UnitZ(), -1.0);
  // above = {z ≥ 1}: a 1 m slab gap.
  expect_result(signed_distance(below, {}, above, {}), 1.0, -Vec3::UnitZ());
  expect_result(signed_distance(below, at(0, 0, 1.5), above, {}), -0.5, -Vec3::UnitZ());
  const Halfspace wall(Vec3::UnitX(), 0.0);
  EXPECT_TRUE(collide(below, {}, wall, {}).collide);
  EXPECT_EQ(distance(below, {}, wall, {}).distance, 0.0);
  EXPECT_EQ(signed_distance(below, {}, wall, {}).status, Status::not_implemented);
}

TEST(ClosedForm, AgreesWithGjkWhenForced) {
  // The same pairs through GJK (method gjk) give the same distances.
  DistanceRequest g;
  g.method = Method::gjk;
  const Transform ta = Transform::from_axis_angle(Vec3(1, 1, 0), 0.4, Vec3(1.5, 0.7, 0.2));
  const Transform tb = Transform::from_axis_angle(Vec3(0, 1, 1), -0.3, Vec3(-0.2, 0.1, 0.0));
  const Sphere s(0.3);
  const Capsule c(0.2, 0.8);
  const Box b(0.5, 0.7, 0.9);
  EXPECT_NEAR(distance(s, ta, c, tb).distance, distance(s, ta, c, tb, g).distance, 1e-10);
  EXPECT_NEAR(distance(c, ta, c, tb).distance, distance(c, ta, c, tb, g).distance, 1e-10);
  EXPECT_NEAR(distance(s, ta, b, tb).distance, distance(s, ta, b, tb, g).distance, 1e-10);
  EXPECT_NEAR(distance(b, ta, s, tb).distance, distance(b, ta, s, tb, g).distance, 1e-10);
  EXPECT_NEAR(distance(c, ta, b, tb).distance, distance(c, ta, b, tb, g).distance, 1e-10);
  EXPECT_NEAR(distance(b, ta, c, tb).distance, distance(b, ta, c, tb, g).distance, 1e-10);
  DistanceRequest an;
  an.method = Method::analytic;
  EXPECT_EQ(distance(b, ta, b, tb, an).status, Status::not_implemented);
}

// The typed entry points (narrow/closed_form.hpp) take poses from anywhere:
// a NaN or infinite entry, in the position or in the rotation (used or not),
// is reported as invalid input with finite fields, never computed into NaN.
// Before this check, a NaN position gave distance NaN with status ok.
TEST(ClosedForm, TypedEntryPointsRejectNonFinitePoses) {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  const Sphere s(0.3);
  const Capsule c(0.2, 0.8);
  const Box b(0.5, 0.7, 0.9);
  const Halfspace h(Vec3::UnitZ(), 0.0);
  std::vector<Transform> bad;
  for (const double x : {nan, inf, -inf}) {
    Transform p = at(0, 0, 0), r = at(0, 0, 0);
    p.p.y() = x;
    r.R(2, 1) = x;
    bad.push_back(p);
    bad.push_back(r);
  }
  auto rejected = [](const DistanceResult& r) {
    return r.status == Status::invalid_input && std::isfinite(r.distance) && r.normal.allFinite() &&
           r.point_a.allFinite() && r.point_b.allFinite();
  };
  const Transform ok = at(1, 0, 0);
  for (const Transform& t : bad) {
    for (const auto& [ta, tb] : {std::pair{t, ok}, std::pair{ok, t}}) {
      EXPECT_TRUE(rejected(closed_form::sphere_sphere(s, ta, s, tb)));
      EXPECT_TRUE(rejected(closed_form::sphere_capsule(s, ta, c, tb)));
      EXPECT_TRUE(rejected(closed_form::capsule_capsule(c, ta, c, tb)));
      EXPECT_TRUE(rejected(closed_form::sphere_box(s, ta, b, tb)));
      EXPECT_TRUE(rejected(closed_form::capsule_box(c, ta, b, tb)));
      EXPECT_TRUE(rejected(closed_form::sphere_cylinder(s, ta, Cylinder(0.3, 0.7), tb)));
      EXPECT_TRUE(rejected(closed_form::sphere_cone(s, ta, Cone(0.3, 0.6), tb)));
      EXPECT_TRUE(rejected(closed_form::sphere_ellipsoid(s, ta, Ellipsoid(Vec3(0.3, 0.2, 0.1)), tb)));
      EXPECT_TRUE(rejected(closed_form::shape_halfspace(b, ta, h, tb)));
      EXPECT_TRUE(rejected(closed_form::halfspace_halfspace(h, ta, h, tb)));
    }
  }
  // Finite poses still get the answer.
  expect_result(closed_form::sphere_sphere(s, at(1, 0, 0), s, at(0, 0, 0)), 0.4, Vec3::UnitX());
}

}  // namespace
}  // namespace proxima
