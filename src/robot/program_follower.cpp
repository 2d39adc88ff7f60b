// SPDX-License-Identifier: BSD-3-Clause
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include <proxima/robot/program_follower.hpp>

namespace proxima::robot {

ProgramFollower::ProgramFollower(std::size_t channels, JointLimits limits, WatchdogOptions watch,
                                 ProgramOptions options, SegmentCheckFn check)
    : channels_(channels), limits_(std::move(limits)), watch_(watch), options_(options), check_(std::move(check)) {
  if (!(std::isfinite(options_.tolerance) && options_.tolerance > 0.0))
    throw Error("program tolerance " + std::to_string(options_.tolerance) + " must be finite and > 0");
  if (!(std::isfinite(options_.fallback) && options_.fallback >= options_.tolerance))
    throw Error("program fallback " + std::to_string(options_.fallback) + " must be finite and ≥ the tolerance (" +
                std::to_string(options_.tolerance) + ")");
  if (limits_.lower.size() != limits_.upper.size()) throw Error("ProgramFollower: joint limits of unequal lengths");
  // One clearance for every channel (one with a smaller stop distance is
  // found early, and slowed rather than stopped by its distance there).
  check_clearance_ = watch_.stop_distance;
  for (const ChannelThresholds& t : watch_.channels) check_clearance_ = std::max(check_clearance_, t.stop_distance);
}

void ProgramFollower::set(const ProgramRequest& request) {
  // Refused now, not at the next sample: the caller learns which field.
  if (auto e = program_error(request, limits_)) throw Error("program: " + *e);
  pending_ = request;
}

void ProgramFollower::clear() {
  pending_.reset();
  program_.reset();
  located_ = false;
}

PathReport ProgramFollower::operator()(const MotionSample& sample, const WatchdogState& previous) {
  if (pending_) {
    program_.emplace(*pending_, sample.q, limits_);
    pending_.reset();
    located_ = reacquire_ = false;
  }
  PathReport out;
  if (!program_) return out;
  const JointProgram& program = *program_;
  const double dt = located_ ? sample.time - last_time_ : 0.0;
  const double f = std::clamp(previous.speed_factor, 0.0, 1.0);
  JointProgram::Location at;
  if (!located_) {
    at = program.locate(sample.q, program.start_time(), program.end_time(), program.start_time());
  } else {
    const double to = reacquire_ ? program.end_time() : tau_ + 2.0 * dt;
    at = program.locate(sample.q, tau_, to, tau_ + f * dt);
  }
  out.deviation = at.deviation;
  out.program_time = at.t;
  out.off_program = at.deviation > options_.tolerance;
  if (at.deviation > options_.fallback) {
    // The program no longer tells where the robot goes: the prediction
    // does. The location stays where it was, to be found again further on.
    reacquire_ = located_;
    last_time_ = sample.time;
    return out;
  }
  const double measured = located_ && !reacquire_ && dt > 0.0 ? (at.t - tau_) / dt : 0.0;
  const double rate = located_ && !reacquire_ ? std::max(measured, std::min(1.0, 2.0 * f)) : 1.0;
  located_ = true;
  reacquire_ = false;
  tau_ = at.t;
  last_time_ = sample.time;

  PlannedPath path;
  path.crossing.assign(channels_, std::numeric_limits<double>::infinity());
  path.crossing_distance.assign(channels_, std::numeric_limits<double>::infinity());
  const double window = std::min(watch_.horizon * rate, program.end_time() - tau_);
  if (window > 0.0) {
    // Wall time per program time: the path points are horizon/steps apart.
    const double scale = watch_.horizon / (watch_.horizon * rate);
    const int steps = watch_.path_steps;
    for (int k = 1; k <= steps; ++k) {
      const double tk = tau_ + watch_.horizon * rate * k / steps;
      path.points.push_back(program.at(tk));
    }
    if (check_) {
      // From the sample itself (it may be off the program by up to the
      // fallback), then through the waypoints, to the end of the window.
      std::vector<double> a = sample.q;
      double ta = tau_;
      const double end = tau_ + window;
      for (const ProgramWaypoint& w : program.waypoints()) {
        if (w.t <= ta) continue;
        const double tb = std::min(w.t, end);
        const std::vector<double> b = tb < w.t ? program.at(tb) : w.q;
        if (a != b) {
          const SegmentCrossing c = check_(a, b, check_clearance_);
          if (c.status == Status::invalid_input) {
            path.failed = true;
            break;
          }
          if (c.found && c.channel < channels_) {
            const double tc = ta + c.s * (tb - ta);
            path.crossing[c.channel] = (tc - tau_) * scale;
            path.crossing_distance[c.channel] = c.distance;
            break;
          }
        }
        a = b;
        ta = tb;
        if (!(ta < end)) break;
      }
    }
  }
  out.path = std::move(path);
  return out;
}

std::shared_ptr<ProgramFollower> follow_programs(Watchdog& dog, JointLimits limits, ProgramOptions options,
                                                 SegmentCheckFn check) {
  auto follower =
      std::make_shared<ProgramFollower>(dog.channels(), std::move(limits), dog.options(), options, std::move(check));
  dog.set_path_provider(
      [follower](const MotionSample& sample, const WatchdogState& previous) { return (*follower)(sample, previous); });
  return follower;
}

}  // namespace proxima::robot
