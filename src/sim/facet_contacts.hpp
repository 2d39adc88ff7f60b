// SPDX-License-Identifier: BSD-3-Clause
// Vertex–facet rows for the ε broad phase of Stewart–Trinkle and for
// Polyhedral Exact Geometry (world.hpp Formulation).
#pragma once

#include <proxima/sim/world.hpp>

namespace proxima::sim::detail {

/// Fills s.rows, s.group_begin (one more entry than groups) and
/// s.group_partial with the
/// rows of pair (a, b): for every vertex of one body (a sphere is one
/// rounded vertex; a box, a solid convex polytope or a mesh has its
/// corners) and every facet of the other (a box, a solid convex polytope,
/// or a mesh's triangles) whose polygon is within eps of the vertex's
/// surface, the facet's half-space: normal out of the facet's body, turned
/// B→A, ψ = n·p − offset − radii (margins included). The facets one vertex
/// sees of one convex body form one group: the body is one convex piece,
/// outside of which is max ψ ≥ 0. A mesh's near triangles are grouped by
/// its adjacency: joined across convex or flat edges, apart across concave
/// ones. Meshes are scanned triangle by triangle (no hierarchy): meant for
/// obstacles of hundreds of triangles. Returns false when
/// neither side has facets or the other side has no vertices (the pair keeps
/// its closest-feature manifold); s.rows is then empty.
bool facet_rows(const Body& a, const Body& b, double eps, FacetScratch& s);

/// Distance from x to the convex polygon `loop` (indices into `vertices`,
/// either orientation) with unit normal n.
double polygon_distance(const Vec3& x, const Vec3& n, const std::vector<Vec3>& vertices, const int* loop, int size);

}  // namespace proxima::sim::detail
