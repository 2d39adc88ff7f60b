// SPDX-License-Identifier: BSD-3-Clause
#include "oracle_geometry.hpp"

#include <Eigen/Geometry>

#include <algorithm>
#include <cmath>
#include <limits>

namespace proxima::oracle {

Eigen::Vector3d closest_point_on_segment(const Eigen::Vector3d& p, const Eigen::Vector3d& a,
                                         const Eigen::Vector3d& b) {
  const Eigen::Vector3d ab = b - a;
  const double len2 = ab.squaredNorm();
  if (!(len2 > 0.0)) return a;
  const double t = (p - a).dot(ab) / len2;
  if (t <= 0.0) return a;
  if (t >= 1.0) return b;
  return a + t * ab;
}

Eigen::Vector3d closest_point_on_triangle(const Eigen::Vector3d& p, const Eigen::Vector3d& a,
                                          const Eigen::Vector3d& b, const Eigen::Vector3d& c) {
  // Interior (face) region: orthogonal projection, expressed in barycentric
  // coordinates computed with cross products (well conditioned for
  // non-degenerate triangles).  It is only accepted when it lies in the
  // closed triangle; the candidate is rebuilt from (s, t) so that it is a
  // genuine point of the triangle even when the triangle is a sliver.
  const Eigen::Vector3d e0 = b - a;
  const Eigen::Vector3d e1 = c - a;
  const Eigen::Vector3d ap = p - a;
  const Eigen::Vector3d n = e0.cross(e1);
  const double n2 = n.squaredNorm();
  // A sliver (three corners nearly on a line, as a mesh's degenerate
  // triangle after a pose's rounding) makes s and t inaccurate: the point
  // they give is still one of the triangle, but may be far from the nearest,
  // so there the edges are asked too and the nearer answer kept.
  const bool sliver = n2 <= 1e-12 * e0.squaredNorm() * e1.squaredNorm();
  Eigen::Vector3d inner = a;
  bool have_inner = false;
  if (n2 > 0.0) {
    const double s = ap.cross(e1).dot(n) / n2;  // weight of b
    const double t = e0.cross(ap).dot(n) / n2;  // weight of c
    if (s >= 0.0 && t >= 0.0 && s + t <= 1.0) {
      inner = a + s * e0 + t * e1;
      if (!sliver) return inner;
      have_inner = true;
    }
  }
  // Otherwise the closest point lies on the boundary: the best of the three
  // edges (each edge covers its two vertex regions as well).
  const Eigen::Vector3d qab = closest_point_on_segment(p, a, b);
  const Eigen::Vector3d qbc = closest_point_on_segment(p, b, c);
  const Eigen::Vector3d qca = closest_point_on_segment(p, c, a);
  const double dab = (qab - p).squaredNorm();
  const double dbc = (qbc - p).squaredNorm();
  const double dca = (qca - p).squaredNorm();
  Eigen::Vector3d edge = qca;
  if (dab <= dbc && dab <= dca) edge = qab;
  else if (dbc <= dca) edge = qbc;
  if (have_inner && (inner - p).squaredNorm() < (edge - p).squaredNorm()) return inner;
  return edge;
}

double closest_points_of_segments(const Eigen::Vector3d& a0, const Eigen::Vector3d& a1, const Eigen::Vector3d& b0,
                                  const Eigen::Vector3d& b1, Eigen::Vector3d& pa, Eigen::Vector3d& pb) {
  const Eigen::Vector3d da = a1 - a0;
  const auto at = [&](double s) -> Eigen::Vector3d { return (1.0 - s) * a0 + s * a1; };
  // Half the derivative of the squared distance from at(s) to the second
  // segment (the gradient of a squared distance to a convex set is twice
  // the offset from the set): non-decreasing in s, so its sign brackets the
  // minimum and bisection finds it to the last bit.
  const auto slope = [&](double s) {
    const Eigen::Vector3d p = at(s);
    return (p - closest_point_on_segment(p, b0, b1)).dot(da);
  };
  double s = 0.0;
  if (slope(0.0) >= 0.0) {
    s = 0.0;
  } else if (slope(1.0) <= 0.0) {
    s = 1.0;
  } else {
    double lo = 0.0, hi = 1.0;
    for (int i = 0; i < 64; ++i) {  // 2⁻⁶⁴ in the parameter: below any length's rounding
      const double mid = 0.5 * (lo + hi);
      if (mid <= lo || mid >= hi) break;
      (slope(mid) < 0.0 ? lo : hi) = mid;
    }
    s = 0.5 * (lo + hi);
  }
  pa = at(s);
  pb = closest_point_on_segment(pa, b0, b1);
  return (pa - pb).norm();
}

namespace {

// Whether the segment [p, q] crosses the triangle's plane strictly between
// its ends at a point of the closed triangle.
bool segment_pierces(const Eigen::Vector3d& p, const Eigen::Vector3d& q, const Eigen::Vector3d& a,
                     const Eigen::Vector3d& b, const Eigen::Vector3d& c) {
  const Eigen::Vector3d n = (b - a).cross(c - a);
  if (!(n.squaredNorm() > 0.0)) return false;  // a degenerate triangle: its edges cover it
  const double dp = n.dot(p - a), dq = n.dot(q - a);
  if (!((dp < 0.0 && dq > 0.0) || (dp > 0.0 && dq < 0.0))) return false;
  const Eigen::Vector3d x = p + (dp / (dp - dq)) * (q - p);
  // Inside when the three edge tests agree with the normal.
  return n.dot((b - a).cross(x - a)) >= 0.0 && n.dot((c - b).cross(x - b)) >= 0.0 &&
         n.dot((a - c).cross(x - c)) >= 0.0;
}

}  // namespace

double triangle_triangle_distance(const Eigen::Vector3d& a0, const Eigen::Vector3d& a1, const Eigen::Vector3d& a2,
                                  const Eigen::Vector3d& b0, const Eigen::Vector3d& b1, const Eigen::Vector3d& b2) {
  const Eigen::Vector3d A[3] = {a0, a1, a2}, B[3] = {b0, b1, b2};
  for (int i = 0; i < 3; ++i) {
    if (segment_pierces(A[i], A[(i + 1) % 3], b0, b1, b2)) return 0.0;
    if (segment_pierces(B[i], B[(i + 1) % 3], a0, a1, a2)) return 0.0;
  }
  double best = std::numeric_limits<double>::infinity();
  for (int i = 0; i < 3; ++i) {
    best = std::min(best, (closest_point_on_triangle(A[i], b0, b1, b2) - A[i]).norm());
    best = std::min(best, (closest_point_on_triangle(B[i], a0, a1, a2) - B[i]).norm());
  }
  Eigen::Vector3d pa, pb;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      const Eigen::Vector3d &p0 = A[i], &p1 = A[(i + 1) % 3], &q0 = B[j], &q1 = B[(j + 1) % 3];
      // Edges whose enclosing balls are farther apart than the best so far
      // cannot improve it: skipped for speed only.
      const double apart = (0.5 * (p0 + p1) - 0.5 * (q0 + q1)).norm() - 0.5 * ((p1 - p0).norm() + (q1 - q0).norm());
      if (apart >= best) continue;
      best = std::min(best, closest_points_of_segments(p0, p1, q0, q1, pa, pb));
    }
  return best;
}

double point_ellipsoid_distance(const Eigen::Vector3d& a, const Eigen::Vector3d& q) {
  auto f = [&](double t) {
    double s = 0.0;
    for (int i = 0; i < 3; ++i) s += std::pow(a[i] * q[i] / (t + a[i] * a[i]), 2);
    return s - 1.0;
  };
  double lo = 0.0, hi = 1.0;
  while (f(hi) > 0.0) hi *= 2.0;
  for (int it = 0; it < 200; ++it) {
    const double mid = 0.5 * (lo + hi);
    (f(mid) > 0.0 ? lo : hi) = mid;
  }
  Eigen::Vector3d x;
  for (int i = 0; i < 3; ++i) x[i] = a[i] * a[i] * q[i] / (hi + a[i] * a[i]);
  return (q - x).norm();
}

}  // namespace proxima::oracle
