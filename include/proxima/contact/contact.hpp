// SPDX-License-Identifier: BSD-3-Clause
// What a contact solver sees of a touching pair: one normal and the points.
#pragma once

#include <vector>

#include <proxima/core/error.hpp>
#include <proxima/core/math.hpp>

namespace proxima {

/// One contact point. `normal` points from B to A (moving A along it
/// separates the pair); `depth` is the overlap along it at this point,
/// negative for a gap (pairs closer than ContactOptions::margin).
/// `point` lies midway between the two surfaces.
struct Contact {
  Vec3 point = Vec3::Zero();
  Vec3 normal = Vec3::UnitZ();
  double depth = 0.0;
  int feature_a = -1;  ///< triangle id on a mesh A, else −1
  int feature_b = -1;  ///< triangle id on a mesh B, else −1
  /// Mesh contacts (BLEM): the meshes themselves intersect here, not only
  /// their boundary layers, so the normal is the shortest retraction of one
  /// triangle pair and need not agree with its neighbours' (paper Fig. 6).
  /// A simulator may treat such contacts with suspicion.
  bool intersecting = false;
};

/// The contact manifold of one pair. Reuse one ContactSet across queries:
/// `points` keeps its capacity, so steady-state queries do not allocate.
struct ContactSet {
  Status status = Status::ok;
  /// Signed distance of the pair (negative when overlapping) and its normal
  /// (B→A); every point carries the same normal for a convex pair. Unless
  /// bound_exceeded: then a proven lower bound on the distance, above the
  /// margin, and the search's last direction.
  double distance = 0.0;
  Vec3 normal = Vec3::UnitZ();
  /// The pair was proven farther apart than the margin before its distance
  /// converged (the search stops there: 1.3–4× cheaper on such pairs than
  /// measuring them): no points, and `distance` is a lower bound, not the
  /// distance. Ask signed_distance for the distance itself. Mesh pairs
  /// without a contact: nothing within the layers and the margin, and
  /// `distance` is the margin, likewise a lower bound.
  bool bound_exceeded = false;
  std::vector<Contact> points;

  bool empty() const { return points.empty(); }
  std::size_t size() const { return points.size(); }
};

struct ContactOptions {
  /// Report pairs whose signed distance is ≤ margin (≥ 0), with negative
  /// depths for the gaps, so that a time stepper sees contacts before they
  /// touch.
  double margin = 0.0;
  /// A vertex belongs to a body's contact feature when it lies within
  /// feature_tolerance · L of the body's extreme plane along the normal (L:
  /// the larger extent of the two bodies). The paper's floating-point zero
  /// tolerance; a body tilted by less than about this angle keeps its whole
  /// face in contact, which keeps a resting box on four points instead of
  /// rocking between edges. Per-point depths stay exact, so the extra points
  /// of a slightly tilted face report their small gaps.
  double feature_tolerance = 1e-6;
  /// A cylinder or cone cap resting flat is the regular polygon of this many
  /// rim points (inscribed in the rim), clipped against the other feature.
  int disc_points = 12;
  /// 0: no reduction (the default). Otherwise keep at most this many points:
  /// the deepest, then those that maximize the area they span. Reduction
  /// breaks the guarantee of Contact data for convex polyhedra that non-negative normal velocities at
  /// all points imply a non-decreasing signed distance, since the dropped
  /// vertices of the contact polygon are no longer checked.
  int max_points = 0;
};

}  // namespace proxima
