// SPDX-License-Identifier: BSD-3-Clause
// Oriented boxes: a shape's local bounding box carried by its pose, much
// tighter than the world AABB of a long link turned off the world axes.
#pragma once

#include <algorithm>

#include <proxima/core/aabb.hpp>

namespace proxima::broad {

struct Obb {
  Vec3 center = Vec3::Zero();
  Mat3 axes = Mat3::Identity();  ///< columns: the box's unit axes in the world
  Vec3 half = Vec3::Zero();      ///< half extents along them

  /// The box `local` (finite, non-empty) of a shape at `pose`.
  static Obb placed(const Aabb& local, const Transform& pose) {
    return {pose.apply(local.center()), pose.R, local.half_extents()};
  }
  /// The largest u·(x − center) over the box's points x: its half width along u.
  double reach(const Vec3& u) const { return half.dot((axes.transpose() * u).cwiseAbs()); }
};

/// A lower bound on the distance between two boxes whose axes are
/// rotations: the widest gap along the six face normals of the
/// separating-axis test (Gottschalk, Lin, Manocha 1996, §4), negative when
/// none of them separates the boxes. The nine edge-pair axes are left out:
/// they cost as much again and for robot links rejected little more.
inline double obb_gap(const Obb& a, const Obb& b) {
  const Mat3 r = a.axes.transpose() * b.axes;  // b's axes in a's frame
  const Mat3 abs_r = r.cwiseAbs();
  const Vec3 t = a.axes.transpose() * (b.center - a.center);
  // Along a's axes: |t_i| − a_i − Σ_j |r_ij| b_j; along b's: |rᵀ t|_j − Σ_i |r_ij| a_i − b_j.
  const Vec3 along_a = t.cwiseAbs() - a.half - abs_r * b.half;
  const Vec3 along_b = (r.transpose() * t).cwiseAbs() - abs_r.transpose() * a.half - b.half;
  return std::max(along_a.maxCoeff(), along_b.maxCoeff());
}

/// obb_gap less a margin of rounding relative to the boxes' size and
/// distance: never above the true distance, so touching boxes are never
/// proven apart.
inline double obb_gap_bound(const Obb& a, const Obb& b) {
  const double scale = (b.center - a.center).cwiseAbs().maxCoeff() + a.half.sum() + b.half.sum();
  return obb_gap(a, b) - 1e-12 * scale;
}

}  // namespace proxima::broad
