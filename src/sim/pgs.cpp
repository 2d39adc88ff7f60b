// SPDX-License-Identifier: BSD-3-Clause
// Projected Gauss–Seidel on the contact problem of lcp.hpp, one contact at a
// time (a block Gauss–Seidel: each block's own convex subproblem is solved
// exactly, so every sweep lowers the energy of the frictionless problem and
// the fixed points are the solutions of the LCP of eq. (1)).
//
// A contact with a PEG group (MaxGroup) keeps the group's max-ψ velocity
// non-negative instead of its own row's, as solve_pgs_max does in body
// space (peg_pgs.cpp): with u_j the aux row's velocity, u_a + d_j =
// u_j + active_bias, and the visit is c ← max(0, c − g / W_aa) with
// g = max(u_a, u_j + active_bias …). Aux rows carry no impulse.
#include <algorithm>
#include <cmath>
#include <vector>

#include <Eigen/Dense>

#include <proxima/sim/lcp.hpp>

#include "friction_polygon.hpp"

namespace proxima::sim {

using Eigen::Index;
using Eigen::Matrix2d;
using Eigen::Vector2d;
using Eigen::VectorXd;

ContactSolution solve_pgs(const ContactLcp& p, const ContactSolveOptions& options, const VectorXd& warm) {
  ContactSolution out;
  const Index m = p.b.size();
  VectorXd x = warm.size() == m && warm.allFinite() ? warm : VectorXd::Zero(m);
  if (!p.W.allFinite() || !p.b.allFinite()) {
    out.x = VectorXd::Zero(m);
    out.status = LcpStatus::invalid_input;
    return out;
  }
  for (const MaxGroup& g : p.groups) x.segment(g.first, g.count).setZero();  // aux rows: no impulse
  // u = W x + b kept up to date incrementally: a change δ on row k adds δ W(:,k).
  VectorXd u = p.W * x + p.b;
  // The group of each contact, −1 for none (only made when there are groups).
  std::vector<int> group;
  if (!p.groups.empty()) group.assign(p.contacts.size(), -1);
  for (std::size_t g = 0; g < p.groups.size(); ++g) group[static_cast<std::size_t>(p.groups[g].contact)] = static_cast<int>(g);
  const detail::FrictionPolygon polygon(options.friction_directions);
  out.status = LcpStatus::max_iterations;
  for (int it = 1; it <= options.pgs_max_iterations; ++it) {
    double change = 0.0;
    for (std::size_t k = 0; k < p.contacts.size(); ++k) {
      const ContactRows& c = p.contacts[k];
      // Normal impulse: exact 1-D minimization, projected on [0, ∞).
      const Index n = c.normal;
      const double wnn = p.W(n, n);
      if (wnn > 0.0) {
        double gmax = u[n];
        if (!group.empty() && group[k] >= 0) {
          const MaxGroup& g = p.groups[static_cast<std::size_t>(group[k])];
          for (int j = 0; j < g.count; ++j) gmax = std::max(gmax, u[g.first + j] + g.active_bias);
        }
        const double xn = std::max(0.0, x[n] - gmax / wnn);
        const double dn = xn - x[n];
        if (dn != 0.0) {
          u += dn * p.W.col(n);
          x[n] = xn;
          change = std::max(change, std::abs(dn));
        }
      }
      if (c.tangent < 0) continue;
      // Tangential impulse: the 2-D block over the friction polygon.
      const Index t = c.tangent;
      const Matrix2d A = p.W.block<2, 2>(t, t);
      const Vector2d f0(x[t], x[t + 1]);
      const Vector2d g = Vector2d(u[t], u[t + 1]) - A * f0;
      const Vector2d f = polygon.minimize(A, g, c.mu * x[n]);
      const Vector2d df = f - f0;
      if (df.x() != 0.0 || df.y() != 0.0) {
        u += df.x() * p.W.col(t) + df.y() * p.W.col(t + 1);
        x[t] = f.x();
        x[t + 1] = f.y();
        change = std::max(change, df.cwiseAbs().maxCoeff());
      }
    }
    out.iterations = it;
    const double scale = std::max(x.size() ? x.cwiseAbs().maxCoeff() : 0.0, 1e-300);
    if (change <= options.pgs_tolerance * scale) {
      out.status = LcpStatus::ok;
      break;
    }
  }
  if (!x.allFinite()) {
    x.setZero();
    out.status = LcpStatus::invalid_input;
  }
  out.x = x;
  return out;
}

}  // namespace proxima::sim
