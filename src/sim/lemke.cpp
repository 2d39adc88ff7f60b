// SPDX-License-Identifier: BSD-3-Clause
// Lemke's algorithm with a lexicographic minimum-ratio rule (Cottle, Pang &
// Stone §4.4 and §4.9). Variables are numbered w₀…w_{m−1}, z₀…z_{m−1} as
// m…2m−1, and the artificial z₀ as 2m; the system is I w − M z − e z₀ = q.
#include <algorithm>
#include <cmath>

#include <Eigen/LU>

#include <proxima/sim/lcp.hpp>

namespace proxima::sim {

const char* to_string(LcpStatus s) {
  switch (s) {
    case LcpStatus::ok: return "ok";
    case LcpStatus::max_iterations: return "max_iterations";
    case LcpStatus::ray_termination: return "ray_termination";
    case LcpStatus::inaccurate: return "inaccurate";
    case LcpStatus::invalid_input: return "invalid_input";
  }
  return "unknown";
}

namespace {

using Eigen::Index;
using Eigen::MatrixXd;
using Eigen::VectorXd;

// Relative rounding error of the basic values, for the ratio test's ties.
constexpr double kTie = 1e-11;

class Tableau {
 public:
  Tableau(const MatrixXd& M, const VectorXd& q)
      : M_(M), q_(q), m_(q.size()), x_tolerance_(kTie * (1.0 + q.cwiseAbs().maxCoeff())) {
    basis_.resize(static_cast<std::size_t>(m_));
    for (Index i = 0; i < m_; ++i) basis_[static_cast<std::size_t>(i)] = i;  // all w basic
    binv_ = MatrixXd::Identity(m_, m_);
    x_ = q;
  }

  /// Column of variable v in [I, −M, −e].
  VectorXd column(Index v) const {
    if (v < m_) return VectorXd::Unit(m_, v);
    if (v < 2 * m_) return -M_.col(v - m_);
    return -VectorXd::Ones(m_);
  }

  /// Pivots variable `enter` (with B⁻¹-column d) into row r.
  void pivot(Index r, Index enter, const VectorXd& d) {
    const double dr = d[r];
    const double theta = x_[r] / dr;
    binv_.row(r) /= dr;
    for (Index i = 0; i < m_; ++i) {
      if (i == r || d[i] == 0.0) continue;
      binv_.row(i) -= d[i] * binv_.row(r);
      x_[i] -= d[i] * theta;
    }
    x_[r] = theta;
    basis_[static_cast<std::size_t>(r)] = enter;
  }

  /// Recomputes B⁻¹ and x = B⁻¹ q from the basis columns.
  void refactor() {
    MatrixXd B(m_, m_);
    for (Index i = 0; i < m_; ++i) B.col(i) = column(basis_[static_cast<std::size_t>(i)]);
    binv_ = B.partialPivLu().inverse();
    x_ = binv_ * q_;
  }

  /// Minimum-ratio row for column d, lexicographic on ties; −1 on a ray.
  /// Two ratios tie when they differ by less than what rounding leaves
  /// uncertain in them: the basic values x carry an error of about
  /// kTie (1 + max |q|), so x_i / d_i is uncertain by that over d_i. A
  /// tolerance relative to the ratio instead is far too tight at the
  /// degenerate ratios near 0 (x_i = 0 up to rounding), where a contact
  /// problem with more contacts than the bodies have freedoms (a box on a
  /// table, pushed by two fingers) spends its pivots: rounding then picks
  /// the leaving row instead of the lexicographic rule, and the run can
  /// cycle into a ray (Cottle, Pang & Stone §4.9).
  Index ratio_test(const VectorXd& d, double tol) const {
    Index best = -1;
    double best_ratio = 0.0;
    for (Index i = 0; i < m_; ++i) {
      if (d[i] <= tol) continue;
      const double ratio = std::max(x_[i], 0.0) / d[i];
      const double tie = best < 0 ? 0.0 : x_tolerance_ * (1.0 / d[i] + 1.0 / d[best]);
      if (best < 0 || ratio < best_ratio - tie) {
        best = i;
        best_ratio = ratio;
      } else if (ratio <= best_ratio + tie) {
        best = lexicographic_winner(best, i, d);
        best_ratio = std::max(x_[best], 0.0) / d[best];
      }
    }
    return best;
  }

  Index m() const { return m_; }
  Index basic(Index r) const { return basis_[static_cast<std::size_t>(r)]; }
  const VectorXd& x() const { return x_; }
  const MatrixXd& binv() const { return binv_; }

 private:
  // Between tied rows a and b: z₀ leaving wins (it ends the run); otherwise
  // the row whose B⁻¹ row divided by its d entry is lexicographically smaller.
  Index lexicographic_winner(Index a, Index b, const VectorXd& d) const {
    const Index artificial = 2 * m_;
    if (basic(a) == artificial) return a;
    if (basic(b) == artificial) return b;
    for (Index k = 0; k < m_; ++k) {
      const double va = binv_(a, k) / d[a];
      const double vb = binv_(b, k) / d[b];
      if (va < vb - 1e-15) return a;
      if (vb < va - 1e-15) return b;
    }
    return std::min(a, b);
  }

  const MatrixXd& M_;
  const VectorXd& q_;
  Index m_;
  double x_tolerance_;
  std::vector<Index> basis_;
  MatrixXd binv_;
  VectorXd x_;
};

// Residual check of a candidate solution (the final word on success).
bool acceptable(const MatrixXd& M, const VectorXd& q, const VectorXd& z, double tol) {
  const double s = 1.0 + q.cwiseAbs().maxCoeff();
  const VectorXd w = M * z + q;
  if (!z.allFinite() || !w.allFinite()) return false;
  if (z.minCoeff() < -tol * s || w.minCoeff() < -tol * s) return false;
  return (z.cwiseProduct(w)).cwiseAbs().maxCoeff() <= tol * s * s;
}

}  // namespace

LcpSolution lemke(const MatrixXd& M, const VectorXd& q, const LemkeOptions& options) {
  const Index m = q.size();
  LcpSolution out;
  out.z = VectorXd::Zero(m);
  if (m == 0) return out;
  if (!M.allFinite() || !q.allFinite() || M.rows() != m || M.cols() != m) {
    out.status = LcpStatus::invalid_input;
    return out;
  }
  // z = 0 already solves it when q ≥ 0.
  Index r = 0;
  q.minCoeff(&r);
  if (q[r] >= 0.0) return out;

  Tableau t(M, q);
  const Index artificial = 2 * m;
  const int cap = options.max_pivots > 0 ? options.max_pivots : static_cast<int>(std::max<Index>(100, 20 * m));

  // First pivot: z₀ enters at the most negative q (ties: lowest index);
  // then the complement of whatever left enters, until z₀ leaves.
  VectorXd d = t.binv() * t.column(artificial);
  t.pivot(r, artificial, d);
  Index enter = r + m;  // w_r left, so z_r enters
  int pivots = 1;
  bool done = false;
  while (pivots < cap) {
    d = t.binv() * t.column(enter);
    const double tol = options.pivot_tolerance * std::max(1.0, d.cwiseAbs().maxCoeff());
    const Index row = t.ratio_test(d, tol);
    if (row < 0) {
      out.status = LcpStatus::ray_termination;
      out.iterations = pivots;
      return out;
    }
    const Index left = t.basic(row);
    t.pivot(row, enter, d);
    ++pivots;
    if (options.refactor_every > 0 && pivots % options.refactor_every == 0) t.refactor();
    if (left == artificial) {
      done = true;
      break;
    }
    enter = left < m ? left + m : left - m;
  }
  out.iterations = pivots;
  if (!done) {
    out.status = LcpStatus::max_iterations;
    return out;
  }
  // Read z off the basis; tiny negative values are rounding and clamp to 0.
  t.refactor();
  VectorXd z = VectorXd::Zero(m);
  for (Index i = 0; i < m; ++i) {
    const Index v = t.basic(i);
    if (v >= m && v < 2 * m) z[v - m] = std::max(0.0, t.x()[i]);
  }
  if (!acceptable(M, q, z, options.residual_tolerance)) {
    out.status = LcpStatus::inaccurate;
    return out;
  }
  out.z = z;
  return out;
}

}  // namespace proxima::sim
