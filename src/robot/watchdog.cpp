#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
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
  held_.assign(channels_, 1.0);
  last_clearance_.assign(channels_, std::numeric_limits<double>::quiet_NaN());
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
  // alternating between a stop and full speed.
  const bool held = held_[c] < 1.0;
  if (held) {
    const double raised = 2.0 * std::max({held_[c], o.stop_factor, 0.01});
    f = std::min(f, s.approaching || now >= t.slow_distance ? raised : held_[c]);
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

WatchdogState Watchdog::update(const MotionSample& sample) {
  predictor_.add(sample);
  last_time_ = sample.time;
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
    // The next sample is not compared with a clearance from before this one.
    last_clearance_.assign(channels_, std::numeric_limits<double>::quiet_NaN());
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
    for (std::size_t c = 0; c < channels_; ++c) {
      // A stop within the stop band holds. One the prediction called
      // further out holds as a crawl (1 %, or stop_factor): a robot that
      // stopped short of the band may close in to it, at most doubling
      // its speed per sample while it is predicted to approach.
      const bool in_band = now[c] - thresholds_[c].stop_distance <= band_[c];
      held_[c] = js[c].speed_factor == 0.0 && !in_band ? std::max(o.stop_factor, 0.01) : js[c].speed_factor;
      last_clearance_[c] = now[c];
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
