// SPDX-License-Identifier: BSD-3-Clause
// GJK's Newton finish for an ellipsoid against an ellipsoid, a cylinder or a
// cone (narrow/smooth_finish.hpp), and against a capsule the finish of
// narrow/curved_finish.hpp with the ellipsoid's projection. Ground truth never comes from
// the finish: the support maps' derivatives against central differences of
// the support points written here from the shapes' definitions; distances
// against the certified support sweep of tests/oracle, and against a
// separating slab where the arrangement puts the nearest points on a flat
// face (a cap, a capsule's side), the case the finish must leave to GJK.
#include <algorithm>
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include <proxima/narrow/gjk.hpp>
#include <proxima/query.hpp>

#include "../support/curved_solids.hpp"
#include "../support/random.hpp"

// A named namespace: the tests are compiled in unity batches, where
// anonymous namespaces of several files meet.
namespace proxima::smooth_finish_test {
namespace {

const Vec3 kRadii(0.3, 0.2, 0.4);  // the ellipsoid of these tests
constexpr double kR = 0.3;          // the cylinder and the cone: radius 0.3, length 0.8
constexpr double kH = 0.4;
constexpr double kCapsuleR = 0.1;  // the capsule: radius 0.1, length 0.5
constexpr double kCapsuleH = 0.25;

const testing::CurvedSolid kEllipsoid = testing::ellipsoid_solid("ellipsoid", kRadii);
const testing::CurvedSolid kCylinder = testing::cylinder_solid("cylinder", kR, 2.0 * kH);
const testing::CurvedSolid kCone = testing::cone_solid("cone", kR, 2.0 * kH);

// support_jacobian against central differences of the support points of
// tests/support/curved_solids.hpp, at directions where support_is_smooth
// holds (elsewhere the point jumps).
TEST(SmoothFinish, SupportJacobianMatchesDifferences) {
  const Ellipsoid& e = kEllipsoid.shape.as<Ellipsoid>();
  const Cylinder& cyl = kCylinder.shape.as<Cylinder>();
  const Cone& cone = kCone.shape.as<Cone>();
  testing::Rng rng(91);
  int checked[3] = {0, 0, 0};
  for (int i = 0; i < testing::scaled(3000); ++i) {
    const Vec3 d = rng.unit_vector() * rng.uniform(0.5, 2.0);  // any length: the map is homogeneous of degree 0
    const Vec3 u = d.normalized();
    const auto check = [&](int k, const Mat3& J, const testing::CurvedSolid& s) {
      const double h = 1e-6 * d.norm();
      Mat3 fd;
      for (int j = 0; j < 3; ++j) {
        const Vec3 step = h * Vec3::Unit(j);
        fd.col(j) = (testing::curved_support(s, d + step) - testing::curved_support(s, d - step)) / (2.0 * h);
      }
      EXPECT_LE((J - fd).norm(), 1e-6 * std::max(1.0, fd.norm())) << k << " " << i;
      // The derivative of a map of degree 0 kills d, and a support map's is symmetric.
      EXPECT_LE((J * d).norm(), 1e-12 * J.norm() * d.norm() + 1e-15) << k << " " << i;
      EXPECT_LE((J - J.transpose()).norm(), 1e-12 * J.norm() + 1e-15) << k << " " << i;
      ++checked[k];
    };
    if (detail::support_is_smooth(e, u)) check(0, detail::support_jacobian(e, d), kEllipsoid);
    if (detail::support_is_smooth(cyl, u)) check(1, detail::support_jacobian(cyl, d), kCylinder);
    if (detail::support_is_smooth(cone, u)) check(2, detail::support_jacobian(cone, d), kCone);
  }
  for (int k = 0; k < 3; ++k) EXPECT_GT(checked[k], testing::scaled(3000) / 2) << k;
}

// distance() in both orders against the sweep, witnesses in the solids and on
// their supporting planes, and the mean of GJK's support calls. Without the
// finishes GJK takes 13.8 (capsule) to 19.2 (cylinder) support calls on
// average on poses like these; with them 3.2 to 6.5 (a driver timing gjk(),
// 1,000 poses a pair). The finishes' calls are counted.
TEST(SmoothFinish, PairsMatchTheSweepInBothOrders) {
  testing::expect_pair_matches_sweep(kEllipsoid, kEllipsoid, 92, 8.0);
  testing::expect_pair_matches_sweep(kEllipsoid, kCylinder, 92, 9.0);
  testing::expect_pair_matches_sweep(kEllipsoid, kCone, 92, 8.0);
  testing::expect_pair_matches_sweep(kEllipsoid, testing::capsule_solid("capsule", kCapsuleR, 2.0 * kCapsuleH), 92,
                                     6.0);
}

// Gaps of 0.2 down to 1e-11 where a slab separates the two and its faces hold
// the nearest points: tip to tip, an ellipsoid's tip over a cylinder's cap and
// under a cone's base (flat support sets, which the finish must leave to GJK),
// and beside a capsule's side; all under one random rigid motion.
TEST(SmoothFinish, SlabArrangementsAgainstTheGap) {
  struct Arrangement {
    const char* label;
    Shape other;
    Transform other_pose;  // with the gap zero; the ellipsoid's tip (0.3, 0, 0) touches it there
  };
  // The cylinder's and the cone's axis along +x: the cap at local z = −h
  // (the cone's base) faces the ellipsoid's tip.
  const Vec3 y_axis = Vec3::UnitY();
  const auto axis_x = [&](const Vec3& p) { return Transform::from_axis_angle(y_axis, 0.5 * M_PI, p); };
  std::vector<Arrangement> arrangements = {
      {"ellipsoid tip to tip", Ellipsoid(kRadii), Transform::from_translation(Vec3(0.6, 0.0, 0.0))},
      {"cylinder cap", Cylinder(kR, 2.0 * kH), axis_x(Vec3(0.3 + kH, 0.05, -0.02))},
      {"cone base", Cone(kR, 2.0 * kH), axis_x(Vec3(0.3 + kH, 0.03, 0.04))},
      {"capsule side", Capsule(kCapsuleR, 2.0 * kCapsuleH),
       Transform::from_translation(Vec3(0.3 + kCapsuleR, 0.0, 0.1))},
  };
  const Ellipsoid e(kRadii);
  testing::Rng rng(93);
  for (const Arrangement& a : arrangements) {
    for (double gap : {0.2, 1e-3, 1e-7, 1e-11}) {
      for (int k = 0; k < testing::scaled(20); ++k) {
        const Transform motion = rng.pose(1.0);
        Transform to = a.other_pose;
        to.p.x() += gap;
        const Transform& te_w = motion;
        const Transform to_w = motion * to;
        for (int order = 0; order < 2; ++order) {
          const DistanceResult r = order == 0 ? distance(e, te_w, a.other, to_w) : distance(a.other, to_w, e, te_w);
          ASSERT_EQ(r.status, Status::ok) << a.label << " gap " << gap;
          EXPECT_NEAR(r.distance, gap, 1e-9) << a.label << " gap " << gap << " order " << order;
          EXPECT_NEAR((r.point_a - r.point_b).norm(), r.distance, 1e-12) << a.label << " gap " << gap;
          const Vec3 slab_normal = motion.R * Vec3::UnitX();  // from the ellipsoid towards the other
          EXPECT_NEAR(std::abs(r.normal.dot(slab_normal)), 1.0, gap > 1e-6 ? 1e-6 : 1.0) << a.label << " gap " << gap;
        }
      }
    }
  }
}

// Near touching, the supporting planes across the normal must be the
// distance apart: a normal taken from the witnesses' difference leans off by
// GJK's accuracy over the distance (up to a degree at 1e-7 m) and its planes
// then miss by up to micrometres. The planes come from the support points written
// in tests/support, the pose puts a plane pair d0 apart along a random
// direction (so the distance is at least d0), and the witnesses must lie on
// their surfaces and be the distance apart along the normal.
TEST(SmoothFinish, NearTouchingNormalsCarryPlanesTheDistanceApart) {
  const testing::CurvedSolid small_ellipsoid = testing::ellipsoid_solid("ellipsoid", Vec3(0.4, 0.25, 0.15));
  const std::pair<const testing::CurvedSolid*, const testing::CurvedSolid*> pairs[] = {
      {&small_ellipsoid, &small_ellipsoid}, {&kEllipsoid, &small_ellipsoid}, {&kEllipsoid, &kCylinder},
      {&kCylinder, &kEllipsoid},            {&kEllipsoid, &kCone},          {&kCone, &kEllipsoid}};
  testing::Rng rng(97);
  for (const auto& [sa, sb] : pairs) {
    for (double d0 : {1e-3, 1e-5, 1e-7, 1e-9}) {
      for (int k = 0; k < testing::scaled(300); ++k) {
        const Transform ta = rng.pose(0.0);
        Transform tb = rng.pose(0.0);
        const Vec3 n = rng.unit_vector();  // B→A
        const auto height = [](const testing::CurvedSolid& s, const Transform& t, const Vec3& dir) {
          return dir.dot(testing::posed_support(s, t)(dir));
        };
        // Along n, A's lowest point −height(A, −n) sits d0 above B's highest.
        tb.p = -(height(*sa, ta, -n) + height(*sb, tb, n) + d0) * n;
        const DistanceResult r = distance(sa->shape, ta, sb->shape, tb);
        ASSERT_EQ(r.status, Status::ok) << sa->label << "-" << sb->label << " d0 " << d0;
        const double gap = -height(*sa, ta, -r.normal) - height(*sb, tb, r.normal);
        EXPECT_GE(r.distance, d0 - 1e-12) << sa->label << "-" << sb->label << " d0 " << d0 << " k " << k;
        EXPECT_LE(r.distance - gap, 1e-9) << sa->label << "-" << sb->label << " d0 " << d0 << " k " << k;
        EXPECT_LE((r.point_a - r.point_b - r.distance * r.normal).norm(), 1e-10) << sa->label << "-" << sb->label;
        EXPECT_LE(std::abs(testing::curved_outside(*sa, ta.apply_inverse(r.point_a))), 1e-9) << sa->label;
        EXPECT_LE(std::abs(testing::curved_outside(*sb, tb.apply_inverse(r.point_b))), 1e-9) << sb->label;
      }
    }
  }
}

}  // namespace
}  // namespace proxima::smooth_finish_test
