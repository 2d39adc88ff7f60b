// SPDX-License-Identifier: BSD-3-Clause
// The order in which PGS visits the contacts of a step.
#pragma once

#include <vector>

#include <proxima/sim/world.hpp>

namespace proxima::sim::detail {

/// Indices of `contacts` sorted by their distance, in the contact graph,
/// from the immobile bodies: a contact touching a static body has level 0,
/// one between a body resting on such a body and the next has level 1, …
/// (breadth-first from every static body). `order` selects ascending
/// (bottom_up), descending (top_down) or the given order (as_found). Ties
/// keep the given order. Contacts of groups never touching a static body
/// come last. Refills `out`; `scratch` keeps its capacity between steps.
void contact_graph_order(const std::vector<ContactImpulse>& contacts, const std::vector<Body>& bodies,
                         PgsOrder order, ContactOrderScratch& scratch, std::vector<int>& out);

}  // namespace proxima::sim::detail
