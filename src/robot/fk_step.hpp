// SPDX-License-Identifier: BSD-3-Clause
// One joint as forward kinematics evaluates it. A revolute joint's origin
// rotation times its motion, O·Rot(k, θ), is by Rodrigues' formula
// O k kᵀ + cos θ (O − O k kᵀ) + sin θ O [k]×: three matrices fixed per
// joint, so a link costs one sincos and one 3×3 product instead of building
// Rot(k, θ) and multiplying twice.
#pragma once

#include <cmath>
#include <cstdint>
#include <span>
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

/// Runs the steps of `steps` (topological order) whose bit is set in `mask`
/// (bit k: step k; steps from the 64th on always run), or all of them for
/// kAll, each child's pose from its parent's in `poses` (sized, the root's
/// set). forward_kinematics and SceneChecker::state_of both run this code:
/// the same IEEE operations in the same order (no FMA on the baseline
/// x86-64 target, no reassociation without -ffast-math), so a link's pose
/// is bit for bit the same whichever computed it, as long as the mask holds
/// every step on the link's chain from the root.
template <bool kAll>
void run_fk_steps(const std::vector<FkStep>& steps, std::span<const double> q, std::uint64_t mask,
                  std::vector<Transform>& poses) {
  Transform* pose = poses.data();
  const FkStep* const end = steps.data() + steps.size();
  std::size_t k = 0;
  for (const FkStep* step = steps.data(); step != end; ++step, ++k) {
    if (!kAll && k < 64 && !(mask >> k & 1u)) continue;
    const FkStep& st = *step;
    const Transform& parent = pose[st.parent];
    Transform& child = pose[st.child];
    const double v = st.variable >= 0 ? st.multiplier * q[static_cast<std::size_t>(st.variable)] + st.offset : 0.0;
    if (st.revolute) {
      const Mat3 local = st.fixed + std::cos(v) * st.cosine + std::sin(v) * st.sine;
      child.R.noalias() = parent.R * local;
    } else {
      child.R.noalias() = parent.R * st.fixed;
    }
    child.p.noalias() = parent.R * (st.p + v * st.slide);
    child.p += parent.p;
  }
}

}  // namespace proxima::robot::detail
