// BLEM contact generation (Hauser 2013, §3.2; ALGORITHMS.md §3): every
// triangle pair within the boundary layers through a BVH pair traversal that
// prunes node pairs farther apart than the layers, then per pair the closest
// points (or, for faces and edges lying on each other, their overlap patch),
// then optional clustering (contact/cluster.hpp).
#include <algorithm>
#include <cmath>
#include <type_traits>
#include <variant>

#include <proxima/contact/patch_hull.hpp>
#include <proxima/mesh/mesh_contacts.hpp>
#include <proxima/narrow/epa.hpp>
#include <proxima/narrow/gjk.hpp>

#include "../narrow/contact_frame.hpp"
#include "../narrow/plane_geometry.hpp"
#include "../narrow/support_feature.hpp"
#include "prepared_triangle.hpp"
#include "triangle_cache.hpp"
#include "traversal.hpp"

namespace proxima {
namespace {

using mesh::Triangle;
using namespace mesh::detail;
using narrow::detail::PlaneFrame;
using narrow::detail::PlanePoint;
using narrow::detail::Vec2;

bool bad_options(const MeshContactOptions& o) {
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
Contact point_contact(const Vec3& xa, const Vec3& xb, double d, const Layers& L) {
  Contact c;
  c.normal = (xa - xb) / d;
  c.depth = L.ra + L.rb - d;
  c.point = 0.5 * (xa + xb) + 0.5 * (L.rb - L.ra) * c.normal;
  return c;
}

// A triangle's feature facing along −n (A's, toward B) or +n (B's): its
// corners within tol of the extreme height.
template <std::size_t N>
void triangle_feature(const Triangle& t, const PlaneFrame& f, double sign, double tol, double lift,
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
int feature_size(const Triangle& t, const Vec3& n, double sign, double tol) {
  const double h0 = sign * n.dot(t[0]), h1 = sign * n.dot(t[1]), h2 = sign * n.dot(t[2]);
  const double top = std::max({h0, h1, h2}) - tol;
  return int(h0 >= top) + int(h1 >= top) + int(h2 >= top);
}

double longest_edge(const Triangle& t) {
  return std::sqrt(std::max({(t[1] - t[0]).squaredNorm(), (t[2] - t[1]).squaredNorm(),
                             (t[0] - t[2]).squaredNorm()}));
}

// Features of A (hull ha) and B (hull hb) that both span at least a segment:
// the vertices of their overlap on the contact plane, each with its own
// depth (paper 001 §IV-E applied to one pair). Returns how many were added;
// fewer than 2 means the pair is a point contact after all.
template <std::size_t N>
int patch_contacts(const narrow::detail::HullOf<N>& ha, const narrow::detail::HullOf<N>& hb, const PlaneFrame& f,
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

// Shortest translation of A that separates two intersecting triangles: the
// separating-axis depth over both normals, the nine edge crossings and the
// six in-plane edge normals (exact for two convex polygons, coplanar ones
// included). Returns the unit direction (B→A) and the
// core depth ≥ 0.
//
// For closed, oriented meshes the triangles are pieces of solids'
// boundaries, and only directions that move A out of B through b (no
// component against b's outward normal) and off a (none along a's outward
// normal) are candidates: the plain two-triangle depth would otherwise push
// A sideways past a small triangle, deeper into B. Orientation 0 (open or
// unoriented mesh) lifts that side's restriction; if no direction is
// allowed, the unrestricted minimum is used. Directions within 0.01 rad of
// a face's plane count as along it: a side face tilted by a nano-radian
// must not forbid lifting A straight off the face it has sunk into (the
// next allowed axis can be half a metre long).
void triangle_retraction(const Triangle& a, const Triangle& b, int orient_a, int orient_b, Vec3& dir,
                         double& depth) {
  constexpr double kSlack = 1e-2;  // sin of the angle a direction may point into a face
  const double scale = std::max({a[0].cwiseAbs().maxCoeff(), a[1].cwiseAbs().maxCoeff(),
                                 a[2].cwiseAbs().maxCoeff(), b[0].cwiseAbs().maxCoeff(),
                                 b[1].cwiseAbs().maxCoeff(), b[2].cwiseAbs().maxCoeff(), 1e-300});
  const Vec3 ea[3] = {a[1] - a[0], a[2] - a[1], a[0] - a[2]};
  const Vec3 eb[3] = {b[1] - b[0], b[2] - b[1], b[0] - b[2]};
  auto outward = [](const Vec3& n, int orient) {
    const double len = n.norm();
    return orient != 0 && len > 0.0 ? Vec3(orient * n / len) : Vec3(Vec3::Zero());
  };
  const Vec3 out_a = outward(ea[0].cross(ea[1]), orient_a), out_b = outward(eb[0].cross(eb[1]), orient_b);
  double free_depth = std::numeric_limits<double>::infinity();
  Vec3 free_dir = Vec3::UnitZ();
  depth = std::numeric_limits<double>::infinity();
  dir = Vec3::UnitZ();
  auto consider = [&](const Vec3& u, double d) {
    if (d < free_depth) {
      free_depth = d;
      free_dir = u;
    }
    if (u.dot(out_b) >= -kSlack && u.dot(out_a) <= kSlack && d < depth) {
      depth = d;
      dir = u;
    }
  };
  auto test = [&](Vec3 u) {
    const double len = u.norm();
    if (!(len > 1e-12 * scale * scale)) return;
    u /= len;
    double a_lo = u.dot(a[0]), a_hi = a_lo, b_lo = u.dot(b[0]), b_hi = b_lo;
    for (int k = 1; k < 3; ++k) {
      a_lo = std::min(a_lo, u.dot(a[k]));
      a_hi = std::max(a_hi, u.dot(a[k]));
      b_lo = std::min(b_lo, u.dot(b[k]));
      b_hi = std::max(b_hi, u.dot(b[k]));
    }
    consider(u, std::max(0.0, b_hi - a_lo));
    consider(-u, std::max(0.0, a_hi - b_lo));
  };
  const Vec3 na = ea[0].cross(ea[1]), nb = eb[0].cross(eb[1]);
  test(na);
  test(nb);
  for (const Vec3& x : ea)
    for (const Vec3& y : eb) test(x.cross(y));
  // In-plane edge normals: the axes that separate coplanar triangles (two
  // flush faces overlapping along a band), where every other axis is the
  // common normal. Only then: for crossing triangles they are not
  // separating axes of the pair, and one would slide A's triangle off b
  // across an edge b shares with its neighbour.
  if (na.cross(nb).squaredNorm() <= 1e-12 * na.squaredNorm() * nb.squaredNorm()) {
    for (const Vec3& x : ea) test(na.cross(x));
    for (const Vec3& y : eb) test(nb.cross(y));
  }
  if (!std::isfinite(depth)) {
    depth = free_depth;
    dir = free_dir;
  }
  if (!std::isfinite(depth)) depth = 0.0;  // two coincident points: no axis at all
}

// A triangle pair within the layers, awaiting the shadow test (A's frame).
struct PairHit {
  std::uint32_t ia, ib;
  std::uint32_t sa, sb;  // the triangles' slots in the query's TriangleCaches
  mesh::ClosestPoints c;
  bool face_on_face = false;  // see face_on_face()
  bool drop = false;
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

// The shadow test's working memory, reused across queries.
struct ShadowBuffers {
  std::vector<ShadowKey> keys;
  std::vector<ShadowMember> members;
  std::vector<std::uint32_t> group_end;
  std::vector<ShadowSpan> window;
};

// A face lying on a face: the triangles parallel within the patch angle and
// the pair's unit normal n exactly along one of them (a corner or the
// overlap over the other's interior), not an edge pair's slant.
inline bool face_on_face(PreparedTriangle& a, PreparedTriangle& b, const Vec3& n, double cos_patch) {
  const Vec3& ua = a.face().n;
  const Vec3& ub = b.face().n;
  const double la = a.normal_length(), lb = b.normal_length();
  if (!(la > 0.0) || !(lb > 0.0) || std::abs(ua.dot(ub)) < cos_patch * la * lb) return false;
  constexpr double kExact = 1.0 - 1e-9;
  return std::abs(ua.dot(n)) >= kExact * la || std::abs(ub.dot(n)) >= kExact * lb;
}

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

// ---------------------------------------------------------------- mesh–mesh

struct MeshMesh {
  const Bvh& A;
  const Bvh& B;
  Transform ab;     // B's mesh frame → A's
  Placement nodes;  // B's node frame → A's node frame
  Layers L;
  double margin;
  int orient_a, orient_b;  // TriangleMesh::orientation()
  TriangleCache& ca;       // A's triangles this query touched
  TriangleCache& cb;       // B's, in A's frame

  MeshMesh(const Bvh& a, const Transform& ta, const Bvh& b, const Transform& tb, const MeshContactOptions& o,
           TriangleCache& cache_a, TriangleCache& cache_b)
      : A(a), B(b), ab(ta.inverse() * tb), nodes(node_placement(ab, a, b)), margin(o.margin),
        orient_a(a.mesh().orientation()), orient_b(b.mesh().orientation()), ca(cache_a), cb(cache_b) {
    L.ra = a.mesh().margin();
    L.rb = b.mesh().margin();
    L.limit = L.ra + L.rb + o.margin;
    L.tan_patch = std::tan(o.patch_angle);
    L.cos_patch = std::cos(o.patch_angle);
  }

  Triangle b_in_a(std::uint32_t t) const { return triangle_of(B.mesh(), t, ab); }

  // One triangle pair (A's frame): within the layers, it is kept in `hits`
  // for the shadow test, or made into contacts at once.
  void pair(std::uint32_t ia, std::uint32_t ib, std::uint32_t sa, std::uint32_t sb, Collector& col) const {
    ++col.stats.triangle_tests;
    PreparedTriangle& pa = ca[sa];
    PreparedTriangle& pb = cb[sb];
    if ((pa.lo - pb.hi).cwiseMax(pb.lo - pa.hi).cwiseMax(0.0).squaredNorm() > L.limit * L.limit) return;
    if (centroid_gap(pa, pb) > L.limit) return;
    const double pg = plane_gap(pa, pb);
    if (pg > L.limit) return;
    const mesh::ClosestPoints c = prepared_distance(pa, pb, !(pg > 0.0));
    if (c.distance > L.limit) return;
    ++col.stats.pairs_within;
    if (col.hits) {
      const bool flat = c.distance > 0.0 && !c.intersect && face_on_face(pa, pb, (c.a - c.b) / c.distance, L.cos_patch);
      col.hits->push_back({ia, ib, sa, sb, c, flat});
      return;
    }
    emit(ia, ib, pa.t, pb.t, c, col);
  }

  // Closed oriented meshes: is A's witness straight behind the face b
  // (inside B), or B's straight behind a? `n` is the pair's normal (B→A).
  // Then `out` is the direction that takes A back out. Only face-interior
  // witnesses count (n along the face normal): near an edge or a concave
  // corner a witness off the face's plane says nothing about inside. Thin
  // walls are no trap: a pair reaching through a wall to its far face is
  // shadowed by the near face first.
  bool behind_face(const Triangle& a, const Triangle& b, const Vec3& n, Vec3& out) const {
    constexpr double kAligned = 1.0 - 1e-9;
    auto unit_normal = [](const Triangle& t, Vec3& u) {
      u = (t[1] - t[0]).cross(t[2] - t[0]);
      const double len = u.norm();
      if (!(len > 0.0)) return false;
      u /= len;
      return true;
    };
    Vec3 u;
    if (orient_b != 0 && unit_normal(b, u) && orient_b * n.dot(u) < -kAligned) {
      out = orient_b * u;
      return true;
    }
    if (orient_a != 0 && unit_normal(a, u) && orient_a * n.dot(u) > kAligned) {
      out = -orient_a * u;
      return true;
    }
    return false;
  }

  void emit(std::uint32_t ia, std::uint32_t ib, const Triangle& a, const Triangle& b, const mesh::ClosestPoints& c,
            Collector& col) const {
    const int fa = static_cast<int>(ia), fb = static_cast<int>(ib);
    if (c.intersect || !(c.distance > 0.0)) {
      Vec3 n;
      double core_depth;
      triangle_retraction(a, b, orient_a, orient_b, n, core_depth);
      col.flagged(0.5 * (c.a + c.b), n, core_depth, fa, fb, L);
      return;
    }
    const Contact pc = point_contact(c.a, c.b, c.distance, L);
    Vec3 out;
    if (behind_face(a, b, pc.normal, out)) {
      // A's core has passed through a face of B (or B's through A's): the
      // pair's own normal would pull A further in. Push it back out through
      // the face, by the layers plus how far it is behind.
      col.flagged(0.5 * (c.a + c.b), out, c.distance, fa, fb, L);
      return;
    }
    col.note(c.distance, pc.normal, L);
    const double edge_a = longest_edge(a), edge_b = longest_edge(b);
    const double tol_a = L.tan_patch * edge_a, tol_b = L.tan_patch * edge_b;
    if (L.tan_patch > 0.0 && feature_size(a, pc.normal, -1.0, tol_a) >= 2 &&
        feature_size(b, pc.normal, 1.0, tol_b) >= 2) {
      const PlaneFrame f(pc.normal, 0.5 * (c.a + c.b));
      const double scale = std::max(edge_a, edge_b);
      const double eps = 1e-9 * scale;
      narrow::detail::HullOf<narrow::detail::kBoxHull> ha, hb;
      triangle_feature(a, f, -1.0, tol_a, -L.ra, ha, eps);
      triangle_feature(b, f, +1.0, tol_b, +L.rb, hb, eps);
      if (patch_contacts(ha, hb, f, eps, margin, fa, fb, col.out) > 0) return;
    }
    Contact k = pc;
    k.feature_a = fa;
    k.feature_b = fb;
    col.out.push_back(k);
  }

  // The shadow test: pair (a, b) is dropped when its witness on A is closer
  // to another triangle of B within the layers (or its witness on B to
  // another of A) than to its partner. In the union of the fattened
  // triangles, which is the body, such a pair's overlap lies inside the
  // other triangle's layer: two coplanar triangles of B sharing an edge make
  // a flat slab, but the pair of a triangle of A over the first with the
  // second meets only its rounded edge and reports an oblique normal in the
  // middle of a flat face. Ties (a witness on a shared edge) keep both.
  // A face lying on a face (face_on_face()) is never such an artefact: only
  // a triangle of the same surface (a higher bump of a noisy one) hides it.
  // Its witness is any point of the overlap, often a corner, where the side
  // faces of a sunk body pass too, nearer than the face below.
  void shadow_and_emit(std::vector<PairHit>& hits, ShadowBuffers& buf, Collector& col) const {
    // Is triangle t within 45° of a face-on-face pair's normal?
    auto same_surface = [](const PairHit& h, const Triangle& t) {
      const Vec3 u = (t[1] - t[0]).cross(t[2] - t[0]);
      return std::abs(u.dot(h.c.a - h.c.b)) >= 0.7071 * u.norm() * h.c.distance;
    };
    auto shadowed = [&](const PairHit& h, const PairHit& g, bool on_a) {
      const double below = h.c.distance - (1e-12 + 1e-9 * h.c.distance);
      const Vec3& w = on_a ? h.c.a : h.c.b;
      if (on_a ? g.ib == h.ib : g.ia == h.ia) return false;
      const PreparedTriangle& other = on_a ? cb[g.sb] : ca[g.sa];
      if (box_distance_sq(w, other.lo, other.hi) >= below * below) return false;
      // g's own witness on the other triangle is a point of it: nearer
      // than `below` settles the distance without the closest point.
      const bool near = (w - (on_a ? g.c.b : g.c.a)).squaredNorm() < below * below;
      if (near && !h.face_on_face) return true;
      const Triangle& t = other.t;
      return (near || mesh::point_triangle(w, t).distance < below) && (!h.face_on_face || same_surface(h, t));
    };
    // Groups by triangle, nearest pairs first within a group, so the scan
    // for a nearer partner stops at the first one that is not. A group is
    // a triangle's cache slot: slots are dense, so a counting sort groups
    // the hits, and the few pairs of a group are put in order of distance
    // by insertion. Which pairs are dropped depends neither on the order of
    // the groups nor on that of equally distant partners (a pair is dropped
    // when any nearer partner shadows it), so only the emission below needs
    // a full order, and it sorts only the pairs that stay.
    std::vector<ShadowMember>& members = buf.members;
    std::vector<std::uint32_t>& end = buf.group_end;
    members.resize(hits.size());
    // A large group (a face of a coarse mesh under a finely meshed body has
    // hundreds of partners) would make the nearest-first scan quadratic,
    // though a partner can shadow h only if its triangle's box comes within
    // `below` of h's witness (shadowed()'s first test). So its members are
    // sorted by where their partners' boxes start along x instead, and h
    // looks only at those starting within `below` plus the group's widest
    // box of its witness: the others fail that first test, so which pairs
    // are dropped does not change (the test is a pure function of the two
    // pairs, and any one shadowing partner drops h, whatever the order).
    constexpr std::size_t kWindowed = 48;
    std::vector<ShadowSpan>& win = buf.window;
    auto mark = [&](bool on_a) {
      const std::size_t groups = on_a ? ca.size() : cb.size();
      end.assign(groups + 1, 0);
      for (const PairHit& h : hits) ++end[(on_a ? h.sa : h.sb) + 1];
      for (std::size_t k = 1; k <= groups; ++k) end[k] += end[k - 1];
      for (std::size_t i = 0; i < hits.size(); ++i) {
        const PairHit& h = hits[i];
        members[end[on_a ? h.sa : h.sb]++] = {h.c.distance, static_cast<std::uint32_t>(i)};
      }
      // Now end[k] is where group k ends (and k + 1 starts).
      std::size_t i = 0;
      for (std::size_t group = 0; group < groups; ++group) {
        const std::size_t j = end[group];
        const bool windowed = j - i > kWindowed;
        double widest = 0.0;
        if (windowed) {
          win.clear();
          for (std::size_t q = i; q < j; ++q) {
            const PairHit& g = hits[members[q].hit];
            const PreparedTriangle& other = on_a ? cb[g.sb] : ca[g.sa];
            widest = std::max(widest, other.hi.x() - other.lo.x());
            win.push_back({other.lo.x(), static_cast<std::uint32_t>(q)});
          }
          std::sort(win.begin(), win.end(), [](const ShadowSpan& x, const ShadowSpan& y) { return x.lo_x < y.lo_x; });
        } else if (j - i > 32) {
          std::sort(members.begin() + static_cast<std::ptrdiff_t>(i), members.begin() + static_cast<std::ptrdiff_t>(j),
                    [](const ShadowMember& x, const ShadowMember& y) { return x.distance < y.distance; });
        } else {
          for (std::size_t k = i + 1; k < j; ++k) {
            const ShadowMember m = members[k];
            std::size_t q = k;
            for (; q > i && members[q - 1].distance > m.distance; --q) members[q] = members[q - 1];
            members[q] = m;
          }
        }
        for (std::size_t p = i; p < j; ++p) {
          PairHit& h = hits[members[p].hit];
          if (h.drop || h.c.intersect || !(h.c.distance > 0.0)) continue;
          // Only a nearer partner can shadow: the witness's distance to the
          // partner's triangle is at least that pair's distance. Not one
          // whose triangles cross: it has no layer to hide h's overlap in,
          // and where cores pass through each other (thin or zero layers)
          // the pairs held behind a face are the ones pushing the right way.
          const double below = h.c.distance - (1e-12 + 1e-9 * h.c.distance);
          // The candidates: members[k] for k in [first, last) nearest first
          // (up to the first that is not nearer), or the window's.
          std::size_t first = i, last = j;
          double to = 0.0;
          if (windowed) {
            const double x = (on_a ? h.c.a : h.c.b).x();
            // Outside [from, to) a box is at least `below` away along x
            // alone; the slack covers the rounding of these two bounds.
            const double slack = 1e-9 * (std::abs(x) + widest + below) + 1e-300;
            const double from = x - below - widest - slack;
            to = x + below + slack;
            first = static_cast<std::size_t>(
                std::lower_bound(win.begin(), win.end(), from,
                                 [](const ShadowSpan& s, double v) { return s.lo_x < v; }) -
                win.begin());
            last = win.size();
          }
          for (std::size_t k = first; k < last && !h.drop; ++k) {
            std::size_t q = k;
            if (windowed) {
              if (!(win[k].lo_x < to)) break;
              q = win[k].member;
              if (!(members[q].distance < below)) continue;
            } else if (!(members[q].distance < below)) {
              break;
            }
            const PairHit& g = hits[members[q].hit];
            h.drop = q != p && !g.c.intersect && g.c.distance > 0.0 && shadowed(h, g, on_a);
          }
        }
        i = j;
      }
    };
    mark(true);
    mark(false);
    std::vector<ShadowKey>& keys = buf.keys;
    keys.clear();
    for (std::size_t i = 0; i < hits.size(); ++i) {
      const PairHit& h = hits[i];
      if (h.drop)
        ++col.stats.shadowed;
      else
        keys.push_back({h.ib, h.ia, h.c.distance, static_cast<std::uint32_t>(i)});
    }
    std::sort(keys.begin(), keys.end(), [](const ShadowKey& x, const ShadowKey& y) {
      if (x.tri != y.tri) return x.tri < y.tri;
      if (x.distance != y.distance) return x.distance < y.distance;
      return x.other < y.other;
    });
    for (const ShadowKey& k : keys) {
      const PairHit& h = hits[k.hit];
      emit(h.ia, h.ib, ca[h.sa].t, cb[h.sb].t, h.c, col);
    }
  }

  double node_bound(std::uint32_t a, std::uint32_t b) const {
    if (!A.obbs().empty() && !B.obbs().empty()) return obb_bound(A.obbs()[a], B.obbs()[b], nodes);
    return box_bound<true>(geom(A.nodes()[a]), geom(B.nodes()[b]), nodes);
  }

  Status run(bool traverse_only, Collector& col) const {
    struct Item {
      std::uint32_t a, b;
    };
    Item stack[kStack];
    int sp = 0;
    const std::vector<BvhNode>& na = A.nodes();
    const std::vector<BvhNode>& nb = B.nodes();
    const std::vector<std::uint32_t>& oa = A.order();
    const std::vector<std::uint32_t>& ob = B.order();
    ++col.stats.node_pairs;
    if (node_bound(0, 0) > L.limit) return Status::ok;
    stack[sp++] = {0, 0};
    std::uint32_t sa[kMaxLeaf], sb[kMaxLeaf];
    std::uint32_t leaf_a = kNoLeaf, leaf_b = kNoLeaf;
    while (sp > 0) {
      const Item it = stack[--sp];
      const BvhNode& x = na[it.a];
      const BvhNode& y = nb[it.b];
      if (x.leaf() && y.leaf()) {
        if (traverse_only) {
          col.stats.triangle_tests += std::size_t(x.count) * y.count;
          continue;
        }
        // Depth first, consecutive leaf pairs often share a leaf: its slots
        // are still those looked up last.
        if (it.b != leaf_b) {
          for (std::uint32_t j = 0; j < y.count; ++j) {
            const std::uint32_t t = ob[y.index + j];
            sb[j] = cb.slot(t, [&] { return b_in_a(t); });
          }
          leaf_b = it.b;
        }
        if (it.a != leaf_a) {
          for (std::uint32_t i = 0; i < x.count; ++i) {
            const std::uint32_t t = oa[x.index + i];
            sa[i] = ca.slot(t, [&] { return triangle_of(A.mesh(), t); });
          }
          leaf_a = it.a;
        }
        for (std::uint32_t i = 0; i < x.count; ++i)
          for (std::uint32_t j = 0; j < y.count; ++j) pair(oa[x.index + i], ob[y.index + j], sa[i], sb[j], col);
        continue;
      }
      const bool split_a = !x.leaf() && (y.leaf() || size_of(x) >= size_of(y));
      const Item c0 = split_a ? Item{x.index, it.b} : Item{it.a, y.index};
      const Item c1 = split_a ? Item{x.index + 1, it.b} : Item{it.a, y.index + 1};
      if (sp + 2 > kStack) return Status::not_converged;
      col.stats.node_pairs += 2;
      if (node_bound(c1.a, c1.b) <= L.limit) stack[sp++] = c1;
      if (node_bound(c0.a, c0.b) <= L.limit) stack[sp++] = c0;
    }
    return Status::ok;
  }
};

// ------------------------------------------------------------- mesh–convex

template <class S>
double shape_extent(const S& s) {
  const Aabb box = s.local_aabb();
  return (box.max - box.min).maxCoeff();
}

// Mesh A against convex S, in world coordinates (GJK works on poses).
template <class S>
struct MeshConvex {
  const Bvh& A;
  const S& shape;
  const Transform& ta;
  const Transform& tb;
  Layers L;
  double margin;
  ShapeInNodes placed;
  Status status = Status::ok;

  MeshConvex(const Bvh& a, const Transform& pose_a, const S& s, const Transform& pose_b,
             const MeshContactOptions& o)
      : A(a), shape(s), ta(pose_a), tb(pose_b), margin(o.margin), placed(a, pose_a, s, pose_b) {
    L.ra = a.mesh().margin();
    L.rb = s.core_inflation();
    L.limit = L.ra + L.rb + o.margin;
    L.tan_patch = std::tan(o.patch_angle);
    L.cos_patch = std::cos(o.patch_angle);
  }

  double bound(const BvhNode& n) const { return placed.bound(n); }

  void triangle(std::uint32_t t, Collector& col) {
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
    const int fa = static_cast<int>(t);
    if (g.overlap || !(g.distance > 0.0)) {
      const EpaResult e = epa(tri, ta, shape, tb, simplex);
      if (e.status != Status::ok) status = e.status;
      col.flagged(0.5 * (e.point_a + e.point_b), e.normal, e.depth, fa, -1, L);
      return;
    }
    const Contact pc = point_contact(g.point_a, g.point_b, g.distance, L);
    col.note(g.distance, pc.normal, L);
    const Triangle w = triangle_of(m, t, ta);
    if (L.tan_patch > 0.0 && feature_size(w, pc.normal, -1.0, L.tan_patch * longest_edge(w)) >= 2) {
      const PlaneFrame f(pc.normal, 0.5 * (g.point_a + g.point_b));
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

  Status run(bool traverse_only, Collector& col) {
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
        for (std::uint32_t i = 0; i < x.count; ++i) triangle(order[x.index + i], col);
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

// Largest side of a mesh's box (layer included): the scale of tolerances.
double extent(const Bvh& m) {
  const Aabb b = m.mesh().local_aabb();
  return (b.max - b.min).maxCoeff();
}

void reset(ContactSet& out) {
  out.points.clear();
  out.status = Status::ok;
  out.distance = 0.0;
  out.normal = Vec3::UnitZ();
}

// Common tail: the pair's distance and normal, world frame, clustering.
void finish(Collector& col, const Transform* to_world, const MeshContactOptions& o, double size, Status status,
            ContactSet& out) {
  out.status = status;
  col.stats.raw_contacts = out.points.size();
  if (out.points.empty()) {
    out.distance = std::isfinite(col.best) ? col.best : 0.0;
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
bool start(const Transform& pose_a, const Transform& pose_b, const MeshContactOptions& options, ContactSet& out,
           MeshContactStats& st) {
  reset(out);
  st = {};
  if (bad_options(options) || options.clustering.max_contacts < 1 || !pose_a.is_finite() || !pose_b.is_finite()) {
    out.status = Status::invalid_input;
    return false;
  }
  return true;
}

}  // namespace

struct MeshContactScratch::Buffers {
  std::vector<PairHit> hits;
  ShadowBuffers shadow;
  mesh::detail::TriangleCache a, b;
};

MeshContactScratch::MeshContactScratch() : buffers_(std::make_unique<Buffers>()) {}
MeshContactScratch::~MeshContactScratch() = default;
MeshContactScratch::MeshContactScratch(MeshContactScratch&&) noexcept = default;
MeshContactScratch& MeshContactScratch::operator=(MeshContactScratch&&) noexcept = default;

void mesh_contacts(const Bvh& a, const Transform& pose_a, const Bvh& b, const Transform& pose_b,
                   const MeshContactOptions& options, ContactSet& out, MeshContactScratch& scratch,
                   MeshContactStats* stats) {
  MeshContactStats local;
  MeshContactStats& st = stats ? *stats : local;
  if (!start(pose_a, pose_b, options, out, st)) return;
  if (!scratch.buffers_) scratch.buffers_ = std::make_unique<MeshContactScratch::Buffers>();  // moved from
  MeshContactScratch::Buffers& buf = *scratch.buffers_;
  buf.hits.clear();
  buf.a.clear();
  buf.b.clear();
  // A first guess that spares small meshes' queries the growth of every
  // buffer (a reused scratch has its room already).
  constexpr std::size_t kGuess = 64;
  buf.a.reserve(std::min<std::size_t>(a.mesh().triangle_count(), kGuess));
  buf.b.reserve(std::min<std::size_t>(b.mesh().triangle_count(), kGuess));
  buf.hits.reserve(kGuess);
  const MeshMesh pair(a, pose_a, b, pose_b, options, buf.a, buf.b);
  Collector col{out.points, st};
  if (options.drop_shadowed) col.hits = &buf.hits;
  const Status status = pair.run(options.traverse_only, col);
  if (col.hits) pair.shadow_and_emit(buf.hits, buf.shadow, col);
  finish(col, &pose_a, options, std::max(extent(a), extent(b)), status, out);
}

void mesh_contacts(const Bvh& a, const Transform& pose_a, const Bvh& b, const Transform& pose_b,
                   const MeshContactOptions& options, ContactSet& out, MeshContactStats* stats) {
  MeshContactScratch scratch;
  mesh_contacts(a, pose_a, b, pose_b, options, out, scratch, stats);
}

void mesh_contacts(const Bvh& a, const Transform& pose_a, const Shape& b, const Transform& pose_b,
                   const MeshContactOptions& options, ContactSet& out, MeshContactStats* stats) {
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
          MeshConvex<S> pair(a, pose_a, s, pose_b, options);
          const Status status = pair.run(options.traverse_only, col);
          finish(col, nullptr, options, std::max(extent(a), shape_extent(s)), status, out);
        }
      },
      b.variant());
}

}  // namespace proxima
