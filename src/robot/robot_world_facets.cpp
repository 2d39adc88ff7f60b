// SPDX-License-Identifier: BSD-3-Clause
// The ε facet rows and the PEG groups of a robot scene (robot_world.hpp,
// Formulations): the sim layer's vertex–facet rows (facet_contacts.hpp)
// of a pair whose sides are link parts or bodies, each at its pose, and
// PEG's aux rows in the robot's generalized velocities.
//
// The rows are World's (world.cpp narrowphase, world_facets.cpp): the
// same pairs take them (every pair with facets for ε > 0; under PEG a pair
// with a static side or a sphere, a link never being static), the same
// broad-phase distance max(ε, contact_margin), the same choice of the
// pushing facet per group (peg_group). Only the Jacobian differs: a link
// side's row is dᵀ J_link(p) (add_side), as for its manifold contacts.
#include <algorithm>

#include <proxima/robot/robot_world.hpp>

#include "../sim/facet_contacts.hpp"

namespace proxima::robot {

bool RobotWorld::facet_formulation() const {
  const sim::StepOptions& o = world_.options;
  return o.formulation == sim::Formulation::peg || o.epsilon > 0.0;
}

bool RobotWorld::add_facet_contacts(const sim::Geometry& a, const Transform& pose_a, bool fixed_a,
                                    const sim::Geometry& b, const Transform& pose_b, bool fixed_b,
                                    const RobotContact& sides, double mu) {
  if (!facet_formulation()) return false;
  const sim::StepOptions& o = world_.options;
  const sim::detail::FacetSide sa{&a, pose_a}, sb{&b, pose_b};
  const bool peg = o.formulation == sim::Formulation::peg;
  if (peg && !sim::detail::peg_pair(sa, fixed_a, sb, fixed_b)) return false;
  if (!sim::detail::facet_rows(sa, sb, std::max(o.epsilon, o.contact_margin), facets_)) return false;
  const auto emit = [&](const sim::detail::FacetRow& r) {
    Found& f = found_.emplace_back();
    f.c = sides;
    f.c.point = r.point;
    f.c.normal = r.normal;
    f.c.depth = -r.psi;
    f.mu = mu;
  };
  const std::vector<sim::detail::FacetRow>& rows = facets_.rows;
  for (std::size_t g = 0; g + 1 < facets_.group_begin.size(); ++g) {
    const std::size_t begin = static_cast<std::size_t>(facets_.group_begin[g]);
    const std::size_t end = static_cast<std::size_t>(facets_.group_begin[g + 1]);
    if (!peg) {
      for (std::size_t k = begin; k < end; ++k) emit(rows[k]);
      continue;
    }
    const sim::detail::PegGroup choice = sim::detail::peg_group(facets_, g, o.contact_margin);
    if (choice.active < 0) continue;
    const std::size_t active = static_cast<std::size_t>(choice.active);
    const int contact = static_cast<int>(found_.size());
    emit(rows[active]);
    for (std::size_t k = begin; k < end; ++k)
      if (k != active && rows[k].psi >= choice.keep) aux_.push_back({contact, rows[k]});
  }
  return true;
}

void RobotWorld::add_aux_rows(Eigen::Index first) {
  // After the contacts' and the limits' rows, in the order of their
  // contacts (sim::solve_pgs and polyhedral_lcp read them through
  // lcp_.groups). The aux row's ψ-term is (ψ_j − ψ_a)/Δt and the group's
  // active_bias the active row's ψ-term (lcp.hpp MaxGroup); J v* is added
  // to all rows together by build().
  const double h = world_.options.dt;
  const RobotModel& model = robot_.dynamics().model();
  // A floating base's columns come first in the link's Jacobian, as for
  // the contact rows.
  const BaseKind kind = robot_.dynamics().base_kind();
  Eigen::Index row = first;
  for (const sim::detail::AuxFacet& f : aux_) {
    const RobotContact& c = found_[static_cast<std::size_t>(f.contact)].c;
    if (lcp_.groups.empty() || lcp_.groups.back().contact != f.contact) {
      sim::MaxGroup g;
      g.contact = f.contact;
      g.first = static_cast<int>(row);
      g.active_bias = lcp_.b[lcp_.contacts[static_cast<std::size_t>(f.contact)].normal];
      lcp_.groups.push_back(g);
    }
    ++lcp_.groups.back().count;
    const Vec3& p = f.row.point;
    if (c.link >= 0) point_jacobian(model, poses_, c.link, p, kind, point_J_);
    add_side(row, c.link, c.body_a, p, f.row.normal, 1.0);
    if (c.link_b >= 0) point_jacobian(model, poses_, c.link_b, p, kind, point_J_);
    add_side(row, c.link_b, c.body_b, p, f.row.normal, -1.0);
    lcp_.b[row] = (f.row.psi + c.depth) / h;
    ++row;
  }
}

}  // namespace proxima::robot
