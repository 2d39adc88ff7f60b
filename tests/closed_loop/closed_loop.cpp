// SPDX-License-Identifier: BSD-3-Clause
#include "closed_loop.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <utility>

#include <proxima/robot/kinematics.hpp>
#include <proxima/shape/box.hpp>
#include <proxima/shape/convex_polytope.hpp>
#include <proxima/shape/cylinder.hpp>

#include "minkowski_oracle.hpp"

namespace proxima::robot::closed_loop {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

std::vector<Vec3> box_corners(const Transform& pose, const Vec3& half) {
  std::vector<Vec3> c;
  for (int i = 0; i < 8; ++i) {
    const Vec3 local((i & 1 ? 1 : -1) * half.x(), (i & 2 ? 1 : -1) * half.y(), (i & 4 ? 1 : -1) * half.z());
    c.push_back(pose.apply(local));
  }
  return c;
}

// The prism of kCylinderSides sides circumscribing a cylinder (axis along
// its local z): each side touches the cylinder, so the prism holds it and
// a distance to the prism is never larger than the distance to the cylinder.
Obstacle cylinder_prism(const std::string& name, const Transform& pose, double radius, double length) {
  constexpr int n = kCylinderSides;
  const double step = 2.0 * std::numbers::pi / n;
  const double corner = radius / std::cos(step / 2);
  Obstacle o;
  o.name = name;
  o.excess = corner - radius;
  for (int k = 0; k < n; ++k) {
    const double a = (k + 0.5) * step;
    for (const double z : {-0.5 * length, 0.5 * length})
      o.vertices.push_back(pose.apply(Vec3(corner * std::cos(a), corner * std::sin(a), z)));
  }
  for (int k = 0; k < n / 2; ++k) o.axes.push_back(pose.R * Vec3(std::cos(k * step), std::sin(k * step), 0.0));
  o.axes.push_back(pose.R.col(2));
  return o;
}

void project(Obstacle& o) {
  o.lo.clear();
  o.hi.clear();
  for (const Vec3& n : o.axes) {
    double lo = kInf, hi = -kInf;
    for (const Vec3& p : o.vertices) {
      lo = std::min(lo, n.dot(p));
      hi = std::max(hi, n.dot(p));
    }
    o.lo.push_back(lo);
    o.hi.push_back(hi);
  }
}

}  // namespace

std::vector<Obstacle> obstacles_of(const Environment& env) {
  std::vector<Obstacle> out;
  for (const EnvironmentObject& e : env.objects) {
    const Shape* s = std::get_if<Shape>(&e.geometry);
    if (s == nullptr || s->margin() != 0.0 || (s->type() != ShapeType::box && s->type() != ShapeType::cylinder))
      throw std::invalid_argument(e.name + ": the closed-loop judge takes boxes and cylinders without margin only");
    if (s->type() == ShapeType::box) {
      Obstacle o;
      o.name = e.name;
      o.vertices = box_corners(e.pose, s->as<Box>().half_extents());
      o.axes = {e.pose.R.col(0), e.pose.R.col(1), e.pose.R.col(2)};
      out.push_back(std::move(o));
    } else {
      const Cylinder& c = s->as<Cylinder>();
      out.push_back(cylinder_prism(e.name, e.pose, c.radius(), c.length()));
    }
    project(out.back());
  }
  return out;
}

double face_axis_bound(const std::vector<Vec3>& v, const Obstacle& o) {
  double bound = -kInf;
  for (std::size_t i = 0; i < o.axes.size(); ++i) {
    const Vec3& n = o.axes[i];
    double lo = kInf, hi = -kInf;
    for (const Vec3& p : v) {
      const double s = n.dot(p);
      lo = std::min(lo, s);
      hi = std::max(hi, s);
    }
    bound = std::max({bound, lo - o.hi[i], o.lo[i] - hi});
  }
  return bound;
}

namespace {

// The same bound for a ball: its projection on each axis is its centre's ± radius.
double ball_bound(const Vec3& centre, double radius, const Obstacle& o) {
  double bound = -kInf;
  for (std::size_t i = 0; i < o.axes.size(); ++i) {
    const double s = o.axes[i].dot(centre);
    bound = std::max({bound, s - radius - o.hi[i], o.lo[i] - s - radius});
  }
  return bound;
}

}  // namespace

IndependentRobot::IndependentRobot(const SceneChecker& checker) : checker_(&checker) {
  const RobotModel& m = checker.model();
  const auto& geometry = checker.geometry().links();
  for (std::size_t l = 0; l < geometry.size(); ++l) {
    for (const LinkShape& e : geometry[l].shapes) {
      const Shape* s = e.shape();
      const bool usable = s != nullptr && s->margin() == 0.0 &&
                          (s->type() == ShapeType::convex || s->type() == ShapeType::box);
      if (!usable)
        throw std::invalid_argument("link " + m.link(static_cast<int>(l)).name + ": an element (" + e.source +
                                    ") that is neither a hull nor a box without margin");
      element_link_.push_back(static_cast<int>(l));
      // A ball about the middle of the element's bounds, through its farthest vertex.
      std::vector<Vec3> v;
      if (s->type() == ShapeType::convex) {
        for (const Vec3& p : s->as<ConvexPolytope>().vertices()) v.push_back(e.origin.apply(p));
      } else {
        v = box_corners(e.origin, s->as<Box>().half_extents());
      }
      Vec3 lo = v.front(), hi = v.front();
      for (const Vec3& p : v) {
        lo = lo.cwiseMin(p);
        hi = hi.cwiseMax(p);
      }
      Ball b{0.5 * (lo + hi), 0.0};
      for (const Vec3& p : v) b.radius = std::max(b.radius, (p - b.centre).norm());
      balls_.push_back({b.centre, b.radius * (1 + 1e-12) + 1e-12});
    }
  }
  // Per joint, the links it moves: its child and everything below it (the
  // joints in topological order, each parent's before its children's).
  moves_link_.assign(m.joints().size(), std::vector<bool>(m.links().size(), false));
  for (std::size_t j = 0; j < m.joints().size(); ++j) {
    std::vector<bool>& moved = moves_link_[j];
    moved[static_cast<std::size_t>(m.joint(static_cast<int>(j)).child_link)] = true;
    for (const int k : m.topological_joints()) {
      const Joint& jt = m.joint(k);
      if (moved[static_cast<std::size_t>(jt.parent_link)]) moved[static_cast<std::size_t>(jt.child_link)] = true;
    }
  }
}

void IndependentRobot::element_vertices(std::span<const double> q, std::vector<std::vector<Vec3>>& out) const {
  const std::vector<Transform> links = forward_kinematics(checker_->model(), q);
  out.resize(element_link_.size());
  std::size_t e = 0;
  for (const LinkGeometry& g : checker_->geometry().links()) {
    for (const LinkShape& s : g.shapes) {
      const Transform pose = links[static_cast<std::size_t>(element_link_[e])] * s.origin;
      std::vector<Vec3>& v = out[e++];
      v.clear();
      if (s.shape()->type() == ShapeType::convex) {
        for (const Vec3& p : s.shape()->as<ConvexPolytope>().vertices()) v.push_back(pose.apply(p));
      } else {
        v = box_corners(pose, s.shape()->as<Box>().half_extents());
      }
    }
  }
}

double IndependentRobot::clearance(std::span<const double> q, const std::vector<Obstacle>& obstacles,
                                   double exact_below, int* nearest) const {
  std::vector<std::vector<Vec3>> elements;
  element_vertices(q, elements);
  return clearance(elements, obstacles, exact_below, nearest);
}

double IndependentRobot::clearance(const std::vector<std::vector<Vec3>>& elements,
                                   const std::vector<Obstacle>& obstacles, double exact_below, int* nearest) const {
  // Every pair's cheapest bound first (its ball's); then the pairs in
  // increasing bound while it is below the smallest value found (a pair
  // whose bound is not can only tie it): the bound itself where it is at
  // least exact_below, else the face-axis bound, else the oracle.
  std::vector<Vec3> centres(elements.size());
  for (std::size_t e = 0; e < elements.size(); ++e) {
    // The world ball: the vertices' bounds' middle moves with the element,
    // and the radius is the largest distance from it in any frame.
    Vec3 lo = elements[e].front(), hi = elements[e].front();
    for (const Vec3& p : elements[e]) {
      lo = lo.cwiseMin(p);
      hi = hi.cwiseMax(p);
    }
    centres[e] = 0.5 * (lo + hi);
  }
  struct Pair {
    double bound;
    std::size_t element, obstacle;
  };
  std::vector<Pair> pairs;
  pairs.reserve(elements.size() * obstacles.size());
  for (std::size_t e = 0; e < elements.size(); ++e) {
    double radius = 0.0;
    for (const Vec3& p : elements[e]) radius = std::max(radius, (p - centres[e]).squaredNorm());
    radius = std::sqrt(radius) * (1 + 1e-12) + 1e-12;
    for (std::size_t o = 0; o < obstacles.size(); ++o) pairs.push_back({ball_bound(centres[e], radius, obstacles[o]), e, o});
  }
  std::sort(pairs.begin(), pairs.end(), [](const Pair& a, const Pair& b) { return a.bound < b.bound; });
  double d = kInf;
  int near = -1;
  for (const Pair& p : pairs) {
    if (p.bound >= d) break;
    double value = p.bound;
    if (value < exact_below) value = face_axis_bound(elements[p.element], obstacles[p.obstacle]);
    if (value < exact_below) {
      const std::vector<Eigen::Vector3d> a(elements[p.element].begin(), elements[p.element].end());
      const std::vector<Eigen::Vector3d> b(obstacles[p.obstacle].vertices.begin(),
                                           obstacles[p.obstacle].vertices.end());
      value = oracle::minkowski_signed_distance(a, b);
    }
    if (value < d) {
      d = value;
      near = static_cast<int>(p.obstacle);
    }
  }
  if (nearest != nullptr) *nearest = near;
  return d;
}

std::vector<double> IndependentRobot::reaches(std::span<const double> q,
                                              const std::vector<std::vector<Vec3>>& elements,
                                              std::span<const double> wanted) const {
  const RobotModel& m = checker_->model();
  const std::vector<Transform> links = forward_kinematics(m, q);
  std::vector<double> out(m.variable_count(), 0.0);
  // A variable drives its joint and the joints that mimic it: a point moves
  // no faster than the sum over them of |multiplier| × its speed per joint.
  for (std::size_t j = 0; j < m.joints().size(); ++j) {
    const Joint& jt = m.joint(static_cast<int>(j));
    if (jt.variable < 0 || wanted[static_cast<std::size_t>(jt.variable)] == 0.0) continue;
    double r = 0.0;
    if (jt.type == JointType::prismatic) {
      r = 1.0;
    } else {
      const Transform& frame = links[static_cast<std::size_t>(jt.child_link)];
      const Vec3 axis = (frame.R * jt.axis).normalized();
      auto from_axis = [&](const Vec3& p) {
        const Vec3 off = p - frame.p;
        return (off - off.dot(axis) * axis).norm();
      };
      for (std::size_t e = 0; e < elements.size(); ++e) {
        const auto link = static_cast<std::size_t>(element_link_[e]);
        if (!moves_link_[j][link]) continue;
        // No vertex of an element whose ball lies within r can set a new largest.
        if (from_axis(links[link].apply(balls_[e].centre)) + balls_[e].radius <= r) continue;
        for (const Vec3& p : elements[e]) r = std::max(r, from_axis(p));
      }
    }
    out[static_cast<std::size_t>(jt.variable)] += std::abs(jt.variable_multiplier) * r;
  }
  return out;
}

bool IndependentRobot::moves(std::size_t variable, int link) const {
  const RobotModel& m = checker_->model();
  for (std::size_t j = 0; j < m.joints().size(); ++j)
    if (m.joint(static_cast<int>(j)).variable == static_cast<int>(variable) &&
        moves_link_[j][static_cast<std::size_t>(link)])
      return true;
  return false;
}

namespace {

// Σ_j |v_j|·r_j.
double speed_of(const std::vector<double>& velocity, const std::vector<double>& reach) {
  double s = 0.0;
  for (std::size_t j = 0; j < velocity.size(); ++j) s += std::abs(velocity[j]) * reach[j];
  return s;
}

// A lower bound on the smallest clearance on the joint-space segment a → b,
// its ends' clearances ca and cb, neither falling by more than `fall` along
// it: the Lipschitz bound (ca + cb − fall)/2, the segment halved while that
// bound is below `level` (what it has to clear) and more than 0.01 mm under
// both ends (at most `depth` times).
double segment_low(const IndependentRobot& robot, const std::vector<Obstacle>& obstacles, double exact_below,
                   const std::vector<double>& a, const std::vector<double>& b, double ca, double cb, double fall,
                   double level, int depth) {
  const double bound = 0.5 * (ca + cb - fall);
  if (bound >= level || bound >= std::min(ca, cb) - 1e-5 || depth == 0) return std::min({ca, cb, bound});
  std::vector<double> mid(a.size());
  for (std::size_t j = 0; j < a.size(); ++j) mid[j] = 0.5 * (a[j] + b[j]);
  const double cm = robot.clearance(mid, obstacles, exact_below);
  return std::min(segment_low(robot, obstacles, exact_below, a, mid, ca, cm, 0.5 * fall, level, depth - 1),
                  segment_low(robot, obstacles, exact_below, mid, b, cm, cb, 0.5 * fall, level, depth - 1));
}

}  // namespace

RunResult run(Watchdog& dog, std::vector<double> q, const Jog& jog, const std::vector<double>& lower,
              const std::vector<double>& upper, const Controller& ctl, testing::Rng& rng,
              const IndependentRobot& robot, const std::vector<Obstacle>& obstacles, double exact_below,
              double stop_distance) {
  RunResult r;
  const std::size_t dof = q.size();
  std::vector<std::vector<Vec3>> elements;
  robot.element_vertices(q, elements);
  std::vector<double> velocity(dof, 0.0);
  double clearance = robot.clearance(elements, obstacles, exact_below, &r.lowest_obstacle);
  r.start_clearance = r.lowest = r.lowest_between = clearance;
  const bool ended_at_start = !jog(q, velocity);
  std::vector<double> reach = robot.reaches(q, elements, velocity);
  r.speed_bound = speed_of(velocity, reach);
  double t = 0.0, last_sample = 0.0;
  double latest = 1.0;  // the last answer received (full speed before the first)
  for (;; ++r.ticks) {
    // The tick's sample reaches the watchdog, or is lost (never the first).
    const bool delivered = r.ticks == 0 || rng.uniform(0.0, 1.0) >= ctl.drop;
    const double before = latest;
    if (delivered) {
      const WatchdogState s = dog.update({t, q});
      if (r.samples == 0) r.first = s;
      ++r.samples;
      r.last = s;
      r.longest_interval = std::max(r.longest_interval, t - last_sample);
      last_sample = t;
      latest = s.speed_factor;
    } else {
      ++r.dropped;
    }
    const double applied = ctl.delay == 0 ? latest : before;
    // Stopped: a stop in force and answered again for a robot the
    // predictor reads as standing still (the answer can no longer change
    // while nothing moves). A stop the prediction called while the robot
    // still read as moving may be lifted on the next samples.
    if (delivered && applied == 0.0 && r.last.speed_factor == 0.0 && r.last.model == MotionModel::stationary) {
      r.stopped = true;
      break;
    }
    if (t > ctl.give_up) {
      r.gave_up = true;
      break;
    }
    // A jog that cannot start ends the motion unless the first answer stopped it.
    if (ended_at_start) {
      r.jog_ended = true;
      break;
    }
    const double dt = ctl.period * (1.0 + ctl.jitter * rng.uniform(-1.0, 1.0));
    // The velocities of this step (a Cartesian jog's change with q): the
    // reaches at its start for them.
    if (r.ticks > 0) {
      const std::vector<double> before_velocity = velocity;
      if (!jog(q, velocity)) {
        r.jog_ended = true;
        break;
      }
      if (velocity != before_velocity) reach = robot.reaches(q, elements, velocity);
    }
    bool limit = false;
    const std::vector<double> from = q;
    for (std::size_t j = 0; j < dof; ++j) {
      q[j] += velocity[j] * applied * dt;
      if (q[j] <= lower[j] || q[j] >= upper[j]) {
        q[j] = std::clamp(q[j], lower[j], upper[j]);
        limit = true;
      }
    }
    t += dt;
    robot.element_vertices(q, elements);
    const std::vector<double> next_reach = robot.reaches(q, elements, velocity);
    // The reaches along the step: the larger end's, padded by how far a
    // point can move relative to a joint's axis within the step (the
    // joints below it turning: at most the whole speed bound times dt).
    std::vector<double> step_reach(dof);
    for (std::size_t j = 0; j < dof; ++j) step_reach[j] = std::max(reach[j], next_reach[j]);
    const double base_speed = speed_of(velocity, step_reach);
    double joint_speed = 0.0;
    for (const double v : velocity) joint_speed += std::abs(v);
    const double v_step = base_speed * (1.0 + applied * dt * joint_speed);
    if (applied > 0.0) r.speed_bound = std::max(r.speed_bound, v_step);
    reach = next_reach;
    int near = -1;
    const double next = robot.clearance(elements, obstacles, exact_below, &near);
    if (next < r.lowest) {
      r.lowest = next;
      r.lowest_obstacle = near;
    }
    // Between the two ends: each falls at most applied·v_step per second.
    // What it has to clear: contact, and the guarantee's bound with the V
    // and T so far (they only grow, so the run's final bound is lower).
    const double level = std::max(0.0, stop_distance - (1 + ctl.delay) * r.speed_bound * r.longest_interval);
    r.lowest_between = std::min(r.lowest_between, segment_low(robot, obstacles, exact_below, from, q, clearance, next,
                                                              applied * v_step * dt, level, 10));
    clearance = next;
    if (limit) {
      r.at_limit = true;
      break;
    }
  }
  r.final_clearance = clearance;
  r.time = t;
  r.q = q;
  if (r.stopped) r.held = stop_holds(dog, t, ctl.period, q);
  return r;
}

}  // namespace proxima::robot::closed_loop
