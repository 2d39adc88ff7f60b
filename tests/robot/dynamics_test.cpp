// SPDX-License-Identifier: BSD-3-Clause
// Joint-space dynamics against ground truth that does not come from the
// dynamics code: closed forms for pendulums and sliders, and for general
// trees the Lagrangian built here from forward kinematics (link Jacobians
// from the joints' world axes and origins, kinetic and potential energy,
// Christoffel terms by central differences of that mass matrix).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <Eigen/Eigenvalues>
#include <gtest/gtest.h>

#include <proxima/core/error.hpp>
#include <proxima/robot/dynamics.hpp>
#include <proxima/robot/kinematics.hpp>
#include <proxima/robot/urdf.hpp>

#include "../support/test_shapes.hpp"
#include "robot_test_support.hpp"

namespace proxima::robot {
namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;
using robot_test::expect_error;

constexpr double kG = 9.81;

// An <inertial> element: mass m, centre of mass c (rpy of its axes), the
// inertia's six entries.
std::string inertial(double m, const Vec3& c, double ixx, double iyy, double izz, double ixy = 0.0, double ixz = 0.0,
                     double iyz = 0.0, const Vec3& rpy = Vec3::Zero()) {
  std::string s = "<inertial><origin xyz=\"";
  s.append(robot_test::exact(c.x())).append(" ").append(robot_test::exact(c.y())).append(" ").append(robot_test::exact(c.z())).append("\" rpy=\"");
  s.append(robot_test::exact(rpy.x())).append(" ").append(robot_test::exact(rpy.y())).append(" ").append(robot_test::exact(rpy.z())).append("\"/>");
  s.append("<mass value=\"").append(robot_test::exact(m)).append("\"/>");
  s.append("<inertia ixx=\"").append(robot_test::exact(ixx)).append("\" iyy=\"").append(robot_test::exact(iyy)).append("\" izz=\"");
  s.append(robot_test::exact(izz)).append("\" ixy=\"").append(robot_test::exact(ixy)).append("\" ixz=\"").append(robot_test::exact(ixz));
  s.append("\" iyz=\"").append(robot_test::exact(iyz)).append("\"/></inertial>");
  return s;
}

// ---------------------------------------------------------------------------
// Independent Lagrangian of a tree, from forward kinematics only.

struct LinkJacobian {
  MatrixXd Jv, Jw;  // 3 × dof: centre-of-mass velocity and angular velocity
  Vec3 com;         // world
  Mat3 inertia;     // world axes, about the centre of mass
  double mass = 0.0;
};

// For each link: the joints from the root to it, each moving joint adding
// multiplier · (its world axis, and for a rotation axis × (com − joint origin))
// to its variable's column. URDF puts a joint's frame at its child link's
// frame, so the axis and origin come from the child link's pose.
std::vector<LinkJacobian> link_jacobians(const RobotModel& m, const VectorXd& q, const Transform& base) {
  const std::vector<Transform> pose = forward_kinematics(m, std::vector<double>(q.data(), q.data() + q.size()), base);
  const auto n = static_cast<Eigen::Index>(m.variable_count());
  std::vector<LinkJacobian> out(m.links().size());
  for (std::size_t l = 0; l < m.links().size(); ++l) {
    LinkJacobian& J = out[l];
    const Inertial& in = m.links()[l].inertial;
    J.mass = in.mass;
    J.com = pose[l].apply(in.origin.p);
    const Mat3 R = pose[l].R * in.origin.R;
    J.inertia = R * in.inertia * R.transpose();
    J.Jv = MatrixXd::Zero(3, n);
    J.Jw = MatrixXd::Zero(3, n);
    for (int j = m.links()[l].parent_joint; j >= 0; j = m.link(m.joint(j).parent_link).parent_joint) {
      const Joint& jt = m.joint(j);
      if (jt.type == JointType::fixed || jt.variable < 0) continue;
      const Transform& frame = pose[static_cast<std::size_t>(jt.child_link)];
      const Vec3 axis = frame.R * jt.axis;
      if (jt.type == JointType::prismatic) {
        J.Jv.col(jt.variable) += jt.variable_multiplier * axis;
      } else {
        J.Jv.col(jt.variable) += jt.variable_multiplier * axis.cross(J.com - frame.p);
        J.Jw.col(jt.variable) += jt.variable_multiplier * axis;
      }
    }
  }
  return out;
}

MatrixXd lagrangian_mass_matrix(const RobotModel& m, const VectorXd& q, const Transform& base) {
  const auto n = static_cast<Eigen::Index>(m.variable_count());
  MatrixXd M = MatrixXd::Zero(n, n);
  for (const LinkJacobian& J : link_jacobians(m, q, base))
    M += J.mass * J.Jv.transpose() * J.Jv + J.Jw.transpose() * J.inertia * J.Jw;
  return M;
}

// G = ∂V/∂q with V = −Σ m gᵀ c: −Σ m J_vᵀ g.
VectorXd lagrangian_gravity(const RobotModel& m, const VectorXd& q, const Transform& base, const Vec3& g) {
  VectorXd G = VectorXd::Zero(static_cast<Eigen::Index>(m.variable_count()));
  for (const LinkJacobian& J : link_jacobians(m, q, base)) G -= J.mass * J.Jv.transpose() * g;
  return G;
}

// C(q, q̇) q̇ = Ṁ q̇ − ½ ∂(q̇ᵀ M q̇)/∂q, both by central differences of the
// mass matrix above (error O(ε²) plus round-off O(1e-16/ε)).
VectorXd lagrangian_coriolis(const RobotModel& m, const VectorXd& q, const VectorXd& qd, const Transform& base) {
  const double eps = 1e-5;
  const VectorXd Mdot_qd = (lagrangian_mass_matrix(m, q + eps * qd, base) - lagrangian_mass_matrix(m, q - eps * qd, base)) *
                           qd / (2.0 * eps);
  VectorXd grad(q.size());
  for (Eigen::Index i = 0; i < q.size(); ++i) {
    VectorXd qp = q, qm = q;
    qp[i] += eps;
    qm[i] -= eps;
    grad[i] = (qd.dot(lagrangian_mass_matrix(m, qp, base) * qd) - qd.dot(lagrangian_mass_matrix(m, qm, base) * qd)) /
              (2.0 * eps);
  }
  return Mdot_qd - 0.5 * grad;
}

// Kinetic plus potential energy, from the link Jacobians.
double energy(const RobotModel& m, const VectorXd& q, const VectorXd& qd, const Transform& base, const Vec3& g) {
  double e = 0.0;
  for (const LinkJacobian& J : link_jacobians(m, q, base)) {
    const Vec3 v = J.Jv * qd, w = J.Jw * qd;
    e += 0.5 * J.mass * v.squaredNorm() + 0.5 * w.dot(J.inertia * w) - J.mass * g.dot(J.com);
  }
  return e;
}

VectorXd random_vector(std::mt19937& rng, Eigen::Index n, double lo, double hi) {
  std::uniform_real_distribution<double> u(lo, hi);
  VectorXd x(n);
  for (Eigen::Index i = 0; i < n; ++i) x[i] = u(rng);
  return x;
}

RobotModel panda() { return load_urdf(robot_test::robots_dir() / "panda" / "panda.urdf"); }

// ---------------------------------------------------------------------------
// Pendulums and sliders: closed forms.

// A pendulum about y through the origin, its centre of mass l_c below the
// pivot, with rotational inertia i_c about the centre of mass.
std::string pendulum_urdf(double m, double lc, double ic) {
  std::string s = "<robot name=\"pendulum\"><link name=\"base\"/><link name=\"bob\">";
  s.append(inertial(m, Vec3(0, 0, -lc), ic, ic, 0.0));
  s.append("</link><joint name=\"pivot\" type=\"continuous\"><parent link=\"base\"/><child link=\"bob\"/>");
  s.append("<axis xyz=\"0 1 0\"/></joint></robot>");
  return s;
}

TEST(RobotDynamics, PendulumPointMassAndRodMatchTheClosedForm) {
  struct Case {
    double m, lc, ic;
  };
  // A point mass on a massless rod, and a uniform rod of length 0.8 hung by its end.
  const Case cases[] = {{1.7, 0.6, 0.0}, {2.3, 0.4, 2.3 * 0.8 * 0.8 / 12.0}};
  std::mt19937 rng(11);
  int checked = 0;
  for (const Case& c : cases) {
    const Dynamics dyn(parse_urdf(pendulum_urdf(c.m, c.lc, c.ic), "."));
    ASSERT_EQ(dyn.dof(), 1u);
    const double pivot_inertia = c.ic + c.m * c.lc * c.lc;
    for (int i = 0; i < 20; ++i) {
      const VectorXd q = random_vector(rng, 1, -3.0, 3.0), qd = random_vector(rng, 1, -4.0, 4.0),
                     qdd = random_vector(rng, 1, -5.0, 5.0);
      const double h = c.m * kG * c.lc * std::sin(q[0]);
      const MatrixXd M = dyn.mass_matrix(q);
      EXPECT_NEAR(M(0, 0), pivot_inertia, 1e-12 * pivot_inertia);
      // One variable: no velocity term, h is gravity's torque alone.
      EXPECT_NEAR(dyn.bias_forces(q, qd)[0], h, 1e-12 * c.m * kG * c.lc);
      const double tau = pivot_inertia * qdd[0] + h;
      EXPECT_NEAR(dyn.inverse_dynamics(q, qd, qdd)[0], tau, 1e-12 * (std::abs(tau) + c.m * kG * c.lc));
      EXPECT_NEAR(dyn.forward_dynamics(q, qd, VectorXd::Constant(1, tau))[0], qdd[0], 1e-11 * (1.0 + std::abs(qdd[0])));
      ++checked;
    }
  }
  EXPECT_EQ(checked, 40);
}

TEST(RobotDynamics, BasePoseAndGravityDirectionEnterAsTheyShould) {
  // A base turned by φ about the pivot axis adds φ to the angle; its
  // translation changes nothing. Gravity along +x instead of −z turns the
  // torque to m g l_c cos θ... with the sign of the geometry: the bob at
  // (−l sin θ, 0, −l cos θ), V = −m g x = m g l sin θ, h = m g l cos θ.
  const double m = 1.3, lc = 0.7, phi = 0.4;
  const RobotModel model = parse_urdf(pendulum_urdf(m, lc, 0.01), ".");
  const Dynamics turned(model, Transform::from_axis_angle(Vec3::UnitY(), phi, Vec3(3, -2, 1)));
  const Dynamics sideways(model, Transform::identity(), Vec3(kG, 0, 0));
  int checked = 0;
  for (double th = -2.5; th < 2.5; th += 0.5) {
    const VectorXd q = VectorXd::Constant(1, th), zero = VectorXd::Zero(1);
    EXPECT_NEAR(turned.bias_forces(q, zero)[0], m * kG * lc * std::sin(th + phi), 1e-12 * m * kG * lc);
    EXPECT_NEAR(sideways.bias_forces(q, zero)[0], m * kG * lc * std::cos(th), 1e-12 * m * kG * lc);
    ++checked;
  }
  EXPECT_EQ(checked, 10);
}

// Two links in the x–z plane turning about −y (positive angles lift +x
// towards +z), each of length l_i with its centre of mass l_ci along it:
// the double pendulum of Spong, Hutchinson and Vidyasagar, Robot Modeling
// and Control, §7.3, with angles from the horizontal.
struct DoublePendulum {
  double m1 = 1.4, m2 = 0.9, l1 = 0.7, lc1 = 0.3, lc2 = 0.45, I1 = 0.08, I2 = 0.05;

  std::string urdf() const {
    std::string s = "<robot name=\"double\"><link name=\"base\"/><link name=\"upper\">";
    // The centre-of-mass frame turned about y: iyy stays the planar inertia.
    s.append(inertial(m1, Vec3(lc1, 0, 0), 0.05, I1, 0.04, 0.0, 0.01, 0.0, Vec3(0, 0.4, 0)));
    s.append("</link><link name=\"lower\">").append(inertial(m2, Vec3(lc2, 0, 0), 0.03, I2, 0.03));
    s.append("</link><joint name=\"shoulder\" type=\"continuous\"><parent link=\"base\"/><child link=\"upper\"/>");
    s.append("<axis xyz=\"0 -1 0\"/></joint><joint name=\"elbow\" type=\"continuous\"><parent link=\"upper\"/>");
    s.append("<child link=\"lower\"/><origin xyz=\"").append(robot_test::exact(l1)).append(" 0 0\"/><axis xyz=\"0 -1 0\"/>");
    s.append("</joint></robot>");
    return s;
  }
  Eigen::Matrix2d M(const VectorXd& q) const {
    const double c2 = std::cos(q[1]);
    Eigen::Matrix2d out;
    out(0, 0) = m1 * lc1 * lc1 + m2 * (l1 * l1 + lc2 * lc2 + 2.0 * l1 * lc2 * c2) + I1 + I2;
    out(0, 1) = out(1, 0) = m2 * (lc2 * lc2 + l1 * lc2 * c2) + I2;
    out(1, 1) = m2 * lc2 * lc2 + I2;
    return out;
  }
  Eigen::Vector2d Cqd(const VectorXd& q, const VectorXd& qd) const {
    const double hh = -m2 * l1 * lc2 * std::sin(q[1]);
    return {hh * (2.0 * qd[0] * qd[1] + qd[1] * qd[1]), -hh * qd[0] * qd[0]};
  }
  Eigen::Vector2d G(const VectorXd& q) const {
    const double c1 = std::cos(q[0]), c12 = std::cos(q[0] + q[1]);
    return {(m1 * lc1 + m2 * l1) * kG * c1 + m2 * lc2 * kG * c12, m2 * lc2 * kG * c12};
  }
};

TEST(RobotDynamics, DoublePendulumMatchesTheTextbookClosedForm) {
  const DoublePendulum dp;
  const Dynamics dyn(parse_urdf(dp.urdf(), "."));
  ASSERT_EQ(dyn.dof(), 2u);
  std::mt19937 rng(5);
  int checked = 0;
  for (int i = 0; i < 50; ++i) {
    const VectorXd q = random_vector(rng, 2, -3.1, 3.1), qd = random_vector(rng, 2, -5.0, 5.0),
                   qdd = random_vector(rng, 2, -8.0, 8.0);
    const Eigen::Matrix2d M = dp.M(q);
    const Eigen::Vector2d G = dp.G(q), C = dp.Cqd(q, qd);
    EXPECT_LT((dyn.mass_matrix(q) - M).cwiseAbs().maxCoeff(), 1e-10);
    EXPECT_LT((dyn.bias_forces(q, VectorXd::Zero(2)) - G).cwiseAbs().maxCoeff(), 1e-10);
    EXPECT_LT((dyn.bias_forces(q, qd) - G - C).cwiseAbs().maxCoeff(), 1e-10);
    const Eigen::Vector2d tau = M * qdd + C + G;
    EXPECT_LT((dyn.inverse_dynamics(q, qd, qdd) - tau).cwiseAbs().maxCoeff(), 1e-10);
    EXPECT_LT((dyn.forward_dynamics(q, qd, tau) - qdd).cwiseAbs().maxCoeff(), 1e-9);
    ++checked;
  }
  EXPECT_EQ(checked, 50);
}

TEST(RobotDynamics, MimicJointFoldsIntoItsTargetVariable) {
  // The double pendulum with the elbow mimicking the shoulder:
  // q = (θ, kθ + b), so M' = gᵀ M g, h' = gᵀ (C q̇ + G) with g = (1, k).
  DoublePendulum dp;
  const double k = -1.7, b = 0.3;
  std::string text = dp.urdf();
  const std::string tail = "<axis xyz=\"0 -1 0\"/></joint></robot>";
  text.replace(text.rfind(tail), tail.size(),
               "<axis xyz=\"0 -1 0\"/><mimic joint=\"shoulder\" multiplier=\"" + robot_test::exact(k) + "\" offset=\"" + robot_test::exact(b) +
                   "\"/></joint></robot>");
  const Dynamics dyn(parse_urdf(text, "."));
  ASSERT_EQ(dyn.dof(), 1u);
  const Eigen::Vector2d g(1.0, k);
  int checked = 0;
  for (double th = -3.0; th < 3.0; th += 0.37) {
    const double rate = 1.3 - 0.4 * th, acc = 0.5 * th;
    const VectorXd q = VectorXd::Constant(1, th), qd = VectorXd::Constant(1, rate), qdd = VectorXd::Constant(1, acc);
    const VectorXd q2 = Eigen::Vector2d(th, k * th + b), qd2 = Eigen::Vector2d(rate, k * rate);
    const double M = g.dot(dp.M(q2) * g), h = g.dot(dp.Cqd(q2, qd2) + dp.G(q2));
    EXPECT_NEAR(dyn.mass_matrix(q)(0, 0), M, 1e-10);
    EXPECT_NEAR(dyn.bias_forces(q, qd)[0], h, 1e-10);
    EXPECT_NEAR(dyn.inverse_dynamics(q, qd, qdd)[0], M * acc + h, 1e-10);
    ++checked;
  }
  EXPECT_EQ(checked, 17);
}

TEST(RobotDynamics, PrismaticJointsCarryMassTimesGravityPlusAcceleration) {
  // A slider along (0, 1, 1)/√2 carrying a second one along x: each joint
  // pushes the mass it carries, F = m (a − gᵀ axis); the axes are
  // perpendicular, so neither feels the other's acceleration.
  const double m1 = 2.0, m2 = 0.7;
  std::string s = "<robot name=\"slides\"><link name=\"base\"/><link name=\"carriage\">";
  s.append(inertial(m1, Vec3(0.1, 0.2, 0.0), 0.1, 0.2, 0.25)).append("</link><link name=\"sled\">");
  s.append(inertial(m2, Vec3(0.0, 0.3, 0.1), 0.01, 0.02, 0.02)).append("</link>");
  s.append("<joint name=\"lift\" type=\"prismatic\"><parent link=\"base\"/><child link=\"carriage\"/>");
  s.append("<axis xyz=\"0 1 1\"/><limit lower=\"-1\" upper=\"1\"/></joint>");
  s.append("<joint name=\"slide\" type=\"prismatic\"><parent link=\"carriage\"/><child link=\"sled\"/>");
  s.append("<origin xyz=\"0.2 0 0.1\"/><axis xyz=\"1 0 0\"/><limit lower=\"-1\" upper=\"1\"/></joint></robot>");
  const Dynamics dyn(parse_urdf(s, "."));
  const double up = kG / std::sqrt(2.0);  // −gᵀ axis of the lift
  std::mt19937 rng(3);
  int checked = 0;
  for (int i = 0; i < 20; ++i) {
    const VectorXd q = random_vector(rng, 2, -1, 1), qd = random_vector(rng, 2, -2, 2),
                   qdd = random_vector(rng, 2, -6, 6);
    const VectorXd tau = dyn.inverse_dynamics(q, qd, qdd);
    EXPECT_NEAR(tau[0], (m1 + m2) * (qdd[0] + up), 1e-12 * (m1 + m2) * kG);
    EXPECT_NEAR(tau[1], m2 * qdd[1], 1e-12 * m2 * kG);
    const MatrixXd M = dyn.mass_matrix(q);
    EXPECT_NEAR(M(0, 0), m1 + m2, 1e-14);
    EXPECT_NEAR(M(1, 1), m2, 1e-14);
    EXPECT_NEAR(M(0, 1), 0.0, 1e-14);
    ++checked;
  }
  EXPECT_EQ(checked, 20);
}

// ---------------------------------------------------------------------------
// Trees: the Panda, and the small arm (prismatic, fixed and mimic joints)
// with masses given here.

// robot_test::small_arm_urdf with an <inertial> in every link but the base.
RobotModel small_arm_with_mass() {
  std::string text = robot_test::small_arm_urdf();
  struct Mass {
    const char* link;
    std::string xml;
  };
  const Mass masses[] = {
      {"l1", inertial(1.5, Vec3(0.01, 0.0, 0.15), 0.03, 0.035, 0.01, 0.002, -0.001, 0.003, Vec3(0.1, 0.2, 0.3))},
      {"l2", inertial(1.1, Vec3(0.2, 0.01, -0.02), 0.004, 0.02, 0.021, 0.0, 0.001, 0.0)},
      {"l3", inertial(0.6, Vec3(0.02, 0.0, 0.01), 0.001, 0.0015, 0.002)},
      {"tool", inertial(0.3, Vec3(0.0, 0.01, 0.03), 0.0004, 0.0005, 0.0003, 0.0, 0.0, 0.0, Vec3(0.5, 0.0, -0.4))},
      {"finger", inertial(0.2, Vec3(0.03, 0.0, 0.0), 0.0001, 0.0003, 0.0003)},
  };
  for (const Mass& m : masses) {
    const std::string open = "<link name=\"" + std::string(m.link) + "\">";
    text.insert(text.find(open) + open.size(), m.xml);
  }
  return parse_urdf(text, ".");
}

struct TreeCase {
  const char* name;
  RobotModel model;
  Transform base;
  Vec3 gravity;
};

std::vector<TreeCase> tree_cases() {
  std::vector<TreeCase> out;
  out.push_back({"panda", panda(), Transform::identity(), Vec3(0, 0, -kG)});
  out.push_back({"panda (tilted base)", panda(),
                 Transform::from_axis_angle(Vec3(1, 2, 0.5).normalized(), 0.8, Vec3(0.3, -0.1, 0.2)),
                 Vec3(0.5, -1.0, -kG)});
  // Fixed joints carrying mass (the gripper), products of inertia.
  out.push_back({"ur5", load_urdf(robot_test::robots_dir() / "ur5" / "ur5.urdf"), Transform::identity(),
                 Vec3(0, 0, -kG)});
  out.push_back({"small arm", small_arm_with_mass(), Transform::from_axis_angle(Vec3::UnitX(), 0.3),
                 Vec3(0, 0, -kG)});
  return out;
}

TEST(RobotDynamics, TreesMatchTheLagrangianFromKinematics) {
  std::mt19937 rng(17);
  int checked = 0;
  for (const TreeCase& c : tree_cases()) {
    SCOPED_TRACE(c.name);
    const Dynamics dyn(c.model, c.base, c.gravity);
    const auto n = static_cast<Eigen::Index>(dyn.dof());
    ASSERT_GT(n, 0);
    DynamicsWorkspace ws;
    for (int i = 0; i < 25; ++i) {
      const VectorXd q = random_vector(rng, n, -2.5, 2.5), qd = random_vector(rng, n, -2.0, 2.0),
                     qdd = random_vector(rng, n, -3.0, 3.0);
      const MatrixXd M = dyn.mass_matrix(q);
      // Symmetric positive definite.
      EXPECT_LT((M - M.transpose()).cwiseAbs().maxCoeff(), 1e-12);
      const Eigen::SelfAdjointEigenSolver<MatrixXd> eig(M);
      EXPECT_GT(eig.eigenvalues().minCoeff(), 0.0);
      // Equal to Σ (J_vᵀ m J_v + J_ωᵀ R I Rᵀ J_ω).
      const MatrixXd M_true = lagrangian_mass_matrix(c.model, q, c.base);
      EXPECT_LT((M - M_true).cwiseAbs().maxCoeff(), 1e-12 * (1.0 + M_true.cwiseAbs().maxCoeff()));
      // h = G + C q̇, both from the Lagrangian.
      const VectorXd G = lagrangian_gravity(c.model, q, c.base, c.gravity);
      const VectorXd C = lagrangian_coriolis(c.model, q, qd, c.base);
      const VectorXd h = dyn.bias_forces(q, qd);
      EXPECT_LT((dyn.bias_forces(q, VectorXd::Zero(n)) - G).cwiseAbs().maxCoeff(), 1e-10 * (1.0 + G.norm()));
      EXPECT_LT((h - G - C).cwiseAbs().maxCoeff(), 1e-6 * (1.0 + C.norm()));
      // RNEA(q, q̇, q̈) = M q̈ + h, and forward dynamics inverts it.
      const VectorXd tau = dyn.inverse_dynamics(q, qd, qdd);
      EXPECT_LT((tau - (M * qdd + h)).cwiseAbs().maxCoeff(), 1e-9);
      EXPECT_LT((dyn.forward_dynamics(q, qd, tau) - qdd).cwiseAbs().maxCoeff(), 1e-8);
      // The workspace forms give the same numbers, the workspace reused.
      VectorXd tau_ws, qdd_ws;
      MatrixXd M_ws;
      dyn.inverse_dynamics(q, qd, qdd, ws, tau_ws);
      dyn.mass_matrix(q, ws, M_ws);
      dyn.forward_dynamics(q, qd, tau, ws, qdd_ws);
      EXPECT_EQ(tau_ws, tau);
      EXPECT_EQ(M_ws, M);
      EXPECT_LT((qdd_ws - qdd).cwiseAbs().maxCoeff(), 1e-8);
      ++checked;
    }
  }
  EXPECT_EQ(checked, 100);
}

// ---------------------------------------------------------------------------
// Energy: forward dynamics integrated by classical RK4.

struct Rk4 {
  const Dynamics& dyn;
  std::function<VectorXd(double)> torque;
  DynamicsWorkspace ws;

  // State (q, q̇, W) with W the work done by the torque, Ẇ = q̇ᵀ τ.
  VectorXd rate(double t, const VectorXd& y) {
    const auto n = static_cast<Eigen::Index>(dyn.dof());
    const VectorXd q = y.head(n), qd = y.segment(n, n), tau = torque(t);
    VectorXd qdd;
    dyn.forward_dynamics(q, qd, tau, ws, qdd);
    VectorXd out(2 * n + 1);
    out << qd, qdd, qd.dot(tau);
    return out;
  }
  void step(double t, double dt, VectorXd& y) {
    const VectorXd k1 = rate(t, y);
    const VectorXd k2 = rate(t + 0.5 * dt, y + 0.5 * dt * k1);
    const VectorXd k3 = rate(t + 0.5 * dt, y + 0.5 * dt * k2);
    const VectorXd k4 = rate(t + dt, y + dt * k3);
    y += dt / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4);
  }
};

// Integrates from (q0, 0) for `duration` with step dt; returns
// (E(T) − E(0)) − W(T), the power balance's residual.
double power_balance_residual(const RobotModel& m, const Dynamics& dyn, const VectorXd& q0,
                              const std::function<VectorXd(double)>& torque, double duration, double dt) {
  const auto n = static_cast<Eigen::Index>(dyn.dof());
  Rk4 rk{dyn, torque, {}};
  VectorXd y = VectorXd::Zero(2 * n + 1);
  y.head(n) = q0;
  const double e0 = energy(m, q0, VectorXd::Zero(n), dyn.base(), dyn.gravity());
  const int steps = static_cast<int>(std::lround(duration / dt));
  for (int i = 0; i < steps; ++i) rk.step(i * dt, dt, y);
  const double e1 = energy(m, y.head(n), y.segment(n, n), dyn.base(), dyn.gravity());
  return (e1 - e0) - y[2 * n];
}

TEST(RobotDynamics, PandaPowerBalanceUnderATimeVaryingTorque) {
  // d/dt (T + V) = q̇ᵀ τ: the energy change over 1 s equals the work, up to
  // RK4's O(dt⁴) error. The torques swing the arm by about a radian and
  // put in some 10 J; halving the step must shrink the residual (by 16 in
  // the limit), which shows it is integration error, not a model error.
  // Measured: 7.5e-7 J at dt = 4 ms, 4.9e-8 J at 2 ms.
  const RobotModel m = panda();
  const Dynamics dyn(m);
  const VectorXd q0 = (VectorXd(7) << 0.1, -0.4, 0.2, -1.9, 0.3, 1.6, 0.5).finished();
  const auto torque = [&](double t) {
    VectorXd tau(7);
    for (Eigen::Index i = 0; i < 7; ++i)
      tau[i] = (i < 4 ? 8.0 : 1.5) * std::sin(2.0 * t + 0.7 * static_cast<double>(i));
    return tau;
  };
  const double coarse = power_balance_residual(m, dyn, q0, torque, 1.0, 4e-3);
  const double fine = power_balance_residual(m, dyn, q0, torque, 1.0, 2e-3);
  EXPECT_LT(std::abs(fine), 2e-7);
  EXPECT_LT(std::abs(fine), std::abs(coarse) / 4.0);
}

TEST(RobotDynamics, PandaConservesEnergyWithoutTorque) {
  // Falling from a bent pose under gravity alone for 10 s (1 s in the
  // sanitizer run), RK4 at dt = 1 ms. RK4's global error is O(dt⁴): the
  // drift measured here is 3.8e-7 J over 10 s against a peak kinetic
  // energy of 62 J (6e-9 of it). The bound, 1e-6 of the peak kinetic
  // energy, leaves two orders of magnitude for another compiler's rounding,
  // while a model error (a wrong Coriolis or gravity term does work that is
  // not there) drifts by a sizeable fraction of the energy exchanged.
  const RobotModel m = panda();
  const Dynamics dyn(m);
  const VectorXd q0 = (VectorXd(7) << 0.0, 0.8, 0.0, -1.2, 0.5, 2.0, 0.0).finished();
  const double duration = testing::reduced_run() ? 1.0 : 10.0;
  const auto n = static_cast<Eigen::Index>(dyn.dof());
  Rk4 rk{dyn, [&](double) { return VectorXd::Zero(n); }, {}};
  VectorXd y = VectorXd::Zero(2 * n + 1);
  y.head(n) = q0;
  const double e0 = energy(m, q0, VectorXd::Zero(n), dyn.base(), dyn.gravity());
  const double dt = 1e-3;
  double max_kinetic = 0.0, max_drift = 0.0;
  const int steps = static_cast<int>(std::lround(duration / dt));
  for (int i = 0; i < steps; ++i) {
    rk.step(i * dt, dt, y);
    if (i % 10 == 0) {
      const VectorXd q = y.head(n), qd = y.segment(n, n);
      max_kinetic = std::max(max_kinetic, 0.5 * qd.dot(lagrangian_mass_matrix(m, q, dyn.base()) * qd));
      max_drift = std::max(max_drift, std::abs(energy(m, q, qd, dyn.base(), dyn.gravity()) - e0));
    }
  }
  // It did fall: kinetic energy of several joules went back and forth.
  EXPECT_GT(max_kinetic, 5.0);
  EXPECT_LT(max_drift, 1e-6 * max_kinetic);
}

// ---------------------------------------------------------------------------
// Refusals.

TEST(RobotDynamics, RefusesBadVectorsBaseAndGravity) {
  const Dynamics dyn(panda());
  const VectorXd ok = VectorXd::Zero(7);
  VectorXd nan = ok;
  nan[3] = std::nan("");
  expect_error([&] { (void)dyn.mass_matrix(VectorXd::Zero(6)); }, {"panda", "joint position", "6 values", "expected 7"});
  expect_error([&] { (void)dyn.bias_forces(ok, nan); }, {"joint velocity", "value 3", "panda_joint4", "not finite"});
  expect_error([&] { (void)dyn.inverse_dynamics(ok, ok, VectorXd::Zero(8)); }, {"joint acceleration", "8 values"});
  expect_error([&] { (void)dyn.forward_dynamics(nan, ok, ok); }, {"joint position", "panda_joint4", "not finite"});
  expect_error([&] { (void)dyn.forward_dynamics(ok, ok, nan); }, {"joint torque", "panda_joint4", "not finite"});
  // Finite, but squared beyond double precision: refused, not inf or NaN.
  const VectorXd huge = VectorXd::Constant(7, 1e200);
  expect_error([&] { (void)dyn.bias_forces(ok, huge); }, {"panda", "bias forces", "overflowed"});
  expect_error([&] { (void)dyn.inverse_dynamics(ok, huge, ok); }, {"inverse dynamics", "overflowed"});
  expect_error([&] { (void)dyn.forward_dynamics(ok, huge, ok); }, {"overflowed"});
  Transform bad;
  bad.p.x() = std::numeric_limits<double>::infinity();
  expect_error([&] { Dynamics d(panda(), bad); }, {"panda", "base pose", "not finite"});
  expect_error([&] { Dynamics d(panda(), Transform::identity(), Vec3(0, std::nan(""), 0)); }, {"gravity", "not finite"});
}

TEST(RobotDynamics, ForwardDynamicsRefusesAJointThatMovesNoMass) {
  // The bob has no <inertial>: massless, as URDF has it.
  const std::string s =
      "<robot name=\"empty\"><link name=\"base\"/><link name=\"bob\"/><joint name=\"pivot\" type=\"continuous\">"
      "<parent link=\"base\"/><child link=\"bob\"/><axis xyz=\"0 1 0\"/></joint></robot>";
  const RobotModel m = parse_urdf(s, ".");
  EXPECT_EQ(m.link(m.link_index("bob")).inertial.mass, 0.0);
  EXPECT_EQ(m.link(m.link_index("bob")).inertial.inertia, Mat3::Zero());
  const Dynamics dyn(m);
  const VectorXd one = VectorXd::Constant(1, 0.5);
  EXPECT_EQ(dyn.mass_matrix(one)(0, 0), 0.0);
  EXPECT_EQ(dyn.inverse_dynamics(one, one, one)[0], 0.0);
  expect_error([&] { (void)dyn.forward_dynamics(one, one, one); }, {"empty", "mass matrix", "not positive definite"});
}

}  // namespace
}  // namespace proxima::robot
