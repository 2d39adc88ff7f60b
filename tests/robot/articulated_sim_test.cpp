// SPDX-License-Identifier: BSD-3-Clause
// Joint-space time stepping against closed forms: a pendulum's small-
// amplitude period and its energy, viscous and Coulomb decay, a PD-held
// Panda's steady-state error against gravity (gravity from the Lagrangian
// built here from kinematics), and joint limits held against a torque.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <proxima/core/error.hpp>
#include <proxima/robot/articulated_sim.hpp>
#include <proxima/robot/kinematics.hpp>
#include <proxima/robot/urdf.hpp>

#include "../support/test_shapes.hpp"
#include "robot_test_support.hpp"

namespace proxima::robot {
namespace {

using Eigen::VectorXd;

constexpr double kGravity = 9.81;

// A pendulum about y, centre of mass l_c below the pivot, inertia i_c about
// it; `joint_extra` goes inside the <joint> (limits, dynamics).
std::string sim_pendulum(double m, double lc, double ic, const std::string& type = "continuous",
                         const std::string& joint_extra = "") {
  std::string s = "<robot name=\"pendulum\"><link name=\"base\"/><link name=\"bob\"><inertial><origin xyz=\"0 0 ";
  s.append(robot_test::exact(-lc)).append("\"/><mass value=\"").append(robot_test::exact(m)).append("\"/><inertia ixx=\"");
  s.append(robot_test::exact(ic)).append("\" iyy=\"").append(robot_test::exact(ic)).append("\" izz=\"0\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/>");
  s.append("</inertial></link><joint name=\"pivot\" type=\"").append(type).append("\"><parent link=\"base\"/>");
  s.append("<child link=\"bob\"/><axis xyz=\"0 1 0\"/>").append(joint_extra).append("</joint></robot>");
  return s;
}

ArticulatedState at(double q, double qd) { return {VectorXd::Constant(1, q), VectorXd::Constant(1, qd)}; }

TEST(ArticulatedSim, PendulumPeriodAtSmallAmplitude) {
  // T = 2π √(I / (m g l_c)) with I about the pivot; at 0.01 rad the
  // amplitude correction (1 + θ²/16) is 6e-6, semi-implicit Euler's phase
  // error at dt = 1e-4 about (ω dt)²/24 ≈ 1e-8: 1e-4 is a wide margin.
  const double m = 1.2, lc = 0.5, ic = 0.02, I = ic + m * lc * lc;
  const double period = 2.0 * M_PI * std::sqrt(I / (m * kGravity * lc));
  ArticulatedSim sim(Dynamics(parse_urdf(sim_pendulum(m, lc, ic), ".")), at(0.01, 0.0));
  const double dt = 1e-4;
  std::vector<double> upward;  // times θ crosses 0 upwards, interpolated
  double prev = sim.state().q[0];
  while (sim.time() < 5.5 * period) {
    sim.step(dt);
    const double now = sim.state().q[0];
    if (prev < 0.0 && now >= 0.0) upward.push_back(sim.time() - dt * now / (now - prev));
    prev = now;
  }
  ASSERT_EQ(upward.size(), 5u);
  const double measured = (upward.back() - upward.front()) / 4.0;
  EXPECT_NEAR(measured, period, 1e-4 * period);
}

TEST(ArticulatedSim, PendulumEnergyStaysBoundedOverAMinute) {
  // Semi-implicit Euler is symplectic: the energy of an undamped pendulum
  // swinging to 1 rad oscillates by O(ω dt) of its scale and does not drift.
  const double m = 0.8, lc = 0.4, ic = 0.01, I = ic + m * lc * lc;
  ArticulatedSim sim(Dynamics(parse_urdf(sim_pendulum(m, lc, ic), ".")), at(1.0, 0.0));
  const auto energy = [&] {
    const double q = sim.state().q[0], qd = sim.state().qd[0];
    return 0.5 * I * qd * qd - m * kGravity * lc * std::cos(q);
  };
  const double scale = m * kGravity * lc, e0 = energy(), dt = 1e-3;
  const double duration = testing::reduced_run() ? 6.0 : 60.0;
  double worst = 0.0, first_second = 0.0, last_second = 0.0;
  int first_n = 0, last_n = 0;
  while (sim.time() < duration) {
    sim.step(dt);
    const double e = energy();
    worst = std::max(worst, std::abs(e - e0));
    if (sim.time() < 1.0) first_second += e, ++first_n;
    if (sim.time() > duration - 1.0) last_second += e, ++last_n;
  }
  EXPECT_LT(worst, 5e-3 * scale);
  ASSERT_GT(first_n, 0);
  ASSERT_GT(last_n, 0);
  // No drift: the one-second means agree far better than the oscillation.
  EXPECT_LT(std::abs(last_second / last_n - first_second / first_n), 5e-4 * scale);
}

TEST(ArticulatedSim, ViscousDampingDecaysAsTheExponential) {
  // No gravity: I q̈ = −d q̇, so q̇ = v0 exp(−d t / I).
  const double m = 1.0, lc = 0.3, ic = 0.01, I = ic + m * lc * lc, d = 0.4, v0 = 2.0;
  const RobotModel model =
      parse_urdf(sim_pendulum(m, lc, ic, "continuous", "<dynamics damping=\"" + robot_test::exact(d) + "\"/>"), ".");
  ArticulatedSim sim(Dynamics(model, Transform::identity(), Vec3::Zero()), at(0.0, v0));
  int checked = 0;
  for (double t = 0.25; t <= 1.0 + 1e-9; t += 0.25) {
    while (sim.time() < t - 1e-12) sim.step(1e-4);
    const double expected = v0 * std::exp(-d * sim.time() / I);
    EXPECT_NEAR(sim.state().qd[0], expected, 1e-3 * v0);
    ++checked;
  }
  EXPECT_EQ(checked, 4);
}

TEST(ArticulatedSim, CoulombFrictionStopsTheJointAndHoldsIt) {
  // No gravity: constant deceleration F/I until rest at θ = v0² I / (2F),
  // then stuck. With gravity, friction above the gravity torque holds a
  // pendulum at rest where it is.
  const double m = 1.0, lc = 0.3, ic = 0.01, I = ic + m * lc * lc, F = 0.5, v0 = 1.5;
  const std::string extra = "<dynamics friction=\"" + robot_test::exact(F) + "\"/>";
  ArticulatedSim spinning(Dynamics(parse_urdf(sim_pendulum(m, lc, ic, "continuous", extra), "."), Transform::identity(),
                               Vec3::Zero()),
                      at(0.0, v0));
  const double dt = 1e-4, stop = v0 * I / F;
  while (spinning.time() < stop + 0.5) spinning.step(dt);
  EXPECT_EQ(spinning.state().qd[0], 0.0);
  EXPECT_NEAR(spinning.state().q[0], v0 * v0 * I / (2.0 * F), v0 * dt);

  // m g l_c sin 0.1 ≈ 0.29 < 0.5: it does not move.
  ArticulatedSim held(Dynamics(parse_urdf(sim_pendulum(m, lc, ic, "continuous", extra), ".")), at(0.1, 0.0));
  for (int i = 0; i < 2000; ++i) held.step(1e-3);
  EXPECT_EQ(held.state().q[0], 0.1);
  EXPECT_EQ(held.state().qd[0], 0.0);
}

// G(q) = −Σ m J_vᵀ g, each link's centre-of-mass Jacobian built from the
// joints' world axes and origins (forward kinematics, not the dynamics).
VectorXd gravity_torque(const RobotModel& m, const VectorXd& q, const Vec3& g) {
  const std::vector<Transform> pose = forward_kinematics(m, std::vector<double>(q.data(), q.data() + q.size()));
  VectorXd G = VectorXd::Zero(q.size());
  for (std::size_t l = 0; l < m.links().size(); ++l) {
    const Inertial& in = m.links()[l].inertial;
    const Vec3 com = pose[l].apply(in.origin.p);
    for (int j = m.links()[l].parent_joint; j >= 0; j = m.link(m.joint(j).parent_link).parent_joint) {
      const Joint& jt = m.joint(j);
      if (jt.variable < 0) continue;
      const Transform& frame = pose[static_cast<std::size_t>(jt.child_link)];
      const Vec3 axis = frame.R * jt.axis;
      const Vec3 column = jt.type == JointType::prismatic ? axis : Vec3(axis.cross(com - frame.p));
      G[jt.variable] -= in.mass * jt.variable_multiplier * column.dot(g);
    }
  }
  return G;
}

TEST(ArticulatedSim, PandaHoldsAPoseUnderGravityWithTheExpectedSteadyStateError) {
  // At rest under PD alone, kp (q_target − q) = G(q): the error is the
  // gravity torque over kp, to 1 % of it.
  const RobotModel model = load_urdf(robot_test::robots_dir() / "panda" / "panda.urdf");
  const VectorXd target = (VectorXd(7) << 0.2, -0.5, 0.1, -2.0, 0.3, 1.8, 0.6).finished();
  const VectorXd kp = (VectorXd(7) << 3000, 3000, 3000, 3000, 800, 800, 800).finished();
  // Joint inertias up to ~3 kg m² (the first joints) and 0.1 (the wrist's
  // URDF inertia): kd = 2 √(kp · 1) is near critical for the large ones and
  // well damped for the small, and dt = 2e-4 keeps kd dt / M_ii below 1.
  const VectorXd kd = (2.0 * kp.array().sqrt()).matrix();
  ArticulatedSim sim(Dynamics(model), {target, VectorXd::Zero(7)});
  sim.set_pd(kp, kd, target, VectorXd::Zero(7));
  while (sim.time() < 4.0) sim.step(2e-4);
  const VectorXd q = sim.state().q;
  EXPECT_LT(sim.state().qd.cwiseAbs().maxCoeff(), 1e-6);
  const VectorXd G = gravity_torque(model, q, Vec3(0, 0, -kGravity));
  int checked = 0;
  for (Eigen::Index i = 0; i < 7; ++i) {
    const double expected = G[i] / kp[i], error = target[i] - q[i];
    EXPECT_NEAR(error, expected, 0.01 * std::abs(expected) + 1e-9) << "joint " << i;
    ++checked;
  }
  EXPECT_EQ(checked, 7);
  // The shoulder and elbow carry the arm: a visible error, not a trivial pass.
  EXPECT_GT(std::abs(G[1] / kp[1]), 1e-3);
  EXPECT_GT(std::abs(G[3] / kp[3]), 1e-3);
}

TEST(ArticulatedSim, EffortLimitClampsTheMotor) {
  // A PD pulling far: the motor gives the URDF's effort, no more.
  const RobotModel model = parse_urdf(
      sim_pendulum(1.0, 0.3, 0.01, "revolute", "<limit lower=\"-3\" upper=\"3\" effort=\"2.5\" velocity=\"1\"/>"), ".");
  ArticulatedSim sim(Dynamics(model), at(0.0, 0.0));
  sim.set_pd(VectorXd::Constant(1, 1000.0), VectorXd::Constant(1, 10.0), VectorXd::Constant(1, 2.0), VectorXd::Zero(1));
  sim.step(1e-3);
  EXPECT_EQ(sim.motor_torque()[0], 2.5);
  sim.set_pd(VectorXd::Constant(1, 1000.0), VectorXd::Zero(1), VectorXd::Constant(1, -2.0), VectorXd::Zero(1));
  sim.step(1e-3);
  EXPECT_EQ(sim.motor_torque()[0], -2.5);
  sim.clear_pd();
  sim.set_torque(VectorXd::Constant(1, 0.7));
  sim.step(1e-3);
  EXPECT_EQ(sim.motor_torque()[0], 0.7);
}

TEST(ArticulatedSim, StiffPdOnALightLinkIsImplicitAndStable) {
  // A light link (I = 0.0023 kg m², a quadruped's shin) without gravity
  // under kp = 150, kd = 8 at dt = 1 ms: kd dt / I = 3.5, where a torque
  // from the step's start (q̇⁺ = q̇ + dt τ(q, q̇) / I) multiplies the error
  // by about 1 − kd dt / I = −2.5 a step and diverges. The motor acting at
  // the step's end follows the scheme's own recurrence, written out here:
  //   (I + dt kd + dt² kp) q̇⁺ = I q̇ + dt kp (q_t − q),  q⁺ = q + dt q̇⁺,
  // and settles on the target; its torque is kp (q_t − q − dt q̇⁺) − kd q̇⁺.
  const double I = 0.0023, kp = 150.0, kd = 8.0, dt = 1e-3, target = 0.3;
  const RobotModel model = parse_urdf(sim_pendulum(0.3, 0.0, I), ".");
  ArticulatedSim sim(Dynamics(model, Transform::identity(), Vec3::Zero()), at(0.0, 0.0));
  sim.set_pd(VectorXd::Constant(1, kp), VectorXd::Constant(1, kd), VectorXd::Constant(1, target), VectorXd::Zero(1));
  double q = 0.0, v = 0.0, worst = 0.0, largest_error = 0.0;
  for (int i = 0; i < 2000; ++i) {
    sim.step(dt);
    v = (I * v + dt * kp * (target - q)) / (I + dt * kd + dt * dt * kp);
    const double tau = kp * (target - q - dt * v) - kd * v;
    q += dt * v;
    worst = std::max(worst, std::abs(sim.state().q[0] - q));
    worst = std::max(worst, std::abs(sim.motor_torque()[0] - tau) / kp);
    largest_error = std::max(largest_error, std::abs(sim.state().q[0] - target));
  }
  EXPECT_LT(worst, 1e-12);
  EXPECT_LE(largest_error, target);  // never beyond the start's error
  EXPECT_NEAR(sim.state().q[0], target, 1e-9);
  EXPECT_NEAR(sim.state().qd[0], 0.0, 1e-9);
}

TEST(ArticulatedSim, ImplicitMotorTracksAVelocityTargetWithinItsEffort) {
  // No gravity, a damping-only motor (kp = 0, kd = 1 N m s/rad, effort
  // 10 N m) asked for 15 rad/s from 14: its torque kd (15 − q̇) is 1 N m,
  // well inside the limit, though kd q̇_target (15) is not; the joint
  // reaches 15 rad/s (exponentially, time constant I / kd) and the torque
  // falls to 0. Then a stiff motor (kp = 1e4) on the same link far from its
  // target: the torque, start-of-step or implicit, never passes the effort.
  const double I = 0.05, effort = 10.0, dt = 1e-3;
  const RobotModel model = parse_urdf(
      sim_pendulum(1.0, 0.0, I, "continuous", "<limit effort=\"10\" velocity=\"100\"/>"), ".");
  ArticulatedSim sim(Dynamics(model, Transform::identity(), Vec3::Zero()), at(0.0, 14.0));
  sim.set_pd(VectorXd::Zero(1), VectorXd::Constant(1, 1.0), VectorXd::Zero(1), VectorXd::Constant(1, 15.0));
  double largest = 0.0;
  for (int i = 0; i < 2000; ++i) {
    sim.step(dt);
    largest = std::max(largest, std::abs(sim.motor_torque()[0]));
  }
  EXPECT_NEAR(sim.state().qd[0], 15.0, 1e-6);  // 2 s = 40 time constants
  EXPECT_NEAR(sim.motor_torque()[0], 0.0, 1e-6);
  EXPECT_LE(largest, 1.0 + 1e-12);
  sim.set_pd(VectorXd::Constant(1, 1e4), VectorXd::Constant(1, 1.0), VectorXd::Constant(1, 100.0), VectorXd::Zero(1));
  largest = 0.0;
  for (int i = 0; i < 2000; ++i) {
    sim.step(dt);
    largest = std::max(largest, std::abs(sim.motor_torque()[0]));
  }
  EXPECT_LE(largest, effort);
  EXPECT_NEAR(largest, effort, 1e-12);  // it saturates on the way
}

TEST(ArticulatedSim, JointLimitsHoldAgainstATorquePushingIntoThem) {
  // A pendulum pushed into its upper limit by 5 N m (gravity resists with at
  // most m g l_c = 2.9 N m) sits on the limit after 5 s.
  const RobotModel model = parse_urdf(
      sim_pendulum(1.0, 0.3, 0.01, "revolute", "<limit lower=\"-0.5\" upper=\"0.5\" velocity=\"1\"/>"), ".");
  ArticulatedSim sim(Dynamics(model), at(0.0, 0.0));
  sim.set_torque(VectorXd::Constant(1, 5.0));
  double worst = 0.0;
  while (sim.time() < 5.0) {
    sim.step(1e-3);
    worst = std::max(worst, sim.state().q[0] - 0.5);
  }
  EXPECT_LE(worst, 1e-6);
  EXPECT_NEAR(sim.state().q[0], 0.5, 1e-6);

  // The Panda, every joint driven towards or through its limits, unactuated
  // otherwise, under gravity: no joint leaves its range by more than 1e-6.
  const RobotModel panda = load_urdf(robot_test::robots_dir() / "panda" / "panda.urdf");
  ArticulatedSim arm(Dynamics(panda), {(VectorXd(7) << 0, 0, 0, -1.5, 0, 1.5, 0).finished(), VectorXd::Zero(7)});
  arm.set_torque((VectorXd(7) << 30, -30, 20, 25, 5, -5, 5).finished());
  double deepest = 0.0;
  int at_limit = 0;
  const double duration = testing::reduced_run() ? 1.0 : 5.0;
  while (arm.time() < duration) {
    arm.step(1e-3);
    for (std::size_t i = 0; i < 7; ++i) {
      const Joint& j = panda.joint(panda.variable_joint(i));
      const double q = arm.state().q[static_cast<Eigen::Index>(i)];
      deepest = std::max({deepest, j.lower - q, q - j.upper});
    }
  }
  for (std::size_t i = 0; i < 7; ++i) {
    const Joint& j = panda.joint(panda.variable_joint(i));
    const double q = arm.state().q[static_cast<Eigen::Index>(i)];
    if (std::min(q - j.lower, j.upper - q) < 1e-6) ++at_limit;
  }
  EXPECT_LE(deepest, 1e-6);
  // The torques do push some joints onto their limits.
  EXPECT_GE(at_limit, 2);
}

TEST(ArticulatedSim, MasslessJointsNeedDampingAndFixedRobotsJustKeepTime) {
  // A joint that moves no mass has no acceleration of its own: refused,
  // unless damping gives it a first-order motion (q̇ = τ / d).
  const std::string massless = "<robot name=\"massless\"><link name=\"base\"/><link name=\"bob\"/>";
  const std::string joint = "<joint name=\"pivot\" type=\"continuous\"><parent link=\"base\"/><child link=\"bob\"/>";
  ArticulatedSim bare(Dynamics(parse_urdf(massless + joint + "<axis xyz=\"0 1 0\"/></joint></robot>", ".")),
                      at(0.0, 0.0));
  testing::expect_error([&] { bare.step(1e-3); }, {"massless", "not positive definite"});
  ArticulatedSim damped(Dynamics(parse_urdf(massless + joint +
                                                "<axis xyz=\"0 1 0\"/><dynamics damping=\"2\"/></joint></robot>",
                                            ".")),
                        at(0.0, 0.0));
  damped.set_torque(VectorXd::Constant(1, 3.0));
  for (int i = 0; i < 10; ++i) damped.step(1e-3);
  EXPECT_NEAR(damped.state().qd[0], 1.5, 1e-12);
  EXPECT_NEAR(damped.state().q[0], 0.015, 1e-12);

  const std::string welded = "<robot name=\"welded\"><link name=\"base\"/><link name=\"arm\"><inertial><mass "
                             "value=\"1\"/><inertia ixx=\"1\" iyy=\"1\" izz=\"1\" ixy=\"0\" ixz=\"0\" "
                             "iyz=\"0\"/></inertial></link><joint name=\"weld\" type=\"fixed\"><parent "
                             "link=\"base\"/><child link=\"arm\"/></joint></robot>";
  const Dynamics fixed(parse_urdf(welded, "."));
  EXPECT_EQ(fixed.dof(), 0u);
  EXPECT_EQ(fixed.inverse_dynamics(VectorXd(), VectorXd(), VectorXd()).size(), 0);
  EXPECT_EQ(fixed.forward_dynamics(VectorXd(), VectorXd(), VectorXd()).size(), 0);
  ArticulatedSim still(fixed, {VectorXd(), VectorXd()});
  still.step(0.5);
  EXPECT_EQ(still.time(), 0.5);
}

TEST(ArticulatedSim, RefusesBadInput) {
  const Dynamics dyn(parse_urdf(sim_pendulum(1.0, 0.3, 0.01), "."));
  testing::expect_error([&] { ArticulatedSim s(dyn, {VectorXd::Zero(2), VectorXd::Zero(1)}); },
                        {"pendulum", "joint position", "2 values"});
  testing::expect_error([&] { ArticulatedSim s(dyn, at(0.0, std::nan(""))); }, {"joint velocity", "pivot", "not finite"});
  ArticulatedSim sim(dyn, at(0.0, 0.0));
  testing::expect_error([&] { sim.step(0.0); }, {"dt", "> 0"});
  testing::expect_error([&] { sim.step(std::numeric_limits<double>::infinity()); }, {"dt", "finite"});
  testing::expect_error([&] { sim.set_torque(VectorXd::Zero(3)); }, {"joint torque", "3 values"});
  const VectorXd one = VectorXd::Ones(1);
  testing::expect_error([&] { sim.set_pd(-one, one, one, one); }, {"PD gains", "pivot", ">= 0"});
  testing::expect_error([&] { sim.set_pd(one, one, VectorXd::Constant(1, std::nan("")), one); },
                        {"position target", "not finite"});
  // A step that overflows is refused and leaves the state as it was.
  ArticulatedSim pushed(dyn, at(0.25, 1.0));
  pushed.set_torque(VectorXd::Constant(1, 1e308));
  testing::expect_error([&] { pushed.step(1e10); }, {"pendulum", "overflowed"});
  EXPECT_EQ(pushed.state().q[0], 0.25);
  EXPECT_EQ(pushed.state().qd[0], 1.0);
  EXPECT_EQ(pushed.time(), 0.0);
  // Nothing above changed the state.
  EXPECT_EQ(sim.state().q[0], 0.0);
  EXPECT_EQ(sim.time(), 0.0);
}

}  // namespace
}  // namespace proxima::robot
