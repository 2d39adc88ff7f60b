// SPDX-License-Identifier: BSD-3-Clause
#include <proxima/broad/box_tree.hpp>

#include <algorithm>
#include <cmath>
#include <string>

#include <proxima/core/error.hpp>

namespace proxima::broad {

double box_gap(const Aabb& a, const Aabb& b) {
  double s = 0.0;
  for (int i = 0; i < 3; ++i) {
    const double g = std::max({0.0, a.min[i] - b.max[i], b.min[i] - a.max[i]});
    s += g * g;
  }
  return std::sqrt(s);
}

namespace {

// Sorts the items into the hierarchy (bounded) or beside it, after checking
// every box: a NaN or empty box would be near nothing or everything.
void check_and_split(const std::vector<Aabb>& boxes, std::vector<std::uint32_t>& bounded,
                     std::vector<std::uint32_t>& unbounded) {
  for (std::size_t i = 0; i < boxes.size(); ++i) {
    const Aabb& b = boxes[i];
    if (b.min.hasNaN() || b.max.hasNaN()) throw Error("box tree: box " + std::to_string(i) + " is NaN");
    if (b.empty()) throw Error("box tree: box " + std::to_string(i) + " is empty");
    const bool finite = b.min.allFinite() && b.max.allFinite();
    (finite ? bounded : unbounded).push_back(static_cast<std::uint32_t>(i));
  }
}

}  // namespace

BoxTree::BoxTree(std::vector<Aabb> boxes, std::uint32_t leaf_size) : boxes_(std::move(boxes)) {
  if (leaf_size == 0) throw Error("box tree: leaf size must be at least 1");
  check_and_split(boxes_, order_, unbounded_);
  if (order_.empty()) return;
  nodes_.reserve(2 * order_.size() / leaf_size + 1);
  nodes_.emplace_back();
  build(0, 0, static_cast<std::uint32_t>(order_.size()), leaf_size, 0);
}

BoxTree BoxTree::flat(std::vector<Aabb> boxes) {
  BoxTree t;
  t.boxes_ = std::move(boxes);
  check_and_split(t.boxes_, t.order_, t.unbounded_);
  if (t.order_.empty()) return t;
  Node root;
  for (const std::uint32_t i : t.order_) root.box.extend(t.boxes_[i]);
  root.count = static_cast<std::uint32_t>(t.order_.size());
  t.nodes_.push_back(root);
  return t;
}

void BoxTree::build(std::uint32_t node, std::uint32_t first, std::uint32_t count, std::uint32_t leaf_size, int depth) {
  Aabb box, centres;
  for (std::uint32_t k = first; k < first + count; ++k) {
    const Aabb& b = boxes_[order_[k]];
    box.extend(b);
    centres.extend(b.center());
  }
  nodes_[node].box = box;
  const Vec3 extent = centres.max - centres.min;
  int axis = 0;
  extent.maxCoeff(&axis);
  // Coincident centres cannot be split by position: they stay one leaf.
  if (count <= leaf_size || depth >= kMaxDepth || !(extent[axis] > 0.0)) {
    nodes_[node].first = first;
    nodes_[node].count = count;
    return;
  }
  const std::uint32_t half = count / 2;
  const auto begin = order_.begin() + first;
  std::nth_element(begin, begin + half, begin + count, [&](std::uint32_t x, std::uint32_t y) {
    return boxes_[x].min[axis] + boxes_[x].max[axis] < boxes_[y].min[axis] + boxes_[y].max[axis];
  });
  const auto child = static_cast<std::uint32_t>(nodes_.size());
  nodes_[node].child = child;
  nodes_.emplace_back();
  nodes_.emplace_back();
  build(child, first, half, leaf_size, depth + 1);
  build(child + 1, first + half, count - half, leaf_size, depth + 1);
}

}  // namespace proxima::broad
