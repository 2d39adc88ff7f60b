// SPDX-License-Identifier: BSD-3-Clause
// Continuous collision with a mesh operand: time_of_impact (query.hpp) for
// mesh–mesh and mesh–convex (halfspace included) pairs, same motion model
// and guarantees.
//
// A mesh is not convex, so the closest-point normal does not bound how fast
// the rest of it closes in: each step uses the direction-free bound
// |v_B − v_A| + |ω_A| r_A + |ω_B| r_B (r: the farthest vertex from the
// mesh's origin; the margin's ball turns in place). Turning meshes therefore take more, smaller steps
// than convex pairs.
#pragma once

#include <cstdint>

#include <proxima/mesh/mesh_queries.hpp>
#include <proxima/query.hpp>

namespace proxima {

struct MeshTimeOfImpactResult : TimeOfImpactResult {
  std::int64_t triangle_a = -1;  ///< the witness's closest triangle of A
  std::int64_t triangle_b = -1;  ///< of B (−1 for mesh–convex)
};

MeshTimeOfImpactResult time_of_impact(const Bvh& a, const Transform& pose_a, const Transform& pose_a_end,
                                      const Bvh& b, const Transform& pose_b, const Transform& pose_b_end,
                                      const TimeOfImpactRequest& request = {});
MeshTimeOfImpactResult time_of_impact(const Bvh& a, const Transform& pose_a, const Transform& pose_a_end,
                                      const Shape& b, const Transform& pose_b, const Transform& pose_b_end,
                                      const TimeOfImpactRequest& request = {});

}  // namespace proxima
