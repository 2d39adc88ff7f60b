// SPDX-License-Identifier: BSD-3-Clause
// Small, self-contained geometric kernels used by the test oracles.
//
// These routines are deliberately written from first principles and share no
// code with the library under test.  They favour robustness over speed: every
// returned point is constructed as an explicit convex combination of the
// primitive's vertices, so the returned distance is never smaller than the true
// distance by more than floating-point rounding (degenerate primitives are
// handled by falling back to their edges / end points).
#pragma once

#include <Eigen/Core>

namespace proxima::oracle {

// Closest point to `p` on the segment [a, b] (a == b allowed).
Eigen::Vector3d closest_point_on_segment(const Eigen::Vector3d& p, const Eigen::Vector3d& a,
                                         const Eigen::Vector3d& b);

// Closest point to `p` on the (filled) triangle (a, b, c).  Handles every
// Voronoi region (three vertices, three edges, interior) and degenerate
// (zero-area, collinear or coincident) triangles.
Eigen::Vector3d closest_point_on_triangle(const Eigen::Vector3d& p, const Eigen::Vector3d& a,
                                          const Eigen::Vector3d& b, const Eigen::Vector3d& c);

// Closest points of the segments [a0, a1] and [b0, b1]: `pa` on the first,
// `pb` on the second. The squared distance from a point moving along the
// first segment to the second is convex in its parameter, so bisection on
// the sign of its derivative (closest_point_on_segment for the inner
// problem) finds the minimum without the case analysis of a closed form.
// Returns |pa − pb|.
double closest_points_of_segments(const Eigen::Vector3d& a0, const Eigen::Vector3d& a1, const Eigen::Vector3d& b0,
                                  const Eigen::Vector3d& b1, Eigen::Vector3d& pa, Eigen::Vector3d& pb);

// Distance between the filled triangles (a0, a1, a2) and (b0, b1, b2): 0 when
// an edge of one pierces the other, else the least of the six vertex–triangle
// and nine edge–edge distances (the closest pair of two disjoint triangles
// always includes a vertex or two edges).
double triangle_triangle_distance(const Eigen::Vector3d& a0, const Eigen::Vector3d& a1, const Eigen::Vector3d& a2,
                                  const Eigen::Vector3d& b0, const Eigen::Vector3d& b1, const Eigen::Vector3d& b2);

// Distance from q, outside the axis-aligned ellipsoid of radii a about the
// origin, to its surface: the foot x_i = a_i² q_i / (t + a_i²) with t > 0 the
// root of Σ (a_i q_i / (t + a_i²))² = 1, where the sum decreases in t;
// bisection to rounding.
double point_ellipsoid_distance(const Eigen::Vector3d& a, const Eigen::Vector3d& q);

}  // namespace proxima::oracle
