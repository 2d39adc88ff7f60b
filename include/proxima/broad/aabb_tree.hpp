// SPDX-License-Identifier: BSD-3-Clause
// Dynamic AABB tree: the broadphase of the simulator (docs/design.md, `broad/`).
//
// Leaves hold "fat" boxes: the tight box grown by a fattening distance, so a
// body that moves a little inside its fat box costs nothing on update. A
// leaf is re-inserted only when its tight box leaves the fat one. Insertion
// descends towards the child whose box grows least in surface area (the
// cost heuristic of Goldsmith–Salmon), and the tree is kept height-balanced
// by AVL-style rotations so queries stay logarithmic when bodies are added
// in a sorted order (a stack of cubes would otherwise make a list).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include <proxima/core/aabb.hpp>

namespace proxima::broad {

class AabbTree {
 public:
  /// Inserts a leaf with tight box `box` (finite, not empty) and payload
  /// `user` (e.g. a body index); returns the leaf id, stable until removed.
  int insert(const Aabb& box, double fattening, int user);
  /// Removes a leaf returned by insert.
  void remove(int leaf);
  /// Moves a leaf to the tight box `box`. Returns true when the leaf was
  /// re-inserted (the box left its fat box), false when nothing changed.
  bool update(int leaf, const Aabb& box, double fattening);

  const Aabb& fat_box(int leaf) const { return nodes_[static_cast<std::size_t>(leaf)].box; }
  int user(int leaf) const { return nodes_[static_cast<std::size_t>(leaf)].user; }
  int size() const { return leaf_count_; }
  int height() const { return root_ < 0 ? 0 : node(root_).height + 1; }

  /// Calls f(user) for every leaf whose fat box overlaps `box`.
  template <class F>
  void query(const Aabb& box, F&& f) const;

  /// Every pair of leaves whose fat boxes overlap, as (user, user) with the
  /// first smaller, sorted; `out` is cleared and refilled.
  void pairs(std::vector<std::pair<int, int>>& out) const;

 private:
  struct Node {
    Aabb box;
    int parent = -1;
    int child[2] = {-1, -1};  // both −1 for a leaf
    int height = 0;           // 0 for a leaf; −1 on the free list
    int user = -1;
    bool leaf() const { return child[0] < 0; }
  };

  const Node& node(int i) const { return nodes_[static_cast<std::size_t>(i)]; }
  Node& node(int i) { return nodes_[static_cast<std::size_t>(i)]; }
  int allocate();
  void release(int i);
  void insert_leaf(int leaf);
  void remove_leaf(int leaf);
  /// Refits boxes and heights from i up to the root, rotating where unbalanced.
  void refit_up(int i);
  int balance(int a);

  std::vector<Node> nodes_;
  std::vector<int> free_;
  int root_ = -1;
  int leaf_count_ = 0;
  mutable std::vector<int> stack_;  // traversal scratch (no allocation once warm)
};

template <class F>
void AabbTree::query(const Aabb& box, F&& f) const {
  if (root_ < 0) return;
  stack_.clear();
  stack_.push_back(root_);
  while (!stack_.empty()) {
    const Node& n = node(stack_.back());
    stack_.pop_back();
    if (!n.box.overlaps(box)) continue;
    if (n.leaf()) {
      f(n.user);
    } else {
      stack_.push_back(n.child[0]);
      stack_.push_back(n.child[1]);
    }
  }
}

}  // namespace proxima::broad
