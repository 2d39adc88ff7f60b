// Contact clustering: reduce a raw contact set (thousands of mesh contacts)
// to at most k representatives (BLEM paper §3.4, ALGORITHMS.md §3).
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
/// representatives; a set already that small is left as it is. A cluster
/// becomes one contact: the mean point, the normalized mean normal (the
/// deepest member's normal if the mean vanishes), the largest depth (so a
/// merged patch is pushed apart as hard as its deepest part), the deepest
/// member's feature ids, and `intersecting` if any member has it.
/// Deterministic: the same input gives the same output, bit for bit.
/// Returns Status::invalid_input (contacts untouched) when max_contacts < 1,
/// a weight is negative or not finite, hierarchical_limit < 0, or a contact
/// has a non-finite field or one whose weighted value exceeds 1e150 (squared
/// distances would overflow).
///
/// Hierarchical: the whole average-linkage dendrogram by the
/// nearest-neighbour chain (O(N²) time, an N × N distance matrix), cut at k
/// clusters, so exactly k representatives come back. k-means: farthest-point
/// seeds from the deepest contact, at most k Lloyd iterations, stopping when
/// no assignment changes (triangle-inequality bounds after Hamerly and Elkan
/// skip only distances that cannot change an assignment, so the result is
/// that of plain Lloyd); a centre that loses all its members is dropped, and
/// seeding stops when every contact sits on a centre, so fewer than k
/// representatives may come back (always so when fewer than k contacts are
/// distinct). Ties go to the lowest index. Representatives are ordered by the
/// smallest input index among their members. A representative is not
/// weighted by its cluster's size, so unequal clusters shift the centre of
/// pressure of a uniformly pressed face (a few % of its side).
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
