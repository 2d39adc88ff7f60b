// SPDX-License-Identifier: BSD-3-Clause
#include <algorithm>
#include <cmath>

#include <proxima/narrow/simplex.hpp>

namespace proxima::detail {
namespace {

using Sub = SimplexSolution;

Sub vertex(int i, const Vec3& p) {
  Sub s;
  s.n = 1;
  s.idx[0] = i;
  s.w[0] = 1.0;
  s.v = p;
  s.vv = p.squaredNorm();
  return s;
}

Sub edge(int i, int j, const Vec3& a, const Vec3& b, double t) {
  Sub s;
  s.n = 2;
  s.idx[0] = i;
  s.idx[1] = j;
  s.w[0] = 1.0 - t;
  s.w[1] = t;
  s.v = a + t * (b - a);
  s.vv = s.v.squaredNorm();
  return s;
}

// Closest point of segment [a, b] to the origin.
Sub segment(int i, int j, const Vec3& a, const Vec3& b) {
  const Vec3 ab = b - a;
  const double len2 = ab.squaredNorm();
  const double num = -a.dot(ab);
  if (num <= 0.0 || len2 <= 0.0) return vertex(i, a);
  if (num >= len2) return vertex(j, b);
  return edge(i, j, a, b, num / len2);
}

// Closest point of triangle abc to the origin (Ericson §5.1.5 with p = 0).
Sub triangle(int i, int j, int k, const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 ab = b - a, ac = c - a;
  const double d1 = -ab.dot(a), d2 = -ac.dot(a);
  if (d1 <= 0.0 && d2 <= 0.0) return vertex(i, a);
  const double d3 = -ab.dot(b), d4 = -ac.dot(b);
  if (d3 >= 0.0 && d4 <= d3) return vertex(j, b);
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 && d1 - d3 > 0.0) return edge(i, j, a, b, d1 / (d1 - d3));
  const double d5 = -ab.dot(c), d6 = -ac.dot(c);
  if (d6 >= 0.0 && d5 <= d6) return vertex(k, c);
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 && d2 - d6 > 0.0) return edge(i, k, a, c, d2 / (d2 - d6));
  const double va = d3 * d6 - d5 * d4;
  const double e1 = d4 - d3, e2 = d5 - d6;
  if (va <= 0.0 && e1 >= 0.0 && e2 >= 0.0 && e1 + e2 > 0.0) return edge(j, k, b, c, e1 / (e1 + e2));
  const double sum = va + vb + vc;
  // A (nearly) collinear triangle has no interior region: take the best edge.
  if (!(sum > 1e-14 * ab.squaredNorm() * ac.squaredNorm()) || !std::isfinite(1.0 / sum)) {
    Sub best = segment(i, j, a, b);
    for (const Sub& s : {segment(i, k, a, c), segment(j, k, b, c)}) {
      if (s.vv < best.vv) best = s;
    }
    return best;
  }
  // Interior: project the origin on the plane through its normal, which stays
  // accurate for the thin triangles GJK builds on curved shapes, where the
  // products of dot products above lose the last digits to cancellation.
  // Weights from signed areas in the coordinate plane the triangle is least
  // foreshortened in (the signed-volume idea of Montanari et al. 2017).
  const Vec3 n = ab.cross(ac);
  const Vec3 v = n * (n.dot(a) / n.squaredNorm());
  Sub s;
  s.n = 3;
  s.idx[0] = i;
  s.idx[1] = j;
  s.idx[2] = k;
  barycentric(v, a, b, c, n, s.w);  // n = (b − a) × (c − a), as it would compute
  s.v = v;
  s.vv = v.squaredNorm();
  return s;
}

}  // namespace

void reduce(Simplex& s, const SimplexSolution& sub) {
  if (sub.inside) {
    for (int m = 0; m < 4; ++m) s.w[m] = sub.w[m];
    return;
  }
  // Kept points in increasing order (every solution but a tetrahedron
  // face's permuted ones) move down to their rank in place: idx[m] ≥ m and
  // increasing, so no move overwrites a point still to move, and points
  // already at their rank (GJK's usual step) do not move at all.
  bool ascending = true;
  for (int m = 1; m < sub.n; ++m) ascending &= sub.idx[m] > sub.idx[m - 1];
  if (ascending) {
    for (int m = 0; m < sub.n; ++m) {
      const int k = sub.idx[m];
      if (k != m) {
        s.d[m] = s.d[k];
        s.y[m] = s.y[k];
        s.a[m] = s.a[k];
        s.b[m] = s.b[k];
      }
      s.w[m] = sub.w[m];
    }
    s.n = sub.n;
    return;
  }
  Vec3 td[3], ty[3], ta[3], tb[3];
  for (int m = 0; m < sub.n; ++m) {
    td[m] = s.d[sub.idx[m]];
    ty[m] = s.y[sub.idx[m]];
    ta[m] = s.a[sub.idx[m]];
    tb[m] = s.b[sub.idx[m]];
  }
  for (int m = 0; m < sub.n; ++m) {
    s.d[m] = td[m];
    s.y[m] = ty[m];
    s.a[m] = ta[m];
    s.b[m] = tb[m];
    s.w[m] = sub.w[m];
  }
  s.n = sub.n;
}

SimplexSolution closest(const Simplex& s, bool newest_last) {
  const Vec3* y = s.y;
  switch (s.n) {
    case 1: return vertex(0, y[0]);
    case 2: return segment(0, 1, y[0], y[1]);
    case 3: return triangle(0, 1, 2, y[0], y[1], y[2]);
    default: break;
  }
  // Tetrahedron (Ericson §5.1.6): the origin is outside a face when it lies on
  // the other side of the face's plane from the fourth vertex. A flat
  // tetrahedron has no inside, so every face is then a candidate. Inside GJK
  // the face without the newest point (index 3) is the previous simplex,
  // which GJK has just left through the origin's side: it is skipped.
  static constexpr int kFaces[4][4] = {{0, 2, 3, 1}, {0, 3, 1, 2}, {1, 3, 2, 0}, {0, 1, 2, 3}};
  const int faces = newest_last ? 3 : 4;
  double scale = 0.0;
  for (int i = 1; i < 4; ++i) scale = std::max(scale, (y[i] - y[0]).squaredNorm());
  Sub best;
  best.vv = std::numeric_limits<double>::infinity();
  bool outside_any = false;
  for (int fi = 0; fi < faces; ++fi) {
    const int* f = kFaces[fi];
    const Vec3& a = y[f[0]];
    const Vec3 n = (y[f[1]] - a).cross(y[f[2]] - a);
    const double side_origin = -a.dot(n);
    const double side_opposite = (y[f[3]] - a).dot(n);
    const bool flat = std::abs(side_opposite) <= 1e-13 * scale * std::sqrt(scale);
    if (!flat && side_origin * side_opposite >= 0.0) continue;
    outside_any = true;
    const Sub t = triangle(f[0], f[1], f[2], y[f[0]], y[f[1]], y[f[2]]);
    // The origin's projection on the plane of a face it is outside of, when
    // inside that face, is the nearest point of the whole tetrahedron (which
    // lies behind the plane): no other face can give a nearer one.
    if (t.n == 3 && !flat) return t;
    if (t.vv < best.vv) best = t;
  }
  if (outside_any) return best;
  // Inside: barycentric weights of the origin, for witness points inside both
  // sets, by Cramer's rule on the edges from y0. The determinant is ± every
  // face's side_opposite, and face 0 (always tested) was not flat, so it is
  // not zero. (A pivoted QR solve cost a tenth of an overlapping cylinder–box
  // query.)
  const Vec3 e1 = y[1] - y[0], e2 = y[2] - y[0], e3 = y[3] - y[0], r = -y[0];
  const Vec3 c23 = e2.cross(e3);
  const double det = e1.dot(c23);
  const Vec3 l = Vec3(r.dot(c23), e1.dot(r.cross(e3)), e1.dot(e2.cross(r))) / det;
  Sub in;
  in.inside = true;
  in.n = 4;
  in.w[1] = l.x();
  in.w[2] = l.y();
  in.w[3] = l.z();
  in.w[0] = 1.0 - l.sum();
  return in;
}

bool solve_simplex(Simplex& s) {
  const SimplexSolution sol = closest(s, false);
  reduce(s, sol);
  return sol.inside;
}

}  // namespace proxima::detail
