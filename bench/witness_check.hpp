// SPDX-License-Identifier: BSD-3-Clause
// The stress tool's checks of a distance answer's witnesses and normal, from
// closed forms of each shape written here (the signed distance of a point to
// the shape, and its support value along a direction), so that they do not
// lean on the query code they check. The polytope uses its hull's faces:
// inside, the largest face-plane value is a point's signed distance; outside,
// its distance to the nearest face polygon.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>
#include <variant>
#include <vector>

#include <proxima/query.hpp>

namespace proxima::bench {

namespace witness_detail {

// 2-D signed distance of (x, y) to the rectangle or triangle given by its
// counter-clockwise corners.
template <int N>
double polygon_sd(const double (&px)[N], const double (&py)[N], double x, double y) {
  double outside = -std::numeric_limits<double>::infinity(), nearest = std::numeric_limits<double>::infinity();
  for (int i = 0; i < N; ++i) {
    const double ax = px[i], ay = py[i], ex = px[(i + 1) % N] - ax, ey = py[(i + 1) % N] - ay;
    const double len = std::hypot(ex, ey);
    outside = std::max(outside, (ey * (x - ax) - ex * (y - ay)) / len);
    const double t = std::clamp(((x - ax) * ex + (y - ay) * ey) / (len * len), 0.0, 1.0);
    nearest = std::min(nearest, std::hypot(x - ax - t * ex, y - ay - t * ey));
  }
  return outside > 0.0 ? nearest : -nearest;
}

// Distance from q to the ellipsoid surface (radii a): the foot
// x_i = a_i² q_i / (t + a_i²), t the root of Σ (a_i q_i / (t + a_i²))² = 1
// on (−min a_i², ∞), where the sum decreases; bisection.
inline double ellipsoid_surface_distance(const Vec3& a, const Vec3& q) {
  auto f = [&](double t) {
    double s = 0.0;
    for (int i = 0; i < 3; ++i) s += std::pow(a[i] * q[i] / (t + a[i] * a[i]), 2);
    return s - 1.0;
  };
  double lo = -a.cwiseProduct(a).minCoeff(), hi = 1.0;
  while (f(hi) > 0.0) hi *= 2.0;
  for (int it = 0; it < 200; ++it) {
    const double mid = 0.5 * (lo + hi);
    (f(mid) > 0.0 ? lo : hi) = mid;
  }
  Vec3 x;
  for (int i = 0; i < 3; ++i) x[i] = a[i] * a[i] * q[i] / (hi + a[i] * a[i]);
  return (q - x).norm();
}

// Signed distance of q to a solid hull: inside, the largest face-plane
// value; outside, the distance to the nearest face polygon (its plane where q
// projects into it, else its nearest edge), which a margin's rounded surface
// needs (there the plane values fall short near edges and vertices).
inline double hull_signed_distance(const PolytopeData& d, const Vec3& q) {
  double worst = -std::numeric_limits<double>::infinity();
  for (std::size_t f = 0; f < d.face_normals.size(); ++f)
    worst = std::max(worst, d.face_normals[f].dot(q) - d.face_offsets[f]);
  if (worst <= 0.0) return worst;
  double nearest = std::numeric_limits<double>::infinity();
  for (std::size_t f = 0; f < d.faces.size(); ++f) {
    const std::vector<int>& loop = d.faces[f];
    const Vec3& n = d.face_normals[f];
    const double s = n.dot(q) - d.face_offsets[f];
    const Vec3 p = q - s * n;
    bool inside = true;
    for (std::size_t i = 0; i < loop.size(); ++i) {
      const Vec3& a = d.vertices[static_cast<std::size_t>(loop[i])];
      const Vec3& b = d.vertices[static_cast<std::size_t>(loop[(i + 1) % loop.size()])];
      const Vec3 e = b - a;
      inside = inside && (e.cross(p - a)).dot(n) >= 0.0;
      const double t = std::clamp((q - a).dot(e) / e.squaredNorm(), 0.0, 1.0);
      nearest = std::min(nearest, (q - a - t * e).norm());
    }
    if (inside) nearest = std::min(nearest, std::abs(s));
  }
  return nearest;
}

}  // namespace witness_detail

/// Signed distance of the world point x to the posed shape (margin included).
inline double point_signed_distance(const Shape& s, const Transform& pose, const Vec3& x) {
  using namespace witness_detail;
  const Vec3 q = pose.apply_inverse(x);
  const double rho = std::hypot(q.x(), q.y());
  return std::visit([&](const auto& sh) -> double {
    using S = std::decay_t<decltype(sh)>;
    if constexpr (std::is_same_v<S, Sphere>) {
      return q.norm() - sh.radius() - sh.margin();
    } else if constexpr (std::is_same_v<S, Capsule>) {
      const double h = 0.5 * sh.length();
      return (q - Vec3(0, 0, std::clamp(q.z(), -h, h))).norm() - sh.radius() - sh.margin();
    } else if constexpr (std::is_same_v<S, Cylinder>) {
      const double r = sh.radius(), h = 0.5 * sh.length();
      const double px[4] = {-r, r, r, -r}, py[4] = {-h, -h, h, h};
      return polygon_sd(px, py, rho, q.z()) - sh.margin();
    } else if constexpr (std::is_same_v<S, Cone>) {
      const double r = sh.radius(), h = 0.5 * sh.length();
      const double px[3] = {-r, r, 0.0}, py[3] = {-h, -h, h};
      return polygon_sd(px, py, rho, q.z()) - sh.margin();
    } else if constexpr (std::is_same_v<S, Box>) {
      const Vec3 o = q.cwiseAbs() - 0.5 * sh.size();
      return o.cwiseMax(0.0).norm() + std::min(o.maxCoeff(), 0.0) - sh.margin();
    } else if constexpr (std::is_same_v<S, Ellipsoid>) {
      const double level = q.cwiseQuotient(sh.radii()).squaredNorm();
      const double d = ellipsoid_surface_distance(sh.radii(), q);
      return (level <= 1.0 ? -d : d) - sh.margin();
    } else if constexpr (std::is_same_v<S, Halfspace>) {
      return sh.normal().dot(q) - sh.offset() - sh.margin();
    } else {
      return hull_signed_distance(sh.data(), q) - sh.margin();
    }
  }, s.variant());
}

/// Support value of the posed shape along world unit u (margin included);
/// +inf for a halfspace unless u is its outward normal.
inline double support_value(const Shape& s, const Transform& pose, const Vec3& u) {
  const Vec3 v = pose.rotate_inverse(u);
  const double core = std::visit([&](const auto& sh) -> double {
    using S = std::decay_t<decltype(sh)>;
    const double rho = std::hypot(v.x(), v.y());
    if constexpr (std::is_same_v<S, Sphere>) {
      return sh.radius();
    } else if constexpr (std::is_same_v<S, Capsule>) {
      return 0.5 * sh.length() * std::abs(v.z()) + sh.radius();
    } else if constexpr (std::is_same_v<S, Cylinder>) {
      return sh.radius() * rho + 0.5 * sh.length() * std::abs(v.z());
    } else if constexpr (std::is_same_v<S, Cone>) {
      const double h = 0.5 * sh.length();
      return std::max(h * v.z(), sh.radius() * rho - h * v.z());
    } else if constexpr (std::is_same_v<S, Box>) {
      return 0.5 * sh.size().dot(v.cwiseAbs());
    } else if constexpr (std::is_same_v<S, Ellipsoid>) {
      return sh.radii().cwiseProduct(v).norm();
    } else if constexpr (std::is_same_v<S, Halfspace>) {
      return sh.normal().dot(v) >= 1.0 - 1e-12 ? sh.offset() : std::numeric_limits<double>::infinity();
    } else {
      double best = -std::numeric_limits<double>::infinity();
      for (const Vec3& p : sh.data().vertices) best = std::max(best, p.dot(v));
      return best;
    }
  }, s.variant());
  return core + s.margin() + u.dot(pose.p);
}

/// Gap of the supporting planes of A and B across world unit u (B→A): the
/// least of u·x over A less the largest over B; −∞ where a halfspace is
/// unbounded along it.
inline double planes_gap(const Shape& a, const Transform& ta, const Shape& b, const Transform& tb, const Vec3& u) {
  return -support_value(a, ta, -u) - support_value(b, tb, u);
}

/// Witness checks of one answer, relative tolerance `tol` (metres for
/// metre-sized shapes): point_a on A's surface, point_b on B's, and
/// point_a − point_b = distance · normal.
inline bool witnesses_on_shapes(const Shape& a, const Transform& ta, const Shape& b, const Transform& tb,
                                const DistanceResult& r, double tol) {
  return std::abs(point_signed_distance(a, ta, r.point_a)) <= tol &&
         std::abs(point_signed_distance(b, tb, r.point_b)) <= tol &&
         (r.point_a - r.point_b - r.distance * r.normal).norm() <= 1e-9;
}

/// Normal check: unit, and the supporting planes of A and B along it are
/// the distance apart (moving A by −distance along it makes the pair touch).
/// For a bound (upper_bound, not_converged) the pair may part before its
/// planes do: the planes' gap is then at most the distance.
inline bool normal_supports(const Shape& a, const Transform& ta, const Shape& b, const Transform& tb,
                            const DistanceResult& r, double tol) {
  if (std::abs(r.normal.norm() - 1.0) > 1e-9) return false;
  const double gap = planes_gap(a, ta, b, tb, r.normal);
  if (!std::isfinite(gap)) return false;
  return r.status == Status::ok ? std::abs(gap - r.distance) <= tol : gap <= r.distance + tol;
}

}  // namespace proxima::bench
