// SPDX-License-Identifier: BSD-3-Clause
// PGS visiting order (src/sim/contact_order.hpp) against a brute-force
// level computation (Bellman–Ford style relaxation over the body graph),
// including a scratch reused across changing contact sets.
#include <algorithm>
#include <limits>

#include <gtest/gtest.h>

#include "../../src/sim/contact_order.hpp"
#include "../support/random.hpp"

namespace proxima {
namespace {

std::vector<int> brute_force_order(const std::vector<sim::ContactImpulse>& contacts, const std::vector<sim::Body>& bodies,
                                   sim::PgsOrder order) {
  constexpr int far = std::numeric_limits<int>::max();
  std::vector<int> level(bodies.size(), far);
  for (std::size_t i = 0; i < bodies.size(); ++i)
    if (bodies[i].is_static) level[i] = 0;
  for (bool changed = true; changed;) {
    changed = false;
    for (const sim::ContactImpulse& c : contacts)
      for (const auto& [from, to] : {std::pair{c.body_a, c.body_b}, std::pair{c.body_b, c.body_a}}) {
        const int lf = level[static_cast<std::size_t>(from)];
        int& lt = level[static_cast<std::size_t>(to)];
        if (lf != far && lf + 1 < lt) {
          lt = lf + 1;
          changed = true;
        }
      }
  }
  std::vector<std::pair<long, int>> keyed;
  for (std::size_t k = 0; k < contacts.size(); ++k) {
    const int key = std::min(level[static_cast<std::size_t>(contacts[k].body_a)], level[static_cast<std::size_t>(contacts[k].body_b)]);
    long rank = key == far ? std::numeric_limits<long>::max() : (order == sim::PgsOrder::bottom_up ? key : -key);
    keyed.emplace_back(rank, static_cast<int>(k));
  }
  std::stable_sort(keyed.begin(), keyed.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<int> out;
  for (const auto& e : keyed) out.push_back(e.second);
  return out;
}

TEST(ContactOrder, MatchesBruteForceLevelsWithAReusedScratch) {
  testing::Rng rng(31);
  sim::detail::ContactOrderScratch reused;
  std::vector<sim::ContactImpulse> previous;
  for (int t = 0; t < 400; ++t) {
    const int nb = 2 + t % 9;
    std::vector<sim::Body> bodies(static_cast<std::size_t>(nb));
    for (int i = 0; i < nb; ++i) bodies[static_cast<std::size_t>(i)].is_static = (i * 7 + t) % 5 == 0;
    // Every other trial repeats the previous contacts (the memo path);
    // otherwise a fresh random contact set, sometimes only a flag changes.
    std::vector<sim::ContactImpulse> contacts;
    if (t % 2 == 1 && !previous.empty() && previous.back().body_a < nb && previous.back().body_b < nb) {
      contacts = previous;
    } else {
      const int nc = static_cast<int>(rng.uniform(0.0, 12.0));
      for (int k = 0; k < nc; ++k) {
        sim::ContactImpulse c;
        c.body_a = static_cast<int>(rng.uniform(0.0, nb - 0.01));
        do c.body_b = static_cast<int>(rng.uniform(0.0, nb - 0.01));
        while (c.body_b == c.body_a);
        contacts.push_back(c);
      }
    }
    bool all_valid = true;
    for (const auto& c : contacts) all_valid = all_valid && c.body_a < nb && c.body_b < nb;
    if (!all_valid) continue;
    for (const sim::PgsOrder order : {sim::PgsOrder::bottom_up, sim::PgsOrder::top_down}) {
      // Twice with the reused scratch: computed, then repeated.
      for (int pass = 0; pass < 2; ++pass) {
        std::vector<int> got, fresh_got;
        sim::detail::contact_graph_order(contacts, bodies, order, reused, got);
        sim::detail::ContactOrderScratch fresh;
        sim::detail::contact_graph_order(contacts, bodies, order, fresh, fresh_got);
        EXPECT_EQ(got, brute_force_order(contacts, bodies, order)) << "trial " << t << " pass " << pass;
        EXPECT_EQ(got, fresh_got) << "trial " << t;
      }
    }
    // The same contacts in the same mode after a body changes its static
    // flag: a new order.
    if (!contacts.empty()) {
      sim::Body& flipped = bodies[static_cast<std::size_t>(contacts[0].body_a)];
      flipped.is_static = !flipped.is_static;
      std::vector<int> got;
      sim::detail::contact_graph_order(contacts, bodies, sim::PgsOrder::top_down, reused, got);
      EXPECT_EQ(got, brute_force_order(contacts, bodies, sim::PgsOrder::top_down)) << "trial " << t;
    }
    previous = contacts;
  }
}

}  // namespace
}  // namespace proxima
