// SPDX-License-Identifier: BSD-3-Clause
// The benchmark workloads: fixed-seed random poses of separated
// pairs, with ground truth from the test oracles (explicit Minkowski
// difference for polyhedral cores, certified direction sweep otherwise).
#pragma once

#include <vector>

#include <proxima/shape/shape.hpp>

#include "peers/workload.hpp"

namespace proxima::bench {

struct TruthWorkload {
  Workload work;
  std::vector<double> truth;  ///< ground-truth (signed) distance per pose
  std::vector<Vec3> truth_normal;  ///< depth workloads: the true normal (B→A)
  const char* oracle = "";    ///< which oracle produced `truth`
};

/// The six workloads with `poses` separated poses each.
std::vector<TruthWorkload> make_workloads(int poses, unsigned seed = 2026);

/// Penetration workloads with `poses` overlapping poses each:
/// sphere–sphere, capsule–capsule, sphere–capsule, box–box, and polytope
/// spheres of 50…2000 vertices against a capsule, capsule–box; ground truth from the
/// explicit Minkowski difference of the polyhedral cores.
std::vector<TruthWorkload> make_depth_workloads(int poses, unsigned seed = 2027);

/// Contact-manifold workloads, `poses` overlapping poses each:
/// box 1x1x1 resting face-on-face on a box 2x2x1 (random yaw, in-plane
/// offset, overlap in (0, 5 mm], and a random rigid motion of the pair);
/// the same boxes at random poses, shallow (A pushed ≤ 5 mm into B along a
/// random approach direction) and deep (random overlapping poses); a
/// polytope (hull of 200 points on a sphere of radius 0.5) on the 2x2x1 box,
/// shallow and deep alike; and a polytope flattened (a flat bottom face)
/// resting face-on-face.
std::vector<Workload> make_contact_workloads(int poses, unsigned seed = 2028);

Shape to_shape(const ShapeSpec& s);
Transform to_transform(const Pose& p);

}  // namespace proxima::bench
