// Coal's BVHModel<OBBRSS> for the mesh benchmark, behind plain types so that
// proxima-mesh-bench compiles without Coal's headers (coal_mesh.cpp is in the
// Coal library, built only with PROXIMA_HAVE_COAL).
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
  /// `box_size` empty: B is A's mesh; else B is a box of these full extents.
  CoalMeshPair(const std::vector<std::array<double, 3>>& vertices, const std::vector<std::array<int, 3>>& triangles,
               const std::vector<double>& box_size = {});
  ~CoalMeshPair();
  CoalMeshPair(const CoalMeshPair&) = delete;
  CoalMeshPair& operator=(const CoalMeshPair&) = delete;

  /// B's pose: row-major rotation and translation.
  void set_pose_b(const std::array<double, 9>& rotation, const std::array<double, 3>& translation);
  /// Collision (no contact), stopping at the first colliding triangle pair.
  bool collide() const;
  /// Distance with nearest points (Coal's BVH distance; 0 or below when
  /// overlapping).
  double distance() const;

  static std::string library();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace proxima::bench
