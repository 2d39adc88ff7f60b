// SPDX-License-Identifier: BSD-3-Clause
// Speculative contacts (StepOptions::speculative): how far a body can move
// in a step, the query distance of a pair and the broad phase's reach.
#include <algorithm>

#include <proxima/sim/world.hpp>

namespace proxima::sim {

namespace {

// Speculative growth of a query distance for a pair that can close `motion`
// metres in a step (StepOptions::speculative): none below half the contact
// margin, so that resting pairs keep the margin their cache was made with;
// a quarter more than the bound above it, for the rounding of the bound.
double speculative_extra(double motion, double margin) { return motion > 0.5 * margin ? 1.25 * motion : 0.0; }

bool finite_box(const Aabb& b) { return b.min.allFinite() && b.max.allFinite(); }

}  // namespace

double World::motion(std::size_t i) const {
  const Body& b = bodies_[i];
  if (b.is_static) return 0.0;
  const double h = options.dt;
  const Aabb box = b.geometry->world_aabb(b.pose);
  // Points of the body lie within the box's diagonal of the centre of mass.
  const double reach = finite_box(box) ? (box.max - box.min).norm() : 0.0;
  // A kinematic body's path has no acceleration within a step.
  const Vec3 accel = b.kinematic ? Vec3::Zero() : Vec3(gravity + b.force / b.mass.mass);
  // The step turns the body at ω + h I⁻¹ τ (semi-implicit Euler): a torque
  // that spins a body up from rest must widen the query as much as a speed.
  const double spin =
      b.angular_velocity.norm() + (b.kinematic ? 0.0 : h * (b.inverse_inertia_world() * b.torque).norm());
  return h * (b.linear_velocity.norm() + h * accel.norm() + spin * reach);
}

double World::pair_margin(int ia, int ib) const {
  if (!options.speculative) return options.contact_margin;
  const double m = motion(static_cast<std::size_t>(ia)) + motion(static_cast<std::size_t>(ib));
  return options.contact_margin + speculative_extra(m, options.contact_margin);
}

double World::broadphase_reach(std::size_t i) const {
  double reach = facet_formulation() ? std::max(0.0, options.epsilon - options.contact_margin) : 0.0;
  if (options.speculative) reach += speculative_extra(2.0 * motion(i), options.contact_margin);
  return reach;
}

}  // namespace proxima::sim
