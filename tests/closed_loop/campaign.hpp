// SPDX-License-Identifier: BSD-3-Clause
// The watchdog's closed-loop campaign: seeded random runs of the Panda and
// the UR5 in their shipped MotionBenchMaker scenes (tests/data/robots),
// each a joint jog (one joint, or a random direction in joint space) or a
// Cartesian jog (the tool frame along a straight line, the joint
// velocities from the damped pseudo-inverse of the Jacobian at each tick),
// under the watchdog (closed_loop.hpp) until the motion stops, judged by
// the independent distance against the guarantee of watchdog.hpp:
//   no contact, and no clearance below stop_distance − (1 + D)·V·T.
// Run k draws from its own generator (seed, k): the results do not depend
// on the number of worker threads. Used by proxima-robot-bench's
// closed-loop mode and by the robot tests (a seeded sample).
#pragma once

#include <filesystem>
#include <iosfwd>
#include <string>
#include <vector>

#include <proxima/robot/watchdog.hpp>

namespace proxima::robot::closed_loop {

enum class JogKind { one_joint, joint_direction, cartesian };
inline constexpr int kJogKinds = 3;
const char* to_string(JogKind k);

struct CampaignOptions {
  int runs = 100;
  unsigned long seed = 1;
  int threads = 1;
  double give_up = 300.0;  ///< simulated seconds a run may take before it counts as a failure
  /// Starts closer than stop_distance + this (independent clearance) are drawn again.
  double start_margin = 0.02;
  /// Wall seconds after which no further run starts (0: none): the runs
  /// begun by then finish, so the result is runs 0 … k−1 of the campaign.
  double wall_limit = 0.0;
  std::filesystem::path robots_dir;  ///< holds panda/ and ur5/ (URDF, SRDF, scenes/)
  WatchdogOptions watchdog;
};

/// One run: what it drew and how it ended.
struct RunRecord {
  int index = 0;
  std::string robot, scene, tool;  ///< tool: the link of the Cartesian motion model, empty for none
  JogKind jog = JogKind::one_joint;
  std::string jog_detail;  ///< the joint, or "random direction", or the line's direction
  double speed = 0.0;      ///< rad/s of the fastest joint at speed factor 1
  int delay = 0;
  double period = 0.0, drop = 0.0;
  int start_draws = 0;  ///< start configurations drawn until one was accepted
  // The outcome.
  bool stopped = false, at_limit = false, gave_up = false, held = true;
  bool jog_ended = false;  ///< a Cartesian line left the arm's reach (the motion ended there)
  bool first_stop = false;     ///< the answer to the very first sample was a stop
  std::string first_channel;   ///< its channel
  std::string stop_channel;    ///< the channel of the last answer
  double last_factor = 1.0;    ///< the last answer's speed factor
  WatchdogLevel last_level = WatchdogLevel::clear;
  double time = 0.0;
  int samples = 0, dropped = 0;
  double start_clearance = 0.0, lowest = 0.0, lowest_between = 0.0, final_clearance = 0.0;
  std::string lowest_obstacle;
  double lowest_excess = 0.0;  ///< how much closer the stand-in polytope of that obstacle can read (cylinders)
  double speed_bound = 0.0, longest_interval = 0.0, bound = 0.0;
  double seconds = 0.0;  ///< wall time of the run (draw and simulation)
  std::string error;     ///< a run that threw: the message
  bool contact() const { return error.empty() && lowest <= 0.0; }
  bool below_bound() const { return error.empty() && lowest < bound; }
  bool contact_between() const { return error.empty() && lowest_between <= 0.0; }
  bool below_bound_between() const { return error.empty() && lowest_between < bound; }
  bool failed() const { return !error.empty() || gave_up || contact() || below_bound() || (stopped && !held); }
};

struct CampaignResult {
  std::vector<RunRecord> runs;  ///< by index: all CampaignOptions::runs unless the wall limit cut the campaign short
  double wall_seconds = 0.0;
};

/// Runs the campaign on `options.threads` worker threads. Throws
/// std::invalid_argument for options out of range, proxima::Error or
/// std::runtime_error when the robots or scenes cannot be read.
CampaignResult run_campaign(const CampaignOptions& options);

/// The report: totals, then per robot and jog kind the counts and the
/// distributions (min, p1, p50, p99, max) of stop clearance and time to
/// stop; every failing run in full.
void print_report(std::ostream& out, const CampaignOptions& options, const CampaignResult& result);

/// One line per run (comma-separated, with a header).
void write_csv(std::ostream& out, const CampaignResult& result);

}  // namespace proxima::robot::closed_loop
