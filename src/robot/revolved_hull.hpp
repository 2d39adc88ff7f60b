// SPDX-License-Identifier: BSD-3-Clause
// A convex polytope holding a link's shapes swept through every angle about
// a line: what the prefilter's pair tables put in place of a link whose
// pair distance would otherwise depend on the joint turning about that line
// (sphere_prefilter.cpp, build_tables).
#pragma once

#include <optional>
#include <vector>

#include <proxima/robot/link_geometry.hpp>
#include <proxima/shape/convex_polytope.hpp>

namespace proxima::robot::detail {

/// A convex polytope, in the link's frame, that holds every rotation of
/// `shapes` (margins included) about the line through `point` along the
/// unit `axis`: the hull of `copies` evenly turned copies of the shapes'
/// cores, inflated by the largest core inflation plus the sagitta
/// ρ (1 − cos(π / copies)) of the farthest core point (ρ from the line),
/// since an arc between two neighbouring copies stays that close to its
/// chord, which the hull holds. Nothing when a shape is unbounded or the
/// points have no hull.
std::optional<ConvexPolytope> revolved_hull(const std::vector<LinkShape>& shapes, const Vec3& point,
                                            const Vec3& axis, int copies = 64);

/// Convex polytopes, in the link's frame, that every rotation of `shapes`
/// about the line holds: for each shape that is a solid hull or box the
/// line crosses, the hull of regular `copies`-gons inscribed in the largest
/// circles about the line that its core holds at `levels` heights along
/// the line, with the core's inflation as margin. A circle about the line
/// is its own rotation, so each rotation of the shape holds it, and holds
/// the hull of such circles (it is convex). What proves a pair within the
/// tolerance where the link turns about the line.
std::vector<ConvexPolytope> inscribed_revolutions(const std::vector<LinkShape>& shapes, const Vec3& point,
                                                  const Vec3& axis, int copies = 32, int levels = 24);

}  // namespace proxima::robot::detail
