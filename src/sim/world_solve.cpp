// Step 4: solve the contact problem, with warm starts and the fallback.
//
// Warm-start matching (PGS only): a new contact takes the impulses of the
// previous step's contact of the same body pair with the same feature ids
// (−1 for convex bodies) whose point, in body A's geometry frame, is
// nearest, if it is within 2 × contact_margin. Friction impulses are kept in
// world frame and projected on the new tangent basis. Lemke needs no start.
#include <proxima/sim/world.hpp>

#include "tangent.hpp"

namespace proxima::sim {

using Eigen::Index;

namespace {

Eigen::VectorXd warm_start(const WarmStartCache& cache, const std::vector<ContactImpulse>& contacts,
                           const std::vector<ContactRows>& rows, const std::vector<Body>& bodies, double radius,
                           Index size) {
  Eigen::VectorXd x = Eigen::VectorXd::Zero(size);
  for (std::size_t k = 0; k < contacts.size(); ++k) {
    const ContactImpulse& c = contacts[k];
    const auto it = cache.by_pair.find(detail::pair_key(c.body_a, c.body_b));
    if (it == cache.by_pair.end()) continue;
    const Vec3 local = bodies[static_cast<std::size_t>(c.body_a)].pose.apply_inverse(c.point);
    const WarmStartCache::Entry* best = nullptr;
    double best_d2 = radius * radius;
    for (const WarmStartCache::Entry& e : it->second) {
      if (e.feature_a != c.feature_a || e.feature_b != c.feature_b) continue;
      const double d2 = (e.local_point - local).squaredNorm();
      if (d2 <= best_d2) {
        best_d2 = d2;
        best = &e;
      }
    }
    if (!best) continue;
    x[rows[k].normal] = best->normal_impulse;
    if (rows[k].tangent >= 0) {
      const Vec3 t1 = c.tangent, t2 = c.normal.cross(t1);
      x[rows[k].tangent] = best->friction_impulse.dot(t1);
      x[rows[k].tangent + 1] = best->friction_impulse.dot(t2);
    }
  }
  return x;
}

}  // namespace

void World::solve() {
  ContactSolution s;
  const auto warm = [&] {
    return options.warm_start ? warm_start(cache_, solved_, problem_.contacts, bodies_, 2.0 * options.contact_margin,
                                           static_cast<Index>(problem_.rows.size()))
                              : Eigen::VectorXd();
  };
  bool have_velocities = false;
  if (options.solver == SolverKind::lemke) {
    s = solve_lemke(lcp_, options.solve);
    stats_.lemke_status = s.status;
    stats_.iterations = s.iterations;
    if (s.status != LcpStatus::ok) {
      // Fallback: PGS from the warm start; counted in the stats.
      stats_.fallbacks = 1;
      // It solves Lemke's problem, without compliance: a compliant step
      // amid exact ones would move the resting depth and jolt a stack.
      const int pivots = s.iterations;
      ContactSolveOptions exact = options.solve;
      exact.pgs_regularization = 0.0;
      s = solve_pgs_bodies(problem_, exact, warm(), velocities_);
      have_velocities = true;
      stats_.iterations = pivots + s.iterations;
    }
  } else {
    s = solve_pgs_bodies(problem_, options.solve, warm(), velocities_);
    have_velocities = true;
    stats_.iterations = s.iterations;
  }
  stats_.status = s.status;
  // PGS that hit its sweep cap still has usable impulses; an invalid result
  // (only possible with non-finite input) applies none.
  impulses_ = s.x.allFinite() ? s.x : Eigen::VectorXd::Zero(static_cast<Index>(problem_.rows.size()));
  if (!have_velocities || !s.x.allFinite()) velocities_ = velocities_after(problem_, impulses_);

  // Record the impulses per contact and refill the warm-start cache.
  cache_.by_pair.clear();
  for (std::size_t k = 0; k < solved_.size(); ++k) {
    ContactImpulse& c = solved_[k];
    const ContactRows& r = problem_.contacts[k];
    c.normal_impulse = impulses_[r.normal];
    c.friction_impulse.setZero();
    if (r.tangent >= 0) {
      const Vec3 t1 = c.tangent, t2 = c.normal.cross(t1);
      c.friction_impulse = impulses_[r.tangent] * t1 + impulses_[r.tangent + 1] * t2;
    }
    cache_.by_pair[detail::pair_key(c.body_a, c.body_b)].push_back(
        {bodies_[static_cast<std::size_t>(c.body_a)].pose.apply_inverse(c.point), c.feature_a, c.feature_b,
         c.normal_impulse, c.friction_impulse});
  }
}

}  // namespace proxima::sim
