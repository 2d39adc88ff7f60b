// SPDX-License-Identifier: BSD-3-Clause
// Step 3: the contact problem in body space (body_space.hpp); the dense
// u = W x + b of lcp.hpp is formed from it only for Lemke.
//
// Generalized velocities are (v, ω) of every dynamic body (6 each). A row
// along unit direction d at point p of contact (A, B) measures
//   d·(v_A + ω_A × r_A) − d·(v_B + ω_B × r_B),  r = p − x_com,
// i.e. J = [dᵀ, (r_A × d)ᵀ] on A and −[dᵀ, (r_B × d)ᵀ] on B (eq. (7) of
// Contact data for convex polyhedra, the relative velocity along the B→A normal).
#include <cmath>

#include <proxima/sim/world.hpp>

#include "contact_order.hpp"
#include "tangent.hpp"

namespace proxima::sim {

using Eigen::Index;

void World::build_lcp() {
  const double h = options.dt;
  // Number the dynamic bodies and take v* = v + h M⁻¹ f_ext.
  dof_.assign(bodies_.size(), -1);
  inv_inertia_.assign(bodies_.size(), Mat3::Zero());
  inv_mass_.assign(bodies_.size(), 0.0);
  com_.assign(bodies_.size(), Vec3::Zero());
  int n = 0;
  for (std::size_t i = 0; i < bodies_.size(); ++i) {
    if (bodies_[i].infinite_mass()) continue;
    dof_[i] = n++;
    inv_inertia_[i] = bodies_[i].inverse_inertia_world();
    inv_mass_[i] = bodies_[i].inverse_mass();
    com_[i] = bodies_[i].com_position();
  }
  BodySpaceProblem& p = problem_;
  p.v_star.resize(6 * n);
  for (std::size_t i = 0; i < bodies_.size(); ++i) {
    if (dof_[i] < 0) continue;
    // Gravity and the body's own force and torque (Body::force, torque).
    p.v_star.segment<3>(6 * dof_[i]) = bodies_[i].linear_velocity + h * (gravity + inv_mass_[i] * bodies_[i].force);
    p.v_star.segment<3>(6 * dof_[i] + 3) = bodies_[i].angular_velocity + h * (inv_inertia_[i] * bodies_[i].torque);
  }

  // Velocity of a kinematic body's point x in this step (its path's twist
  // about the geometry frame's origin, World::drive_kinematic); zero for
  // static and dynamic bodies.
  const auto scripted_velocity = [&](std::size_t i, const Vec3& x) -> Vec3 {
    const Body& b = bodies_[i];
    if (!b.kinematic) return Vec3::Zero();
    return b.linear_velocity + b.angular_velocity.cross(x - b.pose.p);
  };
  // Velocity at a point of body i moving with v* (scripted for kinematic bodies).
  const auto point_velocity = [&](int i, const Vec3& x) -> Vec3 {
    const int d = dof_[static_cast<std::size_t>(i)];
    if (d < 0) return scripted_velocity(static_cast<std::size_t>(i), x);
    return p.v_star.segment<3>(6 * d) + p.v_star.segment<3>(6 * d + 3).cross(x - com_[static_cast<std::size_t>(i)]);
  };

  // Writes the row along unit d at lever arms ra, rb of bodies ia, ib (a
  // static side keeps zero entries: PGS reads both sides without a test).
  // A kinematic side has no entries either: its scripted velocity along d
  // is a constant of the row, in the bias, so the row still measures
  // d·(v_A − v_B) at the point.
  const auto write_row = [&](JacobianRow& row, std::size_t ia, std::size_t ib, const Vec3& ra, const Vec3& rb,
                             const Vec3& d, double bias) {
    const int da = dof_[ia], db = dof_[ib];
    if (bodies_[ia].kinematic) bias += d.dot(scripted_velocity(ia, com_[ia] + ra));
    if (bodies_[ib].kinematic) bias -= d.dot(scripted_velocity(ib, com_[ib] + rb));
    row.a = da;
    row.b = db;
    if (da >= 0) {
      const Vec3 ang = ra.cross(d);
      row.ja.head<3>() = d;
      row.ja.tail<3>() = ang;
      row.ma.head<3>() = inv_mass_[ia] * d;
      row.ma.tail<3>() = inv_inertia_[ia] * ang;
    } else {
      row.ja.setZero();
      row.ma.setZero();
    }
    if (db >= 0) {
      const Vec3 ang = rb.cross(d);
      row.jb.head<3>() = -d;
      row.jb.tail<3>() = -ang;
      row.mb.head<3>() = -inv_mass_[ib] * d;
      row.mb.tail<3>() = -(inv_inertia_[ib] * ang);
    } else {
      row.jb.setZero();
      row.mb.setZero();
    }
    row.bias = bias;
  };

  // Velocity of body i's point x at the step's start (before gravity and
  // contacts act): the approach speed of an impact.
  const auto start_velocity = [&](std::size_t i, const Vec3& x) -> Vec3 {
    const Body& b = bodies_[i];
    if (b.is_static) return Vec3::Zero();
    const Vec3 origin = b.kinematic ? b.pose.p : com_[i];
    return b.linear_velocity + b.angular_velocity.cross(x - origin);
  };
  // Restitution (RestitutionTable): the normal row's bias when the contact
  // is an impact, e·v_n ≤ 0 (u = n·Δv + bias ≥ 0 asks for n·v⁺ ≥ −e v_n),
  // else `bias` unchanged. An impact approaches faster than the threshold
  // and closes its gap ψ within the step; a row already pushing out harder
  // (a deep penetration) keeps its bias.
  const auto impact_bias = [&](const ContactImpulse& c, double bias) {
    const double e = restitution.e(c.body_a, c.body_b);
    if (!(e > 0.0)) return bias;
    const std::size_t ia = static_cast<std::size_t>(c.body_a), ib = static_cast<std::size_t>(c.body_b);
    const double vn = c.normal.dot(start_velocity(ia, c.point) - start_velocity(ib, c.point));
    if (!(vn < -restitution.threshold) || -c.depth > -vn * h) return bias;
    return std::min(bias, e * vn);
  };

  // ψ/Δt stabilization of a normal row of depth `depth`.
  const auto psi_bias = [&](double depth) {
    const double psi = -depth;
    return (psi >= 0.0 ? 1.0 : options.stabilization) * psi / h;
  };

  // One normal row per contact, two tangent rows when the pair has friction.
  p.contacts.clear();
  // Rows are overwritten in place; the vector only grows (default-built
  // rows would be zeroed only to be written again) and is cut to size last.
  std::size_t rows = 0;
  for (ContactImpulse& c : solved_) {
    ContactRows r;
    r.mu = friction.mu(c.body_a, c.body_b);
    Vec3 dirs[3] = {c.normal, Vec3::Zero(), Vec3::Zero()};
    detail::tangent_basis(c.normal, dirs[1], dirs[2]);
    if (options.friction_basis == FrictionBasis::sliding && r.mu > 0.0) {
      // Turn the cone so that t₁ opposes the slip of A on B at v*.
      const Vec3 slip = point_velocity(c.body_a, c.point) - point_velocity(c.body_b, c.point);
      const Vec3 tangential = slip - slip.dot(c.normal) * c.normal;
      const double speed = tangential.norm();
      if (speed > options.sliding_speed) {
        dirs[1] = -tangential / speed;
        dirs[2] = c.normal.cross(dirs[1]);
      }
    }
    c.tangent = dirs[1];
    r.normal = static_cast<int>(rows);
    const int count = r.mu > 0.0 ? 3 : 1;
    if (count == 3) r.tangent = r.normal + 1;
    p.contacts.push_back(r);
    const std::size_t ia = static_cast<std::size_t>(c.body_a), ib = static_cast<std::size_t>(c.body_b);
    const Vec3 ra = c.point - com_[ia], rb = c.point - com_[ib];
    rows += static_cast<std::size_t>(count);
    if (p.rows.size() < rows) p.rows.resize(rows);
    for (int j = 0; j < count; ++j) {
      // ψ/Δt stabilization on the normal row (StepOptions::stabilization).
      const double bias = j == 0 ? impact_bias(c, psi_bias(c.depth)) : 0.0;
      write_row(p.rows[static_cast<std::size_t>(r.normal + j)], ia, ib, ra, rb, dirs[j], bias);
    }
  }
  // PEG: each group's other facets as rows without impulse, after every
  // contact's rows (MaxGroup); their bias is (ψ_j − ψ_a)/Δt.
  p.groups.clear();
  for (const detail::AuxFacet& f : aux_) {
    const ContactImpulse& c = solved_[static_cast<std::size_t>(f.contact)];
    if (p.groups.empty() || p.groups.back().contact != f.contact) {
      MaxGroup g;
      g.contact = f.contact;
      g.first = static_cast<int>(rows);
      g.active_bias = p.rows[static_cast<std::size_t>(p.contacts[static_cast<std::size_t>(f.contact)].normal)].bias;
      p.groups.push_back(g);
    }
    ++p.groups.back().count;
    const std::size_t ia = static_cast<std::size_t>(c.body_a), ib = static_cast<std::size_t>(c.body_b);
    rows += 1;
    if (p.rows.size() < rows) p.rows.resize(rows);
    // The aux row measures its facet's velocity relative to the active
    // row's: write_row adds the facet's kinematic term, the active row's
    // (its bias beyond the ψ-term) is taken off.
    const double active_scripted =
        p.rows[static_cast<std::size_t>(p.contacts[static_cast<std::size_t>(f.contact)].normal)].bias -
        psi_bias(c.depth);
    write_row(p.rows[rows - 1], ia, ib, f.row.point - com_[ia], f.row.point - com_[ib], f.row.normal,
              (f.row.psi + c.depth) / h - active_scripted);
  }
  p.rows.resize(rows);
  detail::contact_graph_order(solved_, bodies_, options.pgs_order, order_scratch_, p.order);
  if (options.solver == SolverKind::lemke) to_contact_lcp(p, lcp_);
}

}  // namespace proxima::sim
