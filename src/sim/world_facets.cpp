// SPDX-License-Identifier: BSD-3-Clause
// Vertex–facet contacts of a body pair as Stewart–Trinkle rows or as PEG
// groups (world.hpp Formulation; the rows come from facet_contacts.hpp).
#include <algorithm>
#include <cmath>
#include <limits>

#include <proxima/sim/world.hpp>

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
    // PEG. The max runs over the facets the vertex is in front of at the
    // step's start (ψ ≥ −slop, the slop being the contact margin, so that a
    // vertex resting on coplanar tile tops, ψ = −1e−12 by rounding, still
    // counts as in front of the next tile's top): through those it can
    // leave the piece's neighbourhood without crossing the piece. A facet
    // well behind the vertex (the vertical face of a sawtooth tooth seen
    // from its ramp) constrains nothing until the vertex is near its front,
    // so the extended half-space never pushes; and a vertex moving farther
    // in a step than the piece is thick cannot satisfy the max through the
    // far side's facet (with every facet in the max it did: the particle
    // left a hill through its bottom at Δt = 0.1 s). A vertex deeper than
    // the slop behind every facet is pushed out through the shallowest.
    double top = -std::numeric_limits<double>::infinity();
    for (std::size_t k = begin; k < end; ++k) top = std::max(top, rows[k].psi);
    const double slop = std::max(options.contact_margin, 1e-9);
    // A mesh's group is only the triangles near the vertex, not a whole
    // piece: behind all of them (the bottom of a sawtooth mesh seen from
    // above, within ε) is not inside the solid, and they constrain nothing.
    if (facets_.group_partial[g] != 0 && top < -slop) continue;
    const double keep = top < -slop ? top : -slop;
    // One facet pushes (the paper's G_n): the closest one to the vertex
    // (least |ψ| of those kept: a touching facet before one ahead). The
    // others only decide, through their slacks, when the max has moved to
    // them. (Two other choices were tried and dropped: the facet with the
    // largest ψ at the end of an unconstrained step picks, for a fast
    // vertex, a facet it never meets; the facet whose plane it would cross
    // last picks the side face of the next tile for a box vertex sliding
    // along coplanar tile tops, and its push tipped the box.)
    std::size_t active = end;
    for (std::size_t k = begin; k < end; ++k)
      if (rows[k].psi >= keep && (active == end || std::abs(rows[k].psi) < std::abs(rows[active].psi))) active = k;
    const int contact = static_cast<int>(solved_.size());
    emit(rows[active]);
    for (std::size_t k = begin; k < end; ++k)
      if (k != active && rows[k].psi >= keep) aux_.push_back({contact, rows[k]});
  }
  stats_.aux = static_cast<int>(aux_.size());
}

}  // namespace proxima::sim
