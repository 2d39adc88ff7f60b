// SPDX-License-Identifier: BSD-3-Clause
#include <algorithm>

#include <proxima/broad/aabb_tree.hpp>

namespace proxima::broad {
namespace {

double area(const Aabb& b) {
  const Vec3 e = b.max - b.min;
  return 2.0 * (e.x() * e.y() + e.y() * e.z() + e.z() * e.x());
}

Aabb merged(const Aabb& a, const Aabb& b) {
  Aabb m = a;
  m.extend(b);
  return m;
}

bool contains(const Aabb& outer, const Aabb& inner) {
  return (outer.min.array() <= inner.min.array()).all() && (inner.max.array() <= outer.max.array()).all();
}

}  // namespace

int AabbTree::allocate() {
  if (!free_.empty()) {
    const int i = free_.back();
    free_.pop_back();
    node(i) = Node{};
    return i;
  }
  nodes_.emplace_back();
  return static_cast<int>(nodes_.size()) - 1;
}

void AabbTree::release(int i) {
  node(i).height = -1;
  free_.push_back(i);
}

int AabbTree::insert(const Aabb& box, double fattening, int user) {
  const int leaf = allocate();
  node(leaf).box = box.inflated(fattening);
  node(leaf).user = user;
  insert_leaf(leaf);
  ++leaf_count_;
  return leaf;
}

void AabbTree::remove(int leaf) {
  remove_leaf(leaf);
  release(leaf);
  --leaf_count_;
}

bool AabbTree::update(int leaf, const Aabb& box, double fattening) {
  if (contains(node(leaf).box, box)) return false;
  remove_leaf(leaf);
  node(leaf).box = box.inflated(fattening);
  insert_leaf(leaf);
  return true;
}

void AabbTree::insert_leaf(int leaf) {
  node(leaf).parent = -1;
  if (root_ < 0) {
    root_ = leaf;
    return;
  }
  // Descend to the sibling whose enclosing box costs least (surface area
  // heuristic: the cost of a node is the area it adds to every ancestor).
  // A copy: allocate() below may grow the node array and move the leaf.
  const Aabb lb = node(leaf).box;
  int s = root_;
  while (!node(s).leaf()) {
    const Node& n = node(s);
    const double a = area(n.box);
    const double combined = area(merged(n.box, lb));
    const double here = 2.0 * combined;           // make a new parent of s and leaf
    const double inherited = 2.0 * (combined - a);  // growth paid by s if we go deeper
    double cost[2];
    for (int k = 0; k < 2; ++k) {
      const Node& c = node(n.child[k]);
      const double grown = area(merged(c.box, lb));
      cost[k] = (c.leaf() ? grown : grown - area(c.box)) + inherited;
    }
    if (here < cost[0] && here < cost[1]) break;
    s = cost[0] <= cost[1] ? n.child[0] : n.child[1];
  }
  // New parent replaces the sibling s.
  const int old_parent = node(s).parent;
  const int p = allocate();
  node(p).parent = old_parent;
  node(p).box = merged(node(s).box, lb);
  node(p).height = node(s).height + 1;
  node(p).child[0] = s;
  node(p).child[1] = leaf;
  node(s).parent = p;
  node(leaf).parent = p;
  if (old_parent < 0) {
    root_ = p;
  } else {
    Node& op = node(old_parent);
    op.child[op.child[0] == s ? 0 : 1] = p;
  }
  refit_up(node(leaf).parent);
}

void AabbTree::remove_leaf(int leaf) {
  if (leaf == root_) {
    root_ = -1;
    return;
  }
  const int p = node(leaf).parent;
  const int g = node(p).parent;
  const int sibling = node(p).child[0] == leaf ? node(p).child[1] : node(p).child[0];
  if (g < 0) {
    root_ = sibling;
    node(sibling).parent = -1;
    release(p);
    return;
  }
  Node& gn = node(g);
  gn.child[gn.child[0] == p ? 0 : 1] = sibling;
  node(sibling).parent = g;
  release(p);
  refit_up(g);
}

void AabbTree::refit_up(int i) {
  while (i >= 0) {
    i = balance(i);
    Node& n = node(i);
    const Node& c0 = node(n.child[0]);
    const Node& c1 = node(n.child[1]);
    n.height = 1 + std::max(c0.height, c1.height);
    n.box = merged(c0.box, c1.box);
    i = n.parent;
  }
}

// If the children of internal node a differ in height by more than one,
// lift the taller child c into a's place: a keeps c's shorter grandchild,
// c keeps a and its taller grandchild. Returns the node now at a's place.
int AabbTree::balance(int a) {
  Node& an = node(a);
  if (an.leaf() || an.height < 2) return a;
  const int b = an.child[0];
  const int c = an.child[1];
  const int diff = node(c).height - node(b).height;
  if (diff > -2 && diff < 2) return a;
  const int up = diff > 0 ? c : b;      // taller child, rotated up
  const int keep = diff > 0 ? b : c;    // shorter child, stays under a
  Node& un = node(up);
  const int f = un.child[0];
  const int g = un.child[1];
  // up takes a's place under a's parent.
  un.parent = an.parent;
  if (un.parent < 0) {
    root_ = up;
  } else {
    Node& pn = node(un.parent);
    pn.child[pn.child[0] == a ? 0 : 1] = up;
  }
  an.parent = up;
  const bool f_taller = node(f).height > node(g).height;
  const int tall = f_taller ? f : g;
  const int small = f_taller ? g : f;
  un.child[0] = a;
  un.child[1] = tall;
  an.child[0] = keep;
  an.child[1] = small;
  node(small).parent = a;
  node(tall).parent = up;
  node(keep).parent = a;
  an.box = merged(node(keep).box, node(small).box);
  an.height = 1 + std::max(node(keep).height, node(small).height);
  return up;
}

void AabbTree::pairs(std::vector<std::pair<int, int>>& out) const {
  out.clear();
  for (const Node& n : nodes_) {
    if (n.height != 0 || !n.leaf()) continue;
    const int me = n.user;
    query(n.box, [&](int other) {
      if (other > me) out.emplace_back(me, other);
    });
  }
  std::sort(out.begin(), out.end());
}

}  // namespace proxima::broad
