// SPDX-License-Identifier: BSD-3-Clause
// Step 5: semi-implicit (symplectic) Euler. Velocities first, from the
// contact impulses; positions then move with the new velocities.
//
// Rotation: the solve gives ω⁺ with the inertia of the step's start, i.e.
// the world angular momentum L⁺ = I(t) ω⁺. After the orientation update the
// angular velocity is re-derived as ω = I(t+Δt)⁻¹ L⁺, so a free body keeps
// L exactly (Euler's equations in world frame, dL/dt = τ, with the
// gyroscopic term implicit) instead of drifting as an explicit ω × Iω term
// would make it.
#include <proxima/sim/world.hpp>

#include "rotation_step.hpp"

namespace proxima::sim {

using detail::rotation_step;

void World::integrate() {
  const double h = options.dt;
  // v⁺ = v* + M⁻¹ Jᵀ x, from the solve (world_solve.cpp).
  const Eigen::VectorXd& v = velocities_;
  for (std::size_t i = 0; i < bodies_.size(); ++i) {
    if (dof_[i] < 0) continue;
    Body& b = bodies_[i];
    const Vec3 lin = v.segment<3>(6 * dof_[i]);
    const Vec3 ang = v.segment<3>(6 * dof_[i] + 3);
    const Vec3 angular_momentum = b.inertia_world() * ang;
    // COM moves with v⁺; the orientation at constant L⁺ by the implicit
    // midpoint rule of rotation_step.hpp (energy and L of a free body kept).
    const Vec3 com = b.com_position() + h * lin;
    const Quat q = rotation_step(Quat(b.pose.R), angular_momentum, b.mass.inertia.inverse(), h);
    b.pose.R = q.toRotationMatrix();
    b.pose.p = com - b.pose.R * b.mass.com;
    b.linear_velocity = lin;
    b.angular_velocity = b.inverse_inertia_world() * angular_momentum;
  }
}

}  // namespace proxima::sim
