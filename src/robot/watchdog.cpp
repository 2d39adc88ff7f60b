#include <algorithm>
#include <cmath>
#include <string>

#include <proxima/core/error.hpp>
#include <proxima/robot/constraint_scores.hpp>
#include <proxima/robot/watchdog.hpp>

namespace proxima::robot {
namespace {

void check_option(bool ok, const std::string& what) {
  if (!ok) throw Error("Watchdog: " + what);
}

bool finite_nonneg(double x) { return std::isfinite(x) && x >= 0.0; }

}  // namespace

const char* to_string(WatchdogLevel l) {
  switch (l) {
    case WatchdogLevel::clear: return "clear";
    case WatchdogLevel::warn: return "warn";
    case WatchdogLevel::slow: return "slow";
    case WatchdogLevel::stop: return "stop";
  }
  return "?";
}

Watchdog::Watchdog(std::size_t dof, ClearanceFn clearance, WatchdogOptions options, PredictorOptions predictor,
                   ToolKinematics kinematics)
    : clearance_(std::move(clearance)), options_(options), predictor_(dof, predictor, std::move(kinematics)) {
  const WatchdogOptions& o = options_;
  check_option(static_cast<bool>(clearance_), "no clearance function");
  check_option(finite_nonneg(o.stop_distance) && finite_nonneg(o.slow_distance) && finite_nonneg(o.warn_distance) &&
                   o.stop_distance < o.slow_distance && o.slow_distance <= o.warn_distance,
               "distances must be finite with 0 ≤ stop_distance < slow_distance ≤ warn_distance (got " +
                   std::to_string(o.stop_distance) + ", " + std::to_string(o.slow_distance) + ", " +
                   std::to_string(o.warn_distance) + ")");
  check_option(std::isfinite(o.horizon) && o.horizon > 0.0, "horizon " + std::to_string(o.horizon) + " must be positive");
  check_option(o.path_steps >= 1, "path_steps " + std::to_string(o.path_steps) + " must be ≥ 1");
  check_option(finite_nonneg(o.approach_epsilon), "approach_epsilon must be finite and ≥ 0");
  check_option(finite_nonneg(o.stale_after) && std::isfinite(o.stop_after) && o.stale_after < o.stop_after,
               "feed timeouts must be finite with 0 ≤ stale_after < stop_after (got " + std::to_string(o.stale_after) +
                   ", " + std::to_string(o.stop_after) + ")");
  check_option(std::isfinite(o.gamma) && o.gamma > 0.0, "gamma " + std::to_string(o.gamma) + " must be positive");
}

double Watchdog::staleness_factor(double age) const {
  if (age <= options_.stale_after) return 1.0;
  if (age >= options_.stop_after) return 0.0;
  return (options_.stop_after - age) / (options_.stop_after - options_.stale_after);
}

WatchdogState Watchdog::update(const MotionSample& sample) {
  predictor_.add(sample);
  last_time_ = sample.time;
  const WatchdogOptions& o = options_;
  WatchdogState s;
  s.clearance = clearance_(sample.q);
  const Prediction p = predictor_.predict();
  s.model = p.model;
  s.predicted_clearance = s.clearance;
  if (p.model != MotionModel::stationary) {
    const auto path = predictor_.path(p, o.horizon, o.path_steps);
    double before = s.clearance;
    for (std::size_t k = 0; k < path.size(); ++k) {
      const double d = clearance_(path[k]);
      if (std::isnan(d)) {
        s.predicted_clearance = d;
        break;
      }
      if (d <= o.stop_distance && before > o.stop_distance && std::isinf(s.time_to_stop_distance)) {
        // Linear between the path points on either side of the crossing.
        const double dt = o.horizon / o.path_steps;
        const double frac = before == d ? 0.0 : (before - o.stop_distance) / (before - d);
        s.time_to_stop_distance = dt * (static_cast<double>(k) + frac);
      }
      s.predicted_clearance = std::min(s.predicted_clearance, d);
      before = d;
    }
  }
  if (std::isnan(s.clearance) || std::isnan(s.predicted_clearance)) {
    // Never NaN out: an unanswerable clearance stops the robot.
    s.status = Status::invalid_input;
    s.clearance = s.predicted_clearance = 0.0;
    s.level = WatchdogLevel::stop;
    s.speed_factor = 0.0;
    s.warning = 1.0;
    state_ = s;
    return s;
  }
  if (s.clearance <= o.stop_distance && std::isinf(s.time_to_stop_distance) && s.predicted_clearance < s.clearance) {
    s.time_to_stop_distance = 0.0;  // already there and going deeper
  }
  s.approaching = s.predicted_clearance < s.clearance - o.approach_epsilon;
  if (s.approaching) {
    const double d = s.predicted_clearance;
    s.warning = 1.0 - clearance_score(d, o.stop_distance, o.warn_distance);
    if (d <= o.stop_distance) {
      s.level = WatchdogLevel::stop;
      s.speed_factor = 0.0;
    } else if (d < o.slow_distance) {
      s.level = WatchdogLevel::slow;
      s.speed_factor = clearance_score(d, o.stop_distance, o.slow_distance, o.gamma);
    } else if (d < o.warn_distance) {
      s.level = WatchdogLevel::warn;
    }
  }
  if (p.model == MotionModel::stationary && state_.level == WatchdogLevel::stop) {
    s.level = WatchdogLevel::stop;
    s.speed_factor = 0.0;
    s.warning = std::max(s.warning, state_.warning);
  }
  state_ = s;
  return s;
}

WatchdogState Watchdog::tick(double now) const {
  WatchdogState s = state_;
  if (predictor_.size() == 0) return s;
  const double age = std::isfinite(now) ? now - last_time_ : options_.stop_after;
  if (age > options_.stale_after) {
    s.stale = true;
    s.speed_factor = std::min(s.speed_factor, staleness_factor(age));
    if (s.speed_factor == 0.0) s.level = WatchdogLevel::stop;
  }
  return s;
}

}  // namespace proxima::robot
