// SPDX-License-Identifier: BSD-3-Clause
// GJK's finish for a cylinder against a curved solid (a cylinder, a cone, an
// ellipsoid) where the cylinder's nearest point lies on its side or a cap.
//
// Why: there the cylinder's support set is a segment or a disc, so its
// support point jumps as GJK's direction turns and GJK converges only
// linearly; between two cylinders 72 % of random separated poses have a
// side's point nearest and 6 % a cap's (a driver sorting the answers), and
// GJK takes 18.8 support calls on average. Neither side's simplex settles on
// vertices (narrow/curved_finish.hpp), and Newton's method on the direction
// (narrow/smooth_finish.hpp) needs support points that move smoothly.
//
// What: each face gives its own closed problem. The side: the cylinder lies
// in the capsule of its axis and radius, so the distance from the other solid
// to the axis segment less the radius is a lower bound, reached on the
// cylinder whenever the axis point found is inside the segment: the nearest
// points of the axis and the other solid come from the bracketed search of
// narrow/curved_finish.hpp. A cap: the other solid's point nearest to the
// cap's plane is its support point along the plane's inward normal, nearest to
// the cap itself when it lies over the disc. The face is guessed from GJK's
// direction (within about 6° of the face's normals), and the candidate is kept
// only when one support call proves it to GJK's own tolerance.
#pragma once

#include <cmath>
#include <type_traits>

#include <proxima/core/math.hpp>
#include <proxima/narrow/curved_finish.hpp>
#include <proxima/shape/cylinder.hpp>

namespace proxima::detail {

/// Pairs that get the finish: a cylinder and a cylinder, a cone or an
/// ellipsoid, in either order.
template <class A, class B>
inline constexpr bool kCylinderFinish =
    (std::is_same_v<A, Cylinder> && kCurvedCore<B>) || (kCurvedCore<A> && std::is_same_v<B, Cylinder>);

/// The side's candidate: the cylinder `c` and the solid `o` placed in the
/// cylinder's frame by x_c = R x_o + t. Returns false when the axis point
/// found is an end of the axis (a rim or a cap is nearest) or the solid comes
/// within the radius of the axis; otherwise the candidate nearest points, in
/// the cylinder's frame.
template <class O>
PROXIMA_HOT_INLINE inline bool cylinder_side_candidate(const Cylinder& c, const O& o, const Mat3& R, const Vec3& t,
                                                       Vec3& on_c, Vec3& on_o) {
  const double h = 0.5 * c.length();
  const Vec3 s0 = R.transpose() * (Vec3(0.0, 0.0, -h) - t);
  const Vec3 s1 = R.transpose() * (Vec3(0.0, 0.0, h) - t);
  Vec3 q_o, q_axis;
  curved_segment_nearest(o, s0, s1, q_o, q_axis);
  const Vec3 on_axis = R * q_axis + t;
  if (!(std::abs(on_axis.z()) < h)) return false;
  on_o = R * q_o + t;
  const double rho = std::hypot(on_o.x() - on_axis.x(), on_o.y() - on_axis.y());
  if (!(rho > c.radius())) return false;
  const double s = c.radius() / rho;
  on_c = Vec3(on_axis.x() + s * (on_o.x() - on_axis.x()), on_axis.y() + s * (on_o.y() - on_axis.y()), on_axis.z());
  return true;
}

/// The cap's candidate on the side `sign` (+1 the cap at z = h, −1 at −h),
/// with `o` placed as above: the solid's support point along the cap's inward
/// normal and its foot on the cap. False when that point is not beyond the
/// cap's plane or its foot falls off the disc.
template <class O>
PROXIMA_HOT_INLINE inline bool cylinder_cap_candidate(const Cylinder& c, const O& o, const Mat3& R, const Vec3& t,
                                                      double sign, Vec3& on_c, Vec3& on_o) {
  const double h = 0.5 * c.length();
  on_o = R * o.core_support(R.transpose() * Vec3(0.0, 0.0, -sign)) + t;
  if (!(sign * on_o.z() > h)) return false;
  if (!(on_o.x() * on_o.x() + on_o.y() * on_o.y() <= c.radius() * c.radius())) return false;
  on_c = Vec3(on_o.x(), on_o.y(), sign * h);
  return true;
}

}  // namespace proxima::detail
