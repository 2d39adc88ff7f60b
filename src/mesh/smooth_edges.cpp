// SPDX-License-Identifier: BSD-3-Clause
// Edge classification of smooth_edges.hpp: the undirected edges sorted by
// their vertex pair, so that an edge's triangles are neighbours in the list.
#include "smooth_edges.hpp"

#include <algorithm>
#include <cmath>

namespace proxima::mesh::detail {
namespace {

struct EdgeUse {
  std::uint64_t key;     // smaller vertex id << 32 | larger
  std::uint32_t tri;
  std::uint8_t k;        // edge k of tri: corner k → corner k+1
};

Vec3 unit_normal(const TriangleMesh& m, std::size_t t) {
  const Vec3 u = (m.corner(t, 1) - m.corner(t, 0)).cross(m.corner(t, 2) - m.corner(t, 0));
  const double n = u.norm();
  return n > 0.0 ? Vec3(u / n) : Vec3::Zero();
}

}  // namespace

std::vector<std::uint8_t> smooth_edges(const TriangleMesh& m, double flat_angle, std::vector<std::uint8_t>* owners) {
  const std::size_t nt = m.triangle_count();
  std::vector<std::uint8_t> mask(nt, 0);
  if (owners) {
    // A vertex's owner: the lowest triangle id holding it.
    owners->assign(nt, 0);
    std::vector<std::uint32_t> first(m.vertices().size(), 0xffffffffu);
    for (std::size_t t = nt; t-- > 0;)
      for (const std::uint32_t v : m.triangles()[t]) first[v] = static_cast<std::uint32_t>(t);
    for (std::size_t t = 0; t < nt; ++t)
      for (int k = 0; k < 3; ++k)
        if (first[m.triangles()[t][static_cast<std::size_t>(k)]] == t) {
          // A corner repeated in a degenerate triangle is owned once.
          bool seen = false;
          for (int q = 0; q < k; ++q) seen = seen || m.triangles()[t][static_cast<std::size_t>(q)] == m.triangles()[t][static_cast<std::size_t>(k)];
          if (!seen) (*owners)[t] |= static_cast<std::uint8_t>(1u << k);
        }
  }
  std::vector<EdgeUse> uses;
  uses.reserve(3 * nt);
  for (std::size_t t = 0; t < nt; ++t)
    for (int k = 0; k < 3; ++k) {
      const std::uint64_t a = m.triangles()[t][static_cast<std::size_t>(k)];
      const std::uint64_t b = m.triangles()[t][static_cast<std::size_t>((k + 1) % 3)];
      if (a == b) continue;  // a degenerate triangle's edge of one point
      uses.push_back(
          {std::min(a, b) << 32 | std::max(a, b), static_cast<std::uint32_t>(t), static_cast<std::uint8_t>(k)});
    }
  std::sort(uses.begin(), uses.end(), [](const EdgeUse& x, const EdgeUse& y) {
    if (x.key != y.key) return x.key < y.key;
    return x.tri != y.tri ? x.tri < y.tri : x.k < y.k;  // a total order: the owner is the first use
  });
  const double cos_flat = std::cos(flat_angle);
  for (std::size_t i = 0; i < uses.size();) {
    std::size_t j = i + 1;
    while (j < uses.size() && uses[j].key == uses[i].key) ++j;
    // The edge's owner: its lowest triangle id, first in the run.
    if (owners) (*owners)[uses[i].tri] |= static_cast<std::uint8_t>(8u << uses[i].k);
    if (j - i == 2) {
      const EdgeUse& p = uses[i];
      const EdgeUse& q = uses[i + 1];
      const Vec3 np = unit_normal(m, p.tri), nq = unit_normal(m, q.tri);
      bool smooth = np != Vec3::Zero() && nq != Vec3::Zero() && std::abs(np.dot(nq)) >= cos_flat;
      // Consistent orientation: the shared edge runs in opposite directions.
      const auto& tp = m.triangles()[p.tri];
      const auto& tq = m.triangles()[q.tri];
      if (!smooth && np != Vec3::Zero() && nq != Vec3::Zero() && tp[p.k] == tq[(q.k + 1) % 3]) {
        const Vec3& far_q = m.corner(q.tri, (q.k + 2) % 3);
        const Vec3& far_p = m.corner(p.tri, (p.k + 2) % 3);
        const Vec3& on_edge = m.corner(p.tri, p.k);
        smooth = np.dot(far_q - on_edge) > 0.0 && nq.dot(far_p - on_edge) > 0.0;
      }
      if (smooth) {
        mask[p.tri] |= static_cast<std::uint8_t>(1u << p.k);
        mask[q.tri] |= static_cast<std::uint8_t>(1u << q.k);
      }
    }
    i = j;
  }
  return mask;
}

}  // namespace proxima::mesh::detail
