// SPDX-License-Identifier: BSD-3-Clause
// The sets of the coherence certificate in both cone-pruned SATs
// (sat_segment.cpp, sat_polytope_box.cpp): the leaves a collecting walk
// reaches and the features under them, the lowest few kept and the rest
// raising the floor; and a walk over the kept features.
#pragma once

#include <algorithm>
#include <cmath>
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

/// The kept features and their values (`value`, as keep_lowest left them)
/// into `out` in ascending order of value.
inline void sort_features(const double* value, ConeFeatures& out) {
  const int n = std::clamp(out.count, 0, ConeFeatures::kMax);
  int order[ConeFeatures::kMax];
  for (int i = 0; i < n; ++i) order[i] = i;
  std::stable_sort(order, order + n, [&](int x, int y) { return value[x] < value[y]; });
  ConeFeatures::Feature item[ConeFeatures::kMax];
  for (int i = 0; i < n; ++i) item[i] = out.item[order[i]];
  for (int i = 0; i < n; ++i) {
    out.item[i] = item[i];
    out.value[i] = value[order[i]];
  }
}

/// Calls face(k) for each kept face (k in cone_faces) of `set`, and
/// edge(c, k, n0, n1) for each kept edge (k in cone_edges, under leaf c,
/// between faces of normals n0 and n1), in ascending order of their
/// values, until `beaten(v)` for a feature of value v: that one and every
/// later one (of values ≥ v) can give no facet below what was found.
template <class Face, class Edge, class Beaten>
void visit_features(const PolytopeData& d, const ConeFeatures& set, Face&& face, Edge&& edge, Beaten&& beaten) {
  const int n = std::clamp(set.count, 0, ConeFeatures::kMax);
  for (int i = 0; i < n; ++i) {
    if (beaten(set.value[i])) return;
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

/// A feature of value v (collected with Q's points where they were) after
/// they moved by at most `moved`: its facets are at least v − moved, so it
/// cannot beat `best` when that is ≥ best. The slack (1e-9 of the lengths,
/// far above the rounding of the values) keeps a rounding of its value at
/// the new pose from ever being below best.
inline bool cannot_beat(double v, double moved, double best) {
  return v - moved - 1e-9 * (1.0 + std::abs(v)) >= best;
}

}  // namespace proxima::narrow::detail
