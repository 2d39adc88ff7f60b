// SPDX-License-Identifier: BSD-3-Clause
// The watchdog in a closed loop with a simulated controller, judged by a
// distance of its own: a jog (joint velocities, recomputed at each control
// tick) scaled by the watchdog's speed factor, applied from the sample it
// answers or one tick late, at sample periods with jitter and occasionally
// a sample lost on the way, run until the motion stops (a stop in force, or
// a joint at its limit). The clearance a run is judged by is not the scene
// checker's that feeds the watchdog: the links' collision geometry (hull
// vertices, box corners) against the obstacles (boxes; cylinders as the
// prism circumscribing them, which can only read closer), by a
// separating-axis lower bound along the obstacle's face normals and, where
// that is near, the Minkowski-difference oracle (tests/oracle, qhull).
//
// Shared by the robot tests and proxima-robot-bench's closed-loop campaign
// (no test framework here: a geometry this rig cannot judge throws).
#pragma once

#include <algorithm>
#include <functional>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include <proxima/robot/environment.hpp>
#include <proxima/robot/scene_checker.hpp>
#include <proxima/robot/watchdog.hpp>

#include "support/random.hpp"

namespace proxima::robot::closed_loop {

/// An obstacle as a convex polytope: its world vertices and the unit
/// normals of its faces (one per pair of opposite faces is enough: the
/// separating-axis bound looks both ways).
struct Obstacle {
  std::string name;
  std::vector<Vec3> vertices;
  std::vector<Vec3> axes;
  /// How far the polytope reaches beyond the true shape (0 for a box; the
  /// circumscribed prism's excess r·(1/cos(π/n) − 1) for a cylinder): a
  /// clearance to the polytope is at most this much below the true one.
  double excess = 0.0;
  /// Per axis, the vertices' smallest and largest projection (made by
  /// obstacles_of; face_axis_bound reads them).
  std::vector<double> lo, hi;
};

/// Sides of the prism that stands in for a cylinder.
inline constexpr int kCylinderSides = 64;

/// The obstacles of an environment. Throws std::invalid_argument naming an
/// object that is neither a box nor a cylinder, or has a margin.
std::vector<Obstacle> obstacles_of(const Environment& env);

/// The robot's geometry seen independently of the scene checker's queries:
/// each collision element's world vertices (hull vertices, box corners),
/// and for each joint variable the links it moves.
class IndependentRobot {
 public:
  /// Throws std::invalid_argument for an element that is neither a convex
  /// hull nor a box without margin (naming its link).
  explicit IndependentRobot(const SceneChecker& checker);

  const SceneChecker& checker() const { return *checker_; }
  /// World vertices of every element at q (one vector per element).
  void element_vertices(std::span<const double> q, std::vector<std::vector<Vec3>>& out) const;

  /// The robot's smallest signed distance to the obstacles at q: exact (the
  /// oracle) wherever the face-axis bound is below `exact_below`, else that
  /// bound (which is then ≥ exact_below and ≤ the true distance). `nearest`
  /// (optional) receives the index of the obstacle it was measured to.
  double clearance(std::span<const double> q, const std::vector<Obstacle>& obstacles, double exact_below,
                   int* nearest = nullptr) const;
  /// As clearance() on vertices already computed (element_vertices at q).
  double clearance(const std::vector<std::vector<Vec3>>& elements, const std::vector<Obstacle>& obstacles,
                   double exact_below, int* nearest = nullptr) const;

  /// Per joint variable at q: how fast (m/s) any point of the geometry it
  /// moves can go per unit/s of that variable. Revolute: the largest
  /// distance of those points from the joint's axis; prismatic: 1. A
  /// clearance falls no faster than Σ_j |q̇_j|·reach_j. Only the variables
  /// with a non-zero entry in `wanted` are measured (the others read 0).
  std::vector<double> reaches(std::span<const double> q, const std::vector<std::vector<Vec3>>& elements,
                              std::span<const double> wanted) const;
  /// Does joint variable `variable` move link `link`?
  bool moves(std::size_t variable, int link) const;

 private:
  /// Per element: the centre and radius of a ball holding it, in its
  /// link's frame (a cheap first bound for distances and reaches).
  struct Ball {
    Vec3 centre = Vec3::Zero();
    double radius = 0.0;
  };
  const SceneChecker* checker_;
  std::vector<Ball> balls_;
  std::vector<int> element_link_;              ///< per element: its link
  std::vector<std::vector<bool>> moves_link_;  ///< per joint, per link: does the joint move it
};

/// A lower bound on the signed distance between conv(v) and the obstacle:
/// the largest gap along its face normals (a separating axis gives a
/// distance no larger than the true one; inside, the depth is no larger
/// than the overlap along any axis).
double face_axis_bound(const std::vector<Vec3>& v, const Obstacle& o);

/// The controller: sample period and its jitter, lost samples, and when it
/// applies an answer.
struct Controller {
  double period = 0.032;  ///< nominal seconds between control ticks
  double jitter = 0.0;    ///< each interval is period·(1 + jitter·u), u uniform in [-1, 1]
  /// Chance that a tick's sample does not reach the watchdog (the first
  /// always does): the controller keeps the last answer it has.
  double drop = 0.0;
  int delay = 0;           ///< 0: an answer applies from its tick on; 1: from the next tick
  double give_up = 600.0;  ///< simulated seconds: still moving then is a failure
};

/// Joint velocities (units/s at speed factor 1) to command at q: a joint
/// jog returns the same vector always, a Cartesian jog recomputes them.
/// Returns false when the jog cannot go on from q (a Cartesian line out of
/// the arm's reach): the motion ends there.
using Jog = std::function<bool(std::span<const double> q, std::span<double> velocity)>;

struct RunResult {
  bool stopped = false;   ///< a stop was in force (the motion ended by the watchdog)
  bool at_limit = false;  ///< a joint reached its limit (the motion ended there)
  bool jog_ended = false; ///< the jog could not go on (the motion ended there)
  bool gave_up = false;   ///< still moving at Controller::give_up
  bool held = true;       ///< the stop held on samples at the final pose
  double time = 0.0;      ///< when the motion ended, s
  /// Smallest independent clearance at a tick: exact below the judge's
  /// exact_below, a lower bound above it.
  double lowest = std::numeric_limits<double>::infinity();
  int lowest_obstacle = -1;
  /// A lower bound on the clearance between ticks too: on each tick's
  /// straight joint-space step the clearance falls at most f·V_k per second
  /// from either end; where that bound is below contact or the guarantee's
  /// bound (stop_distance − (1 + D)·V·T with the V and T so far), the step
  /// is halved (up to 10 times) until it clears them or is within 0.01 mm
  /// of the ends'.
  double lowest_between = std::numeric_limits<double>::infinity();
  double start_clearance = std::numeric_limits<double>::infinity();
  double final_clearance = std::numeric_limits<double>::infinity();  ///< as `lowest` (exact below exact_below)
  /// The longest interval between samples the watchdog received, s.
  double longest_interval = 0.0;
  /// The fastest a clearance could fall at full speed over the run (m/s):
  /// max over ticks of Σ_j |q̇_j|·reach_j, the reaches at both ends of the
  /// tick's step padded by how much they could grow within it.
  double speed_bound = 0.0;
  int samples = 0;  ///< delivered to the watchdog
  int dropped = 0;
  int ticks = 0;
  WatchdogState first;  ///< the answer to the first sample
  WatchdogState last;   ///< the answer to the last sample
  std::vector<double> q;  ///< where the motion ended
};

/// Runs `jog` from q0 under the watchdog until the motion ends, judging
/// each tick's configuration by `robot` against `obstacles` (exact below
/// `exact_below`). `lower`/`upper`: the joint limits, where the motion ends.
/// `stop_distance`: the watchdog's, for the bound between ticks.
RunResult run(Watchdog& dog, std::vector<double> q0, const Jog& jog, const std::vector<double>& lower,
              const std::vector<double>& upper, const Controller& ctl, testing::Rng& rng,
              const IndependentRobot& robot, const std::vector<Obstacle>& obstacles, double exact_below,
              double stop_distance);


// The rig's earlier interface, kept for the tests written against it.
using BoxObstacle = Obstacle;
/// obstacles_of (boxes and cylinders).
inline std::vector<Obstacle> boxes_of(const Environment& env) { return obstacles_of(env); }
/// IndependentRobot(c).clearance(q, obstacles, exact_below).
inline double independent_clearance(const SceneChecker& c, std::span<const double> q,
                                    const std::vector<Obstacle>& obstacles, double exact_below) {
  return IndependentRobot(c).clearance(q, obstacles, exact_below);
}
/// The reach of joint variable `variable` at q (IndependentRobot::reaches).
inline double reach(const SceneChecker& c, std::span<const double> q, std::size_t variable) {
  const IndependentRobot robot(c);
  std::vector<std::vector<Vec3>> elements;
  robot.element_vertices(q, elements);
  std::vector<double> wanted(q.size(), 0.0);
  wanted[variable] = 1.0;
  return robot.reaches(q, elements, wanted)[variable];
}

/// Standing still at a stop (three more samples at `q`, one period apart
/// after `t`), it stays a stop.
inline bool stop_holds(Watchdog& dog, double t, double period, const std::vector<double>& q) {
  bool held = true;
  for (int k = 1; k <= 3; ++k) held &= dog.update({t + k * period, q}).speed_factor == 0.0;
  return held;
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
  if (r.stopped) r.held = stop_holds(dog, t, ctl.period, q);
  return r;
}

}  // namespace proxima::robot::closed_loop
