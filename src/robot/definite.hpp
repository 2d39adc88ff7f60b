// SPDX-License-Identifier: BSD-3-Clause
// Whether a Cholesky factorisation of a mass matrix can be solved with:
// Eigen's LLT reports only a non-positive pivot, while a variable that moves
// no mass gives a pivot that is zero up to round-off, and solving with it
// would return inf or NaN accelerations.
#pragma once

#include <Eigen/Cholesky>
#include <Eigen/Core>

namespace proxima::robot::detail {

/// True when `llt` (of `M`) succeeded and each pivot², the part of its
/// diagonal entry not explained by the variables before it, exceeds 1e-12
/// of M's largest diagonal entry.
inline bool definite(const Eigen::LLT<Eigen::MatrixXd>& llt, const Eigen::MatrixXd& M) {
  if (llt.info() != Eigen::Success) return false;
  const double floor = 1e-12 * M.diagonal().maxCoeff();
  if (!(floor > 0.0)) return false;
  for (Eigen::Index i = 0; i < M.rows(); ++i) {
    const double pivot = llt.matrixLLT()(i, i);
    if (!(pivot * pivot > floor)) return false;
  }
  return true;
}

}  // namespace proxima::robot::detail
