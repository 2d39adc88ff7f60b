// SPDX-License-Identifier: BSD-3-Clause
// Time stepping of a robot in joint space (contacts on links: RobotWorld):
// semi-implicit Euler over Dynamics, with the URDF's joint damping
// (implicit, so any damping is stable), Coulomb friction and position limits
// as velocity-level constraints, and PD position/velocity targets whose
// motor torque the URDF's effort limit clamps.
//
// One step of length dt from (q, q̇). The PD motor acts at the step's end
// (implicit, as the damping): its torque is
//   τ_motor = τ_ff + kp (q_target − q − dt q̇⁺) + kd (q̇_target − q̇⁺)
//           = c − g q̇⁺,  c = τ_ff + kp (q_target − q) + kd q̇_target,  g = kd + dt kp,
// so the gains enter the matrix, and stiff gains on light links (kd dt / I
// far above 2, where a torque from the step's start overshoots and
// diverges) stay stable. A motor the URDF's effort limit saturates (the
// torque at the step's start, or the implicit one at the free velocity,
// beyond ±effort) gives its clamped start-of-step torque instead, g = 0:
//   (M + dt (D + G)) q̇_free = M q̇ + dt (c − h(q, q̇))
//   q̇⁺ = q̇_free + (M + dt (D + G))⁻¹ λ, with λ the impulses of the constraints:
//     friction on variable i: |λ_i| ≤ dt F_i, pushing q̇⁺_i towards 0;
//     lower limit: λ ≥ 0, q̇⁺_i ≥ (lower − q_i)/dt, complementary;
//     upper limit: λ ≤ 0, q̇⁺_i ≤ (upper − q_i)/dt, complementary;
//   solved by projected Gauss–Seidel (each row is one variable, so the
//   problem is small and the rows' coupling is M's);
//   q⁺ = q + dt q̇⁺, so a satisfied limit row keeps q⁺ inside the limit.
// A mimic joint's damping, friction and limits act on its target variable
// through its multiplier.
//
// A floating base (Dynamics with BaseKind::floating) is unactuated: its six
// velocity entries (dynamics.hpp: v and ω in the root link's frame) take no
// motor torque, damping, friction or limit. After the velocity update the
// base pose moves with the new twist (R the rotation at the step's start):
//   p⁺ = p + dt R v⁺,   R⁺ = R exp(dt ω⁺)
// with exp the exact rotation about ω⁺ (a unit quaternion, renormalized),
// so the rotation stays a rotation however long the run, and no Euler-angle
// chart has singularities.
#pragma once

#include <Eigen/Core>

#include <proxima/robot/dynamics.hpp>

namespace proxima::robot {

/// Joint positions and velocities (model.variable_names() order). For a
/// floating base, `qd` holds the dof() generalized velocities (the base's
/// v and ω in its own frame first) and `base` the root link's world pose;
/// for a fixed base, qd holds the variables' rates and ArticulatedSim keeps
/// `base` at the dynamics' base pose.
struct ArticulatedState {
  Eigen::VectorXd q;
  Eigen::VectorXd qd;
  Transform base = Transform::identity();
};

class ArticulatedSim {
 public:
  /// Starts at `initial`. Throws proxima::Error for a state whose q does not
  /// have dynamics.variable_count() finite entries, whose qd does not have
  /// dynamics.dof() (naming the vector and joint), or, for a floating base,
  /// whose base pose is not a finite rigid transform. A fixed base's
  /// state().base is dynamics.base() whatever `initial` says.
  ArticulatedSim(Dynamics dynamics, const ArticulatedState& initial);

  const ArticulatedState& state() const { return state_; }
  /// Seconds simulated so far.
  double time() const { return time_; }
  const Dynamics& dynamics() const { return dyn_; }

  /// Feed-forward joint torques (forces), held until changed; zero at first.
  /// These and the PD vectors have one entry per variable (never the base).
  void set_torque(const Eigen::VectorXd& tau);
  /// PD control towards (q_target, qd_target) with gains kp, kd ≥ 0 per
  /// variable, held until changed or cleared.
  void set_pd(const Eigen::VectorXd& kp, const Eigen::VectorXd& kd, const Eigen::VectorXd& q_target,
              const Eigen::VectorXd& qd_target);
  void clear_pd();

  /// Advances by dt > 0 (finite). Throws proxima::Error, the state left as
  /// it was, for another dt, when the mass matrix is not positive definite
  /// (a joint that moves no mass and has no damping), or when the step
  /// overflows.
  void step(double dt);

  /// The step in two halves, for a stepper that adds constraints of its own
  /// between them (RobotWorld's contacts). begin_step(dt) checks dt, takes
  /// the motor, factors M + dt (D + G) (G the implicit motors' gains) and
  /// computes the free velocity; the
  /// caller reads free_velocity() and inverse_mass() and hands finish_step a
  /// generalized impulse p (dof() entries, or none), which moves the
  /// velocity by (M + dt (D + G))⁻¹ p before the joint friction and limit rows are
  /// solved and the state advances. step(dt) is begin_step(dt) then
  /// finish_step(nullptr). Throws as step does; finish_step throws
  /// proxima::Error when no begin_step precedes it or p has the wrong size.
  void begin_step(double dt);
  void finish_step(const Eigen::VectorXd* impulse);
  /// q̇_free of the begun step: (M + dt (D + G))⁻¹ (M q̇ + dt (c − h)).
  const Eigen::VectorXd& free_velocity() const { return qd_free_; }
  /// (M + dt (D + G))⁻¹ of the begun step (dof() × dof()).
  const Eigen::MatrixXd& inverse_mass() const { return W_; }
  /// Per variable, the position limits folded from its joints (the tightest;
  /// ±infinity when it has none). Variable i is velocity entry
  /// dynamics().base_dofs() + i.
  const Eigen::VectorXd& lower_limits() const { return lower_; }
  const Eigen::VectorXd& upper_limits() const { return upper_; }

  /// The motor torque of the last step, one entry per variable: an implicit
  /// motor's at the step's final velocity, a saturated one's clamped torque
  /// (between begin_step and finish_step: at the free velocity). A contact
  /// impulse added in finish_step moves an implicit motor's torque with the
  /// velocity it changes, so it can pass the effort limit by that much.
  const Eigen::VectorXd& motor_torque() const { return motor_; }

 private:
  Dynamics dyn_;
  ArticulatedState state_;
  double time_ = 0.0;
  double dt_ = 0.0;  ///< of the begun step; 0 when none is begun
  Eigen::VectorXd tau_ff_, kp_, kd_, q_target_, qd_target_;
  // Per variable, folded from its joints: damping Σ m² d, friction Σ |m| F,
  // effort limit, and position limits (the tightest of its joints').
  Eigen::VectorXd damping_, friction_, effort_, lower_, upper_;
  // Scratch.
  DynamicsWorkspace ws_;
  Eigen::MatrixXd M_, W_;
  Eigen::VectorXd h_, motor_, qd_free_, q_next_, lambda_;
  // The begun step's motor per variable: the start-of-step torque, c (or
  // the clamped start torque) and g.
  Eigen::VectorXd motor_start_, motor_bias_, motor_gain_;
  Transform base_next_;
  Eigen::LLT<Eigen::MatrixXd> llt_;
};

}  // namespace proxima::robot
