// SPDX-License-Identifier: BSD-3-Clause
// Ground-truth signed distance between two convex polytopes, computed from the
// explicit Minkowski difference C = conv{a_i - b_j} built with qhull.
//
// This is a *test oracle*: it is slow (O(|A| |B|) points) but simple and
// independent of the library's GJK/EPA code.
//
// Conventions
//   * signed distance > 0 : the polytopes are separated; value = dist(A, B)
//                           = Euclidean distance from the origin to C.
//   * signed distance < 0 : they overlap; value = -(penetration depth)
//                           = -(distance from the origin to the boundary of C).
//   * signed distance = 0 : touching (origin on the boundary of C).
//   A point of C is a - b, so the closest point x of C (outside case) is the
//   translation vector a* - b* between the closest points; moving B by x makes
//   the shapes touch.  In the inside case the boundary point x is the minimum
//   translation: moving B by x (equivalently A by -x) brings them to contact.
//
// Accuracy: ~1e-15 relative to the shape size for well-conditioned inputs
// (the closest point is reconstructed from exact input points; the inside
// depth uses exact support values h_C(n) = max_i a_i.n - min_j b_j.n on the
// facet normals reported by qhull).  Checked to <= 1e-12 for unit shapes in
// the self test.
//
// Flat inputs: when C is (numerically) planar, a segment or a point, qhull is
// not used; the distance to the lower-dimensional set is computed directly
// (2-D monotone-chain hull in the plane, then exact 3-D point/triangle
// distances).  A flat C has empty interior so its signed distance is >= 0.
#pragma once

#include <Eigen/Core>
#include <vector>

namespace proxima::oracle {

// Signed distance between conv(a_world_vertices) and conv(b_world_vertices).
// `closest` (optional) receives the closest point of C = A - B to the origin
// (separated case) or the nearest boundary point of C (overlap case).
// Throws std::invalid_argument for empty inputs / non-finite coordinates and
// std::runtime_error if qhull fails on a genuinely 3-D input.
double minkowski_signed_distance(const std::vector<Eigen::Vector3d>& a_world_vertices,
                                 const std::vector<Eigen::Vector3d>& b_world_vertices,
                                 Eigen::Vector3d* closest = nullptr);

// Signed distance from `query` to conv(points) (positive outside, negative
// inside = -distance to the boundary, 0 on the boundary or for flat sets that
// contain the query).  `closest` receives the closest point of the hull
// (outside) or the nearest boundary point (inside).  Same machinery as above.
double hull_signed_distance(const std::vector<Eigen::Vector3d>& points,
                            const Eigen::Vector3d& query = Eigen::Vector3d::Zero(),
                            Eigen::Vector3d* closest = nullptr);

// Distance from the origin, inside conv(points) (a full-dimensional set),
// along the unit direction d to the hull's boundary: the smallest
// offset / (n·d) over qhull's facets with n·d > 0. Throws std::runtime_error
// if qhull fails, std::invalid_argument for fewer than 4 points.
double hull_ray_exit(const std::vector<Eigen::Vector3d>& points, const Eigen::Vector3d& d);

}  // namespace proxima::oracle
