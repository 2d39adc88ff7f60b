// SPDX-License-Identifier: BSD-3-Clause
// A scene's "robots" (docs/scene-format.md): a URDF robot with its base
// pose, initial state, PD gains and a scripted target trajectory, stepped
// with the scene's bodies by robot::RobotWorld.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <Eigen/Core>
#include <nlohmann/json.hpp>

#include <proxima/robot/link_geometry.hpp>
#include <proxima/robot/robot_world.hpp>

namespace proxima::apps {

/// The ranges a scene's robot entry accepts, and proxima.RobotWorld's
/// arguments too (src/python/robot_world.cpp): joint rates and a floating
/// base's twist (rad/s, m/s) within ±kMaxRobotRate, gains (kp N m/rad, kd
/// N m s/rad) in [0, kMaxRobotGain], torques within ±kMaxRobotTorque (N m or
/// N); joint positions within ±kMaxLength.
inline constexpr double kMaxRobotRate = 1e6;
inline constexpr double kMaxRobotGain = 1e12;
inline constexpr double kMaxRobotTorque = 1e12;

/// One key of a target trajectory: joint positions at time t (s).
struct RobotTargetKey {
  double t = 0.0;
  Eigen::VectorXd q;
};

struct SceneRobot {
  std::shared_ptr<const robot::RobotGeometry> geometry;
  Transform base;  ///< the fixed base's pose, or where a floating base starts
  robot::BaseKind kind = robot::BaseKind::fixed;  ///< "floating_base": true
  robot::ArticulatedState initial;  ///< qd: a floating base's twist first
  Eigen::VectorXd kp, kd;    ///< empty: no PD control
  Eigen::VectorXd torque;    ///< feed-forward, zeros unless given
  std::vector<RobotTargetKey> targets;  ///< times strictly increasing; empty without PD
  /// "self_collision": the pairs a joint's two links (and an SRDF's disabled
  /// pairs) aside touch each other; empty: links pass through each other.
  std::optional<robot::AllowedCollisionMatrix> self_collision;
  /// "friction": per link (and body, −1 for all), RobotWorld::set_link_friction.
  struct LinkFriction {
    int link = 0, body = -1;
    double mu = 0.0;
  };
  std::vector<LinkFriction> friction;

  /// The PD target at time t: positions piecewise linear through the keys
  /// and the segment's slope as the velocity target; before the first key
  /// and after the last the key's positions with velocity 0.
  void target_at(double t, Eigen::VectorXd& q, Eigen::VectorXd& qd) const;
  /// The robot among `world`'s bodies, its torque and (at time 0) targets set.
  robot::RobotWorld make_world(sim::World world) const;
  /// Sets the PD targets of time rw.time() (no-op without PD). It runs
  /// every step, so it allocates nothing after its first call: the targets
  /// are made in drive_q and drive_qd.
  void drive(robot::RobotWorld& rw) const;

  /// drive()'s scratch, sized by its first call. Mutable because drive()
  /// is const: one SceneRobot drives one RobotWorld at a time, not two
  /// threads at once (the RobotWorld it steps is not shared either).
  mutable Eigen::VectorXd drive_q, drive_qd;
};

/// The scene's "robots" array (at most one: RobotWorld holds one robot),
/// among `world`'s bodies (a "friction" entry names them). A relative
/// "urdf" path is resolved against `base_dir`. Throws proxima::Error naming
/// the field: unknown keys, a URDF that does not read, joint vectors of the
/// wrong length or not finite, gains < 0, PD gains without targets or
/// targets without gains, target times not strictly increasing, a
/// "self_collision" that is not true, false or an SRDF path that reads, a
/// "friction" entry naming no link or body, or a coefficient out of range.
std::vector<SceneRobot> robots_from_json(const nlohmann::json& j, const std::string& field,
                                         const std::string& base_dir, const sim::World& world);

}  // namespace proxima::apps
