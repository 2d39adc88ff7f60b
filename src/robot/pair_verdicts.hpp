// SPDX-License-Identifier: BSD-3-Clause
// What the sphere prefilter knows of the pairs the tolerance query checks,
// for one joint vector: each pair is proven apart (farther than the
// tolerance), proven within it (inner balls overlap), or left open to the
// narrow phase. The prefilter lists the pairs not proven apart in the
// exact query's order (self pairs, then each link's objects in index
// order), ending at the first pair proven within (so that pair, when there
// is one, is the last); SceneChecker::tolerance_known walks that list, so a
// row's answer is the exact query's, field for field.
#pragma once

#include <cstdint>
#include <span>
#include <limits>
#include <vector>

#include <proxima/robot/sphere_prefilter.hpp>

namespace proxima::robot::detail {

enum class Verdict : std::uint8_t { open = 1, within = 2 };

/// A pair not proven apart: self pair `first` (an index into
/// SceneChecker::self_pairs), or link `first` against object `second`.
struct KnownPair {
  std::uint32_t first = 0, second = 0;
  bool self = false;
  Verdict verdict = Verdict::open;
};

using PairVerdicts = std::span<const KnownPair>;

}  // namespace proxima::robot::detail

namespace proxima::robot {

/// Scratch of one thread: a lane group's link poses and sphere centres
/// (rows of kPrefilterLanes floats, relative to the batch's origin), and
/// each lane's pairs not proven apart.
struct SpherePrefilter::Scratch {
  std::vector<float> rot, pos;       // per link: 9 and 3 rows of lanes
  std::vector<float> centers;        // per sphere: 3 rows of lanes
  std::vector<float> inner_centers;  // per inner sphere: 3 rows of lanes
  std::vector<float> bound_centers;  // per link: 3 rows of lanes
  std::vector<unsigned char> placed;  // per link: its centres are computed (1: spheres, 2: inner balls)
  std::vector<unsigned char> pair_apart;  // per self pair: the lanes its link balls prove apart
  std::vector<double> q;              // per variable: a row of lanes
  /// Each self pair's sphere pairs' squared reaches (outer, then inner
  /// balls; Data::reach_begin, inner_reach_begin) for the tolerance
  /// `reach_tolerance` (NaN: none yet), made by the first lane group of
  /// another tolerance.
  std::vector<float> reach2, inner_reach2;
  double reach_tolerance = std::numeric_limits<double>::quiet_NaN();
  std::vector<detail::KnownPair> known[kPrefilterLanes];
  /// Per lane: its kinematics put every link origin within the working
  /// range (a lane out of it lists every pair open).
  bool in_range[kPrefilterLanes] = {};
};

}  // namespace proxima::robot
