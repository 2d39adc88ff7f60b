// SPDX-License-Identifier: BSD-3-Clause
// GJK's finish for a cylinder or a cone against a curved solid (a cylinder, a
// cone, an ellipsoid) where the nearest point lies on one of their faces: a
// cylinder's side or a cap, a cone's slant or its base.
//
// Why: there the support set is a segment or a disc, so the support point
// jumps as GJK's direction turns and GJK converges only linearly; between two
// cylinders 72 % of random separated poses have a side's point nearest and
// 6 % a cap's (a driver sorting the answers), and GJK takes 18.8 support
// calls on average, two cones 13.7. Neither side's simplex settles on
// vertices (narrow/curved_finish.hpp), and Newton's method on the direction
// (narrow/smooth_finish.hpp) needs support points that move smoothly.
//
// What: each face gives its own closed problem.
// - A cylinder's side: the cylinder lies in the capsule of its axis and
//   radius, so the distance from the other solid to the axis segment less the
//   radius is a lower bound, reached on the cylinder whenever the axis point
//   found is inside the segment.
// - A cone's slant: the cone lies in the tapered capsule swept by balls on its
//   axis that touch the slant, of radius (h − z) sin α at height z for the
//   half-angle α, with the axis run on below the base until the ball touches
//   the base's rim (z = −h − r²/2h, radius r·√(r² + 4h²)/2h). The distance to
//   it is a lower bound, reached on the slant whenever the axis point found is
//   inside that run: the distance less the growing radius is convex along the
//   axis, and the bracketed search of narrow/curved_finish.hpp minimises it.
// - A disc (a cap or the base): the other solid's point nearest to the disc's
//   plane is its support point along the plane's inward normal, nearest to the
//   disc itself when it lies over the disc.
// The face is guessed from GJK's direction (within about 6° of the face's
// normals), and the candidate is kept only when one support call proves it to
// GJK's own tolerance.
#pragma once

#include <cmath>
#include <limits>
#include <type_traits>

#include <proxima/core/math.hpp>
#include <proxima/narrow/curved_finish.hpp>
#include <proxima/shape/cone.hpp>
#include <proxima/shape/cylinder.hpp>

namespace proxima::detail {

/// Solids with faces the finish solves: a cylinder and a cone.
template <class S>
inline constexpr bool kFaced = std::is_same_v<S, Cylinder> || std::is_same_v<S, Cone>;

/// Pairs that get the finish: a cylinder or a cone and a cylinder, a cone or
/// an ellipsoid, in either order.
template <class A, class B>
inline constexpr bool kFaceFinish = (kFaced<A> && kCurvedCore<B>) || (kCurvedCore<A> && kFaced<B>);

/// The faces, by the code nearest_face returns.
inline constexpr int kSideFace = 0;    ///< a cylinder's side, a cone's slant
inline constexpr int kTopFace = 1;     ///< the disc at z = +h (a cylinder's cap)
inline constexpr int kBottomFace = 2;  ///< the disc at z = −h (a cylinder's cap, a cone's base)

/// The face whose normals come nearest to the unit direction `d` (the
/// solid's frame): its code in `face` and the sine of the angle to them.
PROXIMA_HOT_INLINE inline double nearest_face(const Cylinder&, const Vec3& d, int& face) {
  const double rho = std::sqrt(d.x() * d.x() + d.y() * d.y()), side = std::abs(d.z());
  if (side <= rho) {
    face = kSideFace;
    return side;
  }
  face = d.z() > 0.0 ? kTopFace : kBottomFace;
  return rho;
}
PROXIMA_HOT_INLINE inline double nearest_face(const Cone& c, const Vec3& d, int& face) {
  const double h = 0.5 * c.length(), r = c.radius();
  const double rho = std::sqrt(d.x() * d.x() + d.y() * d.y());
  double best = std::numeric_limits<double>::infinity();
  face = -1;
  // The slant's outward normal in the meridian half-plane is (2h, r)/L: the
  // sine to it is the cross product with (ρ, d_z), on the normal's side only.
  if (2.0 * h * rho + r * d.z() > 0.0) {
    face = kSideFace;
    best = std::abs(2.0 * h * d.z() - r * rho) / std::sqrt(4.0 * h * h + r * r);
  }
  if (d.z() < 0.0 && rho < best) {
    face = kBottomFace;
    best = rho;
  }
  return best;
}

/// Where q lies along [p0, p1] as a fraction: exactly 0 and 1 at the ends
/// (the search returns them as they are), which the candidates must reject:
/// a point mapped through a frame and back is off by rounding and would pass
/// for one just inside.
inline double segment_parameter(const Vec3& p0, const Vec3& p1, const Vec3& q) {
  const Vec3 e = p1 - p0;
  return (q - p0).dot(e) / e.dot(e);
}

/// The cylinder side's candidate: the cylinder `c` and the solid `o` placed
/// in the cylinder's frame by x_c = R x_o + t. Returns false when the axis
/// point found is an end of the axis (a rim or a cap is nearest) or the solid
/// comes within the radius of the axis; otherwise the candidate nearest
/// points, in the cylinder's frame.
template <class O>
PROXIMA_HOT_INLINE inline bool cylinder_side_candidate(const Cylinder& c, const O& o, const Mat3& R, const Vec3& t,
                                                       Vec3& on_c, Vec3& on_o) {
  const double h = 0.5 * c.length();
  const Vec3 s0 = R.transpose() * (Vec3(0.0, 0.0, -h) - t);
  const Vec3 s1 = R.transpose() * (Vec3(0.0, 0.0, h) - t);
  Vec3 q_o, q_axis;
  curved_segment_nearest(o, s0, s1, q_o, q_axis);
  const double along = segment_parameter(s0, s1, q_axis);
  if (!(along > 0.0 && along < 1.0)) return false;
  const Vec3 on_axis(0.0, 0.0, h * (2.0 * along - 1.0));
  on_o = R * q_o + t;
  const double rho = std::hypot(on_o.x() - on_axis.x(), on_o.y() - on_axis.y());
  if (!(rho > c.radius())) return false;
  const double s = c.radius() / rho;
  on_c = Vec3(on_axis.x() + s * (on_o.x() - on_axis.x()), on_axis.y() + s * (on_o.y() - on_axis.y()), on_axis.z());
  return true;
}

/// The cone slant's candidate, with `o` placed in the cone's frame as above:
/// the tapered capsule's nearest points (see the top of this file). False
/// when the axis point found is an end of the run (the apex or the base's rim
/// is nearest) or the solid reaches into the tapered capsule.
template <class O>
PROXIMA_HOT_INLINE inline bool cone_slant_candidate(const Cone& c, const O& o, const Mat3& R, const Vec3& t,
                                                    Vec3& on_c, Vec3& on_o) {
  const double h = 0.5 * c.length(), r = c.radius();
  const double run = 2.0 * h + r * r / (2.0 * h);                  // from the apex down the axis
  const double growth = r * std::sqrt(r * r + 4.0 * h * h) / (2.0 * h);  // the ball's radius at the run's end
  const Vec3 s0 = R.transpose() * (Vec3(0.0, 0.0, h) - t);
  const Vec3 s1 = R.transpose() * (Vec3(0.0, 0.0, h - run) - t);
  Vec3 q_o, q_axis;
  curved_segment_nearest<true>(o, s0, s1, q_o, q_axis, growth);
  const double along = segment_parameter(s0, s1, q_axis);
  if (!(along > 0.0 && along < 1.0)) return false;
  const Vec3 on_axis(0.0, 0.0, h - along * run);
  on_o = R * q_o + t;
  const Vec3 out = on_o - on_axis;
  const double dist = out.norm(), radius = along * growth;
  if (!(dist > radius)) return false;
  on_c = on_axis + (radius / dist) * out;
  return true;
}

/// The candidate on the disc of `radius` at z = sign·h (sign ±1, its outward
/// normal sign·z), with `o` placed as above: the solid's support point along
/// the disc's inward normal and its foot on the disc. False when that point
/// is not beyond the disc's plane or its foot falls off the disc.
template <class O>
PROXIMA_HOT_INLINE inline bool disc_candidate(double radius, double h, double sign, const O& o, const Mat3& R,
                                              const Vec3& t, Vec3& on_c, Vec3& on_o) {
  on_o = R * o.core_support(R.transpose() * Vec3(0.0, 0.0, -sign)) + t;
  if (!(sign * on_o.z() > h)) return false;
  if (!(on_o.x() * on_o.x() + on_o.y() * on_o.y() <= radius * radius)) return false;
  on_c = Vec3(on_o.x(), on_o.y(), sign * h);
  return true;
}

/// The candidate on `face` (a code of nearest_face), `o` placed as above.
template <class O>
PROXIMA_HOT_INLINE inline bool face_candidate(const Cylinder& c, const O& o, const Mat3& R, const Vec3& t, int face,
                                              Vec3& on_c, Vec3& on_o) {
  if (face == kSideFace) return cylinder_side_candidate(c, o, R, t, on_c, on_o);
  return disc_candidate(c.radius(), 0.5 * c.length(), face == kTopFace ? 1.0 : -1.0, o, R, t, on_c, on_o);
}
template <class O>
PROXIMA_HOT_INLINE inline bool face_candidate(const Cone& c, const O& o, const Mat3& R, const Vec3& t, int face,
                                              Vec3& on_c, Vec3& on_o) {
  if (face == kSideFace) return cone_slant_candidate(c, o, R, t, on_c, on_o);
  return disc_candidate(c.radius(), 0.5 * c.length(), -1.0, o, R, t, on_c, on_o);
}

}  // namespace proxima::detail
