// SPDX-License-Identifier: BSD-3-Clause
// Every solver and world option changes what it says it changes, and every
// status a solve can end with is produced (not only `ok`). Ground truth:
// enumeration of complementary bases, Coulomb's law and the stabilization
// rule written out here.
#include <cmath>
#include <numbers>

#include <gtest/gtest.h>

#include <Eigen/Dense>

#include <proxima/sim/lcp.hpp>
#include <proxima/sim/world.hpp>

#include "../support/lcp_enumeration.hpp"
#include "../support/random.hpp"

namespace proxima {
namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;

// w = M z + q: the largest violation of z ≥ 0, w ≥ 0, z·w = 0.
double violation(const MatrixXd& M, const VectorXd& q, const VectorXd& z) {
  const VectorXd w = M * z + q;
  return std::max({-z.minCoeff(), -w.minCoeff(), z.cwiseProduct(w).cwiseAbs().maxCoeff(), 0.0});
}

MatrixXd p_matrix(testing::Rng& rng, int m) {
  MatrixXd A(m, m), K(m, m);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < m; ++j) {
      A(i, j) = rng.uniform(-1, 1);
      K(i, j) = rng.uniform(-1, 1);
    }
  return A * A.transpose() + 0.1 * MatrixXd::Identity(m, m) + (K - K.transpose());
}

VectorXd negative_q(testing::Rng& rng, int m) {
  VectorXd q(m);
  for (int i = 0; i < m; ++i) q[i] = rng.uniform(-2, -0.1);
  return q;
}

// Identity M, q = −1: the solution z = 1 takes one pivot per row plus the
// artificial variable's entry and exit.
TEST(LemkeOptions, MaxPivotsCapsTheSolveWithAStatus) {
  const int m = 6;
  const MatrixXd M = MatrixXd::Identity(m, m);
  const VectorXd q = VectorXd::Constant(m, -1.0);
  const sim::LcpSolution full = sim::lemke(M, q);
  ASSERT_EQ(full.status, sim::LcpStatus::ok);
  EXPECT_LE((full.z - VectorXd::Ones(m)).norm(), 1e-14);
  EXPECT_GE(full.iterations, m);
  sim::LemkeOptions capped;
  capped.max_pivots = 2;
  const sim::LcpSolution cut = sim::lemke(M, q, capped);
  EXPECT_EQ(cut.status, sim::LcpStatus::max_iterations);
  EXPECT_EQ(cut.iterations, 2);
  ASSERT_EQ(cut.z.size(), m);
  EXPECT_TRUE(cut.z.allFinite());
}

// A pivot tolerance above 1 makes every column entry "zero": no row can
// leave, and the solve ends on a ray instead of pivoting on noise.
TEST(LemkeOptions, PivotToleranceDecidesWhatCountsAsAPivot) {
  testing::Rng rng(41);
  const MatrixXd M = p_matrix(rng, 5);
  const VectorXd q = negative_q(rng, 5);
  ASSERT_EQ(sim::lemke(M, q).status, sim::LcpStatus::ok);
  sim::LemkeOptions blunt;
  blunt.pivot_tolerance = 2.0;
  const sim::LcpSolution r = sim::lemke(M, q, blunt);
  EXPECT_EQ(r.status, sim::LcpStatus::ray_termination);
  EXPECT_TRUE(r.z.allFinite());
}

// Refactoring after every pivot, every 7 or never: the same complementary
// solution (a P-matrix LCP has exactly one) within rounding.
TEST(LemkeOptions, RefactorEveryKeepsTheSolution) {
  testing::Rng rng(42);
  int solved = 0;
  for (int k = 0; k < 20; ++k) {
    const int m = 12;
    const MatrixXd M = p_matrix(rng, m);
    const VectorXd q = negative_q(rng, m);
    VectorXd first;
    for (int every : {1, 7, 0}) {
      sim::LemkeOptions o;
      o.refactor_every = every;
      const sim::LcpSolution s = sim::lemke(M, q, o);
      ASSERT_EQ(s.status, sim::LcpStatus::ok) << "problem " << k << ", refactor_every " << every;
      EXPECT_LE(violation(M, q, s.z), 1e-9 * (1 + q.cwiseAbs().maxCoeff())) << k << " " << every;
      if (first.size() == 0) first = s.z;
      EXPECT_LE((s.z - first).norm(), 1e-9 * (1 + first.norm())) << k << " " << every;
      ++solved;
    }
  }
  EXPECT_EQ(solved, 60);
}

// A residual tolerance of 0 accepts only an exact solution; rounding in the
// pivots leaves some, so the answer is `inaccurate`, with finite (zero) z.
TEST(LemkeOptions, ResidualToleranceZeroGivesInaccurate) {
  testing::Rng rng(43);
  int inaccurate = 0;
  const int problems = 10;
  for (int k = 0; k < problems; ++k) {
    const MatrixXd M = p_matrix(rng, 10);
    const VectorXd q = negative_q(rng, 10);
    ASSERT_EQ(sim::lemke(M, q).status, sim::LcpStatus::ok);
    sim::LemkeOptions exact;
    exact.residual_tolerance = 0.0;
    const sim::LcpSolution s = sim::lemke(M, q, exact);
    if (s.status == sim::LcpStatus::inaccurate) ++inaccurate;
    else EXPECT_EQ(s.status, sim::LcpStatus::ok);
    EXPECT_TRUE(s.z.allFinite());
  }
  EXPECT_GE(inaccurate, problems / 2);
}

TEST(LemkeOptions, NonFiniteDataIsInvalidInput) {
  MatrixXd M = MatrixXd::Identity(2, 2);
  M(0, 1) = std::nan("");
  const sim::LcpSolution s = sim::lemke(M, VectorXd::Constant(2, -1.0));
  EXPECT_EQ(s.status, sim::LcpStatus::invalid_input);
  EXPECT_TRUE(s.z.allFinite());
  EXPECT_EQ(sim::lemke(MatrixXd::Identity(3, 3), VectorXd::Constant(2, -1.0)).status,
            sim::LcpStatus::invalid_input);
}

// One contact, W = I: approaching at 1 m/s and slipping at 2 m/s along t₁
// with μ = 0.5. Coulomb: the normal impulse stops the approach (c_n = 1),
// friction is at its bound against the slip (−0.5 along t₁), which cannot
// stop it. Every solution of the polyhedral LCP, found by enumeration,
// maps to that impulse.
TEST(PolyhedralLcp, EverySolutionIsCoulombsImpulse) {
  sim::ContactLcp p;
  p.W = MatrixXd::Identity(3, 3);
  p.b = Eigen::Vector3d(-1.0, 2.0, 0.0);
  p.contacts = {sim::ContactRows{0, 1, 0.5}};
  MatrixXd M, S;
  VectorXd q;
  sim::polyhedral_lcp(p, 4, M, q, S);
  ASSERT_EQ(M.rows(), 6);  // c_n, β₁…β₄, λ
  ASSERT_EQ(S.rows(), 3);
  ASSERT_EQ(S.cols(), 5);
  int solutions = 0;
  for (const VectorXd& z : testing::enumerate_lcp(M, q, 1e-12)) {
    if (violation(M, q, z) > 1e-12) continue;
    const VectorXd x = S * z.head(S.cols());
    EXPECT_NEAR(x[0], 1.0, 1e-12);
    EXPECT_NEAR(x[1], -0.5, 1e-12);
    EXPECT_NEAR(x[2], 0.0, 1e-12);
    ++solutions;
  }
  EXPECT_GE(solutions, 1);
  sim::ContactSolveOptions o;
  const sim::ContactSolution lem = sim::solve_lemke(p, o);
  ASSERT_EQ(lem.status, sim::LcpStatus::ok);
  EXPECT_LE((lem.x - Eigen::Vector3d(1.0, -0.5, 0.0)).norm(), 1e-12);
}

sim::World box_on_floor(double height) {
  sim::World w;
  w.add(sim::make_body("floor", Halfspace(Vec3::UnitZ(), 0.0), 0.0, Transform::identity(), true));
  w.add(sim::make_body("box", Box(0.2, 0.2, 0.2), 500.0, Transform::from_translation(Vec3(0, 0, 0.1 + height))));
  return w;
}

// Lemke capped at one pivot fails every step; PGS takes over, the step says
// so, and the box still rests.
TEST(WorldOptions, LemkeFailureFallsBackToPgs) {
  sim::World w = box_on_floor(0.0);
  w.options.solve.lemke.max_pivots = 1;
  const int steps = 300;
  int fallbacks = 0;
  for (int i = 0; i < steps; ++i) {
    const sim::StepStats& s = w.step();
    if (s.contacts == 0) continue;
    EXPECT_EQ(s.lemke_status, sim::LcpStatus::max_iterations) << i;
    EXPECT_EQ(s.status, sim::LcpStatus::ok) << i;
    fallbacks += s.fallbacks;
  }
  EXPECT_EQ(fallbacks, steps);
  EXPECT_NEAR(w.bodies()[1].pose.p.z(), 0.1, 1e-4);
}

// A pair within contact_margin is in the LCP the step before it touches
// (with its gap in ψ, so nothing stops it early); outside it is not.
TEST(WorldOptions, ContactMarginDecidesWhenAGapIsAContact) {
  for (const double margin : {0.0, 0.02}) {
    sim::World w = box_on_floor(0.01);  // 1 cm gap
    w.options.contact_margin = margin;
    const sim::StepStats& s = w.step();
    EXPECT_EQ(s.contacts, margin > 0.01 ? 4 : 0) << margin;
    // Falling freely for one step either way: the gap is not closed.
    EXPECT_NEAR(w.bodies()[1].linear_velocity.z(), -9.81 * w.options.dt, 1e-9) << margin;
  }
}

// Stabilization γ: a box resting 1 mm deep is pushed out by γ × 1 mm in one
// step (n·v⁺ = γ ψ / Δt on the penetrating rows, then x⁺ = x + Δt v⁺).
TEST(WorldOptions, StabilizationRemovesItsShareOfThePenetration) {
  int checked = 0;
  for (const double gamma : {0.0, 0.2, 1.0}) {
    sim::World w = box_on_floor(-0.001);
    w.options.stabilization = gamma;
    w.step();
    const double rise = w.bodies()[1].pose.p.z() - (0.1 - 0.001);
    EXPECT_NEAR(rise, gamma * 0.001, 1e-9) << "gamma " << gamma;
    ++checked;
  }
  EXPECT_EQ(checked, 3);
}

// Sliding basis: above sliding_speed the friction polygon is turned so one
// edge opposes the slip; below it (here: a threshold above the slip) the
// fixed basis is kept and a slip between two polygon directions is resisted
// off its line.
TEST(WorldOptions, SlidingSpeedDecidesWhenTheConeTurns) {
  const double angle = 0.5;  // rad from the fixed basis' first direction
  const Vec3 slip_dir(std::cos(angle), std::sin(angle), 0.0);
  double off_line[2] = {0, 0};
  for (int k = 0; k < 2; ++k) {
    sim::World w = box_on_floor(0.0);
    w.options.friction_basis = sim::FrictionBasis::sliding;
    w.options.sliding_speed = k == 0 ? 1e-4 : 100.0;
    w.friction.set(0, 1, 0.5);
    w.bodies()[1].linear_velocity = 1.0 * slip_dir;
    w.step();
    Vec3 f = Vec3::Zero();
    for (const sim::ContactImpulse& c : w.last_contacts()) f += c.body_a == 1 ? c.friction_impulse : -c.friction_impulse;
    ASSERT_GT(f.norm(), 0.0);
    off_line[k] = (f.normalized() + slip_dir).norm();  // 0 when exactly opposed
  }
  EXPECT_LE(off_line[0], 1e-9);
  EXPECT_GE(off_line[1], 1e-2);
}

// Fat boxes: two free boxes 5 cm apart are a broadphase candidate pair only
// when their fat boxes (grown by fattening × half extent + margin) overlap;
// either way there is no contact.
TEST(WorldOptions, FatteningGrowsTheBroadphaseBoxes) {
  int pairs[2] = {-1, -1};
  for (int k = 0; k < 2; ++k) {
    sim::World w;
    w.gravity = Vec3::Zero();
    w.options.contact_margin = 0.001;
    w.options.fattening = k == 0 ? 0.0 : 1.0;
    w.add(sim::make_body("a", Box(0.2, 0.2, 0.2), 500.0, Transform::identity()));
    w.add(sim::make_body("b", Box(0.2, 0.2, 0.2), 500.0, Transform::from_translation(Vec3(0.25, 0, 0))));
    const sim::StepStats& s = w.step();
    pairs[k] = s.pairs;
    EXPECT_EQ(s.contacts, 0);
  }
  EXPECT_EQ(pairs[0], 0);
  EXPECT_EQ(pairs[1], 1);
}

}  // namespace
}  // namespace proxima
