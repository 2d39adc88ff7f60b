// SPDX-License-Identifier: BSD-3-Clause
// Contact generation for triangle soups with boundary layers (BLEM, Hauser
// 2013): a mesh is its triangles ⊕ ball(margin), and every
// triangle pair (or triangle–convex pair) whose cores are within the sum of
// the margins is a contact. In that regime the closest points are unique and
// change continuously with the pose, which is what keeps a simulator from
// jittering on open, thin and noisy meshes.
//
// Per pair within r_A + r_B (+ options.margin), with closest points x_A, x_B
// at core distance d > 0:
//   normal n = (x_A − x_B)/d (B→A), depth = r_A + r_B − d,
//   point = (x_A + x_B)/2 + n (r_B − r_A)/2, midway through the overlap.
// When both triangles face each other within options.patch_angle of the
// contact plane (faces or edges lying on each other), the closest points are
// not unique; the pair then gives the vertices of the intersection of its
// two facing features projected on the contact plane (as Contact data for convex polyhedra, §IV-E does
// for convex pairs), each with its own depth, so that a face resting on a
// face is supported over its whole area rather than at one arbitrary corner.
// When the cores intersect (d = 0), the pair falls back to the triangle
// pair's shortest retraction (exact separating-axis depth of the two
// triangles); such contacts carry Contact::intersecting. Between closed,
// oriented meshes the direction is instead the shortest that clears every
// crossing pair around it on a flat or convex stretch of both surfaces, and
// the contacts sit at the ends of the crossing; without layers, such meshes
// are read as solids' surfaces: faces side by side (outward normals the same
// way) and pairs that do not face each other are no contacts, and a witness
// behind a face with crossing pairs around leaves the contact to them.
//
// Pairs whose overlap lies inside a neighbouring triangle's layer are
// dropped (options.drop_shadowed), an addition to the paper.
//
// The raw set has a contact per pair (an edge on an edge gives four copies);
// with options.cluster its coincident copies are merged and it is reduced to
// at most options.clustering.max_contacts (contact/cluster.hpp). With
// options.feature_pairs the raw set comes from feature pairs instead: each
// vertex–face and edge–edge pair once, kept when its witnesses are mutually
// nearest (an edge on an edge is one contact; no oblique pairs to drop).
#pragma once

#include <cstddef>
#include <memory>

#include <proxima/contact/cluster.hpp>
#include <proxima/contact/contact.hpp>
#include <proxima/mesh/bvh.hpp>
#include <proxima/shape/shape.hpp>

namespace proxima {

struct MeshContactOptions {
  /// Also report pairs whose core distance is within r_A + r_B + margin
  /// (negative depth): contacts before the layers touch. ≥ 0.
  double margin = 0.0;
  /// Radians, in [0, π/2): a triangle counts as lying on the contact plane
  /// when its facing feature spans a height of at most tan(patch_angle) times
  /// its longest edge. 0.01 keeps a resting face's patch up to about 0.6°.
  double patch_angle = 0.01;
  /// Drop "shadowed" pairs: a pair whose witness point on A is closer to
  /// another triangle of B within the layers than to its partner (or the
  /// same from B's side; against a convex shape, the shape's witness closer
  /// to another triangle of A). The body is the union of the fattened
  /// triangles, and such a pair's overlap lies inside a neighbour's layer:
  /// without the test, two coplanar triangles of B sharing an edge give
  /// every triangle of A near that edge an oblique contact in the middle of
  /// a flat face (the paper keeps these; clustering then mixes them in).
  /// Off: every pair within the layers, as in the paper.
  bool drop_shadowed = true;
  /// The raw set from feature pairs instead of triangle pairs: each
  /// vertex–face and edge–edge pair of the two meshes within the layers is
  /// computed once (a vertex or an edge shared by several triangles is not
  /// tested once per triangle), and kept only when its witnesses are
  /// mutually nearest: A's is the closest point of A's triangles within the
  /// layers to B's, and B's of B's to A's. An edge on an edge then gives one
  /// contact instead of four, and the oblique pairs the shadow test drops
  /// are none by construction (drop_shadowed does not apply). Pairs whose
  /// triangles lie on each other within patch_angle keep their patch, and
  /// crossing cores and witnesses behind a face of closed meshes keep their
  /// rules; a feature pair held by such a triangle pair is theirs. Against a
  /// convex shape, the shape's witness against each triangle: a triangle's
  /// pair is kept when the shape's witness is not nearer to another triangle
  /// (the shadow test, which is the mutual test there: the shape's witness
  /// is its closest point to the triangle's), and a witness on a vertex or
  /// an edge shared by several triangles gives one contact (face-on-face
  /// patches excepted). Off: the paper's rule, one contact per triangle pair.
  bool feature_pairs = false;
  /// Against a convex shape, with drop_shadowed (both leave the paper's raw
  /// set): a triangle whose witness lies inside it or on edges shared with
  /// coplanar or concave neighbours only (Bvh::smooth_edges), but whose
  /// normal is not the face's (intersecting cores, or a gap measured
  /// sideways to a coplanar neighbour), gives its contact along the face's
  /// normal, or none where the shape is not over it: a box then slides over
  /// a triangulated floor as over one face instead of catching on the
  /// internal edges.
  bool smooth_edge_normals = true;
  /// Before clustering, reduce each flat patch (contacts sharing a normal and
  /// a plane) to its hull vertices (contact/patch_hull.hpp, tolerance 1e-5
  /// of the meshes' size): exact for a rigid pair, and it drops the interior
  /// points (diagonal crossings) that jump under tiny rotations. Applies
  /// only with `cluster`; the raw set stays the paper's.
  bool patch_hulls = true;
  /// Reduce the raw contacts to at most clustering.max_contacts.
  bool cluster = true;
  ClusterOptions clustering;
  /// Profiling only: traverse the BVHs and count the candidate pairs, but do
  /// not test triangles (no contacts). Splits the time of a query into
  /// traversal and triangle tests.
  bool traverse_only = false;
};

/// What one query did, for benchmarks and tests.
struct MeshContactStats {
  std::size_t node_pairs = 0;       ///< bounding-volume pairs visited
  std::size_t triangle_tests = 0;   ///< triangle (or triangle–convex) pairs tested
  std::size_t pairs_within = 0;     ///< pairs within the layers
  std::size_t shadowed = 0;         ///< pairs within the layers dropped as shadowed (feature_pairs: not mutually nearest)
  std::size_t feature_pairs = 0;    ///< feature_pairs: vertex–face and edge–edge pairs within the layers given the mutual test (those too far beyond their triangles' distance to pass it are ruled out first, uncounted)
  std::size_t raw_contacts = 0;     ///< contacts before clustering
  std::size_t intersecting = 0;     ///< raw contacts from intersecting cores
};

/// Working memory of mesh–mesh and mesh–convex queries: the triangle pairs
/// within the layers and the triangles they touch. Reuse one across queries
/// (as a ContactSet is reused for the output) and steady-state queries do not
/// allocate; the overload without one makes its own per call. One thread at
/// a time.
class MeshContactScratch {
 public:
  MeshContactScratch();
  ~MeshContactScratch();
  MeshContactScratch(MeshContactScratch&&) noexcept;
  MeshContactScratch& operator=(MeshContactScratch&&) noexcept;

 private:
  struct Buffers;
  std::unique_ptr<Buffers> buffers_;
  friend void mesh_contacts(const Bvh&, const Transform&, const Bvh&, const Transform&, const MeshContactOptions&,
                            ContactSet&, MeshContactScratch&, MeshContactStats*);
  friend void mesh_contacts(const Bvh&, const Transform&, const Shape&, const Transform&, const MeshContactOptions&,
                            ContactSet&, MeshContactScratch&, MeshContactStats*);
};

/// BLEM contacts between meshes A and B (margins are the meshes' own,
/// TriangleMesh::margin()). `out.points` holds the (clustered) contacts,
/// `out.distance` the smallest core distance minus the margins (negative
/// inside the layers) and `out.normal` the normal of that pair; empty points
/// when no pair is within reach. Never throws and never returns NaN: a
/// non-finite pose or bad options give Status::invalid_input and no points.
void mesh_contacts(const Bvh& a, const Transform& pose_a, const Bvh& b, const Transform& pose_b,
                   const MeshContactOptions& options, ContactSet& out, MeshContactStats* stats = nullptr);
/// The same, with `scratch`'s memory instead of the call's own.
void mesh_contacts(const Bvh& a, const Transform& pose_a, const Bvh& b, const Transform& pose_b,
                   const MeshContactOptions& options, ContactSet& out, MeshContactScratch& scratch,
                   MeshContactStats* stats = nullptr);

/// Mesh A against a convex shape or a halfspace B; B's margin (its core
/// inflation, margin included) is its boundary layer. Against a halfspace
/// every mesh vertex within reach is a contact (the plane's normal is the
/// normal), the exact support of a polyhedral surface resting on a plane.
void mesh_contacts(const Bvh& a, const Transform& pose_a, const Shape& b, const Transform& pose_b,
                   const MeshContactOptions& options, ContactSet& out, MeshContactStats* stats = nullptr);
/// The same, with `scratch`'s memory (the pairs awaiting the shadow test)
/// instead of the call's own.
void mesh_contacts(const Bvh& a, const Transform& pose_a, const Shape& b, const Transform& pose_b,
                   const MeshContactOptions& options, ContactSet& out, MeshContactScratch& scratch,
                   MeshContactStats* stats = nullptr);

}  // namespace proxima
