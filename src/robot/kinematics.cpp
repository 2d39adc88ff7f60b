// SPDX-License-Identifier: BSD-3-Clause
#include <proxima/robot/kinematics.hpp>

#include <cmath>

#include <proxima/core/error.hpp>

#include "fk_step.hpp"

namespace proxima::robot {

std::optional<std::string> joint_vector_error(const RobotModel& model, std::span<const double> q) {
  if (q.size() != model.variable_count())
    return "robot '" + model.name() + "': joint vector has " + std::to_string(q.size()) + " values, expected " +
           std::to_string(model.variable_count());
  for (std::size_t i = 0; i < q.size(); ++i)
    if (!std::isfinite(q[i]))
      return "robot '" + model.name() + "': joint vector value " + std::to_string(i) + " (joint '" +
             model.joint(model.variable_joint(i)).name + "') is not finite";
  return std::nullopt;
}

std::vector<double> joint_positions(const RobotModel& model, std::span<const double> q) {
  std::vector<double> pos(model.joints().size(), 0.0);
  for (std::size_t j = 0; j < pos.size(); ++j) {
    const Joint& jt = model.joints()[j];
    if (jt.variable >= 0)
      pos[j] = jt.variable_multiplier * q[static_cast<std::size_t>(jt.variable)] + jt.variable_offset;
  }
  return pos;
}

std::vector<Transform> forward_kinematics(const RobotModel& model, std::span<const double> q, const Transform& base) {
  std::vector<Transform> poses;
  forward_kinematics(model, q, base, poses);
  return poses;
}

void forward_kinematics(const RobotModel& model, std::span<const double> q, const Transform& base,
                        std::vector<Transform>& poses) {
  if (auto err = joint_vector_error(model, q)) throw Error(*err);
  if (!base.is_finite()) throw Error("robot '" + model.name() + "': base pose is not finite");
  poses.resize(model.links().size());
  poses[static_cast<std::size_t>(model.root_link())] = base;
  detail::run_fk_steps<true>(model.fk_steps(), q, 0, poses);
}

namespace detail {

std::vector<FkStep> fk_steps(const RobotModel& model) {
  std::vector<FkStep> steps;
  for (const int j : model.topological_joints()) {
    const Joint& jt = model.joint(j);
    FkStep st;
    st.parent = jt.parent_link;
    st.child = jt.child_link;
    st.variable = jt.variable;
    st.multiplier = jt.variable_multiplier;
    st.offset = jt.variable_offset;
    st.p = jt.origin.p;
    st.fixed = jt.origin.R;
    st.cosine.setZero();
    st.sine.setZero();
    st.slide.setZero();
    switch (jt.type) {
      case JointType::revolute:
      case JointType::continuous: {
        const Vec3& k = jt.axis;  // unit: RobotModel normalises it
        const Vec3 ok = jt.origin.R * k;
        Mat3 cross;
        cross << 0.0, -k.z(), k.y(), k.z(), 0.0, -k.x(), -k.y(), k.x(), 0.0;
        st.revolute = true;
        st.fixed = ok * k.transpose();
        st.cosine = jt.origin.R - st.fixed;
        st.sine = jt.origin.R * cross;
        break;
      }
      case JointType::prismatic: st.slide = jt.origin.R * jt.axis; break;
      case JointType::fixed: break;
    }
    steps.push_back(st);
  }
  return steps;
}

}  // namespace detail

std::vector<LimitViolation> joint_limit_violations(const RobotModel& model, std::span<const double> q, double slack) {
  std::vector<LimitViolation> out;
  const std::vector<double> pos = joint_positions(model, q);
  for (std::size_t j = 0; j < pos.size(); ++j) {
    const Joint& jt = model.joints()[j];
    if (jt.type == JointType::fixed || jt.type == JointType::continuous) continue;
    if (pos[j] < jt.lower - slack || pos[j] > jt.upper + slack)
      out.push_back({static_cast<int>(j), jt.name, pos[j], jt.lower, jt.upper});
  }
  return out;
}

}  // namespace proxima::robot
