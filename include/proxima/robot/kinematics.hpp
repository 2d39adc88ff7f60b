// SPDX-License-Identifier: BSD-3-Clause
// Forward kinematics: the world pose of every link for a joint vector.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include <proxima/robot/robot_model.hpp>

namespace proxima::robot {

/// Why a joint vector cannot be used with `model` (wrong length, a NaN or
/// infinite entry, naming the joint), or nullopt when it can. Values outside
/// the joint limits are accepted: see joint_limit_violations.
std::optional<std::string> joint_vector_error(const RobotModel& model, std::span<const double> q);

/// World pose of every link (indexed like model.links()) for joint vector
/// `q` (model.variable_names() order), the root link placed at `base`.
/// Throws proxima::Error with joint_vector_error's message for a bad `q` or
/// a non-finite base.
std::vector<Transform> forward_kinematics(const RobotModel& model, std::span<const double> q,
                                          const Transform& base = Transform::identity());
/// As above, into `poses` (resized to model.links().size(); no allocation
/// once it has that capacity): for a loop over many joint vectors.
void forward_kinematics(const RobotModel& model, std::span<const double> q, const Transform& base,
                        std::vector<Transform>& poses);

/// The position of every joint (indexed like model.joints(); 0 for fixed
/// joints), mimic joints included. `q` must be valid.
std::vector<double> joint_positions(const RobotModel& model, std::span<const double> q);

struct LimitViolation {
  int joint = -1;      ///< index into model.joints() (mimic joints included)
  std::string name;
  double value = 0.0;  ///< the joint's position
  double lower = 0.0, upper = 0.0;
};

/// Every joint whose position lies outside [lower − slack, upper + slack]
/// (mimic joints are checked against their own limits). `q` must be valid.
std::vector<LimitViolation> joint_limit_violations(const RobotModel& model, std::span<const double> q,
                                                   double slack = 0.0);

}  // namespace proxima::robot
