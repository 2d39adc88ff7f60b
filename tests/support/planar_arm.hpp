// SPDX-License-Identifier: BSD-3-Clause
// A test robot with closed-form kinematics: three revolute joints about z
// (links l1, l2, l3 in the xy-plane) and a prismatic joint along z, so the
// tool pose is (x, y, z, θ = q1 + q2 + q3). Ground truth for the motion
// predictor and the watchdog, independent of the library's kinematics.
#pragma once

#include <cmath>
#include <span>
#include <vector>

#include <proxima/core/transform.hpp>

namespace proxima::testing {

struct PlanarArm {
  double l1 = 0.5, l2 = 0.4, l3 = 0.1;

  Transform tool(std::span<const double> q) const {
    const double a1 = q[0], a12 = q[0] + q[1], a123 = q[0] + q[1] + q[2];
    Transform t;
    t.p = Vec3(l1 * std::cos(a1) + l2 * std::cos(a12) + l3 * std::cos(a123),
               l1 * std::sin(a1) + l2 * std::sin(a12) + l3 * std::sin(a123), q[3]);
    t.R = Eigen::AngleAxisd(a123, Vec3::UnitZ()).toRotationMatrix();
    return t;
  }

  /// Joints putting the tool at (x, y, z) with heading θ, elbow up (q2 > 0).
  std::vector<double> inverse(double x, double y, double z, double theta) const {
    const double wx = x - l3 * std::cos(theta), wy = y - l3 * std::sin(theta);
    const double c2 = (wx * wx + wy * wy - l1 * l1 - l2 * l2) / (2.0 * l1 * l2);
    const double q2 = std::acos(c2);
    const double q1 = std::atan2(wy, wx) - std::atan2(l2 * std::sin(q2), l1 + l2 * std::cos(q2));
    return {q1, q2, theta - q1 - q2, z};
  }
};

}  // namespace proxima::testing
