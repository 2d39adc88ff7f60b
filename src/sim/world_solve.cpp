// SPDX-License-Identifier: BSD-3-Clause
// Step 4: solve the contact problem, with warm starts and the fallback.
//
// Warm starts (PGS only): narrowphase left in every contact the impulses of
// its predecessor (contact_cache.hpp: the same cached contact when the set
// was reused, else the nearest one of the pair with the same features).
// Friction impulses are kept in world frame and projected on the new
// tangent basis. Lemke needs no start.
#include <proxima/sim/world.hpp>

namespace proxima::sim {

using Eigen::Index;

namespace {

void warm_start(const std::vector<ContactImpulse>& contacts, const std::vector<ContactRows>& rows, Index size,
                Eigen::VectorXd& x) {
  x.setZero(size);
  for (std::size_t k = 0; k < contacts.size(); ++k) {
    const ContactImpulse& c = contacts[k];
    x[rows[k].normal] = c.normal_impulse;
    if (rows[k].tangent >= 0) {
      const Vec3 t1 = c.tangent, t2 = c.normal.cross(t1);
      x[rows[k].tangent] = c.friction_impulse.dot(t1);
      x[rows[k].tangent + 1] = c.friction_impulse.dot(t2);
    }
  }
}

}  // namespace

void World::solve() {
  const Index m = static_cast<Index>(problem_.rows.size());
  // PGS solves in place on impulses_, from the warm start or from zero.
  const auto start = [&] {
    if (options.warm_start) warm_start(solved_, problem_.contacts, m, impulses_);
    else impulses_.setZero(m);
  };
  // PEG groups take the max-constraint sweeps (peg_pgs.cpp).
  const auto pgs = [&](const ContactSolveOptions& o) {
    return problem_.groups.empty() ? solve_pgs_bodies(problem_, o, impulses_, velocities_, pgs_workspace_)
                                   : solve_pgs_max(problem_, o, impulses_, velocities_, peg_velocities_);
  };
  bool have_velocities = false;
  if (options.solver == SolverKind::lemke) {
    const ContactSolution s = solve_lemke(lcp_, options.solve);
    stats_.lemke_status = s.status;
    stats_.iterations = s.iterations;
    stats_.status = s.status;
    impulses_ = s.x;
    if (s.status != LcpStatus::ok) {
      // Fallback: PGS from the warm start; counted in the stats.
      stats_.fallbacks = 1;
      // It solves Lemke's problem, without compliance: a compliant step
      // amid exact ones would move the resting depth and jolt a stack.
      ContactSolveOptions exact = options.solve;
      exact.pgs_regularization = 0.0;
      start();
      const PgsResult r = pgs(exact);
      have_velocities = true;
      stats_.iterations += r.iterations;
      stats_.status = r.status;
    }
  } else {
    start();
    const PgsResult r = pgs(options.solve);
    have_velocities = true;
    stats_.iterations = r.iterations;
    stats_.status = r.status;
  }
  // PGS that hit its sweep cap still has usable impulses; an invalid result
  // (only possible with non-finite input) applies none.
  if (impulses_.size() != m || !all_finite(impulses_)) {
    impulses_.setZero(m);
    have_velocities = false;
  }
  if (!have_velocities) velocities_ = velocities_after(problem_, impulses_);

  // Record the impulses per contact, in the contacts and in their cache
  // entries (next step's warm start).
  for (std::size_t k = 0; k < solved_.size(); ++k) {
    ContactImpulse& c = solved_[k];
    const ContactRows& r = problem_.contacts[k];
    c.normal_impulse = impulses_[r.normal];
    c.friction_impulse.setZero();
    if (r.tangent >= 0) {
      const Vec3 t1 = c.tangent, t2 = c.normal.cross(t1);
      c.friction_impulse = impulses_[r.tangent] * t1 + impulses_[r.tangent + 1] * t2;
    }
  }
  for (CachedPair* pair : step_pairs_)
    for (std::size_t k = 0; k < pair->points.size(); ++k) {
      const ContactImpulse& c = solved_[static_cast<std::size_t>(pair->first) + k];
      pair->points[k].normal_impulse = c.normal_impulse;
      pair->points[k].friction_impulse = c.friction_impulse;
    }
}

}  // namespace proxima::sim
