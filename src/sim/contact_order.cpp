// SPDX-License-Identifier: BSD-3-Clause
// Breadth-first levels over the contacts themselves (each body's contacts
// chained through `link`) and a counting sort by level: linear, stable and
// allocation-free once the scratch has grown.
#include <algorithm>
#include <limits>
#include <numeric>

#include "contact_order.hpp"
#include "tangent.hpp"

namespace proxima::sim::detail {

void contact_graph_order(const std::vector<ContactImpulse>& contacts, const std::vector<Body>& bodies,
                         PgsOrder order, ContactOrderScratch& s, std::vector<int>& out) {
  const std::size_t nc = contacts.size(), nb = bodies.size();
  out.resize(nc);
  if (order == PgsOrder::as_found || nc == 0) {
    std::iota(out.begin(), out.end(), 0);
    return;
  }

  // The order depends only on the contacts' body pairs, the static flags
  // and the mode: when those repeat, so does the order.
  bool same = s.mode == static_cast<int>(order) && s.pairs.size() == nc && s.is_static.size() == nb;
  for (std::size_t k = 0; k < nc && same; ++k) same = s.pairs[k] == pair_key(contacts[k].body_a, contacts[k].body_b);
  for (std::size_t i = 0; i < nb && same; ++i) same = s.is_static[i] == static_cast<char>(bodies[i].infinite_mass());
  if (same) {
    out = s.order;
    return;
  }
  s.mode = static_cast<int>(order);
  s.pairs.resize(nc);
  for (std::size_t k = 0; k < nc; ++k) s.pairs[k] = pair_key(contacts[k].body_a, contacts[k].body_b);
  s.is_static.resize(nb);
  for (std::size_t i = 0; i < nb; ++i) s.is_static[i] = static_cast<char>(bodies[i].infinite_mass());

  // Contact k is entry 2k on body_a's chain and 2k + 1 on body_b's.
  s.first.assign(nb, -1);
  s.link.resize(2 * nc);
  for (std::size_t k = 0; k < nc; ++k) {
    const std::size_t a = static_cast<std::size_t>(contacts[k].body_a), b = static_cast<std::size_t>(contacts[k].body_b);
    s.link[2 * k] = s.first[a];
    s.first[a] = static_cast<int>(2 * k);
    s.link[2 * k + 1] = s.first[b];
    s.first[b] = static_cast<int>(2 * k + 1);
  }
  // Breadth-first levels of the bodies: 0 for static ones.
  constexpr int far = std::numeric_limits<int>::max();
  s.level.assign(nb, far);
  s.queue.clear();
  for (std::size_t i = 0; i < nb; ++i)
    if (bodies[i].infinite_mass()) {
      s.level[i] = 0;
      s.queue.push_back(static_cast<int>(i));
    }
  for (std::size_t head = 0; head < s.queue.size(); ++head) {
    const std::size_t b = static_cast<std::size_t>(s.queue[head]);
    for (int e = s.first[b]; e >= 0; e = s.link[static_cast<std::size_t>(e)]) {
      const ContactImpulse& c = contacts[static_cast<std::size_t>(e / 2)];
      const std::size_t o = static_cast<std::size_t>(e % 2 == 0 ? c.body_b : c.body_a);
      if (s.level[o] == far) {
        s.level[o] = s.level[b] + 1;
        s.queue.push_back(static_cast<int>(o));
      }
    }
  }

  // A contact sits at the lower level of its two bodies; unreached groups
  // (level "far") go last either way. Bucket b holds the contacts sorted
  // b-th: ascending levels, or descending for top_down.
  int top = 0;
  for (std::size_t i = 0; i < nb; ++i)
    if (s.level[i] != far) top = std::max(top, s.level[i]);
  const auto bucket = [&](const ContactImpulse& c) {
    const int key = std::min(s.level[static_cast<std::size_t>(c.body_a)], s.level[static_cast<std::size_t>(c.body_b)]);
    if (key == far) return top + 1;
    return order == PgsOrder::bottom_up ? key : top - key;
  };
  s.count.assign(static_cast<std::size_t>(top) + 3, 0);
  for (const ContactImpulse& c : contacts) ++s.count[static_cast<std::size_t>(bucket(c)) + 1];
  std::partial_sum(s.count.begin(), s.count.end(), s.count.begin());
  for (std::size_t k = 0; k < nc; ++k) out[static_cast<std::size_t>(s.count[static_cast<std::size_t>(bucket(contacts[k]))]++)] = static_cast<int>(k);
  s.order = out;
}

}  // namespace proxima::sim::detail
