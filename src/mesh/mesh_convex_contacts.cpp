// SPDX-License-Identifier: BSD-3-Clause
// BLEM contacts of a mesh against a convex shape or a halfspace (Hauser
// 2013, §3.2): every triangle within the layers through a
// traversal of the mesh's BVH against the shape, GJK (EPA when the cores
// overlap) per triangle, the shadow test, then optional clustering.
#include <algorithm>
#include <cmath>
#include <type_traits>
#include <variant>

#include <proxima/mesh/mesh_contacts.hpp>
#include <proxima/narrow/epa.hpp>
#include <proxima/narrow/gjk.hpp>

#include "../narrow/support_feature.hpp"
#include "contact_common.hpp"
#include "feature_pairs.hpp"
#include "traversal.hpp"

namespace proxima {
namespace {

using namespace mesh::contact_detail;

// Mesh A against convex S, in world coordinates (GJK works on poses).
template <class S>
struct MeshConvex {
  const Bvh& A;
  const S& shape;
  const Transform& ta;
  const Transform& tb;
  Layers L;
  double margin;
  bool smooth_faces;  // face_contacts applies (with the shadow test: both leave the paper's raw set)
  ShapeInNodes placed;
  Status status = Status::ok;

  MeshConvex(const Bvh& a, const Transform& pose_a, const S& s, const Transform& pose_b,
             const MeshContactOptions& o)
      : A(a), shape(s), ta(pose_a), tb(pose_b), margin(o.margin),
        smooth_faces((o.drop_shadowed || o.feature_pairs) && o.smooth_edge_normals), placed(a, pose_a, s, pose_b) {
    L.ra = a.mesh().margin();
    L.rb = s.core_inflation();
    L.limit = L.ra + L.rb + o.margin;
    L.tan_patch = std::tan(o.patch_angle);
    L.cos_patch = std::cos(o.patch_angle);
  }

  double bound(const BvhNode& n) const { return placed.bound(n); }

  // One triangle: within the layers, it is kept in `hits` for the shadow
  // test, or made into contacts at once.
  void triangle(std::uint32_t t, Collector& col, std::vector<ConvexHit>* hits) {
    ++col.stats.triangle_tests;
    const TriangleMesh& m = A.mesh();
    const TriangleCore tri{m.corner(t, 0), m.corner(t, 1), m.corner(t, 2)};
    GjkOptions opt;
    opt.stop_above = L.limit;
    proxima::detail::Simplex simplex;
    const GjkResult g = gjk(tri, ta, shape, tb, opt, nullptr, &simplex);
    if (g.status != Status::ok) status = g.status;
    if (g.stopped_above || (!g.overlap && g.distance > L.limit)) return;
    ++col.stats.pairs_within;
    ConvexHit h;
    h.tri = t;
    if (g.overlap || !(g.distance > 0.0)) {
      const EpaResult e = epa(tri, ta, shape, tb, simplex);
      if (e.status != Status::ok) status = e.status;
      h.overlap = true;
      h.a = e.point_a;
      h.b = e.point_b;
      h.distance = e.depth;
      h.normal = e.normal;
    } else {
      h.a = g.point_a;
      h.b = g.point_b;
      h.distance = g.distance;
    }
    if (!hits) {
      emit(h, col);
      return;
    }
    if (!h.overlap) {
      const Triangle w = triangle_of(m, t, ta);
      const Vec3 u = (w[1] - w[0]).cross(w[2] - w[0]);
      h.face = std::abs(u.dot(h.a - h.b)) >= (1.0 - 1e-9) * u.norm() * h.distance;
      h.lo = w[0].cwiseMin(w[1]).cwiseMin(w[2]);
      h.hi = w[0].cwiseMax(w[1]).cwiseMax(w[2]);
    }
    hits->push_back(h);
  }

  [[gnu::noinline]] void emit(const ConvexHit& h, Collector& col) {
    const TriangleMesh& m = A.mesh();
    const int fa = static_cast<int>(h.tri);
    if (h.overlap) {
      if (!(smooth_faces && face_contacts(h, h.normal, col)))
        col.flagged(0.5 * (h.a + h.b), h.normal, h.distance, fa, -1, L);
      return;
    }
    const Contact pc = point_contact(h.a, h.b, h.distance, L);
    if (smooth_faces && face_contacts(h, pc.normal, col)) return;
    col.note(h.distance, pc.normal, L);
    const Triangle w = triangle_of(m, h.tri, ta);
    if (L.tan_patch > 0.0 && feature_size(w, pc.normal, -1.0, L.tan_patch * longest_edge(w)) >= 2) {
      const PlaneFrame f(pc.normal, 0.5 * (h.a + h.b));
      const double extent = shape_extent(shape);
      const double eps = 1e-9 * std::max(longest_edge(w), extent);
      narrow::detail::Hull ha, hb;
      triangle_feature(w, f, -1.0, L.tan_patch * longest_edge(w), -L.ra, ha, eps);
      if (ha.size() >= 2) {
        narrow::detail::FeaturePoints local;
        narrow::detail::support_feature(shape, tb.rotate_inverse(f.n), {L.tan_patch * extent, 12}, local);
        PlanePoint pts[narrow::detail::kMaxFeaturePoints];
        for (std::size_t i = 0; i < local.size(); ++i) pts[i] = f.project(tb.apply(local[i]), L.rb);
        narrow::detail::convex_hull(pts, local.size(), eps, hb);
        if (patch_contacts(ha, hb, f, eps, margin, fa, -1, col.out) > 0) return;
      }
    }
    Contact k = pc;
    k.feature_a = fa;
    col.out.push_back(k);
  }

  // A pair whose witness on the triangle lies inside it, or on its edges or
  // corners where every edge met is smooth (Bvh::smooth_edges: a coplanar
  // or concave neighbour continues the surface), but whose normal is not
  // the face's: cores that intersect (EPA's shortest way out), or a gap
  // measured sideways to the triangle's edge. The shape can only press on
  // the surface through the face there, so the contact is taken along the
  // face's normal, with the patch of the shape's facing feature over the
  // triangle and each point's own depth, as a face resting on a face gets.
  // The sideways normals stopped a box sliding at 1 m/s over a triangulated
  // floor within 0.3 mm: a box sunk 10 µm is only as far from leaving a
  // triangle whose corner pokes under its leading edge as that corner
  // reaches in, and a triangle just ahead of the box, in the plane of its
  // bottom face, is closest to it sideways. What the face does not support
  // (the shape's feature is beside the triangle) is left to the neighbour
  // that does. False when the pair's own contact stands (an open or convex
  // edge, the face's normal already, a degenerate triangle).
  [[gnu::noinline]] bool face_contacts(const ConvexHit& h, const Vec3& hint, Collector& col) {
    const TriangleMesh& m = A.mesh();
    const Triangle w = triangle_of(m, h.tri, ta);
    Vec3 nt = (w[1] - w[0]).cross(w[2] - w[0]);
    const double twice_area = nt.norm();
    if (!(twice_area > 0.0)) return false;
    nt /= twice_area;
    const double along = hint.dot(nt);
    if (!h.overlap && std::abs(along) >= 1.0 - 1e-9) return false;
    const double size = longest_edge(w);
    const std::vector<std::uint8_t>& smooth = A.smooth_edges();
    const unsigned mask = h.tri < smooth.size() ? smooth[h.tri] : 0u;
    for (int k = 0; k < 3; ++k) {
      const Vec3 e = w[(k + 1) % 3] - w[k];
      // In-plane distance of the witness inside edge k (positive inside).
      const double inside = e.cross(h.a - w[k]).dot(nt) / e.norm();
      if (inside <= 1e-4 * size && !(mask & (1u << k))) return false;
    }
    // B→A, from the shape into the mesh: against the outward normal of a
    // closed mesh; on an open one, the pair's side, or the side away from
    // the shape's centre when the pair's normal lies in the face's plane.
    Vec3 n;
    if (m.orientation() != 0) {
      n = -static_cast<double>(m.orientation()) * nt;
    } else {
      const bool sign = std::abs(along) > 0.1 ? along > 0.0 : nt.dot(w[0] - tb.p) > 0.0;
      n = sign ? nt : Vec3(-nt);
    }
    const Vec3 deepest = tb.apply(shape.core_support(tb.rotate_inverse(n)));
    // How far the shape's core reaches past the face's plane (< 0: a gap).
    const double reach = n.dot(deepest - w[0]);
    if (reach < -L.limit) return true;  // out of reach along the face's normal
    const int fa = static_cast<int>(h.tri);
    const std::size_t before = col.out.size();
    {
      const PlaneFrame f(n, h.a);
      const double extent = shape_extent(shape);
      const double eps = 1e-9 * std::max(size, extent);
      const double tan_patch = std::max(L.tan_patch, 1e-6);
      narrow::detail::Hull ha, hb;
      triangle_feature(w, f, -1.0, tan_patch * size, -L.ra, ha, eps);
      narrow::detail::FeaturePoints local;
      narrow::detail::support_feature(shape, tb.rotate_inverse(f.n), {tan_patch * extent, 12}, local);
      PlanePoint pts[narrow::detail::kMaxFeaturePoints];
      for (std::size_t i = 0; i < local.size(); ++i) pts[i] = f.project(tb.apply(local[i]), L.rb);
      narrow::detail::convex_hull(pts, local.size(), eps, hb);
      patch_contacts(ha, hb, f, eps, margin, fa, -1, col.out);
    }
    if (col.out.size() > before) {
      if (reach > 0.0) {
        for (std::size_t i = before; i < col.out.size(); ++i) col.out[i].intersecting = true;
        col.stats.intersecting += col.out.size() - before;
      }
      col.note(-reach, n, L);
      return true;
    }
    // A point of the shape (a round one, or a corner), where it is over the
    // triangle; elsewhere the face carries nothing.
    const Vec3 foot = deepest - reach * n;
    for (int k = 0; k < 3; ++k) {
      const Vec3 e = w[(k + 1) % 3] - w[k];
      if (e.cross(foot - w[k]).dot(nt) < -1e-9 * size * e.norm()) return true;
    }
    if (reach > 0.0) {
      col.flagged(foot + 0.5 * reach * n, n, reach, fa, -1, L);
    } else {
      Contact k;
      k.point = 0.5 * (deepest + foot) + 0.5 * (L.rb - L.ra) * n;
      k.normal = n;
      k.depth = L.ra + L.rb + reach;
      k.feature_a = fa;
      col.note(-reach, n, L);
      col.out.push_back(k);
    }
    return true;
  }

  // The mesh–mesh shadow test (MeshMesh::shadow_and_emit) with the shape as
  // B's only triangle: a triangle is dropped when the shape's witness is
  // strictly closer (beyond rounding) to another triangle within the layers
  // than to it, its overlap then lying inside that triangle's layer (the
  // triangle next to the one under a box's edge meets only the box's edge,
  // and its contact slants). Overlapping cores neither hide nor are hidden,
  // as there. A witness on the triangle's face interior (normal along the
  // triangle's) may be any point of a face lying on it, so only a triangle
  // of the same surface (within 45°) hides it. The kept ones are made into
  // contacts in traversal order, that of the query without the test.
  [[gnu::noinline]] void shadow_and_emit(std::vector<ConvexHit>& hits, ShadowBuffers& buf, Collector& col,
                                         std::vector<std::pair<std::uint64_t, std::uint32_t>>* witness_keys) {
    const TriangleMesh& m = A.mesh();
    auto shadowed = [&](const ConvexHit& h, const ConvexHit& g, double below) {
      if (box_distance_sq(h.b, g.lo, g.hi) >= below * below) return false;
      const bool near = (h.b - g.a).squaredNorm() < below * below;
      if (near && !h.face) return true;
      const Triangle t = triangle_of(m, g.tri, ta);
      if (!near && !(mesh::point_triangle(h.b, t).distance < below)) return false;
      if (!h.face) return true;
      const Vec3 u = (t[1] - t[0]).cross(t[2] - t[0]);
      return std::abs(u.dot(h.a - h.b)) >= 0.7071 * u.norm() * h.distance;
    };
    // Candidates by where their triangles' boxes start along x: a triangle
    // whose box is `below` or more from the witness along x alone fails the
    // first test above, so each witness looks only at a window (as
    // MeshMesh's large groups do; a box over a fine mesh has hundreds).
    std::vector<ConvexShadowSpan>& win = buf.convex_window;
    win.clear();
    double widest = 0.0;
    for (std::size_t q = 0; q < hits.size(); ++q) {
      const ConvexHit& g = hits[q];
      if (g.overlap || !(g.distance > 0.0)) continue;
      widest = std::max(widest, g.hi.x() - g.lo.x());
      win.push_back({g.lo.x(), g.lo.y(), g.lo.z(), g.hi.x(), g.hi.y(), g.hi.z(), g.distance,
                     static_cast<std::uint32_t>(q)});
    }
    std::sort(win.begin(), win.end(),
              [](const ConvexShadowSpan& x, const ConvexShadowSpan& y) { return x.lo_x < y.lo_x; });
    for (std::size_t p = 0; p < hits.size(); ++p) {
      ConvexHit& h = hits[p];
      if (h.overlap || !(h.distance > 0.0)) continue;
      const double below = h.distance - (1e-12 + 1e-9 * h.distance);
      const double x = h.b.x();
      const double slack = 1e-9 * (std::abs(x) + widest + below) + 1e-300;
      const double to = x + below + slack;
      auto q = std::lower_bound(win.begin(), win.end(), x - below - widest - slack,
                                [](const ConvexShadowSpan& sp, double v) { return sp.lo_x < v; });
      const double below_sq = below * below;
      for (; q != win.end() && q->lo_x < to && !h.drop; ++q) {
        // shadowed()'s first test, on the span's own copy of the box.
        if (!(q->distance < below) || q->member == p) continue;
        if (box_distance_sq(h.b, Vec3(q->lo_x, q->lo_y, q->lo_z), Vec3(q->hi_x, q->hi_y, q->hi_z)) >= below_sq)
          continue;
        h.drop = shadowed(h, hits[q->member], below);
      }
    }
    if (witness_keys) mark_shared_witnesses(hits, *witness_keys);
    const std::size_t first_out = col.out.size();
    for (ConvexHit& h : hits) {
      h.out_begin = static_cast<std::uint32_t>(col.out.size() - first_out);
      if (h.drop)
        ++col.stats.shadowed;
      else
        emit(h, col);
      h.out_end = static_cast<std::uint32_t>(col.out.size() - first_out);
    }
    if (witness_keys) drop_copies(hits, first_out, col);
  }

  // Feature pairs (MeshContactOptions::feature_pairs): the shape's witness
  // on a vertex or an edge shared by several triangles is one feature pair,
  // found once per triangle there. Each such hit learns the first hit (in
  // traversal order) with the same witness feature (ConvexHit::first).
  // `keys`: (feature, hit) scratch.
  void mark_shared_witnesses(std::vector<ConvexHit>& hits, std::vector<std::pair<std::uint64_t, std::uint32_t>>& keys) {
    const TriangleMesh& m = A.mesh();
    keys.clear();
    for (std::size_t i = 0; i < hits.size(); ++i) {
      ConvexHit& h = hits[i];
      h.first = static_cast<std::uint32_t>(i);
      if (h.drop || h.overlap) continue;
      const Triangle w = triangle_of(m, h.tri, ta);
      const TriangleIndices& ids = m.triangles()[h.tri];
      const double tol = 1e-7 * longest_edge(w);
      bool shared = false;
      std::uint64_t key = 0;
      for (int k = 0; k < 3 && !shared; ++k) {
        shared = (h.a - w[k]).squaredNorm() <= tol * tol;
        key = std::uint64_t(ids[k]) << 32 | ids[k];  // a vertex: both halves its id
      }
      for (int k = 0; k < 3 && !shared; ++k) {
        shared = (h.a - mesh::closest_on_segment(h.a, w[k], w[(k + 1) % 3])).squaredNorm() <= tol * tol;
        key = edge_key(ids[k], ids[(k + 1) % 3]);
      }
      if (shared) keys.emplace_back(key, static_cast<std::uint32_t>(i));
    }
    std::sort(keys.begin(), keys.end());
    for (std::size_t i = 1; i < keys.size(); ++i)
      if (keys[i].first == keys[i - 1].first) hits[keys[i].second].first = hits[keys[i - 1].second].first;
  }

  // After emission: a hit whose feature pair an earlier hit holds, and
  // whose single contact that hit gave already (the same point and normal,
  // to rounding), is a copy and goes. Patches differ from triangle to
  // triangle (each is its own triangle's overlap) and stay.
  void drop_copies(std::vector<ConvexHit>& hits, std::size_t first_out, Collector& col) {
    std::vector<Contact>& out = col.out;
    const double tol = 1e-9 * std::max(extent(A), shape_extent(shape));
    for (std::size_t i = 0; i < hits.size(); ++i) {
      ConvexHit& h = hits[i];
      if (h.first == i || h.out_end != h.out_begin + 1) continue;
      const Contact& c = out[first_out + h.out_begin];
      const ConvexHit& f = hits[h.first];
      for (std::uint32_t k = f.out_begin; k < f.out_end && !h.copy; ++k) {
        const Contact& e = out[first_out + k];
        h.copy = (e.point - c.point).squaredNorm() <= tol * tol && (e.normal - c.normal).squaredNorm() <= 1e-18 &&
                 std::abs(e.depth - c.depth) <= tol;
      }
    }
    std::size_t kept = first_out;
    for (const ConvexHit& h : hits) {
      if (h.copy) continue;
      for (std::uint32_t k = h.out_begin; k < h.out_end; ++k) out[kept++] = out[first_out + k];
    }
    out.resize(kept);
  }

  Status run(bool traverse_only, Collector& col, std::vector<ConvexHit>* hits) {
    std::uint32_t stack[kStack];
    int sp = 0;
    const std::vector<BvhNode>& nodes = A.nodes();
    const std::vector<std::uint32_t>& order = A.order();
    ++col.stats.node_pairs;
    if (bound(nodes[0]) > L.limit) return status;
    stack[sp++] = 0;
    while (sp > 0) {
      const BvhNode& x = nodes[stack[--sp]];
      if (x.leaf()) {
        if (traverse_only) {
          col.stats.triangle_tests += x.count;
          continue;
        }
        for (std::uint32_t i = 0; i < x.count; ++i) triangle(order[x.index + i], col, hits);
        continue;
      }
      if (sp + 2 > kStack) return Status::not_converged;
      col.stats.node_pairs += 2;
      if (bound(nodes[x.index + 1]) <= L.limit) stack[sp++] = x.index + 1;
      if (bound(nodes[x.index]) <= L.limit) stack[sp++] = x.index;
    }
    return status;
  }
};

// ---------------------------------------------------------- mesh–halfspace

// Every vertex within reach of the plane is a contact: a polyhedral surface
// touches a plane at vertices, and their hull is the exact support region.
Status mesh_halfspace(const Bvh& A, const Transform& ta, const Halfspace& h, const Transform& tb,
                      const MeshContactOptions& o, Collector& col) {
  Layers L;
  L.ra = A.mesh().margin();
  L.rb = h.core_inflation();
  L.limit = L.ra + L.rb + o.margin;
  const PlaneInNodes plane(A, ta, h, tb);
  const Vec3& n = plane.n;  // A's frame
  const std::vector<BvhNode>& nodes = A.nodes();
  const std::vector<std::uint32_t>& order = A.order();
  const TriangleMesh& m = A.mesh();
  auto bound = [&](const BvhNode& nd) { return plane.bound(nd); };
  const std::size_t start = col.out.size();
  std::uint32_t stack[kStack];
  int sp = 0;
  ++col.stats.node_pairs;
  if (bound(nodes[0]) <= L.limit) stack[sp++] = 0;
  while (sp > 0) {
    const BvhNode& x = nodes[stack[--sp]];
    if (x.leaf()) {
      for (std::uint32_t i = 0; i < x.count; ++i) {
        const std::uint32_t t = order[x.index + i];
        ++col.stats.triangle_tests;
        if (o.traverse_only) continue;
        for (int k = 0; k < 3; ++k) {
          const Vec3& v = m.corner(t, k);
          const double s = plane.height(v);
          if (s > L.limit) continue;
          Contact c;
          c.normal = n;
          c.depth = L.ra + L.rb - s;
          c.point = v - 0.5 * (s + L.ra - L.rb) * n;
          c.feature_a = static_cast<int>(t);
          c.feature_b = static_cast<int>(m.triangles()[t][static_cast<std::size_t>(k)]);  // vertex id, for now
          c.intersecting = s < 0.0;
          col.out.push_back(c);
          col.note(s, n, L);
        }
      }
      continue;
    }
    if (sp + 2 > kStack) return Status::not_converged;
    col.stats.node_pairs += 2;
    if (bound(nodes[x.index + 1]) <= L.limit) stack[sp++] = x.index + 1;
    if (bound(nodes[x.index]) <= L.limit) stack[sp++] = x.index;
  }
  // A vertex shared by several triangles was seen once per triangle: keep
  // one, from its lowest triangle id.
  auto first = col.out.begin() + static_cast<std::ptrdiff_t>(start);
  std::sort(first, col.out.end(), [](const Contact& x, const Contact& y) {
    return x.feature_b != y.feature_b ? x.feature_b < y.feature_b : x.feature_a < y.feature_a;
  });
  col.out.erase(std::unique(first, col.out.end(),
                            [](const Contact& x, const Contact& y) { return x.feature_b == y.feature_b; }),
                col.out.end());
  for (auto it = first; it != col.out.end(); ++it) {
    it->feature_b = -1;
    if (it->intersecting) ++col.stats.intersecting;
  }
  col.stats.pairs_within += static_cast<std::size_t>(col.out.end() - first);
  return Status::ok;
}

}  // namespace

void mesh_contacts(const Bvh& a, const Transform& pose_a, const Shape& b, const Transform& pose_b,
                   const MeshContactOptions& options, ContactSet& out, MeshContactScratch& scratch,
                   MeshContactStats* stats) {
  MeshContactStats local;
  MeshContactStats& st = stats ? *stats : local;
  if (!start(pose_a, pose_b, options, out, st)) return;
  Collector col{out.points, st};
  std::visit(
      [&](const auto& s) {
        using S = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<S, Halfspace>) {
          const Status status = mesh_halfspace(a, pose_a, s, pose_b, options, col);
          finish(col, &pose_a, options, extent(a), status, out);
        } else {
          if (!scratch.buffers_) scratch.buffers_ = std::make_unique<MeshContactScratch::Buffers>();  // moved from
          MeshContactScratch::Buffers& buf = *scratch.buffers_;
          std::vector<ConvexHit>* hits = options.drop_shadowed || options.feature_pairs ? &buf.convex_hits : nullptr;
          if (hits) hits->clear();
          MeshConvex<S> pair(a, pose_a, s, pose_b, options);
          const Status status = pair.run(options.traverse_only, col, hits);
          if (hits)
            pair.shadow_and_emit(*hits, buf.shadow, col, options.feature_pairs ? &buf.features.convex_keys : nullptr);
          finish(col, nullptr, options, std::max(extent(a), shape_extent(s)), status, out);
        }
      },
      b.variant());
}

void mesh_contacts(const Bvh& a, const Transform& pose_a, const Shape& b, const Transform& pose_b,
                   const MeshContactOptions& options, ContactSet& out, MeshContactStats* stats) {
  MeshContactScratch scratch;
  mesh_contacts(a, pose_a, b, pose_b, options, out, scratch, stats);
}

}  // namespace proxima
