// SPDX-License-Identifier: BSD-3-Clause
// Expanding Polytope Algorithm (van den Bergen 2001; Ericson §9.5): the
// penetration depth of two overlapping convex cores as the distance from the
// origin to the boundary of A ⊖ B, found by growing a polytope inside A ⊖ B
// from GJK's final simplex until the face closest to the origin is a face of
// A ⊖ B within tolerance. Fixed-capacity storage on the stack; a pair whose
// polytope fills it before the tolerance is met (curved cores with a
// shallow minimum: deep overlaps of two ellipsoids, about 4 in 100,000
// random poses) is run again in a larger one on the heap
// (EpaOptions::second_run).
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <new>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <proxima/core/error.hpp>
#include <proxima/narrow/minkowski.hpp>
#include <proxima/narrow/simplex.hpp>

namespace proxima {

struct EpaOptions {
  /// Stop when the support value along the closest face's normal exceeds the
  /// face's distance by at most tol_rel · L (L: size of A ⊖ B).
  double tol_rel = 1e-10;
  /// Accepted gap when the polytope is full (capacity reached): a result
  /// within it is `ok`, a worse one `not_converged`.
  double tol_rel_capacity = 1e-7;
  int max_iterations = 255;
  /// A second run, in a polytope of 4096 vertices on the heap, when the
  /// first (EpaPolytope::kMaxVertices, on the stack) fills or runs out of
  /// iterations before the tolerance is met: on curved cores the faces
  /// close in on A ⊖ B's surface only as fast as they shrink, and a shallow
  /// minimum (the origin near a centre of curvature) needs many of them.
  /// Its iteration cap is 4095.
  bool second_run = true;
};

/// Core penetration depth: the cores overlap by `depth` ≥ 0 along `normal`
/// (unit, B→A, world frame): moving A by +depth·normal makes the cores touch.
/// `depth` is the support value of A ⊖ B along −normal, so it never
/// underestimates; with status ok it is within the tolerance of the true
/// depth. `point_a`, `point_b` are the cores' deepest points (point_b =
/// point_a + depth·normal).
struct EpaResult {
  Status status = Status::ok;
  double depth = 0.0;
  Vec3 normal = Vec3::UnitZ();
  Vec3 point_a = Vec3::Zero();
  Vec3 point_b = Vec3::Zero();
  int iterations = 0;
};

namespace detail {

/// The polytope EPA grows: vertices (with the support points on A and B
/// that made them) and triangular faces with outward unit normals.
template <int Capacity>
struct EpaPolytopeOf {
  static constexpr int kMaxVertices = Capacity;
  static constexpr int kMaxFaces = 2 * kMaxVertices;
  static constexpr int kMaxHorizon = 3 * kMaxVertices;

  struct Face {
    int v[3];     ///< counter-clockwise seen from outside
    int adj[3];   ///< face across edge (v[e], v[e+1])
    Vec3 n;       ///< outward unit normal
    double dist;  ///< n·v0: distance of the plane from the origin (signed)
    bool alive;
  };

  Vec3 y[kMaxVertices], a[kMaxVertices], b[kMaxVertices];
  int nv = 0;
  Face f[kMaxFaces];
  /// f[k].dist while face k is alive, +inf once dead: the scan for the
  /// closest face reads this array alone (8 bytes a face, not a Face's 64).
  double live_dist[kMaxFaces];
  int nf = 0;
  int free_list[kMaxFaces];
  int nfree = 0;

  /// A face slot, reusing dead ones; −1 when full.
  int new_face() {
    if (nfree > 0) return free_list[--nfree];
    return nf < kMaxFaces ? nf++ : -1;
  }
  void kill(int k) {
    f[k].alive = false;
    live_dist[k] = std::numeric_limits<double>::infinity();
    free_list[nfree++] = k;
  }
  /// Sets face k to (i, j, l) with its plane; false if degenerate.
  bool set_face(int k, int i, int j, int l) {
    Face& face = f[k];
    face.v[0] = i;
    face.v[1] = j;
    face.v[2] = l;
    Vec3 n = (y[j] - y[i]).cross(y[l] - y[i]);
    const double len = n.norm();
    face.alive = true;
    if (!(len > 0.0)) {
      face.n = Vec3::Zero();
      face.dist = std::numeric_limits<double>::infinity();
      live_dist[k] = face.dist;
      return false;
    }
    face.n = n * (1.0 / len);
    face.dist = face.n.dot(y[i]);
    live_dist[k] = face.dist;
    return true;
  }
};

/// The first k in [0, n) with the least x[k], skipping NaN; −1 when every
/// x[k] is +inf or NaN. Without branches on the data (SSE2: two lanes, each
/// with its least value and the first slot holding it): a running "if
/// less" mispredicts at every new best, a search for the slot at its end.
inline int first_least(const double* x, int n) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  double least = kInf;
  int at = -1;
  int k = 0;
#if defined(__SSE2__)
  __m128d m = _mm_set1_pd(kInf), slot = _mm_set1_pd(-1.0), here = _mm_set_pd(1.0, 0.0);
  const __m128d two = _mm_set1_pd(2.0);
  for (; k + 2 <= n; k += 2) {
    const __m128d v = _mm_loadu_pd(x + k);
    const __m128d less = _mm_cmplt_pd(v, m);  // false for NaN
    m = _mm_min_pd(v, m);                     // v < m ? v : m
    slot = _mm_or_pd(_mm_and_pd(less, here), _mm_andnot_pd(less, slot));
    here = _mm_add_pd(here, two);
  }
  const double m0 = _mm_cvtsd_f64(m), m1 = _mm_cvtsd_f64(_mm_unpackhi_pd(m, m));
  const double s0 = _mm_cvtsd_f64(slot), s1 = _mm_cvtsd_f64(_mm_unpackhi_pd(slot, slot));
  const bool second = m1 < m0 || (m1 == m0 && s1 < s0);
  least = second ? m1 : m0;
  at = static_cast<int>(second ? s1 : s0);
#endif
  for (; k < n; ++k) {
    const bool less = x[k] < least;
    least = less ? x[k] : least;
    at = less ? k : at;
  }
  return least < kInf ? at : -1;
}

/// The faces by distance from the origin: a binary min-heap of (dist, face)
/// entries, ordered by dist and then by face slot, so the face on top is the
/// one a scan for the smallest dist (the first slot on a tie) would pick.
/// Killed and re-used slots leave their old entries behind; top() drops
/// those (the face dead, or its dist not the entry's) when it meets them.
/// Full, it is rebuilt from the live faces. EPA scans the faces while they
/// are few and starts the heap once they are not (kFrom slots): on
/// cylinder–box (~18 iterations) the heap cost 5 % more instructions than
/// the scan, on ellipsoid–ellipsoid (~62) it saved 16 %.
template <int Capacity>
struct EpaFaceHeapOf {
  using Polytope = EpaPolytopeOf<Capacity>;
  static constexpr int kFrom = 64;
  struct Entry {
    double dist;
    int face;
  };
  static constexpr int kCapacity = 2 * Polytope::kMaxFaces;
  Entry e[kCapacity];
  int n = 0;

  static bool before(const Entry& x, const Entry& y) { return x.dist < y.dist || (x.dist == y.dist && x.face < y.face); }

  /// Every live face (the start, or a rebuild when full).
  void build(const Polytope& P) {
    n = 0;
    for (int k = 0; k < P.nf; ++k)
      if (P.f[k].alive) insert({P.f[k].dist, k});
  }
  void push(const Polytope& P, int face) {
    if (n == kCapacity) build(P);
    insert({P.f[face].dist, face});
  }
  /// The live face nearest the origin, or −1 when none is left.
  int top(const Polytope& P) {
    while (n > 0) {
      const typename Polytope::Face& f = P.f[e[0].face];
      if (f.alive && f.dist == e[0].dist) return e[0].face;
      pop();
    }
    return -1;
  }

 private:
  void insert(const Entry& x) {
    int i = n++;
    while (i > 0) {
      const int parent = (i - 1) / 2;
      if (!before(x, e[parent])) break;
      e[i] = e[parent];
      i = parent;
    }
    e[i] = x;
  }
  void pop() {
    const Entry last = e[--n];
    int i = 0;
    for (;;) {
      int child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && before(e[child + 1], e[child])) ++child;
      if (!before(e[child], last)) break;
      e[i] = e[child];
      i = child;
    }
    e[i] = last;
  }
};

/// The first run's storage (about 90 KB, on the stack).
using EpaPolytope = EpaPolytopeOf<256>;
using EpaFaceHeap = EpaFaceHeapOf<256>;

/// Everything one EPA run grows: the polytope, its face heap, and the
/// horizon and removed-face lists of one step.
template <int Capacity>
struct EpaWork {
  EpaPolytopeOf<Capacity> P;
  EpaFaceHeapOf<Capacity> heap;
  /// Horizon of the faces that see the new point: (edge start, edge end,
  /// outside face, its edge index); and those faces, in the order found.
  int horizon[EpaPolytopeOf<Capacity>::kMaxHorizon][4];
  int seen[EpaPolytopeOf<Capacity>::kMaxFaces];
  int by_start[Capacity], by_end[Capacity];
};

}  // namespace detail

namespace detail {

template <int Capacity, class A, class B>
EpaResult epa_run(EpaWork<Capacity>& work, const A& a, const Transform& pose_a, const B& b, const Transform& pose_b,
                  const Simplex& start, const EpaOptions& opt, int max_iterations) {
  using Polytope = EpaPolytopeOf<Capacity>;
  EpaResult out;
  MinkowskiDifference<A, B> md(a, pose_a, b, pose_b);
  Polytope& P = work.P;
  auto add_vertex = [&](const Vec3& d) {
    Vec3 pa, pb;
    md.support(d, pa, pb);
    P.a[P.nv] = pa;
    P.b[P.nv] = pb;
    P.y[P.nv] = pa - pb;
    return P.nv++;
  };
  for (int i = 0; i < start.n; ++i) {
    P.y[i] = start.y[i];
    P.a[i] = start.a[i];
    P.b[i] = start.b[i];
  }
  P.nv = start.n;
  double scale = 0.0;
  for (int i = 0; i < P.nv; ++i) scale = std::max(scale, P.y[i].norm());

  // Blow a degenerate start up to a tetrahedron, keeping only points that
  // add a dimension; C = A ⊖ B being flat ends it here.
  auto finish_flat = [&](const Vec3& plane_normal) {
    // Zero core depth: the cores meet in a set without volume.
    Vec3 n = pose_a.rotate(plane_normal.normalized());
    if (n.dot(pose_a.p - pose_b.p) < 0.0) n = -n;
    out.depth = 0.0;
    out.normal = n;
    out.point_a = out.point_b = pose_a.apply(P.a[0]);
    return out;
  };
  static const Vec3 kAxes[6] = {Vec3::UnitX(), -Vec3::UnitX(), Vec3::UnitY(),
                                -Vec3::UnitY(), Vec3::UnitZ(), -Vec3::UnitZ()};
  if (P.nv == 0) add_vertex(Vec3::UnitX());
  if (P.nv == 1) {
    for (const Vec3& d : kAxes) {
      const int k = add_vertex(d);
      scale = std::max(scale, P.y[k].norm());
      if ((P.y[k] - P.y[0]).norm() > 1e-12 * std::max(scale, 1e-300)) break;
      --P.nv;
    }
    if (P.nv == 1) return finish_flat(Vec3::UnitZ());
  }
  if (P.nv == 2) {
    const Vec3 axis = (P.y[1] - P.y[0]).normalized();
    const Vec3 u = axis.unitOrthogonal(), w = axis.cross(u);
    bool found = false;
    for (int k = 0; k < 6 && !found; ++k) {
      const double ang = k * (M_PI / 3.0);
      const int i = add_vertex(std::cos(ang) * u + std::sin(ang) * w);
      scale = std::max(scale, P.y[i].norm());
      found = (P.y[i] - P.y[0]).cross(axis).norm() > 1e-12 * std::max(scale, 1e-300);
      if (!found) --P.nv;
    }
    if (!found) return finish_flat(u);
  }
  if (P.nv == 3) {
    const Vec3 n = (P.y[1] - P.y[0]).cross(P.y[2] - P.y[0]).normalized();
    const int i = add_vertex(n);
    const double hi = n.dot(P.y[i] - P.y[0]);
    const int j = add_vertex(-n);
    const double lo = n.dot(P.y[j] - P.y[0]);
    const double tiny = 1e-12 * std::max(scale, 1e-300);
    if (hi <= tiny && -lo <= tiny) {
      P.nv = 3;
      return finish_flat(n);
    }
    // Keep the farther of the two points off the plane.
    if (hi >= -lo) --P.nv;
    else {
      P.y[i] = P.y[j];
      P.a[i] = P.a[j];
      P.b[i] = P.b[j];
      --P.nv;
    }
  }
  for (int i = 0; i < P.nv; ++i) scale = std::max(scale, P.y[i].norm());

  // The tetrahedron, oriented counter-clockwise from outside (robust even
  // when the origin lies on its boundary at touching contact).
  if ((P.y[1] - P.y[0]).cross(P.y[2] - P.y[0]).dot(P.y[3] - P.y[0]) > 0.0) {
    std::swap(P.y[1], P.y[2]);
    std::swap(P.a[1], P.a[2]);
    std::swap(P.b[1], P.b[2]);
  }
  // Faces 0..3 = (0,1,2), (0,3,1), (0,2,3), (1,3,2); adj[e] across (v[e], v[e+1]).
  static constexpr int kTet[4][3] = {{0, 1, 2}, {0, 3, 1}, {0, 2, 3}, {1, 3, 2}};
  static constexpr int kTetAdj[4][3] = {{1, 3, 2}, {2, 3, 0}, {0, 3, 1}, {1, 2, 0}};
  bool ok = true;
  for (int k = 0; k < 4; ++k) {
    const int slot = P.new_face();
    ok = P.set_face(slot, kTet[k][0], kTet[k][1], kTet[k][2]) && ok;
    for (int e = 0; e < 3; ++e) P.f[slot].adj[e] = kTetAdj[k][e];
  }
  EpaFaceHeapOf<Capacity>& heap = work.heap;
  bool heaped = false;
  if (!ok) return finish_flat((P.y[1] - P.y[0]).cross(P.y[2] - P.y[0]));

  const double tol = opt.tol_rel * std::max(scale, 1e-300);
  int closest = 0;
  double closest_h = std::numeric_limits<double>::infinity();  // support value along its normal
  int best_v[3] = {0, 1, 2};
  Vec3 best_n = P.f[0].n;
  double best_dist = P.f[0].dist;
  int it = 0;
  auto& horizon = work.horizon;
  int* seen = work.seen;
  static constexpr int kNext[3] = {1, 2, 0};
  for (; it < max_iterations; ++it) {
    // The face closest to the origin (the first slot on a tie).
    if (!heaped && P.nf > EpaFaceHeapOf<Capacity>::kFrom) {
      heap.build(P);
      heaped = true;
    }
    if (heaped) {
      closest = heap.top(P);
    } else {
      // The first live face of least dist. A dead face reads +inf, as
      // does a live degenerate one (taken only when nothing else is left).
      closest = detail::first_least(P.live_dist, P.nf);
      if (closest < 0) {
        for (int k = 0; k < P.nf && closest < 0; ++k)
          if (P.f[k].alive) closest = k;
      }
    }
    if (closest < 0) {
      out.status = Status::not_converged;
      break;
    }
    if (P.nv >= Polytope::kMaxVertices) break;
    const Vec3 fn = P.f[closest].n;
    const double fdist = P.f[closest].dist;
    const int wi = add_vertex(fn);
    const Vec3 w = P.y[wi];
    const double h = fn.dot(w);
    // The answer so far: this face's plane (a lower bound on the depth along
    // fn) and the support value along fn (the depth along fn itself).
    for (int e = 0; e < 3; ++e) best_v[e] = P.f[closest].v[e];
    best_n = fn;
    best_dist = fdist;
    closest_h = h;
    if (h - fdist <= tol) {
      --P.nv;
      break;
    }
    // The faces that see w, found through adjacency from the closest one
    // (which sees it), are removed; the edges where they meet a face that
    // does not see w form the horizon. Walking through adjacency keeps the
    // removed region connected even where rounding makes the visibility of
    // nearly coplanar faces disagree. The horizon's order does not matter:
    // the cone below links its faces by their end vertices.
    int nh = 0;
    bool broken = false;
    P.kill(closest);
    int removed = 0, nremoved = 1;
    seen[0] = closest;
    for (; removed < nremoved && !broken; ++removed) {
      const int fk = seen[removed];
      const typename Polytope::Face& ff = P.f[fk];
      for (int e = 0; e < 3; ++e) {
        const int g = ff.adj[e];
        typename Polytope::Face& gf = P.f[g];
        if (!gf.alive) continue;
        if (gf.n.dot(w) - gf.dist > 0.0) {
          P.kill(g);
          seen[nremoved++] = g;  // at most kMaxFaces faces are ever alive
          continue;
        }
        const int ge = gf.adj[0] == fk ? 0 : gf.adj[1] == fk ? 1 : gf.adj[2] == fk ? 2 : 3;
        if (nh >= Polytope::kMaxHorizon || ge == 3) {
          broken = true;
          break;
        }
        horizon[nh][0] = ff.v[e];
        horizon[nh][1] = ff.v[kNext[e]];
        horizon[nh][2] = g;
        horizon[nh][3] = ge;
        ++nh;
      }
    }
    if (broken || nh < 3) {
      out.status = Status::not_converged;
      break;
    }
    // Cone the horizon to w. Each new face (i, j, w) meets the outside face
    // across (i, j), the new face starting at j across (j, w) and the one
    // ending at i across (w, i); a horizon that is not one simple loop
    // (rounding) is caught by a vertex seen twice.
    int* by_start = work.by_start;
    int* by_end = work.by_end;
    for (int m = 0; m < nh; ++m) by_start[horizon[m][0]] = by_end[horizon[m][1]] = -1;
    for (int m = 0; m < nh && !broken; ++m) {
      const int i = horizon[m][0], j = horizon[m][1];
      const int k = P.new_face();
      if (k < 0 || by_start[i] != -1 || by_end[j] != -1) {
        broken = true;
        break;
      }
      P.set_face(k, i, j, wi);
      if (heaped) heap.push(P, k);
      P.f[k].adj[0] = horizon[m][2];
      P.f[horizon[m][2]].adj[horizon[m][3]] = k;
      by_start[i] = k;
      by_end[j] = k;
    }
    for (int m = 0; m < nh && !broken; ++m) {
      const int i = horizon[m][0], j = horizon[m][1];
      const int k = by_start[i];
      const int next = by_start[j], before = by_end[i];
      if (next < 0 || before < 0) {
        broken = true;
        break;
      }
      P.f[k].adj[1] = next;
      P.f[k].adj[2] = before;
    }
    if (broken) {
      out.status = Status::not_converged;
      break;
    }
  }
  if (it >= max_iterations) out.status = Status::not_converged;

  if (!std::isfinite(closest_h)) {
    out.status = Status::not_converged;
    return finish_flat(best_n);
  }
  // Report the depth along best_n (its support value: an upper bound on the
  // penetration depth, exact at convergence); its bracket is the face plane.
  const double depth = std::max(0.0, closest_h);
  const double gap = closest_h - best_dist;
  if (out.status == Status::not_converged || !(gap <= tol)) {
    // Out of room or steps: good enough if the bracket is tight, else say so.
    out.status = gap <= opt.tol_rel_capacity * std::max(scale, 1e-300) ? Status::ok
                                                                       : Status::not_converged;
  }
  const Vec3 p = std::max(0.0, best_dist) * best_n;
  double wts[3];
  detail::barycentric(p, P.y[best_v[0]], P.y[best_v[1]], P.y[best_v[2]], wts);
  Vec3 pa = Vec3::Zero();
  for (int k = 0; k < 3; ++k) pa += wts[k] * P.a[best_v[k]];
  out.depth = depth;
  out.normal = pose_a.rotate(-best_n);
  out.point_a = pose_a.apply(pa);
  out.point_b = out.point_a + depth * out.normal;
  out.iterations = it;
  return out;
}

}  // namespace detail

/// EPA on the cores of two overlapping shapes, starting from GJK's final
/// simplex (A's frame). A simplex of fewer than 4 points (touching contact)
/// is blown up to a tetrahedron first; if A ⊖ B turns out flat (zero volume),
/// the depth is 0 along its plane normal. Never throws, never NaN.
template <class A, class B>
EpaResult epa(const A& a, const Transform& pose_a, const B& b, const Transform& pose_b,
              const detail::Simplex& start, const EpaOptions& opt = {}) {
  detail::EpaWork<detail::EpaPolytope::kMaxVertices> work;
  EpaResult out = detail::epa_run(work, a, pose_a, b, pose_b, start, opt, opt.max_iterations);
  const bool filled = work.P.nv >= detail::EpaPolytope::kMaxVertices || out.iterations >= opt.max_iterations;
  if (out.status != Status::not_converged || !filled || !opt.second_run) return out;
  // The rare second run (EpaOptions::second_run), from the same start:
  // default-initialised storage (the counts start at 0; the arrays are
  // written before they are read), so its 1.4 MB are not cleared.
  constexpr int kLarge = 4096;
  const std::unique_ptr<detail::EpaWork<kLarge>> large(new (std::nothrow) detail::EpaWork<kLarge>);
  if (!large) return out;
  EpaResult again = detail::epa_run(*large, a, pose_a, b, pose_b, start, opt, kLarge - 1);
  again.iterations += out.iterations;
  return again;
}

}  // namespace proxima
