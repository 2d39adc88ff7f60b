// SPDX-License-Identifier: BSD-3-Clause
// The contact problem in body space: the same u = W x + b as ContactLcp,
// kept as its sparse factors (W = J M⁻¹ Jᵀ, b = J v* + bias) so that a
// projected Gauss–Seidel sweep costs O(rows) instead of O(rows²).
#pragma once

#include <memory>
#include <vector>

#include <Eigen/Core>

#include <proxima/sim/lcp.hpp>

namespace proxima::sim {

using Vec6 = Eigen::Matrix<double, 6, 1>;

/// One row of the contact Jacobian J. A contact row touches at most two
/// dynamic bodies (a ≠ b); a static side has index −1 and zero entries.
struct JacobianRow {
  int a = -1, b = -1;              ///< dynamic-body numbers (6 velocity coordinates each)
  Vec6 ja = Vec6::Zero();          ///< the row's entries on A: (d, r_A × d)
  Vec6 jb = Vec6::Zero();          ///< on B: −(d, r_B × d)
  Vec6 ma = Vec6::Zero();          ///< M_A⁻¹ jaᵀ: A's velocity change per unit impulse
  Vec6 mb = Vec6::Zero();          ///< M_B⁻¹ jbᵀ
  double bias = 0.0;               ///< ψ/Δt term (normal rows), 0 on tangent rows
};

/// Rows numbered as in ContactLcp (ContactRows indexes into `rows`);
/// v_star holds v + Δt M⁻¹ f_ext, 6 per dynamic body (linear, angular).
struct BodySpaceProblem {
  std::vector<ContactRows> contacts;
  std::vector<JacobianRow> rows;
  Eigen::VectorXd v_star;
  /// Order in which PGS visits the contacts (indices into `contacts`);
  /// empty means 0, 1, 2, …
  std::vector<int> order;
  /// PEG groups (lcp.hpp) in the order of their contacts; their aux rows
  /// come after every contact's rows.
  std::vector<MaxGroup> groups;
};

/// True when every entry of v is finite: Σ v·0 is NaN as soon as one is
/// not (Transform::is_finite's test), a vectorized sum where Eigen's
/// allFinite compares entry by entry; solvers check their vectors every step.
inline bool all_finite(const Eigen::VectorXd& v) { return (v.array() * 0.0).sum() == 0.0; }

/// u = J v + bias for row r.
inline double row_velocity(const JacobianRow& r, const Eigen::VectorXd& v) {
  double u = r.bias;
  if (r.a >= 0) u += r.ja.dot(v.segment<6>(6 * r.a));
  if (r.b >= 0) u += r.jb.dot(v.segment<6>(6 * r.b));
  return u;
}

/// (J M⁻¹ Jᵀ)ᵢⱼ from the two rows' factors.
inline double delassus(const JacobianRow& i, const JacobianRow& j) {
  double w = 0.0;
  if (i.a >= 0 && i.a == j.a) w += i.ja.dot(j.ma);
  if (i.a >= 0 && i.a == j.b) w += i.ja.dot(j.mb);
  if (i.b >= 0 && i.b == j.a) w += i.jb.dot(j.ma);
  if (i.b >= 0 && i.b == j.b) w += i.jb.dot(j.mb);
  return w;
}

/// The dense ContactLcp (W, b) of `p`, for Lemke and for tests.
void to_contact_lcp(const BodySpaceProblem& p, ContactLcp& out);

/// v = v* + M⁻¹ Jᵀ x.
Eigen::VectorXd velocities_after(const BodySpaceProblem& p, const Eigen::VectorXd& x);

/// Projected Gauss–Seidel of solve_pgs (same blocks, same projections, the
/// contacts visited in p.order), with u computed from the body velocities
/// instead of a dense W, and options.pgs_regularization on the normal rows.
/// `v` receives the velocities after the impulses. Stops when the
/// velocities meet eq. (1) within options.pgs_velocity_tolerance (m/s) —
/// the quantity that moves bodies — or after options.pgs_max_iterations
/// sweeps (status max_iterations, impulses usable).
ContactSolution solve_pgs_bodies(const BodySpaceProblem& p, const ContactSolveOptions& options,
                                 const Eigen::VectorXd& warm, Eigen::VectorXd& v);

/// Working memory of solve_pgs_bodies, owned by the caller (a World keeps
/// one) so that a time-stepping loop allocates nothing per solve once the
/// buffers have grown to its largest problem. It carries no state from one
/// solve to the next; a copy starts empty.
class PgsWorkspace {
 public:
  PgsWorkspace();
  ~PgsWorkspace();
  PgsWorkspace(const PgsWorkspace&);
  PgsWorkspace& operator=(const PgsWorkspace&);
  PgsWorkspace(PgsWorkspace&&) noexcept;
  PgsWorkspace& operator=(PgsWorkspace&&) noexcept;

  struct Buffers;
  Buffers& buffers();  ///< made on first use (also after a move)

 private:
  std::unique_ptr<Buffers> buffers_;
};

struct PgsResult {
  LcpStatus status = LcpStatus::ok;
  int iterations = 0;  ///< sweeps
};

/// The same solve in place: `x` holds the warm start on entry (used when it
/// has one finite entry per row, else the solve starts from zero) and the
/// impulses on return, always finite. Results equal the allocating form's.
PgsResult solve_pgs_bodies(const BodySpaceProblem& p, const ContactSolveOptions& options, Eigen::VectorXd& x,
                           Eigen::VectorXd& v, PgsWorkspace& workspace);

/// Projected Gauss–Seidel for a problem with PEG groups (peg_pgs.cpp):
/// contact by contact as solve_pgs_bodies without compliance or
/// over-relaxation, where a grouped contact's normal row is projected on the
/// max constraint: its impulse (along the active facet) moves by
/// −g / W_aa, g = u_a + max(0, max_j d_j) the max-ψ velocity of its group,
/// then is kept ≥ 0. `vel` is scratch (one 6-vector per dynamic body + 1).
PgsResult solve_pgs_max(const BodySpaceProblem& p, const ContactSolveOptions& options, Eigen::VectorXd& x,
                        Eigen::VectorXd& v, std::vector<Vec6>& vel);

}  // namespace proxima::sim
