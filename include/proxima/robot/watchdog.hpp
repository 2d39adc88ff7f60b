// Predictive collision watchdog (Dumitrache et al., "Collision and proximity
// avoidance for robust behaviour of real-time robot applications", §III):
// from the joint feed it predicts the motion (motion_predictor.hpp), checks
// the clearance along the predicted path, and answers in stages: warn, slow
// the speed factor down, stop. It warns only while approaching, never while
// the robot moves away, and lowers the speed factor to a stop when the feed
// goes stale.
#pragma once

#include <functional>
#include <limits>
#include <span>

#include <proxima/core/error.hpp>
#include <proxima/robot/motion_predictor.hpp>

namespace proxima::robot {

/// The clearance of a configuration in metres: the smallest distance
/// between the robot and its surroundings (and between its own links),
/// ≤ 0 when something touches. The watchdog calls it once per path point.
using ClearanceFn = std::function<double(std::span<const double> q)>;

/// Several clearances of one configuration, one per channel (the robot
/// against itself, against each object), written to `out` (one value per
/// channel). Each channel is watched for approach on its own, so that a
/// pair resting close together (a hand beside its own wrist, 2 cm apart)
/// cannot hide another pair closing in.
using ClearancesFn = std::function<void(std::span<const double> q, std::span<double> out)>;

struct WatchdogOptions {
  double stop_distance = 0.01;  ///< stop before the predicted clearance falls to this (m)
  double slow_distance = 0.10;  ///< below it, while approaching, the speed factor ramps down (m)
  double warn_distance = 0.20;  ///< below it, while approaching, warn (m)
  double horizon = 0.5;         ///< seconds of predicted motion checked
  int path_steps = 10;          ///< clearance checks along the horizon
  /// Approaching: the predicted clearance falls below the present one by
  /// more than this (m), so sensor noise does not raise warnings.
  double approach_epsilon = 1e-4;
  /// Feed timeouts (s, after the last sample): beyond stale_after the speed
  /// factor falls linearly, reaching 0 at stop_after (the paper polled the
  /// controller every 32 ms).
  double stale_after = 0.1;
  double stop_after = 0.3;
  double gamma = 1.0;  ///< exponent of the slow-down ramp (clearance_score's)
};

enum class WatchdogLevel { clear, warn, slow, stop };
const char* to_string(WatchdogLevel l);

struct WatchdogState {
  Status status = Status::ok;  ///< invalid_input when the clearance came back NaN
  WatchdogLevel level = WatchdogLevel::clear;
  /// The factor to apply to the robot's speed, in [0, 1].
  double speed_factor = 1.0;
  /// Warning intensity in [0, 1] (a beeper's loudness): 0 unless approaching.
  double warning = 0.0;
  double clearance = std::numeric_limits<double>::infinity();            ///< at the last sample
  double predicted_clearance = std::numeric_limits<double>::infinity();  ///< smallest along the path
  /// Seconds until the predicted clearance first reaches stop_distance
  /// (+inf when it does not within the horizon).
  double time_to_stop_distance = std::numeric_limits<double>::infinity();
  bool approaching = false;
  /// The channel that decided (the most severe level, then one that is
  /// approaching, then the soonest stop, then the smallest predicted
  /// clearance); 0 for a single clearance function.
  int channel = 0;
  bool stale = false;  ///< the feed is older than stale_after
  MotionModel model = MotionModel::stationary;
};

class Watchdog {
 public:
  /// Throws proxima::Error for options out of order or range
  /// (0 ≤ stop < slow ≤ warn, horizon > 0, steps ≥ 1, stale_after <
  /// stop_after) and those of MotionPredictor.
  Watchdog(std::size_t dof, ClearanceFn clearance, WatchdogOptions options = {}, PredictorOptions predictor = {},
           ToolKinematics kinematics = {});
  /// `channels` ≥ 1 clearances per configuration; the state reports the
  /// most severe channel (level, then speed factor and warning).
  Watchdog(std::size_t dof, std::size_t channels, ClearancesFn clearances, WatchdogOptions options = {},
           PredictorOptions predictor = {}, ToolKinematics kinematics = {});

  /// A new joint sample: predict, check the path, decide. Throws as
  /// MotionPredictor::add for a bad sample. A slow-down or stop holds while
  /// the robot stands still (slowed to a crawl it reads as still, and must
  /// not take the next step at full speed); it ends when a sample shows it
  /// moving away.
  WatchdogState update(const MotionSample& sample);
  /// No new sample by time `now`: the last decision, with the speed factor
  /// lowered for a stale feed.
  WatchdogState tick(double now) const;

  const WatchdogState& state() const { return state_; }
  const MotionPredictor& predictor() const { return predictor_; }

 private:
  double staleness_factor(double age) const;
  WatchdogState judge(double now, double predicted, double time_to_stop) const;

  std::size_t channels_;
  ClearancesFn clearances_;
  WatchdogOptions options_;
  MotionPredictor predictor_;
  WatchdogState state_;
  double last_time_ = 0.0;
};

}  // namespace proxima::robot
