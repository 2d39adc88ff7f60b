// SPDX-License-Identifier: BSD-3-Clause
// BLEM contact generation (Hauser 2013, §3.2), mesh–mesh:
// every triangle pair within the boundary layers through a BVH pair
// traversal that prunes node pairs farther apart than the layers, then per
// pair the closest points (or, for faces and edges lying on each other,
// their overlap patch), then optional clustering (contact/cluster.hpp).
// Mesh–convex and mesh–halfspace: mesh_convex_contacts.cpp.
#include <algorithm>
#include <cmath>
#include <limits>

#include <proxima/mesh/mesh_contacts.hpp>

#include "contact_common.hpp"
#include "feature_pairs.hpp"
#include "prepared_triangle.hpp"
#include "retraction.hpp"
#include "triangle_cache.hpp"
#include "traversal.hpp"

namespace proxima {
namespace {

using namespace mesh::contact_detail;

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

// ---------------------------------------------------------------- mesh–mesh

struct MeshMesh {
  const Bvh& A;
  const Bvh& B;
  Transform ab;     // B's mesh frame → A's
  Placement nodes;  // B's node frame → A's node frame
  Layers L;
  double margin;
  int orient_a, orient_b;  // TriangleMesh::orientation()
  // Both closed and oriented, without layers: the meshes are the solids'
  // surfaces, and pairs are read as such (side_by_side(), facing()). With
  // layers the bodies are the fattened triangles (the paper's), whose
  // pairs these rules would not describe.
  bool solids;
  TriangleCache& ca;       // A's triangles this query touched
  TriangleCache& cb;       // B's, in A's frame

  MeshMesh(const Bvh& a, const Transform& ta, const Bvh& b, const Transform& tb, const MeshContactOptions& o,
           TriangleCache& cache_a, TriangleCache& cache_b)
      : A(a), B(b), ab(ta.inverse() * tb), nodes(node_placement(ab, a, b)), margin(o.margin),
        orient_a(a.mesh().orientation()), orient_b(b.mesh().orientation()), ca(cache_a), cb(cache_b) {
    L.ra = a.mesh().margin();
    L.rb = b.mesh().margin();
    solids = orient_a != 0 && orient_b != 0 && L.ra == 0.0 && L.rb == 0.0;
    L.limit = L.ra + L.rb + o.margin;
    L.tan_patch = std::tan(o.patch_angle);
    L.cos_patch = std::cos(o.patch_angle);
  }

  Triangle b_in_a(std::uint32_t t) const { return triangle_of(B.mesh(), t, ab); }

  // The pair's boxes are within the layers: its first test, which
  // leaf_pairs() runs over a whole leaf pair before the others.
  bool boxes_within(const PreparedTriangle& pa, const PreparedTriangle& pb) const {
    return !((pa.lo - pb.hi).cwiseMax(pb.lo - pa.hi).cwiseMax(0.0).squaredNorm() > L.limit * L.limit);
  }

  // Every pair of a leaf pair (slots sa[0, na) × sb[0, nb), triangles ta,
  // tb), in the order i then j. The box test comes first for all of them,
  // without a branch per pair: which pairs pass is no pattern a branch
  // predictor learns (about half do in the terrain benchmark), and the
  // mispredictions cost more than the tests. The pairs that pass go on to
  // pair() in the same order as before.
  void leaf_pairs(const std::uint32_t* ta, const std::uint32_t* tb, const std::uint32_t* sa, const std::uint32_t* sb,
                  std::uint32_t na, std::uint32_t nb, Collector& col) const {
    col.stats.triangle_tests += std::size_t(na) * nb;
    std::uint8_t pass[kMaxLeaf * kMaxLeaf];
    std::uint32_t n = 0;
    for (std::uint32_t i = 0; i < na; ++i) {
      const PreparedTriangle& pa = ca[sa[i]];
      for (std::uint32_t j = 0; j < nb; ++j) {
        pass[n] = static_cast<std::uint8_t>(i * kMaxLeaf + j);
        n += boxes_within(pa, cb[sb[j]]) ? 1u : 0u;
      }
    }
    for (std::uint32_t k = 0; k < n; ++k) {
      const std::uint32_t i = pass[k] / kMaxLeaf, j = pass[k] % kMaxLeaf;
      pair(ta[i], tb[j], sa[i], sb[j], col);
    }
  }

  // One triangle pair (A's frame) whose boxes are within the layers: within
  // the layers, it is kept in `hits` for the shadow test, or made into
  // contacts at once.
  void pair(std::uint32_t ia, std::uint32_t ib, std::uint32_t sa, std::uint32_t sb, Collector& col) const {
    PreparedTriangle& pa = ca[sa];
    PreparedTriangle& pb = cb[sb];
    if (centroid_gap(pa, pb) > L.limit) return;
    const PairHeights hs = pair_heights(pa, pb);
    const double pg = plane_gap(pa, pb, hs);
    if (pg > L.limit) return;
    const mesh::ClosestPoints c = prepared_distance(pa, pb, !(pg > 0.0), hs);
    if (c.distance > L.limit || (solids && side_by_side(pa, pb))) return;
    bool behind = false;
    if (solids && c.distance > 0.0 && !c.intersect) {
      const Vec3 n = (c.a - c.b) / c.distance;
      Vec3 out;
      behind = behind_face(pa.t, pb.t, n, out);
      if (!behind && !facing(pa, pb, n)) return;
    }
    ++col.stats.pairs_within;
    if (col.hits) {
      const bool flat = c.distance > 0.0 && !c.intersect && face_on_face(pa, pb, (c.a - c.b) / c.distance, L.cos_patch);
      PairHit& h = col.hits->emplace_back(PairHit{ia, ib, sa, sb, c, flat});
      h.behind = behind;
      return;
    }
    emit(ia, ib, pa.t, pb.t, c, col);
  }

  // Solids (closed, oriented, no layers): faces parallel within 0.01 rad with their
  // outward normals the same way bound the two solids on the same side, so
  // they are no contact, whether apart or crossing: where such faces of
  // stacked cubes lie flush, the cubes meet through their top and bottom
  // faces, and those pairs say so. Kept, a pair of them pushed the cubes
  // sideways by the faces' offset: a witness of one face 10 µm behind the
  // other reads as having passed through it.
  bool side_by_side(PreparedTriangle& a, PreparedTriangle& b) const {
    constexpr double kSin = 1e-2;
    const Vec3& ua = a.face().n;
    const Vec3& ub = b.face().n;
    const double la = a.normal_length(), lb = b.normal_length();
    return la > 0.0 && lb > 0.0 && orient_a * orient_b * ua.dot(ub) > 0.0 &&
           ua.cross(ub).squaredNorm() <= kSin * kSin * la * la * lb * lb;
  }

  // Solids (closed, oriented, no layers), triangles apart with normal n (B→A): do they
  // face each other, A's outward normal against n and B's along it (within
  // 0.01)? Two solids touch where their surfaces face each other; a pair
  // whose triangle turns its back on the other lies where the solids
  // already overlap (an edge of one stacked cube passing 1 µm outside the
  // side of the cube it has sunk into), which the crossing pairs there
  // account for. Of the triangles around an edge or a corner touching a
  // solid from outside, those that face it keep the contact.
  bool facing(PreparedTriangle& a, PreparedTriangle& b, const Vec3& n) const {
    constexpr double kSlack = 1e-2;
    const double la = a.normal_length(), lb = b.normal_length();
    const bool a_faces = !(la > 0.0) || orient_a * n.dot(a.face().n) <= kSlack * la;
    const bool b_faces = !(lb > 0.0) || orient_b * n.dot(b.face().n) >= -kSlack * lb;
    return a_faces && b_faces;
  }

  // Closed oriented meshes: is A's witness straight behind the face b
  // (inside B), or B's straight behind a? `n` is the pair's normal (B→A).
  // Then `out` is the direction that takes A back out. Only face-interior
  // witnesses count (n along the face normal): near an edge or a concave
  // corner a witness off the face's plane says nothing about inside. Thin
  // walls are no trap: a pair reaching through a wall to its far face is
  // shadowed by the near face first.
  //
  // Two faces facing each other (parallel within the patch angle, outward
  // normals opposed) that have passed through each other by less than a
  // rounding error of their tilt are a gap pair whose witnesses sit on
  // edges, so n leans off the face normal by about the faces' relative
  // tilt: for them n within the patch angle of the wrong way is enough.
  // Stacked cubes of the r = 0 mesh stack, sunk 0.8 µm with a 5 mrad lean
  // of n, got a "gap" contact pushing the two cubes into each other.
  bool behind_face(const Triangle& a, const Triangle& b, const Vec3& n, Vec3& out) const {
    constexpr double kAligned = 1.0 - 1e-9;
    auto unit_normal = [](const Triangle& t, Vec3& u) {
      u = (t[1] - t[0]).cross(t[2] - t[0]);
      const double len = u.norm();
      if (!(len > 0.0)) return false;
      u /= len;
      return true;
    };
    Vec3 u, v;
    double aligned = kAligned;
    if (orient_a != 0 && orient_b != 0 && unit_normal(a, u) && unit_normal(b, v) &&
        orient_a * orient_b * u.dot(v) <= -L.cos_patch)
      aligned = std::min(kAligned, L.cos_patch);
    if (orient_b != 0 && unit_normal(b, u) && orient_b * n.dot(u) < -aligned) {
      out = orient_b * u;
      return true;
    }
    if (orient_a != 0 && unit_normal(a, u) && orient_a * n.dot(u) > aligned) {
      out = -orient_a * u;
      return true;
    }
    return false;
  }

  // `retraction`: the hit, when retract_crossings() has set its retraction.
  void emit(std::uint32_t ia, std::uint32_t ib, const Triangle& a, const Triangle& b, const mesh::ClosestPoints& c,
            Collector& col, const PairHit* retraction = nullptr) const {
    const int fa = static_cast<int>(ia), fb = static_cast<int>(ib);
    if (c.intersect || !(c.distance > 0.0)) {
      Vec3 n;
      double core_depth;
      if (retraction) {
        n = retraction->retract_dir;
        core_depth = retraction->retract_depth;
      } else {
        triangle_retraction(a, b, orient_a, orient_b, {}, n, core_depth);
      }
      // Closed meshes: a contact at each end of the crossing, where the
      // solids' overlap has its corners (a side face through a top face
      // gives the bottom edge's two ends), rather than at one arbitrary
      // point of it that moves along the edge from step to step.
      Vec3 ends[6];
      const int k = orient_a != 0 && orient_b != 0 ? crossing_points(a, b, ends) : 0;
      if (k == 0) col.flagged(0.5 * (c.a + c.b), n, core_depth, fa, fb, L);
      for (int i = 0; i < k; ++i) col.flagged(ends[i], n, core_depth, fa, fb, L);
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
    if (patch(a, b, c, pc.normal, fa, fb, col)) return;
    Contact k = pc;
    k.feature_a = fa;
    k.feature_b = fb;
    col.out.push_back(k);
  }

  // Do the triangles (apart, normal n) both face each other with an edge or
  // a face within the patch angle? Then patch() may give their overlap.
  bool patch_shaped(PreparedTriangle& a, PreparedTriangle& b, const Vec3& n) const {
    if (!(L.tan_patch > 0.0)) return false;
    // feature_size(t, n, sign, tan_patch · longest_edge(t)) ≥ 2, squared:
    // the second highest corner within the tolerance of the highest. The
    // edges' squared lengths are the edge frame's (the same operations).
    auto shaped = [&](PreparedTriangle& p, double sign) {
      const Triangle& t = p.t;
      const double h0 = sign * n.dot(t[0]), h1 = sign * n.dot(t[1]), h2 = sign * n.dot(t[2]);
      const double top = std::max({h0, h1, h2}), low = std::min({h0, h1, h2});
      const double gap = top - (h0 + h1 + h2 - top - low);
      const double* l = p.edges().l;
      const double e2 = std::max({l[0], l[1], l[2]});
      return gap * gap <= L.tan_patch * L.tan_patch * e2;
    };
    return shaped(a, -1.0) && shaped(b, 1.0);
  }

  // The overlap of the facing features of a pair apart (normal n): true
  // when it gave at least two contacts (added to col.out).
  bool patch(const Triangle& a, const Triangle& b, const mesh::ClosestPoints& c, const Vec3& n, int fa, int fb,
             Collector& col) const {
    const double edge_a = longest_edge(a), edge_b = longest_edge(b);
    const double tol_a = L.tan_patch * edge_a, tol_b = L.tan_patch * edge_b;
    if (!(L.tan_patch > 0.0) || feature_size(a, n, -1.0, tol_a) < 2 || feature_size(b, n, 1.0, tol_b) < 2)
      return false;
    const PlaneFrame f(n, 0.5 * (c.a + c.b));
    const double scale = std::max(edge_a, edge_b);
    const double eps = 1e-9 * scale;
    narrow::detail::HullOf<narrow::detail::kBoxHull> ha, hb;
    triangle_feature(a, f, -1.0, tol_a, -L.ra, ha, eps);
    triangle_feature(b, f, +1.0, tol_b, +L.rb, hb, eps);
    return patch_contacts(ha, hb, f, eps, margin, fa, fb, col.out) > 0;
  }

  // ------------------------------------------------ feature pairs (feature_pairs.hpp)

  // Is x (a witness on A when on_a, else on B) strictly nearer, beyond
  // rounding, than d to a triangle of the other mesh in a hit of `slot`'s
  // group (a triangle holding the witness)? Every triangle of the other mesh
  // within d of x is such a partner. `same_surface`: only triangles within
  // 45° of the normal count (a patch's witness is any point of the overlap).
  // A large group (a coarse face under a fine mesh) is sorted by where its
  // partners' boxes start along x (sort_groups()), and only those
  // starting within d plus its widest box of x are looked at: the others
  // are farther than d along x alone.
  bool nearer(const Vec3& x, double d, std::uint32_t slot, bool on_a, const FeatureBuffers& fb,
              const Vec3* same_surface) const {
    const double below = d - (1e-12 + 1e-9 * d);
    const std::vector<std::uint32_t>& end = on_a ? fb.end_a : fb.end_b;
    const GroupMember* member = (on_a ? fb.members_a : fb.members_b).data();
    TriangleCache& others = on_a ? cb : ca;
    std::uint32_t k = slot ? end[slot - 1] : 0, stop = end[slot];
    const bool large = stop - k > kLargeGroup;
    double to = std::numeric_limits<double>::infinity();
    if (large) {
      const double widest = (on_a ? fb.widest_a : fb.widest_b)[slot];
      const double slack = 1e-9 * (std::abs(x.x()) + widest + below) + 1e-300;
      const double from = x.x() - below - widest - slack;
      to = x.x() + below + slack;
      k = static_cast<std::uint32_t>(std::partition_point(member + k, member + stop, [&](const GroupMember& m) {
                                       return others[m.other].lo.x() < from;
                                     }) - member);
    }
    for (; k < stop; ++k) {
      if (large && !(others[member[k].other].lo.x() < to)) break;
      // The pair's distance bounds the witness's from below.
      if (!(member[k].distance < below)) continue;
      PreparedTriangle& o = others[member[k].other];
      if (box_distance_sq(x, o.lo, o.hi) >= below * below) continue;
      if (!within(x, o, below)) continue;
      if (!same_surface) return true;
      const Vec3 u = (o.t[1] - o.t[0]).cross(o.t[2] - o.t[0]);
      if (std::abs(u.dot(*same_surface)) >= 0.7071 * u.norm() * d) return true;
    }
    return false;
  }

  // Is x nearer than `below` to triangle o (point_triangle's distance)?
  // The plane's distance bounds it from below, and over the face's
  // interior, clear of its rim by more than rounding, it is the distance:
  // the closest point is needed only near the rim or beyond it.
  static bool within(const Vec3& x, PreparedTriangle& o, double below) {
    const FaceFrame& f = o.face();
    if (f.face) {
      const Vec3 ax = x - o.t[0];
      const double h = f.n.dot(ax);
      const double lim = below * below * f.nn;
      if (h * h >= lim) return false;
      const double v = ax.dot(f.cv), w = ax.dot(f.cw), rim = 1e-9 * f.nn;
      if (v > rim && w > rim && v + w < f.nn - rim && h * h < (1.0 - 1e-9) * lim) return true;
    }
    return mesh::detail::point_triangle(x, o.t, f).distance < below;
  }

  // Groups of more than kLargeGroup hits in order of their partners' boxes
  // along x, with the widest of those boxes (nearer()'s window); smaller
  // ones as they come.
  static constexpr std::uint32_t kLargeGroup = 48;
  void sort_groups(bool on_a, FeatureBuffers& fb) const {
    const std::vector<std::uint32_t>& end = on_a ? fb.end_a : fb.end_b;
    std::vector<GroupMember>& mem = on_a ? fb.members_a : fb.members_b;
    std::vector<double>& widest = on_a ? fb.widest_a : fb.widest_b;
    TriangleCache& others = on_a ? cb : ca;
    widest.assign(end.size(), 0.0);
    for (std::size_t s = 0; s + 1 < end.size(); ++s) {
      const std::uint32_t first = s ? end[s - 1] : 0;
      // A small group is scanned whole: sorting it costs more than the
      // members it would let nearer() skip (it returns whether any member
      // is nearer, so the order is no matter).
      if (end[s] - first <= kLargeGroup) continue;
      std::sort(mem.begin() + first, mem.begin() + end[s], [&](const GroupMember& x, const GroupMember& y) {
        return others[x.other].lo.x() < others[y.other].lo.x();
      });
      for (std::uint32_t k = first; k < end[s]; ++k) {
        const PreparedTriangle& o = others[mem[k].other];
        widest[s] = std::max(widest[s], o.hi.x() - o.lo.x());
      }
    }
  }

  // x over the interior of p's face: its foot there.
  static bool over_face(const Vec3& x, PreparedTriangle& p, Vec3& foot) {
    const FaceFrame& f = p.face();
    if (!f.face) return false;
    const Vec3 ax = x - p.t[0];
    const double v = ax.dot(f.cv), w = ax.dot(f.cw);
    if (!(v > 0.0) || !(w > 0.0) || !(v + w < f.nn)) return false;  // the rim is the edges' pairs
    foot = p.t[0] + (v / f.nn) * f.ab + (w / f.nn) * f.ac;
    return true;
  }

  // Does `out` (`cover`: its contacts by x) hold c already: a contact
  // within tol whose normal is within the patch angle of c's? A face lying
  // on a face within the patch angle gives its patch from the pair's normal,
  // and a corner of one face over the other is a feature pair with the
  // other's normal, its witnesses apart by up to the tilt times d.
  bool covered(const Contact& c, const std::vector<std::pair<double, std::uint32_t>>& cover,
               const std::vector<Contact>& out, double tol) const {
    auto it = std::lower_bound(cover.begin(), cover.end(), std::make_pair(c.point.x() - tol, std::uint32_t{0}));
    for (; it != cover.end() && it->first <= c.point.x() + tol; ++it) {
      const Contact& e = out[it->second];
      if ((e.point - c.point).squaredNorm() <= tol * tol && e.normal.dot(c.normal) >= std::min(L.cos_patch, 1.0 - 1e-9))
        return true;
    }
    return false;
  }

  // How far beyond a triangle pair's own distance D a feature pair of
  // theirs may lie and still pass the mutual test below (span: at least the
  // sum of the two triangles' longest edges; limit: the layers); farther,
  // it fails it (its own triangles have a point nearer than the test's
  // `below` to one of its witnesses), so it is not tested. Why: with n the
  // unit vector from x_B to x_A at distance d, if no point of A is nearer
  // to x_B than d (1 − τ), then along the segment from x_A to any y of A
  // (A is convex), n·(y − x_A) ≥ −(√ε |y − x_A| + ε d) with ε = 2τ; the
  // same holds on B, and projecting on n, every y of A and z of B are at
  // least d − √ε span − 2 ε d apart, so d ≤ D + √ε span + 2 ε d. The test's
  // τ is 1e-9 + 1e-12 / d (nearer()'s `below`), largest at the smallest d
  // (D, less its rounding); doubled here, d ≤ limit in the last term, and
  // 1e-12 of the span added for the rounding of the distances and heights.
  static double mutual_reach(double D, double span, double limit) {
    const double eps = 2.0 * 2.0 * (1e-9 + 1e-12 / (0.5 * D));
    return std::sqrt(eps) * span + 2.0 * eps * limit + 1e-12 * span;
  }

  // The feature-pair raw set (MeshContactOptions::feature_pairs).
  void feature_emit(std::vector<PairHit>& hits, FeatureBuffers& fb, RetractionBuffers& rbuf, double scale,
                    Collector& col) const {
    retract_crossings(hits, rbuf);
    fb.covers.assign(hits.size(), 0);
    const std::size_t first_out = col.out.size();
    const double tol = 1e-9 * scale;
    group_hits(hits, true, ca.size(), fb.by_a, fb.end_a);
    group_hits(hits, false, cb.size(), fb.by_b, fb.end_b);
    // Each group's pair distances and partners side by side, for nearer().
    fb.members_a.resize(hits.size());
    fb.members_b.resize(hits.size());
    for (std::size_t k = 0; k < hits.size(); ++k) {
      const PairHit& ga = hits[fb.by_a[k]];
      const PairHit& gb = hits[fb.by_b[k]];
      fb.members_a[k] = {ga.c.distance, ga.sb};
      fb.members_b[k] = {gb.c.distance, gb.sa};
    }
    sort_groups(true, fb);
    sort_groups(false, fb);
    // Crossing cores and witnesses behind a face: today's contacts. Apart,
    // facing features within the patch angle: today's patch, unless a
    // triangle of the other surface is nearer to a witness (the shadow
    // test's rule for them). These pairs cover the feature pairs they hold.
    for (std::size_t i = 0; i < hits.size(); ++i) {
      const PairHit& h = hits[i];
      const Triangle& ta = ca[h.sa].t;
      const Triangle& tb = cb[h.sb].t;
      const bool apart = !h.c.intersect && h.c.distance > 0.0;
      const Vec3 n = apart ? Vec3((h.c.a - h.c.b) / h.c.distance) : Vec3(Vec3::UnitZ());
      Vec3 out;
      // Behind a face: h.behind for solids, emit()'s own test otherwise.
      if (!apart || h.behind || (orient_a != 0 && orient_b != 0 && behind_face(ta, tb, n, out))) {
        fb.covers[i] = 1;
        if (!h.covered) emit(h.ia, h.ib, ta, tb, h.c, col, h.retracted ? &h : nullptr);
        continue;
      }
      if (!patch_shaped(ca[h.sa], cb[h.sb], n)) continue;
      const Vec3* surface = h.face_on_face ? &n : nullptr;
      if (nearer(h.c.b, h.c.distance, h.sb, false, fb, surface) ||
          nearer(h.c.a, h.c.distance, h.sa, true, fb, surface))
        continue;
      if (patch(ta, tb, h.c, n, static_cast<int>(h.ia), static_cast<int>(h.ib), col)) {
        fb.covers[i] = 1;
        col.note(h.c.distance, n, L);
      }
    }
    // What the patches and crossings gave, by x: a feature pair there is
    // theirs (below).
    std::vector<std::pair<double, std::uint32_t>>& cover = fb.cover;
    cover.clear();
    for (std::size_t k = first_out; k < col.out.size(); ++k)
      cover.emplace_back(col.out[k].point.x(), static_cast<std::uint32_t>(k));
    std::sort(cover.begin(), cover.end());
    const std::vector<std::uint8_t>& owns_a = A.feature_owners();
    const std::vector<std::uint8_t>& owns_b = B.feature_owners();
    // Each owned pair within the layers, kept when mutually nearest.
    fb.found.clear();
    for (std::size_t i = 0; i < hits.size(); ++i) {
      if (fb.covers[i]) continue;
      const PairHit& h = hits[i];
      // Each vertex and edge through its owning triangle (Bvh::feature_owners):
      // a pair within the layers has all its triangles' pairs within them too.
      const unsigned oa = owns_a[h.ia], ob = owns_b[h.ib];
      const unsigned own_va = oa & 7u, own_vb = ob & 7u, own_ea = oa >> 3, own_eb = ob >> 3;
      if (!(own_va | own_vb | (own_ea && own_eb))) continue;
      PreparedTriangle& pa = ca[h.sa];
      PreparedTriangle& pb = cb[h.sb];
      // Only feature pairs within `reach` of the triangles' own distance
      // can pass the mutual test (mutual_slack()); the corners' heights over
      // the other triangle's plane bound from below the distance of every
      // feature holding them, so whole edges and corners are ruled out
      // before their closest points are computed.
      const double D = h.c.distance;
      const double span = (pa.hi - pa.lo).sum() + (pb.hi - pb.lo).sum();  // ≥ the longest edges' sum
      const double reach = D + mutual_reach(D, span, L.limit);
      // Heights (times the plane normal's length) of A's corners over B's
      // plane and of B's over A's; `far_*`: bit k set when corner k is
      // beyond reach, and per edge when both ends are, on the same side.
      auto beyond = [&](PreparedTriangle& from, PreparedTriangle& over, unsigned& far_v, unsigned& far_e) {
        far_v = far_e = 0;
        const FaceFrame& f = over.face();
        if (!f.face) return;
        const double lim = reach * over.normal_length();
        double ht[3];
        for (int k = 0; k < 3; ++k) {
          ht[k] = f.n.dot(from.t[k] - over.t[0]);
          if (std::abs(ht[k]) > lim) far_v |= 1u << k;
        }
        for (int k = 0; k < 3; ++k) {
          const int m = (k + 1) % 3;
          if ((far_v >> k & 1u) && (far_v >> m & 1u) && (ht[k] > 0.0) == (ht[m] > 0.0)) far_e |= 1u << k;
        }
      };
      unsigned far_va, far_ea, far_vb, far_eb;
      beyond(pa, pb, far_va, far_ea);
      beyond(pb, pa, far_vb, far_eb);
      // own_a: may xb be nearer to A's own triangle than xa (false for A's
      // vertex over B's face, own_b likewise)?
      auto consider = [&](const Vec3& xa, const Vec3& xb, bool own_a, bool own_b) {
        const double d = (xa - xb).norm();
        if (!(d > 0.0) || d > L.limit || d > reach) return;
        ++col.stats.feature_pairs;
        // The pair's own triangles first: between two surfaces lying
        // along each other most edge pairs have a face of theirs nearer.
        const double below = d - (1e-12 + 1e-9 * d);
        if ((own_b && mesh::detail::point_triangle(xa, pb.t, pb.face()).distance < below) ||
            (own_a && mesh::detail::point_triangle(xb, pa.t, pa.face()).distance < below) ||
            nearer(xb, d, h.sb, false, fb, nullptr) || nearer(xa, d, h.sa, true, fb, nullptr)) {
          ++col.stats.shadowed;
          return;
        }
        fb.found.push_back({xa, xb, d, static_cast<std::uint32_t>(i)});
      };
      Vec3 foot;
      for (int k = 0; k < 3; ++k) {
        if ((own_va >> k & 1u) && !(far_va >> k & 1u) && over_face(pa.t[k], pb, foot))
          consider(pa.t[k], foot, true, false);
        if ((own_vb >> k & 1u) && !(far_vb >> k & 1u) && over_face(pb.t[k], pa, foot))
          consider(foot, pb.t[k], false, true);
      }
      const unsigned edges_a = own_ea & ~far_ea, edges_b = own_eb & ~far_eb;
      if (!edges_a || !edges_b) continue;
      // The edges' boxes farther apart than this: so are the edges.
      const double edge_reach = std::min(L.limit, reach);
      for (int p = 0; p < 3; ++p) {
        if (!(edges_a >> p & 1u)) continue;
        for (int q = 0; q < 3; ++q) {
          if (!(edges_b >> q & 1u)) continue;
          const Vec3 &p0 = pa.t[p], &p1 = pa.t[(p + 1) % 3], &q0 = pb.t[q], &q1 = pb.t[(q + 1) % 3];
          const Vec3 gap = (p0.cwiseMin(p1) - q0.cwiseMax(q1)).cwiseMax(q0.cwiseMin(q1) - p0.cwiseMax(p1));
          if (gap.cwiseMax(0.0).squaredNorm() > edge_reach * edge_reach) continue;
          Vec3 xa, xb;
          mesh::segment_closest(p0, p1, q0, q1, xa, xb);
          consider(xa, xb, true, true);
        }
      }
    }
    merge_copies(fb.found, scale);
    for (const FeatureWitness& w : fb.found) {
      const PairHit& h = hits[w.hit];
      const Contact pc = point_contact(w.a, w.b, w.distance, L);
      Vec3 out;
      // Closed oriented meshes: a witness behind the other's face is the
      // crossing's to account for (as a triangle pair's is).
      if (orient_a != 0 && orient_b != 0 && behind_face(ca[h.sa].t, cb[h.sb].t, pc.normal, out)) continue;
      // A vertex of a patch or a crossing's contact already: an exactly
      // flat rest's corners and edge crossings are feature pairs too.
      if (covered(pc, cover, col.out, tol + 2.0 * L.tan_patch * w.distance)) continue;
      col.note(w.distance, pc.normal, L);
      Contact k = pc;
      k.feature_a = static_cast<int>(h.ia);
      k.feature_b = static_cast<int>(h.ib);
      col.out.push_back(k);
    }
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
  //
  // Closed oriented meshes first get each crossing pair's retraction over
  // its neighbourhood (retract_crossings()); without `shadow` only that.
  void shadow_and_emit(std::vector<PairHit>& hits, ShadowBuffers& buf, RetractionBuffers& rbuf, bool shadow,
                       Collector& col) const {
    retract_crossings(hits, rbuf);
    // Is triangle t within 45° of a face-on-face pair's normal?
    auto same_surface = [](const PairHit& h, const Triangle& t) {
      const Vec3 u = (t[1] - t[0]).cross(t[2] - t[0]);
      return std::abs(u.dot(h.c.a - h.c.b)) >= 0.7071 * u.norm() * h.c.distance;
    };
    auto shadowed = [&](const PairHit& h, const PairHit& g, bool on_a) {
      const double below = h.c.distance - (1e-12 + 1e-9 * h.c.distance);
      const Vec3& w = on_a ? h.c.a : h.c.b;
      if (on_a ? g.ib == h.ib : g.ia == h.ia) return false;
      PreparedTriangle& other = on_a ? cb[g.sb] : ca[g.sa];
      if (box_distance_sq(w, other.lo, other.hi) >= below * below) return false;
      // g's own witness on the other triangle is a point of it: nearer
      // than `below` settles the distance without the closest point.
      const bool near = (w - (on_a ? g.c.b : g.c.a)).squaredNorm() < below * below;
      if (near && !h.face_on_face) return true;
      const Triangle& t = other.t;
      // The plane prefilter made the frame of every triangle of a hit.
      return (near || mesh::detail::point_triangle(w, t, other.face()).distance < below) &&
             (!h.face_on_face || same_surface(h, t));
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
    if (shadow) {
      mark(true);
      mark(false);
    }
    std::vector<ShadowKey>& keys = buf.keys;
    keys.clear();
    for (std::size_t i = 0; i < hits.size(); ++i) {
      const PairHit& h = hits[i];
      if (h.covered) continue;
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
      emit(h.ia, h.ib, ca[h.sa].t, cb[h.sb].t, h.c, col, h.retracted ? &h : nullptr);
    }
  }

  // Closed oriented meshes: each pair whose cores cross retracts over the
  // crossing pairs around it (retraction.hpp): those whose triangle of A
  // shares a vertex with the pair's and lies with it on a flat or convex
  // stretch of A, and likewise on B. A pair alone can leave sideways by a
  // sliver where its neighbours need the body's width.
  void retract_crossings(std::vector<PairHit>& hits, RetractionBuffers& buf) const {
    if (orient_a == 0 || orient_b == 0) return;
    std::vector<std::uint32_t>& crossing = buf.crossing;
    std::vector<std::uint32_t>& subjects = buf.subjects;
    crossing.clear();
    subjects.clear();
    for (std::size_t i = 0; i < hits.size(); ++i) {
      const bool crosses = hits[i].c.intersect || !(hits[i].c.distance > 0.0);
      if (crosses) crossing.push_back(static_cast<std::uint32_t>(i));
      if (crosses || hits[i].behind) subjects.push_back(static_cast<std::uint32_t>(i));
    }
    if (crossing.empty() || subjects.size() < 2) return;
    const std::vector<TriangleIndices>& tris_a = A.mesh().triangles();
    const std::vector<TriangleIndices>& tris_b = B.mesh().triangles();
    auto& by_vertex = buf.by_vertex;
    by_vertex.clear();
    for (const std::uint32_t h : crossing)
      for (const std::uint32_t v : tris_a[hits[h].ia]) by_vertex.emplace_back(v, h);
    std::sort(by_vertex.begin(), by_vertex.end());
    auto shares_vertex = [](const TriangleIndices& x, const TriangleIndices& y) {
      for (const std::uint32_t v : x)
        if (v == y[0] || v == y[1] || v == y[2]) return true;
      return false;
    };
    // Each subject triangle's outward unit normal, by cache slot, once (zero
    // for a degenerate one, which then neighbours everything it shares a
    // vertex with). The neighbours are subjects too.
    auto outward = [](PreparedTriangle& p, int orient) {
      const double len = p.normal_length();
      return len > 0.0 ? Vec3(p.face().n * (orient / len)) : Vec3(Vec3::Zero());
    };
    buf.out_a.resize(ca.size());
    buf.out_b.resize(cb.size());
    for (const std::uint32_t h : subjects) {
      buf.out_a[hits[h].sa] = outward(ca[hits[h].sa], orient_a);
      buf.out_b[hits[h].sb] = outward(cb[hits[h].sb], orient_b);
    }
    for (const std::uint32_t h : subjects) {
      PairHit& H = hits[h];
      const bool crosses = !H.behind;
      const Triangle& ta = ca[H.sa].t;
      const Triangle& tb = cb[H.sb].t;
      const Vec3& out_a = buf.out_a[H.sa];
      const Vec3& out_b = buf.out_b[H.sb];
      // Flat within a micro-radian of the longest edge's length.
      const double tol_a = 1e-6 * longest_edge(ta), tol_b = 1e-6 * longest_edge(tb);
      buf.seen.clear();
      buf.pairs.clear();
      for (const std::uint32_t v : tris_a[H.ia]) {
        auto it = std::lower_bound(by_vertex.begin(), by_vertex.end(), std::make_pair(v, std::uint32_t{0}));
        for (; it != by_vertex.end() && it->first == v; ++it) {
          const std::uint32_t g = it->second;
          if (g == h || std::find(buf.seen.begin(), buf.seen.end(), g) != buf.seen.end()) continue;
          buf.seen.push_back(g);
          const PairHit& G = hits[g];
          if (G.ib != H.ib && !shares_vertex(tris_b[G.ib], tris_b[H.ib])) continue;
          if (G.ia != H.ia && !convex_neighbours(ca[G.sa].t, buf.out_a[G.sa], ta, out_a, tol_a)) continue;
          if (G.ib != H.ib && !convex_neighbours(cb[G.sb].t, buf.out_b[G.sb], tb, out_b, tol_b)) continue;
          buf.pairs.push_back({&ca[G.sa].t, &cb[G.sb].t});
        }
      }
      if (!crosses) {
        // Behind a face: with crossing pairs around, those carry the
        // contact (their crossings end where this witness is); alone, the
        // pair keeps its own way out (emit()).
        H.covered = !buf.pairs.empty();
        continue;
      }
      double depth;
      triangle_retraction(ta, tb, orient_a, orient_b, buf.pairs, H.retract_dir, depth);
      // The direction is the neighbourhood's; the depth is the pair's own
      // along it, so that each crossing keeps its own share of the overlap.
      H.retract_depth = advance_to_clear(ta, tb, H.retract_dir);
      H.retracted = true;
    }
  }

  // Node pair (a, b) may hold a pair within the layers.
  bool node_within(std::uint32_t a, std::uint32_t b) const {
    if (!A.obbs().empty() && !B.obbs().empty()) return obb_bound(A.obbs()[a], B.obbs()[b], nodes) <= L.limit;
    return box_within(geom(A.nodes()[a]), geom(B.nodes()[b]), nodes, L.limit);
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
    if (!node_within(0, 0)) return Status::ok;
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
        leaf_pairs(oa.data() + x.index, ob.data() + y.index, sa, sb, x.count, y.count, col);
        continue;
      }
      const bool split_a = !x.leaf() && (y.leaf() || size_of(x) >= size_of(y));
      const Item c0 = split_a ? Item{x.index, it.b} : Item{it.a, y.index};
      const Item c1 = split_a ? Item{x.index + 1, it.b} : Item{it.a, y.index + 1};
      if (sp + 2 > kStack) return Status::not_converged;
      col.stats.node_pairs += 2;
      if (node_within(c1.a, c1.b)) stack[sp++] = c1;
      if (node_within(c0.a, c0.b)) stack[sp++] = c0;
    }
    return Status::ok;
  }
};

}  // namespace

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
  // The pairs wait for the shadow test, and for the neighbourhood
  // retractions of closed oriented meshes.
  const bool retract = a.mesh().orientation() != 0 && b.mesh().orientation() != 0;
  if (options.drop_shadowed || options.feature_pairs || retract) col.hits = &buf.hits;
  const Status status = pair.run(options.traverse_only, col);
  if (options.feature_pairs)
    pair.feature_emit(buf.hits, buf.features, buf.retraction, std::max(extent(a), extent(b)), col);
  else if (col.hits)
    pair.shadow_and_emit(buf.hits, buf.shadow, buf.retraction, options.drop_shadowed, col);
  finish(col, &pose_a, options, std::max(extent(a), extent(b)), status, out);
}

void mesh_contacts(const Bvh& a, const Transform& pose_a, const Bvh& b, const Transform& pose_b,
                   const MeshContactOptions& options, ContactSet& out, MeshContactStats* stats) {
  MeshContactScratch scratch;
  mesh_contacts(a, pose_a, b, pose_b, options, out, scratch, stats);
}

}  // namespace proxima
