// SPDX-License-Identifier: BSD-3-Clause
// One joint as forward kinematics evaluates it. A revolute joint's origin
// rotation times its motion, O·Rot(k, θ), is by Rodrigues' formula
// O k kᵀ + cos θ (O − O k kᵀ) + sin θ O [k]×: three matrices fixed per
// joint, so a link costs one sincos and one 3×3 product instead of building
// Rot(k, θ) and multiplying twice.
#pragma once

#include <vector>

#include <proxima/robot/robot_model.hpp>

namespace proxima::robot::detail {

struct FkStep {
  int parent = -1, child = -1;
  int variable = -1;  ///< −1: the joint does not move
  bool revolute = false;
  double multiplier = 1.0, offset = 0.0;
  Mat3 fixed;         ///< revolute: O k kᵀ; otherwise O
  Mat3 cosine;        ///< revolute: O − O k kᵀ
  Mat3 sine;          ///< revolute: O [k]×
  Vec3 p;             ///< the origin's translation
  Vec3 slide;         ///< prismatic: O k; otherwise 0
};

/// The model's joints in topological order (RobotModel builds this once).
std::vector<FkStep> fk_steps(const RobotModel& model);

}  // namespace proxima::robot::detail
