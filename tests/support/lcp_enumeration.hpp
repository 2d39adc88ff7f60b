// SPDX-License-Identifier: BSD-3-Clause
// Every solution of a small LCP(M, q), by trying all 2^m complementary index
// sets: ground truth for the solvers that shares no code with them.
#pragma once

#include <vector>

#include <Eigen/Dense>

namespace proxima::testing {

/// For each index set S: z_S = −M_SS⁻¹ q_S, z elsewhere 0, kept when z ≥ −tol
/// and w = M z + q ≥ −tol.
inline std::vector<Eigen::VectorXd> enumerate_lcp(const Eigen::MatrixXd& M, const Eigen::VectorXd& q,
                                                  double tol = 1e-9) {
  const int m = int(q.size());
  std::vector<Eigen::VectorXd> out;
  for (unsigned mask = 0; mask < (1u << m); ++mask) {
    std::vector<int> s;
    for (int i = 0; i < m; ++i)
      if (mask & (1u << i)) s.push_back(i);
    Eigen::VectorXd z = Eigen::VectorXd::Zero(m);
    if (!s.empty()) {
      Eigen::MatrixXd Mss(s.size(), s.size());
      Eigen::VectorXd qs(s.size());
      for (std::size_t a = 0; a < s.size(); ++a) {
        qs[a] = q[s[a]];
        for (std::size_t b = 0; b < s.size(); ++b) Mss(a, b) = M(s[a], s[b]);
      }
      Eigen::FullPivLU<Eigen::MatrixXd> lu(Mss);
      if (!lu.isInvertible()) continue;
      const Eigen::VectorXd zs = lu.solve(-qs);
      for (std::size_t a = 0; a < s.size(); ++a) z[s[a]] = zs[a];
    }
    const Eigen::VectorXd w = M * z + q;
    if (z.minCoeff() >= -tol && w.minCoeff() >= -tol) out.push_back(z);
  }
  return out;
}

}  // namespace proxima::testing
