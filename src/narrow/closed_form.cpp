// SPDX-License-Identifier: BSD-3-Clause
// Closed-form signed distances: every pair here reduces to the distance
// between two cores (points, segments, a box, a plane) minus the radii, with a
// deterministic normal where the cores touch and the direction is free.
#include <algorithm>
#include <cmath>

#include <proxima/narrow/closed_form.hpp>

#include "closed_form_impl.hpp"

namespace proxima::closed_form {
namespace impl {

DistanceResult halfspace_halfspace(const Halfspace& a, const Transform& ta, const Halfspace& b, const Transform& tb) {
  const Vec3 na = a.world_normal(ta), nb = b.world_normal(tb);
  const double oa = a.offset() + na.dot(ta.p), ob = b.offset() + nb.dot(tb.p);
  const double ra = a.core_inflation(), rb = b.core_inflation();
  if (na.dot(nb) <= -1.0 + 1e-12) {
    // Opposed planes: a slab gap (or overlap) of −ob − oa along nb.
    const Vec3 pa = oa * na;  // on A's plane
    const double s = -ob - oa;
    return from_cores(pa, pa - s * nb, nb, s, ra, rb);
  }
  // Any other pair overlaps without bound: report a common point, no depth.
  DistanceResult r;
  r.status = Status::not_implemented;
  const double c = na.dot(nb);
  const double det = 1.0 - c * c;
  Vec3 p = Vec3::Zero();
  if (det > 1e-12) {
    const double alpha = (oa - c * ob) / det, beta = (ob - c * oa) / det;
    p = alpha * na + beta * nb;
  } else {
    p = std::min(oa, ob) * na;  // parallel, same side: a point inside both
  }
  r.distance = 0.0;
  r.normal = nb;
  r.point_a = r.point_b = p;
  return r;
}

}  // namespace impl

namespace {

// The public closed forms take poses from anywhere: a non-finite one is
// reported, never computed with (the dispatcher checks before its cells,
// which call impl:: directly).
template <class F>
DistanceResult checked(const Transform& ta, const Transform& tb, F&& f) {
  if (!both_valid(ta, tb)) {
    DistanceResult r;
    r.status = Status::invalid_input;
    return r;
  }
  return f();
}

}  // namespace

std::pair<double, double> closest_segment_params(const Vec3& p0, const Vec3& p1, const Vec3& q0,
                                                 const Vec3& q1) {
  return impl::closest_segment_params(p0, p1, q0, q1);
}

// Each public pair calls its impl:: namesake through checked().
#define PROXIMA_CHECKED_PAIR(name, A, B)                                                   \
  DistanceResult name(const A& a, const Transform& ta, const B& b, const Transform& tb) { \
    return checked(ta, tb, [&] { return impl::name(a, ta, b, tb); });                    \
  }
PROXIMA_CHECKED_PAIR(sphere_sphere, Sphere, Sphere)
PROXIMA_CHECKED_PAIR(sphere_capsule, Sphere, Capsule)
PROXIMA_CHECKED_PAIR(capsule_capsule, Capsule, Capsule)
PROXIMA_CHECKED_PAIR(sphere_box, Sphere, Box)
PROXIMA_CHECKED_PAIR(capsule_box, Capsule, Box)
PROXIMA_CHECKED_PAIR(sphere_cylinder, Sphere, Cylinder)
PROXIMA_CHECKED_PAIR(sphere_cone, Sphere, Cone)
PROXIMA_CHECKED_PAIR(sphere_ellipsoid, Sphere, Ellipsoid)
PROXIMA_CHECKED_PAIR(halfspace_halfspace, Halfspace, Halfspace)
#undef PROXIMA_CHECKED_PAIR

template <class S>
DistanceResult shape_halfspace(const S& a, const Transform& ta, const Halfspace& b,
                               const Transform& tb) {
  return checked(ta, tb, [&] { return impl::shape_halfspace(a, ta, b, tb); });
}

// The public shape_halfspace for every bounded shape type.
#define PROXIMA_SHAPE_HALFSPACE(S) \
  template DistanceResult shape_halfspace(const S&, const Transform&, const Halfspace&, const Transform&);
#define PROXIMA_SHAPE_HALFSPACE_ALL                                                                   \
  PROXIMA_SHAPE_HALFSPACE(Sphere) PROXIMA_SHAPE_HALFSPACE(Capsule) PROXIMA_SHAPE_HALFSPACE(Cylinder) \
  PROXIMA_SHAPE_HALFSPACE(Cone) PROXIMA_SHAPE_HALFSPACE(Box) PROXIMA_SHAPE_HALFSPACE(Ellipsoid)       \
  PROXIMA_SHAPE_HALFSPACE(ConvexPolytope)

PROXIMA_SHAPE_HALFSPACE_ALL
#undef PROXIMA_SHAPE_HALFSPACE_ALL
#undef PROXIMA_SHAPE_HALFSPACE

}  // namespace proxima::closed_form
