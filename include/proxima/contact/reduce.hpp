// SPDX-License-Identifier: BSD-3-Clause
// Reduction of a contact manifold to a few points.
#pragma once

#include <vector>

#include <proxima/contact/contact.hpp>

namespace proxima {

/// Keeps at most max_points (≥ 1) of `points`: the deepest first, then the
/// one farthest from it in the plane ⟂ normal, then greedily the point that
/// most enlarges the area of the kept points' convex hull. Deterministic;
/// ties go to the earlier point. Weakens the point guarantee of Contact data for convex polyhedra (see
/// ContactOptions::max_points).
void reduce_contacts(std::vector<Contact>& points, int max_points, const Vec3& normal);

}  // namespace proxima
