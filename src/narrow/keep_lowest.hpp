// SPDX-License-Identifier: BSD-3-Clause
// The bounded set of the coherence certificate's collecting walks
// (sat_segment.cpp, sat_polytope_box.cpp): the leaves they reach and the
// features under them, the lowest few kept and the rest raising the floor.
#pragma once

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

}  // namespace proxima::narrow::detail
