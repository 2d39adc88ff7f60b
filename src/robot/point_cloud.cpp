// SPDX-License-Identifier: BSD-3-Clause
#include <proxima/robot/point_cloud.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include <proxima/core/error.hpp>

namespace proxima::robot {

std::size_t add_point_cloud(Environment& env, const std::string& name, std::span<const Vec3> points, double voxel,
                            const Transform& pose, const PointCloudOptions& options) {
  const std::string what = "point cloud '" + name + "'";
  if (!(voxel > 0.0) || !(voxel <= kMaxLength))
    throw Error(what + ": voxel size " + std::to_string(voxel) + " must be > 0 and finite");
  if (options.min_points < 1)
    throw Error(what + ": min_points " + std::to_string(options.min_points) + " must be at least 1");
  if (!pose.is_valid()) throw Error(what + ": pose is not finite");
  // Cell indices as exact integers: beyond 2^52 a double no longer holds
  // every integer, and neighbouring cells would merge.
  constexpr double kMaxCell = 4503599627370496.0;  // 2^52
  using Cell = std::array<std::int64_t, 3>;
  std::vector<Cell> cells;
  cells.reserve(points.size());
  for (std::size_t n = 0; n < points.size(); ++n) {
    const Vec3& p = points[n];
    if (!p.allFinite() || (p.array().abs() > kMaxLength).any())
      throw Error(what + ": point " + std::to_string(n) + " is not finite or beyond the range of lengths");
    Cell c;
    for (int k = 0; k < 3; ++k) {
      const double i = std::floor(p[k] / voxel);
      if (!(std::abs(i) <= kMaxCell))
        throw Error(what + ": point " + std::to_string(n) + " is too far out for voxels of " + std::to_string(voxel));
      c[static_cast<std::size_t>(k)] = static_cast<std::int64_t>(i);
    }
    cells.push_back(c);
  }
  std::sort(cells.begin(), cells.end());
  const Box cube(voxel, voxel, voxel);
  std::size_t added = 0;
  for (std::size_t a = 0; a < cells.size();) {
    std::size_t b = a + 1;
    while (b < cells.size() && cells[b] == cells[a]) ++b;
    if (b - a >= static_cast<std::size_t>(options.min_points)) {
      const Vec3 centre((static_cast<double>(cells[a][0]) + 0.5) * voxel, (static_cast<double>(cells[a][1]) + 0.5) * voxel,
                        (static_cast<double>(cells[a][2]) + 0.5) * voxel);
      const std::size_t i =
          env.add(name + "/" + std::to_string(added), cube, Transform{pose.R, pose.apply(centre)}, options.touch_links);
      env.objects[i].group = name;
      ++added;
    }
    a = b;
  }
  return added;
}

}  // namespace proxima::robot
