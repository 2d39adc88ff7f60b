// SPDX-License-Identifier: BSD-3-Clause
// The simulated world and its velocity-level time step.
//
// One step (eq. (1) of Contact data for convex polyhedra, Anitescu–Potra / Stewart–Trinkle):
//   0. drive: kinematic bodies take their path's velocity for the step,
//      scheduled forces and torques their mean over the step;
//   1. broadphase: the AABB tree's candidate pairs (bodies with unbounded
//      geometry, e.g. halfspaces, are paired with every dynamic body; two
//      bodies of infinite mass, static or kinematic, are never a pair);
//   2. contacts: the manifold of each candidate pair within contact_margin;
//   3. LCP build: Delassus matrix W = J M⁻¹ Jᵀ in contact space and
//      b = J v* + ψ-term, v* = v + Δt M⁻¹ f_ext (gravity); a kinematic
//      side's velocity and an impact's restitution enter b;
//   4. solve: Lemke or PGS; a failed Lemke falls back to PGS (counted);
//   5. integrate: v⁺ = v* + M⁻¹ Jᵀ x; x_com += Δt v⁺; orientation at
//      constant angular momentum L⁺ = I ω⁺ by the implicit midpoint rule
//      (rotation_step.hpp: free bodies keep energy and L to rounding);
//      kinematic bodies move to their path's pose at the step's end.
#pragma once

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include <proxima/broad/aabb_tree.hpp>
#include <proxima/sim/body.hpp>
#include <proxima/sim/body_space.hpp>
#include <proxima/sim/contact_cache.hpp>
#include <proxima/sim/lcp.hpp>

namespace proxima::sim {

enum class SolverKind { lemke, pgs };
const char* to_string(SolverKind s);

/// Orientation of the polyhedral friction cone in the tangent plane.
/// fixed: from the normal alone (tangent.hpp), steady from step to step.
/// sliding: where the contact slides at v* (faster than
/// StepOptions::sliding_speed), t₁ points against the slip, so one cone
/// edge is exactly Coulomb's kinetic friction and the q-gon's corners add
/// no sideways force (a spinning patch stays balanced).
enum class FrictionBasis { fixed, sliding };
const char* to_string(FrictionBasis b);

/// Order of the contacts in a PGS sweep (contact_order.hpp).
enum class PgsOrder { as_found, bottom_up, top_down };
const char* to_string(PgsOrder o);

/// How contacts become constraints (docs/simulator.md).
/// stewart_trinkle: one unilateral row per contact, all imposed together.
/// With epsilon = 0 the contacts are the closest-feature manifolds within
/// contact_margin; with epsilon > 0 (the paper's ε broad phase) every facet
/// of a polyhedral body (box, solid convex polytope, mesh) within ε of a
/// vertex of the other body gives the row of its own half-space, the
/// constraint set that gains energy and traps near non-convex obstacles.
/// peg: Polyhedral Exact Geometry. The same vertex–facet rows, grouped per
/// vertex and convex piece (a convex body is one piece; a mesh's near
/// triangles split at its concave edges); a group imposes
/// max(ψ_1 … ψ_m) ≥ 0 (lcp.hpp MaxGroup). Pairs without facets on either
/// side (two spheres, a halfspace) keep their manifolds.
enum class Formulation { stewart_trinkle, peg };
const char* to_string(Formulation f);

struct StepOptions {
  double dt = 1e-3;
  SolverKind solver = SolverKind::lemke;
  ContactSolveOptions solve;  ///< friction_directions (q), Lemke and PGS settings
  /// Pairs closer than this are handed to the LCP (with their gap in ψ), so
  /// contact is seen the step before it happens.
  double contact_margin = 5e-3;
  /// ψ/Δt stabilization (Anitescu & Hart 2004): the normal row asks for
  /// n·v⁺ ≥ −ψ/Δt when separated (ψ > 0: approach by at most the gap) and
  /// n·v⁺ ≥ −γ ψ/Δt when penetrating (ψ < 0). γ = 1 would remove the whole
  /// penetration in one step and pump energy into stacks; γ = 0.2 removes
  /// 20 % per step, a critically damped-looking recovery at Δt = 1 ms.
  double stabilization = 0.2;
  /// PGS starts from last step's impulses of matching contacts (the same
  /// cached contact, else the nearest, world_solve.cpp).
  bool warm_start = true;
  /// Temporal coherence: a pair's contact set is re-expressed at the new
  /// poses instead of queried again while the pair has barely moved
  /// (contact_cache.hpp states the bounds and the error). PGS only
  /// (world.cpp says why).
  ContactReuse reuse;
  FrictionBasis friction_basis = FrictionBasis::fixed;
  /// Slip speed above which FrictionBasis::sliding turns the cone, m/s.
  double sliding_speed = 1e-4;
  /// PGS visits contacts by their level in the contact graph counted from
  /// the static bodies. Top-down carries the weight of a stack down to the
  /// floor within one sweep (10-box stack: 10 sweeps a step against 13
  /// bottom-up, same drift).
  PgsOrder pgs_order = PgsOrder::top_down;
  /// Fat boxes of the AABB tree grow by this fraction of the body's own
  /// largest half extent, plus contact_margin.
  double fattening = 0.1;
  Formulation formulation = Formulation::stewart_trinkle;
  /// Facet broad-phase distance ε, m (Formulation says what it selects);
  /// PEG uses max(ε, contact_margin).
  double epsilon = 0.0;
  /// Speculative contacts: a pair's query distance grows with how far its
  /// bodies can move in the step (linear speed, spin × extent and the
  /// applied accelerations, times Δt), so a fast body meets the surface as a
  /// ψ > 0 row before it could pass through it. Below half the contact
  /// margin the margin is used unchanged (resting scenes keep their cache).
  bool speculative = true;
};

/// Per-step numbers, for the trajectory file and the benchmark.
struct StepStats {
  int pairs = 0;          ///< candidate pairs from the broadphase
  int contacts = 0;       ///< contact points in the LCP
  /// Of those, mesh contacts whose cores intersect (Contact::intersecting):
  /// the boundary layers were penetrated and the normals are less reliable.
  int intersecting = 0;
  int reused = 0;         ///< pairs whose cached contact set was reused
  /// Pairs whose contact query hit an iteration cap (Status::not_converged,
  /// e.g. one triangle's GJK on a mesh): their contacts, the best bounds
  /// found, are kept (dropping them would let the bodies sink) and the set
  /// is not reused.
  int unconverged = 0;
  /// Pairs whose query failed (invalid input, no algorithm): no contacts.
  int failed = 0;
  int aux = 0;            ///< PEG facet rows without impulse (MaxGroup aux rows)
  int iterations = 0;     ///< Lemke pivots or PGS sweeps (both when falling back)
  int fallbacks = 0;      ///< 1 when Lemke failed and PGS took over
  LcpStatus status = LcpStatus::ok;  ///< of the solve whose impulses were applied
  LcpStatus lemke_status = LcpStatus::ok;
  double ms_broadphase = 0.0, ms_contacts = 0.0, ms_build = 0.0, ms_solve = 0.0;
  double ms_total() const { return ms_broadphase + ms_contacts + ms_build + ms_solve; }
};

/// One solved contact of the last step.
struct ContactImpulse {
  int body_a = -1, body_b = -1;
  Vec3 point = Vec3::Zero();
  Vec3 normal = Vec3::UnitZ();  ///< B→A
  double depth = 0.0;
  int feature_a = -1, feature_b = -1;  ///< as Contact (triangle ids on meshes)
  bool intersecting = false;           ///< as Contact (mesh cores intersect)
  double normal_impulse = 0.0;  ///< N·s
  Vec3 friction_impulse = Vec3::Zero();  ///< on A, world frame
  /// First friction direction t₁ of the step (t₂ = normal × t₁): vertex 0
  /// of the friction polygon.
  Vec3 tangent = Vec3::UnitX();
};

/// Friction coefficients: a default and per-pair overrides (by body index).
struct FrictionTable {
  double default_mu = 0.5;
  std::map<std::pair<int, int>, double> pairs;
  void set(int a, int b, double mu) { pairs[{std::min(a, b), std::max(a, b)}] = mu; }
  double mu(int a, int b) const {
    const auto it = pairs.find({std::min(a, b), std::max(a, b)});
    return it == pairs.end() ? default_mu : it->second;
  }
};

/// Newton's restitution: a coefficient e ∈ [0, 1] per body pair (a default
/// and overrides by body index). At an impact — the contact's normal
/// velocity at the step's start approaches faster than `threshold` and the
/// gap closes within the step — the normal row asks for a separation speed
/// of at least e times the approach speed. Slower approaches take e = 0, so
/// a resting contact (approach g Δt per step) stays resting.
struct RestitutionTable {
  double default_e = 0.0;
  double threshold = 0.1;  ///< m/s
  std::map<std::pair<int, int>, double> pairs;
  void set(int a, int b, double e) { pairs[{std::min(a, b), std::max(a, b)}] = e; }
  double e(int a, int b) const {
    const auto it = pairs.find({std::min(a, b), std::max(a, b)});
    return it == pairs.end() ? default_e : it->second;
  }
};

namespace detail {
/// Working arrays of the PGS contact order (src/sim/contact_order.hpp),
/// kept by the World so that steps do not allocate.
struct ContactOrderScratch {
  std::vector<int> first, link, level, queue, count;
  // The last order and what it was computed from (body pairs of the
  // contacts in order, static flags, mode): a settled scene repeats it.
  std::vector<std::uint64_t> pairs;
  std::vector<char> is_static;
  std::vector<int> order;
  int mode = -1;
};

/// A vertex–facet row: point on the vertex's body, the facet's normal
/// oriented B→A and the signed gap ψ along it (negative inside the facet's
/// half-space).
struct FacetRow {
  Vec3 point = Vec3::Zero();
  Vec3 normal = Vec3::UnitZ();
  double psi = 0.0;
};

/// A PEG group's facet other than the active one, for contact `contact`.
struct AuxFacet {
  int contact = 0;
  FacetRow row;
};

/// Working arrays of the facet contacts (facet_contacts.hpp).
struct FacetScratch {
  std::vector<FacetRow> rows;
  std::vector<int> group_begin;  // rows of group g: [group_begin[g], group_begin[g + 1])
  std::vector<char> group_partial;  // 1: a mesh's near triangles, not a whole convex piece
  std::vector<Vec3> normals, vertices;  // the facet side's
  std::vector<Vec3> own;                // the vertex side's
  std::vector<double> offsets;
  std::vector<int> loop_begin, loop;
  std::vector<int> near, label;          // facets near one vertex, their group
};
}  // namespace detail

class World {
 public:
  Vec3 gravity = Vec3(0.0, 0.0, -9.81);
  FrictionTable friction;
  RestitutionTable restitution;
  StepOptions options;

  /// Adds a body; returns its index. Dynamic bodies need mass > 0 and a
  /// positive-definite inertia (throws proxima::Error naming the body). A
  /// kinematic body's path is validated (KinematicPath::validate) and a
  /// keyframed one is placed at its pose of the current time.
  int add(Body body);
  /// Gives body i a scripted path from now on (a keyframed path is in world
  /// time: the body jumps to its pose of the current time), or none: the
  /// body then moves freely from its pose with its current velocity.
  /// Throws proxima::Error for a bad index, a static body, a path that does
  /// not validate, or a body without mass properties made free.
  void set_kinematic(int i, std::optional<KinematicPath> path);
  /// Body i's force (torque) follows `s` from the next step on; an empty
  /// schedule returns to the constant Body::force (torque). Throws
  /// proxima::Error for a bad index or a schedule that does not validate.
  void set_force_schedule(int i, LoadSchedule s);
  void set_torque_schedule(int i, LoadSchedule s);
  std::vector<Body>& bodies() { return bodies_; }
  const std::vector<Body>& bodies() const { return bodies_; }
  int find(const std::string& name) const;  ///< index or −1

  /// Advances by options.dt. Never throws on valid bodies; never writes NaN
  /// (a failed solve applies no contact impulse and says so in the stats).
  const StepStats& step();
  double time() const { return time_; }
  /// Sets the clock without stepping, for a stepper that moves the bodies
  /// itself (robot::RobotWorld advances it by dt a step).
  void set_time(double t) { time_ = t; }
  const StepStats& last_stats() const { return stats_; }
  const std::vector<ContactImpulse>& last_contacts() const { return solved_; }

  /// Forgets every cached contact set and impulse: the next step queries
  /// all pairs afresh and starts PGS cold. Not needed after moving bodies
  /// (the cache sees poses); for benchmarks and experiments.
  void clear_contact_cache() { cache_.clear(); }

  double kinetic_energy() const;
  /// −(m g + F)·x_com summed over dynamic bodies (zero at the origin): the
  /// potential of gravity and of each body's constant force (torques have
  /// none). A scheduled force (Body::force_schedule) has no potential: its
  /// work is not counted here, so kinetic + potential energy changes by it.
  double potential_energy() const;

 private:
  void broadphase();
  void narrowphase();
  void build_lcp();
  void solve();
  void integrate();
  /// Kinematic bodies: the pose at the step's end and the velocity that
  /// reaches it (body velocities, kinematic_next_); scheduled loads: the
  /// step's mean force and torque.
  void drive();
  /// How far body i can move in one step (Δt times its speed bound), m.
  double motion(std::size_t i) const;
  double pair_margin(int ia, int ib) const;
  /// How far body i's broad-phase box must reach beyond the contact margin.
  double broadphase_reach(std::size_t i) const;
  void add_facet_contacts(int ia, int ib);
  bool facet_formulation() const {
    return options.formulation == Formulation::peg || options.epsilon > 0.0;
  }

  std::vector<Body> bodies_;
  std::vector<int> leaf_;       // tree leaf per body, −1 for unbounded
  std::vector<Transform> kinematic_next_;  // a kinematic body's pose at the step's end
  broad::AabbTree tree_;
  std::vector<std::pair<int, int>> pairs_;
  std::vector<ContactImpulse> solved_;  // this step's contacts (impulses after solve)
  ContactSet scratch_;
  BodySpaceProblem problem_;     // J, M⁻¹Jᵀ, ψ-terms and v* of this step
  ContactLcp lcp_;               // its dense form, built for Lemke only
  std::vector<int> dof_;         // body → dynamic-body number (6 coordinates each), −1 static
  std::vector<Mat3> inv_inertia_;  // world inverse inertia per body at the step's start
  std::vector<double> inv_mass_;  // inverse mass per body (0 for static ones)
  std::vector<Vec3> com_;        // centre of mass per body at the step's start
  Eigen::VectorXd impulses_;
  Eigen::VectorXd velocities_;   // v⁺, 6 per dynamic body
  PgsWorkspace pgs_workspace_;
  ContactCache cache_;
  detail::ContactOrderScratch order_scratch_;
  std::vector<CachedPair*> step_pairs_;  // the cache entries of pairs_, this step
  detail::FacetScratch facets_;
  std::vector<detail::AuxFacet> aux_;    // PEG aux facets of this step, by contact
  std::vector<Vec6> peg_velocities_;     // solve_pgs_max's scratch
  std::uint64_t steps_ = 0;
  StepStats stats_;
  double time_ = 0.0;
};

}  // namespace proxima::sim
