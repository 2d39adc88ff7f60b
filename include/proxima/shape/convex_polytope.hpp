// SPDX-License-Identifier: BSD-3-Clause
// Convex polytope: the convex hull of a point set, built once with qhull.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <memory>
#include <vector>

#include <proxima/core/aabb.hpp>
#include <proxima/core/mass_properties.hpp>
#include <proxima/shape/shape_type.hpp>

namespace proxima {

/// A node of the bounding-cone hierarchy over a solid hull's Gauss map
/// (PolytopeData::cones). It bounds a set of faces and the arcs of the edges
/// they own (edge e is owned by edge_faces[e][0]): every face normal and
/// every point of every owned arc lies within `angle` of `axis`, and every
/// face offset involved (the faces and both faces of each owned edge) is at
/// least `min_offset`. An arc's support value is at least the smaller of its
/// two faces' offsets, so min_offset bounds h_P from below on the whole cone.
struct NormalCone {
  /// Leaves hold at most this many faces.
  static constexpr int kMaxLeafFaces = 8;
  /// The most levels a hierarchy has (PolytopeData::cone_depth). Its
  /// median splits give ⌈log2(faces / 8)⌉ + 1 levels, at most 29 for any
  /// face count an int holds, and ConvexPolytope's constructor checks it.
  /// A depth-first walk that pops a node and pushes its children holds at
  /// most one pending sibling per level above the node it pops, and then
  /// its two children: never more than cone_depth entries, so the walks'
  /// stacks of kMaxDepth entries cannot fill and drop a node.
  static constexpr int kMaxDepth = 32;
  Vec3 axis = Vec3::UnitZ();
  /// cos and sin of the cone's half angle; a cone wider than a hemisphere
  /// has cos = −1 and sin = 0 (it bounds nothing) and side = 2.
  double cos_angle = -1.0;
  double sin_angle = 0.0;
  /// The whole cone lies strictly on the positive side of a plane through
  /// the origin with unit normal m when axis·m > side (side = sin(angle)).
  double side = 2.0;
  double min_offset = 0.0;
  /// Inner node: its children are this node + 1 and `right`. Leaf: right =
  /// −1 and the faces [face_begin, face_end) of cone_faces with the edges
  /// [edge_begin, edge_end) of cone_edges.
  int right = -1;
  int face_begin = 0, face_end = 0, edge_begin = 0, edge_end = 0;

  /// The largest n·s over the cone's normals n, given a·s (a: the axis) and
  /// |s| = len.
  double cap_max(double as, double len) const {
    if (as >= len * cos_angle) return len;
    return as * cos_angle + std::sqrt(std::max(0.0, len * len - as * as)) * sin_angle;
  }
};

/// The cones of an inner node's two children side by side (lane 0: the node
/// + 1, lane 1: its `right`), as arrays per field, so that a query bounds
/// both children in one pass that the compiler can vectorize.
struct ConePair {
  double axis_x[2], axis_y[2], axis_z[2];
  double cos_angle[2], sin_angle[2], side[2], min_offset[2];
};

/// A face as a leaf of the cone hierarchy stores it.
struct ConeFace {
  Vec3 normal;
  double offset;
};

/// An edge as a leaf stores it: endpoint q, direction e (to the other
/// endpoint), the normal of its second face, and its owner face as an index
/// into the leaf's faces.
struct ConeEdge {
  Vec3 q;
  Vec3 e;
  Vec3 other_normal;
  int owner;
};

/// Hull data, immutable after construction and shared between copies.
struct PolytopeData {
  /// Hull vertices only, in the order of the input points: duplicate and
  /// interior input points are dropped.
  std::vector<Vec3> vertices;
  /// Faces as vertex-index polygons, counter-clockwise seen from outside;
  /// a solid hull's loops start at their lowest index and are sorted
  /// lexicographically (so the hull depends on the input alone, not on
  /// qhull's internal order).
  /// A flat hull (dimension 2) has its polygon twice, once per side.
  std::vector<std::vector<int>> faces;
  /// Outward unit normal n and offset c of each face: n·x ≤ c inside.
  std::vector<Vec3> face_normals;
  std::vector<double> face_offsets;
  /// Each hull edge once, as (lower index, higher index).
  std::vector<std::array<int, 2>> edges;
  /// The two faces sharing each edge, parallel to `edges`: slot 0 is the face
  /// whose counter-clockwise loop runs edges[e][0] → edges[e][1], slot 1 the
  /// face running it backwards. A flat hull's edges have its two opposite
  /// faces; a segment's edge has {−1, −1}. (The SAT needs them for the
  /// Gauss-map arcs of edges.)
  std::vector<std::array<int, 2>> edge_faces;
  /// Vertex adjacency in compressed rows: the neighbours of vertex v are
  /// neighbors[neighbor_offsets[v] .. neighbor_offsets[v + 1]).
  std::vector<int> neighbor_offsets;
  std::vector<int> neighbors;
  /// Start vertices for hill climbing: the extreme vertex along ±x, ±y, ±z.
  std::array<int, 6> seeds{};
  /// Support candidates by direction (hulls above
  /// ConvexPolytope::kHillClimbThreshold vertices; empty otherwise): each
  /// face of the cube [−1, 1]³ is cut into direction_cells² cells, and cell
  /// c's candidates are direction_candidates[direction_offsets[c] ..
  /// direction_offsets[c + 1]). The best of them along any direction of the
  /// cell is its support: every neighbour of a candidate that is not one is
  /// worse than it along every direction of the cell, by a margin above
  /// rounding, so the best candidate is a local and hence the global
  /// maximum. A cell whose candidates would exceed kMaxDirectionCandidates
  /// (a flat hull seen face on) holds one entry ~v instead: climb from v.
  int direction_cells = 0;
  std::vector<int> direction_offsets;
  std::vector<int> direction_candidates;
  /// Bounding-cone hierarchy over the Gauss map (solid hulls only, empty
  /// otherwise; root at 0), for queries that need the nearest face planes or
  /// the silhouette without looking at every face: narrow/sat.hpp's
  /// polytope–capsule depth.
  std::vector<NormalCone> cones;
  /// Parallel to `cones`: each inner node's children (unused for leaves).
  std::vector<ConePair> cone_pairs;
  std::vector<ConeFace> cone_faces;
  /// Parallel to `cone_faces`: each one's index into `faces` (its polygon).
  std::vector<int> cone_face_ids;
  std::vector<ConeEdge> cone_edges;
  /// Levels of the cone hierarchy: 1 when the root is a leaf, 0 without
  /// one; at most NormalCone::kMaxDepth.
  int cone_depth = 0;
  /// 3 for a solid hull; 2, 1 or 0 for a flat polygon, a segment or a point.
  int dimension = 3;
  Aabb bounds;
};

/// Convex hull of a point set with an optional margin.
///
/// Degenerate input: a point set whose hull has no volume (all points
/// coplanar, collinear or equal, relative to 1e-9 of its extent) is an error
/// unless `margin` > 0, in which case the flat polygon, segment or point is
/// the core and the margin gives the shape its volume (mass properties are
/// then those of the core, volume 0). Supports use a linear scan up to
/// kHillClimbThreshold vertices and above it the best of the few candidates
/// the direction map holds for the direction's cell (PolytopeData), hill
/// climbing on the vertex adjacency where a cell holds too many.
class ConvexPolytope {
 public:
  static constexpr ShapeType kType = ShapeType::convex;
  static constexpr int kHillClimbThreshold = 32;
  /// Most support candidates a direction cell keeps (PolytopeData).
  static constexpr int kMaxDirectionCandidates = 12;
  /// largest_plane_value scans hulls of up to this many faces and searches
  /// the cone hierarchy of larger ones.
  static constexpr std::size_t kScanFaces = 640;

  /// Throws proxima::Error for an empty or non-finite point set, a negative
  /// or non-finite margin, or a flat point set without margin.
  explicit ConvexPolytope(const std::vector<Vec3>& points, double margin = 0.0);

  const PolytopeData& data() const { return *data_; }
  /// The shared hull data itself: a weak reference to it names this hull
  /// (and its copies) for as long as anything holds it, which an address
  /// cannot (a freed hull's address is reused). PenetrationCache keeps one.
  const std::shared_ptr<const PolytopeData>& shared_data() const { return data_; }
  const std::vector<Vec3>& vertices() const { return data_->vertices; }
  double margin() const { return margin_; }
  double core_inflation() const { return margin_; }

  /// Vertex maximizing d·v. `hint` is a vertex index to start hill climbing
  /// from (−1: none); it is updated to the returned vertex, so passing the
  /// same hint through successive calls of one query walks only a few steps.
  int support_index(const Vec3& d, int& hint) const {
    const std::vector<Vec3>& v = data_->vertices;
    const int n = static_cast<int>(v.size());
    if (n <= kHillClimbThreshold) {
      int best = 0;
      double best_dot = d.dot(v[0]);
      for (int i = 1; i < n; ++i) {
        const double s = d.dot(v[static_cast<std::size_t>(i)]);
        if (s > best_dot) { best_dot = s; best = i; }
      }
      hint = best;
      return best;
    }
    // The direction map's fast path inline: the best of the cell's
    // candidates (PolytopeData::direction_offsets); hill_climb otherwise.
    const PolytopeData& p = *data_;
    int seed = -1;  // a cell holding too many candidates names a vertex to climb from
    if (p.direction_cells > 0) {
      const int cell = direction_cell(d, p.direction_cells);
      if (cell >= 0) {
        const int* c = p.direction_candidates.data() + p.direction_offsets[static_cast<std::size_t>(cell)];
        const int* const end = p.direction_candidates.data() + p.direction_offsets[static_cast<std::size_t>(cell) + 1];
        int best = *c;
        if (best >= 0) {
          double best_dot = d.dot(v[static_cast<std::size_t>(best)]);
          for (++c; c < end; ++c) {
            const double s = d.dot(v[static_cast<std::size_t>(*c)]);
            if (s > best_dot) {
              best_dot = s;
              best = *c;
            }
          }
          return hint = best;
        }
        seed = ~best;
      }
    }
    return hint = hill_climb(d, hint, seed);
  }
  Vec3 core_support(const Vec3& d, int& hint) const {
    return data_->vertices[static_cast<std::size_t>(support_index(d, hint))];
  }
  Vec3 core_support(const Vec3& d) const {
    int hint = -1;
    return core_support(d, hint);
  }
  Aabb local_aabb() const { return data_->bounds.inflated(margin_); }
  MassProperties mass_properties() const;

  /// The largest face-plane value n·q − c over the hull's faces at the
  /// local point q: the core's signed distance at q when q is inside or on
  /// the hull, positive outside. Once a face's value exceeds `enough` it
  /// may return that value instead of the largest. Solid hulls of more than
  /// kScanFaces faces search the cone hierarchy (a few leaves for a point
  /// near the surface), others scan their faces.
  double largest_plane_value(const Vec3& q,
                             double enough = std::numeric_limits<double>::infinity()) const;

 private:
  // Ascent from the better of `seed` (a vertex of the direction's cell, or
  // −1) and `start` (the caller's hint, or −1), else from an axis seed.
  int hill_climb(const Vec3& d, int start, int seed) const;
  // The cube-map cell of direction d (PolytopeData::direction_offsets) on
  // a map of n² cells a face, or −1 for a zero or non-finite direction.
  static int direction_cell(const Vec3& d, int n) {
    const double ax = std::abs(d.x()), ay = std::abs(d.y()), az = std::abs(d.z());
    // The axis of the largest component and the next two in cyclic order.
    int face;
    double m, p, q;
    if (ax >= ay && ax >= az) {
      face = d.x() < 0.0 ? 1 : 0;
      m = ax, p = d.y(), q = d.z();
    } else if (ay >= az) {
      face = d.y() < 0.0 ? 3 : 2;
      m = ay, p = d.z(), q = d.x();
    } else {
      face = d.z() < 0.0 ? 5 : 4;
      m = az, p = d.x(), q = d.y();
    }
    // (u + 1)·n/2 for u = p/m, with one division.
    const double half = 0.5 * n, scale = half / m;
    const double u = p * scale + half, w = q * scale + half;
    // NaN (a zero or non-finite d) fails these, so the casts below are defined.
    if (!(u >= 0.0 && u <= 2.0 * half && w >= 0.0 && w <= 2.0 * half)) return -1;
    const int i = std::min(n - 1, static_cast<int>(u));
    const int j = std::min(n - 1, static_cast<int>(w));
    return (face * n + i) * n + j;
  }

  std::shared_ptr<const PolytopeData> data_;
  double margin_;
};

}  // namespace proxima
