// SPDX-License-Identifier: BSD-3-Clause
// Predictive collision watchdog (Dumitrache et al., "Collision and proximity
// avoidance for robust behaviour of real-time robot applications", §III):
// from the joint feed it predicts the motion (motion_predictor.hpp), checks
// the clearance along the predicted path, and answers in stages: warn, slow
// the speed factor down, stop. It warns only while approaching, never while
// the robot moves away, and lowers the speed factor to a stop when the feed
// goes stale.
//
// The closed-loop guarantee. Assume
//  (A1) the controller multiplies the robot's speed by each answer's
//       speed_factor within D ∈ {0, 1} sample periods of the sample it
//       answers (D = 0: from that sample on; D = 1: one period late) and
//       keeps it until the next answer takes over;
//  (A2) samples come at most T seconds apart;
//  (A3) at speed factor f no clearance falls faster than f·V, V its rate at
//       full speed: for a jog of joint j at ω rad/s, V ≤ ω·R_j, R_j the
//       reach of the geometry beyond joint j (its largest distance from the
//       joint's axis); for any motion, V ≤ Σ_j v̄_j·R_j with v̄_j the URDF's
//       velocity limits.
// Then no channel's clearance ever falls below
//       min(stop_distance, d_r) − B,      B = (1 + D)·V·T,
// stop_distance the channel's own (ChannelThresholds: as given, or as its
// first clearance set it for a channel that rests close),
// d_r the clearance at which that channel last moved away (`receding`;
// +inf if it never did), and the robot is brought to speed exactly 0 (an
// answer `stop`) by the time the channel is within stop_band() of
// stop_distance: never left crawling. Tighter, once the channel is being
// slowed (f ≤ ramp(clearance)): for gamma ≥ 1, D = 0 and
// κ = π·V·T / (2·(slow_distance − stop_distance)) ≤ 1 it never falls below
// stop_distance at all, each period taking at most κ of the remaining gap.
// The prediction's error does not enter B: the prediction only slows the
// robot earlier; the bound rests on the measured present clearance.
// Why: (1) the answer for a channel within stop_band() of stop_distance (or
// below it) that is not moving away is 0, and a 0 inside the band holds
// until the channel moves away; (2) a period at factor f removes at most f·V·T ≤ V·T. At the
// first sample k inside the band the clearance is above stop − V·T (it was
// above the band at k − 1); the 0 answered there is in force after at most
// D more periods of at most V·T each. For (3), f ≤ ramp(g) ≤ π·g/(2·(slow −
// stop)) for a gap g = clearance − stop_distance, so a period leaves at
// least (1 − κ)·g.
// What keeps a slow-down from lifting: a channel that is slowed stays
// slowed, at no more than its last factor and the ramp of its present
// clearance, until it moves away (beyond slow_distance, or once its
// clearance has not fallen by approach_epsilon for a whole horizon, it is
// raised by doubling per sample instead, still under the ramp); neither a
// robot that reads as stationary (crawling) nor a predicted change below
// approach_epsilon lifts it. A fresh prediction of the approach may raise
// it (the robot slowed, so the path ahead is shorter), at most doubling it
// per sample. A clearance that fell since the last sample slows the channel
// even when the prediction saw nothing. A stop within stop_band() holds; a
// stop the prediction called further out (the motion as it was would have
// crossed stop_distance within the horizon) holds as a 1 % crawl (or
// stop_factor) once the robot stands still, so that it can close in to the
// band instead of stopping for good wherever a fast approach was caught.
// Clearances are signed (negative inside an obstacle): pushing deeper is a
// stop, moving out is allowed (`receding`: the clearance grew since the last
// sample and is not predicted to fall; a sample that turned back against
// the predicted motion, a jog reversed, is judged by its measured change).
// Feed sanity (WatchdogOptions::limits): the guarantee reads the robot
// from its feed, so a sample that cannot be the robot (beyond a joint's
// position limit by more than its tolerance, or a move from the sample
// before implying more than speed_tolerance × its velocity limit) is a
// `stop` naming the joint, and is neither judged nor fitted. The stop
// holds while samples read beyond a limit; after a speed violation, until
// a sample within the limits arrives at a plausible speed from the one
// before it (a spike reads too fast on the way back too: two sane samples
// in a row end it). Safe because a stop is speed 0, which closes in on
// nothing (A3), and the sample that ends it is judged by the rules above on
// its measured clearance, every slow-down from before the fault still in
// force; the prediction restarts from sane samples (its error is not in B
// anyway). A sample time not after the last sample's, or a tick before it,
// throws: never an answer as if current.
//
// The automatic mode (program.hpp, program_follower.hpp) only replaces the
// path the clearance is checked along (set_path_provider), and adds the
// crossings a continuous check found on it. The guarantee above does not
// rest on the path checked, whichever it is (it enters only through
// `approaching`, which can only slow the robot earlier or, with a clearance
// that grew, let it move away: d_r), so it holds with a program as without.
#pragma once

#include <functional>
#include <limits>
#include <optional>
#include <span>
#include <vector>

#include <proxima/core/error.hpp>
#include <proxima/robot/motion_predictor.hpp>

namespace proxima::robot {

/// The clearance of a configuration in metres: the smallest signed distance
/// between the robot and its surroundings (and between its own links),
/// 0 when something touches, minus the penetration depth inside. The watchdog calls it once per path point.
using ClearanceFn = std::function<double(std::span<const double> q)>;

/// Several clearances of one configuration, one per channel (the robot
/// against itself, against each object), written to `out` (one value per
/// channel). Each channel is watched for approach on its own, so that a
/// pair resting close together (a hand beside its own wrist, 2 cm apart)
/// cannot hide another pair closing in.
using ClearancesFn = std::function<void(std::span<const double> q, std::span<double> out)>;

/// One channel's distances in metres (paper §IV: the thresholds may differ
/// per pair of bodies): 0 ≤ stop_distance < slow_distance ≤ warn_distance.
struct ChannelThresholds {
  double stop_distance = 0.01;  ///< stop before the predicted clearance falls to this
  double slow_distance = 0.10;  ///< below it, while approaching, the speed factor ramps down
  double warn_distance = 0.20;  ///< below it, while approaching, warn
  /// The channel rests close by design (a pair of the robot's own links,
  /// such as a wrist beside its hand): its distance at rest says how near
  /// is normal for it, as the paper's laser sensor 10 mm from a link by
  /// design. When its first finite clearance c₀ is positive and below
  /// slow_distance, its distances become: stop s = min(stop_distance,
  /// c₀/2), warn c₀, slow (c₀ + s)/2. It warns once the pair closes in
  /// further than it started, slows from halfway to its stop distance (a
  /// wrist turning past its hand, a prediction off by a millimetre, do not
  /// slow the robot), and still stops short of contact.
  bool rests_close = false;
};

/// Feed sanity: limits each joint sample is checked against before it is
/// judged. A sample beyond a position limit (by more than its tolerance),
/// or whose move from the previous sample implies a speed above
/// speed_tolerance × the velocity limit, cannot be the robot as modelled (a
/// bad encoder, a wrong joint order, a lost sample): the answer is `stop`
/// and the clearance is not computed from it. Each vector holds one entry
/// per joint variable, or none: that check is off.
struct FeedLimits {
  /// Position limits (rad or m); ±infinity for an unbounded joint
  /// (continuous), lower ≤ upper.
  std::vector<double> lower, upper;
  /// How far beyond lower/upper a sample may read (≥ 0, finite): encoder
  /// noise and a controller's overshoot at a limit. Empty: 0 for all.
  std::vector<double> tolerance;
  /// Velocity limits (rad/s or m/s), > 0; +infinity: unchecked.
  std::vector<double> velocity;
  /// A move may imply up to this multiple of the velocity limit (≥ 1,
  /// finite): timestamps jitter, and a controller overshoots briefly.
  double speed_tolerance = 1.5;
};

struct WatchdogOptions {
  double stop_distance = 0.01;  ///< stop before the predicted clearance falls to this (m)
  double slow_distance = 0.10;  ///< below it, while approaching, the speed factor ramps down (m)
  double warn_distance = 0.20;  ///< below it, while approaching, warn (m)
  /// Per channel (empty: every channel takes the three distances above and
  /// does not rest close); else one entry per channel.
  std::vector<ChannelThresholds> channels = {};
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
  /// A speed factor below this is a stop: exactly 0, level stop. The slow
  /// ramp reaches it at stop_band() above stop_distance, so a robot that
  /// keeps closing in is stopped there instead of crawling on: in [0, 1).
  double stop_factor = 0.01;
  /// Feed sanity (FeedLimits; empty: unchecked). The stop it calls holds
  /// while samples read beyond a position limit; after a speed violation,
  /// until a sample within the limits arrives at a plausible speed from
  /// the one before it.
  FeedLimits limits{};
};

/// The clearance above stop_distance at which the slow ramp falls to
/// stop_factor (quarter wave of exponent gamma): within it, a channel that
/// is not moving away is `stop`. 0.57 mm for the defaults. Throws
/// proxima::Error for options the Watchdog would refuse.
double stop_band(const WatchdogOptions& options);
/// The same for one channel's distances under `options`' ramp.
double stop_band(const ChannelThresholds& channel, const WatchdogOptions& options);

enum class WatchdogLevel { clear, warn, slow, stop };
const char* to_string(WatchdogLevel l);

/// Why the level is not `clear`. clearance: a channel's present or
/// predicted clearance (warn, slow or stop); invalid_clearance: a clearance
/// that could not be computed (stop); joint_limit, joint_speed: the sample
/// broke the feed limits (stop, WatchdogState::joint names the variable);
/// stale_feed: no sample for longer than stale_after (tick); deadline: no
/// line at all within a real-time deadline (set by `proxima watch
/// --deadline`, never by Watchdog itself).
enum class WatchdogReason { none, clearance, invalid_clearance, joint_limit, joint_speed, stale_feed, deadline };
/// "none", "clearance", "invalid_clearance", "joint_limit", "joint_speed", "stale_feed" or "deadline".
const char* to_string(WatchdogReason r);

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
  /// The deciding channel's clearance grew since the last sample and is not
  /// predicted to fall: the robot moves away (or out of an overlap), which
  /// is always allowed at full speed and ends any slow-down or stop.
  bool receding = false;
  /// The channel that decided (the most severe level, then one that is
  /// approaching within its warn distance, then the soonest stop, then the
  /// smallest predicted clearance); 0 for a single clearance function.
  int channel = 0;
  bool stale = false;  ///< the feed is older than stale_after
  MotionModel model = MotionModel::stationary;
  /// Why the level is what it is (none when clear).
  WatchdogReason reason = WatchdogReason::none;
  /// For joint_limit and joint_speed: the joint variable that broke its
  /// limit, its position or speed (|Δq|/Δt; +inf for a move in next to no
  /// time) and the limit it went beyond (the bound itself, without
  /// tolerance; for a speed, the velocity limit). −1, 0 and 0 otherwise.
  int joint = -1;
  double joint_value = 0.0;
  double joint_limit = 0.0;
  /// The path checked was a program's (the automatic mode), not the
  /// prediction from the feed.
  bool programmed = false;
  /// With a program: the sample's distance from it (joint space, rad or m)
  /// and the program time it was located at; NaN without a program.
  double deviation = std::numeric_limits<double>::quiet_NaN();
  double program_time = std::numeric_limits<double>::quiet_NaN();
  /// The sample is farther from the program than its tolerance: at least a
  /// warning (program_follower.hpp).
  bool off_program = false;
};

/// A path to check in place of the predicted one (the automatic mode).
struct PlannedPath {
  /// Joint vectors at horizon·k/path_steps seconds after the sample,
  /// k = 1…; empty: the robot is not expected to move.
  std::vector<std::vector<double>> points;
  /// Per channel (or empty): seconds after the sample at which a continuous
  /// check of the path found the channel within `crossing_distance` (≤
  /// stop_distance + its accuracy), +inf where it found nothing. Catches
  /// what lies between the points.
  std::vector<double> crossing, crossing_distance;
  /// The continuous check could not answer: the watchdog stops.
  bool failed = false;
};

/// What a path provider says about one sample.
struct PathReport {
  std::optional<PlannedPath> path;  ///< none: check the prediction's path
  double deviation = std::numeric_limits<double>::quiet_NaN();
  double program_time = std::numeric_limits<double>::quiet_NaN();
  bool off_program = false;
};

/// Called by Watchdog::update with each sample (after the predictor took
/// it) and the previous answer (the default state before the first).
using PathProvider = std::function<PathReport(const MotionSample& sample, const WatchdogState& previous)>;

class Watchdog {
 public:
  /// Throws proxima::Error for options out of order or range
  /// (0 ≤ stop < slow ≤ warn, for each channel too, and as many channel
  /// entries as channels; horizon > 0, steps ≥ 1, stale_after <
  /// stop_after, 0 < stop_factor < 1, limits: each vector empty or of
  /// `dof` entries, values as FeedLimits says, naming the field and the
  /// variable) and those of MotionPredictor.
  Watchdog(std::size_t dof, ClearanceFn clearance, WatchdogOptions options = {}, PredictorOptions predictor = {},
           ToolKinematics kinematics = {});
  /// `channels` ≥ 1 clearances per configuration; the state reports the
  /// most severe channel (level, then speed factor and warning).
  Watchdog(std::size_t dof, std::size_t channels, ClearancesFn clearances, WatchdogOptions options = {},
           PredictorOptions predictor = {}, ToolKinematics kinematics = {});

  /// A new joint sample: predict, check the path, decide (the rules and
  /// the guarantee they give: this file's head). Throws proxima::Error,
  /// leaving the state as it was, for a joint vector of the wrong size, a
  /// non-finite value or a time not after the last sample's (also one that
  /// broke the feed limits). A sample that breaks options.limits is `stop`
  /// (reason joint_limit or joint_speed): it is neither judged nor fed to
  /// the prediction, which starts afresh from the next sane sample; the
  /// slow-downs in force are kept. A slow-down or stop holds until a sample
  /// shows the channel moving away (or beyond slow_distance), and tightens
  /// with the present clearance meanwhile.
  WatchdogState update(const MotionSample& sample);
  /// No new sample by time `now`: the last decision, with the speed factor
  /// lowered for a stale feed (reason stale_feed once lowered). Throws
  /// proxima::Error for a time before the last sample's: a tick from the
  /// past is not answered as if current.
  WatchdogState tick(double now) const;

  const WatchdogState& state() const { return state_; }
  const MotionPredictor& predictor() const { return predictor_; }
  /// Channel c's distances in force: as given, or, for a channel that
  /// rests close, as its first clearance set them.
  const ChannelThresholds& thresholds(std::size_t c) const { return thresholds_.at(c); }
  const WatchdogOptions& options() const { return options_; }
  std::size_t channels() const { return channels_; }

  /// Replaces the predicted path by the provider's where it gives one (an
  /// empty function: the prediction only). The decision rules are the same;
  /// an off-program sample is at least `warn`.
  void set_path_provider(PathProvider provider) { provider_ = std::move(provider); }

 private:
  double staleness_factor(double age) const;
  double ramp(std::size_t channel, double clearance) const;
  void settle(std::size_t channel, double first);
  WatchdogState judge(std::size_t channel, double now, double predicted, double time_to_stop) const;
  /// The stop for a sample that breaks options_.limits; nullopt when sane.
  std::optional<WatchdogState> feed_fault(const MotionSample& sample) const;

  std::size_t channels_;
  ClearancesFn clearances_;
  WatchdogOptions options_;
  MotionPredictor predictor_;
  WatchdogState state_;
  double last_time_ = 0.0;
  /// Per channel: its distances in force, stop_band() of them, and whether
  /// a channel that rests close is still to see its first clearance.
  std::vector<ChannelThresholds> thresholds_;
  std::vector<double> band_;
  std::vector<bool> unsettled_;
  /// Per channel: the factor of the slow-down in force (1: none) and the
  /// clearance at the last sample (NaN before the first).
  std::vector<double> held_, last_clearance_;
  /// Per channel: since when (sample time; NaN before the first) its
  /// clearance has not fallen by approach_epsilon below steady_ref_, the
  /// highest it read since.
  std::vector<double> steady_ref_, steady_since_;
  std::vector<double> last_q_;  ///< the last sample's joints (empty before the first)
  /// The last sample received, sane or not (the speed check's reference;
  /// empty q before the first).
  MotionSample last_sample_;
  PathProvider provider_;
};

}  // namespace proxima::robot
