// The watchdog in a closed loop with a simulated controller, judged by a
// distance of its own: a jog (joint velocities) scaled by the watchdog's
// speed factor, applied from the sample it answers or one sample late, at
// sample periods with jitter, run until the motion stops (a stop in force,
// or a joint at its limit). The clearance the run is judged by is not the
// scene checker's that feeds the watchdog: the links' collision geometry
// (hull vertices, box corners) against box obstacles, by a separating-axis
// lower bound along the box's face normals and, where that is near, the
// Minkowski-difference oracle (tests/oracle, qhull): exact.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <proxima/robot/kinematics.hpp>
#include <proxima/robot/scene_checker.hpp>
#include <proxima/robot/watchdog.hpp>

#include "minkowski_oracle.hpp"
#include "support/random.hpp"

namespace proxima::robot::closed_loop {

/// A box obstacle: its pose and half extents.
struct BoxObstacle {
  std::string name;
  Transform pose;
  Vec3 half = Vec3::Zero();
  std::vector<Vec3> corners() const {
    std::vector<Vec3> c;
    for (int i = 0; i < 8; ++i) {
      const Vec3 local((i & 1 ? 1 : -1) * half.x(), (i & 2 ? 1 : -1) * half.y(), (i & 4 ? 1 : -1) * half.z());
      c.push_back(pose.apply(local));
    }
    return c;
  }
};

/// The boxes of an environment (every object must be a box without margin).
inline std::vector<BoxObstacle> boxes_of(const Environment& env) {
  std::vector<BoxObstacle> out;
  for (const EnvironmentObject& o : env.objects) {
    const Shape* s = std::get_if<Shape>(&o.geometry);
    if (s == nullptr || s->type() != ShapeType::box || s->margin() != 0.0) {
      ADD_FAILURE() << o.name << " is not a plain box";
      continue;
    }
    out.push_back({o.name, o.pose, s->as<Box>().half_extents()});
  }
  return out;
}

/// The world vertices of each collision element of the robot at q: hull
/// vertices, box corners (one vector per element).
inline std::vector<std::vector<Vec3>> element_vertices(const SceneChecker& c, std::span<const double> q) {
  const std::vector<Transform> links = forward_kinematics(c.model(), q);
  std::vector<std::vector<Vec3>> out;
  const auto& geometry = c.geometry().links();
  for (std::size_t l = 0; l < geometry.size(); ++l) {
    for (const LinkShape& e : geometry[l].shapes) {
      const Transform pose = links[l] * e.origin;
      const Shape* s = e.shape();
      std::vector<Vec3> v;
      if (s != nullptr && s->type() == ShapeType::convex && s->margin() == 0.0) {
        for (const Vec3& p : s->as<ConvexPolytope>().vertices()) v.push_back(pose.apply(p));
      } else if (s != nullptr && s->type() == ShapeType::box && s->margin() == 0.0) {
        v = BoxObstacle{"", pose, s->as<Box>().half_extents()}.corners();
      } else {
        ADD_FAILURE() << "link " << l << ": an element that is neither a hull nor a box (" << e.source << ")";
        continue;
      }
      out.push_back(std::move(v));
    }
  }
  return out;
}

/// A lower bound on the signed distance between conv(v) and the box: the
/// largest gap along the box's three face normals (a separating axis gives
/// a distance no larger than the true one; inside, the depth is no larger
/// than the overlap along any axis).
inline double face_axis_bound(const std::vector<Vec3>& v, const BoxObstacle& b) {
  double bound = -std::numeric_limits<double>::infinity();
  for (int i = 0; i < 3; ++i) {
    const Vec3 n = b.pose.R.col(i);
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (const Vec3& p : v) {
      const double s = n.dot(p - b.pose.p);
      lo = std::min(lo, s);
      hi = std::max(hi, s);
    }
    bound = std::max({bound, lo - b.half[i], -b.half[i] - hi});
  }
  return bound;
}

/// The robot's smallest signed distance to the boxes at q: exact (the
/// oracle) wherever the face-axis bound is below `exact_below`, else that
/// bound (which is then ≥ exact_below, and ≤ the true distance).
inline double independent_clearance(const SceneChecker& c, std::span<const double> q,
                                    const std::vector<BoxObstacle>& boxes, double exact_below) {
  double d = std::numeric_limits<double>::infinity();
  const auto elements = element_vertices(c, q);
  for (const BoxObstacle& b : boxes) {
    std::vector<Eigen::Vector3d> corners;
    for (const Vec3& p : b.corners()) corners.emplace_back(p);
    for (const auto& v : elements) {
      const double bound = face_axis_bound(v, b);
      if (bound >= exact_below) {
        d = std::min(d, bound);
        continue;
      }
      std::vector<Eigen::Vector3d> a(v.begin(), v.end());
      d = std::min(d, oracle::minkowski_signed_distance(a, corners));
    }
  }
  return d;
}

/// The fastest any point of the robot's geometry moves, per rad/s of joint
/// `variable` (revolute) at q: the largest distance from the joint's axis
/// of the vertices of the links it moves. A clearance falls no faster.
inline double reach(const SceneChecker& c, std::span<const double> q, std::size_t variable) {
  const RobotModel& m = c.model();
  const Joint& j = m.joint(m.variable_joint(variable));
  const std::vector<Transform> links = forward_kinematics(m, q);
  const Transform& frame = links[static_cast<std::size_t>(j.child_link)];
  const Vec3 axis = (frame.R * j.axis).normalized();
  // The links the joint moves: those whose pose changes when it turns.
  std::vector<double> turned(q.begin(), q.end());
  turned[variable] += 0.1;
  const std::vector<Transform> moved = forward_kinematics(m, turned);
  double r = 0.0;
  const auto& geometry = c.geometry().links();
  const auto elements_at = element_vertices(c, q);
  std::size_t e = 0;
  for (std::size_t l = 0; l < geometry.size(); ++l) {
    const bool moves = (moved[l].p - links[l].p).norm() > 1e-12 || !moved[l].R.isApprox(links[l].R, 1e-12);
    for (std::size_t k = 0; k < geometry[l].shapes.size(); ++k, ++e) {
      if (!moves) continue;
      for (const Vec3& p : elements_at[e]) {
        const Vec3 off = p - frame.p;
        r = std::max(r, (off - off.dot(axis) * axis).norm());
      }
    }
  }
  return r;
}

/// The controller: sample period and its jitter, and when it applies an answer.
struct Controller {
  double period = 0.032;  ///< nominal seconds between samples
  double jitter = 0.0;    ///< each interval is period·(1 + jitter·u), u uniform in [-1, 1]
  int delay = 0;          ///< 0: an answer applies from its sample on; 1: one sample later
  double give_up = 600.0;  ///< simulated seconds: still moving then is a failure
};

struct RunResult {
  bool stopped = false;   ///< a stop was in force (the motion ended by the watchdog)
  bool at_limit = false;  ///< a joint reached its limit (the motion ended there)
  bool gave_up = false;   ///< still moving at Controller::give_up
  double time = 0.0;      ///< when the motion ended, s
  double lowest = std::numeric_limits<double>::infinity();  ///< smallest independent clearance seen
  double final_clearance = std::numeric_limits<double>::infinity();
  double longest_interval = 0.0;  ///< the longest sample interval, s
  int samples = 0;
  bool held = true;  ///< the stop held on samples at the final pose
  WatchdogState last;
  std::vector<double> q;
};

/// Runs `velocity` (joint units per second at speed factor 1) from q0 under
/// the watchdog until the motion ends. `clearance(q)` is the judge.
template <class Judge>
RunResult run(Watchdog& dog, std::vector<double> q, const std::vector<double>& velocity,
              const std::vector<double>& lower, const std::vector<double>& upper, const Controller& ctl,
              testing::Rng& rng, Judge&& clearance) {
  RunResult r;
  double t = 0.0, pending = 1.0;  // pending: the answer a one-sample-late controller has yet to apply
  r.lowest = r.final_clearance = clearance(q);
  for (;;) {
    const WatchdogState s = dog.update({t, q});
    ++r.samples;
    r.last = s;
    const double applied = ctl.delay == 0 ? s.speed_factor : pending;
    pending = s.speed_factor;
    // Stopped: a stop in force and answered again for a robot the
    // predictor reads as standing still (the answer can no longer change
    // while nothing moves). A stop the prediction called while the robot
    // still read as moving may be lifted on the next samples.
    if (applied == 0.0 && s.speed_factor == 0.0 && s.model == MotionModel::stationary) {
      r.stopped = true;
      break;
    }
    if (t > ctl.give_up) {
      r.gave_up = true;
      break;
    }
    const double dt = ctl.period * (1.0 + ctl.jitter * rng.uniform(-1.0, 1.0));
    r.longest_interval = std::max(r.longest_interval, dt);
    bool limit = false;
    for (std::size_t j = 0; j < q.size(); ++j) {
      q[j] += velocity[j] * applied * dt;
      if (q[j] <= lower[j] || q[j] >= upper[j]) {
        q[j] = std::clamp(q[j], lower[j], upper[j]);
        limit = true;
      }
    }
    t += dt;
    r.final_clearance = clearance(q);
    r.lowest = std::min(r.lowest, r.final_clearance);
    if (limit) {
      r.at_limit = true;
      break;
    }
  }
  r.time = t;
  r.q = q;
  if (r.stopped) {
    // Standing still at the stop, it stays a stop.
    for (int k = 1; k <= 3; ++k) r.held &= dog.update({t + k * ctl.period, q}).speed_factor == 0.0;
  }
  return r;
}

/// Runs a program under the watchdog: the controller advances the
/// program's clock by the speed factor times each interval (a monitor speed
/// scaling the whole program) and the robot is where the program puts it,
/// `at(tau)`, until the program's end (`at_limit`) or a stop.
template <class Program, class Judge>
RunResult run_program(Watchdog& dog, Program&& at, double tau_begin, double tau_end, const Controller& ctl,
                      testing::Rng& rng, Judge&& clearance) {
  RunResult r;
  double t = 0.0, tau = tau_begin, pending = 1.0, before = 1.0;
  bool moved = true;  // in the last interval
  std::vector<double> q = at(tau);
  r.lowest = r.final_clearance = clearance(q);
  for (;;) {
    const WatchdogState s = dog.update({t, q});
    ++r.samples;
    r.last = s;
    const double applied = ctl.delay == 0 ? s.speed_factor : pending;
    pending = s.speed_factor;
    // Stopped: a stop answered again for a robot that stood still since the
    // last stop. (A stop the program's look-ahead called far out becomes a
    // crawl once the robot stands: it may close in.)
    if (applied == 0.0 && s.speed_factor == 0.0 && before == 0.0 && !moved) {
      r.stopped = true;
      break;
    }
    before = s.speed_factor;
    if (t > ctl.give_up) {
      r.gave_up = true;
      break;
    }
    if (tau >= tau_end) {
      r.at_limit = true;  // the program ran to its end
      break;
    }
    const double dt = ctl.period * (1.0 + ctl.jitter * rng.uniform(-1.0, 1.0));
    r.longest_interval = std::max(r.longest_interval, dt);
    moved = applied > 0.0;
    tau = std::min(tau_end, tau + applied * dt);
    q = at(tau);
    t += dt;
    r.final_clearance = clearance(q);
    r.lowest = std::min(r.lowest, r.final_clearance);
  }
  r.time = t;
  r.q = q;
  if (r.stopped) {
    for (int k = 1; k <= 3; ++k) r.held &= dog.update({t + k * ctl.period, q}).speed_factor == 0.0;
  }
  return r;
}

}  // namespace proxima::robot::closed_loop
