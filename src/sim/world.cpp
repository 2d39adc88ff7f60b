// SPDX-License-Identifier: BSD-3-Clause
// World bookkeeping and the step's outer loop (phases timed for StepStats).
#include <chrono>
#include <cmath>

#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>

#include <proxima/sim/world.hpp>

#include "facet_contacts.hpp"

namespace proxima::sim {

const char* to_string(SolverKind s) { return s == SolverKind::lemke ? "lemke" : "pgs"; }

const char* to_string(FrictionBasis b) { return b == FrictionBasis::fixed ? "fixed" : "sliding"; }

const char* to_string(Formulation f) { return f == Formulation::peg ? "peg" : "stewart_trinkle"; }

const char* to_string(PgsOrder o) {
  return o == PgsOrder::as_found ? "as_found" : o == PgsOrder::bottom_up ? "bottom_up" : "top_down";
}

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

bool bounded(const Aabb& b) { return b.min.allFinite() && b.max.allFinite(); }

double largest_half_extent(const Aabb& b) { return b.half_extents().maxCoeff(); }

}  // namespace

int World::add(Body body) {
  if (!body.geometry) throw Error("body \"" + body.name + "\": no geometry");
  static_assert(kMaxLength == 1e15);  // the message spells it out
  if (body.kinematic) {
    if (body.is_static) throw Error("body \"" + body.name + "\": a body is static or kinematic, not both");
    try {
      body.kinematic->validate();
    } catch (const Error& e) {
      throw Error("body \"" + body.name + "\": " + e.what());
    }
    if (!body.kinematic->keyframes.empty()) body.pose = body.kinematic->keyframe_pose(time_);
    body.linear_velocity = body.kinematic->velocity;
    body.angular_velocity = body.kinematic->angular_velocity;
  }
  if (!body.pose.is_valid())
    throw Error("body \"" + body.name + "\": pose is not finite, not a rotation, or beyond ±1e15 m");
  body.force_schedule.validate("body \"" + body.name + "\": force");
  body.torque_schedule.validate("body \"" + body.name + "\": torque");
  if (!body.infinite_mass()) {
    const MassSpec& m = body.mass;
    if (!std::isfinite(m.mass) || m.mass <= 0.0) throw Error("body \"" + body.name + "\": mass must be > 0");
    if (!m.com.allFinite()) throw Error("body \"" + body.name + "\": centre of mass is not finite");
    const Eigen::SelfAdjointEigenSolver<Mat3> eig(0.5 * (m.inertia + m.inertia.transpose()));
    if (!m.inertia.allFinite() || eig.eigenvalues().minCoeff() <= 0.0)
      throw Error("body \"" + body.name + "\": inertia must be symmetric positive definite");
  }
  const int id = static_cast<int>(bodies_.size());
  const Aabb box = body.geometry->world_aabb(body.pose);
  leaf_.push_back(bounded(box) ? tree_.insert(box, options.contact_margin + options.fattening * largest_half_extent(box), id)
                               : -1);
  kinematic_next_.push_back(body.pose);
  bodies_.push_back(std::move(body));
  return id;
}

void World::set_kinematic(int i, std::optional<KinematicPath> path) {
  if (i < 0 || i >= static_cast<int>(bodies_.size())) throw Error("set_kinematic: no body " + std::to_string(i));
  Body& b = bodies_[static_cast<std::size_t>(i)];
  if (b.is_static) throw Error("body \"" + b.name + "\": a static body cannot be kinematic");
  if (!path) {
    const MassSpec& m = b.mass;
    if (!std::isfinite(m.mass) || m.mass <= 0.0)
      throw Error("body \"" + b.name + "\": has no mass to move freely (mass must be > 0)");
    b.kinematic.reset();
    return;
  }
  try {
    path->validate();
  } catch (const Error& e) {
    throw Error("body \"" + b.name + "\": " + e.what());
  }
  b.kinematic = std::move(path);
  if (!b.kinematic->keyframes.empty()) b.pose = b.kinematic->keyframe_pose(time_);
  b.linear_velocity = b.kinematic->velocity;
  b.angular_velocity = b.kinematic->angular_velocity;
}

void World::set_force_schedule(int i, LoadSchedule s) {
  if (i < 0 || i >= static_cast<int>(bodies_.size())) throw Error("set_force_schedule: no body " + std::to_string(i));
  s.validate("body \"" + bodies_[static_cast<std::size_t>(i)].name + "\": force");
  bodies_[static_cast<std::size_t>(i)].force_schedule = std::move(s);
}

void World::set_torque_schedule(int i, LoadSchedule s) {
  if (i < 0 || i >= static_cast<int>(bodies_.size())) throw Error("set_torque_schedule: no body " + std::to_string(i));
  s.validate("body \"" + bodies_[static_cast<std::size_t>(i)].name + "\": torque");
  bodies_[static_cast<std::size_t>(i)].torque_schedule = std::move(s);
}

void World::drive() {
  const double h = options.dt;
  for (std::size_t i = 0; i < bodies_.size(); ++i) {
    Body& b = bodies_[i];
    // The step's mean load: its impulse is the schedule's exact integral.
    if (!b.force_schedule.keys.empty()) b.force = b.force_schedule.mean(time_, time_ + h);
    if (!b.torque_schedule.keys.empty()) b.torque = b.torque_schedule.mean(time_, time_ + h);
    if (!b.kinematic) continue;
    const Transform next = b.kinematic->advance(b.pose, time_, h);
    kinematic_next_[i] = next;
    // The twist that carries the pose to `next` in one step: the path's own
    // for a constant twist, the segment's inside a keyframe segment.
    if (b.kinematic->keyframes.empty()) {
      b.linear_velocity = b.kinematic->velocity;
      b.angular_velocity = b.kinematic->angular_velocity;
      continue;
    }
    b.linear_velocity = (next.p - b.pose.p) / h;
    const Eigen::AngleAxisd turn(next.R * b.pose.R.transpose());
    b.angular_velocity = (turn.angle() / h) * turn.axis();
  }
}

int World::find(const std::string& name) const {
  for (std::size_t i = 0; i < bodies_.size(); ++i)
    if (bodies_[i].name == name) return static_cast<int>(i);
  return -1;
}

const StepStats& World::step() {
  stats_ = StepStats{};
  drive();
  auto t0 = Clock::now();
  broadphase();
  stats_.ms_broadphase = ms_since(t0);
  t0 = Clock::now();
  narrowphase();
  stats_.ms_contacts = ms_since(t0);
  t0 = Clock::now();
  build_lcp();
  stats_.ms_build = ms_since(t0);
  t0 = Clock::now();
  solve();
  stats_.ms_solve = ms_since(t0);
  integrate();
  for (std::size_t i = 0; i < bodies_.size(); ++i)
    if (bodies_[i].kinematic) bodies_[i].pose = kinematic_next_[i];
  time_ += options.dt;
  return stats_;
}

void World::broadphase() {
  // Refresh the leaves of moving bodies, then collect overlapping fat boxes.
  for (std::size_t i = 0; i < bodies_.size(); ++i) {
    if (leaf_[i] < 0 || bodies_[i].is_static) continue;  // kinematic bodies move: refreshed
    Aabb box = bodies_[i].geometry->world_aabb(bodies_[i].pose);
    // Reach beyond the contact margin: the facet broad phase's ε and the
    // speculative distance (a pair's query distance is at most the sum of
    // its bodies' reaches).
    const double reach = broadphase_reach(i);
    if (reach > 0.0) box = box.inflated(reach);
    tree_.update(leaf_[i], box, options.contact_margin + options.fattening * largest_half_extent(box));
  }
  tree_.pairs(pairs_);
  // Unbounded bodies are outside the tree: pair them with every dynamic body.
  for (std::size_t u = 0; u < bodies_.size(); ++u) {
    if (leaf_[u] >= 0) continue;
    for (std::size_t i = 0; i < bodies_.size(); ++i) {
      if (i == u || bodies_[i].infinite_mass()) continue;
      pairs_.emplace_back(static_cast<int>(std::min(i, u)), static_cast<int>(std::max(i, u)));
    }
  }
  // Two bodies of infinite mass (static or kinematic) exert nothing on each
  // other: a kinematic body passes through them.
  std::erase_if(pairs_, [&](const std::pair<int, int>& p) {
    return bodies_[static_cast<std::size_t>(p.first)].infinite_mass() &&
           bodies_[static_cast<std::size_t>(p.second)].infinite_mass();
  });
  stats_.pairs = static_cast<int>(pairs_.size());
}

void World::narrowphase() {
  solved_.clear();
  step_pairs_.clear();
  ++steps_;
  ContactOptions co;
  co.margin = options.contact_margin;
  aux_.clear();
  // A stacked box tilts by solver error; within 1e-3 of its size it keeps
  // its whole face (with exact per-point gaps) instead of rocking on an edge.
  co.feature_tolerance = 1e-3;
  const double match_radius = 2.0 * options.contact_margin;
  // Lemke keeps fresh contacts: its pivots choose among the equally valid
  // load distributions of a statically indeterminate face by the data's
  // last bits (moving one box of examples/cube_stack.json by 1e-12 m makes
  // the stack walk 0.3 mm in 0.2 s), so the cache's rounding-level changes
  // would show; and next to its pivots the query costs nothing.
  const bool reuse = options.reuse.enabled && options.solver == SolverKind::pgs;
  for (const auto& [ia, ib] : pairs_) {
    const Body& a = bodies_[static_cast<std::size_t>(ia)];
    const Body& b = bodies_[static_cast<std::size_t>(ib)];
    CachedPair& pair = cache_.touch(ia, ib, steps_);
    scratch_.points.clear();
    co.margin = pair_margin(ia, ib);
    const double eps = std::max(options.epsilon, options.contact_margin) + (co.margin - options.contact_margin);
    if (facet_formulation() && (options.formulation != Formulation::peg || detail::peg_pair({a.geometry.get(), a.pose}, a.is_static, {b.geometry.get(), b.pose}, b.is_static)) &&
        detail::facet_rows(a, b, eps, facets_)) {
      // Vertex–facet rows: nothing cached (no reuse, no warm start).
      store_contacts(pair, scratch_.points, a.pose, b.pose);
      pair.geometry_a = nullptr;
      pair.geometry_b = nullptr;
      pair.reusable = false;
      pair.first = static_cast<int>(solved_.size());
      step_pairs_.push_back(&pair);
      add_facet_contacts(ia, ib);
      continue;
    }
    const bool same_query = pair.geometry_a == a.geometry && pair.geometry_b == b.geometry && pair.margin == co.margin;
    const bool reused = reuse && same_query && reuse_contacts(pair, a.pose, b.pose, options.reuse, scratch_.points);
    if (reused) {
      ++stats_.reused;
    } else {
      a.geometry->contacts(a.pose, *b.geometry, b.pose, co, scratch_);
      // A failed query adds no contact, never NaN; an unconverged one keeps
      // its finite contacts.
      if (scratch_.status == Status::not_converged) {
        ++stats_.unconverged;
      } else if (scratch_.status != Status::ok) {
        ++stats_.failed;
        scratch_.points.clear();
      }
      std::erase_if(scratch_.points, [](const Contact& c) {
        return !c.point.allFinite() || !c.normal.allFinite() || !std::isfinite(c.depth);
      });
      store_contacts(pair, scratch_.points, a.pose, b.pose);
      pair.geometry_a = a.geometry;
      pair.geometry_b = b.geometry;
      pair.margin = co.margin;
      if (scratch_.status != Status::ok) pair.reusable = false;
      match_impulses(pair, match_radius);
    }
    pair.first = static_cast<int>(solved_.size());
    step_pairs_.push_back(&pair);
    for (std::size_t k = 0; k < scratch_.points.size(); ++k) {
      const Contact& c = scratch_.points[k];
      ContactImpulse& ci = solved_.emplace_back();
      ci.body_a = ia;
      ci.body_b = ib;
      ci.point = c.point;
      ci.normal = c.normal;
      ci.depth = c.depth;
      ci.feature_a = c.feature_a;
      ci.feature_b = c.feature_b;
      ci.intersecting = c.intersecting;
      // The warm start until the solve overwrites them.
      ci.normal_impulse = pair.points[k].normal_impulse;
      ci.friction_impulse = pair.points[k].friction_impulse;
      stats_.intersecting += c.intersecting ? 1 : 0;
    }
  }
  cache_.drop_stale(steps_);
  stats_.contacts = static_cast<int>(solved_.size());
}

double World::kinetic_energy() const {
  double e = 0.0;
  for (const Body& b : bodies_) e += b.kinetic_energy();
  return e;
}

double World::potential_energy() const {
  double e = 0.0;
  for (const Body& b : bodies_)
    if (!b.infinite_mass()) {
      const Vec3 constant = b.force_schedule.keys.empty() ? b.force : Vec3::Zero();
      e -= (b.mass.mass * gravity + constant).dot(b.com_position());
    }
  return e;
}

}  // namespace proxima::sim
