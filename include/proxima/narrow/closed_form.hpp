// SPDX-License-Identifier: BSD-3-Clause
// Exact closed-form signed distances for the pairs that have one. Each returns
// the signed distance (negative = overlap, −depth), the B→A normal and the
// points on A and B (deepest points when overlapping), in world frame; a
// non-finite pose gives Status::invalid_input (never NaN).
#pragma once

#include <proxima/query.hpp>

namespace proxima::closed_form {

DistanceResult sphere_sphere(const Sphere& a, const Transform& ta, const Sphere& b, const Transform& tb);
DistanceResult sphere_capsule(const Sphere& a, const Transform& ta, const Capsule& b, const Transform& tb);
DistanceResult capsule_capsule(const Capsule& a, const Transform& ta, const Capsule& b, const Transform& tb);
DistanceResult sphere_box(const Sphere& a, const Transform& ta, const Box& b, const Transform& tb);
/// The capsule's segment against the box in closed form; when the segment
/// reaches into the box, the exact SAT on box ⊖ segment.
DistanceResult capsule_box(const Capsule& a, const Transform& ta, const Box& b, const Transform& tb);
DistanceResult sphere_cylinder(const Sphere& a, const Transform& ta, const Cylinder& b, const Transform& tb);
DistanceResult sphere_cone(const Sphere& a, const Transform& ta, const Cone& b, const Transform& tb);
DistanceResult sphere_ellipsoid(const Sphere& a, const Transform& ta, const Ellipsoid& b, const Transform& tb);
/// Any shape A against a halfspace B: A's deepest point along −normal.
template <class S>
DistanceResult shape_halfspace(const S& a, const Transform& ta, const Halfspace& b, const Transform& tb);
DistanceResult halfspace_halfspace(const Halfspace& a, const Transform& ta, const Halfspace& b, const Transform& tb);

/// Closest points of segments [p0, p1] and [q0, q1]: returns the parameters
/// (s, t) in [0, 1]² of a closest pair (Ericson §5.1.9, guarded for
/// degenerate and parallel segments; nearly parallel ones, where the
/// textbook form drifts by up to θ·length, take a cross-product form exact
/// to rounding).
std::pair<double, double> closest_segment_params(const Vec3& p0, const Vec3& p1, const Vec3& q0,
                                                 const Vec3& q1);

}  // namespace proxima::closed_form
