#include <cmath>
#include <limits>
#include <numbers>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <proxima/core/error.hpp>
#include <proxima/robot/constraint_scores.hpp>

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

std::string score_error(auto&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(ConstraintScores, BadInputIsNamed) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_NE(score_error([] { joint_limit_score(0.0, 1.0, 1.0); }).find("lower bound"), std::string::npos);
  EXPECT_NE(score_error([] { joint_limit_score(0.0, -1.0, 1.0, 0.0); }).find("exponent"), std::string::npos);
  EXPECT_NE(score_error([&] { joint_limit_score(nan, -1.0, 1.0); }).find("joint value"), std::string::npos);
  EXPECT_NE(score_error([&] { clearance_score(nan, 0.0, 1.0); }).find("distance"), std::string::npos);
  EXPECT_NE(score_error([] { clearance_score(0.5, 0.2, 0.1); }).find("clearance_score"), std::string::npos);
  const std::vector<double> bad{0.5, 1.5};
  EXPECT_NE(score_error([&] { combined_score(bad); }).find("outside [0, 1]"), std::string::npos);
  const std::vector<double> bad_nan{nan};
  EXPECT_NE(score_error([&] { combined_score(bad_nan); }).find("outside [0, 1]"), std::string::npos);
}

}  // namespace
}  // namespace proxima::robot
