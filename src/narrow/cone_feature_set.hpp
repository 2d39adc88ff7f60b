// SPDX-License-Identifier: BSD-3-Clause
// The sets of the coherence certificate in both cone-pruned SATs
// (sat_segment.cpp, sat_polytope_box.cpp): the leaves a collecting walk
// reaches and the features under them, the lowest few kept and the rest
// raising the floor; and a walk over the kept features.
#pragma once

#include <algorithm>
#include <cstddef>

#include <proxima/narrow/sat.hpp>
#include <proxima/shape/convex_polytope.hpp>

namespace proxima::narrow::detail {

/// Offers `item` of value `v` to the set of `count` items (values in
/// `values`, at most `capacity`) below `floor`. A value not below the floor
/// is refused; when the set is full, the largest of its values and `v`
/// leaves it and becomes the floor. So every item offered and not kept has
/// its value ≥ the floor. True when `item` is kept.
template <class Item>
bool keep_lowest(double* values, Item* items, int& count, int capacity, double& floor, double v, const Item& item) {
  if (!(v < floor)) return false;
  if (count < capacity) {
    values[count] = v;
    items[count++] = item;
    return true;
  }
  int worst = 0;
  for (int i = 1; i < count; ++i) worst = values[i] > values[worst] ? i : worst;
  if (v >= values[worst]) {
    floor = v;
    return false;
  }
  floor = values[worst];
  values[worst] = v;
  items[worst] = item;
  return true;
}

/// Calls face(k) for each kept face (k in cone_faces) of `set`, and
/// edge(c, k, n0, n1) for each kept edge (k in cone_edges, under leaf c,
/// between faces of normals n0 and n1).
template <class Face, class Edge>
void visit_features(const PolytopeData& d, const ConeFeatures& set, Face&& face, Edge&& edge) {
  const int n = std::clamp(set.count, 0, ConeFeatures::kMax);
  for (int i = 0; i < n; ++i) {
    const ConeFeatures::Feature& f = set.item[i];
    if (f.index >= 0) {
      face(f.index);
      continue;
    }
    const NormalCone& c = d.cones[static_cast<std::size_t>(f.leaf)];
    const ConeEdge& e = d.cone_edges[static_cast<std::size_t>(-1 - f.index)];
    edge(c, -1 - f.index, d.cone_faces[static_cast<std::size_t>(c.face_begin + e.owner)].normal, e.other_normal);
  }
}

}  // namespace proxima::narrow::detail
