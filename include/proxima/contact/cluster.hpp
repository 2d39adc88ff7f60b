// SPDX-License-Identifier: BSD-3-Clause
// Contact clustering: reduce a raw contact set (thousands of mesh contacts)
// to at most k representatives (BLEM paper §3.4).
#pragma once

#include <vector>

#include <proxima/contact/contact.hpp>
#include <proxima/core/error.hpp>

namespace proxima {

/// Each contact is a point of a 7-D space (point, normal, depth) with the
/// metric d² = (wp |Δpoint|)² + (wn |Δnormal|)² + (wd Δdepth)².
struct ClusterOptions {
  /// At most this many contacts per body pair (≥ 1). The paper used 50 on a
  /// robot and 20 on an object.
  int max_contacts = 20;
  /// Weight of the point axes (1/m: distances count as they are).
  double point_weight = 1.0;
  /// Weight of the normal axes, in metres per unit of |Δnormal|: with 0.05,
  /// two contacts at one point whose normals differ by 90° (|Δn| = √2) are as
  /// far apart as two contacts 7 cm apart with the same normal, so an edge's
  /// two faces are not merged before the points of a patch are.
  double normal_weight = 0.05;
  /// Weight of the depth axis (1: depths count as distances).
  double depth_weight = 1.0;
  /// Up to this many contacts, hierarchical clustering with average linkage
  /// (O(N²) time and memory); above it, k-means (O(k N s), s ≤ k
  /// iterations) with a deterministic farthest-point initialization.
  int hierarchical_limit = 256;
};

/// Replaces `contacts` by at most options.max_contacts cluster
/// representatives. A cluster becomes one contact: the mean point, the
/// normalized mean normal (the deep member's normal, below, if the mean
/// vanishes), the largest depth (so a merged patch is pushed apart as hard
/// as its deepest part), the feature ids of one deep member (below), and
/// `intersecting` if any member has it.
/// Deterministic: the same input gives the same output, bit for bit.
/// Returns Status::invalid_input (contacts untouched) when max_contacts < 1,
/// a weight is negative or not finite, hierarchical_limit < 0, or a contact
/// has a non-finite field or one whose weighted value exceeds 1e150 (squared
/// distances would overflow).
///
/// Tolerance: tol = 1e-4 × the extent of the set (the diagonal of the
/// bounding box of the weighted 7-D vectors).
///
/// Coincident contacts first, always: contacts connected by a chain of
/// steps of at most tol in the 7-D metric (the four copies of an edge–edge
/// contact, patch vertices shared by neighbouring triangle pairs, and the
/// near-copies a 1e-6 pose change splits those into) are merged by the
/// cluster rule into one contact, which then counts once. Only if more than
/// max_contacts distinct contacts remain are they clustered; otherwise the
/// distinct ones come back (a set with no coincident contacts and at most
/// max_contacts is left as it is).
///
/// Near-ties are ties: depths, distances and merge heights within tol of
/// each other are decided by a canonical rule, not by their last bits, so
/// that a tiny perturbation of a symmetric set (a face resting on a grid,
/// all depths equal up to rounding) does not change the partition. The
/// canonical order is lexicographic on the weighted (point, normal, depth),
/// coordinates within tol of each other counting as equal, then the input
/// index; the "canonical first" of some contacts is the first in it.
///
/// Hierarchical: the whole average-linkage dendrogram by the
/// nearest-neighbour chain (O(N²) time, an N × N distance matrix) over the
/// contacts in canonical order, cut at k clusters, so exactly k
/// representatives come back. A nearest neighbour within tol of the nearest
/// is the chain's previous element if it qualifies, else the first in
/// canonical order; merges whose heights are within tol (chained) are cut in
/// the order the chain made them. Where no near-ties occur this is greedy
/// average linkage. k-means: the first seed is the canonical first of the
/// contacts within tol of the deepest; each next seed the canonical first of
/// those within tol of the farthest from the seeds so far; a contact joins a
/// newer seed only when nearer by more than tol; seeding stops when every
/// contact is within tol of a seed, so fewer than k representatives may come
/// back. Then at most k Lloyd iterations, each contact going to the
/// lowest-seeded centre within tol of its nearest, stopping when no
/// assignment changes (triangle-inequality bounds after Hamerly and Elkan
/// skip only distances that cannot change an assignment, so the result is
/// that of plain Lloyd with this rule); a centre that loses all its members
/// is dropped. Representatives are ordered by the smallest input index among
/// their members; the one whose feature ids (and fallback normal) a
/// representative takes is the canonical first of its members within tol of
/// the deepest.
///
/// Stability: a representative is not weighted by its cluster's size, so
/// unequal clusters shift the centre of pressure of a uniformly pressed face
/// (a few % of its side), and a contact that appears or vanishes (not a
/// copy) moves its cluster's mean and may move the partition.
Status cluster_contacts(std::vector<Contact>& contacts, const ClusterOptions& options = {});

/// The net wrench of a contact set under a linear penalty model (force
/// max(depth, 0) · normal at each point, unit stiffness), about `about`.
/// Used to measure contact stability: how much the wrench changes when the
/// pose is perturbed slightly.
struct Wrench {
  Vec3 force = Vec3::Zero();
  Vec3 torque = Vec3::Zero();
};
Wrench penalty_wrench(const std::vector<Contact>& contacts, const Vec3& about);

}  // namespace proxima
