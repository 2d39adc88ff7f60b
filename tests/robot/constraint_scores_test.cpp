// SPDX-License-Identifier: BSD-3-Clause
#include <cmath>
#include <limits>
#include <numbers>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <proxima/core/error.hpp>
#include <proxima/robot/constraint_scores.hpp>

#include "robot_test_support.hpp"

namespace proxima::robot {
namespace {

constexpr double kHalfTurn = std::numbers::pi;

TEST(ConstraintScores, JointLimitScoreIsThePapersSineWave) {
  // Eq. 4 by hand: mid-range 1, quarter-range sin(π/4)^γ, 0 at and beyond the limits.
  EXPECT_DOUBLE_EQ(joint_limit_score(0.0, -2.0, 2.0), 1.0);
  EXPECT_NEAR(joint_limit_score(-1.0, -2.0, 2.0, 2.0), 0.5, 1e-15);
  EXPECT_NEAR(joint_limit_score(1.0, -2.0, 2.0, 1.0), std::sqrt(0.5), 1e-15);
  EXPECT_EQ(joint_limit_score(-2.0, -2.0, 2.0), 0.0);
  EXPECT_EQ(joint_limit_score(2.5, -2.0, 2.0), 0.0);
  EXPECT_EQ(joint_limit_score(-7.0, -2.0, 2.0), 0.0);
}

TEST(ConstraintScores, ClearanceScoreRamps) {
  // Quarter wave: monotone, 0 at d_low, sin(π/4) half-way, 1 at d_high.
  EXPECT_EQ(clearance_score(0.01, 0.02, 0.05), 0.0);
  EXPECT_NEAR(clearance_score(0.02, 0.02, 0.05), 0.0, 1e-15);
  EXPECT_NEAR(clearance_score(0.035, 0.02, 0.05), std::sin(kHalfTurn / 4), 1e-12);
  EXPECT_NEAR(clearance_score(0.05, 0.02, 0.05), 1.0, 1e-15);
  EXPECT_EQ(clearance_score(0.2, 0.02, 0.05), 1.0);
  double before = -1.0;
  for (int k = 0; k <= 100; ++k) {
    const double f = clearance_score(0.02 + 0.0003 * k, 0.02, 0.05, 3.0);
    EXPECT_GE(f, before) << k;
    EXPECT_GE(f, 0.0);
    EXPECT_LE(f, 1.0);
    before = f;
  }
  // The formula as printed peaks half-way and is 0 again at d_high.
  EXPECT_NEAR(clearance_score(0.035, 0.02, 0.05, 1.0, ClearanceRamp::paper_half_wave), 1.0, 1e-12);
  EXPECT_NEAR(clearance_score(0.05, 0.02, 0.05, 1.0, ClearanceRamp::paper_half_wave), 0.0, 1e-12);
}

TEST(ConstraintScores, CombinedIsTheProduct) {
  const std::vector<double> s{0.5, 0.8, 1.0};
  EXPECT_DOUBLE_EQ(combined_score(s), 0.4);
  EXPECT_EQ(combined_score({}), 1.0);
  const std::vector<double> with_zero{0.9, 0.0};
  EXPECT_EQ(combined_score(with_zero), 0.0);
}

TEST(ConstraintScores, BadInputIsNamed) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  robot_test::expect_error([] { joint_limit_score(0.0, 1.0, 1.0); }, {"lower bound"});
  robot_test::expect_error([] { joint_limit_score(0.0, -1.0, 1.0, 0.0); }, {"exponent"});
  robot_test::expect_error([&] { joint_limit_score(nan, -1.0, 1.0); }, {"joint value"});
  robot_test::expect_error([&] { clearance_score(nan, 0.0, 1.0); }, {"distance"});
  robot_test::expect_error([] { clearance_score(0.5, 0.2, 0.1); }, {"clearance_score"});
  const std::vector<double> bad{0.5, 1.5};
  robot_test::expect_error([&] { combined_score(bad); }, {"outside [0, 1]"});
  const std::vector<double> bad_nan{nan};
  robot_test::expect_error([&] { combined_score(bad_nan); }, {"outside [0, 1]"});
}

}  // namespace
}  // namespace proxima::robot
