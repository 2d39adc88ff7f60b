// SPDX-License-Identifier: BSD-3-Clause
// The closed forms of the pairs dispatch.cpp calls most often, inline so
// that the dispatch table's cell compiles to one function (the call, result
// set-up and helper calls cost as much as the geometry on sphere pairs).
// closed_form.cpp exposes them as the public closed_form:: functions.
#pragma once

#include <algorithm>
#include <cmath>
#include <type_traits>
#include <utility>

#include <proxima/query.hpp>

// The dispatch table's cells must inline the PROXIMA_HOT_INLINE ones: left
// to itself, gcc called sphere–capsule and capsule–capsule out of line from
// dispatch.cpp (each is used twice there), 1–3 ns on a 15–25 ns query.

namespace proxima::closed_form::impl {


// Result from the closest core points ca (A) and cb (B), a unit B→A normal n,
// the signed core distance s (negative inside) and the inflation radii.
// The fields are computed before the result is written: it is the caller's
// return slot, which may alias the poses, so a default-constructed result
// would be stored twice.
PROXIMA_HOT_INLINE inline DistanceResult from_cores(const Vec3& ca, const Vec3& cb, const Vec3& n, double s,
                                                   double ra, double rb) {
  const Vec3 pa = ca - ra * n, pb = cb + rb * n;
  return DistanceResult{Status::ok, s - (ra + rb), n, pa, pb, 0, false};
}

// √l2 and its reciprocal, the latter as √l2 · (1/l2): the root and the
// division run side by side instead of one after the other (on sphere pairs
// the chain from the poses to the normal, not the instruction count, sets
// the time). Below 1e-290, 1/l2 would overflow: there the division follows
// the root. inv is inf for l2 = 0.
struct LengthAndInverse {
  double len, inv;
};
PROXIMA_HOT_INLINE inline LengthAndInverse length_and_inverse(double l2) {
  const double len = std::sqrt(l2);
  return {len, l2 > 1e-290 ? len * (1.0 / l2) : 1.0 / len};
}

// Point cores at ca, cb; `fallback()` gives the normal when they coincide
// (computed only then). `d` is ca − cb, passed where the caller has a
// shorter way to it.
template <class Fallback>
PROXIMA_HOT_INLINE inline DistanceResult from_points(const Vec3& ca, const Vec3& cb, const Vec3& d,
                                                    Fallback&& fallback, double ra, double rb) {
  const auto [len, inv_len] = length_and_inverse(d.squaredNorm());
  const Vec3 n = len > 0.0 ? Vec3(d * inv_len) : Vec3(fallback());
  return from_cores(ca, cb, n, len, ra, rb);
}
template <class Fallback>
PROXIMA_HOT_INLINE inline DistanceResult from_points(const Vec3& ca, const Vec3& cb, Fallback&& fallback, double ra,
                                                    double rb) {
  return from_points(ca, cb, Vec3(ca - cb), std::forward<Fallback>(fallback), ra, rb);
}

inline Vec3 axis_of(const Transform& t) { return t.R.col(2); }


// The line-line parameter of p0 + s·d1 nearest to the line q0 + t·d2
// (r = p0 − q0) as a fraction num / den: s = w·(d2 × r) / |w|², w = d1 × d2,
// the same value as the textbook (b f − c e) / (a e − b²) but accurate to
// ε/θ relative (θ between the lines), where the textbook form loses every
// digit by θ ≈ 1e-8 and drifts by up to θ·length. For nearly parallel
// lines only: it costs more, and Eigen's cross() more still (2.5× slower
// capsule pairs), so the products are written out.
struct LineParam {
  double num, den;
};
inline LineParam near_parallel_line_param(const Vec3& d1, const Vec3& d2, const Vec3& r) {
  const double wx = d1.y() * d2.z() - d1.z() * d2.y(), wy = d1.z() * d2.x() - d1.x() * d2.z(),
               wz = d1.x() * d2.y() - d1.y() * d2.x();
  const double vx = d2.y() * r.z() - d2.z() * r.y(), vy = d2.z() * r.x() - d2.x() * r.z(),
               vz = d2.x() * r.y() - d2.y() * r.x();
  return {wx * vx + wy * vy + wz * vz, wx * wx + wy * wy + wz * wz};
}

// Below this sin²θ the line parameter comes from near_parallel_line_param.
inline constexpr double kNearParallelSin2 = 1e-2;

inline std::pair<double, double> closest_segment_params(const Vec3& p0, const Vec3& p1, const Vec3& q0,
                                                 const Vec3& q1) {
  const Vec3 d1 = p1 - p0, d2 = q1 - q0, r = p0 - q0;
  const double a = d1.squaredNorm(), e = d2.squaredNorm(), f = d2.dot(r);
  auto clamp01 = [](double x) { return std::clamp(x, 0.0, 1.0); };
  if (a <= 0.0 && e <= 0.0) return {0.0, 0.0};
  if (a <= 0.0) return {0.0, clamp01(f / e)};
  const double c = d1.dot(r);
  if (e <= 0.0) return {clamp01(-c / a), 0.0};
  const double b = d1.dot(d2);
  const double denom = a * e - b * b;
  double s;
  if (denom > kNearParallelSin2 * a * e) {
    s = clamp01((b * f - c * e) / denom);
  } else {
    // Parallel lines (w exactly zero): any s works; 0 is then corrected through t below.
    const LineParam lp = near_parallel_line_param(d1, d2, r);
    s = lp.den > 0.0 ? clamp01(lp.num / lp.den) : 0.0;
  }
  double t = (b * s + f) / e;
  if (t < 0.0) {
    t = 0.0;
    s = clamp01(-c / a);
  } else if (t > 1.0) {
    t = 1.0;
    s = clamp01((b - c) / a);
  }
  return {s, t};
}

PROXIMA_HOT_INLINE inline DistanceResult sphere_sphere(const Sphere& a, const Transform& ta, const Sphere& b,
                                                      const Transform& tb) {
  return from_points(ta.p, tb.p, [] { return Vec3::UnitZ(); }, a.core_inflation(), b.core_inflation());
}

PROXIMA_HOT_INLINE inline DistanceResult sphere_capsule(const Sphere& a, const Transform& ta, const Capsule& b,
                                                       const Transform& tb) {
  const Vec3 axis = axis_of(tb);
  const double h = b.half_length();
  const Vec3 r = ta.p - tb.p;
  const double t = std::clamp(axis.dot(r), -h, h);
  // Centre on the axis: any direction normal to the axis is a deepest one.
  // The difference as r − t·axis: one step shorter than through the axis point.
  return from_points(ta.p, tb.p + t * axis, Vec3(r - t * axis), [&] { return axis.unitOrthogonal(); },
                     a.core_inflation(), b.core_inflation());
}

// Closest points of the segments ca + s·ua, |s| ≤ ha and cb + t·ub, |t| ≤ hb
// with unit ua, ub, r = ca − cb: the closest_segment_params system with
// a = e = 1, so the only division is by sin²θ; the chained divisions by a
// and e were a third of a capsule pair's time.
PROXIMA_HOT_INLINE inline std::pair<double, double> closest_centred_segment_params(const Vec3& ua, double ha,
                                                                                   const Vec3& ub, double hb,
                                                                                   const Vec3& r) {
  const double k = ua.dot(ub), c = ua.dot(r), f = ub.dot(r);
  const double denom = 1.0 - k * k;
  double s;
  if (denom > kNearParallelSin2) {
    s = std::clamp((k * f - c) / denom, -ha, ha);
  } else {
    // Parallel axes (w exactly zero): any s works; 0 is then corrected through t below.
    const LineParam lp = near_parallel_line_param(ua, ub, r);
    s = lp.den > 0.0 ? std::clamp(lp.num / lp.den, -ha, ha) : 0.0;
  }
  double t = k * s + f;
  if (t < -hb) {
    t = -hb;
    s = std::clamp(-k * hb - c, -ha, ha);
  } else if (t > hb) {
    t = hb;
    s = std::clamp(k * hb - c, -ha, ha);
  }
  return {s, t};
}

PROXIMA_HOT_INLINE inline DistanceResult capsule_capsule(const Capsule& a, const Transform& ta, const Capsule& b,
                                                        const Transform& tb) {
  const Vec3 ua = axis_of(ta), ub = axis_of(tb);
  const auto [s, t] = closest_centred_segment_params(ua, a.half_length(), ub, b.half_length(), ta.p - tb.p);
  // Crossing segments: the depth is the sum of radii along the common normal.
  auto fallback = [&] {
    const Vec3 c = ua.cross(ub);
    const double cl = c.norm();
    return cl > 1e-12 ? Vec3(c / cl) : ua.unitOrthogonal();
  };
  return from_points(ta.p + s * ua, tb.p + t * ub, fallback, a.core_inflation(), b.core_inflation());
}

PROXIMA_HOT_INLINE inline DistanceResult sphere_box(const Sphere& a, const Transform& ta, const Box& b,
                                                   const Transform& tb) {
  const Vec3 c = tb.apply_inverse(ta.p);
  const Vec3& h = b.half_extents();
  const double ra = a.core_inflation(), rb = b.core_inflation();
  // c less its nearest point of the box: zero inside. Outside, d is turned
  // into the world frame while its length is taken; the box's point is the
  // centre less that: one rotation instead of two.
  const Vec3 d = c - c.cwiseMax(-h).cwiseMin(h);
  const double l2 = d.squaredNorm();
  if (l2 > 0.0) {
    const auto [len, inv_len] = length_and_inverse(l2);
    const Vec3 world_d = tb.rotate(d);
    return from_cores(ta.p, ta.p - world_d, Vec3(world_d * inv_len), len, ra, rb);
  }
  // Centre inside the box: leave through the nearest face.
  int axis = 0;
  double gap = h[0] - std::abs(c[0]);
  for (int i = 1; i < 3; ++i) {
    const double g = h[i] - std::abs(c[i]);
    if (g < gap) { gap = g; axis = i; }
  }
  // The face's normal is a column of the box's rotation, and its point
  // the centre moved out by the gap along it.
  const Vec3 n = c[axis] >= 0.0 ? Vec3(tb.R.col(axis)) : Vec3(-tb.R.col(axis));
  return from_cores(ta.p, ta.p + gap * n, n, -gap, ra, rb);
}

// A sphere's centre c against a solid of revolution about local z whose
// meridian section (r, z), r ≥ 0, is convex: the nearest boundary point of
// the solid lies in c's own meridian half-plane (for an outside point, the
// solid is symmetric about that plane; for an inside one, among the planes
// supporting the solid the deepest below c have their normal in it), so the
// 3-D question is a 2-D one about the section. `section(rho, z, qr, qz, nr,
// nz)` answers it for the point (rho, z): the signed distance (negative
// inside), the nearest boundary point (qr, qz) and the unit outward normal
// there, pointing from (qr, qz) to the point when outside. The azimuth is
// c's, or +x on the axis (every azimuth is then equally near).
template <class Section>
inline DistanceResult sphere_revolved(const Transform& ta, const Transform& tb, double ra, double rb,
                                      Section&& section) {
  const Vec3 c = tb.apply_inverse(ta.p);
  const double rho = std::sqrt(c.x() * c.x() + c.y() * c.y());
  const double cos_az = rho > 0.0 ? c.x() / rho : 1.0, sin_az = rho > 0.0 ? c.y() / rho : 0.0;
  double qr, qz, nr, nz;
  const double s = section(rho, c.z(), qr, qz, nr, nz);
  const Vec3 q(qr * cos_az, qr * sin_az, qz), n(nr * cos_az, nr * sin_az, nz);
  return from_cores(ta.p, tb.apply(q), tb.rotate(n), s, ra, rb);
}

// The nearer to (x, z) of its projection onto segment [p, q] of the (r, z)
// plane and `best` (squared distance `best_sq`).
inline void nearer_on_segment(double x, double z, double pr, double pz, double qr, double qz, double& br,
                              double& bz, double& best_sq) {
  const double dr = qr - pr, dz = qz - pz;
  const double t = std::clamp(((x - pr) * dr + (z - pz) * dz) / (dr * dr + dz * dz), 0.0, 1.0);
  const double cr = pr + t * dr, cz = pz + t * dz;
  const double d2 = (x - cr) * (x - cr) + (z - cz) * (z - cz);
  if (d2 < best_sq) {
    best_sq = d2;
    br = cr;
    bz = cz;
  }
}

// Outside a section: the distance to the nearest point (qr, qz) and the
// unit direction from it to (x, z); (nr, nz) is kept as set (the normal of
// the side found violated) when rounding put a boundary point outside.
inline double outside_normal(double x, double z, double qr, double qz, double& nr, double& nz) {
  const double len = std::hypot(x - qr, z - qz);
  if (len > 0.0) {
    nr = (x - qr) / len;
    nz = (z - qz) / len;
  }
  return len;
}

// Cylinder core: section [0, R] × [−h, h]. Inside, the nearer of the side
// (R − ρ) and the nearer cap (h − |z|); a tie leaves through the cap.
inline DistanceResult sphere_cylinder(const Sphere& a, const Transform& ta, const Cylinder& b, const Transform& tb) {
  const double R = b.radius(), h = 0.5 * b.length();
  return sphere_revolved(ta, tb, a.core_inflation(), b.core_inflation(),
                         [&](double rho, double z, double& qr, double& qz, double& nr, double& nz) {
                           qr = std::min(rho, R);
                           qz = std::clamp(z, -h, h);
                           if (qr != rho || qz != z) {
                             nr = rho > R ? 1.0 : 0.0;
                             nz = rho > R ? 0.0 : (z > 0.0 ? 1.0 : -1.0);
                             return outside_normal(rho, z, qr, qz, nr, nz);
                           }
                           const double side = R - rho, cap = h - std::abs(z);
                           if (side < cap) {
                             qr = R;
                             nr = 1.0;
                             nz = 0.0;
                             return -side;
                           }
                           qz = z >= 0.0 ? h : -h;
                           nr = 0.0;
                           nz = z >= 0.0 ? 1.0 : -1.0;
                           return -cap;
                         });
}

// Cone core: the meridian section is the triangle (0, −h), (R, −h), (0, h)
// (base at z = −h, apex at +h; cone.hpp), whose boundary seen from r ≥ 0 is
// the base and the slant side (the axis is inside the full section). Inside,
// the nearer of the base (z + h) and the slant, whose outward normal is
// (2h, R)/√(4h² + R²); a tie leaves through the base.
inline DistanceResult sphere_cone(const Sphere& a, const Transform& ta, const Cone& b, const Transform& tb) {
  const double R = b.radius(), h = 0.5 * b.length();
  const double len = std::sqrt(4.0 * h * h + R * R), sr = 2.0 * h / len, sz = R / len;
  return sphere_revolved(ta, tb, a.core_inflation(), b.core_inflation(),
                         [&](double rho, double z, double& qr, double& qz, double& nr, double& nz) {
                           const double base = z + h, slant = sr * (R - rho) - sz * (z + h);
                           if (!(base >= 0.0) || !(slant >= 0.0)) {
                             qr = std::min(rho, R);
                             qz = -h;
                             double best = (rho - qr) * (rho - qr) + (z + h) * (z + h);
                             nearer_on_segment(rho, z, R, -h, 0.0, h, qr, qz, best);
                             nr = base < slant ? 0.0 : sr;
                             nz = base < slant ? -1.0 : sz;
                             return outside_normal(rho, z, qr, qz, nr, nz);
                           }
                           if (slant < base) {
                             qr = rho + slant * sr;
                             qz = z + slant * sz;
                             nr = sr;
                             nz = sz;
                             return -slant;
                           }
                           qr = rho;
                           qz = -h;
                           nr = 0.0;
                           nz = -1.0;
                           return -base;
                         });
}

// Nearest boundary point x of the solid ellipsoid with semi-axes
// e[0] ≥ … ≥ e[k−1] > 0 to a point y with every y[i] ≥ 0 (Eberly, "Distance
// from a point to an ellipse, an ellipsoid, or a hyperellipsoid", 2013):
// x[i] = e[i]² y[i] / (t + e[i]²) for the largest root t > −e[k−1]² of
// Σ (e[i] y[i] / (t + e[i]²))² = 1, inside and outside alike. The root is
// sought as u = (t + e[k−1]²) / e[k−1]², which keeps its relative precision
// when it nears 0 (a point close to the smallest axis's plane), by Newton's
// method from the left end of the bracket: the function is convex and
// decreasing in u, so the steps rise monotonically to the root. With
// y[k−1] = 0 the nearest point may leave that plane (deep inside, toward the
// smallest axis); when it does not, the problem drops a dimension.
inline void ellipsoid_nearest(int k, const double* e, const double* y, double* x) {
  const double el = e[k - 1];
  // A y[k−1] so small that (y/e)² underflows is the plane's case (the
  // nearest point moves by less than y, far below rounding): Newton's start
  // u would be 0 or subnormal and its quotients 0/0 or a few bits wide. Two
  // fuzz findings: a centre 1e-320 off the plane, and one 2e-321 off it from
  // a rotation entry of −2e-323, whose Newton root put the witness on the
  // far side of the ellipsoid.
  constexpr double kPlaneShare = 1e-150;
  if (y[k - 1] / el > kPlaneShare) {
    double n[3], d[3], r[3];
    double g0 = -1.0, norm2 = 0.0;
    for (int i = 0; i < k; ++i) {
      r[i] = (e[i] / el) * (e[i] / el);
      d[i] = (e[i] - el) * (e[i] + el) / (el * el);  // r − 1, without its cancellation
      const double z = y[i] / e[i];
      n[i] = r[i] * z;
      g0 += z * z;
      norm2 += n[i] * n[i];
    }
    if (g0 == 0.0) {  // on the surface
      for (int i = 0; i < k; ++i) x[i] = y[i];
      return;
    }
    const double hi = g0 < 0.0 ? 1.0 : std::sqrt(norm2);
    double u = y[k - 1] / el;  // the last term alone is 1 here: g ≥ 0
    for (int it = 0; it < 100; ++it) {
      double g = -1.0, dg = 0.0;
      for (int i = 0; i < k; ++i) {
        const double q = n[i] / (u + d[i]);
        g += q * q;
        dg -= 2.0 * q * q / (u + d[i]);
      }
      if (!(g > 0.0)) break;  // at the root, to rounding
      const double next = std::min(u - g / dg, hi);
      if (!(next > u)) break;  // no more progress
      u = next;
    }
    for (int i = 0; i < k; ++i) x[i] = r[i] * y[i] / (u + d[i]);
    return;
  }
  if (k == 1) {
    x[0] = el;
    return;
  }
  double sum = 0.0;
  bool off_plane = true;
  for (int i = 0; i + 1 < k && off_plane; ++i) {
    const double denom = (e[i] - el) * (e[i] + el), numer = e[i] * y[i];
    off_plane = numer < denom;
    if (off_plane) {
      const double xde = numer / denom;
      x[i] = e[i] * xde;
      sum += xde * xde;
    }
  }
  if (off_plane && sum < 1.0) {
    x[k - 1] = el * std::sqrt(1.0 - sum);
    return;
  }
  x[k - 1] = 0.0;
  ellipsoid_nearest(k - 1, e, y, x);
}

// Ellipsoid core: the centre's nearest boundary point in the frame where the
// semi-axes are sorted and the centre lies in the first octant (zero
// components on the + side), mapped back; the normal is the outward surface
// normal there, x/e² normalized, which is the B→A direction outside and the
// way out inside, also where the distance is 0.
inline DistanceResult sphere_ellipsoid(const Sphere& a, const Transform& ta, const Ellipsoid& b, const Transform& tb) {
  const Vec3 c = tb.apply_inverse(ta.p);
  const Vec3& radii = b.radii();
  int p[3] = {0, 1, 2};
  std::stable_sort(p, p + 3, [&](int i, int j) { return radii[i] > radii[j]; });
  double e[3], y[3], x[3];
  for (int i = 0; i < 3; ++i) {
    e[i] = radii[p[i]];
    y[i] = std::abs(c[p[i]]);
  }
  ellipsoid_nearest(3, e, y, x);
  double inside = -1.0;
  Vec3 q, n;
  for (int i = 0; i < 3; ++i) {
    const double sign = c[p[i]] < 0.0 ? -1.0 : 1.0;
    q[p[i]] = sign * x[i];
    n[p[i]] = sign * x[i] / (e[i] * e[i]);
    inside += (y[i] / e[i]) * (y[i] / e[i]);
  }
  const double dist = (c - q).norm();
  return from_cores(ta.p, tb.apply(q), tb.rotate(n.normalized()), inside < 0.0 ? -dist : dist, a.core_inflation(),
                    b.core_inflation());
}

// Capsule–box (capsule_box.cpp): the segment–box distance in closed form,
// the SAT on box ⊖ segment when the segment reaches into the box.
DistanceResult capsule_box(const Capsule& a, const Transform& ta, const Box& b, const Transform& tb);

// Any bounded shape A against halfspace B: the core's height over B's plane
// is that of A's origin, n·(p_A − p_B) − offset, less the core's reach below
// its origin along n. For a sphere that reach is 0; for a capsule h|axis·n|;
// for a box Σ h_i |col_i·n|. Those dot products run side by side once n is
// there, instead of after the deepest point as n·(c − p_B) would, and the
// deepest point itself (the core support along −n; for the capsule its
// copysign written out) is made meanwhile. Other shapes: their core
// support, then its height.
template <class S>
PROXIMA_HOT_INLINE inline DistanceResult shape_halfspace(const S& a, const Transform& ta, const Halfspace& b,
                                                         const Transform& tb) {
  const Vec3 n = b.world_normal(tb);
  Vec3 ca;
  double s;
  if constexpr (std::is_same_v<S, Sphere>) {
    ca = ta.p;
    s = n.dot(ta.p - tb.p) - b.offset();
  } else if constexpr (std::is_same_v<S, Capsule>) {
    const Vec3 axis = axis_of(ta);
    const double k = axis.dot(n), h = a.half_length();
    ca = ta.p + std::copysign(h, -k) * axis;
    s = (n.dot(ta.p - tb.p) - b.offset()) - h * std::abs(k);
  } else if constexpr (std::is_same_v<S, Box>) {
    const Vec3 k = ta.rotate_inverse(n);
    const Vec3& h = a.half_extents();
    ca = ta.apply(a.core_support(-k));
    s = (n.dot(ta.p - tb.p) - b.offset()) - h.cwiseProduct(k.cwiseAbs()).sum();
  } else {
    ca = ta.apply(a.core_support(ta.rotate_inverse(-n)));
    s = n.dot(ca - tb.p) - b.offset();
  }
  return from_cores(ca, ca - s * n, n, s, a.core_inflation(), b.core_inflation());
}

// Defined in closed_form.cpp.
DistanceResult halfspace_halfspace(const Halfspace& a, const Transform& ta, const Halfspace& b, const Transform& tb);

}  // namespace proxima::closed_form::impl
