// SPDX-License-Identifier: BSD-3-Clause
// The floating base against closed forms that do not come from the dynamics
// code: a free robot without gravity keeps its linear and angular momentum
// and its energy; the centre of mass of a free body under gravity follows
// the parabola; a torque-free asymmetric body tumbles at constant angular
// momentum. Momenta and energies are measured here from forward kinematics
// alone (link velocities by central differences along the motion), and the
// trajectories come from a fourth-order Runge–Kutta integration of
// Dynamics::forward_dynamics written here, so a wrong term in M or h shows
// as drift far above the integrator's error. ArticulatedSim's own
// semi-implicit step is held to what it promises: the discrete parabola
// exactly, and first-order momentum drift.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <Eigen/Geometry>
#include <gtest/gtest.h>

#include <proxima/core/error.hpp>
#include <proxima/robot/articulated_sim.hpp>
#include <proxima/robot/collision_matrix.hpp>
#include <proxima/robot/dynamics.hpp>
#include <proxima/robot/jacobian.hpp>
#include <proxima/robot/kinematics.hpp>
#include <proxima/robot/robot_world.hpp>
#include <proxima/robot/urdf.hpp>

#include "robot_test_support.hpp"

namespace proxima::robot {
namespace {

using Eigen::VectorXd;
using robot_test::expect_error;

// A trunk with an off-centre, full inertia and two limbs: a revolute arm
// carrying a prismatic slider, and a continuous wheel. No limits, no
// damping: a free system whose momenta are exact invariants.
constexpr const char* kTree = R"(<robot name="floater">
  <link name="trunk"><inertial><origin xyz="0.05 -0.02 0.03" rpy="0.1 0.2 0.3"/><mass value="4.0"/>
    <inertia ixx="0.12" ixy="0.01" ixz="-0.005" iyy="0.2" iyz="0.004" izz="0.15"/></inertial></link>
  <link name="arm"><inertial><origin xyz="0.2 0.01 0"/><mass value="1.2"/>
    <inertia ixx="0.01" ixy="0" ixz="0.001" iyy="0.03" iyz="0" izz="0.03"/></inertial></link>
  <link name="slider"><inertial><origin xyz="0 0.02 0.05"/><mass value="0.6"/>
    <inertia ixx="0.004" ixy="0" ixz="0" iyy="0.005" iyz="0.0005" izz="0.003"/></inertial></link>
  <link name="wheel"><inertial><origin xyz="0.01 0 0"/><mass value="0.8"/>
    <inertia ixx="0.006" ixy="0" ixz="0" iyy="0.004" iyz="0" izz="0.004"/></inertial></link>
  <joint name="shoulder" type="continuous"><parent link="trunk"/><child link="arm"/>
    <origin xyz="0.3 0 0.1" rpy="0 0.3 0"/><axis xyz="0 1 0"/></joint>
  <joint name="slide" type="prismatic"><parent link="arm"/><child link="slider"/>
    <origin xyz="0.4 0 0"/><axis xyz="0.6 0 0.8"/><limit lower="-1" upper="1" effort="100" velocity="1"/></joint>
  <joint name="spin" type="continuous"><parent link="trunk"/><child link="wheel"/>
    <origin xyz="-0.2 0.15 0" rpy="0.2 0 0"/><axis xyz="1 0 0"/></joint>
</robot>)";

// One rigid body, its principal moments 1 : 2 : 3 in axes turned off its
// link frame, its centre of mass off the origin.
constexpr const char* kBody = R"(<robot name="brick">
  <link name="brick"><inertial><origin xyz="0.1 -0.05 0.2" rpy="0.4 -0.3 0.7"/><mass value="2.5"/>
    <inertia ixx="1.0" ixy="0" ixz="0" iyy="2.0" iyz="0" izz="3.0"/></inertial></link>
</robot>)";

// The base pose after moving for time s at the constant body twist (v, ω)
// with the pose convention of dynamics.hpp: ṗ = R v, Ṙ = R [ω]×.
Transform advance(const Transform& T, const Vec3& v, const Vec3& w, double s) {
  Transform out = T;
  out.p = T.p + s * (T.R * v);
  if (w.norm() > 0.0) out.R = T.R * Eigen::AngleAxisd(s * w.norm(), w.normalized()).toRotationMatrix();
  return out;
}

// Linear momentum, angular momentum about the world origin and kinetic
// energy of the whole robot, from forward kinematics only: each link's
// centre-of-mass velocity and angular velocity by central differences
// along the path (T advanced by s u_base, q + s q̇).
struct Invariants {
  Vec3 linear, angular;
  double kinetic = 0.0;
};

Invariants invariants(const RobotModel& m, const Transform& T, const VectorXd& q, const VectorXd& u) {
  const double eps = 1e-5;
  const auto n = q.size();
  auto poses = [&](double s) {
    const VectorXd qs = q + s * u.tail(n);
    return forward_kinematics(m, std::vector<double>(qs.data(), qs.data() + n),
                              advance(T, u.head<3>(), u.segment<3>(3), s));
  };
  const std::vector<Transform> plus = poses(eps), minus = poses(-eps), now = poses(0.0);
  Invariants out{Vec3::Zero(), Vec3::Zero(), 0.0};
  for (std::size_t l = 0; l < m.links().size(); ++l) {
    const Inertial& in = m.links()[l].inertial;
    const Vec3 c = now[l].apply(in.origin.p);
    const Vec3 cd = (plus[l].apply(in.origin.p) - minus[l].apply(in.origin.p)) / (2.0 * eps);
    const Eigen::AngleAxisd turn(Mat3(plus[l].R * minus[l].R.transpose()));
    const Vec3 w = turn.angle() * turn.axis() / (2.0 * eps);
    const Mat3 R = now[l].R * in.origin.R;
    const Mat3 I = R * in.inertia * R.transpose();
    out.linear += in.mass * cd;
    out.angular += c.cross(in.mass * cd) + I * w;
    out.kinetic += 0.5 * in.mass * cd.squaredNorm() + 0.5 * w.dot(I * w);
  }
  return out;
}

// The state of a floating robot for the Runge–Kutta integration: base
// position, base quaternion (w, x, y, z), q, u.
struct State {
  Vec3 p;
  Eigen::Vector4d quat;
  VectorXd q, u;
  Transform pose() const {
    Transform T;
    T.R = Eigen::Quaterniond(quat[0], quat[1], quat[2], quat[3]).normalized().toRotationMatrix();
    T.p = p;
    return T;
  }
};

State derivative(const Dynamics& dyn, const State& s) {
  const Transform T = s.pose();
  const auto n = s.q.size();
  State d;
  d.p = T.R * s.u.head<3>();
  // q̇uat = ½ quat ⊗ (0, ω), ω in the body frame.
  const Eigen::Quaterniond a(s.quat[0], s.quat[1], s.quat[2], s.quat[3]);
  const Eigen::Quaterniond b = a * Eigen::Quaterniond(0.0, s.u[3], s.u[4], s.u[5]);
  d.quat << 0.5 * b.w(), 0.5 * b.x(), 0.5 * b.y(), 0.5 * b.z();
  d.q = s.u.tail(n);
  d.u = dyn.forward_dynamics(T, s.q, s.u, VectorXd::Zero(s.u.size()));
  return d;
}

State axpy(const State& s, double h, const State& d) {
  return State{s.p + h * d.p, s.quat + h * d.quat, s.q + h * d.q, s.u + h * d.u};
}

void rk4_step(const Dynamics& dyn, State& s, double h) {
  const State k1 = derivative(dyn, s);
  const State k2 = derivative(dyn, axpy(s, 0.5 * h, k1));
  const State k3 = derivative(dyn, axpy(s, 0.5 * h, k2));
  const State k4 = derivative(dyn, axpy(s, h, k3));
  s.p += h / 6.0 * (k1.p + 2.0 * k2.p + 2.0 * k3.p + k4.p);
  s.quat += h / 6.0 * (k1.quat + 2.0 * k2.quat + 2.0 * k3.quat + k4.quat);
  s.quat.normalize();
  s.q += h / 6.0 * (k1.q + 2.0 * k2.q + 2.0 * k3.q + k4.q);
  s.u += h / 6.0 * (k1.u + 2.0 * k2.u + 2.0 * k3.u + k4.u);
}

State start(const Vec3& p, const Eigen::Quaterniond& r, const VectorXd& q, const VectorXd& u) {
  return State{p, Eigen::Vector4d(r.w(), r.x(), r.y(), r.z()), q, u};
}

Vec6 twist(double vx, double vy, double vz, double wx, double wy, double wz) {
  Vec6 u;
  u << vx, vy, vz, wx, wy, wz;
  return u;
}

TEST(FloatingBase, FreeTreeWithoutGravityConservesMomentumAndEnergy) {
  const RobotModel m = parse_urdf(kTree, ".");
  const Dynamics dyn(m, Transform::identity(), Vec3::Zero(), BaseKind::floating);
  ASSERT_EQ(dyn.variable_count(), 3u);
  ASSERT_EQ(dyn.dof(), 9u);
  VectorXd u(9);
  u << twist(0.3, -0.2, 0.5, 0.7, -1.1, 0.4), 1.5, -0.8, 6.0;
  State s = start(Vec3(0.1, 0.2, 0.3), Eigen::Quaterniond(Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized())),
                  Eigen::Vector3d(0.4, 0.1, -0.3), u);
  const Invariants i0 = invariants(m, s.pose(), s.q, s.u);
  // The motion is not trivial: the joints swing and the trunk turns.
  double q_range = 0.0;
  const double h = 1e-3;
  for (int k = 0; k < 10000; ++k) {  // 10 s
    rk4_step(dyn, s, h);
    q_range = std::max(q_range, std::abs(s.q[0] - 0.4));
  }
  const Invariants i1 = invariants(m, s.pose(), s.q, s.u);
  EXPECT_GT(q_range, 0.5);
  EXPECT_LT((i1.linear - i0.linear).norm(), 1e-8 * i0.linear.norm()) << i0.linear.transpose() << " / "
                                                                      << i1.linear.transpose();
  EXPECT_LT((i1.angular - i0.angular).norm(), 1e-8 * i0.angular.norm()) << i0.angular.transpose() << " / "
                                                                        << i1.angular.transpose();
  EXPECT_NEAR(i1.kinetic, i0.kinetic, 1e-8 * i0.kinetic);
  // And ½ uᵀ M u is the kinetic energy the links carry.
  EXPECT_NEAR(0.5 * s.u.dot(dyn.mass_matrix(s.q) * s.u), i1.kinetic, 1e-8 * i1.kinetic);
}

TEST(FloatingBase, FreeBodyCentreOfMassFollowsTheParabolaWhileItSpins) {
  const RobotModel m = parse_urdf(kBody, ".");
  const Vec3 g(0.0, 0.0, -9.81);
  const Dynamics dyn(m, Transform::identity(), g, BaseKind::floating);
  const Vec3 c_local = m.link(0).inertial.origin.p;
  State s = start(Vec3(1.0, -2.0, 3.0), Eigen::Quaterniond(Eigen::AngleAxisd(0.5, Vec3(0, 1, 1).normalized())),
                  VectorXd(0), twist(1.0, 2.0, 4.0, 0.3, 2.0, -0.5));
  const Invariants i0 = invariants(m, s.pose(), s.q, s.u);
  const Vec3 c0 = s.pose().apply(c_local);
  const Vec3 v0 = i0.linear / 2.5;
  const double h = 1e-3;
  for (int k = 1; k <= 3000; ++k) {
    rk4_step(dyn, s, h);
    if (k % 500 != 0) continue;
    const double t = k * h;
    const Vec3 expected = c0 + v0 * t + 0.5 * g * t * t;
    EXPECT_LT((s.pose().apply(c_local) - expected).norm(), 1e-9) << "t = " << t;
  }
  // About its centre of mass the body's spin is torque-free: the angular
  // momentum about the falling centre of mass stays.
  const Invariants i1 = invariants(m, s.pose(), s.q, s.u);
  const Vec3 c1 = s.pose().apply(c_local);
  EXPECT_LT(((i1.angular - c1.cross(i1.linear)) - (i0.angular - c0.cross(i0.linear))).norm(), 1e-8);
}

TEST(FloatingBase, TorqueFreeAsymmetricBodyKeepsItsAngularMomentumWhileTumbling) {
  const RobotModel m = parse_urdf(kBody, ".");
  const Dynamics dyn(m, Transform::identity(), Vec3::Zero(), BaseKind::floating);
  // Near the intermediate principal axis: the Dzhanibekov tumble, so the
  // body-frame ω swings far while the world angular momentum stays.
  const Mat3 principal = m.link(0).inertial.origin.R;
  const Vec3 w0 = principal * Vec3(0.02, 3.0, 0.02);
  State s = start(Vec3::Zero(), Eigen::Quaterniond::Identity(), VectorXd(0), twist(0.2, 0.0, -0.1, w0.x(), w0.y(), w0.z()));
  const Invariants i0 = invariants(m, s.pose(), s.q, s.u);
  double w_swing = 0.0;
  for (int k = 0; k < 10000; ++k) {  // 10 s
    rk4_step(dyn, s, 1e-3);
    w_swing = std::max(w_swing, (s.u.segment<3>(3) - w0).norm());
  }
  const Invariants i1 = invariants(m, s.pose(), s.q, s.u);
  EXPECT_GT(w_swing, 3.0);  // it flipped
  EXPECT_LT((i1.angular - i0.angular).norm(), 1e-8 * i0.angular.norm());
  EXPECT_LT((i1.linear - i0.linear).norm(), 1e-9 * i0.linear.norm());
  EXPECT_NEAR(i1.kinetic, i0.kinetic, 1e-8 * i0.kinetic);
}

TEST(FloatingBase, SimulatedBodyFallsOnTheDiscreteParabolaExactly) {
  // Semi-implicit Euler: v_k = v0 + g t_k exactly, and the position sums
  // the velocities after each step, p_k = p0 + v0 t_k + ½ g t_k (t_k + dt).
  const RobotModel m = parse_urdf(kBody, ".");
  const Vec3 g(0.0, 0.0, -9.81);
  ArticulatedState s0;
  s0.q = VectorXd(0);
  s0.base.R = Eigen::AngleAxisd(1.1, Vec3(1, -1, 2).normalized()).toRotationMatrix();
  s0.base.p = Vec3(0.5, 0.0, 2.0);
  const Vec3 v0(1.0, -0.5, 3.0);  // world
  s0.qd = twist(0, 0, 0, 0, 0, 0);
  s0.qd.head<3>() = s0.base.R.transpose() * v0;
  ArticulatedSim sim(Dynamics(m, Transform::identity(), g, BaseKind::floating), s0);
  const double dt = 1e-3;
  for (int k = 1; k <= 2000; ++k) {
    sim.step(dt);
    const double t = k * dt;
    const ArticulatedState& s = sim.state();
    if (k % 250 != 0) continue;
    EXPECT_LT((s.base.R * s.qd.head<3>() - (v0 + g * t)).norm(), 1e-11) << "t = " << t;
    EXPECT_LT(s.qd.tail<3>().norm(), 1e-12);
    EXPECT_LT((s.base.p - (s0.base.p + v0 * t + 0.5 * g * t * (t + dt))).norm(), 1e-11) << "t = " << t;
    EXPECT_LT((s.base.R - s0.base.R).norm(), 1e-12);
  }
}

TEST(FloatingBase, SimulatedFreeTreeDriftsAtFirstOrderAndStaysRigid) {
  // ArticulatedSim is first order: over 2 s its momentum drift shrinks in
  // proportion to dt, and its base rotation stays a rotation.
  const RobotModel m = parse_urdf(kTree, ".");
  VectorXd u(9);
  u << twist(0.3, -0.2, 0.5, 0.7, -1.1, 0.4), 1.5, -0.8, 6.0;
  auto drift = [&](double dt) {
    ArticulatedState s0;
    s0.q = Eigen::Vector3d(0.4, 0.1, -0.3);
    s0.qd = u;
    ArticulatedSim sim(Dynamics(m, Transform::identity(), Vec3::Zero(), BaseKind::floating), s0);
    const Invariants i0 = invariants(m, sim.state().base, sim.state().q, sim.state().qd);
    const int steps = static_cast<int>(std::lround(2.0 / dt));
    for (int k = 0; k < steps; ++k) sim.step(dt);
    const ArticulatedState& s = sim.state();
    EXPECT_LT((s.base.R.transpose() * s.base.R - Mat3::Identity()).norm(), 1e-13);
    EXPECT_NEAR(s.base.R.determinant(), 1.0, 1e-13);
    const Invariants i1 = invariants(m, s.base, s.q, s.qd);
    return (i1.angular - i0.angular).norm() / i0.angular.norm() + (i1.linear - i0.linear).norm() / i0.linear.norm();
  };
  const double coarse = drift(2e-3), fine = drift(1e-3);
  EXPECT_LT(coarse, 0.1);
  EXPECT_GT(coarse / fine, 1.7);
  EXPECT_LT(coarse / fine, 2.3);
}

TEST(FloatingBase, JacobianBaseColumnsMatchFiniteDifferencesOfKinematics) {
  const RobotModel m = parse_urdf(kTree, ".");
  const VectorXd q = Eigen::Vector3d(0.3, -0.2, 1.0);
  Transform T;
  T.R = Eigen::AngleAxisd(0.9, Vec3(0.2, 1, -0.4).normalized()).toRotationMatrix();
  T.p = Vec3(0.3, -1.0, 0.5);
  const std::vector<Transform> poses = forward_kinematics(m, std::vector<double>(q.data(), q.data() + 3), T);
  const int link = m.link_index("slider");
  const Vec3 local(0.05, -0.1, 0.2);
  PointJacobian J;
  point_jacobian(m, poses, link, poses[static_cast<std::size_t>(link)].apply(local), BaseKind::floating, J);
  ASSERT_EQ(J.cols(), 9);
  PointJacobian fixed;
  point_jacobian(m, poses, link, poses[static_cast<std::size_t>(link)].apply(local), fixed);
  EXPECT_EQ(J.rightCols(3), fixed);
  const double eps = 1e-6;
  for (int c = 0; c < 9; ++c) {
    VectorXd u = VectorXd::Zero(9);
    u[c] = 1.0;
    auto at = [&](double s) {
      const VectorXd qs = q + s * u.tail(3);
      return forward_kinematics(m, std::vector<double>(qs.data(), qs.data() + 3),
                                advance(T, u.head<3>(), u.segment<3>(3), s))[static_cast<std::size_t>(link)];
    };
    const Transform a = at(eps), b = at(-eps);
    const Vec3 v = (a.apply(local) - b.apply(local)) / (2 * eps);
    const Eigen::AngleAxisd turn(Mat3(a.R * b.R.transpose()));
    const Vec3 w = turn.angle() * turn.axis() / (2 * eps);
    EXPECT_LT((J.col(c).head<3>() - v).norm(), 1e-8) << "column " << c;
    EXPECT_LT((J.col(c).tail<3>() - w).norm(), 1e-8) << "column " << c;
  }
}

TEST(FloatingBase, MassMatrixIgnoresTheBasePoseAndGravityTurnsWithIt) {
  // M depends on q only; h's gravity part is the weight written in the
  // base frame: at rest a free body's bias is (−m Rᵀ g, −c × m Rᵀ g).
  const RobotModel m = parse_urdf(kBody, ".");
  const Vec3 g(0.0, 0.0, -9.81);
  const Dynamics dyn(m, Transform::identity(), g, BaseKind::floating);
  Transform T;
  T.R = Eigen::AngleAxisd(2.0, Vec3(1, 1, 0).normalized()).toRotationMatrix();
  const VectorXd h = dyn.bias_forces(T, VectorXd(0), VectorXd::Zero(6));
  const Vec3 weight = 2.5 * (T.R.transpose() * g);
  const Vec3 c = m.link(0).inertial.origin.p;
  EXPECT_LT((h.head<3>() + weight).norm(), 1e-12);
  EXPECT_LT((h.tail<3>() + c.cross(weight)).norm(), 1e-12);
  // The mass matrix of a rigid body about its origin, by hand.
  const Mat3 I = m.link(0).inertial.origin.R * m.link(0).inertial.inertia * m.link(0).inertial.origin.R.transpose();
  Mat3 C;
  C << 0, -c.z(), c.y(), c.z(), 0, -c.x(), -c.y(), c.x(), 0;
  Eigen::Matrix<double, 6, 6> expected;
  expected << 2.5 * Mat3::Identity(), -2.5 * C, 2.5 * C, I - 2.5 * C * C;
  EXPECT_LT((dyn.mass_matrix(VectorXd(0)) - expected).norm(), 1e-12);
  // Free fall: the centre of mass accelerates at g, the body does not turn.
  const VectorXd a = dyn.forward_dynamics(T, VectorXd(0), VectorXd::Zero(6), VectorXd::Zero(6));
  EXPECT_LT((T.R * a.head<3>() - g).norm(), 1e-12);
  EXPECT_LT(a.tail<3>().norm(), 1e-12);
}

TEST(FloatingBase, SelfContactIsInternalTheMotorPressesAndNothingMoves) {
  // A free trunk carries a flap on a hinge 0.1 m above its top (through a
  // fixed mount, so that trunk and flap are not a joint's two links). No
  // gravity; a motor torque τ turns the flap down onto the trunk. Once it
  // rests, the self-contact forces are internal: the robot as a whole does
  // not move, and their moment about the hinge balances τ.
  constexpr const char* kFlapper = R"(<robot name="flapper">
    <link name="trunk"><inertial><mass value="3"/><inertia ixx="0.0125" ixy="0" ixz="0" iyy="0.0425" iyz="0" izz="0.05"/>
      </inertial><collision><geometry><box size="0.4 0.2 0.1"/></geometry></collision></link>
    <link name="mount"/>
    <link name="flap"><inertial><origin xyz="0.1 0 0"/><mass value="0.2"/>
      <inertia ixx="0.0001" ixy="0" ixz="0" iyy="0.0007" iyz="0" izz="0.0007"/></inertial>
      <collision><origin xyz="0.1 0 0"/><geometry><box size="0.2 0.05 0.02"/></geometry></collision></link>
    <joint name="fix" type="fixed"><parent link="trunk"/><child link="mount"/><origin xyz="0 0 0.15"/></joint>
    <joint name="hinge" type="revolute"><parent link="mount"/><child link="flap"/><axis xyz="0 1 0"/>
      <limit lower="-3" upper="3" effort="10" velocity="10"/></joint>
  </robot>)";
  const RobotModel m = parse_urdf(kFlapper, ".");
  sim::World world;
  world.gravity = Vec3::Zero();
  world.options.dt = 1e-3;
  world.friction.default_mu = 0.0;
  Transform base;
  base.R = Eigen::AngleAxisd(0.4, Vec3(1, 2, 0).normalized()).toRotationMatrix();
  base.p = Vec3(0.5, -0.2, 1.0);
  ArticulatedState s0;
  s0.q = VectorXd::Zero(1);
  s0.qd = VectorXd::Zero(7);
  RobotWorld rw(RobotGeometry(m), base, s0, std::move(world), BaseKind::floating);
  rw.set_self_collision(AllowedCollisionMatrix::adjacent(m));
  ASSERT_EQ(rw.self_pairs().size(), 1u);
  const double tau = 0.5;
  rw.robot().set_torque(VectorXd::Constant(1, tau));
  // The flap's momentum about the trunk at its fastest: the scale of the
  // momentum the step's first-order drift (O(dt), as in
  // SimulatedFreeTreeDriftsAtFirstOrderAndStaysRigid) can leave.
  double swing = 0.0;
  for (int k = 0; k < 1500; ++k) {
    rw.step();
    swing = std::max(swing, 0.2 * 0.1 * std::abs(rw.robot().state().qd[6]));
  }
  ASSERT_GT(swing, 0.05);
  // Down onto the trunk's top: the flap's lower face at its tip reaches
  // z = 0.05 in the trunk frame, 0.2 sin θ + 0.01 cos θ = 0.1.
  const double theta = std::asin(0.1 / std::hypot(0.2, 0.01)) - std::atan2(0.01, 0.2);
  const ArticulatedState& s = rw.robot().state();
  EXPECT_NEAR(s.q[0], theta, 2e-3);
  ASSERT_FALSE(rw.last_contacts().empty());
  // Only internal forces ever acted: the robot's momentum stays zero but
  // for the integrator's drift, and the flap rests on the trunk.
  const Invariants i = invariants(m, s.base, s.q, s.qd);
  EXPECT_LT(i.linear.norm(), 1e-2 * swing);
  EXPECT_LT(i.angular.norm(), 1e-2 * swing);
  EXPECT_LT(std::abs(s.qd[6]), 1e-6);
  // The contacts' moment about the hinge axis (world) on the flap is −τ.
  const Transform& mount = rw.link_poses()[static_cast<std::size_t>(m.link_index("mount"))];
  const Vec3 axis = mount.R.col(1);
  double moment = 0.0;
  for (const RobotContact& c : rw.last_contacts()) {
    ASSERT_TRUE(c.link >= 0 && c.link_b >= 0);
    // The force on side A (the lower link index, the trunk); the flap gets its opposite.
    const Vec3 on_flap = -c.normal * c.normal_impulse / 1e-3;
    moment += axis.dot((c.point - mount.p).cross(on_flap));
  }
  EXPECT_NEAR(moment, -tau, 1e-6);
  // Without the self-collision check the flap swings through and the trunk
  // turns the other way.
  sim::World free_world;
  free_world.gravity = Vec3::Zero();
  free_world.options.dt = 1e-3;
  RobotWorld through(RobotGeometry(m), base, s0, std::move(free_world), BaseKind::floating);
  through.robot().set_torque(VectorXd::Constant(1, tau));
  for (int k = 0; k < 1500; ++k) through.step();
  EXPECT_GT(through.robot().state().q[0], 1.0);
  EXPECT_GT(through.robot().state().qd.segment<3>(3).norm(), 0.01);
}

TEST(FloatingBase, RefusesBadVectorsAndBasePoses) {
  const RobotModel m = parse_urdf(kTree, ".");
  const Dynamics dyn(m, Transform::identity(), Vec3(0, 0, -9.81), BaseKind::floating);
  const VectorXd q = VectorXd::Zero(3), u = VectorXd::Zero(9);
  expect_error([&] { (void)dyn.bias_forces(q, VectorXd::Zero(3)); },
               {"floater", "joint velocity", "3 values", "expected 9", "6 base entries"});
  expect_error([&] { (void)dyn.mass_matrix(u); }, {"joint position", "9 values", "expected 3"});
  VectorXd bad = u;
  bad[4] = std::nan("");
  expect_error([&] { (void)dyn.inverse_dynamics(q, u, bad); }, {"joint acceleration", "value 4", "base ω_y", "not finite"});
  bad = u;
  bad[7] = std::numeric_limits<double>::infinity();
  expect_error([&] { (void)dyn.forward_dynamics(q, u, bad); }, {"joint torque", "value 7", "'slide'", "not finite"});
  Transform nan_pose;
  nan_pose.p.y() = std::nan("");
  expect_error([&] { (void)dyn.bias_forces(nan_pose, q, u); }, {"floater", "base pose", "not finite"});
  ArticulatedState s;
  s.q = q;
  s.qd = u;
  s.base = nan_pose;
  expect_error([&] { ArticulatedSim sim(dyn, s); }, {"floater", "initial base pose"});
  // Finite but not a rotation: scaled, sheared, mirrored.
  for (const Mat3& R : {Mat3(2.0 * Mat3::Identity()), Mat3((Mat3() << 1, 0.1, 0, 0, 1, 0, 0, 0, 1).finished()),
                        Mat3(Eigen::Vector3d(1, 1, -1).asDiagonal())}) {
    Transform skew;
    skew.R = R;
    expect_error([&] { (void)dyn.bias_forces(skew, q, u); }, {"floater", "base pose", "not a rotation"});
    expect_error([&] { Dynamics d(m, skew, Vec3(0, 0, -9.81), BaseKind::floating); }, {"base pose", "not a rotation"});
    s.base = skew;
    expect_error([&] { ArticulatedSim sim(dyn, s); }, {"floater", "initial base pose", "not a rotation"});
  }
  s.base = Transform::identity();
  s.qd = VectorXd::Zero(3);
  expect_error([&] { ArticulatedSim sim(dyn, s); }, {"joint velocity", "expected 9"});
  // Torques and gains stay per variable: the base is unactuated.
  s.qd = u;
  ArticulatedSim sim(dyn, s);
  expect_error([&] { sim.set_torque(u); }, {"joint torque", "9 values", "expected 3"});
  // A floating robot of massless links cannot be moved by forces.
  const RobotModel empty = parse_urdf("<robot name=\"ghost\"><link name=\"a\"/></robot>", ".");
  const Dynamics ghost(empty, Transform::identity(), Vec3::Zero(), BaseKind::floating);
  expect_error([&] { (void)ghost.forward_dynamics(VectorXd(0), VectorXd::Zero(6), VectorXd::Zero(6)); },
               {"ghost", "not positive definite", "floating"});
}

}  // namespace
}  // namespace proxima::robot
