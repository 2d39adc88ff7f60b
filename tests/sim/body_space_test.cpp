// SPDX-License-Identifier: BSD-3-Clause
// The body-space contact problem (body_space.hpp) against dense oracles:
// W from an explicitly assembled J M⁻¹ Jᵀ, PGS velocities against Lemke's,
// and the regularized complementarity conditions checked row by row.
#include <limits>

#include <gtest/gtest.h>

#include <Eigen/Dense>

#include <proxima/sim/body_space.hpp>

#include "../support/random.hpp"
#include "../support/test_shapes.hpp"

namespace proxima {
namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;

// Random bodies and contacts, with the dense J and M⁻¹ kept beside the
// sparse rows as the oracle.
struct RandomProblem {
  sim::BodySpaceProblem p;
  MatrixXd J, Minv;
};

RandomProblem random_problem(testing::Rng& rng, int bodies, int contacts, bool friction) {
  RandomProblem r;
  const int n = 6 * bodies;
  r.Minv = MatrixXd::Zero(n, n);
  std::vector<Vec3> com(static_cast<std::size_t>(bodies));
  for (int b = 0; b < bodies; ++b) {
    r.Minv.block<3, 3>(6 * b, 6 * b) = Mat3::Identity() / rng.uniform(0.5, 2.0);
    Mat3 A = Mat3::Random();
    r.Minv.block<3, 3>(6 * b + 3, 6 * b + 3) = (A * A.transpose() + 0.2 * Mat3::Identity()).inverse();
    com[static_cast<std::size_t>(b)] = rng.uniform_vec(-1, 1);
  }
  r.p.v_star = VectorXd(n);
  for (int i = 0; i < n; ++i) r.p.v_star[i] = rng.uniform(-1, 1);
  std::vector<VectorXd> jrows;
  for (int k = 0; k < contacts; ++k) {
    // Body A dynamic, B dynamic or static (−1).
    const int a = k % bodies;
    const int b = rng.uniform(0, 1) < 0.4 ? -1 : (a + 1 + k / bodies) % bodies;
    const Vec3 point = rng.uniform_vec(-1, 1);
    const Vec3 normal = rng.unit_vector();
    const Vec3 t1 = normal.unitOrthogonal(), t2 = normal.cross(t1);
    sim::ContactRows c;
    c.normal = static_cast<int>(r.p.rows.size());
    c.mu = friction ? rng.uniform(0.1, 1.0) : 0.0;
    if (friction) c.tangent = c.normal + 1;
    r.p.contacts.push_back(c);
    for (const Vec3& d : friction ? std::vector<Vec3>{normal, t1, t2} : std::vector<Vec3>{normal}) {
      sim::JacobianRow row;
      VectorXd dense = VectorXd::Zero(n);
      row.a = a;
      row.ja << d, (point - com[static_cast<std::size_t>(a)]).cross(d);
      dense.segment<6>(6 * a) += row.ja;
      row.ma = r.Minv.block<6, 6>(6 * a, 6 * a) * row.ja;
      if (b >= 0 && b != a) {
        row.b = b;
        row.jb << -d, -(point - com[static_cast<std::size_t>(b)]).cross(d);
        dense.segment<6>(6 * b) += row.jb;
        row.mb = r.Minv.block<6, 6>(6 * b, 6 * b) * row.jb;
      }
      r.p.rows.push_back(row);
      jrows.push_back(dense);
    }
    r.p.rows[static_cast<std::size_t>(c.normal)].bias = rng.uniform(-0.5, 0.5);
  }
  r.J = MatrixXd(static_cast<Eigen::Index>(jrows.size()), n);
  for (std::size_t i = 0; i < jrows.size(); ++i) r.J.row(static_cast<Eigen::Index>(i)) = jrows[i].transpose();
  return r;
}

TEST(BodySpace, DenseFormMatchesAssembledDelassus) {
  testing::Rng rng(21);
  for (int k = 0; k < testing::scaled(100); ++k) {
    const RandomProblem r = random_problem(rng, 1 + k % 4, 1 + k % 7, k % 2 == 0);
    sim::ContactLcp lcp;
    sim::to_contact_lcp(r.p, lcp);
    const MatrixXd W = r.J * r.Minv * r.J.transpose();
    VectorXd b = r.J * r.p.v_star;
    for (std::size_t i = 0; i < r.p.rows.size(); ++i) b[static_cast<Eigen::Index>(i)] += r.p.rows[i].bias;
    EXPECT_LE((lcp.W - W).cwiseAbs().maxCoeff(), 1e-12) << "case " << k;
    EXPECT_LE((lcp.b - b).cwiseAbs().maxCoeff(), 1e-12) << "case " << k;
    VectorXd x(W.rows());
    for (Eigen::Index i = 0; i < x.size(); ++i) x[i] = rng.uniform(0, 1);
    EXPECT_LE((sim::velocities_after(r.p, x) - (r.p.v_star + r.Minv * r.J.transpose() * x)).cwiseAbs().maxCoeff(),
              1e-12);
  }
}

// Frictionless: v⁺ minimizes ½(v − v*)ᵀM(v − v*) over the contact
// half-spaces, so it is unique even when the impulses are not; PGS without
// compliance must land on Lemke's velocities.
TEST(BodySpace, PgsVelocitiesMatchLemkeWithoutFriction) {
  testing::Rng rng(22);
  int compared = 0;
  const int cases = testing::scaled(100);
  for (int k = 0; k < cases; ++k) {
    const RandomProblem r = random_problem(rng, 1 + k % 3, 1 + k % 6, false);
    sim::ContactLcp lcp;
    sim::to_contact_lcp(r.p, lcp);
    sim::ContactSolveOptions o;
    o.pgs_regularization = 0.0;
    o.pgs_velocity_tolerance = 1e-11;
    o.pgs_max_iterations = 200000;
    o.lemke.residual_tolerance = 1e-7;
    const sim::ContactSolution le = sim::solve_lemke(lcp, o);
    if (le.status != sim::LcpStatus::ok) continue;  // rank-deficient cases Lemke rejects
    ++compared;
    VectorXd v;
    const sim::ContactSolution pg = sim::solve_pgs_bodies(r.p, o, VectorXd(), v);
    EXPECT_EQ(pg.status, sim::LcpStatus::ok) << "case " << k;
    EXPECT_LE((v - sim::velocities_after(r.p, le.x)).cwiseAbs().maxCoeff(), 1e-6) << "case " << k;
  }
  EXPECT_GE(compared, cases * 3 / 4);
  std::printf("  compared %d of %d\n", compared, cases);
}

// The compliance term of each normal row as pgs_bodies.cpp defines it,
// rebuilt here: ε = α W_nn; 0.3 ε c on every row, plus D^½ P D^½ c on a
// run of k ≥ 4 (≤ 16) consecutive contacts between the same two bodies,
// P the projector onto the impulses the run's normal rows turn into no net
// force or moment (here from Eigen's pseudo-inverse).
VectorXd compliance_terms(const RandomProblem& r, const VectorXd& x, double alpha) {
  VectorXd term = VectorXd::Zero(x.size());
  const std::vector<sim::ContactRows>& cs = r.p.contacts;
  const auto eps = [&](int row) { return alpha * (r.J.row(row) * r.Minv * r.J.row(row).transpose())(0, 0); };
  for (std::size_t i = 0; i < cs.size();) {
    const sim::JacobianRow& first = r.p.rows[static_cast<std::size_t>(cs[i].normal)];
    std::size_t end = i + 1;
    while (end < cs.size() && r.p.rows[static_cast<std::size_t>(cs[end].normal)].a == first.a &&
           r.p.rows[static_cast<std::size_t>(cs[end].normal)].b == first.b)
      ++end;
    const Eigen::Index k = static_cast<Eigen::Index>(end - i);
    MatrixXd C = MatrixXd::Zero(k, k);
    for (Eigen::Index q = 0; q < k; ++q) C(q, q) = 0.3 * eps(cs[i + static_cast<std::size_t>(q)].normal);
    if (k >= 4 && k <= 16) {
      MatrixXd A(k, 6);
      for (Eigen::Index q = 0; q < k; ++q) {
        const sim::JacobianRow& row = r.p.rows[static_cast<std::size_t>(cs[i + static_cast<std::size_t>(q)].normal)];
        A.row(q) = (row.a >= 0 ? row.ja : row.jb).transpose();
      }
      Eigen::CompleteOrthogonalDecomposition<MatrixXd> cod(A);
      if (cod.rank() < k) {
        const MatrixXd P = MatrixXd::Identity(k, k) - A * cod.pseudoInverse();
        for (Eigen::Index q = 0; q < k; ++q)
          for (Eigen::Index t = 0; t < k; ++t)
            C(q, t) += std::sqrt(eps(cs[i + static_cast<std::size_t>(q)].normal) *
                                 eps(cs[i + static_cast<std::size_t>(t)].normal)) * P(q, t);
      }
    }
    for (Eigen::Index q = 0; q < k; ++q)
      for (Eigen::Index t = 0; t < k; ++t)
        term[cs[i + static_cast<std::size_t>(q)].normal] += C(q, t) * x[cs[i + static_cast<std::size_t>(t)].normal];
    i = end;
  }
  return term;
}

// With compliance (compliance_terms) and friction: every normal row meets
// u + (C c) ≥ 0 ⊥ c ≥ 0 and every contact strictly inside its polygon
// sticks, within the stopping tolerance, with plain and over-relaxed
// sweeps.
TEST(BodySpace, RegularizedPgsMeetsItsConditions) {
  testing::Rng rng(23);
  for (int k = 0; k < testing::scaled(100); ++k) {
    RandomProblem r = random_problem(rng, 1 + k % 3, 1 + k % 6, true);
    sim::ContactSolveOptions o;
    o.pgs_regularization = 0.05;
    o.pgs_velocity_tolerance = 1e-9;
    o.pgs_max_iterations = 100000;
    o.friction_directions = 4 + k % 5;
    // Over-relaxed pair blocks on every other case: the same conditions.
    o.pgs_over_relaxation = k % 2 ? 1.5 : 1.0;
    VectorXd v;
    const sim::ContactSolution pg = sim::solve_pgs_bodies(r.p, o, VectorXd(), v);
    ASSERT_EQ(pg.status, sim::LcpStatus::ok) << "case " << k;
    const VectorXd u = r.J * v + [&] {
      VectorXd bias(r.J.rows());
      for (std::size_t i = 0; i < r.p.rows.size(); ++i) bias[static_cast<Eigen::Index>(i)] = r.p.rows[i].bias;
      return bias;
    }();
    const double apothem = std::cos(3.14159265358979 / o.friction_directions);
    const VectorXd term = compliance_terms(r, pg.x, 0.05);
    for (const sim::ContactRows& c : r.p.contacts) {
      const double cn = pg.x[c.normal];
      const double un = u[c.normal] + term[c.normal];
      EXPECT_GE(cn, 0.0);
      EXPECT_GE(un, -1e-8) << "case " << k;
      EXPECT_LE(std::abs(cn * un), 1e-8 * (1 + cn)) << "case " << k;
      const Eigen::Vector2d f(pg.x[c.tangent], pg.x[c.tangent + 1]);
      EXPECT_LE(f.norm(), c.mu * cn * (1 + 1e-12) + 1e-15) << "case " << k;
      if (f.norm() < 0.99 * apothem * c.mu * cn) {
        EXPECT_LE(std::abs(u[c.tangent]) + std::abs(u[c.tangent + 1]), 1e-7) << "case " << k;
      }
    }
  }
}

// The in-place solve with a reused workspace gives the allocating form's
// impulses and velocities bit for bit, whatever the previous problem was
// (sizes growing and shrinking, with and without friction and blocks), and
// a copied or moved-from workspace is just as good.
TEST(BodySpace, ReusedWorkspaceMatchesFreshSolves) {
  testing::Rng rng(24);
  sim::PgsWorkspace workspace;
  for (int k = 0; k < testing::scaled(60); ++k) {
    const RandomProblem r = random_problem(rng, 1 + k % 4, 1 + (k * 7) % 9, k % 3 != 0);
    sim::ContactSolveOptions o;
    o.pgs_over_relaxation = k % 2 ? 1.5 : 1.0;
    o.friction_directions = 4 + k % 3;
    // Every third case starts warm from a vector of the right size.
    const VectorXd warm = k % 3 == 1 ? VectorXd::Constant(static_cast<Eigen::Index>(r.p.rows.size()), 0.01) : VectorXd();
    VectorXd v_fresh;
    const sim::ContactSolution fresh = sim::solve_pgs_bodies(r.p, o, warm, v_fresh);
    sim::PgsWorkspace copy = workspace;
    sim::PgsWorkspace& used = k % 5 == 4 ? copy : workspace;
    VectorXd x = warm, v = VectorXd::Constant(3, 7.0);
    const sim::PgsResult res = sim::solve_pgs_bodies(r.p, o, x, v, used);
    EXPECT_EQ(res.status, fresh.status) << "case " << k;
    EXPECT_EQ(res.iterations, fresh.iterations) << "case " << k;
    ASSERT_EQ(x.size(), fresh.x.size());
    ASSERT_EQ(v.size(), v_fresh.size());
    EXPECT_TRUE((x.array() == fresh.x.array()).all()) << "case " << k;
    EXPECT_TRUE((v.array() == v_fresh.array()).all()) << "case " << k;
  }
  // A warm start of the wrong size or with a NaN is ignored, not read.
  const RandomProblem r = random_problem(rng, 2, 4, true);
  sim::ContactSolveOptions o;
  VectorXd v_cold;
  const sim::ContactSolution cold = sim::solve_pgs_bodies(r.p, o, VectorXd(), v_cold);
  for (VectorXd x : {VectorXd(VectorXd::Ones(3)), VectorXd(VectorXd::Constant(static_cast<Eigen::Index>(r.p.rows.size()),
                                                                               std::numeric_limits<double>::quiet_NaN()))}) {
    VectorXd v;
    sim::PgsWorkspace moved_from;
    const VectorXd bad_warm = x;
    sim::solve_pgs_bodies(r.p, o, x, v, moved_from);
    EXPECT_TRUE((x.array() == cold.x.array()).all());
    EXPECT_TRUE((v.array() == v_cold.array()).all());
    // A moved-from workspace makes new buffers on its next use.
    sim::PgsWorkspace target = std::move(moved_from);
    x = bad_warm;
    sim::solve_pgs_bodies(r.p, o, x, v, moved_from);  // NOLINT(bugprone-use-after-move)
    EXPECT_TRUE((x.array() == cold.x.array()).all());
  }
}

}  // namespace
}  // namespace proxima
