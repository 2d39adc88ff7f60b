// SPDX-License-Identifier: BSD-3-Clause
// The feature-pair raw set of mesh–mesh contacts (MeshContactOptions::
// feature_pairs): each vertex–face and edge–edge pair of the two meshes
// within the layers, computed once, kept when its witnesses are mutually
// nearest. The triangle pairs within the layers (the traversal's hits) are
// the candidates: a pair of features lies in every hit whose triangles hold
// both, and the hit of the features' owning triangles (Bvh::feature_owners)
// computes it. Patches, crossing cores and witnesses behind a face keep the
// per-pair rules of mesh_contacts.cpp (MeshMesh::feature_emit).
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
