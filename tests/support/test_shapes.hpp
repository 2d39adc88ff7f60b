// SPDX-License-Identifier: BSD-3-Clause
// The shapes the narrow-phase tests walk through, each with ground-truth
// geometry written independently of the library: core vertices for shapes
// whose core is a polytope (point, segment, box, hull), a world-frame support
// function for the rest.
#pragma once

#include <cmath>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include <proxima/shape/shape.hpp>

#include "random.hpp"

namespace proxima::testing {

struct TestShape {
  std::string label;
  Shape shape;
  /// Radius added to the core (sphere/capsule radius plus margin).
  double inflation = 0.0;
  /// Core vertices in world frame, or empty function when the core is curved.
  std::function<std::vector<Vec3>(const Transform&)> core_vertices;
  /// Support point of the whole shape (core ⊕ ball(inflation)), world frame.
  std::function<Vec3(const Transform&, const Vec3&)> support;
  double bounding_radius = 1.0;
};

// The 8 corners of the box [−half, half].
inline std::vector<Vec3> box_corners(const Vec3& half) {
  std::vector<Vec3> c;
  for (int i = 0; i < 8; ++i)
    c.emplace_back((i & 1) ? half.x() : -half.x(), (i & 2) ? half.y() : -half.y(), (i & 4) ? half.z() : -half.z());
  return c;
}

inline Transform at(double x, double y, double z) { return Transform::from_translation(Vec3(x, y, z)); }

inline std::vector<Vec3> transformed(const Transform& t, const std::vector<Vec3>& local) {
  std::vector<Vec3> out;
  for (const Vec3& p : local) out.push_back(t.R * p + t.p);
  return out;
}

// Support of a finite point set inflated by r.
inline Vec3 points_support(const std::vector<Vec3>& pts, double r, const Vec3& d) {
  std::size_t best = 0;
  double best_h = pts[0].dot(d);
  for (std::size_t i = 1; i < pts.size(); ++i) {
    const double h = pts[i].dot(d);
    if (h > best_h) {
      best_h = h;
      best = i;
    }
  }
  return pts[best] + r * d.normalized();
}

inline TestShape polytope_shape(const std::string& label, Shape s, std::vector<Vec3> local, double inflation) {
  TestShape t{label, std::move(s), inflation, nullptr, nullptr, 0.0};
  for (const Vec3& p : local) t.bounding_radius = std::max(t.bounding_radius, p.norm() + inflation);
  t.core_vertices = [local](const Transform& tr) { return transformed(tr, local); };
  // In the shape's own frame: the direction sweeps call this ~10^4 times per
  // pose, and transforming every vertex (into a new vector) each time made
  // the sweeps most of the sanitizer run.
  t.support = [local, inflation](const Transform& tr, const Vec3& d) {
    return Vec3(tr.R * points_support(local, inflation, tr.R.transpose() * d) + tr.p);
  };
  return t;
}

/// The bounded shapes of the dispatch table (all but the halfspace), some
/// with margins, plus flat and sliver hulls with margins.
inline std::vector<TestShape> bounded_test_shapes() {
  std::vector<TestShape> out;
  out.push_back(polytope_shape("sphere", Sphere(0.3), {Vec3::Zero()}, 0.3));
  out.push_back(polytope_shape("capsule", Capsule(0.2, 0.6, 0.01), {Vec3(0, 0, -0.3), Vec3(0, 0, 0.3)}, 0.21));
  {
    std::vector<Vec3> c;
    for (int i = 0; i < 8; ++i) c.emplace_back((i & 1) ? 0.3 : -0.3, (i & 2) ? 0.2 : -0.2, (i & 4) ? 0.4 : -0.4);
    out.push_back(polytope_shape("box", Box(0.6, 0.4, 0.8), c, 0.0));
  }
  {
    Rng rng(77);
    const std::vector<Vec3> pts = rng.sphere_points(30, 0.4);
    ConvexPolytope p(pts);
    out.push_back(polytope_shape("convex30", p, pts, 0.0));  // the oracle gets the raw points
  }
  {
    const std::vector<Vec3> sq = {{-0.3, -0.3, 0}, {0.3, -0.3, 0}, {0.3, 0.3, 0}, {-0.3, 0.3, 0}};
    out.push_back(polytope_shape("flat_square_m0.05", ConvexPolytope(sq, 0.05), sq, 0.05));
  }
  {
    const std::vector<Vec3> sl = {{-0.4, 0, 0}, {0.4, 0, 0}, {0, 0.3, 0}, {0, 0.1, 1e-6}};
    out.push_back(polytope_shape("sliver", ConvexPolytope(sl), sl, 0.0));
  }
  {
    TestShape t{"cylinder", Cylinder(0.3, 0.7), 0.0, nullptr, nullptr, std::hypot(0.3, 0.35)};
    t.support = [](const Transform& tr, const Vec3& d) {
      const Vec3 l = tr.R.transpose() * d;
      const double rho = std::hypot(l.x(), l.y());
      Vec3 p(0, 0, l.z() >= 0 ? 0.35 : -0.35);
      if (rho > 0) p.head<2>() = 0.3 * l.head<2>() / rho;
      return Vec3(tr.R * p + tr.p);
    };
    out.push_back(t);
  }
  {
    // Cone with a margin: base radius 0.3 at z = −0.3, apex at z = +0.3.
    TestShape t{"cone_m0.02", Cone(0.3, 0.6, 0.02), 0.02, nullptr, nullptr, 0.45};
    t.support = [](const Transform& tr, const Vec3& d) {
      const Vec3 l = tr.R.transpose() * d;
      const double rho = std::hypot(l.x(), l.y());
      Vec3 rim(0, 0, -0.3);
      if (rho > 0) rim.head<2>() = 0.3 * l.head<2>() / rho;
      const Vec3 apex(0, 0, 0.3);
      const Vec3 p = l.dot(apex) >= l.dot(rim) ? apex : rim;
      return Vec3(tr.R * p + tr.p + 0.02 * d.normalized());
    };
    out.push_back(t);
  }
  {
    TestShape t{"ellipsoid", Ellipsoid(Vec3(0.4, 0.25, 0.15)), 0.0, nullptr, nullptr, 0.4};
    t.support = [](const Transform& tr, const Vec3& d) {
      // Maximize d·(R diag(r) u) over unit u: u = diag(r) Rᵀ d / |…|.
      const Vec3 r(0.4, 0.25, 0.15);
      const Vec3 u = r.cwiseProduct(tr.R.transpose() * d).normalized();
      return Vec3(tr.R * r.cwiseProduct(u) + tr.p);
    };
    out.push_back(t);
  }
  return out;
}

/// Number of random poses per test, scaled by PROXIMA_TEST_SCALE (the
/// sanitizer run lowers it).
inline int scaled(int n) {
  const char* s = std::getenv("PROXIMA_TEST_SCALE");
  const double f = s ? std::atof(s) : 1.0;
  return std::max(1, static_cast<int>(n * (f > 0 ? f : 1.0)));
}

/// The sanitizer run (PROXIMA_TEST_SCALE below 1): simulations there are
/// cut to a few hundred steps, enough to run every code path under the
/// checkers; the full-length runs, where physics failures show, are the
/// Release suite's.
inline bool reduced_run() { return scaled(10) < 10; }

}  // namespace proxima::testing
