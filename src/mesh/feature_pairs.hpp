// SPDX-License-Identifier: BSD-3-Clause
// The feature-pair raw set of mesh–mesh contacts (MeshContactOptions::
// feature_pairs): each vertex–face and edge–edge pair of the two meshes
// within the layers, computed once, kept when its witnesses are mutually
// nearest. The triangle pairs within the layers (the traversal's hits) are
// the candidates: a pair of features lies in every hit whose triangles hold
// both, and one of those hits owns it (below). Patches, crossing cores and
// witnesses behind a face keep the per-pair rules of mesh_contacts.cpp; a
// feature pair in a hit of theirs is theirs ("covered").
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include <proxima/shape/triangle_mesh.hpp>

#include "contact_common.hpp"

namespace proxima::mesh::contact_detail {

inline std::uint64_t edge_key(std::uint32_t u, std::uint32_t v) {
  return u < v ? (std::uint64_t(u) << 32 | v) : (std::uint64_t(v) << 32 | u);
}

// Hits grouped by their triangle's slot (counting sort): group k is
// members[k ? end[k − 1] : 0, end[k]).
inline void group_hits(const std::vector<PairHit>& hits, bool on_a, std::size_t groups,
                       std::vector<std::uint32_t>& members, std::vector<std::uint32_t>& end) {
  end.assign(groups + 1, 0);
  for (const PairHit& h : hits) ++end[(on_a ? h.sa : h.sb) + 1];
  for (std::size_t k = 1; k <= groups; ++k) end[k] += end[k - 1];
  members.resize(hits.size());
  for (std::size_t i = 0; i < hits.size(); ++i) members[end[on_a ? hits[i].sa : hits[i].sb]++] = std::uint32_t(i);
  // end[k] is now where group k ends.
}

// Ownership within one group: the hits that share B's triangle (`other_is_b`,
// group by B's slot) pair A's vertices with that face and A's edges with its
// edges. A vertex (edge) of A lies in several of the group's triangles of A;
// of those hits the one with the lowest triangle id owns it, so that the
// pair is computed once. Every hit holding a vertex–face pair is in the
// face's group; an edge–edge pair's hits are the two edges' triangles
// crossed, and the lexicographically lowest (A's id, then B's) of them is
// lowest in both its groups, so each pair has an owner (two, where a
// solids' rule left out one of the crossed hits: the witnesses' merge then
// takes the copy). A run holding a covering hit owns nothing.
// `ids`: the vertex ids of the other mesh's triangles by cache slot.
inline void mark_owners(const std::vector<PairHit>& hits, const std::uint32_t* member, std::size_t n, bool group_of_b,
                        const std::vector<TriangleIndices>& ids, FeatureBuffers& buf) {
  std::vector<FeatureEntry>& vs = buf.vertices;
  std::vector<FeatureEntry>& es = buf.edges;
  vs.clear();
  es.clear();
  for (std::size_t i = 0; i < n; ++i) {
    const PairHit& h = hits[member[i]];
    const std::uint32_t tri = group_of_b ? h.ia : h.ib;
    const TriangleIndices& t = ids[group_of_b ? h.sa : h.sb];
    for (std::uint8_t k = 0; k < 3; ++k) {
      vs.push_back({t[k], tri, member[i], k});
      es.push_back({edge_key(t[k], t[(k + 1) % 3]), tri, member[i], k});
    }
  }
  auto by_key = [](const FeatureEntry& x, const FeatureEntry& y) {
    return x.key != y.key ? x.key < y.key : x.tri < y.tri;
  };
  auto runs = [&](std::vector<FeatureEntry>& list, bool vertex) {
    std::sort(list.begin(), list.end(), by_key);
    for (std::size_t i = 0; i < list.size();) {
      std::size_t j = i;
      bool covered = false;
      for (; j < list.size() && list[j].key == list[i].key; ++j) covered = covered || buf.hit[list[j].hit].covers;
      if (!covered) {
        FeatureHit& f = buf.hit[list[i].hit];
        const auto bit = static_cast<std::uint8_t>(1u << list[i].corner);
        if (group_of_b)
          (vertex ? f.own_va : f.own_ea) |= bit;
        else
          (vertex ? f.own_vb : f.own_eb) |= bit;
      }
      i = j;
    }
  };
  runs(vs, true);
  runs(es, false);
}

// Removes copies from `found` (the same contact found through different
// features: an edge–edge pair whose witness is an edge's end, found once
// per edge there, or a vertex over a face within rounding of its edge, both
// mutually nearest within the test's tolerance): witnesses within
// 1e-9 scale + 1e-4 distance of each other on both sides. Sorts `found`
// along A's witness's x (then by hit, so the order is the traversal's
// within ties) and keeps the first of each copy set.
inline void merge_copies(std::vector<FeatureWitness>& found, double scale) {
  if (found.size() < 2) return;
  std::sort(found.begin(), found.end(), [](const FeatureWitness& x, const FeatureWitness& y) {
    return x.a.x() != y.a.x() ? x.a.x() < y.a.x() : x.hit < y.hit;
  });
  double widest = 0.0;
  for (const FeatureWitness& w : found) widest = std::max(widest, w.distance);
  const double reach = 1e-9 * scale + 1e-4 * widest;
  std::size_t kept = 0;
  for (std::size_t i = 0; i < found.size(); ++i) {
    const FeatureWitness& w = found[i];
    const double tol = 1e-9 * scale + 1e-4 * w.distance;
    bool copy = false;
    for (std::size_t j = kept; j-- > 0 && !copy;) {
      if (found[j].a.x() < w.a.x() - reach) break;
      copy = (found[j].a - w.a).squaredNorm() <= tol * tol && (found[j].b - w.b).squaredNorm() <= tol * tol;
    }
    if (!copy) found[kept++] = w;
  }
  found.resize(kept);
}

}  // namespace proxima::mesh::contact_detail
