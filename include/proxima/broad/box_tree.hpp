// SPDX-License-Identifier: BSD-3-Clause
// An immutable bounding-volume hierarchy over axis-aligned boxes: the index
// of a scene that does not move (a robot's environment), built once and
// then asked "which boxes are near this one?" from any number of threads.
// The simulator's moving bodies use the dynamic tree (aabb_tree.hpp)
// instead, which pays for cheap updates with a mutable traversal stack.
//
// Boxes that are unbounded on some axis (a halfspace's) have no centre to
// sort by; they stay out of the hierarchy, and every query looks at them.
#pragma once

#include <cstdint>
#include <vector>

#include <proxima/core/aabb.hpp>

namespace proxima::broad {

/// Euclidean distance between two boxes, 0 when they overlap (closed
/// boxes: touching is overlapping). Unbounded boxes give 0 or a finite
/// gap, never NaN (−inf − (+inf) is −inf).
double box_gap(const Aabb& a, const Aabb& b);

class BoxTree {
 public:
  struct Node {
    Aabb box;                 ///< holds every box below
    std::uint32_t first = 0;  ///< leaf: its boxes are order()[first, first + count)
    std::uint32_t count = 0;  ///< 0 for an inner node
    std::uint32_t child = 0;  ///< inner node: children at child and child + 1
    bool leaf() const { return count > 0; }
  };

  /// An empty tree.
  BoxTree() = default;
  /// The hierarchy over `boxes` (box i is item i): median splits along the
  /// longest axis of the centres, at most `leaf_size` (≥ 1) boxes a leaf.
  /// Throws proxima::Error for an empty or NaN box.
  explicit BoxTree(std::vector<Aabb> boxes, std::uint32_t leaf_size = 4);
  /// One leaf holding every box: for a handful of boxes, asked once, where
  /// building a hierarchy costs more than looking at each.
  static BoxTree flat(std::vector<Aabb> boxes);

  std::size_t size() const { return boxes_.size(); }
  bool empty() const { return boxes_.empty(); }
  const Aabb& box(std::size_t i) const { return boxes_[i]; }
  const std::vector<Aabb>& boxes() const { return boxes_; }
  /// Node 0 is the root (when not empty).
  const std::vector<Node>& nodes() const { return nodes_; }
  /// Item indices of the bounded boxes, grouped by leaf.
  const std::vector<std::uint32_t>& order() const { return order_; }
  /// Item indices of the boxes unbounded on some axis, outside the nodes.
  const std::vector<std::uint32_t>& unbounded() const { return unbounded_; }

  /// Calls f(i) for every box i within `gap` (≥ 0) of `query`
  /// (box_gap ≤ gap; gap 0: the boxes overlap). In no particular order.
  template <class F>
  void near(const Aabb& query, double gap, F&& f) const;

 private:
  static constexpr int kMaxDepth = 60;
  void build(std::uint32_t node, std::uint32_t first, std::uint32_t count, std::uint32_t leaf_size, int depth);

  std::vector<Aabb> boxes_;
  std::vector<Node> nodes_;
  std::vector<std::uint32_t> order_;
  std::vector<std::uint32_t> unbounded_;
};

template <class F>
void BoxTree::near(const Aabb& query, double gap, F&& f) const {
  for (const std::uint32_t i : unbounded_)
    if (box_gap(query, boxes_[i]) <= gap) f(static_cast<std::size_t>(i));
  if (nodes_.empty()) return;
  // Median splits keep the depth at about log2(n / leaf_size); the build
  // caps it at kMaxDepth (deeper counts stay in a leaf): the stack holds at
  // most one pending sibling per level.
  std::uint32_t stack[kMaxDepth + 2];
  int sp = 0;
  stack[sp++] = 0;
  while (sp > 0) {
    const Node& n = nodes_[stack[--sp]];
    if (box_gap(query, n.box) > gap) continue;
    if (n.leaf()) {
      for (std::uint32_t k = n.first; k < n.first + n.count; ++k)
        if (box_gap(query, boxes_[order_[k]]) <= gap) f(static_cast<std::size_t>(order_[k]));
      continue;
    }
    stack[sp++] = n.child + 1;
    stack[sp++] = n.child;
  }
}

}  // namespace proxima::broad
