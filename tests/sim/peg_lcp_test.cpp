// SPDX-License-Identifier: BSD-3-Clause
// The PEG max constraint (lcp.hpp MaxGroup) solved by Lemke (the MLCP with
// the c slacks) and by PGS (solve_pgs_max in body space, solve_pgs in
// contact space), against a brute-force answer:
// one particle, one group of facets whose planes pass near the particle,
// the active facet pushing. The smallest impulse λ ≥ 0 along the active
// normal for which some facet's end-of-step gap ψᵢ/Δt + nᵢ·v(λ) is ≥ 0 is
// found by scanning each facet's own root, not by any solver.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <vector>

#include <proxima/sim/body_space.hpp>

#include "../support/random.hpp"

namespace proxima {
namespace {

using Eigen::VectorXd;

struct Case {
  double mass = 1.0, h = 0.01;
  std::vector<Vec3> normals;  // normals[0] is the active facet
  std::vector<double> psi;
  Vec3 v_star = Vec3::Zero();
};

sim::BodySpaceProblem problem(const Case& c) {
  sim::BodySpaceProblem p;
  p.v_star = VectorXd::Zero(6);
  p.v_star.head<3>() = c.v_star;
  for (std::size_t i = 0; i < c.normals.size(); ++i) {
    sim::JacobianRow r;
    r.a = 0;
    r.ja.head<3>() = c.normals[i];  // lever arm 0: the particle
    r.ma.head<3>() = c.normals[i] / c.mass;
    r.bias = i == 0 ? c.psi[0] / c.h : (c.psi[i] - c.psi[0]) / c.h;
    p.rows.push_back(r);
  }
  p.contacts.push_back({0, -1, 0.0});
  sim::MaxGroup g;
  g.contact = 0;
  g.first = 1;
  g.count = static_cast<int>(c.normals.size()) - 1;
  g.active_bias = c.psi[0] / c.h;
  p.groups.push_back(g);
  return p;
}

// Smallest λ ≥ 0 with max_i (ψᵢ/Δt + nᵢ·(v* + n₀ λ/m)) ≥ 0: each gap is
// linear in λ, so the answer is 0 or the first root of a rising one.
double brute_force(const Case& c) {
  double best = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < c.normals.size(); ++i) {
    const double u0 = c.psi[i] / c.h + c.normals[i].dot(c.v_star);
    const double slope = c.normals[i].dot(c.normals[0]) / c.mass;
    if (u0 >= 0.0) return 0.0;
    if (slope > 0.0) best = std::min(best, -u0 / slope);
  }
  return best;
}

TEST(PegLcp, LemkeAndPgsFindTheSmallestPushThatSatisfiesTheMax) {
  testing::Rng rng(2024);
  int lemke_ok = 0, pgs_checked = 0, cases = 0, most_sweeps = 0;
  for (int trial = 0; trial < 400; ++trial) {
    Case c;
    c.mass = rng.uniform(0.5, 5.0);
    const int m = 2 + trial % 3;
    // Facets of a convex corner: outward normals within 80° of the active
    // one, which the particle approaches.
    c.normals.push_back(rng.uniform_vec(-1, 1).normalized());
    for (int i = 1; i < m; ++i) {
      Vec3 n;
      do n = rng.uniform_vec(-1, 1).normalized();
      while (n.dot(c.normals[0]) < std::cos(80.0 * std::numbers::pi / 180.0));
      c.normals.push_back(n);
    }
    c.psi.push_back(rng.uniform(0.0, 0.01));
    for (int i = 1; i < m; ++i) c.psi.push_back(rng.uniform(0.0, 0.02));
    c.v_star = -rng.uniform(0.5, 3.0) * c.normals[0] + 0.5 * rng.uniform_vec(-1, 1);
    const double expected = brute_force(c);
    ASSERT_TRUE(std::isfinite(expected));
    sim::BodySpaceProblem p = problem(c);
    sim::ContactLcp lcp;
    sim::to_contact_lcp(p, lcp);
    const sim::ContactSolution s = sim::solve_lemke(lcp, sim::ContactSolveOptions{});
    ++cases;
    if (s.status == sim::LcpStatus::ok) {
      // The MLCP's answer is the max constraint's: λ pushes only until the
      // largest gap reaches zero.
      EXPECT_NEAR(s.x[0], expected, 1e-8 * (1.0 + expected)) << trial;
      for (int i = 1; i < m; ++i) EXPECT_EQ(s.x[i], 0.0) << trial;  // aux rows carry no impulse
      ++lemke_ok;
    }
    VectorXd x, v;
    std::vector<sim::Vec6> scratch;
    sim::ContactSolveOptions o;
    o.pgs_max_iterations = 100;
    const sim::PgsResult r = sim::solve_pgs_max(p, o, x, v, scratch);
    EXPECT_EQ(r.status, sim::LcpStatus::ok) << trial;
    // PGS stops once the group's max-gap velocity is within 1e-6 m/s of
    // complementarity; when the max sits on a facet at up to 80° from the
    // active one, its projected Newton steps approach λ* linearly, so the
    // impulse is checked to 1e-4 and the velocity condition to 1e-5 m/s.
    EXPECT_NEAR(x[0], expected, 1e-4 * (1.0 + expected)) << trial;
    double gap = -std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < c.normals.size(); ++i) gap = std::max(gap, c.psi[i] / c.h + c.normals[i].dot(v.head<3>()));
    EXPECT_GE(gap, -1e-5) << trial;
    if (x[0] > 0.0) {
      EXPECT_LE(gap, 1e-5) << trial;
    }
    // The velocities are v* + n₀ λ / m.
    EXPECT_LT((v.head<3>() - (c.v_star + c.normals[0] * x[0] / c.mass)).norm(), 1e-12 * (1.0 + x[0])) << trial;
    // PGS on the contact-space problem (robot::RobotWorld's): the same
    // max, from W and b. It stops when an impulse changes by less than
    // 1e-9 of the largest, so λ to 1e-6; with the max on a facet at 80°
    // its steps shrink by 1 − cos 80° each (101 sweeps at most here).
    sim::ContactSolveOptions od;
    od.pgs_max_iterations = 400;
    const sim::ContactSolution dense = sim::solve_pgs(lcp, od, VectorXd());
    most_sweeps = std::max(most_sweeps, dense.iterations);
    EXPECT_EQ(dense.status, sim::LcpStatus::ok) << trial;
    EXPECT_NEAR(dense.x[0], expected, 1e-6 * (1.0 + expected)) << trial;
    for (int i = 1; i < m; ++i) EXPECT_EQ(dense.x[i], 0.0) << trial;
    ++pgs_checked;
  }
  std::printf("  %d cases: Lemke solved %d, PGS checked %d, contact-space PGS at most %d sweeps\n", cases, lemke_ok,
              pgs_checked, most_sweeps);
  EXPECT_EQ(pgs_checked, 400);
  // Corners within 80° of the active facet: Lemke solves every one (the
  // block is not copositive in general; the step falls back to PGS when not).
  EXPECT_EQ(lemke_ok, 400);
}

}  // namespace
}  // namespace proxima
