// SPDX-License-Identifier: BSD-3-Clause
// Vertex–facet rows for the ε broad phase of Stewart–Trinkle and for
// Polyhedral Exact Geometry (world.hpp Formulation).
#pragma once

#include <proxima/sim/world.hpp>

namespace proxima::sim::detail {

/// One side of a pair: its geometry at a pose (a body's, or a robot link's
/// collision part, robot_world_facets.cpp).
struct FacetSide {
  const Geometry* geometry = nullptr;
  Transform pose;
};

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
bool facet_rows(const FacetSide& a, const FacetSide& b, double eps, FacetScratch& s);
inline bool facet_rows(const Body& a, const Body& b, double eps, FacetScratch& s) {
  return facet_rows(FacetSide{a.geometry.get(), a.pose}, FacetSide{b.geometry.get(), b.pose}, eps, s);
}

/// Whether PEG gives the pair (a, b) its rows: a static side or a sphere
/// (facet_contacts.cpp says why two moving polyhedra keep their manifolds).
bool peg_pair(const FacetSide& a, bool a_static, const FacetSide& b, bool b_static);

/// PEG's reading of group g of s at the step's start (facet_contacts.cpp
/// says why): `active` the row that pushes (an index into s.rows), −1 when
/// the group constrains nothing; the group's other rows with ψ ≥ `keep`
/// enter its max as aux rows. `contact_margin` is the slop of "in front".
struct PegGroup {
  int active = -1;
  double keep = 0.0;
};
PegGroup peg_group(const FacetScratch& s, std::size_t g, double contact_margin);

/// Distance from x to the convex polygon `loop` (indices into `vertices`,
/// either orientation) with unit normal n.
double polygon_distance(const Vec3& x, const Vec3& n, const std::vector<Vec3>& vertices, const int* loop, int size);

}  // namespace proxima::sim::detail
