// SPDX-License-Identifier: BSD-3-Clause
// The polyhedral friction-cone LCP of eq. (1) of Contact data for convex polyhedra, with the velocity
// v(t+Δt) eliminated (Anitescu & Potra 1997; Stewart & Trinkle 1996):
//
//   w_n = N v⁺ + ψ-term   ≥ 0 ⊥ c_n ≥ 0        (normal impulses)
//   w_d = D v⁺ + E λ      ≥ 0 ⊥ β   ≥ 0        (q friction impulses)
//   w_λ = μ c_n − Eᵀ β    ≥ 0 ⊥ λ   ≥ 0        (λ: the sliding speed)
//
// With x = S z_f the contact-space impulses of the force variables
// z_f = (c_n, β), the velocity rows are u = W x + b, so the force block of
// the LCP matrix is Sᵀ W S and its vector Sᵀ b.
#include <cmath>
#include <numbers>
#include <vector>

#include <proxima/sim/lcp.hpp>

namespace proxima::sim {

using Eigen::Index;
using Eigen::MatrixXd;
using Eigen::VectorXd;

void polyhedral_lcp(const ContactLcp& p, int friction_directions, MatrixXd& M, VectorXd& q,
                    MatrixXd& S) {
  const Index qd = friction_directions;
  // Number the force variables: per contact c_n, then β₁…β_q when frictional.
  Index nf = 0, nl = 0;
  for (const ContactRows& c : p.contacts) {
    nf += 1;
    if (c.tangent >= 0 && c.mu > 0.0) {
      nf += qd;
      nl += 1;
    }
  }
  S = MatrixXd::Zero(p.b.size(), nf);
  Index f = 0;
  for (const ContactRows& c : p.contacts) {
    S(c.normal, f++) = 1.0;
    if (c.tangent >= 0 && c.mu > 0.0) {
      for (Index j = 0; j < qd; ++j) {
        const double a = 2.0 * std::numbers::pi * static_cast<double>(j) / static_cast<double>(qd);
        S(c.tangent, f) = std::cos(a);
        S(c.tangent + 1, f) = std::sin(a);
        ++f;
      }
    }
  }
  Index nc = 0;
  for (const MaxGroup& g : p.groups) nc += g.count;
  const Index m = nf + nl + nc;
  M = MatrixXd::Zero(m, m);
  q = VectorXd::Zero(m);
  M.topLeftCorner(nf, nf) = S.transpose() * p.W * S;
  q.head(nf) = S.transpose() * p.b;
  // The λ rows and columns: E couples each β to its contact's λ.
  f = 0;
  Index l = nf;
  std::vector<Index> normal_var(p.contacts.size());
  for (std::size_t k = 0; k < p.contacts.size(); ++k) {
    const ContactRows& c = p.contacts[k];
    const Index n = f++;
    normal_var[k] = n;
    if (c.tangent >= 0 && c.mu > 0.0) {
      for (Index j = 0; j < qd; ++j, ++f) {
        M(f, l) = 1.0;
        M(l, f) = -1.0;
      }
      M(l, n) = c.mu;
      ++l;
    }
  }
  Index cv = nf + nl;
  for (const MaxGroup& g : p.groups) {
    const Index a = p.contacts[static_cast<std::size_t>(g.contact)].normal;
    const Index first_c = cv;
    for (Index j = 0; j < g.count; ++j, ++cv) {
      const Index row = g.first + j;
      M(normal_var[static_cast<std::size_t>(g.contact)], cv) = 1.0;
      M.row(cv).head(nf) = -(p.W.row(row) - p.W.row(a)) * S;
      for (Index i = first_c; i <= cv; ++i) M(cv, i) = 1.0;
      q[cv] = -(p.b[row] - p.b[a] + g.active_bias);
    }
  }
}

ContactSolution solve_lemke(const ContactLcp& p, const ContactSolveOptions& options) {
  ContactSolution out;
  out.x = VectorXd::Zero(p.b.size());
  if (p.contacts.empty()) return out;
  MatrixXd M, S;
  VectorXd q;
  polyhedral_lcp(p, options.friction_directions, M, q, S);
  LcpSolution s = lemke(M, q, options.lemke);
  out.iterations = s.iterations;
  if (s.status != LcpStatus::ok) {
    // Redundant contacts (a box in a V-groove: eight points, four per
    // face, and their friction directions) make the force block of M
    // singular, and the pivots then meet rays or leave a residual. Once
    // more with a compliance of 1e-7 of the largest diagonal entry on the
    // force block, which picks one of the equivalent force distributions
    // and moves the velocities by about 1e-7 of an impulse's effect (the
    // V-groove then solves every step: 524 of 1000 fell back to PGS).
    const Index nf = S.cols();
    const double eps = 1e-7 * std::max(M.topLeftCorner(nf, nf).diagonal().maxCoeff(), 1e-300);
    M.topLeftCorner(nf, nf).diagonal().array() += eps;
    s = lemke(M, q, options.lemke);
    out.iterations += s.iterations;
  }
  out.status = s.status;
  if (s.status == LcpStatus::ok) out.x = S * s.z.head(S.cols());
  return out;
}

}  // namespace proxima::sim
