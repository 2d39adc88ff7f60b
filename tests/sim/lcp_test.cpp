// SPDX-License-Identifier: BSD-3-Clause
// Lemke against brute-force enumeration of complementary bases on small
// random LCPs (P-matrices and symmetric PSD matrices), PGS against Lemke.
#include <gtest/gtest.h>

#include <Eigen/Dense>

#include <proxima/sim/lcp.hpp>

#include "../support/lcp_enumeration.hpp"
#include "../support/random.hpp"
#include "../support/test_shapes.hpp"

namespace proxima {
namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;

std::vector<VectorXd> enumerate(const MatrixXd& M, const VectorXd& q) { return testing::enumerate_lcp(M, q); }

// A P-matrix: positive-definite symmetric part plus a skew part (all
// principal minors positive).
MatrixXd random_p_matrix(testing::Rng& rng, int m) {
  MatrixXd A(m, m), K(m, m);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < m; ++j) {
      A(i, j) = rng.uniform(-1, 1);
      K(i, j) = rng.uniform(-1, 1);
    }
  return A * A.transpose() + 0.1 * MatrixXd::Identity(m, m) + (K - K.transpose());
}

// Symmetric PSD of rank < m (singular), with a q that makes the LCP feasible.
void random_psd(testing::Rng& rng, int m, MatrixXd& M, VectorXd& q) {
  const int r = std::max(1, m - 2);
  MatrixXd B(m, r);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < r; ++j) B(i, j) = rng.uniform(-1, 1);
  M = B * B.transpose();
  VectorXd z(m), w(m);
  for (int i = 0; i < m; ++i) {
    const bool zi = rng.uniform(0, 1) < 0.5;
    z[i] = zi ? rng.uniform(0, 2) : 0.0;
    w[i] = zi ? 0.0 : rng.uniform(0, 2);
  }
  q = w - M * z;
}

double residual(const MatrixXd& M, const VectorXd& q, const VectorXd& z) {
  const VectorXd w = M * z + q;
  return std::max({-z.minCoeff(), -w.minCoeff(), z.cwiseProduct(w).cwiseAbs().maxCoeff(), 0.0});
}

TEST(Lemke, PMatricesMatchEnumeration) {
  testing::Rng rng(11);
  const int cases = testing::scaled(400);
  for (int k = 0; k < cases; ++k) {
    const int m = 1 + k % 8;
    const MatrixXd M = random_p_matrix(rng, m);
    VectorXd q(m);
    for (int i = 0; i < m; ++i) q[i] = rng.uniform(-2, 2);
    const std::vector<VectorXd> all = enumerate(M, q);
    ASSERT_EQ(all.size(), 1u) << "a P-matrix LCP has exactly one solution";
    const sim::LcpSolution s = sim::lemke(M, q);
    ASSERT_EQ(s.status, sim::LcpStatus::ok) << "case " << k;
    EXPECT_LE((s.z - all[0]).cwiseAbs().maxCoeff(), 1e-9) << "case " << k;
  }
}

TEST(Lemke, PsdMatricesSolveAndMatchEnumeration) {
  testing::Rng rng(12);
  const int cases = testing::scaled(400);
  for (int k = 0; k < cases; ++k) {
    const int m = 2 + k % 7;
    MatrixXd M;
    VectorXd q;
    random_psd(rng, m, M, q);
    const std::vector<VectorXd> all = enumerate(M, q);
    ASSERT_FALSE(all.empty());
    sim::LemkeOptions lo;
    // Rank-deficient M gives near-singular bases: residuals reach ~1e-7 on a
    // few cases (the default 1e-9 then reports `inaccurate` and the
    // simulator falls back to PGS).
    lo.residual_tolerance = 1e-6;
    const sim::LcpSolution s = sim::lemke(M, q, lo);
    ASSERT_EQ(s.status, sim::LcpStatus::ok) << "case " << k << " m " << m;
    EXPECT_LE(residual(M, q, s.z), 1e-6) << "case " << k << " m " << m;
    // Symmetric PSD: every solution minimizes ½zᵀMz + qᵀz on z ≥ 0, so
    // M z (and the objective) is the same for all of them.
    EXPECT_LE((M * s.z - M * all[0]).cwiseAbs().maxCoeff(), 1e-6) << "case " << k;
  }
}

TEST(Lemke, DegenerateTiesDoNotCycle) {
  // Many equal entries of q: every ratio test ties.
  for (int m = 2; m <= 10; ++m) {
    const MatrixXd M = MatrixXd::Ones(m, m) + MatrixXd::Identity(m, m);
    const VectorXd q = -VectorXd::Ones(m);
    const sim::LcpSolution s = sim::lemke(M, q);
    ASSERT_EQ(s.status, sim::LcpStatus::ok) << m;
    EXPECT_LE(residual(M, q, s.z), 1e-12);
  }
}

TEST(Lemke, InfeasibleIsAStatusNotNaN) {
  // w = −z − 1 can never be ≥ 0 with z ≥ 0.
  const MatrixXd M = -MatrixXd::Identity(2, 2);
  const VectorXd q = -VectorXd::Ones(2);
  const sim::LcpSolution s = sim::lemke(M, q);
  EXPECT_NE(s.status, sim::LcpStatus::ok);
  EXPECT_TRUE(s.z.allFinite());
  MatrixXd bad = MatrixXd::Identity(2, 2);
  bad(0, 0) = std::nan("");
  EXPECT_EQ(sim::lemke(bad, q).status, sim::LcpStatus::invalid_input);
}

// Frictionless contact problems are plain LCPs: PGS must agree with Lemke on
// the symmetric positive-definite ones (where PGS converges).
TEST(Pgs, MatchesLemkeOnSymmetricPositiveDefinite) {
  testing::Rng rng(13);
  const int cases = testing::scaled(300);
  for (int k = 0; k < cases; ++k) {
    const int m = 1 + k % 10;
    MatrixXd A(m, m);
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < m; ++j) A(i, j) = rng.uniform(-1, 1);
    sim::ContactLcp p;
    p.W = A * A.transpose() + 0.5 * MatrixXd::Identity(m, m);
    p.b = VectorXd(m);
    for (int i = 0; i < m; ++i) {
      p.b[i] = rng.uniform(-2, 2);
      p.contacts.push_back({i, -1, 0.0});
    }
    sim::ContactSolveOptions o;
    o.pgs_max_iterations = 20000;
    o.pgs_tolerance = 1e-13;
    const sim::ContactSolution pg = sim::solve_pgs(p, o, VectorXd());
    const sim::ContactSolution le = sim::solve_lemke(p, o);
    ASSERT_EQ(le.status, sim::LcpStatus::ok);
    EXPECT_EQ(pg.status, sim::LcpStatus::ok) << "case " << k;
    EXPECT_LE((pg.x - le.x).cwiseAbs().maxCoeff(), 1e-7) << "case " << k;
  }
}

// With friction: a single contact of a unit point mass, pushed sideways.
// Both solvers must give the maximal-dissipation answer of the q-gon cone.
TEST(Pgs, MatchesLemkeWithFriction) {
  testing::Rng rng(14);
  for (int k = 0; k < testing::scaled(200); ++k) {
    sim::ContactLcp p;
    // Point mass, rows (n, t1, t2): W = I / m.
    const double inv_m = rng.uniform(0.5, 2.0);
    p.W = inv_m * MatrixXd::Identity(3, 3);
    p.b = rng.uniform_vec(Vec3(-2, -2, -2), Vec3(0.5, 2, 2));
    p.contacts.push_back({0, 1, rng.uniform(0.1, 1.0)});
    sim::ContactSolveOptions o;
    o.friction_directions = 3 + k % 6;
    o.pgs_max_iterations = 1000;
    o.pgs_tolerance = 1e-14;
    const sim::ContactSolution le = sim::solve_lemke(p, o);
    const sim::ContactSolution pg = sim::solve_pgs(p, o, VectorXd());
    ASSERT_EQ(le.status, sim::LcpStatus::ok) << k;
    EXPECT_LE((pg.x - le.x).cwiseAbs().maxCoeff(), 1e-8) << "case " << k << "\nlemke " << le.x.transpose()
                                                        << "\npgs " << pg.x.transpose();
  }
}

}  // namespace
}  // namespace proxima
