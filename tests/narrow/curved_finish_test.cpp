// SPDX-License-Identifier: BSD-3-Clause
// GJK's finish for a cylinder, a cone or an ellipsoid against a vertex core
// (narrow/curved_finish.hpp). Ground truth never comes from the finish: the
// projection is checked by the variational inequality of a projection on a
// convex set with the solids' support functions written here; distances
// against the certified support sweep of tests/oracle and against closed forms
// of arrangements whose nearest points are a whole family (a segment along the
// side or the slant, a box face over a cap or under the base).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <vector>

#include <gtest/gtest.h>

#include <proxima/narrow/gjk.hpp>
#include <proxima/query.hpp>

#include "../oracle/sweep_oracle.hpp"
#include "../support/curved_solids.hpp"
#include "../support/random.hpp"
#include "../support/test_shapes.hpp"

namespace proxima {
namespace {

constexpr double kR = 0.3;  // the cylinder and the cone of these tests: radius 0.3, length 0.8
constexpr double kH = 0.4;
const Vec3 kRadii(0.3, 0.2, 0.4);  // the ellipsoid's

// Support points from tests/support/curved_solids.hpp (written from the
// shapes' definitions) and support values from them.
const testing::CurvedSolid kCylinderSolid = testing::cylinder_solid("cylinder", kR, 2.0 * kH);
const testing::CurvedSolid kConeSolid = testing::cone_solid("cone", kR, 2.0 * kH);
const testing::CurvedSolid kEllipsoidSolid = testing::ellipsoid_solid("ellipsoid", kRadii);
Vec3 cylinder_support_local(const Vec3& d) { return testing::curved_support(kCylinderSolid, d); }
double cylinder_support_value(const Vec3& d) { return d.dot(cylinder_support_local(d)); }
Vec3 cone_support_local(const Vec3& d) { return testing::curved_support(kConeSolid, d); }
double cone_support_value(const Vec3& d) { return d.dot(cone_support_local(d)); }
Vec3 ellipsoid_support_local(const Vec3& d) { return testing::curved_support(kEllipsoidSolid, d); }
double ellipsoid_support_value(const Vec3& d) { return d.dot(ellipsoid_support_local(d)); }

// How far p lies off the solid's surface (its frame).
double off_cylinder_surface(const Vec3& p) {
  const double rho = std::hypot(p.x(), p.y());
  const double side = std::abs(rho - kR) + std::max(0.0, std::abs(p.z()) - kH);
  const double cap = std::abs(std::abs(p.z()) - kH) + std::max(0.0, rho - kR);
  return std::min(side, cap);
}
double off_cone_surface(const Vec3& p) {
  const double rho = std::hypot(p.x(), p.y());
  const double base = std::abs(p.z() + kH) + std::max(0.0, rho - kR);
  // The slant segment from (0, h) to (r, −h) in the meridian half-plane.
  const double ex = kR, ez = -2.0 * kH;
  const double t = std::clamp((rho * ex + (p.z() - kH) * ez) / (ex * ex + ez * ez), 0.0, 1.0);
  const double slant = std::hypot(rho - t * ex, p.z() - kH - t * ez);
  return std::min(base, slant);
}

// The ellipsoid's: |p ⊘ radii| − 1, scaled by the smallest radius (a length
// within a factor of two of the distance to the surface near it).
double off_ellipsoid_surface(const Vec3& p) { return std::abs(p.cwiseQuotient(kRadii).norm() - 1.0) * kRadii.minCoeff(); }

struct CurvedCase {
  const char* label;
  Shape shape;
  Vec3 (*support_local)(const Vec3&);
  double (*support_value)(const Vec3&);
  double (*off_surface)(const Vec3&);
  bool (*inside)(const Vec3&);
};

std::vector<CurvedCase> curved_cases() {
  return {{"cylinder", Cylinder(kR, 2.0 * kH), cylinder_support_local, cylinder_support_value, off_cylinder_surface,
           [](const Vec3& p) { return std::hypot(p.x(), p.y()) <= kR && std::abs(p.z()) <= kH; }},
          {"cone", Cone(kR, 2.0 * kH), cone_support_local, cone_support_value, off_cone_surface,
           [](const Vec3& p) { return p.z() >= -kH && std::hypot(p.x(), p.y()) <= kR * (kH - p.z()) / (2.0 * kH); }},
          {"ellipsoid", Ellipsoid(kRadii), ellipsoid_support_local, ellipsoid_support_value, off_ellipsoid_surface,
           [](const Vec3& p) { return p.cwiseQuotient(kRadii).norm() <= 1.0; }}};
}

// The library's nearest point for the case's shape.
Vec3 nearest_of(const CurvedCase& c, const Vec3& p) {
  if (c.shape.type() == ShapeType::cylinder) return detail::curved_nearest(c.shape.as<Cylinder>(), p);
  if (c.shape.type() == ShapeType::ellipsoid) return detail::curved_nearest(c.shape.as<Ellipsoid>(), p);
  return detail::curved_nearest(c.shape.as<Cone>(), p);
}
void segment_nearest_of(const CurvedCase& c, const Vec3& p0, const Vec3& p1, Vec3& on_curved, Vec3& on_segment) {
  if (c.shape.type() == ShapeType::cylinder)
    detail::curved_segment_nearest(c.shape.as<Cylinder>(), p0, p1, on_curved, on_segment);
  else if (c.shape.type() == ShapeType::ellipsoid)
    detail::curved_segment_nearest(c.shape.as<Ellipsoid>(), p0, p1, on_curved, on_segment);
  else
    detail::curved_segment_nearest(c.shape.as<Cone>(), p0, p1, on_curved, on_segment);
}

using Support = std::function<Vec3(const Vec3&)>;

Support posed_curved(const CurvedCase& c, const Transform& t) {
  return [t, f = c.support_local](const Vec3& d) -> Vec3 { return t.R * f(t.R.transpose() * d) + t.p; };
}
// Finite point set ⊕ ball(r), world frame.
Support posed_points(const Transform& t, std::vector<Vec3> local, double r) {
  return [t, local, r](const Vec3& d) -> Vec3 {
    const Vec3 l = t.R.transpose() * d;
    const Vec3* best = &local[0];
    for (const Vec3& p : local)
      if (p.dot(l) > best->dot(l)) best = &p;
    return t.R * *best + t.p + r * d.normalized();
  };
}

std::vector<Vec3> corners(const Vec3& half) {
  std::vector<Vec3> c;
  for (int i = 0; i < 8; ++i)
    c.emplace_back((i & 1) ? half.x() : -half.x(), (i & 2) ? half.y() : -half.y(), (i & 4) ? half.z() : -half.z());
  return c;
}

TEST(CurvedFinish, NearestIsTheProjection) {
  for (const CurvedCase& c : curved_cases()) {
    testing::Rng rng(71);
    int outside = 0;
    for (int i = 0; i < 20000; ++i) {
      const Vec3 p = rng.uniform_vec(-1.0, 1.0);
      const Vec3 q = nearest_of(c, p);
      // q lies in the solid, on its surface unless p is inside.
      ASSERT_LE(c.off_surface(q), c.inside(p) ? 1.0 : 1e-15) << c.label << " " << i;
      ASSERT_TRUE(c.inside(q) || c.off_surface(q) <= 1e-15) << c.label << " " << i;
      const Vec3 u = p - q;
      if (u.norm() == 0.0) {
        EXPECT_TRUE(c.inside(p)) << c.label << " " << i;
        continue;
      }
      ++outside;
      EXPECT_FALSE(c.inside(p) && c.off_surface(p) > 1e-12) << c.label << " " << i;
      // Projection on a convex set: (p − q)·(x − q) ≤ 0 for every x of it, i.e.
      // the support value along p − q is reached at q. u = p − q carries the
      // rounding of p's coordinates (~3e-17), which moves the support point
      // along a flat side by up to the solid's size: 1e-15 covers it.
      EXPECT_LE(c.support_value(u) - u.dot(q), 1e-14 * u.norm() + 1e-15) << c.label << " " << i;
    }
    EXPECT_GT(outside, 10000) << c.label;
  }
}

TEST(CurvedFinish, SegmentNearestMatchesTheSweep) {
  for (const CurvedCase& c : curved_cases()) {
    testing::Rng rng(72);
    int checked = 0;
    for (int i = 0; i < testing::scaled(400); ++i) {
      const Vec3 p0 = rng.uniform_vec(-0.9, 0.9), p1 = rng.uniform_vec(-0.9, 0.9);
      Vec3 on_curved, on_seg;
      segment_nearest_of(c, p0, p1, on_curved, on_seg);
      // The witnesses lie on their sets.
      const Vec3 e = p1 - p0;
      const double t = (on_seg - p0).dot(e) / e.squaredNorm();
      EXPECT_TRUE(t >= -1e-12 && t <= 1 + 1e-12) << c.label << " " << i;
      EXPECT_LE((p0 + t * e - on_seg).norm(), 1e-12) << c.label << " " << i;
      const oracle::SweepReport rep = oracle::sweep_separation_report(
          posed_curved(c, Transform::identity()), posed_points(Transform::identity(), {p0, p1}, 0.0));
      if (!rep.separated || rep.value < 1e-9) continue;
      ++checked;
      EXPECT_LE(c.off_surface(on_curved), 1e-12) << c.label << " " << i;
      EXPECT_NEAR((on_curved - on_seg).norm(), rep.value, 1e-9) << c.label << " " << i;
    }
    EXPECT_GT(checked, testing::scaled(400) / 3) << c.label;
  }
}

struct PairCase {
  const char* label;
  Shape other;
  std::vector<Vec3> other_vertices;  // the other shape's core vertices
  double other_radius;               // its inflation
};

std::vector<PairCase> pair_cases() {
  testing::Rng rng(73);
  std::vector<Vec3> hull_points = rng.sphere_points(60, 0.35);
  std::vector<PairCase> c;
  c.push_back({"box", Box(0.6, 0.4, 0.8), corners(Vec3(0.3, 0.2, 0.4)), 0.0});
  c.push_back({"hull", ConvexPolytope(hull_points), hull_points, 0.0});
  c.push_back({"capsule", Capsule(0.1, 0.5), {Vec3(0, 0, -0.25), Vec3(0, 0, 0.25)}, 0.1});
  return c;
}

// distance() in both orders against the sweep, with witnesses on the shapes,
// and the mean of GJK's iterations (support calls) on the cores.
TEST(CurvedFinish, PairsMatchTheSweepInBothOrders) {
  for (const CurvedCase& c : curved_cases()) {
    for (const PairCase& pc : pair_cases()) {
      testing::Rng rng(74);
      const int poses = testing::scaled(300);
      int checked = 0;
      double iterations = 0.0, max_err = 0.0;
      for (int i = 0; i < poses; ++i) {
        const Transform tc = rng.pose(0.05), to = rng.pose(0.9);
        const oracle::SweepReport rep = oracle::sweep_separation_report(
            posed_curved(c, tc), posed_points(to, pc.other_vertices, pc.other_radius));
        if (!rep.separated || rep.value < 1e-6) continue;
        ++checked;
        for (int order = 0; order < 2; ++order) {
          const DistanceResult r =
              order == 0 ? distance(c.shape, tc, pc.other, to) : distance(pc.other, to, c.shape, tc);
          ASSERT_EQ(r.status, Status::ok) << c.label << "-" << pc.label << " pose " << i;
          max_err = std::max(max_err, std::abs(r.distance - rep.value));
          EXPECT_NEAR(r.distance, rep.value, 1e-9) << c.label << "-" << pc.label << " order " << order << " pose " << i;
          const Vec3& on_curved = order == 0 ? r.point_a : r.point_b;
          const Vec3& on_other = order == 0 ? r.point_b : r.point_a;
          EXPECT_LE(c.off_surface(tc.R.transpose() * (on_curved - tc.p)), 1e-9) << c.label << "-" << pc.label << " pose " << i;
          EXPECT_NEAR((on_curved - on_other).norm(), r.distance, 1e-12) << c.label << "-" << pc.label << " pose " << i;
        }
        const GjkResult g = std::visit(
            [&](const auto& curved, const auto& o) -> GjkResult {
              using C = std::decay_t<decltype(curved)>;
              using O = std::decay_t<decltype(o)>;
              if constexpr (detail::kCurvedFinish<C, O>) return gjk(curved, tc, o, to);
              else return GjkResult{};
            },
            c.shape.variant(), pc.other.variant());
        iterations += g.iterations;
      }
      std::printf("%s-%s: %d separated poses, max |error| %.3g, mean GJK support calls %.2f\n", c.label, pc.label,
                  checked, max_err, iterations / checked);
      EXPECT_GT(checked, poses / 4) << c.label << "-" << pc.label;
      // Without the finish, GJK needs 11-14 support calls on average on these
      // poses (cylinder-box 13.7 on the benchmark's): the rim and the side
      // converge linearly. The finish ends most of them once the other side
      // settles.
      EXPECT_LT(iterations / checked, 7.5) << c.label << "-" << pc.label;
    }
  }
}

// Arrangements whose nearest points are not unique, near-touching gaps, and
// segments through the axis: closed forms written here.
TEST(CurvedFinish, DegenerateArrangementsAgainstClosedForms) {
  struct Case {
    const char* what;
    ShapeType curved;
    Shape other;
    Transform pose;
    double truth;
  };
  const double gaps[] = {0.2, 1e-3, 1e-7, 1e-11};
  const double l = std::sqrt(kR * kR + 4.0 * kH * kH);  // the cone's slant length
  std::vector<Case> cases;
  for (double g : gaps) {
    const double a = g * std::sqrt(0.5);
    // The cylinder.
    // A capsule parallel to the axis, beside the side, overlapping it in z.
    cases.push_back({"capsule along the side", ShapeType::cylinder, Capsule(0.1, 0.5),
                     Transform::from_translation(Vec3(kR + 0.1 + g, 0, 0.1)), g});
    // A capsule on the axis above a cap: the cap's centre and the segment's end.
    cases.push_back({"capsule on the axis", ShapeType::cylinder, Capsule(0.1, 0.5),
                     Transform::from_translation(Vec3(0, 0, kH + 0.25 + 0.1 + g)), g});
    // A capsule lying flat under a cap, its segment through the axis.
    cases.push_back({"capsule across a cap", ShapeType::cylinder, Capsule(0.1, 0.5),
                     Transform::from_quaternion(std::cos(M_PI / 4), std::sin(M_PI / 4), 0, 0, Vec3(0, 0, -kH - 0.1 - g)), g});
    // A box face-down on a cap, larger than it.
    cases.push_back({"box over a cap", ShapeType::cylinder, Box(1.0, 1.0, 0.2),
                     Transform::from_translation(Vec3(0.1, -0.05, kH + 0.1 + g)), g});
    // A box edge parallel to the axis, off the side (the box turned 45° about z).
    cases.push_back({"box edge along the side", ShapeType::cylinder, Box(0.4, 0.4, 0.4),
                     Transform::from_quaternion(std::cos(M_PI / 8), 0, 0, std::sin(M_PI / 8),
                                                Vec3(kR + g + 0.2 * std::sqrt(2.0), 0, 0)),
                     g});
    // A box edge along y, tangent to the rim at (r, 0, h), g away along
    // (1, 0, 1)/√2; the box lies beyond x = r and z = h.
    cases.push_back({"box edge on the rim", ShapeType::cylinder, Box(0.4, 0.4, 0.4),
                     Transform::from_translation(Vec3(kR + 0.2 + a, 0, kH + 0.2 + a)), g});
    // The cone.
    // A capsule on the axis above the apex.
    cases.push_back({"capsule over the apex", ShapeType::cone, Capsule(0.1, 0.5),
                     Transform::from_translation(Vec3(0, 0, kH + 0.25 + 0.1 + g)), g});
    // A box face-up under the base, larger than it.
    cases.push_back({"box under the base", ShapeType::cone, Box(1.0, 1.0, 0.2),
                     Transform::from_translation(Vec3(-0.05, 0.1, -kH - 0.1 - g)), g});
    // A capsule along a slant generator, off it by its radius and g along the
    // slant's outward normal (2h, 0, r)/l.
    const double theta = std::atan2(kR, -2.0 * kH);  // turns z onto the slant (r, 0, −2h)/l
    cases.push_back({"capsule along the slant", ShapeType::cone, Capsule(0.1, 0.5),
                     Transform::from_quaternion(std::cos(theta / 2), 0, std::sin(theta / 2), 0,
                                                Vec3(0.5 * kR + (0.1 + g) * 2.0 * kH / l, 0, (0.1 + g) * kR / l)),
                     g});
    // A box edge along y, tangent to the base rim at (r, 0, −h), g away along (1, 0, −1)/√2.
    cases.push_back({"box edge on the base rim", ShapeType::cone, Box(0.4, 0.4, 0.4),
                     Transform::from_translation(Vec3(kR + 0.2 + a, 0, -kH - 0.2 - a)), g});
  }
  for (const Case& k : cases) {
    const bool cyl = k.curved == ShapeType::cylinder;
    const Shape c = cyl ? Shape(Cylinder(kR, 2.0 * kH)) : Shape(Cone(kR, 2.0 * kH));
    for (int order = 0; order < 2; ++order) {
      const DistanceResult r = order == 0 ? distance(c, Transform::identity(), k.other, k.pose)
                                          : distance(k.other, k.pose, c, Transform::identity());
      ASSERT_EQ(r.status, Status::ok) << k.what << " gap " << k.truth;
      EXPECT_NEAR(r.distance, k.truth, 3e-10 + 1e-9 * k.truth) << k.what << " order " << order;
      EXPECT_NEAR((r.point_a - r.point_b).norm(), r.distance, 1e-12) << k.what;
      const Vec3& on_curved = order == 0 ? r.point_a : r.point_b;
      EXPECT_LE(cyl ? off_cylinder_surface(on_curved) : off_cone_surface(on_curved), 1e-9) << k.what << " gap " << k.truth;
    }
  }
}

}  // namespace
}  // namespace proxima
