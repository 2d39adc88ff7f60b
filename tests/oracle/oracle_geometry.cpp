#include "oracle_geometry.hpp"

#include <Eigen/Geometry>

#include <algorithm>
#include <cmath>

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
  if (n2 > 0.0) {
    const double s = ap.cross(e1).dot(n) / n2;  // weight of b
    const double t = e0.cross(ap).dot(n) / n2;  // weight of c
    if (s >= 0.0 && t >= 0.0 && s + t <= 1.0) return a + s * e0 + t * e1;
  }
  // Otherwise the closest point lies on the boundary: the best of the three
  // edges (each edge covers its two vertex regions as well).
  const Eigen::Vector3d qab = closest_point_on_segment(p, a, b);
  const Eigen::Vector3d qbc = closest_point_on_segment(p, b, c);
  const Eigen::Vector3d qca = closest_point_on_segment(p, c, a);
  const double dab = (qab - p).squaredNorm();
  const double dbc = (qbc - p).squaredNorm();
  const double dca = (qca - p).squaredNorm();
  if (dab <= dbc && dab <= dca) return qab;
  if (dbc <= dca) return qbc;
  return qca;
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
    for (int i = 0; i < 200 && lo < hi; ++i) {
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

}  // namespace proxima::oracle
