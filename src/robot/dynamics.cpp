// SPDX-License-Identifier: BSD-3-Clause
// Recursive Newton–Euler and composite rigid bodies over the joint tree
// (see dynamics.hpp). Spatial vectors are 6-vectors, angular part first:
// a motion (ω, v) with v the velocity of the frame's origin, a force (n, f)
// with n the moment about the origin. Each body's quantities are in its own
// link frame, so the joint's motion subspace S is a constant there. A
// floating base is the root link's 6-DoF joint with S = 1 in that frame; the
// public vectors order its entries linear first (dynamics.hpp), so the
// spatial (angular-first) quantities are swapped at the boundary.
#include <proxima/robot/dynamics.hpp>

#include <cmath>
#include <string>

#include <Eigen/Geometry>

#include <proxima/core/error.hpp>
#include <proxima/robot/kinematics.hpp>

#include "definite.hpp"

namespace proxima::robot {

namespace {

Mat3 skew(const Vec3& x) {
  Mat3 m;
  m << 0.0, -x.z(), x.y(), x.z(), 0.0, -x.x(), -x.y(), x.x(), 0.0;
  return m;
}

// The spatial inertia about the link origin of a body with mass m, centre of
// mass c and rotational inertia Ic about c (all in the link frame).
Mat6 spatial_inertia(double m, const Vec3& c, const Mat3& Ic) {
  const Mat3 C = skew(c);
  Mat6 I;
  I.topLeftCorner<3, 3>() = Ic + m * C * C.transpose();
  I.topRightCorner<3, 3>() = m * C;
  I.bottomLeftCorner<3, 3>() = m * C.transpose();
  I.bottomRightCorner<3, 3>() = m * Mat3::Identity();
  return I;
}

// v ×m m: the rate of change of motion m carried by velocity v.
Vec6 cross_motion(const Vec6& v, const Vec6& m) {
  Vec6 out;
  out.head<3>() = v.head<3>().cross(m.head<3>());
  out.tail<3>() = v.head<3>().cross(m.tail<3>()) + v.tail<3>().cross(m.head<3>());
  return out;
}

// v ×* f: the same for a force.
Vec6 cross_force(const Vec6& v, const Vec6& f) {
  Vec6 out;
  out.head<3>() = v.head<3>().cross(f.head<3>()) + v.tail<3>().cross(f.tail<3>());
  out.tail<3>() = v.head<3>().cross(f.tail<3>());
  return out;
}

// A spatial vector (angular, linear) as the public base entries (linear,
// angular), and back: the same swap of halves.
Vec6 swap_halves(const Vec6& x) {
  Vec6 out;
  out << x.tail<3>(), x.head<3>();
  return out;
}

constexpr const char* kBaseEntryNames[6] = {"base v_x", "base v_y", "base v_z", "base ω_x", "base ω_y", "base ω_z"};

}  // namespace

Dynamics::Dynamics(const RobotModel& model, const Transform& base, const Vec3& gravity, BaseKind kind)
    : model_(model), base_(base), gravity_(gravity), kind_(kind) {
  if (!base.is_rigid())
    throw Error("robot '" + model.name() + "': dynamics base pose is not finite or not a rotation");
  if (!gravity.allFinite()) throw Error("robot '" + model.name() + "': dynamics gravity is not finite");
  {
    const Inertial& in = model.link(model.root_link()).inertial;
    root_inertia_ = spatial_inertia(in.mass, in.origin.p, in.origin.R * in.inertia * in.origin.R.transpose());
  }
  // The body of each link (−1 for the root), filled as the joints come in
  // topological order, so a body's parent is always before it.
  std::vector<int> body_of(model.links().size(), -1);
  for (const int j : model.topological_joints()) {
    const Joint& jt = model.joint(j);
    Body b;
    b.parent = body_of[static_cast<std::size_t>(jt.parent_link)];
    b.variable = jt.variable;
    b.multiplier = jt.variable_multiplier;
    b.offset = jt.variable_offset;
    switch (jt.type) {
      case JointType::revolute:
      case JointType::continuous: b.motion = Motion::rotation; break;
      case JointType::prismatic: b.motion = Motion::translation; break;
      case JointType::fixed: b.motion = Motion::none; break;
    }
    if (b.variable < 0) b.motion = Motion::none;
    b.origin_R = jt.origin.R;
    b.origin_p = jt.origin.p;
    b.axis = jt.axis;
    const Inertial& in = model.link(jt.child_link).inertial;
    b.inertia = spatial_inertia(in.mass, in.origin.p, in.origin.R * in.inertia * in.origin.R.transpose());
    body_of[static_cast<std::size_t>(jt.child_link)] = static_cast<int>(bodies_.size());
    bodies_.push_back(b);
  }
}

void Dynamics::check(const Eigen::VectorXd& x, const char* what) const {
  const std::size_t n = variable_count();
  if (static_cast<std::size_t>(x.size()) != n)
    throw Error("robot '" + model_.name() + "': " + what + " vector has " + std::to_string(x.size()) +
                " values, expected " + std::to_string(n));
  for (std::size_t i = 0; i < n; ++i)
    if (!std::isfinite(x[static_cast<Eigen::Index>(i)]))
      throw Error("robot '" + model_.name() + "': " + what + " vector value " + std::to_string(i) + " (joint '" +
                  model_.joint(model_.variable_joint(i)).name + "') is not finite");
}

void Dynamics::check_velocity(const Eigen::VectorXd& x, const char* what) const {
  const std::size_t n = dof();
  if (static_cast<std::size_t>(x.size()) != n)
    throw Error("robot '" + model_.name() + "': " + what + " vector has " + std::to_string(x.size()) +
                " values, expected " + std::to_string(n) + (floating() ? " (6 base entries, then the joints)" : ""));
  const auto off = base_dofs();
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    if (std::isfinite(x[i])) continue;
    const std::string entry =
        i < off ? std::string(kBaseEntryNames[i])
                : "joint '" + model_.joint(model_.variable_joint(static_cast<std::size_t>(i - off))).name + "'";
    throw Error("robot '" + model_.name() + "': " + what + " vector value " + std::to_string(i) + " (" + entry +
                ") is not finite");
  }
}

Vec3 Dynamics::gravity_in_root(const Transform& base) const {
  if (!base.is_rigid()) throw Error("robot '" + model_.name() + "': base pose is not finite or not a rotation");
  return base.R.transpose() * gravity_;
}

void Dynamics::overflow_check(bool finite, const char* what) const {
  // Finite inputs can still overflow (velocities of 1e200 squared); a
  // result with inf or NaN in it is refused rather than returned.
  if (!finite)
    throw Error("robot '" + model_.name() + "': " + what +
                " overflowed: the state or the masses are too large for double precision");
}

void Dynamics::prepare(DynamicsWorkspace& ws) const {
  const std::size_t n = bodies_.size();
  ws.E.resize(n);
  ws.r.resize(n);
  ws.v.resize(n);
  ws.a.resize(n);
  ws.f.resize(n);
  ws.X.resize(n);
  ws.Ic.resize(n);
}

void Dynamics::transforms(const Eigen::VectorXd& q, DynamicsWorkspace& ws) const {
  prepare(ws);
  for (std::size_t k = 0; k < bodies_.size(); ++k) {
    const Body& b = bodies_[k];
    const double x = b.variable >= 0 ? b.multiplier * q[b.variable] + b.offset : 0.0;
    Mat3 R = b.origin_R;  // child axes in the parent frame
    Vec3 r = b.origin_p;
    if (b.motion == Motion::rotation) R = b.origin_R * Eigen::AngleAxisd(x, b.axis).toRotationMatrix();
    else if (b.motion == Motion::translation) r += b.origin_R * (x * b.axis);
    ws.E[k] = R.transpose();
    ws.r[k] = r;
    // X m = (E ω, E (v − r × ω)).
    Mat6& X = ws.X[k];
    X.topLeftCorner<3, 3>() = ws.E[k];
    X.topRightCorner<3, 3>().setZero();
    X.bottomLeftCorner<3, 3>().noalias() = -ws.E[k] * skew(r);
    X.bottomRightCorner<3, 3>() = ws.E[k];
  }
}

void Dynamics::rnea(const Vec3& g_root, const Eigen::VectorXd& qd, const Eigen::VectorXd* qdd,
                    DynamicsWorkspace& ws, Eigen::VectorXd& tau) const {
  // The root accelerates upwards at −g on top of its own motion: gravity
  // then acts on every body through the recursion, with no force term of
  // its own. A fixed root has no motion; a floating one has u's base twist.
  const Eigen::Index off = base_dofs();
  Vec6 root_v = Vec6::Zero(), root_a = Vec6::Zero();
  if (floating()) {
    root_v = swap_halves(qd.head<6>());
    if (qdd) root_a = swap_halves(qdd->head<6>());
  }
  root_a.tail<3>() -= g_root;
  for (std::size_t k = 0; k < bodies_.size(); ++k) {
    const Body& b = bodies_[k];
    Vec6 v_parent = root_v, a_parent = root_a;
    if (b.parent >= 0) {
      v_parent = ws.v[static_cast<std::size_t>(b.parent)];
      a_parent = ws.a[static_cast<std::size_t>(b.parent)];
    }
    Vec6& v = ws.v[k];
    Vec6& a = ws.a[k];
    v.noalias() = ws.X[k] * v_parent;
    a.noalias() = ws.X[k] * a_parent;
    if (b.motion != Motion::none) {
      Vec6 S = Vec6::Zero();
      (b.motion == Motion::rotation ? S.head<3>() : S.tail<3>()) = b.multiplier * b.axis;
      const double rate = qd[off + b.variable];
      v += S * rate;
      a += cross_motion(v, S * rate);
      if (qdd) a += S * (*qdd)[off + b.variable];
    }
    ws.f[k].noalias() = b.inertia * a;
    ws.f[k] += cross_force(v, b.inertia * v);
  }
  tau.setZero(static_cast<Eigen::Index>(dof()));
  // The floating root's own force, and what its subtree hands it.
  Vec6 root_f = Vec6::Zero();
  if (floating()) root_f = root_inertia_ * root_a + cross_force(root_v, root_inertia_ * root_v);
  for (std::size_t k = bodies_.size(); k-- > 0;) {
    const Body& b = bodies_[k];
    const Vec6& f = ws.f[k];
    if (b.motion != Motion::none)
      tau[off + b.variable] +=
          b.multiplier * (b.motion == Motion::rotation ? f.head<3>() : f.tail<3>()).dot(b.axis);
    if (b.parent >= 0) ws.f[static_cast<std::size_t>(b.parent)].noalias() += ws.X[k].transpose() * f;
    else if (floating()) root_f.noalias() += ws.X[k].transpose() * f;
  }
  if (floating()) tau.head<6>() = swap_halves(root_f);
}

void Dynamics::crba(DynamicsWorkspace& ws, Eigen::MatrixXd& M) const {
  const auto n = static_cast<Eigen::Index>(dof());
  const Eigen::Index off = base_dofs();
  M.setZero(n, n);
  for (std::size_t k = 0; k < bodies_.size(); ++k) ws.Ic[k] = bodies_[k].inertia;
  // A floating root's composite inertia is its block of M (its S = 1).
  Mat6 root_Ic = root_inertia_;
  for (std::size_t k = bodies_.size(); k-- > 0;) {
    const int p = bodies_[k].parent;
    if (p >= 0) ws.Ic[static_cast<std::size_t>(p)].noalias() += ws.X[k].transpose() * ws.Ic[k] * ws.X[k];
    else if (floating()) root_Ic.noalias() += ws.X[k].transpose() * ws.Ic[k] * ws.X[k];
  }
  if (floating()) {
    M.block<3, 3>(0, 0) = root_Ic.bottomRightCorner<3, 3>();
    M.block<3, 3>(0, 3) = root_Ic.bottomLeftCorner<3, 3>();
    M.block<3, 3>(3, 0) = root_Ic.topRightCorner<3, 3>();
    M.block<3, 3>(3, 3) = root_Ic.topLeftCorner<3, 3>();
  }
  // Column of body i: F = Ic_i S_i carried to each ancestor j, whose S_jᵀ F
  // is entry (i, j). Each (i, j) pair of joints adds to the entries of their
  // variables, both ways: two joints of one variable (a mimic chain) then add
  // to the diagonal twice, as Gᵀ M G over the joints does.
  for (std::size_t i = 0; i < bodies_.size(); ++i) {
    const Body& bi = bodies_[i];
    if (bi.motion == Motion::none) continue;
    Vec6 S = Vec6::Zero();
    (bi.motion == Motion::rotation ? S.head<3>() : S.tail<3>()) = bi.multiplier * bi.axis;
    Vec6 F = ws.Ic[i] * S;
    const Eigen::Index vi = off + bi.variable;
    M(vi, vi) += S.dot(F);
    std::size_t j = i;
    while (bodies_[j].parent >= 0) {
      F = ws.X[j].transpose() * F;
      j = static_cast<std::size_t>(bodies_[j].parent);
      const Body& bj = bodies_[j];
      if (bj.motion == Motion::none) continue;
      const double m =
          bj.multiplier * (bj.motion == Motion::rotation ? F.head<3>() : F.tail<3>()).dot(bj.axis);
      M(vi, off + bj.variable) += m;
      M(off + bj.variable, vi) += m;
    }
    if (floating()) {
      // Into the root's frame, where the base's S is 1: F is the column.
      const Vec6 base = swap_halves(ws.X[j].transpose() * F);
      M.block<6, 1>(0, vi) += base;
      M.block<1, 6>(vi, 0) += base.transpose();
    }
  }
}

void Dynamics::inverse_dynamics(const Transform& base, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                const Eigen::VectorXd& qdd, DynamicsWorkspace& ws, Eigen::VectorXd& tau) const {
  const Vec3 g = gravity_in_root(base);
  check(q, "joint position");
  check_velocity(qd, "joint velocity");
  check_velocity(qdd, "joint acceleration");
  transforms(q, ws);
  rnea(g, qd, &qdd, ws, tau);
  overflow_check(tau.allFinite(), "inverse dynamics");
}

void Dynamics::inverse_dynamics(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, const Eigen::VectorXd& qdd,
                                DynamicsWorkspace& ws, Eigen::VectorXd& tau) const {
  inverse_dynamics(base_, q, qd, qdd, ws, tau);
}

Eigen::VectorXd Dynamics::inverse_dynamics(const Transform& base, const Eigen::VectorXd& q,
                                           const Eigen::VectorXd& qd, const Eigen::VectorXd& qdd) const {
  DynamicsWorkspace ws;
  Eigen::VectorXd tau;
  inverse_dynamics(base, q, qd, qdd, ws, tau);
  return tau;
}

Eigen::VectorXd Dynamics::inverse_dynamics(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                           const Eigen::VectorXd& qdd) const {
  DynamicsWorkspace ws;
  Eigen::VectorXd tau;
  inverse_dynamics(q, qd, qdd, ws, tau);
  return tau;
}

void Dynamics::mass_matrix(const Eigen::VectorXd& q, DynamicsWorkspace& ws, Eigen::MatrixXd& M) const {
  check(q, "joint position");
  transforms(q, ws);
  crba(ws, M);
  overflow_check(M.allFinite(), "mass matrix");
}

Eigen::MatrixXd Dynamics::mass_matrix(const Eigen::VectorXd& q) const {
  DynamicsWorkspace ws;
  Eigen::MatrixXd M;
  mass_matrix(q, ws, M);
  return M;
}

void Dynamics::bias_forces(const Transform& base, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                           DynamicsWorkspace& ws, Eigen::VectorXd& h) const {
  const Vec3 g = gravity_in_root(base);
  check(q, "joint position");
  check_velocity(qd, "joint velocity");
  transforms(q, ws);
  rnea(g, qd, nullptr, ws, h);
  overflow_check(h.allFinite(), "bias forces");
}

void Dynamics::bias_forces(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, DynamicsWorkspace& ws,
                           Eigen::VectorXd& h) const {
  bias_forces(base_, q, qd, ws, h);
}

Eigen::VectorXd Dynamics::bias_forces(const Transform& base, const Eigen::VectorXd& q,
                                      const Eigen::VectorXd& qd) const {
  DynamicsWorkspace ws;
  Eigen::VectorXd h;
  bias_forces(base, q, qd, ws, h);
  return h;
}

Eigen::VectorXd Dynamics::bias_forces(const Eigen::VectorXd& q, const Eigen::VectorXd& qd) const {
  DynamicsWorkspace ws;
  Eigen::VectorXd h;
  bias_forces(q, qd, ws, h);
  return h;
}

void Dynamics::forward_dynamics(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, const Eigen::VectorXd& tau,
                                DynamicsWorkspace& ws, Eigen::VectorXd& qdd) const {
  forward_dynamics(base_, q, qd, tau, ws, qdd);
}

Eigen::VectorXd Dynamics::forward_dynamics(const Transform& base, const Eigen::VectorXd& q,
                                           const Eigen::VectorXd& qd, const Eigen::VectorXd& tau) const {
  DynamicsWorkspace ws;
  Eigen::VectorXd qdd;
  forward_dynamics(base, q, qd, tau, ws, qdd);
  return qdd;
}

void Dynamics::forward_dynamics(const Transform& base, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                const Eigen::VectorXd& tau, DynamicsWorkspace& ws, Eigen::VectorXd& qdd) const {
  const Vec3 g = gravity_in_root(base);
  check(q, "joint position");
  check_velocity(qd, "joint velocity");
  check_velocity(tau, "joint torque");
  transforms(q, ws);
  rnea(g, qd, nullptr, ws, ws.h);
  crba(ws, ws.M);
  if (ws.M.rows() == 0) {
    qdd.resize(0);
    return;
  }
  ws.llt.compute(ws.M);
  if (!detail::definite(ws.llt, ws.M))
    throw Error("robot '" + model_.name() +
                "': the mass matrix is not positive definite at this configuration (a joint that moves no mass: "
                "its links need an <inertial>; a floating robot needs mass and rotational inertia)");
  ws.rhs = tau - ws.h;
  qdd = ws.llt.solve(ws.rhs);
  overflow_check(qdd.allFinite(), "forward dynamics");
}

Eigen::VectorXd Dynamics::forward_dynamics(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                           const Eigen::VectorXd& tau) const {
  DynamicsWorkspace ws;
  Eigen::VectorXd qdd;
  forward_dynamics(q, qd, tau, ws, qdd);
  return qdd;
}

}  // namespace proxima::robot
