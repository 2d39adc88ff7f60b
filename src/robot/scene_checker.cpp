#include <proxima/robot/scene_checker.hpp>

#include <algorithm>
#include <cmath>

#include <proxima/robot/kinematics.hpp>

#include "pair_query.hpp"
#include "sweep_bounds.hpp"

namespace proxima::robot {

using detail::aabb_gap;
using detail::environment_error;
using detail::object_boxes;

namespace {

// Keeps the first status that is not ok: the report says something went
// wrong somewhere while the other pairs are still answered.
void note(Status& into, Status s) {
  if (into == Status::ok) into = s;
}

// A report for an unusable state, environment or tolerance.
template <class Report>
Report invalid(std::string message) {
  Report r;
  r.status = Status::invalid_input;
  r.message = std::move(message);
  return r;
}

}  // namespace

SceneChecker::SceneChecker(RobotGeometry geometry, AllowedCollisionMatrix acm)
    : geometry_(std::move(geometry)), acm_(std::move(acm)) {
  const int n = static_cast<int>(model().links().size());
  if (acm_.size() != static_cast<std::size_t>(n))
    throw Error("scene checker: allowed-collision matrix has " + std::to_string(acm_.size()) + " links, robot '" +
                model().name() + "' has " + std::to_string(n));
  for (int a = 0; a < n; ++a)
    for (int b = a + 1; b < n; ++b)
      if (geometry_.has_geometry(a) && geometry_.has_geometry(b) && !acm_.allowed(a, b)) self_pairs_.emplace_back(a, b);
  sweep_ = std::make_shared<const detail::SweepGeometry>(detail::sweep_geometry(geometry_));
}

RobotState SceneChecker::state(std::span<const double> q, const Transform& base) const {
  RobotState s;
  state(q, base, s);
  return s;
}

void SceneChecker::state(std::span<const double> q, const Transform& base, RobotState& s) const {
  s.status = Status::ok;
  s.message.clear();
  s.link_poses.clear();
  s.link_boxes.clear();
  s.shape_begin.clear();
  s.shape_poses.clear();
  s.shape_boxes.clear();
  if (auto err = joint_vector_error(model(), q)) {
    s.status = Status::invalid_input;
    s.message = *err;
    return;
  }
  if (!base.is_valid()) {
    s.status = Status::invalid_input;
    s.message = "robot '" + model().name() + "': base pose is not finite";
    return;
  }
  forward_kinematics(model(), q, base, s.link_poses);
  const std::size_t n = s.link_poses.size();
  s.link_boxes.assign(n, Aabb{});
  s.shape_begin.assign(n + 1, 0);
  for (std::size_t i = 0; i < n; ++i) {
    s.shape_begin[i] = s.shape_poses.size();
    for (const LinkShape& shape : geometry_.links()[i].shapes) {
      const Transform pose = s.link_poses[i] * shape.origin;
      const Aabb box = shape.local_aabb().transformed(pose);
      s.shape_poses.push_back(pose);
      s.shape_boxes.push_back(box);
      s.link_boxes[i].extend(box);
    }
  }
  s.shape_begin[n] = s.shape_poses.size();
  // Far-out joint values can place a link beyond what the queries accept.
  for (std::size_t i = 0; i < s.shape_poses.size(); ++i)
    if (!s.shape_poses[i].is_valid()) {
      s.status = Status::invalid_input;
      s.message = "robot '" + model().name() + "': a link pose is out of range";
      break;
    }
}

CollisionReport SceneChecker::self_collision(const RobotState& s) const {
  if (s.status != Status::ok) return invalid<CollisionReport>(s.message);
  CollisionReport r;
  for (const auto& [a, b] : self_pairs_) {
    const auto ua = static_cast<std::size_t>(a), ub = static_cast<std::size_t>(b);
    if (!s.link_boxes[ua].overlaps(s.link_boxes[ub])) continue;
    bool hit = false;
    for (std::size_t i = s.shape_begin[ua]; i < s.shape_begin[ua + 1] && !hit; ++i)
      for (std::size_t j = s.shape_begin[ub]; j < s.shape_begin[ub + 1] && !hit; ++j) {
        if (!s.shape_boxes[i].overlaps(s.shape_boxes[j])) continue;
        const detail::PairCollide c =
            detail::collide_pair(geometry_.link(a).shapes[i - s.shape_begin[ua]].geometry, s.shape_poses[i],
                                 geometry_.link(b).shapes[j - s.shape_begin[ub]].geometry, s.shape_poses[j]);
        note(r.status, c.status);
        hit = c.collide;
      }
    if (hit) r.pairs.push_back({a, b, model().link(a).name, model().link(b).name});
  }
  return r;
}

CollisionReport SceneChecker::environment_collision(const RobotState& s, const Environment& env) const {
  if (s.status != Status::ok) return invalid<CollisionReport>(s.message);
  if (auto err = environment_error(env)) return invalid<CollisionReport>(*err);
  CollisionReport r;
  const std::vector<Aabb> boxes = object_boxes(env);
  const std::size_t n = model().links().size();
  for (std::size_t l = 0; l < n; ++l)
    for (std::size_t o = 0; o < env.objects.size(); ++o) {
      if (!s.link_boxes[l].overlaps(boxes[o])) continue;
      bool hit = false;
      for (std::size_t i = s.shape_begin[l]; i < s.shape_begin[l + 1] && !hit; ++i) {
        if (!s.shape_boxes[i].overlaps(boxes[o])) continue;
        const detail::PairCollide c = detail::collide_pair(geometry_.links()[l].shapes[i - s.shape_begin[l]].geometry,
                                                           s.shape_poses[i], env.objects[o].geometry, env.objects[o].pose);
        note(r.status, c.status);
        hit = c.collide;
      }
      if (hit)
        r.pairs.push_back({static_cast<int>(l), static_cast<int>(o), model().links()[l].name, env.objects[o].name});
    }
  return r;
}

namespace {

// One candidate of a distance query: a robot shape (flat index i into the
// state) and another robot shape or an object (j), their links or link and
// object, and the gap between their AABBs.
struct Candidate {
  double gap;
  std::size_t i, j;
  int link, other;
};

}  // namespace

DistanceReport SceneChecker::self_distance(const RobotState& s) const {
  if (s.status != Status::ok) return invalid<DistanceReport>(s.message);
  // Shape pairs nearest first by AABB gap: once the gap reaches the best
  // distance found, no later pair can beat it.
  std::vector<Candidate> cand;
  for (const auto& [a, b] : self_pairs_) {
    const auto ua = static_cast<std::size_t>(a), ub = static_cast<std::size_t>(b);
    for (std::size_t i = s.shape_begin[ua]; i < s.shape_begin[ua + 1]; ++i)
      for (std::size_t j = s.shape_begin[ub]; j < s.shape_begin[ub + 1]; ++j)
        cand.push_back({aabb_gap(s.shape_boxes[i], s.shape_boxes[j]), i, j, a, b});
  }
  std::sort(cand.begin(), cand.end(), [](const Candidate& x, const Candidate& y) { return x.gap < y.gap; });
  DistanceReport r;
  for (const Candidate& c : cand) {
    if (r.found && c.gap >= r.distance) break;
    const auto ua = static_cast<std::size_t>(c.link), ub = static_cast<std::size_t>(c.other);
    const detail::PairDistance d = detail::distance_pair(
        geometry_.link(c.link).shapes[c.i - s.shape_begin[ua]].geometry, s.shape_poses[c.i],
        geometry_.link(c.other).shapes[c.j - s.shape_begin[ub]].geometry, s.shape_poses[c.j], r.distance);
    note(r.status, d.status);
    if (d.distance < r.distance) {
      r.found = true;
      r.distance = d.distance;
      r.pair = {c.link, c.other, model().link(c.link).name, model().link(c.other).name};
      r.point_link = d.point_a;
      r.point_other = d.point_b;
    }
  }
  return r;
}

DistanceReport SceneChecker::environment_distance(const RobotState& s, const Environment& env) const {
  if (s.status != Status::ok) return invalid<DistanceReport>(s.message);
  if (auto err = environment_error(env)) return invalid<DistanceReport>(*err);
  const std::vector<Aabb> boxes = object_boxes(env);
  std::vector<Candidate> cand;
  const std::size_t n = model().links().size();
  for (std::size_t l = 0; l < n; ++l)
    for (std::size_t i = s.shape_begin[l]; i < s.shape_begin[l + 1]; ++i)
      for (std::size_t o = 0; o < env.objects.size(); ++o)
        cand.push_back({aabb_gap(s.shape_boxes[i], boxes[o]), i, o, static_cast<int>(l), static_cast<int>(o)});
  std::sort(cand.begin(), cand.end(), [](const Candidate& x, const Candidate& y) { return x.gap < y.gap; });
  DistanceReport r;
  for (const Candidate& c : cand) {
    if (r.found && c.gap >= r.distance) break;
    const auto ul = static_cast<std::size_t>(c.link);
    const EnvironmentObject& obj = env.objects[c.j];
    const detail::PairDistance d = detail::distance_pair(geometry_.link(c.link).shapes[c.i - s.shape_begin[ul]].geometry,
                                                         s.shape_poses[c.i], obj.geometry, obj.pose, r.distance);
    note(r.status, d.status);
    if (d.distance < r.distance) {
      r.found = true;
      r.distance = d.distance;
      r.pair = {c.link, c.other, model().link(c.link).name, obj.name};
      r.point_link = d.point_a;
      r.point_other = d.point_b;
    }
  }
  return r;
}

ToleranceReport SceneChecker::tolerance(const RobotState& s, const Environment& env, double t) const {
  if (s.status != Status::ok) return invalid<ToleranceReport>(s.message);
  if (auto err = environment_error(env)) return invalid<ToleranceReport>(*err);
  if (!std::isfinite(t) || t < 0.0 || t > kMaxLength)
    return invalid<ToleranceReport>("tolerance " + std::to_string(t) + " must be finite and >= 0");
  ToleranceReport r;
  // Self pairs first, then the environment; the first pair within t ends it.
  for (const auto& [a, b] : self_pairs_) {
    const auto ua = static_cast<std::size_t>(a), ub = static_cast<std::size_t>(b);
    if (aabb_gap(s.link_boxes[ua], s.link_boxes[ub]) > t) continue;
    for (std::size_t i = s.shape_begin[ua]; i < s.shape_begin[ua + 1]; ++i)
      for (std::size_t j = s.shape_begin[ub]; j < s.shape_begin[ub + 1]; ++j) {
        if (aabb_gap(s.shape_boxes[i], s.shape_boxes[j]) > t) continue;
        Status st = Status::ok;
        const bool in = detail::within_pair(geometry_.link(a).shapes[i - s.shape_begin[ua]].geometry, s.shape_poses[i],
                                            geometry_.link(b).shapes[j - s.shape_begin[ub]].geometry, s.shape_poses[j],
                                            t, st);
        note(r.status, st);
        if (in) {
          r.within = true;
          r.self = true;
          r.pair = {a, b, model().link(a).name, model().link(b).name};
          return r;
        }
      }
  }
  const std::vector<Aabb> boxes = object_boxes(env);
  const std::size_t n = model().links().size();
  for (std::size_t l = 0; l < n; ++l)
    for (std::size_t o = 0; o < env.objects.size(); ++o) {
      if (aabb_gap(s.link_boxes[l], boxes[o]) > t) continue;
      const EnvironmentObject& obj = env.objects[o];
      for (std::size_t i = s.shape_begin[l]; i < s.shape_begin[l + 1]; ++i) {
        if (aabb_gap(s.shape_boxes[i], boxes[o]) > t) continue;
        Status st = Status::ok;
        const bool in = detail::within_pair(geometry_.links()[l].shapes[i - s.shape_begin[l]].geometry,
                                            s.shape_poses[i], obj.geometry, obj.pose, t, st);
        note(r.status, st);
        if (in) {
          r.within = true;
          r.pair = {static_cast<int>(l), static_cast<int>(o), model().links()[l].name, obj.name};
          return r;
        }
      }
    }
  return r;
}

}  // namespace proxima::robot
