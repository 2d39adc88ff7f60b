// SPDX-License-Identifier: BSD-3-Clause
// World bookkeeping and the step's outer loop (phases timed for StepStats).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include <Eigen/Eigenvalues>

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

// Speculative growth of a query distance for a pair that can close `motion`
// metres in a step (StepOptions::speculative): none below half the contact
// margin, so that resting pairs keep the margin their cache was made with;
// a quarter more than the bound above it, for the rounding of the bound.
double speculative_extra(double motion, double margin) { return motion > 0.5 * margin ? 1.25 * motion : 0.0; }

}  // namespace

double World::motion(std::size_t i) const {
  const Body& b = bodies_[i];
  if (b.is_static) return 0.0;
  const double h = options.dt;
  const Aabb box = b.geometry->world_aabb(b.pose);
  // Points of the body lie within the box's diagonal of the centre of mass.
  const double reach = bounded(box) ? (box.max - box.min).norm() : 0.0;
  const Vec3 accel = gravity + b.force / b.mass.mass;
  return h * (b.linear_velocity.norm() + h * accel.norm() + b.angular_velocity.norm() * reach);
}

double World::pair_margin(int ia, int ib) const {
  if (!options.speculative) return options.contact_margin;
  const double m = motion(static_cast<std::size_t>(ia)) + motion(static_cast<std::size_t>(ib));
  return options.contact_margin + speculative_extra(m, options.contact_margin);
}

int World::add(Body body) {
  if (!body.geometry) throw Error("body \"" + body.name + "\": no geometry");
  static_assert(kMaxLength == 1e15);  // the message spells it out
  if (!body.pose.is_valid())
    throw Error("body \"" + body.name + "\": pose is not finite, not a rotation, or beyond ±1e15 m");
  if (!body.is_static) {
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
  bodies_.push_back(std::move(body));
  return id;
}

int World::find(const std::string& name) const {
  for (std::size_t i = 0; i < bodies_.size(); ++i)
    if (bodies_[i].name == name) return static_cast<int>(i);
  return -1;
}

const StepStats& World::step() {
  stats_ = StepStats{};
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
  time_ += options.dt;
  return stats_;
}

void World::broadphase() {
  // Refresh the leaves of moving bodies, then collect overlapping fat boxes.
  for (std::size_t i = 0; i < bodies_.size(); ++i) {
    if (leaf_[i] < 0 || bodies_[i].is_static) continue;
    Aabb box = bodies_[i].geometry->world_aabb(bodies_[i].pose);
    // Reach beyond the contact margin: the facet broad phase's ε and the
    // speculative distance (a pair's query distance is at most the sum of
    // its bodies' reaches).
    double reach = facet_formulation() ? std::max(0.0, options.epsilon - options.contact_margin) : 0.0;
    if (options.speculative) reach += speculative_extra(2.0 * motion(i), options.contact_margin);
    if (reach > 0.0) box = box.inflated(reach);
    tree_.update(leaf_[i], box, options.contact_margin + options.fattening * largest_half_extent(box));
  }
  tree_.pairs(pairs_);
  // Unbounded bodies are outside the tree: pair them with every dynamic body.
  for (std::size_t u = 0; u < bodies_.size(); ++u) {
    if (leaf_[u] >= 0) continue;
    for (std::size_t i = 0; i < bodies_.size(); ++i) {
      if (i == u || bodies_[i].is_static) continue;
      pairs_.emplace_back(static_cast<int>(std::min(i, u)), static_cast<int>(std::max(i, u)));
    }
  }
  // Two immobile bodies exert nothing on each other.
  std::erase_if(pairs_, [&](const std::pair<int, int>& p) {
    return bodies_[static_cast<std::size_t>(p.first)].is_static &&
           bodies_[static_cast<std::size_t>(p.second)].is_static;
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
    if (facet_formulation() && detail::facet_rows(a, b, eps, facets_)) {
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

void World::add_facet_contacts(int ia, int ib) {
  const auto emit = [&](const detail::FacetRow& r) {
    ContactImpulse& ci = solved_.emplace_back();
    ci.body_a = ia;
    ci.body_b = ib;
    ci.point = r.point;
    ci.normal = r.normal;
    ci.depth = -r.psi;
  };
  const std::vector<detail::FacetRow>& rows = facets_.rows;
  for (std::size_t g = 0; g + 1 < facets_.group_begin.size(); ++g) {
    const std::size_t begin = static_cast<std::size_t>(facets_.group_begin[g]);
    const std::size_t end = static_cast<std::size_t>(facets_.group_begin[g + 1]);
    if (options.formulation == Formulation::stewart_trinkle) {
      for (std::size_t k = begin; k < end; ++k) emit(rows[k]);
      continue;
    }
    // PEG. The max runs over the facets the vertex is in front of at the
    // step's start (ψ ≥ −slop, the slop being the contact margin, so that a
    // vertex resting on coplanar tile tops, ψ = −1e−12 by rounding, still
    // counts as in front of the next tile's top): through those it can
    // leave the piece's neighbourhood without crossing the piece. A facet
    // well behind the vertex (the vertical face of a sawtooth tooth seen
    // from its ramp) constrains nothing until the vertex is near its front,
    // so the extended half-space never pushes; and a vertex moving farther
    // in a step than the piece is thick cannot satisfy the max through the
    // far side's facet (with every facet in the max it did: the particle
    // left a hill through its bottom at Δt = 0.1 s). A vertex deeper than
    // the slop behind every facet is pushed out through the shallowest.
    double top = -std::numeric_limits<double>::infinity();
    for (std::size_t k = begin; k < end; ++k) top = std::max(top, rows[k].psi);
    const double slop = std::max(options.contact_margin, 1e-9);
    // A mesh's group is only the triangles near the vertex, not a whole
    // piece: behind all of them (the bottom of a sawtooth mesh seen from
    // above, within ε) is not inside the solid, and they constrain nothing.
    if (facets_.group_partial[g] != 0 && top < -slop) continue;
    const double keep = top < -slop ? top : -slop;
    // One facet pushes (the paper's G_n): the closest one to the vertex
    // (least |ψ| of those kept: a touching facet before one ahead). The
    // others only decide, through their slacks, when the max has moved to
    // them. (Two other choices were tried and dropped: the facet with the
    // largest ψ at the end of an unconstrained step picks, for a fast
    // vertex, a facet it never meets; the facet whose plane it would cross
    // last picks the side face of the next tile for a box vertex sliding
    // along coplanar tile tops, and its push tipped the box.)
    std::size_t active = end;
    for (std::size_t k = begin; k < end; ++k)
      if (rows[k].psi >= keep && (active == end || std::abs(rows[k].psi) < std::abs(rows[active].psi))) active = k;
    const int contact = static_cast<int>(solved_.size());
    emit(rows[active]);
    for (std::size_t k = begin; k < end; ++k)
      if (k != active && rows[k].psi >= keep) aux_.push_back({contact, rows[k]});
  }
  stats_.aux = static_cast<int>(aux_.size());
}

double World::kinetic_energy() const {
  double e = 0.0;
  for (const Body& b : bodies_) e += b.kinetic_energy();
  return e;
}

double World::potential_energy() const {
  double e = 0.0;
  for (const Body& b : bodies_)
    if (!b.is_static) e -= (b.mass.mass * gravity + b.force).dot(b.com_position());
  return e;
}

}  // namespace proxima::sim
