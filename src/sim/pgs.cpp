// Projected Gauss–Seidel on the contact problem of lcp.hpp, one contact at a
// time (a block Gauss–Seidel: each block's own convex subproblem is solved
// exactly, so every sweep lowers the energy of the frictionless problem and
// the fixed points are the solutions of the LCP of eq. (1)).
#include <algorithm>
#include <cmath>
#include <numbers>

#include <Eigen/Dense>

#include <proxima/sim/lcp.hpp>

namespace proxima::sim {
namespace {

using Eigen::Index;
using Eigen::Matrix2d;
using Eigen::Vector2d;
using Eigen::VectorXd;

// Minimizes ½ fᵀ A f + gᵀ f over the regular q-gon with vertices
// R (cos 2πj/q, sin 2πj/q): the unconstrained minimum when it lies inside,
// else the best point of the q edges (each a clamped 1-D minimization).
Vector2d min_over_polygon(const Matrix2d& A, const Vector2d& g, double R, int q) {
  if (R <= 0.0) return Vector2d::Zero();
  const double det = A.determinant();
  const double step = 2.0 * std::numbers::pi / q;
  if (det > 1e-300) {
    const Vector2d f = -A.inverse() * g;
    const double apothem = R * std::cos(0.5 * step);
    bool inside = true;
    for (int j = 0; j < q && inside; ++j) {
      const double a = (j + 0.5) * step;
      inside = f.x() * std::cos(a) + f.y() * std::sin(a) <= apothem;
    }
    if (inside) return f;
  }
  Vector2d best = Vector2d::Zero();
  double best_val = 0.0;  // the origin is inside, value 0
  for (int j = 0; j < q; ++j) {
    const Vector2d p0 = R * Vector2d(std::cos(j * step), std::sin(j * step));
    const Vector2d p1 = R * Vector2d(std::cos((j + 1) * step), std::sin((j + 1) * step));
    const Vector2d e = p1 - p0;
    const double curv = e.dot(A * e);
    const double slope = e.dot(A * p0 + g);
    const double s = curv > 0.0 ? std::clamp(-slope / curv, 0.0, 1.0) : (slope < 0.0 ? 1.0 : 0.0);
    const Vector2d f = p0 + s * e;
    const double val = 0.5 * f.dot(A * f) + g.dot(f);
    if (val < best_val) {
      best_val = val;
      best = f;
    }
  }
  return best;
}

}  // namespace

ContactSolution solve_pgs(const ContactLcp& p, const ContactSolveOptions& options, const VectorXd& warm) {
  ContactSolution out;
  const Index m = p.b.size();
  VectorXd x = warm.size() == m && warm.allFinite() ? warm : VectorXd::Zero(m);
  if (!p.W.allFinite() || !p.b.allFinite()) {
    out.x = VectorXd::Zero(m);
    out.status = LcpStatus::invalid_input;
    return out;
  }
  // u = W x + b kept up to date incrementally: a change δ on row k adds δ W(:,k).
  VectorXd u = p.W * x + p.b;
  out.status = LcpStatus::max_iterations;
  for (int it = 1; it <= options.pgs_max_iterations; ++it) {
    double change = 0.0;
    for (const ContactRows& c : p.contacts) {
      // Normal impulse: exact 1-D minimization, projected on [0, ∞).
      const Index n = c.normal;
      const double wnn = p.W(n, n);
      if (wnn > 0.0) {
        const double xn = std::max(0.0, x[n] - u[n] / wnn);
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
      const Vector2d f = min_over_polygon(A, g, c.mu * x[n], options.friction_directions);
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
