// Step 3: the contact-space problem u = W x + b of lcp.hpp.
//
// Generalized velocities are (v, ω) of every dynamic body (6 each). A row
// along unit direction d at point p of contact (A, B) measures
//   d·(v_A + ω_A × r_A) − d·(v_B + ω_B × r_B),  r = p − x_com,
// i.e. J = [dᵀ, (r_A × d)ᵀ] on A and −[dᵀ, (r_B × d)ᵀ] on B (eq. (7) of
// paper 001, the relative velocity along the B→A normal).
#include <cmath>

#include <proxima/sim/world.hpp>

#include "tangent.hpp"

namespace proxima::sim {

using Eigen::Index;

void World::build_lcp() {
  const double h = options.dt;
  // Number the dynamic bodies' coordinates and take v* = v + h M⁻¹ f_ext.
  dof_.assign(bodies_.size(), -1);
  inv_inertia_.assign(bodies_.size(), Mat3::Zero());
  Index n = 0;
  for (std::size_t i = 0; i < bodies_.size(); ++i) {
    if (bodies_[i].is_static) continue;
    dof_[i] = static_cast<int>(n);
    inv_inertia_[i] = bodies_[i].inverse_inertia_world();
    n += 6;
  }
  v_star_.resize(n);
  for (std::size_t i = 0; i < bodies_.size(); ++i) {
    if (dof_[i] < 0) continue;
    v_star_.segment<3>(dof_[i]) = bodies_[i].linear_velocity + h * gravity;
    v_star_.segment<3>(dof_[i] + 3) = bodies_[i].angular_velocity;
  }

  // One normal row per contact, two tangent rows when the pair has friction.
  lcp_.contacts.clear();
  Index rows = 0;
  for (const ContactImpulse& c : solved_) {
    ContactRows r;
    r.mu = friction.mu(c.body_a, c.body_b);
    r.normal = static_cast<int>(rows++);
    if (r.mu > 0.0) {
      r.tangent = static_cast<int>(rows);
      rows += 2;
    }
    lcp_.contacts.push_back(r);
  }
  jacobian_.setZero(rows, n);
  for (std::size_t k = 0; k < solved_.size(); ++k) {
    const ContactImpulse& c = solved_[k];
    const ContactRows& r = lcp_.contacts[k];
    Vec3 dirs[3] = {c.normal, Vec3::Zero(), Vec3::Zero()};
    detail::tangent_basis(c.normal, dirs[1], dirs[2]);
    const int count = r.tangent >= 0 ? 3 : 1;
    for (int j = 0; j < count; ++j) {
      const Index row = j == 0 ? r.normal : r.tangent + j - 1;
      const std::size_t ia = static_cast<std::size_t>(c.body_a), ib = static_cast<std::size_t>(c.body_b);
      if (dof_[ia] >= 0) {
        jacobian_.block<1, 3>(row, dof_[ia]) = dirs[j].transpose();
        jacobian_.block<1, 3>(row, dof_[ia] + 3) =
            (c.point - bodies_[ia].com_position()).cross(dirs[j]).transpose();
      }
      if (dof_[ib] >= 0) {
        jacobian_.block<1, 3>(row, dof_[ib]) = -dirs[j].transpose();
        jacobian_.block<1, 3>(row, dof_[ib] + 3) =
            -(c.point - bodies_[ib].com_position()).cross(dirs[j]).transpose();
      }
    }
  }

  // W = J M⁻¹ Jᵀ with M⁻¹ block-diagonal (1/m I, I_world⁻¹) per body.
  Eigen::MatrixXd jm = jacobian_;
  for (std::size_t i = 0; i < bodies_.size(); ++i) {
    if (dof_[i] < 0) continue;
    jm.middleCols<3>(dof_[i]) *= bodies_[i].inverse_mass();
    jm.middleCols<3>(dof_[i] + 3) = jacobian_.middleCols<3>(dof_[i] + 3) * inv_inertia_[i];  // I⁻¹ symmetric
  }
  lcp_.W.noalias() = jm * jacobian_.transpose();
  lcp_.b.noalias() = jacobian_ * v_star_;

  // ψ/Δt stabilization on the normal rows (StepOptions::stabilization).
  for (std::size_t k = 0; k < solved_.size(); ++k) {
    const double psi = -solved_[k].depth;
    const double gamma = psi >= 0.0 ? 1.0 : options.stabilization;
    lcp_.b[lcp_.contacts[k].normal] += gamma * psi / h;
  }
}

}  // namespace proxima::sim
