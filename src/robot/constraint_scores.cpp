// SPDX-License-Identifier: BSD-3-Clause
#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

#include <proxima/core/error.hpp>
#include <proxima/robot/constraint_scores.hpp>

namespace proxima::robot {
namespace {

void check_finite(const char* what, double x) {
  if (!std::isfinite(x)) throw Error(std::string(what) + ": " + std::to_string(x) + " is not finite");
}

void check_range(const char* what, double lo, double hi, double gamma) {
  check_finite(what, lo);
  check_finite(what, hi);
  check_finite(what, gamma);
  if (!(lo < hi)) {
    throw Error(std::string(what) + ": the lower bound " + std::to_string(lo) + " must be below the upper bound " +
                std::to_string(hi));
  }
  if (!(gamma > 0.0)) throw Error(std::string(what) + ": exponent " + std::to_string(gamma) + " must be positive");
}

}  // namespace

double joint_limit_score(double theta, double lo, double hi, double gamma) {
  check_range("joint_limit_score", lo, hi, gamma);
  check_finite("joint_limit_score: joint value", theta);
  if (theta <= lo || theta >= hi) return 0.0;
  return std::pow(std::sin(std::numbers::pi * (theta - lo) / (hi - lo)), gamma);
}

double clearance_score(double d, double d_low, double d_high, double gamma, ClearanceRamp ramp) {
  check_range("clearance_score", d_low, d_high, gamma);
  check_finite("clearance_score: distance", d);
  if (d < d_low) return 0.0;
  if (d > d_high) return 1.0;
  const double x = (d - d_low) / (d_high - d_low);
  const double wave = ramp == ClearanceRamp::quarter_wave ? 0.5 * std::numbers::pi * x : std::numbers::pi * x;
  // sin can come out a rounding below 0 at the ends; a score stays in [0, 1].
  return std::pow(std::max(0.0, std::sin(wave)), gamma);
}

double combined_score(std::span<const double> scores) {
  double f = 1.0;
  for (const double s : scores) {
    if (!(s >= 0.0 && s <= 1.0)) throw Error("combined_score: score " + std::to_string(s) + " is outside [0, 1]");
    f *= s;
  }
  return f;
}

}  // namespace proxima::robot
