// SPDX-License-Identifier: BSD-3-Clause
#include "plane_geometry.hpp"

#include <algorithm>
#include <cmath>

namespace proxima::narrow::detail {
namespace {

// The edge a→b as a line n·x = c with n its left normal scaled by the edge's
// length: the side of many points from one edge costs a dot product each,
// and the slack test compares squares, so no square root or division sits
// on the clipper's critical path.
struct EdgeLine {
  Vec2 n;
  double c;
  double slack2;  // (eps·|n|)²
  EdgeLine(const Vec2& a, const Vec2& b, double eps) {
    const Vec2 e = b - a;
    n = Vec2(-e.y(), e.x());
    c = n.dot(a);
    slack2 = eps * eps * n.squaredNorm();
  }
  /// |a→b| times the signed distance of x, positive on the left (the inside
  /// of a counter-clockwise polygon).
  double operator()(const Vec2& x) const { return n.dot(x) - c; }
  /// Within eps outside counts as inside.
  bool inside(double s) const { return s >= 0.0 || s * s <= slack2; }
};

double side(const Vec2& a, const Vec2& b, const Vec2& x) {
  const Vec2 e = b - a;
  const double len = e.norm();
  return len > 0.0 ? cross(e, x - a) / len : -(x - a).norm();
}

template <class C>
void push_unique(C& out, const Vec2& x, double eps) {
  for (const Vec2& y : out)
    if ((x - y).squaredNorm() <= eps * eps) return;
  out.push_back(x);
}

// Segment a–b clipped to polygon q (counter-clockwise, ≥ 3 vertices).
template <std::size_t N>
void clip_segment(const Vec2& a, const Vec2& b, const HullOf<N>& q, double eps, ClipOf<N>& out) {
  // A point within eps outside an edge still counts as inside; crossings are
  // taken on the edge line itself, so slack never moves a point.
  double t0 = 0.0, t1 = 1.0;
  for (std::size_t i = 0; i < q.size(); ++i) {
    const EdgeLine line(q[i].uv, q[i + 1 == q.size() ? 0 : i + 1].uv, eps);
    const double s0 = line(a), s1 = line(b);
    const bool in0 = line.inside(s0), in1 = line.inside(s1);
    if (!in0 && !in1) return;
    if (!in0) t0 = std::max(t0, std::clamp(s0 / (s0 - s1), 0.0, 1.0));
    else if (!in1) t1 = std::min(t1, std::clamp(s0 / (s0 - s1), 0.0, 1.0));
    if (t0 > t1) return;
  }
  push_unique(out, a + t0 * (b - a), eps);
  push_unique(out, a + t1 * (b - a), eps);
}

template <class C>
void segment_segment(const Vec2& a0, const Vec2& a1, const Vec2& b0, const Vec2& b1, double eps,
                     C& out) {
  const Vec2 da = a1 - a0, db = b1 - b0;
  const double la = da.norm(), lb = db.norm();
  const double den = cross(da, db);
  if (std::abs(den) <= eps * std::min(la, lb)) {  // the lines stay within eps over both
    // Parallel: overlap only when collinear within eps; then the overlap of
    // the two intervals along a.
    if (std::abs(side(a0, a1, b0)) > eps || std::abs(side(a0, a1, b1)) > eps) return;
    const Vec2 u = da / la;
    const double s0 = u.dot(b0 - a0), s1 = u.dot(b1 - a0);
    const double lo = std::max(0.0, std::min(s0, s1)), hi = std::min(la, std::max(s0, s1));
    if (lo > hi + eps) return;
    push_unique(out, a0 + std::min(lo, la) * u, eps);
    push_unique(out, a0 + std::max(std::min(hi, la), 0.0) * u, eps);
    return;
  }
  const Vec2 w = b0 - a0;
  const double t = cross(w, db) / den, s = cross(w, da) / den;
  if (t * la < -eps || (t - 1.0) * la > eps || s * lb < -eps || (s - 1.0) * lb > eps) return;
  push_unique(out, a0 + std::clamp(t, 0.0, 1.0) * da, eps);
}

// Within eps of every edge line's inside; each test is the EdgeLine one, free
// of the square root and division of side().
template <std::size_t N>
bool point_in_polygon(const Vec2& x, const HullOf<N>& q, double eps) {
  for (std::size_t i = 0; i < q.size(); ++i) {
    const EdgeLine line(q[i].uv, q[i + 1 == q.size() ? 0 : i + 1].uv, eps);
    if (!line.inside(line(x))) return false;
  }
  return true;
}

double point_segment_distance(const Vec2& x, const Vec2& a, const Vec2& b) {
  const Vec2 e = b - a;
  const double l2 = e.squaredNorm();
  const double t = l2 > 0.0 ? std::clamp((x - a).dot(e) / l2, 0.0, 1.0) : 0.0;
  return (a + t * e - x).norm();
}

// Sutherland–Hodgman: p clipped by each edge line of q, both counter-clockwise.
// Each vertex's side is computed once (as the end of one edge it is the start
// of the next), and the successor index wraps without a division.
template <std::size_t N>
void clip_polygons(const HullOf<N>& p, const HullOf<N>& q, double eps, ClipOf<N>& out) {
  ClipOf<N> buf[2];
  ClipOf<N>* a = &buf[0];
  ClipOf<N>* b = &buf[1];
  for (const PlanePoint& x : p) a->push_back(x.uv);
  for (std::size_t i = 0; i < q.size() && !a->empty(); ++i) {
    const EdgeLine line(q[i].uv, q[i + 1 == q.size() ? 0 : i + 1].uv, eps);
    // An edge with every vertex inside keeps the polygon as it is (most of
    // a face's edges, for a face resting inside another): no copy then.
    const std::size_t m = a->size();
    double sides[2 * N];
    bool all_in = true;
    for (std::size_t j = 0; j < m; ++j) {
      sides[j] = line((*a)[j]);
      all_in = all_in && line.inside(sides[j]);
    }
    if (all_in) continue;
    b->clear();
    for (std::size_t j = 0; j < m; ++j) {
      const std::size_t k = j + 1 == m ? 0 : j + 1;
      const Vec2& x0 = (*a)[j];
      const Vec2& x1 = (*a)[k];
      const double s0 = sides[j], s1 = sides[k];
      const bool in0 = line.inside(s0), in1 = line.inside(s1);
      if (in0) b->push_back(x0);
      if (in0 != in1) b->push_back(x0 + std::clamp(s0 / (s0 - s1), 0.0, 1.0) * (x1 - x0));
    }
    std::swap(a, b);
  }
  for (const Vec2& x : *a) push_unique(out, x, eps);
}

}  // namespace

template <std::size_t N>
void convex_hull(PlanePoint* pts, std::size_t n, double eps, HullOf<N>& out) {
  out.clear();
  if (n == 0) return;
  std::sort(pts, pts + n, [](const PlanePoint& a, const PlanePoint& b) {
    return a.uv.x() < b.uv.x() || (a.uv.x() == b.uv.x() && a.uv.y() < b.uv.y());
  });
  // Andrew's monotone chain; a turn counts only when it leaves the line by
  // more than eps, so near-collinear points collapse to a segment.
  // (o → a → b is a left turn by more than eps, in distance of a from the
  // line o–b, compared squared to stay free of square roots.)
  auto convex_turn = [eps](const PlanePoint& o, const PlanePoint& a, const PlanePoint& b) {
    const double c = cross(a.uv - o.uv, b.uv - o.uv);
    const double l2 = (b.uv - o.uv).squaredNorm();
    return l2 > eps * eps && c > 0.0 && c * c > eps * eps * l2;
  };
  StaticVector<PlanePoint, 2 * N + 1> h;
  for (std::size_t i = 0; i < n; ++i) {
    while (h.size() >= 2 && !convex_turn(h[h.size() - 2], h.back(), pts[i])) h.pop_back();
    h.push_back(pts[i]);
  }
  const std::size_t lower = h.size() + 1;
  for (std::size_t i = n - 1; i-- > 0;) {
    while (h.size() >= lower && !convex_turn(h[h.size() - 2], h.back(), pts[i])) h.pop_back();
    h.push_back(pts[i]);
  }
  if (h.size() > 1) h.pop_back();  // the first point closes the loop
  for (const PlanePoint& x : h) {
    bool dup = false;
    for (const PlanePoint& y : out) dup = dup || (x.uv - y.uv).squaredNorm() <= eps * eps;
    if (!dup && !out.push_back(x)) break;
  }
}

template <std::size_t N>
void intersect(const HullOf<N>& p, const HullOf<N>& q, double eps, ClipOf<N>& out) {
  out.clear();
  if (p.empty() || q.empty()) return;
  const HullOf<N>& s = p.size() <= q.size() ? p : q;  // the simpler of the two
  const HullOf<N>& t = p.size() <= q.size() ? q : p;
  if (s.size() == 1) {
    const Vec2& x = s[0].uv;
    const bool hit = t.size() == 1   ? (x - t[0].uv).norm() <= eps
                     : t.size() == 2 ? point_segment_distance(x, t[0].uv, t[1].uv) <= eps
                                     : point_in_polygon(x, t, eps);
    if (hit) out.push_back(x);
  } else if (s.size() == 2) {
    if (t.size() == 2) segment_segment(s[0].uv, s[1].uv, t[0].uv, t[1].uv, eps, out);
    else clip_segment(s[0].uv, s[1].uv, t, eps, out);
  } else {
    clip_polygons(s, t, eps, out);
  }
}

template void convex_hull(PlanePoint*, std::size_t, double, HullOf<kMaxHull>&);
template void convex_hull(PlanePoint*, std::size_t, double, HullOf<kBoxHull>&);
template void intersect(const HullOf<kMaxHull>&, const HullOf<kMaxHull>&, double, ClipOf<kMaxHull>&);
template void intersect(const HullOf<kBoxHull>&, const HullOf<kBoxHull>&, double, ClipOf<kBoxHull>&);

void HeightModel::fit_polygon(const PlanePoint* hull, std::size_t n) {
  // Least squares h = h0 + g·(uv − c) about the centroid c.
  Vec2 c = Vec2::Zero();
  double hc = 0.0;
  for (std::size_t i = 0; i < n; ++i) { c += hull[i].uv; hc += hull[i].h; }
  c /= static_cast<double>(n);
  hc /= static_cast<double>(n);
  Eigen::Matrix2d m = Eigen::Matrix2d::Zero();
  Vec2 r = Vec2::Zero();
  for (std::size_t i = 0; i < n; ++i) {
    const Vec2 d = hull[i].uv - c;
    m += d * d.transpose();
    r += d * (hull[i].h - hc);
  }
  origin_ = c;
  h0_ = hc;
  const double det = m.determinant();
  slope_ = det > 0.0 ? Vec2(m.inverse() * r) : Vec2::Zero();
}

void HeightModel::fit_quad(const PlanePoint* q) {
  // fit_polygon for n = 4, operation for operation (the sums in the same
  // order from the same zero, the inverse as Eigen forms a 2×2 one), so the
  // fit is bit for bit the same; only the divisions by 4 become exact
  // multiplications by 1/4 and the loops unroll.
  double cu = 0.0, cv = 0.0, hc = 0.0;
  for (int i = 0; i < 4; ++i) { cu += q[i].uv.x(); cv += q[i].uv.y(); hc += q[i].h; }
  cu *= 0.25;
  cv *= 0.25;
  hc *= 0.25;
  double m00 = 0.0, m01 = 0.0, m10 = 0.0, m11 = 0.0, r0 = 0.0, r1 = 0.0;
  for (int i = 0; i < 4; ++i) {
    const double du = q[i].uv.x() - cu, dv = q[i].uv.y() - cv, dh = q[i].h - hc;
    m00 += du * du;
    m10 += dv * du;
    m01 += du * dv;
    m11 += dv * dv;
    r0 += du * dh;
    r1 += dv * dh;
  }
  origin_ = Vec2(cu, cv);
  h0_ = hc;
  const double det = m00 * m11 - m10 * m01;
  if (det > 0.0) {
    const double inv = 1.0 / det;
    const double i00 = m11 * inv, i10 = -m10 * inv, i01 = -m01 * inv, i11 = m00 * inv;
    slope_ = Vec2(i00 * r0 + i01 * r1, i10 * r0 + i11 * r1);
  } else {
    slope_ = Vec2::Zero();
  }
}

}  // namespace proxima::narrow::detail
