#include <algorithm>
#include <limits>
#include <numeric>

#include "contact_order.hpp"

namespace proxima::sim::detail {

std::vector<int> contact_graph_order(const std::vector<ContactImpulse>& contacts, const std::vector<Body>& bodies,
                                     PgsOrder order) {
  std::vector<int> out(contacts.size());
  std::iota(out.begin(), out.end(), 0);
  if (order == PgsOrder::as_found || contacts.empty()) return out;

  // Breadth-first levels of the bodies: 0 for static ones.
  constexpr int far = std::numeric_limits<int>::max();
  std::vector<int> level(bodies.size(), far);
  std::vector<std::vector<int>> neighbours(bodies.size());
  for (const ContactImpulse& c : contacts) {
    neighbours[static_cast<std::size_t>(c.body_a)].push_back(c.body_b);
    neighbours[static_cast<std::size_t>(c.body_b)].push_back(c.body_a);
  }
  std::vector<int> queue;
  for (std::size_t i = 0; i < bodies.size(); ++i)
    if (bodies[i].is_static) {
      level[i] = 0;
      queue.push_back(static_cast<int>(i));
    }
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const int b = queue[head];
    for (const int o : neighbours[static_cast<std::size_t>(b)])
      if (level[static_cast<std::size_t>(o)] == far) {
        level[static_cast<std::size_t>(o)] = level[static_cast<std::size_t>(b)] + 1;
        queue.push_back(o);
      }
  }

  // A contact sits at the lower level of its two bodies.
  std::vector<int> key(contacts.size());
  for (std::size_t k = 0; k < contacts.size(); ++k)
    key[k] = std::min(level[static_cast<std::size_t>(contacts[k].body_a)], level[static_cast<std::size_t>(contacts[k].body_b)]);
  if (order == PgsOrder::bottom_up)
    std::stable_sort(out.begin(), out.end(), [&](int i, int j) { return key[static_cast<std::size_t>(i)] < key[static_cast<std::size_t>(j)]; });
  else
    std::stable_sort(out.begin(), out.end(), [&](int i, int j) {
      const int ki = key[static_cast<std::size_t>(i)] == far ? -1 : key[static_cast<std::size_t>(i)];
      const int kj = key[static_cast<std::size_t>(j)] == far ? -1 : key[static_cast<std::size_t>(j)];
      return ki > kj;
    });
  return out;
}

}  // namespace proxima::sim::detail
