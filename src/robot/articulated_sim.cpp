// SPDX-License-Identifier: BSD-3-Clause
// Joint-space time stepping (see articulated_sim.hpp for the scheme).
#include <proxima/robot/articulated_sim.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include <Eigen/Geometry>

#include <proxima/core/error.hpp>

#include "definite.hpp"

namespace proxima::robot {

namespace {

constexpr double kUnlimited = std::numeric_limits<double>::infinity();

// Projected Gauss–Seidel sweeps: each row is one variable, so a lone active
// row is exact after one sweep; coupled rows (two limits hit at once)
// converge geometrically with M's coupling. The tolerance is on the velocity
// residual, far below what a limit's 1e-6 rad needs at any sane dt.
constexpr int kSweeps = 200;
constexpr double kVelocityTolerance = 1e-12;

}  // namespace

ArticulatedSim::ArticulatedSim(Dynamics dynamics, const ArticulatedState& initial)
    : dyn_(std::move(dynamics)), state_(initial) {
  dyn_.check(state_.q, "joint position");
  dyn_.check_velocity(state_.qd, "joint velocity");
  if (!dyn_.floating()) state_.base = dyn_.base();
  else if (!state_.base.is_rigid())
    throw Error("robot '" + dyn_.model().name() + "': initial base pose is not finite or not a rotation");
  const RobotModel& m = dyn_.model();
  const auto n = static_cast<Eigen::Index>(dyn_.variable_count());
  tau_ff_ = Eigen::VectorXd::Zero(n);
  damping_ = Eigen::VectorXd::Zero(n);
  friction_ = Eigen::VectorXd::Zero(n);
  effort_ = Eigen::VectorXd::Constant(n, kUnlimited);
  lower_ = Eigen::VectorXd::Constant(n, -kUnlimited);
  upper_ = Eigen::VectorXd::Constant(n, kUnlimited);
  for (const Joint& j : m.joints()) {
    if (j.variable < 0) continue;
    const double k = j.variable_multiplier;
    damping_[j.variable] += k * k * j.damping;
    friction_[j.variable] += std::abs(k) * j.friction;
    // The motor sits on the variable's own joint; a mimic joint is driven
    // through it.
    if (!j.mimic) effort_[j.variable] = j.effort;
    // position = k q + offset ∈ [lower, upper]; k = 0 pins nothing.
    if (k != 0.0 && std::isfinite(j.lower) && std::isfinite(j.upper)) {
      double lo = (j.lower - j.variable_offset) / k, hi = (j.upper - j.variable_offset) / k;
      if (k < 0.0) std::swap(lo, hi);
      lower_[j.variable] = std::max(lower_[j.variable], lo);
      upper_[j.variable] = std::min(upper_[j.variable], hi);
    }
  }
  motor_ = Eigen::VectorXd::Zero(n);
}

void ArticulatedSim::set_torque(const Eigen::VectorXd& tau) {
  dyn_.check(tau, "joint torque");
  tau_ff_ = tau;
}

void ArticulatedSim::set_pd(const Eigen::VectorXd& kp, const Eigen::VectorXd& kd, const Eigen::VectorXd& q_target,
                            const Eigen::VectorXd& qd_target) {
  dyn_.check(kp, "kp");
  dyn_.check(kd, "kd");
  dyn_.check(q_target, "position target");
  dyn_.check(qd_target, "velocity target");
  for (Eigen::Index i = 0; i < kp.size(); ++i)
    if (kp[i] < 0.0 || kd[i] < 0.0)
      throw Error("robot '" + dyn_.model().name() + "': PD gains of joint '" +
                  dyn_.model().joint(dyn_.model().variable_joint(static_cast<std::size_t>(i))).name +
                  "' must be >= 0, got kp " + std::to_string(kp[i]) + ", kd " + std::to_string(kd[i]));
  kp_ = kp;
  kd_ = kd;
  q_target_ = q_target;
  qd_target_ = qd_target;
}

void ArticulatedSim::clear_pd() {
  kp_.resize(0);
  kd_.resize(0);
  q_target_.resize(0);
  qd_target_.resize(0);
}

void ArticulatedSim::step(double dt) {
  begin_step(dt);
  finish_step(nullptr);
}

void ArticulatedSim::begin_step(double dt) {
  if (!(dt > 0.0) || !std::isfinite(dt))
    throw Error("robot '" + dyn_.model().name() + "': step dt must be finite and > 0, got " + std::to_string(dt));
  dt_ = 0.0;
  const auto n = static_cast<Eigen::Index>(dyn_.variable_count());
  const auto nv = static_cast<Eigen::Index>(dyn_.dof());
  const Eigen::VectorXd& q = state_.q;
  const Eigen::VectorXd& qd = state_.qd;
  dyn_.mass_matrix(q, ws_, M_);
  dyn_.bias_forces(state_.base, q, qd, ws_, h_);

  // The motor (articulated_sim.hpp): implicit PD unless saturated. The
  // start-of-step torque, clamped, is a saturated motor's (and the torque
  // alone without PD); an implicit one's bias c is no torque and is not
  // clamped: its torque c − g q̇⁺ is checked at q̇_free below.
  const Eigen::Index off = nv - n;
  motor_start_ = tau_ff_;
  if (kp_.size() == n)
    motor_start_ += kp_.cwiseProduct(q_target_ - q) + kd_.cwiseProduct(qd_target_ - qd.tail(n));
  motor_bias_ = motor_start_.cwiseMax(-effort_).cwiseMin(effort_);
  motor_gain_.setZero(n);
  if (kp_.size() == n)
    for (Eigen::Index i = 0; i < n; ++i)
      if (std::abs(motor_start_[i]) <= effort_[i]) {
        motor_bias_[i] = tau_ff_[i] + kp_[i] * (q_target_[i] - q[i]) + kd_[i] * qd_target_[i];
        motor_gain_[i] = kd_[i] + dt * kp_[i];
      }

  if (nv == 0) {
    motor_ = motor_bias_;
    qd_free_.resize(0);
    W_.resize(0, 0);
    dt_ = dt;
    return;
  }
  // Damping and PD gains implicit: (M + dt (D + G)) q̇_free = M q̇ + dt (c − h).
  // Solved in place, so that a step allocates nothing once the buffers are
  // sized. The base (the first `off` entries) is unactuated and undamped.
  // A motor whose implicit torque at q̇_free passes its effort limit is
  // saturated after all: it takes its clamped start-of-step torque, and the
  // system is solved again (once per such motor at most, usually never).
  for (;;) {
    W_ = M_;
    W_.diagonal().tail(n) += dt * (damping_ + motor_gain_);
    llt_.compute(W_);
    if (!detail::definite(llt_, W_))
      throw Error("robot '" + dyn_.model().name() +
                  "': the mass matrix is not positive definite at this configuration (a joint that moves no mass "
                  "and has no damping; a floating robot needs mass and rotational inertia)");
    qd_free_.noalias() = M_ * qd;
    qd_free_ -= dt * h_;
    qd_free_.tail(n) += dt * motor_bias_;
    llt_.solveInPlace(qd_free_);
    bool saturated = false;
    for (Eigen::Index i = 0; i < n; ++i) {
      if (motor_gain_[i] == 0.0 || std::abs(motor_bias_[i] - motor_gain_[i] * qd_free_[off + i]) <= effort_[i])
        continue;
      motor_bias_[i] = std::clamp(motor_start_[i], -effort_[i], effort_[i]);
      motor_gain_[i] = 0.0;
      saturated = true;
    }
    if (!saturated) break;
  }
  motor_ = motor_bias_ - motor_gain_.cwiseProduct(qd_free_.tail(n));
  W_.setIdentity(nv, nv);
  llt_.solveInPlace(W_);
  dt_ = dt;
}

void ArticulatedSim::finish_step(const Eigen::VectorXd* impulse) {
  if (!(dt_ > 0.0)) throw Error("robot '" + dyn_.model().name() + "': finish_step without begin_step");
  const double dt = dt_;
  const auto n = static_cast<Eigen::Index>(dyn_.variable_count());
  const auto nv = static_cast<Eigen::Index>(dyn_.dof());
  const Eigen::Index off = dyn_.base_dofs();
  if (impulse && impulse->size() != nv)
    throw Error("robot '" + dyn_.model().name() + "': joint impulse vector has " + std::to_string(impulse->size()) +
                " values, expected " + std::to_string(nv));
  dt_ = 0.0;
  if (nv == 0) {
    time_ += dt;
    return;
  }
  Eigen::VectorXd& q = state_.q;
  Eigen::VectorXd& qd = state_.qd;
  if (impulse) qd_free_.noalias() += W_ * (*impulse);

  // Velocity-level constraints by projected Gauss–Seidel; three impulses per
  // variable (friction, lower, upper), zero when the variable has none.
  lambda_.setZero(3 * n);
  Eigen::VectorXd& v = qd_free_;  // becomes q̇⁺
  for (int sweep = 0; sweep < kSweeps; ++sweep) {
    double change = 0.0;
    for (Eigen::Index i = 0; i < n; ++i) {
      const Eigen::Index k = off + i;  // the variable's velocity entry
      const double w = W_(k, k);
      auto apply = [&](Eigen::Index row, double target, double lo, double hi) {
        const double old = lambda_[row];
        const double next = std::clamp(old - (v[k] - target) / w, lo, hi);
        if (next != old) {
          v += W_.col(k) * (next - old);
          lambda_[row] = next;
          change = std::max(change, std::abs(next - old) * w);
        }
        // A row whose impulse is inside its bounds holds its target; set it
        // exactly, so a stuck joint stays at 0 and a joint on its limit at
        // the limit, not a rounding error away.
        if (next > lo && next < hi) v[k] = target;
      };
      if (friction_[i] > 0.0) apply(3 * i, 0.0, -dt * friction_[i], dt * friction_[i]);
      if (std::isfinite(lower_[i])) apply(3 * i + 1, (lower_[i] - q[i]) / dt, 0.0, kUnlimited);
      if (std::isfinite(upper_[i])) apply(3 * i + 2, (upper_[i] - q[i]) / dt, -kUnlimited, 0.0);
    }
    if (change <= kVelocityTolerance) break;
  }
  // A state that overflowed would poison every later step: refuse it and
  // keep the last good one, rather than hand back inf or NaN.
  q_next_ = q + dt * v.tail(n);
  base_next_ = state_.base;
  if (dyn_.floating()) {
    // p⁺ = p + dt R v⁺ and R⁺ = R exp(dt ω⁺), both twist halves in the
    // base frame (articulated_sim.hpp); the quaternion is renormalized so
    // that rounding never lets R drift off the rotations.
    const Vec3 lin = v.head<3>(), ang = v.segment<3>(3);
    base_next_.p = state_.base.p + dt * (state_.base.R * lin);
    const double angle = dt * ang.norm();
    Eigen::Quaterniond rot(state_.base.R);
    if (angle > 0.0) rot = rot * Eigen::Quaterniond(Eigen::AngleAxisd(angle, ang.normalized()));
    rot.normalize();
    base_next_.R = rot.toRotationMatrix();
  }
  if (!q_next_.allFinite() || !v.allFinite() || !base_next_.is_finite())
    throw Error("robot '" + dyn_.model().name() + "': the state overflowed in the step from t = " +
                std::to_string(time_) + " s (torques, gains or velocities too large for the step)");
  // The implicit motors' torque at the velocity they produced.
  motor_ = motor_bias_ - motor_gain_.cwiseProduct(v.tail(n));
  q.swap(q_next_);
  qd.swap(v);
  state_.base = base_next_;
  time_ += dt;
}

}  // namespace proxima::robot
