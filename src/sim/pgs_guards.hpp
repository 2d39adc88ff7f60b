// SPDX-License-Identifier: BSD-3-Clause
// The checks at either end of a PGS solve (pgs_bodies.cpp, peg_pgs.cpp)
// that keep a non-finite number out of the world.
#pragma once

#include <proxima/sim/body_space.hpp>

namespace proxima::sim::detail {

/// Warm start from x when it fits the problem and is finite, else from zero.
/// False when v* itself is not finite: then no impulse (x zero, v = v*) and
/// status invalid_input.
inline bool start_pgs(const BodySpaceProblem& p, Eigen::VectorXd& x, Eigen::VectorXd& v, PgsResult& out) {
  const Eigen::Index m = static_cast<Eigen::Index>(p.rows.size());
  if (x.size() != m || !all_finite(x)) x.setZero(m);
  if (all_finite(p.v_star)) return true;
  x.setZero(m);
  v = p.v_star;
  out.status = LcpStatus::invalid_input;
  return false;
}

/// A solve that ended with a non-finite impulse or velocity applies none.
inline void reject_non_finite(const BodySpaceProblem& p, Eigen::VectorXd& x, Eigen::VectorXd& v, PgsResult& out) {
  if (all_finite(x) && all_finite(v)) return;
  x.setZero();
  v = p.v_star;
  out.status = LcpStatus::invalid_input;
}

}  // namespace proxima::sim::detail
