// SPDX-License-Identifier: BSD-3-Clause
// Dense views of the body-space contact problem (Lemke, tests) and the
// velocity update v = v* + M⁻¹ Jᵀ x.
#include <proxima/sim/body_space.hpp>

namespace proxima::sim {

using Eigen::Index;
using Eigen::VectorXd;

void to_contact_lcp(const BodySpaceProblem& p, ContactLcp& out) {
  const Index m = static_cast<Index>(p.rows.size());
  out.contacts = p.contacts;
  out.groups = p.groups;
  out.W.setZero(m, m);
  out.b.resize(m);
  // Rows of different bodies do not couple; pair the rows of each body
  // only (the stack's W is block-tridiagonal, this is linear in its blocks).
  const Index bodies = p.v_star.size() / 6;
  std::vector<std::vector<Index>> rows_of(static_cast<std::size_t>(bodies));
  for (Index i = 0; i < m; ++i) {
    const JacobianRow& r = p.rows[static_cast<std::size_t>(i)];
    if (r.a >= 0) rows_of[static_cast<std::size_t>(r.a)].push_back(i);
    if (r.b >= 0) rows_of[static_cast<std::size_t>(r.b)].push_back(i);
    out.b[i] = row_velocity(r, p.v_star);
  }
  auto entries = [&](Index i, int body) -> std::pair<const Vec6*, const Vec6*> {
    const JacobianRow& r = p.rows[static_cast<std::size_t>(i)];
    return r.a == body ? std::pair{&r.ja, &r.ma} : std::pair{&r.jb, &r.mb};
  };
  for (Index body = 0; body < bodies; ++body) {
    const auto& rows = rows_of[static_cast<std::size_t>(body)];
    for (const Index i : rows)
      for (const Index j : rows) out.W(i, j) += entries(i, int(body)).first->dot(*entries(j, int(body)).second);
  }
}

VectorXd velocities_after(const BodySpaceProblem& p, const VectorXd& x) {
  VectorXd v = p.v_star;
  for (std::size_t i = 0; i < p.rows.size(); ++i) {
    const JacobianRow& r = p.rows[i];
    const double xi = x[static_cast<Index>(i)];
    if (xi == 0.0) continue;
    if (r.a >= 0) v.segment<6>(6 * r.a) += xi * r.ma;
    if (r.b >= 0) v.segment<6>(6 * r.b) += xi * r.mb;
  }
  return v;
}

}  // namespace proxima::sim
