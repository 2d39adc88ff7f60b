// SPDX-License-Identifier: BSD-3-Clause
// A robot (fixed or floating base) in contact with a simulator world: the robot's links
// touch the world's bodies, and both move under one complementarity problem
// per step (Stewart–Trinkle / Anitescu–Potra, eq. (1) of Contact data for
// convex polyhedra, over generalized coordinates).
//
// Generalized velocities: u = [q̇ (robot velocities: for a floating base its
// twist first, dynamics.hpp); (v, ω) per dynamic body]. The mass matrix is block diagonal: the robot's M(q) + Δt (D + G) (joint
// damping and PD gains implicit, as ArticulatedSim) and each body's diag(m I, I_world).
// A contact row along unit d at point p between sides A and B measures
// d·(v_A(p) − v_B(p)); a link side contributes dᵀ J_link(p) (jacobian.hpp),
// a body side [dᵀ, (r × d)ᵀ] with r = p − x_com. With v* the free velocity
// (the robot's from ArticulatedSim::begin_step, the bodies' v + Δt M⁻¹ f),
// the rows are u = W x + b with W = J M⁻¹ Jᵀ and b = J v* + ψ-term, the
// sim layer's ContactLcp: solved by sim::solve_lemke (a failed Lemke falls
// back to PGS, as the world does) or sim::solve_pgs, with the world's
// friction polygon and ψ/Δt stabilization (StepOptions::stabilization).
//
// Joint position limits are rows of the same LCP when the step has
// contacts and the limit is within reach (a frictionless unilateral row on
// ±q̇_i asking q̇⁺ to close at most the gap, as ArticulatedSim's own): a
// link held up by its limit then carries a load exactly. Joint friction
// stays ArticulatedSim's, solved after the contact impulses are in the
// robot's velocity (ArticulatedSim::finish_step, whose limit rows then
// find them met): it is a box-bounded impulse |λ| ≤ Δt F, which the contact
// LCP (impulses bounded by μ c_n) has no form for, so joint friction acting
// in the same step as a contact is solved after it, not with it
// (docs/dynamics.md).
//
// Self-collision (set_self_collision): two links of the robot touch as a
// link and a body do, a row d·(J_a(p) − J_b(p)) q̇ with both links'
// Jacobians at the contact point; the pairs are those an allowed-collision
// matrix does not allow. Off until set.
//
// Formulations (sim::StepOptions::formulation, epsilon): as World's for
// free bodies (robot_world_facets.cpp). With ε > 0 every facet of a
// polyhedral side (a link's box, hull or raw mesh, a body's) within ε of a
// vertex of the other side is a row of its own; with PEG the same rows are
// grouped per vertex and convex piece, a group imposing max(ψ_1 … ψ_m) ≥ 0
// (sim::MaxGroup), for the pairs World gives them (a static side or a
// sphere: a link against a static obstacle); other pairs keep their
// manifolds. The rows use the links' Jacobians as contacts do; Lemke
// solves the groups' LCP, PGS their max (sim::solve_pgs).
//
// Left out: kinematic bodies, scheduled loads, restitution (step() refuses
// them), contact caching and warm starts.
#pragma once

#include <map>
#include <memory>
#include <utility>
#include <vector>

#include <Eigen/Core>

#include <proxima/robot/articulated_sim.hpp>
#include <proxima/robot/collision_matrix.hpp>
#include <proxima/robot/jacobian.hpp>
#include <proxima/robot/link_geometry.hpp>
#include <proxima/sim/world.hpp>

namespace proxima::robot {

/// One solved contact of the last step. Side A is a robot link (link ≥ 0)
/// or a world body (link = −1, body_a ≥ 0); side B is a world body
/// (body_b ≥ 0) or, in a self-collision, another link of the robot
/// (link_b ≥ 0, body_b = −1).
struct RobotContact {
  int link = -1;
  int body_a = -1;
  int body_b = -1;
  int link_b = -1;
  Vec3 point = Vec3::Zero();
  Vec3 normal = Vec3::UnitZ();  ///< B→A
  double depth = 0.0;           ///< > 0 overlapping, < 0 a gap within the margin
  double normal_impulse = 0.0;  ///< N·s
  Vec3 friction_impulse = Vec3::Zero();  ///< on A, world frame, N·s
};

/// Per-step numbers.
struct RobotWorldStats {
  int pairs = 0;       ///< link–body, link–link and body–body pairs whose boxes overlap
  int contacts = 0;
  int limits = 0;       ///< joint-limit rows in the problem (RobotWorld says when)
  int aux = 0;          ///< PEG facet rows without impulse (sim::MaxGroup aux rows)
  int iterations = 0;  ///< Lemke pivots or PGS sweeps (both when falling back)
  int fallbacks = 0;   ///< 1 when Lemke failed and PGS took over
  sim::LcpStatus status = sim::LcpStatus::ok;  ///< of the solve whose impulses were applied
  sim::LcpStatus lemke_status = sim::LcpStatus::ok;  ///< of Lemke, when it ran
  double ms_contacts = 0.0, ms_build = 0.0, ms_solve = 0.0;
  /// The robot's own share: M, h and the factorization before the contacts,
  /// the joint rows and the state update after the solve.
  double ms_dynamics = 0.0;
};

class RobotWorld {
 public:
  /// The robot of `geometry` (its link shapes as built: meshes as hulls or
  /// raw, margins included) with its root link at `base` (fixed there, or,
  /// for BaseKind::floating, starting there), starting at `initial`'s q and
  /// qd, among `world`'s bodies. The robot falls under world.gravity.
  /// `base` is the one source of the root's pose: initial.base must be left
  /// at its default (the identity) or equal `base` (up to 1e-9, as a state
  /// read back from a robot there is); any other pose is an error naming
  /// both, never silently replaced. Throws proxima::Error for that, and for
  /// a bad base or state (as Dynamics and ArticulatedSim do).
  RobotWorld(const RobotGeometry& geometry, const Transform& base, const ArticulatedState& initial,
             sim::World world, BaseKind kind = BaseKind::fixed);

  /// The bodies (add them here), friction, options (dt, solver, solve
  /// settings, contact_margin, stabilization). A link's friction with a
  /// body is world().friction.default_mu unless set_link_friction says
  /// otherwise; body pairs use the table.
  sim::World& world() { return world_; }
  const sim::World& world() const { return world_; }
  /// The robot's state and control (set_pd, set_torque, state(),
  /// motor_torque()). Step through RobotWorld::step, not robot().step.
  ArticulatedSim& robot() { return robot_; }
  const ArticulatedSim& robot() const { return robot_; }

  /// Self-collision: the pairs of links that both have collision shapes
  /// and that `allowed` does not allow touch each other (contacts between
  /// their shapes, as between a link and a body, at the world's friction
  /// default_mu). AllowedCollisionMatrix::adjacent(model), with the SRDF's
  /// disabled pairs added (apply_srdf), is the usual matrix: a joint's two
  /// links overlap by construction. A matrix allowing every pair turns it
  /// off (as constructed). Throws proxima::Error when the matrix is not
  /// sized for the robot's links.
  void set_self_collision(const AllowedCollisionMatrix& allowed);
  /// Friction between a link and a body: `mu` (finite, ≥ 0) between link
  /// `link` and body `body` (a world body's index), or with body = −1
  /// between that link and every body a pair of its own does not name.
  /// Links without one touch bodies with world().friction.default_mu, and
  /// link–link contacts always do. Throws proxima::Error naming the link or
  /// body index, or the coefficient, that is out of range.
  void set_link_friction(int link, int body, double mu);
  /// The coefficient a contact between `link` and `body` uses.
  double link_friction(int link, int body) const;

  /// The link pairs (a < b) self-collision checks.
  const std::vector<std::pair<int, int>>& self_pairs() const { return self_pairs_; }

  /// Advances robot and bodies by world().options.dt. Throws proxima::Error
  /// naming the field for a dt that is not finite and > 0, a gravity changed
  /// since construction, and for what the step does not support: a
  /// kinematic body, a force or torque schedule, a restitution coefficient
  /// other than 0, the sliding friction basis; and for an epsilon that is
  /// not finite and >= 0.
  /// A robot step that fails (ArticulatedSim::step's errors) leaves robot
  /// and bodies as they were.
  void step();

  /// The world's clock (it goes on from the World's time; each step adds
  /// dt to it as World::step does).
  double time() const { return world_.time(); }
  const std::vector<RobotContact>& last_contacts() const { return contacts_; }
  const RobotWorldStats& last_stats() const { return stats_; }
  /// World pose of every link at the current state.
  const std::vector<Transform>& link_poses() const { return poses_; }

  /// Kinetic energy of robot (½ uᵀ M u, a floating base's motion included)
  /// and bodies, and the potential of gravity (−m g·x over links, the root
  /// link too, and dynamic bodies), J.
  double kinetic_energy() const;
  double potential_energy() const;

 private:
  // One collision element of a link as the sim layer's geometry.
  struct Part {
    int link = -1;
    Transform origin;
    std::shared_ptr<const sim::Geometry> geometry;
  };
  // A contact before the solve: its sides, as in RobotContact.
  struct Found {
    RobotContact c;
    double mu = 0.0;
  };
  // A joint limit row on velocity entry `variable`: q̇⁺ along `sign` (+1
  // lower, −1 upper) closes at most `gap` in the step.
  struct Limit {
    int variable = 0;
    double sign = 1.0;
    double gap = 0.0;
  };

  void check_options() const;
  void find_contacts();
  void build();
  void apply();
  // Adds row `row` of J along d at p for side (link, body) with sign s.
  void add_side(Eigen::Index row, int link, int body, const Vec3& p, const Vec3& d, double s);
  // The ε and PEG formulations (robot_world_facets.cpp).
  bool facet_formulation() const;
  // The vertex–facet contacts of the pair (geometry a at pose_a, geometry
  // b at pose_b; `fixed`: a static body) with the sides of `sides`, added
  // to found_ (and their PEG aux rows to aux_) when the formulation gives
  // the pair facet rows; false when it keeps its manifold.
  bool add_facet_contacts(const sim::Geometry& a, const Transform& pose_a, bool fixed_a, const sim::Geometry& b,
                          const Transform& pose_b, bool fixed_b, const RobotContact& sides, double mu);
  // Writes the aux rows of aux_ from row `first` on (J_, lcp_.b's
  // ψ-terms, lcp_.groups).
  void add_aux_rows(Eigen::Index first);

  ArticulatedSim robot_;
  sim::World world_;
  std::vector<Part> parts_;
  /// parts_ of link l: [part_begin_[l], part_begin_[l + 1]).
  std::vector<std::size_t> part_begin_;
  std::vector<std::pair<int, int>> self_pairs_;
  /// set_link_friction's coefficients by (link, body), body −1 for all.
  std::map<std::pair<int, int>, double> link_mu_;
  std::vector<Transform> poses_;
  std::vector<Found> found_;
  std::vector<Limit> limits_;
  std::vector<RobotContact> contacts_;
  RobotWorldStats stats_;
  ContactSet scratch_;
  // Generalized coordinates: robot variables, then 6 per dynamic body.
  std::vector<int> dof_;  // body → first coordinate, −1 for static bodies
  Eigen::Index n_ = 0;
  Eigen::MatrixXd J_, MJt_;
  Eigen::VectorXd v_star_, x_, robot_impulse_, dv_;
  sim::ContactLcp lcp_;
  PointJacobian point_J_;
  std::vector<Mat3> inv_inertia_;
  sim::detail::FacetScratch facets_;
  std::vector<sim::detail::AuxFacet> aux_;  // PEG aux facets of this step, by contact
};

}  // namespace proxima::robot
