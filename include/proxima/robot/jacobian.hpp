// SPDX-License-Identifier: BSD-3-Clause
// The world-frame Jacobian of a point fixed on a link over the joint
// variables: the velocity of the point and the angular velocity of the link
// are J q̇ (linear rows 0–2, angular rows 3–5). A contact row of the robot is
// a direction times the linear rows (robot_world.hpp).
#pragma once

#include <span>

#include <Eigen/Core>

#include <proxima/robot/base_kind.hpp>
#include <proxima/robot/robot_model.hpp>

namespace proxima::robot {

/// 6 × dof: linear rows first, then angular.
using PointJacobian = Eigen::Matrix<double, 6, Eigen::Dynamic>;

/// The Jacobian of the point `point` (world frame) moving with link `link`,
/// at the link poses `poses` that forward_kinematics gave for the same q
/// (indexed like model.links()). Column i is the motion per unit rate of
/// variable i: each joint on the path from the link to the root adds, with
/// world axis a and multiplier k (a mimic joint adds to its target's column,
/// as Dynamics folds it),
///   revolute / continuous: k (a × (point − o), a), o the joint's origin;
///   prismatic:             k (a, 0).
/// `J` is resized to 6 × dof (no allocation once it has that size). Throws
/// proxima::Error for a link index out of range or a pose list of the wrong
/// length.
void point_jacobian(const RobotModel& model, std::span<const Transform> poses, int link, const Vec3& point,
                    PointJacobian& J);

/// The same over a robot's generalized velocities (dynamics.hpp): for
/// BaseKind::floating, 6 + dof columns, the base's first. With (R, o) the
/// root link's pose (poses[model.root_link()]) and e_k the unit axes, the
/// base's v_k column is (R e_k, 0) and its ω_k column (R e_k × (point − o),
/// R e_k): v and ω are in the root link's frame. BaseKind::fixed is the
/// overload above.
void point_jacobian(const RobotModel& model, std::span<const Transform> poses, int link, const Vec3& point,
                    BaseKind kind, PointJacobian& J);

}  // namespace proxima::robot
