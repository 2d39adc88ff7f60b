// SPDX-License-Identifier: BSD-3-Clause
// Projected Gauss–Seidel for problems with PEG groups (body_space.hpp
// solve_pgs_max). A grouped contact's impulse acts along its active facet
// only; what it must keep non-negative is the group's max-ψ velocity
//   g = max(u_a, u_a + d_1, …, u_a + d_m),  d_j = (J_j − J_a) v + (ψ_j − ψ_a)/Δt,
// the exact max of eq. (15) (the Lemke form's nested slacks reach the same
// value at a solution). The visit is the projected Newton step of the
// active facet: c ← max(0, c − g / W_aa). While facet a bounds the max this
// is the plain PGS row; once another facet j bounds it (the vertex has
// passed the edge between them) g ≥ u_a and the push is released as soon as
// facet j's half-space holds the vertex out, never because facet a's
// extended half-space is violated.
#include <algorithm>
#include <cmath>
#include <numbers>
#include <optional>

#include <proxima/sim/body_space.hpp>

#include "friction_polygon.hpp"
#include "pgs_guards.hpp"

namespace proxima::sim {

using Eigen::Index;
using Eigen::Matrix2d;
using Eigen::Vector2d;
using Eigen::VectorXd;

namespace {

double velocity(const JacobianRow& r, const std::vector<Vec6>& vel, std::size_t ground) {
  const std::size_t a = r.a >= 0 ? static_cast<std::size_t>(r.a) : ground;
  const std::size_t b = r.b >= 0 ? static_cast<std::size_t>(r.b) : ground;
  return r.bias + r.ja.dot(vel[a]) + r.jb.dot(vel[b]);
}

void apply(const JacobianRow& r, double delta, std::vector<Vec6>& vel, std::size_t ground) {
  vel[r.a >= 0 ? static_cast<std::size_t>(r.a) : ground] += delta * r.ma;
  vel[r.b >= 0 ? static_cast<std::size_t>(r.b) : ground] += delta * r.mb;
}

double coupling(const JacobianRow& i, const JacobianRow& j) { return delassus(i, j); }

}  // namespace

PgsResult solve_pgs_max(const BodySpaceProblem& p, const ContactSolveOptions& options, VectorXd& x, VectorXd& v,
                        std::vector<Vec6>& vel) {
  PgsResult out;
  const Index m = static_cast<Index>(p.rows.size());
  const std::size_t ground = static_cast<std::size_t>(p.v_star.size() / 6);
  if (!detail::start_pgs(p, x, v, out)) return out;
  // Aux rows carry no impulse.
  for (const MaxGroup& g : p.groups) x.segment(g.first, g.count).setZero();
  vel.resize(ground + 1);
  for (std::size_t i = 0; i < ground; ++i) vel[i] = p.v_star.segment<6>(6 * static_cast<Index>(i));
  vel[ground].setZero();
  for (Index i = 0; i < m; ++i)
    if (x[i] != 0.0) apply(p.rows[static_cast<std::size_t>(i)], x[i], vel, ground);

  // The q-gon's tables, made once per q (a step allocates nothing).
  thread_local std::optional<detail::FrictionPolygon> table;
  thread_local int table_sides = 0;
  if (!table || table_sides != options.friction_directions) table.emplace(options.friction_directions);
  table_sides = options.friction_directions;
  const detail::FrictionPolygon& polygon = *table;
  const double apothem = std::cos(std::numbers::pi / options.friction_directions);
  out.status = LcpStatus::max_iterations;
  for (int it = 1; it <= options.pgs_max_iterations; ++it) {
    double residual = 0.0;
    // Groups are stored in the order of their contacts (world.cpp builds
    // them so), so one cursor finds each contact's group.
    std::size_t next_group = 0;
    for (std::size_t k = 0; k < p.contacts.size(); ++k) {
      const MaxGroup* group = nullptr;
      if (next_group < p.groups.size() && p.groups[next_group].contact == static_cast<int>(k))
        group = &p.groups[next_group++];
      const ContactRows& c = p.contacts[k];
      const JacobianRow& n = p.rows[static_cast<std::size_t>(c.normal)];
      const double wnn = coupling(n, n);
      if (wnn > 0.0) {
        const double ua = velocity(n, vel, ground);
        double gmax = ua;
        if (group != nullptr) {
          const MaxGroup& g = *group;
          const double ja_v = ua - n.bias;  // J_a v
          for (int j = 0; j < g.count; ++j) {
            const JacobianRow& r = p.rows[static_cast<std::size_t>(g.first + j)];
            // u_a + d_j = u_a + J_j v + (ψ_j − ψ_a)/Δt − J_a v.
            gmax = std::max(gmax, ua + velocity(r, vel, ground) - ja_v);
          }
        }
        double& xn = x[c.normal];
        residual = std::max(residual, xn > 0.0 ? std::abs(gmax) : -gmax);
        const double next = std::max(0.0, xn - gmax / wnn);
        if (next != xn) {
          apply(n, next - xn, vel, ground);
          xn = next;
        }
      }
      if (c.tangent < 0) continue;
      const JacobianRow& t1 = p.rows[static_cast<std::size_t>(c.tangent)];
      const JacobianRow& t2 = p.rows[static_cast<std::size_t>(c.tangent + 1)];
      const double off = coupling(t1, t2);
      Matrix2d wtt;
      wtt << coupling(t1, t1), off, off, coupling(t2, t2);
      const Index t = c.tangent;
      const Vector2d f0(x[t], x[t + 1]);
      const Vector2d ut(velocity(t1, vel, ground), velocity(t2, vel, ground));
      const double radius = c.mu * x[c.normal];
      if (f0.norm() < 0.999 * apothem * radius) residual = std::max(residual, ut.cwiseAbs().maxCoeff());
      const Vector2d f = polygon.minimize(wtt, ut - wtt * f0, radius);
      if (f != f0) {
        apply(t1, f.x() - f0.x(), vel, ground);
        apply(t2, f.y() - f0.y(), vel, ground);
        x[t] = f.x();
        x[t + 1] = f.y();
      }
    }
    out.iterations = it;
    if (residual <= options.pgs_velocity_tolerance) {
      out.status = LcpStatus::ok;
      break;
    }
  }
  v.resize(6 * static_cast<Index>(ground));
  for (std::size_t i = 0; i < ground; ++i) v.segment<6>(6 * static_cast<Index>(i)) = vel[i];
  detail::reject_non_finite(p, x, v, out);
  return out;
}

}  // namespace proxima::sim
