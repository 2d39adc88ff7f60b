// SPDX-License-Identifier: BSD-3-Clause
// The shortest translation that separates intersecting triangles of two
// meshes (mesh–mesh contacts whose cores cross, mesh_contacts.cpp): of one
// triangle pair alone, or of the pair together with the intersecting pairs
// around it on the same convex stretch of both surfaces.
//
// Why the neighbourhood: a triangle pair's own shortest retraction can be
// far from the bodies'. Two closed cubes stacked flush, the upper sunk 2 µm
// into the lower, cross only where side triangles pass through the faces
// and through each other; the two side faces of a corner, offset 0.1 µm,
// separate sideways by 0.1 µm, and those sideways contacts (opposite on
// opposite corners) fight each other in the solver, which then never
// converges. Moving the upper cube sideways by 0.1 µm leaves it 2 µm deep
// in the lower one's top face, a neighbour of the same corner, so over the
// neighbourhood the sideways axis costs the cube's width and the vertical
// one 2 µm.
#pragma once

#include <span>

#include <proxima/core/math.hpp>
#include <proxima/mesh/triangle_distance.hpp>

namespace proxima::mesh::detail {

/// Two triangles (one of each mesh, one frame) whose separation along the
/// chosen axis also counts.
struct TrianglePair {
  const Triangle* a;
  const Triangle* b;
};

/// Shortest translation of A's triangle `a` out of B's `b` (intersecting):
/// the separating-axis depth over both normals, the nine edge crossings,
/// and, for coplanar faces, the six in-plane edge normals; over
/// `neighbours` too when given, each axis then costing the most any of
/// those pairs needs along it (the neighbours' face normals are candidate
/// axes as well). `orient_a`, `orient_b` are the meshes'
/// TriangleMesh::orientation(): for closed oriented meshes only directions
/// that take A out through b's face and off a's count (0 lifts that side's
/// restriction; if nothing is allowed, the unrestricted minimum is used).
/// Returns the unit direction (B→A) in `dir` and the core depth ≥ 0.
void triangle_retraction(const Triangle& a, const Triangle& b, int orient_a, int orient_b,
                         std::span<const TrianglePair> neighbours, Vec3& dir, double& depth);

/// How far `a` must move along the unit direction u to clear `b`'s span
/// along it (≥ 0).
double advance_to_clear(const Triangle& a, const Triangle& b, const Vec3& u);

/// Where two crossing triangles meet: the points where an edge of one
/// passes through the other (the ends of their intersection segment, a
/// corner counted once per edge through it). Returns how many (≤ 6); 0 for
/// coplanar triangles, whose edges lie in the other's plane.
int crossing_points(const Triangle& a, const Triangle& b, Vec3 (&out)[6]);

/// True when triangles t and u of one closed oriented mesh (outward unit
/// normals out_t, out_u) lie each on or behind the other's face within
/// `tol` (m): the surface between them is flat or convex, so one body can be
/// pushed off both along one direction.
bool convex_neighbours(const Triangle& t, const Vec3& out_t, const Triangle& u, const Vec3& out_u, double tol);

}  // namespace proxima::mesh::detail
