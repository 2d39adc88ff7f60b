// Projected Gauss–Seidel in body space (the "sequential impulses" form of
// solve_pgs in pgs.cpp): the contact-space velocity of a row is read from
// the two bodies' velocities, u = J v + bias, and an impulse change δ moves
// them by δ M⁻¹ Jᵀ. Each visit costs a few 6-vectors, so a sweep is linear
// in the number of contacts where the dense form is quadratic.
//
// Normal rows carry a small compliance ε = α W_nn (ODE's "constraint force
// mixing"): the sweeps solve u_n + ε c_n ≥ 0 ⊥ c_n ≥ 0. A face resting on
// four coplanar points is statically indeterminate; without ε the sweeps
// wander along the null space of W, loading diagonal corner pairs unevenly
// and building self-equilibrated friction stresses that sit at the edge of
// the cone, where the next perturbation makes the face slip and twist
// (measured on the 10-box stack: 2 mm drift in 3 s at 100 sweeps). ε picks
// the least-squares load distribution, so warm starts converge instead of
// drifting. Its cost is a steady extra depth of ε c_n Δt / (γ) per contact,
// well under a micrometre for the stack.
#include <algorithm>
#include <cmath>
#include <numbers>

#include <proxima/sim/body_space.hpp>

#include "friction_polygon.hpp"

namespace proxima::sim {

using Eigen::Index;
using Eigen::Matrix2d;
using Eigen::Vector2d;
using Eigen::VectorXd;

namespace {

// A row with static sides pointed at a zero "ground" slot of the velocity
// array (index = number of dynamic bodies, zero entries), so that the hot
// loop reads and writes both sides without branches.
struct Row {
  int a, b;
  Vec6 ja, jb, ma, mb;
  double bias;
  double velocity(const std::vector<Vec6>& v) const {
    return bias + ja.dot(v[static_cast<std::size_t>(a)]) + jb.dot(v[static_cast<std::size_t>(b)]);
  }
  void apply(double delta, std::vector<Vec6>& v) const {
    v[static_cast<std::size_t>(a)] += delta * ma;
    v[static_cast<std::size_t>(b)] += delta * mb;
  }
};

// One contact's rows and its blocks of W: the compliance-augmented W_nn
// and the 2×2 tangent block.
struct Block {
  int normal = 0, tangent = -1;  // rows in x
  double mu = 0.0;
  Row n, t1, t2;
  double wnn = 0.0, eps = 0.0;
  Matrix2d wtt = Matrix2d::Zero();
};

Row compact(const JacobianRow& r, int ground) {
  return {r.a >= 0 ? r.a : ground, r.b >= 0 ? r.b : ground, r.ja, r.jb, r.ma, r.mb, r.bias};
}

}  // namespace

ContactSolution solve_pgs_bodies(const BodySpaceProblem& p, const ContactSolveOptions& options,
                                 const VectorXd& warm, VectorXd& v) {
  ContactSolution out;
  const Index m = static_cast<Index>(p.rows.size());
  VectorXd x = warm.size() == m && warm.allFinite() ? warm : VectorXd::Zero(m);
  if (!p.v_star.allFinite()) {
    out.x = VectorXd::Zero(m);
    v = p.v_star;
    out.status = LcpStatus::invalid_input;
    return out;
  }
  v = velocities_after(p, x);
  if (p.contacts.empty()) {
    out.x = x;
    return out;
  }

  // Compact per-contact blocks, in visiting order.
  const std::size_t nc = p.contacts.size();
  const int ground = static_cast<int>(p.v_star.size() / 6);
  std::vector<int> order = p.order;
  if (order.size() != nc) {
    order.resize(nc);
    for (std::size_t k = 0; k < nc; ++k) order[k] = static_cast<int>(k);
  }
  std::vector<Block> blocks(nc);
  for (std::size_t i = 0; i < nc; ++i) {
    const ContactRows& c = p.contacts[static_cast<std::size_t>(order[i])];
    Block& blk = blocks[i];
    blk.normal = c.normal;
    blk.tangent = c.tangent;
    blk.mu = c.mu;
    const JacobianRow& rn = p.rows[static_cast<std::size_t>(c.normal)];
    blk.n = compact(rn, ground);
    blk.wnn = delassus(rn, rn);
    blk.eps = options.pgs_regularization * blk.wnn;
    if (c.tangent >= 0) {
      const JacobianRow& t1 = p.rows[static_cast<std::size_t>(c.tangent)];
      const JacobianRow& t2 = p.rows[static_cast<std::size_t>(c.tangent + 1)];
      blk.t1 = compact(t1, ground);
      blk.t2 = compact(t2, ground);
      const double off = delassus(t1, t2);
      blk.wtt << delassus(t1, t1), off, off, delassus(t2, t2);
    }
  }
  std::vector<Vec6> vel(static_cast<std::size_t>(ground) + 1, Vec6::Zero());
  for (int i = 0; i < ground; ++i) vel[static_cast<std::size_t>(i)] = v.segment<6>(6 * i);
  const detail::FrictionPolygon polygon(options.friction_directions);
  const double apothem = std::cos(std::numbers::pi / options.friction_directions);

  out.status = LcpStatus::max_iterations;
  for (int it = 1; it <= options.pgs_max_iterations; ++it) {
    // Largest violation of eq. (1) met by a visit, before its update: a
    // normal row approaching (u_n + ε c_n < 0) or separating while pushed
    // (c_n > 0); a contact strictly inside its friction polygon sliding.
    // Sliding contacts are judged by their normal row only.
    double residual = 0.0;
    for (const Block& blk : blocks) {
      // Normal impulse: exact 1-D minimization, projected on [0, ∞).
      double& xn = x[blk.normal];
      if (blk.wnn > 0.0) {
        const double un = blk.n.velocity(vel) + blk.eps * xn;
        residual = std::max(residual, xn > 0.0 ? std::abs(un) : -un);
        const double next = std::max(0.0, xn - un / (blk.wnn + blk.eps));
        if (next != xn) {
          blk.n.apply(next - xn, vel);
          xn = next;
        }
      }
      if (blk.tangent < 0) continue;
      // Tangential impulse: the 2-D block over the friction polygon.
      const Index t = blk.tangent;
      const Vector2d f0(x[t], x[t + 1]);
      const Vector2d ut(blk.t1.velocity(vel), blk.t2.velocity(vel));
      const double radius = blk.mu * xn;
      if (f0.norm() < 0.999 * apothem * radius) residual = std::max(residual, ut.cwiseAbs().maxCoeff());
      const Vector2d f = polygon.minimize(blk.wtt, ut - blk.wtt * f0, radius);
      if (f != f0) {
        blk.t1.apply(f.x() - f0.x(), vel);
        blk.t2.apply(f.y() - f0.y(), vel);
        x[t] = f.x();
        x[t + 1] = f.y();
      }
    }
    out.iterations = it;
    if (residual <= options.pgs_velocity_tolerance) {
      out.status = LcpStatus::ok;
      break;
    }
  }
  for (int i = 0; i < ground; ++i) v.segment<6>(6 * i) = vel[static_cast<std::size_t>(i)];
  if (!x.allFinite() || !v.allFinite()) {
    x.setZero();
    v = p.v_star;
    out.status = LcpStatus::invalid_input;
  }
  out.x = std::move(x);
  return out;
}

}  // namespace proxima::sim
