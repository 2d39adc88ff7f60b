// SPDX-License-Identifier: BSD-3-Clause
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <optional>
#include <vector>
#include <string>
#include <tuple>

#include <proxima/core/error.hpp>
#include <proxima/robot/constraint_scores.hpp>
#include <proxima/robot/watchdog.hpp>

namespace proxima::robot {
namespace {

void check_option(bool ok, const std::string& what) {
  if (!ok) throw Error("Watchdog: " + what);
}

bool finite_nonneg(double x) { return std::isfinite(x) && x >= 0.0; }

void check_distances(const ChannelThresholds& t, const std::string& whose) {
  check_option(finite_nonneg(t.stop_distance) && finite_nonneg(t.slow_distance) && finite_nonneg(t.warn_distance) &&
                   t.stop_distance < t.slow_distance && t.slow_distance <= t.warn_distance,
               whose + "distances must be finite with 0 ≤ stop_distance < slow_distance ≤ warn_distance (got " +
                   std::to_string(t.stop_distance) + ", " + std::to_string(t.slow_distance) + ", " +
                   std::to_string(t.warn_distance) + ")");
}

// What the ramp and its band need: the default distances, gamma, stop_factor.
void check_ramp(const WatchdogOptions& o) {
  check_distances({o.stop_distance, o.slow_distance, o.warn_distance}, "");
  check_option(std::isfinite(o.gamma) && o.gamma > 0.0, "gamma " + std::to_string(o.gamma) + " must be positive");
  // 0 would leave no band: the ramp only tends to 0, a crawl without end.
  check_option(o.stop_factor > 0.0 && o.stop_factor < 1.0,
               "stop_factor " + std::to_string(o.stop_factor) + " must be in (0, 1)");
}

double band_of(const ChannelThresholds& t, const WatchdogOptions& o) {
  // The inverse of clearance_score's quarter wave at stop_factor.
  const double x = std::asin(std::pow(o.stop_factor, 1.0 / o.gamma)) * 2.0 / std::numbers::pi;
  return x * (t.slow_distance - t.stop_distance);
}

std::string field(const char* name, std::size_t i) {
  return std::string("limits.") + name + "[" + std::to_string(i) + "]";
}

// Each vector empty or one entry per joint variable, each entry in range.
void check_limits(const FeedLimits& l, std::size_t dof) {
  const auto sized = [dof](const std::vector<double>& v, const char* name) {
    check_option(v.empty() || v.size() == dof, std::string("limits.") + name + " has " + std::to_string(v.size()) +
                                                   " entries, the robot " + std::to_string(dof) +
                                                   " joint variables (empty: unchecked)");
  };
  sized(l.lower, "lower");
  sized(l.upper, "upper");
  sized(l.tolerance, "tolerance");
  sized(l.velocity, "velocity");
  check_option(l.lower.empty() == l.upper.empty(), "limits.lower and limits.upper are given together or not at all");
  check_option(l.tolerance.empty() || !l.lower.empty(), "limits.tolerance is given without limits.lower and upper");
  for (std::size_t i = 0; i < l.lower.size(); ++i) {
    // ±inf is an unbounded side (a continuous joint); NaN is no bound at all.
    check_option(!std::isnan(l.lower[i]) && l.lower[i] < std::numeric_limits<double>::infinity(),
                 field("lower", i) + " = " + std::to_string(l.lower[i]) + " must be a number below +inf");
    check_option(!std::isnan(l.upper[i]) && l.upper[i] > -std::numeric_limits<double>::infinity(),
                 field("upper", i) + " = " + std::to_string(l.upper[i]) + " must be a number above -inf");
    check_option(l.lower[i] <= l.upper[i], field("lower", i) + " = " + std::to_string(l.lower[i]) +
                                               " is above " + field("upper", i) + " = " + std::to_string(l.upper[i]));
  }
  for (std::size_t i = 0; i < l.tolerance.size(); ++i)
    check_option(finite_nonneg(l.tolerance[i]),
                 field("tolerance", i) + " = " + std::to_string(l.tolerance[i]) + " must be finite and >= 0");
  for (std::size_t i = 0; i < l.velocity.size(); ++i)
    check_option(l.velocity[i] > 0.0, field("velocity", i) + " = " + std::to_string(l.velocity[i]) +
                                          " must be positive (+inf: unchecked)");
  check_option(std::isfinite(l.speed_tolerance) && l.speed_tolerance >= 1.0,
               "limits.speed_tolerance = " + std::to_string(l.speed_tolerance) + " must be finite and >= 1");
}

// A stop the feed called: nothing measured, the robot held still.
WatchdogState feed_stop(WatchdogReason reason, std::size_t joint, double value, double limit) {
  WatchdogState s;
  s.clearance = s.predicted_clearance = 0.0;  // not measured, as for an invalid clearance
  s.level = WatchdogLevel::stop;
  s.speed_factor = 0.0;
  s.warning = 1.0;
  s.reason = reason;
  s.joint = static_cast<int>(joint);
  s.joint_value = value;
  s.joint_limit = limit;
  return s;
}

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

const char* to_string(WatchdogReason r) {
  switch (r) {
    case WatchdogReason::none: return "none";
    case WatchdogReason::clearance: return "clearance";
    case WatchdogReason::invalid_clearance: return "invalid_clearance";
    case WatchdogReason::joint_limit: return "joint_limit";
    case WatchdogReason::joint_speed: return "joint_speed";
    case WatchdogReason::stale_feed: return "stale_feed";
    case WatchdogReason::deadline: return "deadline";
  }
  return "?";
}

Watchdog::Watchdog(std::size_t dof, ClearanceFn clearance, WatchdogOptions options, PredictorOptions predictor,
                   ToolKinematics kinematics)
    : Watchdog(dof, 1,
               clearance ? ClearancesFn([f = std::move(clearance)](std::span<const double> q,
                                                                   std::span<double> out) { out[0] = f(q); })
                         : ClearancesFn{},
               options, predictor, std::move(kinematics)) {}

Watchdog::Watchdog(std::size_t dof, std::size_t channels, ClearancesFn clearances, WatchdogOptions options,
                   PredictorOptions predictor, ToolKinematics kinematics)
    : channels_(channels),
      clearances_(std::move(clearances)),
      options_(options),
      predictor_(dof, predictor, std::move(kinematics)) {
  const WatchdogOptions& o = options_;
  check_option(static_cast<bool>(clearances_), "no clearance function");
  check_option(channels_ >= 1, "at least one clearance channel is needed");
  check_ramp(o);
  check_option(std::isfinite(o.horizon) && o.horizon > 0.0, "horizon " + std::to_string(o.horizon) + " must be positive");
  check_option(o.path_steps >= 1, "path_steps " + std::to_string(o.path_steps) + " must be ≥ 1");
  check_option(finite_nonneg(o.approach_epsilon), "approach_epsilon must be finite and ≥ 0");
  check_option(finite_nonneg(o.stale_after) && std::isfinite(o.stop_after) && o.stale_after < o.stop_after,
               "feed timeouts must be finite with 0 ≤ stale_after < stop_after (got " + std::to_string(o.stale_after) +
                   ", " + std::to_string(o.stop_after) + ")");
  if (o.channels.empty()) {
    thresholds_.assign(channels_, {o.stop_distance, o.slow_distance, o.warn_distance, false});
  } else {
    check_option(o.channels.size() == channels_, std::to_string(o.channels.size()) + " channel thresholds for " +
                                                     std::to_string(channels_) + " channels");
    for (std::size_t c = 0; c < channels_; ++c) check_distances(o.channels[c], "channel " + std::to_string(c) + ": ");
    thresholds_ = o.channels;
  }
  for (const ChannelThresholds& t : thresholds_) {
    band_.push_back(band_of(t, o));
    unsettled_.push_back(t.rests_close);
  }
  check_limits(o.limits, dof);
  held_.assign(channels_, 1.0);
  last_clearance_.assign(channels_, std::numeric_limits<double>::quiet_NaN());
  steady_ref_.assign(channels_, std::numeric_limits<double>::quiet_NaN());
  steady_since_.assign(channels_, std::numeric_limits<double>::quiet_NaN());
}

double stop_band(const WatchdogOptions& o) {
  check_ramp(o);
  return band_of({o.stop_distance, o.slow_distance, o.warn_distance, false}, o);
}

double stop_band(const ChannelThresholds& t, const WatchdogOptions& o) {
  check_ramp(o);
  check_distances(t, "");
  return band_of(t, o);
}

double Watchdog::ramp(std::size_t c, double clearance) const {
  const ChannelThresholds& t = thresholds_[c];
  if (!(clearance < t.slow_distance)) return 1.0;
  if (clearance <= t.stop_distance) return 0.0;  // also -inf, deep inside
  return clearance_score(clearance, t.stop_distance, t.slow_distance, options_.gamma);
}

// A channel that rests close takes its distances from its first clearance
// (ChannelThresholds::rests_close): one inside contact or beyond
// slow_distance keeps them as given.
void Watchdog::settle(std::size_t c, double first) {
  unsettled_[c] = false;
  ChannelThresholds& t = thresholds_[c];
  if (!(first > 0.0 && first < t.slow_distance)) return;
  t.stop_distance = std::min(t.stop_distance, 0.5 * first);
  t.slow_distance = 0.5 * (first + t.stop_distance);
  t.warn_distance = first;
  band_[c] = band_of(t, options_);
}

double Watchdog::staleness_factor(double age) const {
  if (age <= options_.stale_after) return 1.0;
  if (age >= options_.stop_after) return 0.0;
  return (options_.stop_after - age) / (options_.stop_after - options_.stale_after);
}

// One channel's decision from its present and predicted clearance, the
// slow-down it holds and its clearance at the last sample.
WatchdogState Watchdog::judge(std::size_t c, double now, double predicted, double time_to_stop) const {
  const WatchdogOptions& o = options_;
  const ChannelThresholds& t = thresholds_[c];
  WatchdogState s;
  s.clearance = now;
  s.predicted_clearance = predicted;
  s.time_to_stop_distance = time_to_stop;
  if (now <= t.stop_distance && std::isinf(time_to_stop) && predicted < now) {
    s.time_to_stop_distance = 0.0;  // already there and going deeper
  }
  // Measured since the last sample (false before the first: NaN). A
  // clearance that grew and is not predicted to fall is the robot moving
  // away (or out of an overlap): allowed at full speed, and it ends a
  // slow-down. (A swing past an obstacle can grow the clearance for a
  // while and still be predicted to close in: not receding.)
  const double before = last_clearance_[c];
  const bool fell = before - now > o.approach_epsilon;
  s.approaching = predicted < now - o.approach_epsilon;
  s.receding = now - before > o.approach_epsilon && !s.approaching;
  if (s.receding) return s;
  double f = 1.0;
  if (s.approaching) {
    s.warning = 1.0 - clearance_score(predicted, t.stop_distance, t.warn_distance);
    f = ramp(c, predicted);
    if (predicted < t.warn_distance) s.level = WatchdogLevel::warn;
  }
  // A slow-down in force holds (at most its factor) until the channel moves
  // away or reads beyond slow_distance: a crawl that reads as stationary, or
  // a predicted change below approach_epsilon, must not lift it. A fresh
  // prediction of the approach may raise it (the robot slowed, so the path
  // ahead is shorter), at most doubling it per sample, from 1 % (or
  // stop_factor) after a stop the prediction called. Held or measured
  // closing in, the factor follows the present clearance too.
  // Beyond slow_distance a held factor is raised by doubling each sample
  // whatever the prediction says, never lifted at once: a robot stopped
  // early by a fast predicted approach resumes gradually, instead of
  // alternating between a stop and full speed. So is one whose clearance
  // has not fallen by approach_epsilon for a whole horizon (a wrist rolling
  // beside its hand, a move along a wall): held for ever it would crawl
  // without end; raised, it is still capped by the ramp of its clearance
  // and stopped within the band, and one period of the raised factor that
  // closes in shows as a fall, which holds it again.
  const bool held = held_[c] < 1.0;
  if (held) {
    const bool steady = !s.approaching && last_time_ - steady_since_[c] >= o.horizon;
    const double raised = 2.0 * std::max({held_[c], o.stop_factor, 0.01});
    f = std::min(f, s.approaching || steady || now >= t.slow_distance ? raised : held_[c]);
  }
  if (held || fell || s.approaching) f = std::min(f, ramp(c, now));
  // Within the stop band (or inside it, or below) and not moving away: stop.
  if (f < o.stop_factor || now - t.stop_distance <= band_[c]) f = 0.0;
  s.speed_factor = f;
  if (f < 1.0) {
    s.level = f == 0.0 ? WatchdogLevel::stop : WatchdogLevel::slow;
    const double score = std::isinf(now) ? 1.0 : clearance_score(now, t.stop_distance, t.warn_distance);
    s.warning = f == 0.0 ? 1.0 : std::max(s.warning, 1.0 - score);
  }
  return s;
}

// Position limits first (the sample as it reads), then the speed from the
// sample before it, sane or not: after a spike, the way back reads as too
// fast as well, so a stop holds until two sane samples in a row agree.
std::optional<WatchdogState> Watchdog::feed_fault(const MotionSample& sample) const {
  const FeedLimits& l = options_.limits;
  for (std::size_t i = 0; i < l.lower.size(); ++i) {
    const double tol = l.tolerance.empty() ? 0.0 : l.tolerance[i];
    if (sample.q[i] < l.lower[i] - tol) return feed_stop(WatchdogReason::joint_limit, i, sample.q[i], l.lower[i]);
    if (sample.q[i] > l.upper[i] + tol) return feed_stop(WatchdogReason::joint_limit, i, sample.q[i], l.upper[i]);
  }
  if (last_sample_.q.empty()) return std::nullopt;
  const double dt = sample.time - last_sample_.time;
  for (std::size_t i = 0; i < l.velocity.size(); ++i) {
    const double speed = std::abs(sample.q[i] - last_sample_.q[i]) / dt;
    if (speed > l.speed_tolerance * l.velocity[i])
      return feed_stop(WatchdogReason::joint_speed, i, speed, l.velocity[i]);
  }
  return std::nullopt;
}

WatchdogState Watchdog::update(const MotionSample& sample) {
  // The predictor checks the order against the samples it holds; a sample
  // that broke the limits is not among them, yet comes before this one.
  if (std::isfinite(sample.time) && !last_sample_.q.empty() && !(sample.time > last_sample_.time))
    throw Error("Watchdog: sample time " + std::to_string(sample.time) + " is not after the last one (" +
                std::to_string(last_sample_.time) + ")");
  predictor_.add(sample);  // throws for a bad size, a non-finite value or time
  last_time_ = sample.time;
  if (std::optional<WatchdogState> fault = feed_fault(sample)) {
    // Not the robot as modelled: its clearance means nothing, and a fit
    // through it would predict nonsense. The prediction starts afresh from
    // the next sane sample; the slow-downs in force stay.
    predictor_.clear();
    last_sample_ = sample;
    state_ = *fault;
    return state_;
  }
  last_sample_ = sample;
  const WatchdogOptions& o = options_;
  std::vector<double> now(channels_), predicted, before, at(channels_);
  std::vector<double> time_to_stop(channels_, std::numeric_limits<double>::infinity());
  clearances_(sample.q, now);
  for (std::size_t c = 0; c < channels_; ++c)
    if (unsettled_[c] && std::isfinite(now[c])) settle(c, now[c]);
  predicted = before = now;
  const Prediction p = predictor_.predict();
  bool nan = false;
  for (const double d : now) nan |= std::isnan(d);
  // The automatic mode: a program's path in place of the prediction.
  const PathReport plan = provider_ ? provider_(sample, state_) : PathReport{};
  if (plan.path) nan |= plan.path->failed;
  if (!nan && (plan.path || p.model != MotionModel::stationary)) {
    const auto path = plan.path ? plan.path->points : predictor_.path(p, o.horizon, o.path_steps);
    // A sample that turned back against the predicted motion (a jog
    // reversed: the fit still follows the earlier samples) is judged by its
    // measured change alone, so that backing out reads as moving away. A
    // program's path is not a fit: it is checked whichever way the robot
    // last moved.
    double along = 0.0;
    if (!plan.path)
      for (std::size_t i = 0; i < last_q_.size(); ++i)
        along += (path[0][i] - sample.q[i]) * (sample.q[i] - last_q_[i]);
    const bool reversed = along < 0.0;
    const double dt = o.horizon / o.path_steps;
    for (std::size_t k = 0; k < path.size() && !nan && !reversed; ++k) {
      clearances_(path[k], at);
      for (std::size_t c = 0; c < channels_; ++c) {
        const double d = at[c];
        nan |= std::isnan(d);
        const double stop = thresholds_[c].stop_distance;
        if (d <= stop && before[c] > stop && std::isinf(time_to_stop[c])) {
          // Linear between the path points on either side of the crossing
          // (from the earlier point when it measured nothing: +inf).
          const double frac = std::isinf(before[c]) ? 0.0 : (before[c] - stop) / (before[c] - d);
          time_to_stop[c] = dt * (static_cast<double>(k) + frac);
        }
        predicted[c] = std::min(predicted[c], d);
        before[c] = d;
      }
    }
  }
  if (plan.path && !nan) {
    // The continuous check's crossings: what lies between the path points.
    const PlannedPath& pp = *plan.path;
    for (std::size_t c = 0; c < channels_ && c < pp.crossing.size(); ++c) {
      if (!(pp.crossing[c] < time_to_stop[c])) continue;
      time_to_stop[c] = pp.crossing[c];
      const double at_crossing =
          c < pp.crossing_distance.size() ? pp.crossing_distance[c] : thresholds_[c].stop_distance;
      predicted[c] = std::min(predicted[c], at_crossing);
    }
  }
  WatchdogState s;
  if (nan) {
    // Never NaN out: an unanswerable clearance stops the robot.
    s.status = Status::invalid_input;
    s.clearance = s.predicted_clearance = 0.0;
    s.level = WatchdogLevel::stop;
    s.speed_factor = 0.0;
    s.warning = 1.0;
    s.reason = WatchdogReason::invalid_clearance;
    // The next sample is not compared with a clearance from before this one.
    last_clearance_.assign(channels_, std::numeric_limits<double>::quiet_NaN());
    steady_since_.assign(channels_, std::numeric_limits<double>::quiet_NaN());
  } else {
    // The most severe channel decides (level, then approaching within its
    // warn distance, then the sooner stop, then the smaller predicted
    // clearance: a pair of links far apart that closes in does not speak
    // for a robot backing out of the table); the clearances and times are
    // the smallest over all channels.
    std::vector<WatchdogState> js;
    js.reserve(channels_);
    const auto severity = [&](std::size_t c) {
      const WatchdogState& w = js[c];
      return std::tuple(static_cast<int>(w.level), w.approaching && w.predicted_clearance < thresholds_[c].warn_distance,
                        -w.time_to_stop_distance, -w.predicted_clearance);
    };
    std::size_t decisive = 0;
    for (std::size_t c = 0; c < channels_; ++c) {
      js.push_back(judge(c, now[c], predicted[c], time_to_stop[c]));
      if (severity(c) > severity(decisive)) decisive = c;
    }
    s = js[decisive];
    s.channel = static_cast<int>(decisive);
    for (const WatchdogState& j : js) {
      s.clearance = std::min(s.clearance, j.clearance);
      s.predicted_clearance = std::min(s.predicted_clearance, j.predicted_clearance);
      s.time_to_stop_distance = std::min(s.time_to_stop_distance, j.time_to_stop_distance);
      s.warning = std::max(s.warning, j.warning);
      s.speed_factor = std::min(s.speed_factor, j.speed_factor);
      s.approaching = s.approaching || j.approaching;
    }
    if (s.level != WatchdogLevel::clear) s.reason = WatchdogReason::clearance;
    for (std::size_t c = 0; c < channels_; ++c) {
      // A stop within the stop band holds. One the prediction called
      // further out holds as a crawl (1 %, or stop_factor): a robot that
      // stopped short of the band may close in to it, at most doubling
      // its speed per sample while it is predicted to approach.
      const bool in_band = now[c] - thresholds_[c].stop_distance <= band_[c];
      held_[c] = js[c].speed_factor == 0.0 && !in_band ? std::max(o.stop_factor, 0.01) : js[c].speed_factor;
      last_clearance_[c] = now[c];
      // Steady since: the last time the clearance fell by approach_epsilon
      // below the highest it read after the fall before.
      if (std::isnan(steady_since_[c]) || now[c] < steady_ref_[c] - o.approach_epsilon) {
        steady_ref_[c] = now[c];
        steady_since_[c] = sample.time;
      } else {
        steady_ref_[c] = std::max(steady_ref_[c], now[c]);
      }
    }
  }
  s.model = p.model;
  s.programmed = plan.path.has_value();
  s.deviation = plan.deviation;
  s.program_time = plan.program_time;
  s.off_program = plan.off_program;
  // Off the program: the robot is not doing what it was told.
  if (s.off_program && s.level < WatchdogLevel::warn) s.level = WatchdogLevel::warn;
  state_ = s;
  last_q_ = sample.q;
  return s;
}

WatchdogState Watchdog::tick(double now) const {
  WatchdogState s = state_;
  if (last_sample_.q.empty()) return s;
  if (now < last_time_)
    throw Error("Watchdog: tick time " + std::to_string(now) + " is before the last sample's (" +
                std::to_string(last_time_) + ")");
  const double age = std::isfinite(now) ? now - last_time_ : options_.stop_after;
  if (age > options_.stale_after) {
    s.stale = true;
    const double f = staleness_factor(age);
    if (f < s.speed_factor) {
      s.speed_factor = f;
      s.reason = WatchdogReason::stale_feed;
      s.joint = -1;
      s.joint_value = s.joint_limit = 0.0;
    }
    if (s.speed_factor == 0.0) s.level = WatchdogLevel::stop;
  }
  return s;
}

}  // namespace proxima::robot
