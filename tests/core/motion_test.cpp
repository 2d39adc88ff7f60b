// SPDX-License-Identifier: BSD-3-Clause
#include <gtest/gtest.h>

#include <cmath>

#include <proxima/core/motion.hpp>

namespace proxima {
namespace {

TEST(RigidMotion, EndsAtBothPosesAndTurnsAtConstantSpeed) {
  const Transform from = Transform::from_quaternion(0.3, -0.5, 0.2, 0.7, Vec3(1, 2, 3));
  const Vec3 axis = Vec3(1, -2, 0.5).normalized();
  const double angle = 2.5;
  const Transform to{Mat3(Eigen::AngleAxisd(angle, axis) * from.R), Vec3(-1, 0, 4)};
  const RigidMotion m = RigidMotion::between(from, to);
  EXPECT_TRUE(m.rotates());
  EXPECT_LT((m.angular_velocity - angle * axis).norm(), 1e-12);
  EXPECT_LT((m.velocity - Vec3(-2, -2, 1)).norm(), 1e-15);
  EXPECT_LT((m.at(0).R - from.R).norm(), 1e-15);
  EXPECT_LT((m.at(1).R - to.R).norm(), 1e-12);
  EXPECT_LT((m.at(1).p - to.p).norm(), 1e-15);
  const Transform half = m.at(0.5);
  EXPECT_LT((half.R - Mat3(Eigen::AngleAxisd(0.5 * angle, axis) * from.R)).norm(), 1e-12);
  EXPECT_LT((half.p - Vec3(0, 1, 3.5)).norm(), 1e-15);
}

TEST(RigidMotion, TurnsTheShorterWay) {
  const Transform from = Transform::identity();
  const Transform to = Transform::from_axis_angle(Vec3::UnitZ(), 1.5 * M_PI);  // = −π/2 about z
  const RigidMotion m = RigidMotion::between(from, to);
  EXPECT_LT((m.angular_velocity - Vec3(0, 0, -0.5 * M_PI)).norm(), 1e-12);
  EXPECT_LT((m.at(1).R - to.R).norm(), 1e-12);
}

TEST(RigidMotion, StandingStillHasNoVelocity) {
  const Transform x = Transform::from_quaternion(0.1, 0.2, 0.3, 0.4, Vec3(5, 6, 7));
  const RigidMotion m = RigidMotion::between(x, x);
  EXPECT_FALSE(m.rotates());
  EXPECT_EQ(m.velocity, Vec3::Zero());
  EXPECT_LT((m.at(0.7).R - x.R).norm(), 1e-15);
}

}  // namespace
}  // namespace proxima
