// SPDX-License-Identifier: BSD-3-Clause
// Shape and pose descriptions shared by the side-by-side benchmark and the
// peer adapters. Plain data only: the peers never see Proxima types, so a peer
// adapter compiles against its own library and this header alone.
#pragma once

#include <array>
#include <string>
#include <vector>

namespace proxima::bench {

enum class Kind { sphere, capsule, cylinder, box, ellipsoid, convex, halfspace };

/// One convex shape, centred at its local origin. Capsule and cylinder axes
/// are local z; capsule `length` is the segment, cylinder `length` the full
/// height; box `size` is the full extents; `points` are the polytope vertices
/// (already on their hull). A halfspace is {x : normal·x ≤ offset}; its
/// workloads keep it at the identity pose (ODE's planes are not placeable),
/// and only ODE among the peers takes it.
struct ShapeSpec {
  Kind kind = Kind::sphere;
  double radius = 0.0;
  double length = 0.0;
  std::array<double, 3> size{};
  std::array<double, 3> radii{};
  std::vector<std::array<double, 3>> points;
  std::array<double, 3> normal{0.0, 0.0, 1.0};  ///< halfspace, unit
  double offset = 0.0;                          ///< halfspace
};

/// A rigid pose: translation p and unit quaternion q = (w, x, y, z).
struct Pose {
  std::array<double, 3> p{};
  std::array<double, 4> q{1.0, 0.0, 0.0, 0.0};
};

/// The same pair of shapes at many poses; pose_a[i] goes with pose_b[i].
struct Workload {
  std::string name;
  ShapeSpec a;
  ShapeSpec b;
  std::vector<Pose> pose_a;
  std::vector<Pose> pose_b;
};

/// What one peer solver produced on one workload.
struct PeerCell {
  std::string library;  ///< e.g. "FCL 0.7"
  std::string solver;   ///< e.g. "GST_LIBCCD distance"
  bool supported = true;     ///< false: the peer has no such shape pair
  std::string note;          ///< why unsupported, or what went wrong
  double median_ns = 0.0;    ///< median time of one distance query
  std::vector<double> distances;  ///< one per pose; NaN where the peer failed
  int failures = 0;          ///< queries that threw, returned an error or NaN
  /// Either empty (distance peers, peers whose API gives no direction, runs
  /// that crashed as a whole) or one per pose: the unit normal pointing from B
  /// to A, i.e. translating A by depth * normal separates overlapping shapes.
  /// NaN where the peer failed.
  std::vector<std::array<double, 3>> normals;
};

}  // namespace proxima::bench
