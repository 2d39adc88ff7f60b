// SPDX-License-Identifier: BSD-3-Clause
// Coal's BVHModel<OBBRSS> for the mesh benchmark, behind an interface of
// plain types: proxima-mesh-bench compiles without Coal's headers and gets
// the implementation from the Coal library through coal_api() (coal_api.hpp).
#pragma once

#include <array>
#include <memory>
#include <string>
#include <vector>

namespace proxima::bench {

/// A triangle mesh A at the identity against B (the same mesh, or a box) at a
/// pose set per query. Built once: the BVH models and one
/// coal::ComputeCollision and one coal::ComputeDistance functor for the pair,
/// which every query calls with the two transforms.
class CoalMeshPair {
 public:
  virtual ~CoalMeshPair() = default;
  /// B's pose: row-major rotation and translation.
  virtual void set_pose_b(const std::array<double, 9>& rotation, const std::array<double, 3>& translation) = 0;
  /// Collision (no contact), stopping at the first colliding triangle pair.
  virtual bool collide() const = 0;
  /// Distance with nearest points (Coal's BVH distance; 0 or below when
  /// overlapping).
  virtual double distance() const = 0;
};

/// `box_size` empty: B is A's mesh; else B is a box of these full extents.
std::unique_ptr<CoalMeshPair> make_coal_mesh_pair(const std::vector<std::array<double, 3>>& vertices,
                                                  const std::vector<std::array<int, 3>>& triangles,
                                                  const std::vector<double>& box_size);

}  // namespace proxima::bench
