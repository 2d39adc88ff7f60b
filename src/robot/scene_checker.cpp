// SPDX-License-Identifier: BSD-3-Clause
#include <proxima/robot/scene_checker.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>

#include <proxima/broad/obb.hpp>
#include <proxima/robot/kinematics.hpp>
#include <proxima/robot/sphere_prefilter.hpp>

#include "fk_step.hpp"
#include "pair_query.hpp"
#include "pair_verdicts.hpp"
#include "sweep_bounds.hpp"

namespace proxima::robot {

using broad::box_gap;
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
    : geometry_(std::move(geometry)), acm_(std::move(acm)), prefilter_(std::make_shared<PrefilterSlot>()) {
  const int n = static_cast<int>(model().links().size());
  if (acm_.size() != static_cast<std::size_t>(n))
    throw Error("scene checker: allowed-collision matrix has " + std::to_string(acm_.size()) + " links, robot '" +
                model().name() + "' has " + std::to_string(n));
  for (int a = 0; a < n; ++a)
    for (int b = a + 1; b < n; ++b)
      if (geometry_.has_geometry(a) && geometry_.has_geometry(b) && !acm_.allowed(a, b)) self_pairs_.emplace_back(a, b);
  sweep_ = std::make_shared<const detail::SweepGeometry>(detail::sweep_geometry(geometry_));
  // What state() needs of each shape, packed: LinkShape also holds the
  // geometry itself and its source, which state() never reads.
  for (std::size_t i = 0; i < static_cast<std::size_t>(n); ++i) {
    shape_begin_.push_back(placements_.size());
    for (const LinkShape& shape : geometry_.links()[i].shapes) {
      Placement pl;
      pl.link = i;
      pl.origin = shape.origin;
      pl.at_link_origin = shape.origin.R == Mat3::Identity() && shape.origin.p == Vec3::Zero();
      pl.local_box = shape.local_aabb();
      pl.center = pl.local_box.center();
      pl.half = pl.local_box.half_extents();
      pl.bounded = detail::bounded(pl.local_box);
      placements_.push_back(pl);
    }
  }
  shape_begin_.push_back(placements_.size());
  // Each link's chain from the root, step by step in topological order.
  const std::vector<detail::FkStep>& steps = model().fk_steps();
  if (n <= 64) {
    link_steps_.assign(static_cast<std::size_t>(n), 0);
    for (std::size_t k = 0; k < steps.size(); ++k)
      link_steps_[static_cast<std::size_t>(steps[k].child)] =
          link_steps_[static_cast<std::size_t>(steps[k].parent)] | std::uint64_t{1} << k;
  }
}

RobotState SceneChecker::state(std::span<const double> q, const Transform& base) const {
  RobotState s;
  state(q, base, s);
  return s;
}

// Inlined by force: state() places every shape of every row.
inline PROXIMA_HOT_INLINE bool SceneChecker::place_shape(std::size_t k, RobotState& s) const {
  const Placement& pl = placements_[k];
  const Transform& link = s.link_poses[pl.link];
  Transform& pose = s.shape_poses[k];
  if (pl.at_link_origin) {
    pose = link;
  } else {
    pose.R.noalias() = link.R * pl.origin.R;
    pose.p.noalias() = link.R * pl.origin.p;
    pose.p += link.p;
  }
  // Aabb::transformed's |R| h rule on the box kept from construction.
  Aabb& box = s.shape_boxes[k];
  if (pl.bounded) {
    const Vec3 c = pose.apply(pl.center);
    const Vec3 e = pose.R.cwiseAbs() * pl.half;
    box.min = c - e;
    box.max = c + e;
  } else {
    box = pl.local_box.transformed(pose);
  }
  s.link_boxes[pl.link].extend(box);
  // Far-out joint values can place a link beyond what the queries accept.
  return pose.is_valid();
}

void SceneChecker::state(std::span<const double> q, const Transform& base, RobotState& s) const {
  s.status = Status::ok;
  s.message.clear();
  // An unusable input leaves the state empty. A usable one overwrites every
  // entry in place: clearing first would construct every pose anew, which
  // cost as much as the rest of this function.
  auto refuse = [&s](std::string message) {
    s.status = Status::invalid_input;
    s.message = std::move(message);
    s.link_poses.clear();
    s.link_boxes.clear();
    s.shape_begin.clear();
    s.shape_poses.clear();
    s.shape_boxes.clear();
  };
  if (auto err = joint_vector_error(model(), q)) return refuse(std::move(*err));
  if (!base.is_valid()) return refuse("robot '" + model().name() + "': base pose is not finite");
  forward_kinematics(model(), q, base, s.link_poses);
  const std::size_t n = s.link_poses.size(), m = placements_.size();
  s.link_boxes.assign(n, Aabb{});
  s.shape_begin = shape_begin_;
  s.shape_poses.resize(m);
  s.shape_boxes.resize(m);
  bool valid = true;
  for (std::size_t k = 0; k < m; ++k) valid &= place_shape(k, s);
  if (!valid) {
    s.status = Status::invalid_input;
    s.message = "robot '" + model().name() + "': a link pose is out of range";
  }
}

void SceneChecker::state_of(std::span<const double> q, const Transform& base, std::uint64_t links,
                            RobotState& s) const {
  s.status = Status::ok;
  s.message.clear();
  const std::size_t n = model().links().size(), m = placements_.size();
  if (n < 64 && links >> n != 0)
    throw Error("links: bit " + std::to_string(std::countr_zero(links >> n) + static_cast<int>(n)) +
                " names no link of robot '" + model().name() + "' (" + std::to_string(n) + " links)");
  // state() words the refusal of a bad q or base; it also serves a robot
  // too large for the masks.
  if (link_steps_.empty() || joint_vector_error(model(), q) || !base.is_valid()) return state(q, base, s);
  // The steps on the chains of the links asked for: each pose is the one
  // state() makes, by the same function on the same parent poses.
  std::uint64_t steps = 0;
  for (std::uint64_t b = links; b; b &= b - 1) steps |= link_steps_[static_cast<std::size_t>(std::countr_zero(b))];
  s.link_poses.resize(n);
  s.link_poses[static_cast<std::size_t>(model().root_link())] = base;
  detail::run_fk_steps<false>(model().fk_steps(), q, steps, s.link_poses);
  s.link_boxes.resize(n);
  s.shape_begin = shape_begin_;
  s.shape_poses.resize(m);
  s.shape_boxes.resize(m);
  bool valid = true;
  for (std::uint64_t b = links; b; b &= b - 1) {
    const auto l = static_cast<std::size_t>(std::countr_zero(b));
    s.link_boxes[l] = Aabb{};
    for (std::size_t k = shape_begin_[l]; k < shape_begin_[l + 1]; ++k) valid &= place_shape(k, s);
  }
  if (!valid) {
    s.status = Status::invalid_input;
    s.message = "robot '" + model().name() + "': a link pose is out of range";
  }
}

std::optional<std::string> SceneChecker::touch_error(const EnvironmentObject& o) const {
  for (const std::string& link : o.touch_links)
    if (model().link_index(link) < 0)
      return "environment object '" + o.name + "': touch link '" + link + "' is not a link of robot '" +
             model().name() + "'";
  return std::nullopt;
}

std::optional<std::string> SceneChecker::touch_error(const Environment& env) const {
  for (const EnvironmentObject& o : env.objects)
    if (auto err = touch_error(o)) return err;
  return std::nullopt;
}

std::optional<std::string> SceneChecker::touch_error(const PreparedEnvironment& env) const {
  for (const std::uint32_t i : env.with_touch_links())
    if (auto err = touch_error(env.objects()[i])) return err;
  return std::nullopt;
}

bool SceneChecker::touch_allowed(std::size_t link, const EnvironmentObject& object) const {
  if (object.touch_links.empty()) return false;
  const std::string& name = model().links()[link].name;
  return std::find(object.touch_links.begin(), object.touch_links.end(), name) != object.touch_links.end();
}

namespace {

bool object_obb(const EnvironmentObject& o, broad::Obb& out) {
  const Aabb local = detail::local_box(o.geometry);
  if (!detail::bounded(local)) return false;
  out = broad::Obb::placed(local, o.pose);
  return true;
}

}  // namespace

double SceneChecker::shapes_gap(const RobotState& s, std::size_t k, std::size_t other) const {
  const Placement &a = placements_[k], &b = placements_[other];
  if (!a.bounded || !b.bounded) return -std::numeric_limits<double>::infinity();
  const Transform &pa = s.shape_poses[k], &pb = s.shape_poses[other];
  return broad::obb_gap_bound({pa.apply(a.center), pa.R, a.half}, {pb.apply(b.center), pb.R, b.half});
}

double SceneChecker::shape_gap(const RobotState& s, std::size_t k, const EnvironmentObject& object) const {
  const Placement& a = placements_[k];
  broad::Obb b;
  if (!a.bounded || !object_obb(object, b)) return -std::numeric_limits<double>::infinity();
  const Transform& pa = s.shape_poses[k];
  return broad::obb_gap_bound({pa.apply(a.center), pa.R, a.half}, b);
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
        if (!s.shape_boxes[i].overlaps(s.shape_boxes[j]) || shapes_gap(s, i, j) > 0.0) continue;
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
  if (auto err = touch_error(env)) return invalid<CollisionReport>(*err);
  return collision_near(s, env.objects, broad::BoxTree::flat(object_boxes(env)));
}

CollisionReport SceneChecker::environment_collision(const RobotState& s, const PreparedEnvironment& env) const {
  if (s.status != Status::ok) return invalid<CollisionReport>(s.message);
  if (auto err = touch_error(env)) return invalid<CollisionReport>(*err);
  return collision_near(s, env.objects(), env.index());
}

namespace {

// The objects whose boxes are within `gap` of `box`, in index order (the
// order the reports list them in, whatever the index's own).
void objects_near(const broad::BoxTree& index, const Aabb& box, double gap, std::vector<std::size_t>& out) {
  out.clear();
  index.near(box, gap, [&](std::size_t o) { out.push_back(o); });
  std::sort(out.begin(), out.end());
}

}  // namespace

CollisionReport SceneChecker::collision_near(const RobotState& s, const std::vector<EnvironmentObject>& objects,
                                             const broad::BoxTree& index) const {
  CollisionReport r;
  std::vector<std::size_t> near;
  const std::size_t n = model().links().size();
  for (std::size_t l = 0; l < n; ++l) {
    if (s.shape_begin[l] == s.shape_begin[l + 1]) continue;
    objects_near(index, s.link_boxes[l], 0.0, near);
    for (const std::size_t o : near) {
      if (touch_allowed(l, objects[o])) continue;
      bool hit = false;
      for (std::size_t i = s.shape_begin[l]; i < s.shape_begin[l + 1] && !hit; ++i) {
        if (!s.shape_boxes[i].overlaps(index.box(o)) || shape_gap(s, i, objects[o]) > 0.0) continue;
        const detail::PairCollide c = detail::collide_pair(geometry_.links()[l].shapes[i - s.shape_begin[l]].geometry,
                                                           s.shape_poses[i], objects[o].geometry, objects[o].pose);
        note(r.status, c.status);
        hit = c.collide;
      }
      if (hit) r.pairs.push_back({static_cast<int>(l), static_cast<int>(o), model().links()[l].name, objects[o].name});
    }
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
        cand.push_back({box_gap(s.shape_boxes[i], s.shape_boxes[j]), i, j, a, b});
  }
  std::sort(cand.begin(), cand.end(), [](const Candidate& x, const Candidate& y) { return x.gap < y.gap; });
  DistanceReport r;
  for (const Candidate& c : cand) {
    if (r.found && c.gap >= r.distance) break;
    if (r.found && shapes_gap(s, c.i, c.j) >= r.distance) continue;
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
  if (auto err = touch_error(env)) return invalid<DistanceReport>(*err);
  return distance_near(s, env.objects, broad::BoxTree::flat(object_boxes(env)));
}

DistanceReport SceneChecker::environment_distance(const RobotState& s, const PreparedEnvironment& env) const {
  if (s.status != Status::ok) return invalid<DistanceReport>(s.message);
  if (auto err = touch_error(env)) return invalid<DistanceReport>(*err);
  return distance_near(s, env.objects(), env.index());
}

namespace {

// A robot shape against a node of the object index (or one object), keyed
// by the gap between their boxes: a lower bound on the distance of any
// object below.
constexpr std::uint32_t kObjectDepth = ~std::uint32_t{0};

struct NearItem {
  double gap;
  std::uint32_t shape;
  std::uint32_t at;     // a node, or an object when depth is kObjectDepth
  std::uint32_t depth;  // objects: kObjectDepth, deeper than every node
  bool object() const { return depth == kObjectDepth; }
  // Nearest first; among equal gaps (the zero gaps of overlapping boxes in
  // a dense scene) objects, then deeper nodes: down to an object and its
  // distance, which may end the search, before opening more nodes.
  bool operator>(const NearItem& o) const { return gap > o.gap || (gap == o.gap && depth < o.depth); }
};

}  // namespace

DistanceReport SceneChecker::distance_near(const RobotState& s, const std::vector<EnvironmentObject>& objects,
                                           const broad::BoxTree& index) const {
  // Best first over (shape, node) pairs, nearest boxes first: a node's box
  // holds its objects', so its gap is a lower bound for all of them, and
  // once the nearest pending gap reaches the best distance found, nothing
  // pending can beat it. With a flat index this is the shape × object
  // pairs in order of their boxes' gaps.
  std::vector<NearItem> heap;
  const std::vector<broad::BoxTree::Node>& nodes = index.nodes();
  const auto push = [&](double gap, std::size_t shape, std::size_t at, std::uint32_t depth) {
    heap.push_back({gap, static_cast<std::uint32_t>(shape), static_cast<std::uint32_t>(at), depth});
    std::push_heap(heap.begin(), heap.end(), std::greater<>());
  };
  heap.reserve(4 * s.shape_boxes.size() + 16);
  for (std::size_t i = 0; i < s.shape_boxes.size(); ++i) {
    for (const std::uint32_t o : index.unbounded())
      push(broad::box_gap(s.shape_boxes[i], index.box(o)), i, o, kObjectDepth);
    if (!nodes.empty()) push(broad::box_gap(s.shape_boxes[i], nodes[0].box), i, 0, 0);
  }
  DistanceReport r;
  while (!heap.empty()) {
    std::pop_heap(heap.begin(), heap.end(), std::greater<>());
    const NearItem c = heap.back();
    heap.pop_back();
    if (r.found && c.gap >= r.distance) break;
    if (!c.object()) {
      const broad::BoxTree::Node& n = nodes[c.at];
      if (n.leaf()) {
        for (std::uint32_t k = n.first; k < n.first + n.count; ++k) {
          const std::uint32_t o = index.order()[k];
          push(broad::box_gap(s.shape_boxes[c.shape], index.box(o)), c.shape, o, kObjectDepth);
        }
      } else {
        push(broad::box_gap(s.shape_boxes[c.shape], nodes[n.child].box), c.shape, n.child, c.depth + 1);
        push(broad::box_gap(s.shape_boxes[c.shape], nodes[n.child + 1].box), c.shape, n.child + 1, c.depth + 1);
      }
      continue;
    }
    // The link of shape c.shape: the last whose shapes begin at or before it.
    const auto link = static_cast<std::size_t>(
        std::upper_bound(s.shape_begin.begin(), s.shape_begin.end(), std::size_t{c.shape}) - s.shape_begin.begin() - 1);
    const EnvironmentObject& obj = objects[c.at];
    if (touch_allowed(link, obj) || (r.found && shape_gap(s, c.shape, obj) >= r.distance)) continue;
    const detail::PairDistance d =
        detail::distance_pair(geometry_.links()[link].shapes[c.shape - s.shape_begin[link]].geometry,
                              s.shape_poses[c.shape], obj.geometry, obj.pose, r.distance);
    note(r.status, d.status);
    if (d.distance < r.distance) {
      r.found = true;
      r.distance = d.distance;
      r.pair = {static_cast<int>(link), static_cast<int>(c.at), model().links()[link].name, obj.name};
      r.point_link = d.point_a;
      r.point_other = d.point_b;
      if (r.distance <= 0.0) break;  // touching: nothing is nearer
    }
  }
  return r;
}

ToleranceReport SceneChecker::tolerance(const RobotState& s, const Environment& env, double t) const {
  if (s.status != Status::ok) return invalid<ToleranceReport>(s.message);
  if (auto err = environment_error(env)) return invalid<ToleranceReport>(*err);
  if (auto err = touch_error(env)) return invalid<ToleranceReport>(*err);
  return tolerance_near(s, env.objects, broad::BoxTree::flat(object_boxes(env)), t);
}

ToleranceReport SceneChecker::tolerance(const RobotState& s, const PreparedEnvironment& env, double t) const {
  if (s.status != Status::ok) return invalid<ToleranceReport>(s.message);
  if (auto err = touch_error(env)) return invalid<ToleranceReport>(*err);
  return tolerance_near(s, env.objects(), env.index(), t);
}

bool SceneChecker::valid_tolerance(double t) { return std::isfinite(t) && t >= 0.0 && t <= kMaxLength; }

bool SceneChecker::self_pair_within(const RobotState& s, std::size_t k, double t, ToleranceReport& r) const {
  const auto [a, b] = self_pairs_[k];
  const auto ua = static_cast<std::size_t>(a), ub = static_cast<std::size_t>(b);
  if (box_gap(s.link_boxes[ua], s.link_boxes[ub]) > t) return false;
  for (std::size_t i = s.shape_begin[ua]; i < s.shape_begin[ua + 1]; ++i)
    for (std::size_t j = s.shape_begin[ub]; j < s.shape_begin[ub + 1]; ++j) {
      if (box_gap(s.shape_boxes[i], s.shape_boxes[j]) > t || shapes_gap(s, i, j) > t) continue;
      Status st = Status::ok;
      const bool in = detail::within_pair(geometry_.link(a).shapes[i - s.shape_begin[ua]].geometry, s.shape_poses[i],
                                          geometry_.link(b).shapes[j - s.shape_begin[ub]].geometry, s.shape_poses[j],
                                          t, st);
      note(r.status, st);
      if (in) {
        r.within = true;
        r.self = true;
        r.pair.link = a;
        r.pair.other = b;
        return true;
      }
    }
  return false;
}

bool SceneChecker::object_pair_within(const RobotState& s, std::size_t l, std::size_t o,
                                      const std::vector<EnvironmentObject>& objects, const broad::BoxTree& index,
                                      double t, ToleranceReport& r) const {
  const EnvironmentObject& obj = objects[o];
  for (std::size_t i = s.shape_begin[l]; i < s.shape_begin[l + 1]; ++i) {
    if (box_gap(s.shape_boxes[i], index.box(o)) > t || shape_gap(s, i, obj) > t) continue;
    Status st = Status::ok;
    const bool in = detail::within_pair(geometry_.links()[l].shapes[i - s.shape_begin[l]].geometry, s.shape_poses[i],
                                        obj.geometry, obj.pose, t, st);
    note(r.status, st);
    if (in) {
      r.within = true;
      r.pair.link = static_cast<int>(l);
      r.pair.other = static_cast<int>(o);
      return true;
    }
  }
  return false;
}

void SceneChecker::name_pair(ToleranceReport& r, const std::vector<EnvironmentObject>& objects) const {
  if (!r.within) return;
  r.pair.link_name = model().links()[static_cast<std::size_t>(r.pair.link)].name;
  r.pair.other_name = r.self ? model().links()[static_cast<std::size_t>(r.pair.other)].name
                             : objects[static_cast<std::size_t>(r.pair.other)].name;
}

ToleranceReport SceneChecker::tolerance_near(const RobotState& s, const std::vector<EnvironmentObject>& objects,
                                             const broad::BoxTree& index, double t) const {
  if (!valid_tolerance(t))
    return invalid<ToleranceReport>("tolerance " + std::to_string(t) + " must be finite and >= 0");
  ToleranceReport r;
  // Self pairs first, then the environment; the first pair within t ends it.
  const auto named = [&]() -> ToleranceReport& {
    name_pair(r, objects);
    return r;
  };
  for (std::size_t k = 0; k < self_pairs_.size(); ++k)
    if (self_pair_within(s, k, t, r)) return named();
  std::vector<std::size_t> near;
  const std::size_t n = model().links().size();
  for (std::size_t l = 0; l < n; ++l) {
    if (s.shape_begin[l] == s.shape_begin[l + 1]) continue;
    objects_near(index, s.link_boxes[l], t, near);
    for (const std::size_t o : near)
      if (!touch_allowed(l, objects[o]) && object_pair_within(s, l, o, objects, index, t, r)) return named();
  }
  return r;
}

ToleranceReport SceneChecker::tolerance_known(std::span<const double> q, const Transform& base,
                                              const PreparedEnvironment& env, double t,
                                              detail::PairVerdicts known, bool in_range, bool any_pair,
                                              bool names, RobotState& s) const {
  // tolerance_near's walk restricted to the pairs not proven apart, in the
  // same order: the first within is the answer, and the state and the
  // narrow phase are made only for the open ones. A link–object pair whose
  // boxes are beyond t is one objects_near leaves out.
  ToleranceReport r;
  const auto named = [&]() -> ToleranceReport& {
    if (names) name_pair(r, env.objects());
    return r;
  };
  const auto proven_within = [&](const detail::KnownPair& p) -> ToleranceReport& {
    r.within = true;
    r.self = p.self;
    if (p.self) {
      r.pair.link = self_pairs_[p.first].first;
      r.pair.other = self_pairs_[p.first].second;
    } else {
      r.pair.link = static_cast<int>(p.first);
      r.pair.other = static_cast<int>(p.second);
    }
    return named();
  };
  // In range, the state the walk would make cannot refuse the row (the
  // prefilter lists every pair open otherwise): a pair proven within, the
  // list's last when there is one, is the answer whatever is open before it.
  if (any_pair && in_range && !known.empty() && known.back().verdict == detail::Verdict::within)
    return proven_within(known.back());
  bool have_state = false;
  for (const detail::KnownPair& p : known) {
    if (p.verdict == detail::Verdict::within) return proven_within(p);
    if (!have_state) {
      // Only the links of the pairs left to walk, when that is exact: in
      // range, no pose of another link can be out of range (and refuse
      // the row) either, and the links' poses are state()'s bit for bit.
      if (in_range && !link_steps_.empty()) {
        std::uint64_t links = 0;
        for (const detail::KnownPair* o = &p; o != known.data() + known.size(); ++o) {
          if (o->verdict == detail::Verdict::within) break;
          if (o->self) {
            const auto [a, b] = self_pairs_[o->first];
            links |= std::uint64_t{1} << a | std::uint64_t{1} << b;
          } else {
            links |= std::uint64_t{1} << o->first;
          }
        }
        state_of(q, base, links, s);
      } else {
        state(q, base, s);
      }
      if (s.status != Status::ok) return invalid<ToleranceReport>(s.message);
      have_state = true;
    }
    if (p.self ? self_pair_within(s, p.first, t, r)
               : box_gap(s.link_boxes[p.first], env.index().box(p.second)) <= t &&
                     object_pair_within(s, p.first, p.second, env.objects(), env.index(), t, r))
      return named();
  }
  return r;
}

}  // namespace proxima::robot
