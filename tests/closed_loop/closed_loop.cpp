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
  Obstacle o{name, {}, {}, corner - radius};
  for (int k = 0; k < n; ++k) {
    const double a = (k + 0.5) * step;
    for (const double z : {-0.5 * length, 0.5 * length})
      o.vertices.push_back(pose.apply(Vec3(corner * std::cos(a), corner * std::sin(a), z)));
  }
  for (int k = 0; k < n / 2; ++k) o.axes.push_back(pose.R * Vec3(std::cos(k * step), std::sin(k * step), 0.0));
  o.axes.push_back(pose.R.col(2));
  return o;
}

}  // namespace

std::vector<Obstacle> obstacles_of(const Environment& env) {
  std::vector<Obstacle> out;
  for (const EnvironmentObject& e : env.objects) {
    const Shape* s = std::get_if<Shape>(&e.geometry);
    if (s == nullptr || s->margin() != 0.0 || (s->type() != ShapeType::box && s->type() != ShapeType::cylinder))
      throw std::invalid_argument(e.name + ": the closed-loop judge takes boxes and cylinders without margin only");
    if (s->type() == ShapeType::box) {
      out.push_back({e.name, box_corners(e.pose, s->as<Box>().half_extents()),
                     {e.pose.R.col(0), e.pose.R.col(1), e.pose.R.col(2)}, 0.0});
    } else {
      const Cylinder& c = s->as<Cylinder>();
      out.push_back(cylinder_prism(e.name, e.pose, c.radius(), c.length()));
    }
  }
  return out;
}

double face_axis_bound(const std::vector<Vec3>& v, const Obstacle& o) {
  double bound = -kInf;
  for (const Vec3& n : o.axes) {
    double lo = kInf, hi = -kInf, olo = kInf, ohi = -kInf;
    for (const Vec3& p : v) {
      const double s = n.dot(p);
      lo = std::min(lo, s);
      hi = std::max(hi, s);
    }
    for (const Vec3& p : o.vertices) {
      const double s = n.dot(p);
      olo = std::min(olo, s);
      ohi = std::max(ohi, s);
    }
    bound = std::max({bound, lo - ohi, olo - hi});
  }
  return bound;
}

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
  // Every pair's cheap bound first; then the oracle for pairs in increasing
  // bound, while the bound is below both exact_below and the smallest
  // distance found (a pair whose bound is not can only tie it).
  struct Pair {
    double bound;
    std::size_t element, obstacle;
  };
  std::vector<Pair> pairs;
  pairs.reserve(elements.size() * obstacles.size());
  for (std::size_t o = 0; o < obstacles.size(); ++o)
    for (std::size_t e = 0; e < elements.size(); ++e) pairs.push_back({face_axis_bound(elements[e], obstacles[o]), e, o});
  std::sort(pairs.begin(), pairs.end(), [](const Pair& a, const Pair& b) { return a.bound < b.bound; });
  double d = kInf;
  int near = -1;
  for (const Pair& p : pairs) {
    if (p.bound >= d) break;
    double value = p.bound;
    if (p.bound < exact_below) {
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
                                              const std::vector<std::vector<Vec3>>& elements) const {
  const RobotModel& m = checker_->model();
  const std::vector<Transform> links = forward_kinematics(m, q);
  std::vector<double> out(m.variable_count(), 0.0);
  // A variable drives its joint and the joints that mimic it: a point moves
  // no faster than the sum over them of |multiplier| × its speed per joint.
  for (std::size_t j = 0; j < m.joints().size(); ++j) {
    const Joint& jt = m.joint(static_cast<int>(j));
    if (jt.variable < 0) continue;
    double r = 0.0;
    if (jt.type == JointType::prismatic) {
      r = 1.0;
    } else {
      const Transform& frame = links[static_cast<std::size_t>(jt.child_link)];
      const Vec3 axis = (frame.R * jt.axis).normalized();
      for (std::size_t e = 0; e < elements.size(); ++e) {
        if (!moves_link_[j][static_cast<std::size_t>(element_link_[e])]) continue;
        for (const Vec3& p : elements[e]) {
          const Vec3 off = p - frame.p;
          r = std::max(r, (off - off.dot(axis) * axis).norm());
        }
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

}  // namespace

RunResult run(Watchdog& dog, std::vector<double> q, const Jog& jog, const std::vector<double>& lower,
              const std::vector<double>& upper, const Controller& ctl, testing::Rng& rng,
              const IndependentRobot& robot, const std::vector<Obstacle>& obstacles, double exact_below) {
  RunResult r;
  const std::size_t dof = q.size();
  std::vector<std::vector<Vec3>> elements;
  robot.element_vertices(q, elements);
  std::vector<double> reach = robot.reaches(q, elements), velocity(dof, 0.0);
  double clearance = robot.clearance(elements, obstacles, exact_below, &r.lowest_obstacle);
  r.start_clearance = r.lowest = r.lowest_between = clearance;
  jog(q, velocity);
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
    const double dt = ctl.period * (1.0 + ctl.jitter * rng.uniform(-1.0, 1.0));
    jog(q, velocity);
    bool limit = false;
    for (std::size_t j = 0; j < dof; ++j) {
      q[j] += velocity[j] * applied * dt;
      if (q[j] <= lower[j] || q[j] >= upper[j]) {
        q[j] = std::clamp(q[j], lower[j], upper[j]);
        limit = true;
      }
    }
    t += dt;
    robot.element_vertices(q, elements);
    const std::vector<double> next_reach = robot.reaches(q, elements);
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
    r.lowest_between = std::min({r.lowest_between, next, 0.5 * (clearance + next - applied * v_step * dt)});
    clearance = next;
    if (limit) {
      r.at_limit = true;
      break;
    }
  }
  r.final_clearance = clearance;
  r.time = t;
  r.q = q;
  if (r.stopped) {
    // Standing still at the stop, it stays a stop.
    for (int k = 1; k <= 3; ++k) r.held &= dog.update({t + k * ctl.period, q}).speed_factor == 0.0;
  }
  return r;
}

}  // namespace proxima::robot::closed_loop
