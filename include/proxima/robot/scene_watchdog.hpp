// SPDX-License-Identifier: BSD-3-Clause
// The watchdog on a real robot cell: its clearance function from the scene
// checker (the robot against its surroundings and itself) and its tool
// kinematics from the robot model.
#pragma once

#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <proxima/robot/program_follower.hpp>
#include <proxima/robot/scene_checker.hpp>
#include <proxima/robot/watchdog.hpp>

namespace proxima::robot {

struct SceneClearanceOptions {
  bool self = true;         ///< include link–link distances (allowed pairs excluded)
  bool environment = true;  ///< include link–object distances
  Transform base = Transform::identity();  ///< the robot's root link in the world
  /// scene_clearances: a pair of links farther apart than this reads a lower
  /// bound on its distance (≥ exact_within) instead of the distance, which
  /// spares the narrow phase for pairs far beyond any threshold; set it to
  /// the largest warn distance of the self pairs (+inf: always exact).
  double exact_within = std::numeric_limits<double>::infinity();
};

/// The smallest (signed) distance of the robot at q: min of its self
/// distance and its distance to `env`, +inf when there is no pair to measure. NaN when the
/// checker cannot answer (a bad joint vector, a narrow-phase status other
/// than ok): the watchdog stops on it. `checker` is held by reference and
/// must outlive the function; the objects of `env` are copied (cheaply).
ClearanceFn scene_clearance(const SceneChecker& checker, const Environment& env,
                            const SceneClearanceOptions& options = {});

/// The same distances as channels for Watchdog's multi-channel
/// constructor, so that each is watched for approach on its own: each pair
/// of the robot's own links that the checker checks (when options.self,
/// named "link_a/link_b" in SceneChecker::self_pairs() order), then the
/// robot against each object of `env` in order (when options.environment),
/// except that objects sharing a
/// group (EnvironmentObject::group: a point cloud's cubes) are one channel,
/// the distance to the nearest of them, placed where the group's first
/// object is. The distances are signed: where the checker reads 0 (touching
/// or overlapping), a channel reads minus the deepest penetration of its
/// convex pairs (signed_distance; a mesh kept as triangles has no inside
/// and reads 0), so that pushing deeper reads as approaching and moving
/// out as moving away. NaN in every channel when the checker cannot answer, in one
/// when its objects cannot be checked (a touch link the robot does not
/// have). `checker` is held by reference; the objects are copied (cheaply:
/// shapes and BVHs share their data) and prepared once (PreparedEnvironment).
/// Throws proxima::Error naming an object whose pose is not usable, or a
/// name two channels would share (an object's and a group's, or "self").
struct SceneClearances {
  std::size_t channels = 0;
  /// Per channel: "link_a/link_b", the object's name, or the group's.
  std::vector<std::string> names;
  /// Per channel: a pair of the robot's own links (else an object or group).
  std::vector<bool> self_pair;
  ClearancesFn fn;
  /// Per object of `env` (in order): its channel (when options.environment).
  std::vector<std::size_t> object_channel;
};
SceneClearances scene_clearances(const SceneChecker& checker, const Environment& env,
                                 const SceneClearanceOptions& options = {});

/// Distances for some channels, by name; an unset field keeps the default.
struct ThresholdsFor {
  /// An object's or a group's name, "link_a/link_b" for one pair of the
  /// robot's links (either order), or "self" for every pair of them.
  std::string name;
  std::optional<double> stop_distance, slow_distance, warn_distance;
};

/// Each channel's distances (WatchdogOptions::channels) by the rule of
/// paper §IV as this library applies it: a channel named in `given` takes
/// the fields given there (a pair's own entry before "self"), the others
/// `defaults`' distances; a pair of the robot's own links that is given no
/// distance rests close (ChannelThresholds::rests_close: a wrist 22 mm from
/// its hand by design slows only once it closes in further than it
/// started). Throws proxima::Error naming an entry whose name is no
/// channel's (or given twice), or a channel whose distances end up out of
/// order.
std::vector<ChannelThresholds> scene_thresholds(const SceneClearances& channels, const WatchdogOptions& defaults,
                                                const std::vector<ThresholdsFor>& given = {});

/// The largest warn distance a pair of links can be given by `defaults`
/// and `given`: SceneClearanceOptions::exact_within for them.
double largest_warn_distance(const WatchdogOptions& defaults, const std::vector<ThresholdsFor>& given);

/// The channels of a cell as `proxima watch` watches them: scene_clearances
/// (`clearance_options`, exact within the largest warn distance) with
/// `options.channels` set by scene_thresholds from `given`. Throws as those.
SceneClearances watched_channels(const SceneChecker& checker, const Environment& env, WatchdogOptions& options,
                                 const std::vector<ThresholdsFor>& given = {},
                                 SceneClearanceOptions clearance_options = {});

/// How far a joint sample may read beyond the URDF's limits (feed_limits).
struct FeedLimitOptions {
  double angle_tolerance = 0.02;    ///< rad beyond a revolute joint's position limit
  double length_tolerance = 0.002;  ///< m beyond a prismatic joint's
  double speed_tolerance = 1.5;     ///< multiple of a velocity limit a move may imply (≥ 1)
};

/// The watchdog's feed limits (WatchdogOptions::limits) from the robot:
/// per joint variable, in joint-vector order, its joint's position limits
/// (±infinity for a continuous joint) with the tolerance of its kind, and
/// its velocity limit (+infinity, unchecked, where the URDF gives none). A
/// mimic joint follows its variable and is not checked on its own. Throws
/// proxima::Error naming a tolerance that is negative or not finite, or a
/// speed tolerance below 1.
FeedLimits feed_limits(const RobotModel& model, const FeedLimitOptions& options = {});

/// The continuous check of a joint-space segment for the automatic mode
/// (program_follower.hpp): SceneChecker::check_motion against the objects
/// of `env`, the crossing reported in the channel of `channels` (made by
/// scene_clearances with the same env and options) that the object found
/// belongs to. The robot's own pairs are left to the path points: a pair
/// of links resting within the clearance by design would end the check at
/// its start. A check that ran out of
/// iterations reports the proven-clear fraction as the crossing (the safe
/// answer). `checker` is held by reference; `env` is prepared once.
SegmentCheckFn scene_segment_check(const SceneChecker& checker, const Environment& env, const SceneClearances& channels,
                                   const SceneClearanceOptions& options = {});

/// The world pose of link `link` (the tool, for the Cartesian motion model).
/// Throws proxima::Error naming a link the model does not have. `model` is
/// held by reference.
ToolKinematics link_kinematics(const RobotModel& model, std::string_view link,
                               const Transform& base = Transform::identity());

}  // namespace proxima::robot
