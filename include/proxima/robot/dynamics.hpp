// SPDX-License-Identifier: BSD-3-Clause
// Joint-space dynamics of a robot with a fixed or a floating base: inverse
// dynamics by the recursive Newton–Euler algorithm, the mass matrix by the
// composite-rigid-body algorithm, bias forces, and forward dynamics by a
// Cholesky solve of M(q) q̈ = τ − h(q, q̇) (Featherstone, Rigid Body Dynamics
// Algorithms, chapters 5 and 6; the floating base as a 6-DoF joint of the
// root link, section 9.3).
//
// Floating base (BaseKind::floating): the positions are the base pose (the
// root link's frame in the world, a Transform) and q; the velocities are
// u = [v; ω; q̇], v the velocity of the root link's origin and ω its angular
// velocity, both written in the root link's frame. In that frame the base's
// motion subspace is the identity, and M does not depend on the base pose
// (only gravity does, through h): docs/dynamics.md. The generalized forces
// are [f; n; τ], the force and the moment about the root link's origin,
// in its frame; the base is unactuated, so a physical τ has f = n = 0.
//
// Everything is over the model's joint vector (RobotModel::variable_names()
// order): a mimic joint moves as multiplier · q[target] + offset, so its
// motion subspace is scaled by the multiplier and its torque folds into the
// target's entry; fixed joints carry no variable (their child link rides on
// the parent). Masses and inertias are the links' URDF <inertial> data; a
// link without one is massless.
//
// Units: SI (kg, m, s, rad; torques in N m for revolute joints, forces in N
// for prismatic ones). Internally each link's spatial quantities are written
// in its own frame, angular part first (docs/dynamics.md).
#pragma once

#include <cstddef>
#include <vector>

#include <Eigen/Cholesky>
#include <Eigen/Core>

#include <proxima/core/transform.hpp>
#include <proxima/robot/base_kind.hpp>
#include <proxima/robot/robot_model.hpp>

namespace proxima::robot {

using Vec6 = Eigen::Matrix<double, 6, 1>;
using Mat6 = Eigen::Matrix<double, 6, 6>;

/// Scratch space of one Dynamics' queries, owned by the caller so that a
/// loop over many states allocates nothing once it is sized (the first
/// query sizes it). One per thread; the members are the algorithms' own.
struct DynamicsWorkspace {
  std::vector<Mat3> E;   ///< per body: rotation parent frame → child frame
  std::vector<Vec3> r;   ///< per body: child origin in the parent frame
  std::vector<Vec6> v, a, f;
  std::vector<Mat6> X;   ///< per body: motion transform parent → child
  std::vector<Mat6> Ic;  ///< per body: composite inertia of its subtree
  Eigen::VectorXd h;
  Eigen::VectorXd rhs;
  Eigen::MatrixXd M;
  Eigen::LLT<Eigen::MatrixXd> llt;
};

/// The dynamics of `model` with its root link fixed at `base` (or, for a
/// floating base, free and at `base` in the queries that take no base pose),
/// under `gravity` (world frame, m/s²). Immutable and safe to share between
/// threads; every query takes the caller's workspace or allocates its own.
///
/// Every query checks its vectors: a position vector must have
/// variable_count() finite entries, a velocity, acceleration or force vector
/// dof() (for a floating base the 6 base entries come first), else
/// proxima::Error names the vector, the entry and its joint (or base
/// entry). A result that overflows (finite but enormous velocities or
/// masses) throws proxima::Error too: no query returns inf or NaN.
class Dynamics {
 public:
  /// Throws proxima::Error for a base pose or gravity that is not finite.
  explicit Dynamics(const RobotModel& model, const Transform& base = Transform::identity(),
                    const Vec3& gravity = Vec3(0.0, 0.0, -9.81), BaseKind kind = BaseKind::fixed);

  const RobotModel& model() const { return model_; }
  /// The fixed base's pose; for a floating base the pose the queries
  /// without a base pose argument use.
  const Transform& base() const { return base_; }
  const Vec3& gravity() const { return gravity_; }
  BaseKind base_kind() const { return kind_; }
  bool floating() const { return kind_ == BaseKind::floating; }
  /// Number of joint variables (model().variable_count()): the length of q.
  std::size_t variable_count() const { return model_.variable_count(); }
  /// Number of generalized velocities: variable_count(), plus 6 for a
  /// floating base (its twist, first).
  std::size_t dof() const { return model_.variable_count() + (floating() ? 6 : 0); }
  /// Index of variable 0 in a velocity vector: 6 for a floating base, else 0.
  Eigen::Index base_dofs() const { return floating() ? 6 : 0; }

  /// Throws proxima::Error unless `x` has variable_count() finite entries,
  /// naming the vector ("joint position"), the entry and its joint.
  void check(const Eigen::VectorXd& x, const char* what) const;
  /// The same for a vector of dof() entries (velocities, accelerations,
  /// generalized forces): a bad base entry is named "base v_x" … "base ω_z".
  void check_velocity(const Eigen::VectorXd& x, const char* what) const;

  /// τ = M(q) q̈ + h(q, q̇): the joint torques (forces) that give the robot
  /// acceleration q̈ at state (q, q̇). Recursive Newton–Euler. The overloads
  /// with `base` take the base pose of the state (a floating base's gravity
  /// direction in its frame; a fixed base placed there).
  Eigen::VectorXd inverse_dynamics(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                   const Eigen::VectorXd& qdd) const;
  void inverse_dynamics(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, const Eigen::VectorXd& qdd,
                        DynamicsWorkspace& ws, Eigen::VectorXd& tau) const;
  Eigen::VectorXd inverse_dynamics(const Transform& base, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                   const Eigen::VectorXd& qdd) const;
  void inverse_dynamics(const Transform& base, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                        const Eigen::VectorXd& qdd, DynamicsWorkspace& ws, Eigen::VectorXd& tau) const;

  /// The mass matrix M(q), dof() × dof() (symmetric, positive semi-definite;
  /// definite unless some variable moves no mass). Composite rigid bodies.
  /// It does not depend on the base pose.
  Eigen::MatrixXd mass_matrix(const Eigen::VectorXd& q) const;
  void mass_matrix(const Eigen::VectorXd& q, DynamicsWorkspace& ws, Eigen::MatrixXd& M) const;

  /// h(q, q̇) = C(q, q̇) q̇ + G(q): Coriolis, centrifugal and gravity terms
  /// (inverse dynamics at q̈ = 0).
  Eigen::VectorXd bias_forces(const Eigen::VectorXd& q, const Eigen::VectorXd& qd) const;
  void bias_forces(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, DynamicsWorkspace& ws,
                   Eigen::VectorXd& h) const;
  Eigen::VectorXd bias_forces(const Transform& base, const Eigen::VectorXd& q, const Eigen::VectorXd& qd) const;
  void bias_forces(const Transform& base, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                   DynamicsWorkspace& ws, Eigen::VectorXd& h) const;

  /// q̈ solving M(q) q̈ = τ − h(q, q̇). Throws proxima::Error when M(q) is
  /// not positive definite (a variable that moves no mass: give its links an
  /// <inertial>; a floating robot without mass or rotational inertia).
  Eigen::VectorXd forward_dynamics(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                   const Eigen::VectorXd& tau) const;
  void forward_dynamics(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, const Eigen::VectorXd& tau,
                        DynamicsWorkspace& ws, Eigen::VectorXd& qdd) const;
  Eigen::VectorXd forward_dynamics(const Transform& base, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                   const Eigen::VectorXd& tau) const;
  void forward_dynamics(const Transform& base, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                        const Eigen::VectorXd& tau, DynamicsWorkspace& ws, Eigen::VectorXd& qdd) const;

 private:
  enum class Motion { none, rotation, translation };
  // One per joint, in topological order; its child link is the body.
  struct Body {
    int parent = -1;  ///< body of the parent link; −1 when that is the root link
    int variable = -1;
    double multiplier = 1.0, offset = 0.0;
    Motion motion = Motion::none;
    Mat3 origin_R = Mat3::Identity();
    Vec3 origin_p = Vec3::Zero();
    Vec3 axis = Vec3::UnitZ();  ///< unit, in the child frame
    Mat6 inertia = Mat6::Zero();  ///< the child link's, about its origin, in its frame
  };

  void overflow_check(bool finite, const char* what) const;
  void prepare(DynamicsWorkspace& ws) const;
  void transforms(const Eigen::VectorXd& q, DynamicsWorkspace& ws) const;
  // RNEA after transforms(): τ for (q̇, q̈), gravity included.
  // `g_root` is gravity in the root link's frame.
  void rnea(const Vec3& g_root, const Eigen::VectorXd& qd, const Eigen::VectorXd* qdd, DynamicsWorkspace& ws,
            Eigen::VectorXd& tau) const;
  Vec3 gravity_in_root(const Transform& base) const;
  void crba(DynamicsWorkspace& ws, Eigen::MatrixXd& M) const;

  RobotModel model_;
  Transform base_;
  Vec3 gravity_;
  BaseKind kind_;
  Mat6 root_inertia_ = Mat6::Zero();  ///< the root link's, about its origin, in its frame
  std::vector<Body> bodies_;
};

}  // namespace proxima::robot
