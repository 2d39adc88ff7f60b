// SPDX-License-Identifier: BSD-3-Clause
// Mesh–mesh contact sets from the peers (the BLEM benchmark): FCL's
// BVHModel<OBBRSS> collide with enable_contact and Bullet's GImpact. Plain
// data only, like workload.hpp and manifold.hpp, so the adapters compile
// against their own library and this header alone.
//
// Convention every adapter converts to (Proxima's): each contact has its own
// unit normal pointing from B to A (moving A along it separates the pair),
// its depth (positive = overlap along that normal; NaN where the library
// gives none) and a position midway between the two surfaces where the
// library says on which body its point lies.
#pragma once

#include <algorithm>
#include <array>
#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

#include "timing.hpp"
#include "workload.hpp"

namespace proxima::bench {

/// A triangle soup: vertices and index triples, in the body's frame.
struct MeshSpec {
  std::vector<std::array<double, 3>> vertices;
  std::vector<std::array<int, 3>> triangles;
};

struct MeshContactPoint {
  std::array<double, 3> position{};
  std::array<double, 3> normal{};  ///< unit, B to A
  double depth = 0.0;              ///< overlap along the normal (m)
};

/// What one peer produced on one pair of meshes at a list of poses.
struct MeshContactCell {
  std::string library;
  std::string solver;
  std::string note;
  double median_ns = 0.0;  ///< median over poses of the per-pose median call time
  std::vector<std::vector<MeshContactPoint>> contacts;  ///< one set per pose
};

/// fcl::collide of two BVHModel<OBBRSS> (GST_LIBCCD, the default) with
/// enable_contact and num_max_contacts = max_contacts. FCL reports only
/// intersecting triangle pairs (every intersection point of each pair); its
/// normal points from o1 (A) to o2 (B), so it is negated here, and its point
/// lies on the intersection, so it is kept.
MeshContactCell run_fcl_mesh_contacts(const MeshSpec& a, const MeshSpec& b, const std::vector<Pose>& pose_a,
                                      const std::vector<Pose>& pose_b, int repeats,
                                      std::size_t max_contacts = 100000);

/// Bullet GImpact: btGImpactMeshShape on both bodies with collision margin
/// `margin_a` / `margin_b` (GImpact's triangle test reports triangle pairs
/// whose margin-inflated triangles touch, Bullet's own boundary layer),
/// btGImpactCollisionAlgorithm registered on a btCollisionDispatcher of a
/// btCollisionWorld. With `persistent` false the contacts are every point
/// the algorithm reports (the dispatcher's algorithm for the pair, its
/// processCollision timed, each addContactPoint recorded); with `persistent` true they are what a
/// Bullet simulation keeps after performDiscreteCollisionDetection: the
/// btPersistentManifold's at most 4 points. Normals are Bullet's normal on
/// B (B to A), depth minus its distance, position the midpoint of its
/// points on A and B.
MeshContactCell run_bullet_gimpact_contacts(const MeshSpec& a, const MeshSpec& b, const std::vector<Pose>& pose_a,
                                            const std::vector<Pose>& pose_b, int repeats, double margin_a,
                                            double margin_b, bool persistent);

}  // namespace proxima::bench
