// SPDX-License-Identifier: BSD-3-Clause
// Reduction of flat contact patches to their hull vertices (BLEM paper §5:
// "contact points scattered on a plane can safely be reduced to their
// convex hull without any loss of accuracy in contact response").
#pragma once

#include <vector>

#include <proxima/contact/contact.hpp>

namespace proxima {

/// First merges copies (points within `tol`, normals within 1e-3 rad; the
/// deepest copy stays, with the smallest feature ids). Then, of every group
/// of contacts sharing a normal (within 1e-3 rad) and a plane
/// (within `tol` along the normal), keeps the vertices of the group's convex
/// hull in that plane; points within `tol` of a hull edge count as on it and
/// are dropped, as are copies. Exact for a rigid pair: the relative normal
/// velocity is affine in the point and so is the gap across a flat patch, so
/// a non-negative velocity condition at the hull vertices implies it inside
/// (the argument of Contact data for convex polyhedra). It also removes the interior points that jump:
/// two faces split along nearly collinear diagonals give sliver patches
/// whose vertex is the diagonals' crossing point, which moves by centimetres
/// under micro-radian rotations. The result does not depend on the input
/// order except for which of two copies keeps its place; kept contacts stay
/// in input order. O(N log N + h²) for hulls of h vertices.
void keep_patch_hulls(std::vector<Contact>& contacts, double tol);

}  // namespace proxima
