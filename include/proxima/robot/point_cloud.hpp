// SPDX-License-Identifier: BSD-3-Clause
// A point cloud (a depth camera's, a lidar's) as environment objects: the
// occupied cells of a voxel grid, each a cube, which is how planners meet
// sensed obstacles (MoveIt's occupancy map is such a grid). Many thousand
// cubes are cheap to query through a PreparedEnvironment.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include <proxima/robot/environment.hpp>

namespace proxima::robot {

struct PointCloudOptions {
  /// A cell needs at least this many points (≥ 1) to be occupied: 2 or 3
  /// drop a sensor's isolated speckles.
  int min_points = 1;
  /// Links allowed to touch every cube of this cloud (touch_links).
  std::vector<std::string> touch_links = {};
};

/// Adds the occupied cells of `points` (in the frame `pose`) as cubes of
/// side `voxel`, named "<name>/<k>" and grouped as `name` (one watchdog
/// channel for the whole cloud): cell (i, j, k) spans [i·voxel,
/// (i+1)·voxel) × … in that frame, so the grid does not depend on the
/// points, and cells are added in (i, j, k) order. Returns how many cubes
/// were added. Throws proxima::Error, naming the cloud and the first bad
/// point or value, for a non-finite or out-of-range point, pose or voxel
/// size, a voxel size ≤ 0, a cell index beyond ±2^52, or min_points < 1;
/// nothing is added then.
std::size_t add_point_cloud(Environment& env, const std::string& name, std::span<const Vec3> points, double voxel,
                            const Transform& pose = Transform::identity(), const PointCloudOptions& options = {});

}  // namespace proxima::robot
