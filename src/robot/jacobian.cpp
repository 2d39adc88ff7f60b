// SPDX-License-Identifier: BSD-3-Clause
// Point Jacobians from the link poses (see jacobian.hpp).
#include <proxima/robot/jacobian.hpp>

#include <string>

#include <proxima/core/error.hpp>

namespace proxima::robot {

void point_jacobian(const RobotModel& model, std::span<const Transform> poses, int link, const Vec3& point,
                    PointJacobian& J) {
  point_jacobian(model, poses, link, point, BaseKind::fixed, J);
}

void point_jacobian(const RobotModel& model, std::span<const Transform> poses, int link, const Vec3& point,
                    BaseKind kind, PointJacobian& J) {
  if (link < 0 || static_cast<std::size_t>(link) >= model.links().size())
    throw Error("robot '" + model.name() + "': point_jacobian: no link " + std::to_string(link));
  if (poses.size() != model.links().size())
    throw Error("robot '" + model.name() + "': point_jacobian: " + std::to_string(poses.size()) +
                " link poses, expected " + std::to_string(model.links().size()));
  const Eigen::Index off = kind == BaseKind::floating ? 6 : 0;
  J.setZero(6, off + static_cast<Eigen::Index>(model.variable_count()));
  if (off > 0) {
    // Every link rides on the root: a rigid motion of the root frame.
    const Transform& root = poses[static_cast<std::size_t>(model.root_link())];
    for (int k = 0; k < 3; ++k) {
      const Vec3 a = root.R.col(k);
      J.block<3, 1>(0, k) = a;
      J.block<3, 1>(0, 3 + k) = a.cross(point - root.p);
      J.block<3, 1>(3, 3 + k) = a;
    }
  }
  // Walk up the tree. The child frame of a joint is its origin frame moved
  // along or about the axis, so the axis has the same world direction in
  // both, R_child · axis, and the child frame's origin lies on a revolute
  // joint's axis.
  for (int l = link; model.link(l).parent_joint >= 0;) {
    const Joint& j = model.joint(model.link(l).parent_joint);
    l = j.parent_link;
    if (j.variable < 0 || j.type == JointType::fixed) continue;
    const Transform& child = poses[static_cast<std::size_t>(j.child_link)];
    const Vec3 a = child.R * j.axis;
    const double k = j.variable_multiplier;
    auto col = J.col(off + j.variable);
    if (j.type == JointType::prismatic) {
      col.head<3>() += k * a;
    } else {
      col.head<3>() += k * a.cross(point - child.p);
      col.tail<3>() += k * a;
    }
  }
}

}  // namespace proxima::robot
