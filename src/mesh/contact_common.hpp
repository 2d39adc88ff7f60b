// SPDX-License-Identifier: BSD-3-Clause
// What mesh–mesh (mesh_contacts.cpp) and mesh–convex (mesh_convex_contacts.cpp)
// BLEM contacts share: the layers, a pair's contact (paper §3.2) or patch,
// the pairs awaiting the shadow test and the working memory they live in, and
// the common tail of a query. Two translation units so that each one's hot
// loops are compiled (inlined) as if the other were not there: the shadow test
// of mesh–convex pairs in the same unit cost the terrain query 5 % more
// instructions through GCC's changed inlining of mesh–mesh code.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include <proxima/contact/cluster.hpp>
#include <proxima/contact/patch_hull.hpp>
#include <proxima/mesh/mesh_contacts.hpp>
#include <proxima/mesh/triangle_distance.hpp>

#include "../narrow/contact_frame.hpp"
#include "../narrow/plane_geometry.hpp"
#include "retraction.hpp"
#include "triangle_cache.hpp"
#include "traversal.hpp"

namespace proxima::mesh::contact_detail {

using mesh::Triangle;
using namespace mesh::detail;
using narrow::detail::PlaneFrame;
using narrow::detail::PlanePoint;
using narrow::detail::Vec2;

inline bool bad_options(const MeshContactOptions& o) {
  return !(o.margin >= 0.0) || !std::isfinite(o.margin) || !(o.patch_angle >= 0.0) ||
         !(o.patch_angle < 0.5 * 3.141592653589793);
}

// The layers of one pair and what a contact needs from them.
struct Layers {
  double ra, rb;   // boundary layer widths of A and B
  double limit;    // largest core distance that is a contact
  double tan_patch = 0.0, cos_patch = 1.0;  // of MeshContactOptions::patch_angle
};

// Paper §3.2: the contact between cores at x_a, x_b (distance d > 0), in
// the middle of the overlap of the layers.
inline Contact point_contact(const Vec3& xa, const Vec3& xb, double d, const Layers& L) {
  Contact c;
  c.normal = (xa - xb) / d;
  c.depth = L.ra + L.rb - d;
  c.point = 0.5 * (xa + xb) + 0.5 * (L.rb - L.ra) * c.normal;
  return c;
}

// A triangle's feature facing along −n (A's, toward B) or +n (B's): its
// corners within tol of the extreme height.
template <std::size_t N>
inline void triangle_feature(const Triangle& t, const PlaneFrame& f, double sign, double tol, double lift,
                      narrow::detail::HullOf<N>& out, double eps) {
  PlanePoint p[3];
  double extreme = -std::numeric_limits<double>::infinity();
  for (int k = 0; k < 3; ++k) {
    p[k] = f.project(t[k], lift);
    extreme = std::max(extreme, sign * p[k].h);
  }
  PlanePoint keep[3];
  std::size_t n = 0;
  for (int k = 0; k < 3; ++k)
    if (sign * p[k].h >= extreme - tol) keep[n++] = p[k];
  narrow::detail::convex_hull(keep, n, eps, out);
}

// How many corners of t lie within tol of its extreme height along sign·n:
// a patch needs an edge or a face (≥ 2) on both sides, which most pairs of
// a curved or noisy surface do not have, so this cheap count comes first.
inline int feature_size(const Triangle& t, const Vec3& n, double sign, double tol) {
  const double h0 = sign * n.dot(t[0]), h1 = sign * n.dot(t[1]), h2 = sign * n.dot(t[2]);
  const double top = std::max({h0, h1, h2}) - tol;
  return int(h0 >= top) + int(h1 >= top) + int(h2 >= top);
}

inline double longest_edge(const Triangle& t) {
  return std::sqrt(std::max({(t[1] - t[0]).squaredNorm(), (t[2] - t[1]).squaredNorm(),
                             (t[0] - t[2]).squaredNorm()}));
}

// Features of A (hull ha) and B (hull hb) that both span at least a segment:
// the vertices of their overlap on the contact plane, each with its own
// depth (Contact data for convex polyhedra, §IV-E applied to one pair). Returns how many were added;
// fewer than 2 means the pair is a point contact after all.
template <std::size_t N>
inline int patch_contacts(const narrow::detail::HullOf<N>& ha, const narrow::detail::HullOf<N>& hb, const PlaneFrame& f,
                   double eps, double margin, int fa, int fb, std::vector<Contact>& out) {
  if (ha.size() < 2 || hb.size() < 2) return 0;
  narrow::detail::ClipOf<N> clip;
  narrow::detail::intersect(ha, hb, eps, clip);
  if (clip.size() < 2) return 0;
  const narrow::detail::HeightModel za(ha), zb(hb);
  const std::size_t start = out.size();
  for (const Vec2& uv : clip) {
    const double h_a = za.at(uv), h_b = zb.at(uv);
    if (h_b - h_a < -margin) continue;
    Contact c;
    c.point = f.lift(uv, 0.5 * (h_a + h_b));
    c.normal = f.n;
    c.depth = h_b - h_a;
    c.feature_a = fa;
    c.feature_b = fb;
    out.push_back(c);
  }
  const int added = static_cast<int>(out.size() - start);
  if (added < 2) out.resize(start);
  return added < 2 ? 0 : added;
}

// A triangle pair within the layers, awaiting the shadow test (A's frame).
struct PairHit {
  std::uint32_t ia, ib;
  std::uint32_t sa, sb;  // the triangles' slots in the query's TriangleCaches
  mesh::ClosestPoints c;
  bool face_on_face = false;  // see face_on_face()
  bool drop = false;
  // Crossing cores of closed oriented meshes: the retraction over the
  // pair's neighbourhood (retraction.hpp), when `retracted`.
  bool behind = false;  // apart, one's witness behind the other's face (MeshMesh::behind_face)
  bool covered = false;  // behind, with crossing pairs around that carry the contact
  bool retracted = false;
  double retract_depth = 0.0;
  Vec3 retract_dir = Vec3::UnitZ();
};

// The emission order of the hits kept by the shadow test: by B's triangle,
// then nearest first, then by A's triangle.
struct ShadowKey {
  std::uint32_t tri, other;
  double distance;
  std::uint32_t hit;
};

// A hit in its triangle's group, for the shadow test's scan.
struct ShadowMember {
  double distance;
  std::uint32_t hit;
};

// A member of a large group by where its partner's triangle starts along
// x, for the shadow test's window (ShadowBuffers::window).
struct ShadowSpan {
  double lo_x;
  std::uint32_t member;  // index into ShadowBuffers::members
};

// A candidate of the mesh–convex shadow test as its scan reads it, in one
// place: where its box starts along x (the sort key), its box and its
// distance, so that the scan rules most candidates out without reading the
// hit itself.
struct ConvexShadowSpan {
  double lo_x;
  double lo_y, lo_z, hi_x, hi_y, hi_z;
  double distance;
  std::uint32_t member;  // index into the hits
};

// The shadow test's working memory, reused across queries.
struct ShadowBuffers {
  std::vector<ShadowKey> keys;
  std::vector<ShadowMember> members;
  std::vector<std::uint32_t> group_end;
  std::vector<ShadowSpan> window;
  std::vector<ConvexShadowSpan> convex_window;
};

// Working memory of the neighbourhood retractions (MeshMesh::retract_crossings).
struct RetractionBuffers {
  std::vector<std::uint32_t> crossing;  // hits whose cores cross
  std::vector<std::uint32_t> subjects;  // those and the hits behind a face
  std::vector<std::pair<std::uint32_t, std::uint32_t>> by_vertex;  // (A's vertex, hit), sorted
  std::vector<std::uint32_t> seen;
  std::vector<mesh::detail::TrianglePair> pairs;
  std::vector<Vec3> out_a, out_b;  // outward unit normals by cache slot
};

// Working memory of the feature-pair raw set (feature_pairs.hpp).
// A pair of features within the layers, mutually nearest.
struct FeatureWitness {
  Vec3 a, b;
  double distance;
  std::uint32_t hit;
};

// A hit in its triangle's group: the pair's distance and the partner's slot.
struct GroupMember {
  double distance;
  std::uint32_t other;
};

struct FeatureBuffers {
  std::vector<std::uint8_t> covers;               // per hit: a patch, crossing or behind (today's rule)
  std::vector<std::uint32_t> by_a, end_a;         // hits grouped by A's slot
  std::vector<std::uint32_t> by_b, end_b;         // by B's slot
  std::vector<double> widest_a, widest_b;         // per large group: its partners' widest box along x
  std::vector<GroupMember> members_a, members_b;  // by_a's and by_b's hits, for the mutual test
  std::vector<FeatureWitness> found;
  std::vector<std::pair<double, std::uint32_t>> cover;  // (x, index) of the patches' and crossings' contacts
  // Mesh–convex: (the witness's vertex or edge, hit) of the point hits kept.
  std::vector<std::pair<std::uint64_t, std::uint32_t>> convex_keys;
};

// A triangle within the layers of a convex shape, awaiting the shadow test
// (world frame): GJK's closest points, or EPA's retraction when the cores
// overlap.
struct ConvexHit {
  std::uint32_t tri;
  bool overlap = false;
  bool face = false;  // the normal is along the triangle's: see MeshConvex::shadow_and_emit
  bool drop = false;
  std::uint32_t first = 0;  // feature_pairs: the first hit with the same witness vertex or edge (or itself)
  std::uint32_t out_begin = 0, out_end = 0;  // feature_pairs: its contacts, from the query's first
  bool copy = false;  // feature_pairs: its one contact is the first's (MeshConvex::drop_copies)
  Vec3 a, b;          // closest points on the triangle and on the shape (EPA's when overlapping)
  double distance;    // core distance, or EPA's depth when overlapping
  Vec3 normal;        // EPA's, when overlapping
  Vec3 lo, hi;        // the triangle's box
};

// Squared distance from x to the box [lo, hi].
inline double box_distance_sq(const Vec3& x, const Vec3& lo, const Vec3& hi) {
  return (lo - x).cwiseMax(x - hi).cwiseMax(0.0).squaredNorm();
}

struct Collector {
  std::vector<Contact>& out;
  MeshContactStats& stats;
  std::vector<PairHit>* hits = nullptr;  // set: pairs wait for the shadow test
  double best = std::numeric_limits<double>::infinity();  // smallest core distance − layers
  Vec3 best_normal = Vec3::UnitZ();

  // A contact whose cores intersect (or one passed behind the other's
  // face): A leaves along `dir` after `core_depth` plus the layers; the
  // point is moved off `mid` as the paper's mid-overlap point is.
  void flagged(const Vec3& mid, const Vec3& dir, double core_depth, int fa, int fb, const Layers& L) {
    Contact k;
    k.normal = dir;
    k.depth = core_depth + L.ra + L.rb;
    k.point = mid + 0.5 * (L.rb - L.ra) * dir;
    k.feature_a = fa;
    k.feature_b = fb;
    k.intersecting = true;
    out.push_back(k);
    ++stats.intersecting;
    note(-core_depth, dir, L);
  }

  void note(double signed_core, const Vec3& n, const Layers& L) {
    const double s = signed_core - L.ra - L.rb;
    if (s < best) {
      best = s;
      best_normal = n;
    }
  }
};

template <class S>
double shape_extent(const S& s) {
  const Aabb box = s.local_aabb();
  return (box.max - box.min).maxCoeff();
}

// Largest side of a mesh's box (layer included): the scale of tolerances.
inline double extent(const Bvh& m) {
  const Aabb b = m.mesh().local_aabb();
  return (b.max - b.min).maxCoeff();
}

inline void reset(ContactSet& out) {
  out.points.clear();
  out.status = Status::ok;
  out.distance = 0.0;
  out.normal = Vec3::UnitZ();
  out.bound_exceeded = false;
}

// Common tail: the pair's distance and normal, world frame, clustering.
inline void finish(Collector& col, const Transform* to_world, const MeshContactOptions& o, double size, Status status,
            ContactSet& out) {
  out.status = status;
  col.stats.raw_contacts = out.points.size();
  if (out.points.empty()) {
    // No pair within the layers and the margin: the pair is farther apart
    // than the margin, and that is all that was measured.
    out.bound_exceeded = !std::isfinite(col.best);
    out.distance = out.bound_exceeded ? o.margin : col.best;
    return;
  }
  out.distance = col.best;
  out.normal = col.best_normal;
  if (to_world) {
    out.normal = to_world->rotate(out.normal);
    for (Contact& c : out.points) {
      c.point = to_world->apply(c.point);
      c.normal = to_world->rotate(c.normal);
    }
  }
  if (o.cluster) {
    if (o.patch_hulls) keep_patch_hulls(out.points, 1e-5 * size);
    const Status s = cluster_contacts(out.points, o.clustering);
    if (s != Status::ok) out.status = s;
  }
}

// Shared start of both queries: clears `out` and the stats; false (status
// invalid_input) for bad options or poses.
inline bool start(const Transform& pose_a, const Transform& pose_b, const MeshContactOptions& options, ContactSet& out,
           MeshContactStats& st) {
  reset(out);
  st = {};
  if (bad_options(options) || options.clustering.max_contacts < 1 || !both_valid(pose_a, pose_b)) {
    out.status = Status::invalid_input;
    return false;
  }
  return true;
}

}  // namespace proxima::mesh::contact_detail

namespace proxima {

struct MeshContactScratch::Buffers {
  std::vector<mesh::contact_detail::PairHit> hits;
  std::vector<mesh::contact_detail::ConvexHit> convex_hits;
  mesh::contact_detail::ShadowBuffers shadow;
  mesh::contact_detail::RetractionBuffers retraction;
  mesh::contact_detail::FeatureBuffers features;
  mesh::detail::TriangleCache a, b;
};

}  // namespace proxima
