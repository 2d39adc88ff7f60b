// SPDX-License-Identifier: BSD-3-Clause
// The curved solids of GJK's finish tests (a cylinder, a cone, an ellipsoid,
// and a capsule as their partner), with their support points and how far a
// point lies outside them written here from the shapes' definitions, never
// from the library; and the check of distance() between two of them against
// the certified support sweep of tests/oracle.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <type_traits>
#include <variant>

#include <gtest/gtest.h>

#include <proxima/narrow/gjk.hpp>
#include <proxima/query.hpp>

#include "../oracle/sweep_oracle.hpp"
#include "random.hpp"
#include "test_shapes.hpp"

namespace proxima::testing {

struct CurvedSolid {
  enum Kind { cylinder, cone, ellipsoid, capsule };
  const char* label;
  Shape shape;
  Kind kind;
  double r = 0.0;              ///< radius: the cylinder's, the cone's base, the capsule's
  double h = 0.0;              ///< half the length (the capsule: of its segment)
  Vec3 radii = Vec3::Zero();   ///< the ellipsoid's
};

inline CurvedSolid cylinder_solid(const char* label, double r, double length) {
  return {label, Cylinder(r, length), CurvedSolid::cylinder, r, 0.5 * length};
}
/// Base disc at z = −length/2, apex at z = +length/2.
inline CurvedSolid cone_solid(const char* label, double r, double length) {
  return {label, Cone(r, length), CurvedSolid::cone, r, 0.5 * length};
}
inline CurvedSolid ellipsoid_solid(const char* label, const Vec3& radii) {
  return {label, Ellipsoid(radii), CurvedSolid::ellipsoid, 0.0, 0.0, radii};
}
inline CurvedSolid capsule_solid(const char* label, double r, double length) {
  return {label, Capsule(r, length), CurvedSolid::capsule, r, 0.5 * length};
}

/// The solid's support point along d (its frame); for a capsule its core's,
/// the segment's end, when `core` is set.
inline Vec3 curved_support(const CurvedSolid& s, const Vec3& d, bool core = false) {
  const double rho = std::hypot(d.x(), d.y());
  Vec3 rim(0.0, 0.0, 0.0);
  if (rho > 0.0) rim.head<2>() = s.r * d.head<2>() / rho;
  switch (s.kind) {
    case CurvedSolid::cylinder:
      return rim + Vec3(0.0, 0.0, d.z() >= 0.0 ? s.h : -s.h);
    case CurvedSolid::cone:
      // The apex when it reaches farther along d than the base's rim.
      if (s.h * d.z() >= s.r * rho - s.h * d.z()) return {0.0, 0.0, s.h};
      return rim + Vec3(0.0, 0.0, -s.h);
    case CurvedSolid::ellipsoid: {
      const Vec3 g = s.radii.cwiseProduct(d);
      return s.radii.cwiseProduct(g) / g.norm();
    }
    case CurvedSolid::capsule:
      break;
  }
  const Vec3 end(0.0, 0.0, d.z() >= 0.0 ? s.h : -s.h);
  return core ? end : Vec3(end + s.r * d.normalized());
}

/// How far outside the solid p lies (its frame): ≤ 0 inside, a length within
/// a factor of two of the distance near the surface.
inline double curved_outside(const CurvedSolid& s, const Vec3& p) {
  const double rho = std::hypot(p.x(), p.y());
  switch (s.kind) {
    case CurvedSolid::cylinder:
      return std::max(rho - s.r, std::abs(p.z()) - s.h);
    case CurvedSolid::cone:
      return std::max(-s.h - p.z(), rho - s.r * (s.h - p.z()) / (2.0 * s.h));
    case CurvedSolid::ellipsoid:
      return (p.cwiseQuotient(s.radii).norm() - 1.0) * s.radii.minCoeff();
    case CurvedSolid::capsule:
      break;
  }
  return std::hypot(rho, std::max(0.0, std::abs(p.z()) - s.h)) - s.r;
}

/// The solid's support function at pose t, world frame.
inline oracle::Support posed_support(const CurvedSolid& s, const Transform& t) {
  return [t, s](const Vec3& d) -> Vec3 { return t.R * curved_support(s, t.R.transpose() * d) + t.p; };
}

/// GJK's support calls between the two cores (its finishes' calls counted),
/// for the pairs that have a finish; −1000 for the rest.
inline int finish_gjk_calls(const Shape& a, const Transform& ta, const Shape& b, const Transform& tb) {
  return std::visit(
      [&](const auto& x, const auto& y) -> int {
        using X = std::decay_t<decltype(x)>;
        using Y = std::decay_t<decltype(y)>;
        if constexpr (detail::kCurvedPairFinish<X, Y> || detail::kCurvedFinish<X, Y>) {
          const GjkResult g = gjk(x, ta, y, tb);
          EXPECT_EQ(g.status, Status::ok);
          return g.iterations;
        } else {
          return -1000;
        }
      },
      a.variant(), b.variant());
}

/// distance() between `a` (near the origin) and `b` (anywhere in a cube of
/// half-side 0.9) on random separated poses, in both orders, against the
/// sweep to 1e-9; the witnesses in their solids and on the planes across the
/// normal that support them; GJK's mean support calls below `mean_calls`.
inline void expect_pair_matches_sweep(const CurvedSolid& a, const CurvedSolid& b, std::uint64_t seed,
                                      double mean_calls) {
  Rng rng(seed);
  const int poses = scaled(300);
  int checked = 0;
  double calls = 0.0, max_err = 0.0;
  for (int i = 0; i < poses; ++i) {
    const Transform ta = rng.pose(0.05), tb = rng.pose(0.9);
    const oracle::SweepReport rep = oracle::sweep_separation_report(posed_support(a, ta), posed_support(b, tb));
    if (!rep.separated || rep.value < 1e-6) continue;
    ++checked;
    for (int order = 0; order < 2; ++order) {
      const DistanceResult r = order == 0 ? distance(a.shape, ta, b.shape, tb) : distance(b.shape, tb, a.shape, ta);
      const std::string where =
          std::string(a.label) + "-" + b.label + " order " + std::to_string(order) + " pose " + std::to_string(i);
      ASSERT_EQ(r.status, Status::ok) << where;
      max_err = std::max(max_err, std::abs(r.distance - rep.value));
      EXPECT_NEAR(r.distance, rep.value, 1e-9) << where;
      // GJK's witnesses off the simplex carry its rounding (1.2e-12 seen on a
      // cone at 0.03).
      EXPECT_NEAR((r.point_a - r.point_b).norm(), r.distance, 1e-11) << where;
      const Vec3& on_a = order == 0 ? r.point_a : r.point_b;
      const Vec3& on_b = order == 0 ? r.point_b : r.point_a;
      const Vec3 toward_b = order == 0 ? Vec3(-r.normal) : r.normal;  // from a's witness towards b's
      EXPECT_LE(curved_outside(a, ta.R.transpose() * (on_a - ta.p)), 1e-9) << where;
      EXPECT_LE(curved_outside(b, tb.R.transpose() * (on_b - tb.p)), 1e-9) << where;
      // The normal is proven only to GJK's tolerance: a duality gap g ≤ 2e-10
      // leaves it off by θ with θ² ≈ 2g/d, moving a support value by about
      // ρθ²/2 for a radius of curvature ρ ≤ 0.8.
      const double plane_tol = 1e-9 + 2e-10 / r.distance;
      EXPECT_NEAR(toward_b.dot(on_a), toward_b.dot(posed_support(a, ta)(toward_b)), plane_tol) << where;
      EXPECT_NEAR(toward_b.dot(on_b), toward_b.dot(posed_support(b, tb)(Vec3(-toward_b))), plane_tol) << where;
    }
    calls += finish_gjk_calls(a.shape, ta, b.shape, tb);
  }
  std::printf("%s-%s: %d separated poses, max |error| %.3g, mean GJK support calls %.2f\n", a.label, b.label,
              checked, max_err, calls / checked);
  EXPECT_GT(checked, poses / 4) << a.label << "-" << b.label;
  EXPECT_GE(calls / checked, 1.0) << a.label << "-" << b.label;
  EXPECT_LT(calls / checked, mean_calls) << a.label << "-" << b.label;
}

}  // namespace proxima::testing
