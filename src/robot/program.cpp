// SPDX-License-Identifier: BSD-3-Clause
#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include <proxima/core/error.hpp>
#include <proxima/robot/program.hpp>

namespace proxima::robot {
namespace {

std::string number(double x) {
  std::ostringstream out;
  out << x;
  return out.str();
}

std::string joint_name(const JointLimits& limits, std::size_t j) {
  return j < limits.names.size() ? " (" + limits.names[j] + ")" : "";
}

// Why joint vector `q` (named `field`) cannot be a program's point.
std::optional<std::string> point_error(std::span<const double> q, const JointLimits& limits, const std::string& field) {
  if (q.size() != limits.lower.size())
    return field + ": has " + std::to_string(q.size()) + " values, the robot has " +
           std::to_string(limits.lower.size()) + " joints";
  for (std::size_t j = 0; j < q.size(); ++j) {
    const std::string at = field + "[" + std::to_string(j) + "]" + joint_name(limits, j);
    if (!std::isfinite(q[j])) return at + ": is not a finite number";
    if (q[j] < limits.lower[j] || q[j] > limits.upper[j])
      return at + ": " + number(q[j]) + " is outside the joint's limits [" + number(limits.lower[j]) + ", " +
             number(limits.upper[j]) + "]";
  }
  return std::nullopt;
}

}  // namespace

JointLimits joint_limits(const RobotModel& model) {
  JointLimits l;
  for (std::size_t i = 0; i < model.variable_count(); ++i) {
    const Joint& j = model.joint(model.variable_joint(i));
    l.lower.push_back(j.lower);
    l.upper.push_back(j.upper);
    l.names.push_back(j.name);
  }
  return l;
}

std::optional<std::string> program_error(const ProgramRequest& r, const JointLimits& limits) {
  const bool segment = !r.to.empty() || r.speed != 0.0;
  if (!r.waypoints.empty() && segment) return "a program is either \"waypoints\" or \"to\" with \"speed\", not both";
  if (r.waypoints.empty() && !segment) return "waypoints: a program needs at least one waypoint";
  if (segment) {
    if (r.to.empty()) return "to: missing (the target joints of the segment)";
    if (auto e = point_error(r.to, limits, "to")) return e;
    if (!std::isfinite(r.speed) || r.speed <= 0.0)
      return "speed: " + number(r.speed) + " must be a finite number > 0 (rad/s of the joint moving most)";
    return std::nullopt;
  }
  for (std::size_t i = 0; i < r.waypoints.size(); ++i) {
    const std::string field = "waypoints[" + std::to_string(i) + "]";
    const ProgramWaypoint& w = r.waypoints[i];
    if (!std::isfinite(w.t)) return field + ".t: is not a finite number";
    if (i > 0 && !(w.t > r.waypoints[i - 1].t))
      return field + ".t: " + number(w.t) + " must be after waypoints[" + std::to_string(i - 1) + "].t (" +
             number(r.waypoints[i - 1].t) + ")";
    if (auto e = point_error(w.q, limits, field + ".q")) return e;
  }
  return std::nullopt;
}

JointProgram::JointProgram(const ProgramRequest& r, std::span<const double> present, const JointLimits& limits) {
  if (auto e = program_error(r, limits)) throw Error("program: " + *e);
  if (!r.waypoints.empty()) {
    points_ = r.waypoints;
    return;
  }
  if (present.size() != r.to.size())
    throw Error("program: the present configuration has " + std::to_string(present.size()) + " values, \"to\" " +
                std::to_string(r.to.size()));
  double longest = 0.0;
  for (std::size_t j = 0; j < present.size(); ++j) {
    if (!std::isfinite(present[j])) throw Error("program: the present configuration is not finite");
    longest = std::max(longest, std::abs(r.to[j] - present[j]));
  }
  // Already there: a program that stands still.
  if (longest > 0.0) points_.push_back({0.0, std::vector<double>(present.begin(), present.end())});
  points_.push_back({longest / r.speed, r.to});
}

std::vector<double> JointProgram::at(double t) const {
  if (!(t > points_.front().t)) return points_.front().q;
  if (!(t < points_.back().t)) return points_.back().q;
  const auto next =
      std::upper_bound(points_.begin(), points_.end(), t, [](double x, const ProgramWaypoint& w) { return x < w.t; });
  const ProgramWaypoint& b = *next;
  const ProgramWaypoint& a = *(next - 1);
  const double u = (t - a.t) / (b.t - a.t);
  std::vector<double> q(a.q.size());
  for (std::size_t j = 0; j < q.size(); ++j) q[j] = a.q[j] + u * (b.q[j] - a.q[j]);
  return q;
}

JointProgram::Location JointProgram::locate(std::span<const double> q, double from, double to, double expected) const {
  from = std::clamp(from, start_time(), end_time());
  to = std::clamp(to, from, end_time());
  expected = std::clamp(expected, from, to);
  Location best{from, std::numeric_limits<double>::infinity()};
  auto consider = [&](double t, double squared) {
    const double d = std::sqrt(squared);
    const bool tie = d <= best.deviation + 1e-12 && std::abs(t - expected) < std::abs(best.t - expected);
    if (d < best.deviation - 1e-12 || tie) best = {t, d};
  };
  if (points_.size() == 1) {
    double sq = 0.0;
    for (std::size_t j = 0; j < q.size(); ++j) sq += (q[j] - points_[0].q[j]) * (q[j] - points_[0].q[j]);
    consider(from, sq);
    return best;
  }
  for (std::size_t k = 0; k + 1 < points_.size(); ++k) {
    const ProgramWaypoint &a = points_[k], &b = points_[k + 1];
    if (b.t < from || a.t > to) continue;
    // The segment's part within [from, to], as u ∈ [lo, hi] of a → b.
    const double span = b.t - a.t;
    const double lo = std::max(0.0, (from - a.t) / span), hi = std::min(1.0, (to - a.t) / span);
    double dd = 0.0, dq = 0.0;
    for (std::size_t j = 0; j < q.size(); ++j) {
      const double step = b.q[j] - a.q[j];
      dd += step * step;
      dq += step * (q[j] - a.q[j]);
    }
    // The closest u: the projection; a segment that does not move (a
    // dwell) is as close everywhere, so the u nearest the expected time.
    const double u_expected = std::clamp((expected - a.t) / span, lo, hi);
    const double u = dd > 0.0 ? std::clamp(dq / dd, lo, hi) : u_expected;
    double sq = 0.0;
    for (std::size_t j = 0; j < q.size(); ++j) {
      const double e = q[j] - (a.q[j] + u * (b.q[j] - a.q[j]));
      sq += e * e;
    }
    consider(a.t + u * span, sq);
  }
  return best;
}

}  // namespace proxima::robot
