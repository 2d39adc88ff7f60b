// SPDX-License-Identifier: BSD-3-Clause
// Bounding volume hierarchy over the triangles of a TriangleMesh.
//
// Layout: one flat array of 32-byte nodes (an axis-aligned box in floats plus
// two 32-bit words), root first, the two children of a node adjacent, leaves
// holding up to `leaf_size` triangles as a range of a permutation of the
// triangle ids. Boxes are stored relative to `origin()` (the centre of the
// mesh's bounds) and rounded outwards, so they stay tight for a mesh far from
// its frame's origin and always contain their triangles.
//
// Choices, measured with bench/mesh_bench.cpp (1M-triangle terrain, 70k
// blob; numbers in the commit message): the binned SAH split (16 bins on
// each axis) beats the median split by 1.3–1.7× on queries for 1.6× the
// build time; AABB nodes (the default) against per-node OBBs: equal or
// faster queries on both workloads (2.7× faster foot–terrain distance),
// 0.8 s instead of 3.2 s to build 1M triangles, 48 instead of 88 bytes per
// triangle with the mesh. RSS volumes beside the AABB nodes (the default,
// BvhVolume::rss): separated bunny–bunny distance 7–8× faster than
// with AABB nodes alone (2.1–2.6× faster than FCL's OBBRSS and RSS in the
// same runs), collide and tolerance unchanged (they keep the boxes), 77.8
// instead of 48.2 bytes per triangle with the mesh on the 1M terrain; the
// build takes 3.8 s there instead of 0.8 s (four passes over each node's
// corners: BvhVolume::aabb when build time matters more). The RSS is
// a parallel array of 48-byte float records rather than a rotation shared
// with an OBB (OBB nodes lose to AABBs everywhere) or a wider node (the
// collide traversal would pull 80 bytes per node through the cache for a
// box it reads 24 of). Immutable after build; copies share the data; safe
// to use from many threads at once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include <proxima/core/aabb.hpp>
#include <proxima/shape/triangle_mesh.hpp>

namespace proxima {

/// How the build splits a node's triangles.
enum class BvhSplit {
  sah,     ///< binned surface-area heuristic (16 bins per axis), the default
  median,  ///< object median on the axis of largest centroid spread
};

/// Which bounding volumes the queries use (AABB nodes are always built).
enum class BvhVolume {
  aabb,  ///< the 32-byte AABB nodes only
  /// Also an oriented box per node (principal axes of the node's vertices,
  /// 64 bytes, parallel array), used by mesh–mesh queries when both meshes
  /// have them. Tighter on smooth tilted surfaces, but measured no faster on
  /// the benchmark's workloads, 4× slower to build and 2.7× the BVH memory.
  obb,
  /// Also a rectangle swept sphere per node (RSS: a rectangle thickened by a
  /// radius, Larsen et al., "Fast proximity queries with swept sphere
  /// volumes", 1999; 48 bytes, parallel array), used by mesh–mesh distance
  /// when both meshes have them: the RSS–RSS distance is a tight lower bound
  /// on curved surfaces, where box bounds are loose (tilted boxes seen
  /// corner-on). Collide and tolerance keep the AABB nodes.
  rss,
};

struct BvhOptions {
  BvhSplit split = BvhSplit::sah;
  /// Most triangles per leaf (1..8).
  int leaf_size = 4;
  BvhVolume volume = BvhVolume::rss;
  /// Threads the build runs on: 0 (the default) every hardware thread, 1
  /// the calling thread alone (core/parallel.hpp's thread_count). The
  /// hierarchy is the same whatever the count; meshes of fewer than 8,192
  /// triangles are built on the calling thread. Throws proxima::Error
  /// naming "threads" when negative or above the limit.
  int threads = 0;
};

/// One node: box [lo, hi] relative to Bvh::origin(). `count` = 0: internal,
/// children at `index` and `index + 1`; else a leaf of `count` triangles,
/// Bvh::order()[index .. index + count).
struct BvhNode {
  float lo[3];
  float hi[3];
  std::uint32_t index;
  std::uint32_t count;
  bool leaf() const { return count != 0; }
};
static_assert(sizeof(BvhNode) == 32, "nodes are 32 bytes: two per cache line");

/// Oriented box of a node: centre + Σ_k u_k · axis_k with |u_k| ≤ half[k],
/// relative to Bvh::origin(). The float axes are orthonormal to ~1e-7; the
/// half extents are padded by more than that error, so the box contains the
/// node's triangles.
struct BvhObb {
  float axis[3][3];  ///< axis[k] is the k-th unit axis
  float center[3];
  float half[3];
  std::uint32_t pad = 0;
};
static_assert(sizeof(BvhObb) == 64, "one cache line");

/// Rectangle swept sphere of a node: the points within `radius` of the
/// rectangle centre + s · axis[0] + t · axis[1], |s| ≤ half[0], |t| ≤ half[1],
/// relative to Bvh::origin(). The float axes are orthonormal only to ~1e-7:
/// the rectangle is the parallelogram they span, and the radius is measured
/// (in double, from each vertex to a point of that parallelogram) so the
/// volume contains the node's triangles. The normal is not stored: the
/// distance bound does not need it beyond a cross product.
struct BvhRss {
  float center[3];
  float axis[2][3];
  float half[2];
  float radius;
};
static_assert(sizeof(BvhRss) == 48, "48 bytes: 12 floats");

/// Called with the share of a BVH build done, from 0 to 1, non-decreasing:
/// about a hundred times over the split into leaves, then once after the
/// bounding-volume fits and once at the end (1), fewer times when threads
/// share the split. Called on the thread that called the constructor, never
/// on the build's other threads; it must not throw. For programs that show a progress line while a
/// large mesh is prepared (a million triangles take seconds); the library
/// itself prints nothing.
using BvhProgress = std::function<void(double fraction)>;

class Bvh {
 public:
  /// Builds the hierarchy (the mesh is shared, not copied), reporting to
  /// `progress` (empty: none) on the way. Throws proxima::Error for a leaf
  /// size outside 1..8.
  explicit Bvh(TriangleMesh mesh, const BvhOptions& options = {}, const BvhProgress& progress = {});

  const TriangleMesh& mesh() const { return data_->mesh; }
  /// Root is nodes()[0].
  const std::vector<BvhNode>& nodes() const { return data_->nodes; }
  /// One per node when built with BvhVolume::obb, else empty.
  const std::vector<BvhObb>& obbs() const { return data_->obbs; }
  /// One per node when built with BvhVolume::rss, else empty.
  const std::vector<BvhRss>& rss() const { return data_->rss; }
  /// Triangle ids in leaf order.
  const std::vector<std::uint32_t>& order() const { return data_->order; }
  /// Node boxes are relative to this point of the mesh frame.
  const Vec3& origin() const { return data_->origin; }
  /// Node i's box in the mesh frame (double).
  Aabb node_box(std::size_t i) const;
  /// Deepest leaf (root = depth 0); traversal stacks are sized from it.
  int depth() const { return data_->depth; }
  /// Bytes of the hierarchy (nodes + oriented boxes or RSSs + order).
  std::size_t bvh_bytes() const;
  /// Bytes of the hierarchy plus the mesh's vertex and triangle arrays.
  std::size_t total_bytes() const;
  /// Seconds the build took (wall clock).
  double build_seconds() const { return data_->build_seconds; }
  /// The options it was built with: Bvh(mesh(), options()) builds the same
  /// hierarchy again (the Python module rebuilds an unpickled Bvh so).
  const BvhOptions& options() const { return data_->options; }
  /// Per triangle, bit k set when edge k (corner k to corner k + 1) lies in a
  /// smooth stretch of the surface: shared with one other triangle in the
  /// same plane (within 1e-3 rad) or folding concavely with a consistently
  /// oriented one. Mesh–convex contacts whose cores intersect there take the
  /// face's normal (mesh_contacts.hpp).
  const std::vector<std::uint8_t>& smooth_edges() const { return data_->smooth_edges; }
  /// Per triangle, bit k set when it has the lowest id among the triangles
  /// holding corner k's vertex, bit 3 + k when among those holding edge k:
  /// the triangle through which feature-pair contacts (mesh_contacts.hpp,
  /// MeshContactOptions::feature_pairs) take that vertex or edge, so that
  /// each is tested once.
  const std::vector<std::uint8_t>& feature_owners() const { return data_->feature_owners; }

 private:
  struct Data {
    TriangleMesh mesh;
    std::vector<BvhNode> nodes;
    std::vector<BvhObb> obbs;
    std::vector<BvhRss> rss;
    std::vector<std::uint32_t> order;
    Vec3 origin = Vec3::Zero();
    int depth = 0;
    double build_seconds = 0.0;
    BvhOptions options;
    std::vector<std::uint8_t> smooth_edges;
    std::vector<std::uint8_t> feature_owners;
  };
  std::shared_ptr<const Data> data_;
};

}  // namespace proxima
