// SPDX-License-Identifier: BSD-3-Clause
// Vertex–facet contacts of a body pair as Stewart–Trinkle rows or as PEG
// groups (world.hpp Formulation; the rows come from facet_contacts.hpp).
#include <proxima/sim/world.hpp>

#include "facet_contacts.hpp"

namespace proxima::sim {

void World::add_facet_contacts(int ia, int ib) {
  const auto emit = [&](const detail::FacetRow& r) {
    ContactImpulse& ci = solved_.emplace_back();
    ci.body_a = ia;
    ci.body_b = ib;
    ci.point = r.point;
    ci.normal = r.normal;
    ci.depth = -r.psi;
  };
  const std::vector<detail::FacetRow>& rows = facets_.rows;
  for (std::size_t g = 0; g + 1 < facets_.group_begin.size(); ++g) {
    const std::size_t begin = static_cast<std::size_t>(facets_.group_begin[g]);
    const std::size_t end = static_cast<std::size_t>(facets_.group_begin[g + 1]);
    if (options.formulation == Formulation::stewart_trinkle) {
      for (std::size_t k = begin; k < end; ++k) emit(rows[k]);
      continue;
    }
    // PEG (facet_contacts.hpp peg_group).
    const detail::PegGroup peg = detail::peg_group(facets_, g, options.contact_margin);
    if (peg.active < 0) continue;
    const std::size_t active = static_cast<std::size_t>(peg.active);
    const double keep = peg.keep;
    const int contact = static_cast<int>(solved_.size());
    emit(rows[active]);
    for (std::size_t k = begin; k < end; ++k)
      if (k != active && rows[k].psi >= keep) aux_.push_back({contact, rows[k]});
  }
  stats_.aux = static_cast<int>(aux_.size());
}

}  // namespace proxima::sim
