// SPDX-License-Identifier: BSD-3-Clause
// Mesh queries: mesh–mesh, mesh–convex (any proxima::Shape, halfspace
// included) collide, distance and tolerance, through the meshes' BVHs.
//
// Geometry: a mesh is the union of its triangles ⊕ ball(margin); it is a
// surface, not a solid, even when closed. So the distance from a mesh to
// something inside a closed mesh is the distance to the surface (positive),
// and "collide" means the surfaces (with margins) touch, not that one body
// lies inside the other. Margins add (docs/design.md).
//
// Conventions as query.hpp: the normal points from B to A; point_a on A,
// point_b on B, world frame; queries never throw and never return NaN; a
// non-finite pose gives Status::invalid_input.
//
// Exactness: with zero margins, collide is decided by the exact
// triangle–triangle predicate (touching counts). Distance is the exact
// minimum over triangle pairs (mesh–mesh, closed form per pair), or over
// triangles of GJK's triangle–convex distance (mesh–convex, GJK tolerance),
// the BVH only pruning pairs that provably cannot beat the best so far.
#pragma once

#include <limits>

#include <proxima/core/error.hpp>
#include <proxima/mesh/bvh.hpp>
#include <proxima/shape/shape.hpp>

namespace proxima {

/// Caller-owned warm start for repeated queries of one pair: the last closest
/// (or colliding) triangle pair. A colliding pair ends collide and tolerance
/// at once. Distance seeds its upper bound with it: the traversal goes best
/// first and expands only nodes bounded below the answer anyway, so the seed
/// saves mostly leaf work (mesh–convex: GJK stops sooner on each triangle).
struct MeshCache {
  std::int64_t triangle_a = -1;
  std::int64_t triangle_b = -1;  ///< −1 for mesh–convex
};

/// How a node pair of two meshes is bounded (mesh–mesh only).
enum class NodeTest {
  /// Oriented boxes: the nodes' own OBBs when both BVHs were built with
  /// them (BvhVolume::obb), else the AABB nodes as oriented boxes in the
  /// other's frame; bounded along the face axes of both boxes. Distance
  /// uses the nodes' rectangle swept spheres instead when both BVHs have
  /// them (BvhVolume::rss, the default build). The default.
  obb,
  /// AABB nodes, B's re-boxed in A's frame (|R| h rule), then AABB–AABB.
  /// Kept for measurement: it prunes far less for rotated meshes.
  aabb,
};

struct MeshRequest {
  MeshCache* cache = nullptr;
  NodeTest node_test = NodeTest::obb;
};

struct MeshCollideResult {
  Status status = Status::ok;
  bool collide = false;
  std::int64_t triangle_a = -1;  ///< a colliding pair when collide
  std::int64_t triangle_b = -1;  ///< −1 for mesh–convex
};

struct MeshDistanceResult {
  Status status = Status::ok;
  /// ≥ 0; 0 when the geometries (with margins) touch or overlap.
  double distance = 0.0;
  Vec3 normal = Vec3::UnitX();  ///< unit, B→A; meaningful when distance > 0
  Vec3 point_a = Vec3::Zero();  ///< world frame, on A (a common point when distance is 0)
  Vec3 point_b = Vec3::Zero();
  std::int64_t triangle_a = -1;  ///< the closest triangle of A
  std::int64_t triangle_b = -1;  ///< the closest of B (−1 for mesh–convex)
};

struct MeshToleranceResult {
  Status status = Status::ok;
  /// The distance is ≤ the tolerance (early exit at the first such pair).
  bool within = false;
  std::int64_t triangle_a = -1;  ///< a pair within the tolerance when within
  std::int64_t triangle_b = -1;
};

/// Do meshes A and B (with margins) touch?
MeshCollideResult collide(const Bvh& a, const Transform& pose_a, const Bvh& b, const Transform& pose_b,
                          const MeshRequest& request = {});
/// Distance between meshes A and B with witness points and triangle ids.
MeshDistanceResult distance(const Bvh& a, const Transform& pose_a, const Bvh& b, const Transform& pose_b,
                            const MeshRequest& request = {});
/// Is the distance between A and B at most `tolerance` (≥ 0)? Cheaper than
/// distance: stops at the first pair within it and prunes everything farther.
/// A negative or non-finite tolerance gives Status::invalid_input.
MeshToleranceResult tolerance(const Bvh& a, const Transform& pose_a, const Bvh& b, const Transform& pose_b,
                              double tolerance, const MeshRequest& request = {});

/// Mesh A against a convex shape or a halfspace B (with margins).
MeshCollideResult collide(const Bvh& a, const Transform& pose_a, const Shape& b, const Transform& pose_b,
                          const MeshRequest& request = {});
MeshDistanceResult distance(const Bvh& a, const Transform& pose_a, const Shape& b, const Transform& pose_b,
                            const MeshRequest& request = {});
MeshToleranceResult tolerance(const Bvh& a, const Transform& pose_a, const Shape& b, const Transform& pose_b,
                              double tolerance, const MeshRequest& request = {});

}  // namespace proxima
