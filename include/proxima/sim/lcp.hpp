// SPDX-License-Identifier: BSD-3-Clause
// Linear complementarity problems and the two contact solvers.
//
// LCP(M, q): find z ≥ 0 with w = M z + q ≥ 0 and zᵀw = 0.
#pragma once

#include <vector>

#include <Eigen/Core>

namespace proxima::sim {

enum class LcpStatus {
  ok,              ///< solved; residuals within tolerance
  max_iterations,  ///< pivot or sweep cap reached
  ray_termination, ///< Lemke ended on a secondary ray (no solution found)
  inaccurate,      ///< finished but the solution's residual is too large
  invalid_input,   ///< non-finite data
};
const char* to_string(LcpStatus s);

struct LemkeOptions {
  /// Pivot cap; 0 means max(100, 20 m).
  int max_pivots = 0;
  /// A column entry counts as a pivot candidate above this, relative to the
  /// largest |entry| of the column (below it the entry is treated as zero).
  double pivot_tolerance = 1e-11;
  /// Every this many pivots the basis inverse is recomputed from the basis
  /// columns (LU with partial pivoting) to stop rounding from accumulating
  /// in the product-form updates.
  int refactor_every = 64;
  /// Accept when min z, min w ≥ −tol·s and |zᵢwᵢ| ≤ tol·s², s = 1 + max|q|.
  double residual_tolerance = 1e-9;
};

struct LcpSolution {
  LcpStatus status = LcpStatus::ok;
  Eigen::VectorXd z;  ///< always finite (zeros when the solve failed)
  int iterations = 0; ///< pivots
};

/// Lemke's complementary pivoting method with covering vector e = 1
/// (Cottle, Pang & Stone, The Linear Complementarity Problem, §4.4).
/// Degenerate ties in the minimum-ratio test are broken lexicographically
/// (rows of B⁻¹ divided by the pivot column entry, smallest first; the
/// artificial variable z₀ leaves whenever it ties), which rules out cycling.
/// Processes P-matrices and copositive-plus matrices such as the contact
/// LCP of eq. (1) of Contact data for convex polyhedra; for others it may end on a ray (a status).
LcpSolution lemke(const Eigen::MatrixXd& M, const Eigen::VectorXd& q, const LemkeOptions& options = {});

/// The contact problem in "contact space": for every contact a normal row
/// and, when it has friction, two orthonormal tangent rows. With x the
/// impulses on those rows, the post-step relative velocities are
/// u = W x + b (W = J M⁻¹ Jᵀ, the Delassus matrix; b holds J v* and the
/// ψ/Δt stabilization on normal rows).
struct ContactRows {
  int normal = 0;    ///< row of the normal impulse
  int tangent = -1;  ///< first of two tangent rows, −1 when frictionless
  double mu = 0.0;
};
/// A Polyhedral Exact Geometry group (Flickinger, Williams & Trinkle, eqs. 14–17):
/// the facets bounding one convex piece of an obstacle, seen from one vertex.
/// Contact `contact`'s normal row is the group's active facet a, the only one
/// that pushes; the other facets are the rows [first, first + count) of W and
/// b, which carry no impulse. With u_a the active row's velocity and
/// d_j = (J_j − J_a) v + (ψ_j − ψ_a)/Δt (the aux rows' bias is (ψ_j − ψ_a)/Δt,
/// `active_bias` the active row's), the slack c_j ≥ 0 of facet j obeys
///   0 ≤ c_j + Σ_{i<j} c_i − d_j ⊥ c_j ≥ 0   (lower-triangular E₂ of ones)
/// so that u_a + Σ c_j = max(u_a, u_a + d_1, …): the max-ψ velocity, which is
/// what the active impulse is complementary to (E₁ of ones).
struct MaxGroup {
  int contact = 0;
  int first = 0;
  int count = 0;
  double active_bias = 0.0;
};

struct ContactLcp {
  Eigen::MatrixXd W;
  Eigen::VectorXd b;
  std::vector<ContactRows> contacts;
  /// PEG groups (empty for Stewart–Trinkle): their aux rows follow the
  /// contacts' rows in W and b.
  std::vector<MaxGroup> groups;
};

/// Friction cone of eq. (1) of Contact data for convex polyhedra: tangential impulse Σⱼ βⱼ dⱼ with
/// βⱼ ≥ 0, Σ βⱼ ≤ μ c_n, dⱼ = cos(2πj/q) t₁ + sin(2πj/q) t₂ (q ≥ 3).
struct ContactSolveOptions {
  int friction_directions = 4;
  LemkeOptions lemke;
  int pgs_max_iterations = 200;
  /// PGS stops when no impulse changed by more than this times the largest.
  double pgs_tolerance = 1e-9;
  /// Body-space PGS (solve_pgs_bodies) stops when the velocities violate
  /// no contact condition by more than this, m/s (1e-6 m/s leaves at most
  /// 1 nm of motion per 1 ms step).
  double pgs_velocity_tolerance = 1e-6;
  /// Body-space PGS: compliance of the normal rows relative to W_nn, on
  /// the self-equilibrated load patterns of each body pair's contacts; 0.3
  /// of it on every normal row (pgs_bodies.cpp says why). 0 is the exact
  /// LCP.
  double pgs_regularization = 1e-2;
  /// Body-space PGS: the normal impulses of a body pair solved together
  /// move by this multiple of their block step (successive over-relaxation,
  /// pgs_bodies.cpp says when it pays), then are kept ≥ 0. 1 is plain
  /// Gauss–Seidel; plain sweeps also take over after 50 relaxed ones or
  /// once a sweep's residual exceeds twice the best so far.
  double pgs_over_relaxation = 1.0;
};

struct ContactSolution {
  LcpStatus status = LcpStatus::ok;
  Eigen::VectorXd x;  ///< impulses on the rows of W, always finite
  int iterations = 0;
};

/// Builds the polyhedral-cone LCP of eq. (1) (normal impulses, q friction
/// impulses and one slack λ per frictional contact) and solves it with Lemke.
ContactSolution solve_lemke(const ContactLcp& p, const ContactSolveOptions& options);

/// Projected Gauss–Seidel on the same model, contact by contact: the normal
/// impulse is projected on [0, ∞), then the tangential impulse minimizes the
/// contact's own quadratic exactly over the friction polygon of radius
/// μ c_n — the maximal-dissipation condition of eq. (1). A contact with a
/// PEG group keeps the group's max velocity u_a + max(0, d_1, …) ≥ 0
/// (MaxGroup) complementary to its impulse; aux rows carry none. `warm`
/// (size of b, or empty) is the starting point.
ContactSolution solve_pgs(const ContactLcp& p, const ContactSolveOptions& options,
                          const Eigen::VectorXd& warm);

/// The LCP (M, q) that solve_lemke hands to lemke(), for tests and reports.
/// With PEG groups the slacks c_j follow the force variables and λ's
/// (MaxGroup); `to_contact_space` maps only the force variables.
void polyhedral_lcp(const ContactLcp& p, int friction_directions, Eigen::MatrixXd& M, Eigen::VectorXd& q,
                    Eigen::MatrixXd& to_contact_space);

}  // namespace proxima::sim
