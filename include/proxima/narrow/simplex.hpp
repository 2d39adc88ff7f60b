// SPDX-License-Identifier: BSD-3-Clause
// Closest point of a GJK simplex (1–4 points) to the origin, with the
// barycentric weights and the reduced support set. Voronoi-region tests in the
// form of Ericson, "Real-Time Collision Detection" §5.1.5–5.1.6, guarded for
// degenerate (collinear, coplanar, repeated) simplices so that they never
// divide by zero.
#pragma once

#include <cmath>

#include <proxima/core/math.hpp>

namespace proxima::detail {

/// A GJK simplex: Minkowski-difference points y and the support points on A
/// and B that made them (all in A's local frame), weights after a solve.
struct Simplex {
  Vec3 d[4];  ///< the support direction that produced each point (warm starts)
  Vec3 y[4];
  Vec3 a[4];
  Vec3 b[4];
  double w[4] = {0, 0, 0, 0};
  int n = 0;

  Vec3 point() const {
    Vec3 v = w[0] * y[0];
    for (int i = 1; i < n; ++i) v += w[i] * y[i];
    return v;
  }
  Vec3 point_a() const {
    Vec3 v = w[0] * a[0];
    for (int i = 1; i < n; ++i) v += w[i] * a[i];
    return v;
  }
  Vec3 point_b() const {
    Vec3 v = w[0] * b[0];
    for (int i = 1; i < n; ++i) v += w[i] * b[i];
    return v;
  }
};

/// The closest point of a simplex to the origin: which points of the simplex
/// support it (`idx`, in order) and their weights.
struct SimplexSolution {
  int n = 0;
  int idx[4] = {0, 1, 2, 3};
  double w[4] = {0, 0, 0, 0};
  Vec3 v = Vec3::Zero();  ///< the closest point
  double vv = 0.0;        ///< |v|²
  bool inside = false;    ///< the origin is inside a full tetrahedron (then v = 0)
};

/// Closest point of `s` to the origin; leaves `s` unchanged. With
/// `newest_last`, a 4-point simplex is taken to be a GJK step (a triangle that
/// was the previous answer plus a new point on the origin's side of it), so
/// that triangle is not tested again.
SimplexSolution closest(const Simplex& s, bool newest_last);
/// Shrinks `s` to the supporting points of `sol` and sets their weights.
void reduce(Simplex& s, const SimplexSolution& sol);
/// Barycentric coordinates of p (in the plane of triangle abc) from signed
/// areas in the coordinate plane the triangle is least foreshortened in (the
/// signed-volume idea of Montanari et al. 2017), stable for thin triangles.
/// `n` is the triangle's normal (b − a) × (c − a), when the caller has it.
inline void barycentric(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& n, double w[3]) {
  int ax = 0;
  if (std::abs(n.y()) > std::abs(n[ax])) ax = 1;
  if (std::abs(n.z()) > std::abs(n[ax])) ax = 2;
  const int u = (ax + 1) % 3, v = (ax + 2) % 3;
  auto area = [&](const Vec3& p0, const Vec3& p1, const Vec3& p2) {
    return (p1[u] - p0[u]) * (p2[v] - p0[v]) - (p1[v] - p0[v]) * (p2[u] - p0[u]);
  };
  const double total = area(a, b, c);
  if (!(std::abs(total) > 0.0)) {
    w[0] = 1.0;
    w[1] = w[2] = 0.0;
    return;
  }
  w[0] = area(p, b, c) / total;
  w[1] = area(a, p, c) / total;
  w[2] = 1.0 - w[0] - w[1];
}
inline void barycentric(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c, double w[3]) {
  barycentric(p, a, b, c, (b - a).cross(c - a), w);
}

/// closest() on any simplex, then reduce(); true when the origin is inside.
bool solve_simplex(Simplex& s);

}  // namespace proxima::detail
