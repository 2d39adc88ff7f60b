// SPDX-License-Identifier: BSD-3-Clause
// Exact orientation predicates and the triangle–triangle intersection test
// built on them.
//
// Predicates: J. R. Shewchuk, "Adaptive Precision Floating-Point Arithmetic
// and Fast Robust Geometric Predicates" (1997). The determinant is first
// evaluated in doubles; its sign is trusted when |det| exceeds the paper's
// forward error bound (stage A). Otherwise it is evaluated exactly with
// non-overlapping expansions (sums of doubles, error-free two-sum and an
// FMA-based two-product). The exact stage here is the plain one (no adaptive
// intermediate stages): it runs only for (near-)degenerate inputs.
#include <proxima/mesh/triangle_distance.hpp>

namespace proxima::mesh {
namespace {

constexpr double kEps = 0x1p-53;  // half an ulp of 1: the unit roundoff
constexpr double kOrient2dBound = (3.0 + 16.0 * kEps) * kEps;
constexpr double kOrient3dBound = (7.0 + 56.0 * kEps) * kEps;

// A non-overlapping expansion: components in increasing magnitude, zeros
// removed; its value is their exact sum and its sign that of the last one.
struct Expansion {
  static constexpr int kCapacity = 256;
  double c[kCapacity];
  int n = 0;

  int sign() const { return n == 0 ? 0 : (c[n - 1] > 0.0 ? 1 : -1); }
};

inline void two_sum(double a, double b, double& x, double& y) {
  x = a + b;
  const double bv = x - a;
  const double av = x - bv;
  y = (a - av) + (b - bv);
}

// e += b, exactly (Shewchuk's GROW-EXPANSION with zero elimination).
void grow(Expansion& e, double b) {
  double q = b;
  int m = 0;
  for (int i = 0; i < e.n; ++i) {
    double x, y;
    two_sum(q, e.c[i], x, y);
    q = x;
    if (y != 0.0) e.c[m++] = y;
  }
  if (q != 0.0) e.c[m++] = q;
  e.n = m;
}

void add(Expansion& e, const Expansion& f) {
  for (int i = 0; i < f.n; ++i) grow(e, f.c[i]);
}

// out = e · b, exactly: each component's product is split by an FMA into
// the rounded product and its exact error.
void scale(const Expansion& e, double b, Expansion& out) {
  out.n = 0;
  for (int i = 0; i < e.n; ++i) {
    const double x = e.c[i] * b;
    const double y = std::fma(e.c[i], b, -x);
    grow(out, y);
    grow(out, x);
  }
}

void multiply(const Expansion& e, const Expansion& f, Expansion& out) {
  out.n = 0;
  Expansion t;
  for (int i = 0; i < f.n; ++i) {
    scale(e, f.c[i], t);
    add(out, t);
  }
}

// a − b exactly, as an expansion of at most two components.
Expansion diff(double a, double b) {
  Expansion e;
  grow(e, a);
  grow(e, -b);
  return e;
}

void negate(Expansion& e) {
  for (int i = 0; i < e.n; ++i) e.c[i] = -e.c[i];
}

// x·y − z·w for expansions.
void cross_term(const Expansion& x, const Expansion& y, const Expansion& z, const Expansion& w,
                Expansion& out) {
  Expansion t;
  multiply(x, y, out);
  multiply(z, w, t);
  negate(t);
  add(out, t);
}

int orient2d_exact(double ax, double ay, double bx, double by, double cx, double cy) {
  const Expansion acx = diff(ax, cx), acy = diff(ay, cy), bcx = diff(bx, cx), bcy = diff(by, cy);
  Expansion det;
  cross_term(acx, bcy, acy, bcx, det);
  return det.sign();
}

int orient3d_exact(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  const Expansion adx = diff(a.x(), d.x()), ady = diff(a.y(), d.y()), adz = diff(a.z(), d.z());
  const Expansion bdx = diff(b.x(), d.x()), bdy = diff(b.y(), d.y()), bdz = diff(b.z(), d.z());
  const Expansion cdx = diff(c.x(), d.x()), cdy = diff(c.y(), d.y()), cdz = diff(c.z(), d.z());
  Expansion minor, term, det;
  cross_term(bdy, cdz, bdz, cdy, minor);
  multiply(adx, minor, det);
  cross_term(cdy, adz, cdz, ady, minor);
  multiply(bdx, minor, term);
  add(det, term);
  cross_term(ady, bdz, adz, bdy, minor);
  multiply(cdx, minor, term);
  add(det, term);
  return det.sign();
}

int sign_of(double x) { return (x > 0.0) - (x < 0.0); }

}  // namespace

int orient2d(const Vec3& a, const Vec3& b, const Vec3& c, int i, int j) {
  const double detleft = (a[i] - c[i]) * (b[j] - c[j]);
  const double detright = (a[j] - c[j]) * (b[i] - c[i]);
  const double det = detleft - detright;
  const double bound = kOrient2dBound * (std::abs(detleft) + std::abs(detright));
  if (det > bound || -det > bound) return sign_of(det);
  return orient2d_exact(a[i], a[j], b[i], b[j], c[i], c[j]);
}

int orient3d(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  const double adx = a.x() - d.x(), ady = a.y() - d.y(), adz = a.z() - d.z();
  const double bdx = b.x() - d.x(), bdy = b.y() - d.y(), bdz = b.z() - d.z();
  const double cdx = c.x() - d.x(), cdy = c.y() - d.y(), cdz = c.z() - d.z();
  const double bdxcdy = bdx * cdy, cdxbdy = cdx * bdy;
  const double cdxady = cdx * ady, adxcdy = adx * cdy;
  const double adxbdy = adx * bdy, bdxady = bdx * ady;
  const double det = adz * (bdxcdy - cdxbdy) + bdz * (cdxady - adxcdy) + cdz * (adxbdy - bdxady);
  const double permanent = (std::abs(bdxcdy) + std::abs(cdxbdy)) * std::abs(adz) +
                           (std::abs(cdxady) + std::abs(adxcdy)) * std::abs(bdz) +
                           (std::abs(adxbdy) + std::abs(bdxady)) * std::abs(cdz);
  const double bound = kOrient3dBound * permanent;
  if (det > bound || -det > bound) return sign_of(det);
  return orient3d_exact(a, b, c, d);
}

namespace {

// --- 2-D tests on the projection dropping axis k (exact on the input). ---

struct Plane2 {
  int i, j;
};

// x on segment [p, q], given that the three are collinear in the projection.
bool within_box(const Vec3& x, const Vec3& p, const Vec3& q, Plane2 pl) {
  return std::min(p[pl.i], q[pl.i]) <= x[pl.i] && x[pl.i] <= std::max(p[pl.i], q[pl.i]) &&
         std::min(p[pl.j], q[pl.j]) <= x[pl.j] && x[pl.j] <= std::max(p[pl.j], q[pl.j]);
}

// Closed segments [p, q] and [r, s] share a point (either may be a point).
bool segments_meet_2d(const Vec3& p, const Vec3& q, const Vec3& r, const Vec3& s, Plane2 pl) {
  const int o1 = orient2d(p, q, r, pl.i, pl.j), o2 = orient2d(p, q, s, pl.i, pl.j);
  const int o3 = orient2d(r, s, p, pl.i, pl.j), o4 = orient2d(r, s, q, pl.i, pl.j);
  if (o1 * o2 < 0 && o3 * o4 < 0) return true;
  // Touching and collinear cases: an endpoint on the other segment.
  return (o1 == 0 && within_box(r, p, q, pl)) || (o2 == 0 && within_box(s, p, q, pl)) ||
         (o3 == 0 && within_box(p, r, s, pl)) || (o4 == 0 && within_box(q, r, s, pl));
}

// x in the closed triangle abc, which is not degenerate in this projection.
bool point_in_triangle_2d(const Vec3& x, const Triangle& t, Plane2 pl) {
  const int o1 = orient2d(t[0], t[1], x, pl.i, pl.j);
  const int o2 = orient2d(t[1], t[2], x, pl.i, pl.j);
  const int o3 = orient2d(t[2], t[0], x, pl.i, pl.j);
  return !((o1 > 0 || o2 > 0 || o3 > 0) && (o1 < 0 || o2 < 0 || o3 < 0));
}

bool segment_meets_triangle_2d(const Vec3& p, const Vec3& q, const Triangle& t, Plane2 pl) {
  return point_in_triangle_2d(p, t, pl) || point_in_triangle_2d(q, t, pl) ||
         segments_meet_2d(p, q, t[0], t[1], pl) || segments_meet_2d(p, q, t[1], t[2], pl) ||
         segments_meet_2d(p, q, t[2], t[0], pl);
}

constexpr Plane2 kPlanes[3] = {{1, 2}, {2, 0}, {0, 1}};

// Closed 3-D segments share a point. Coplanar segments meet iff their
// projections meet on all three coordinate planes: projection never separates
// meeting segments, and at least one coordinate plane projects their common
// plane (or line, when collinear) one-to-one.
bool segments_meet_3d(const Vec3& p, const Vec3& q, const Vec3& r, const Vec3& s) {
  if (orient3d(p, q, r, s) != 0) return false;
  for (const Plane2& pl : kPlanes)
    if (!segments_meet_2d(p, q, r, s, pl)) return false;
  return true;
}

// What an intersection test needs to know about a triangle once.
struct TriangleInfo {
  const Triangle& t;
  int plane = -1;  ///< a coordinate plane where t projects non-degenerately; −1: t is a segment or point
};

TriangleInfo classify(const Triangle& t) {
  // Try the plane most facing the (rounded) normal first; the exact
  // orient2d confirms it.
  const Vec3 n = (t[1] - t[0]).cross(t[2] - t[0]).cwiseAbs();
  int first = 0;
  if (n[1] > n[first]) first = 1;
  if (n[2] > n[first]) first = 2;
  for (int k = 0; k < 3; ++k) {
    const int axis = (first + k) % 3;
    if (orient2d(t[0], t[1], t[2], kPlanes[axis].i, kPlanes[axis].j) != 0) return {t, axis};
  }
  return {t, -1};
}

// Closed segment [p, q] meets the closed triangle.
bool segment_meets_triangle(const Vec3& p, const Vec3& q, const TriangleInfo& ti) {
  const Triangle& t = ti.t;
  if (ti.plane < 0) {
    // A segment (or point): its three edges cover it.
    return segments_meet_3d(p, q, t[0], t[1]) || segments_meet_3d(p, q, t[1], t[2]) ||
           segments_meet_3d(p, q, t[2], t[0]);
  }
  const int s1 = orient3d(t[0], t[1], t[2], p), s2 = orient3d(t[0], t[1], t[2], q);
  if (s1 * s2 > 0) return false;
  if (s1 == 0 && s2 == 0) return segment_meets_triangle_2d(p, q, t, kPlanes[ti.plane]);
  // The segment reaches the plane at one point; it is in the triangle iff the
  // line pq passes on the same side of all three edges (or on one).
  const int e1 = orient3d(p, q, t[0], t[1]), e2 = orient3d(p, q, t[1], t[2]), e3 = orient3d(p, q, t[2], t[0]);
  return !((e1 > 0 || e2 > 0 || e3 > 0) && (e1 < 0 || e2 < 0 || e3 < 0));
}

// All corners of `t` strictly on one side of the plane of `of` (non-degenerate).
bool plane_separates(const TriangleInfo& of, const Triangle& t) {
  if (of.plane < 0) return false;
  const Triangle& p = of.t;
  const int s0 = orient3d(p[0], p[1], p[2], t[0]);
  if (s0 == 0) return false;
  return orient3d(p[0], p[1], p[2], t[1]) == s0 && orient3d(p[0], p[1], p[2], t[2]) == s0;
}

}  // namespace

bool triangles_intersect(const Triangle& a, const Triangle& b) {
  const TriangleInfo ia = classify(a), ib = classify(b);
  if (plane_separates(ib, a) || plane_separates(ia, b)) return false;
  // Two closed convex polygons meet iff an edge of one meets the other: the
  // boundary of their (convex) intersection lies on their edges.
  for (int k = 0; k < 3; ++k)
    if (segment_meets_triangle(a[k], a[(k + 1) % 3], ib)) return true;
  for (int k = 0; k < 3; ++k)
    if (segment_meets_triangle(b[k], b[(k + 1) % 3], ia)) return true;
  return false;
}

namespace detail {

ClosestPoints intersection_point(const Triangle& a, const Triangle& b, const ClosestPoints& features) {
  ClosestPoints best = features;
  // Edges of `s` crossing the plane of `t`: the crossing point, projected onto t.
  auto crossings = [&best](const Triangle& s, const Triangle& t, bool swapped) {
    const Vec3 n = (t[1] - t[0]).cross(t[2] - t[0]);
    if (!(n.squaredNorm() > 0.0)) return;
    for (int k = 0; k < 3; ++k) {
      const Vec3& p = s[k];
      const Vec3& q = s[(k + 1) % 3];
      const double hp = n.dot(p - t[0]), hq = n.dot(q - t[0]);
      if (!((hp <= 0.0 && hq >= 0.0) || (hp >= 0.0 && hq <= 0.0)) || hp == hq) continue;
      const Vec3 x = p + (hp / (hp - hq)) * (q - p);
      const Vec3 y = closest_on_triangle(x, t[0], t[1], t[2]);
      const double d = (x - y).norm();
      if (d < best.distance) {
        best.distance = d;
        best.a = swapped ? y : x;
        best.b = swapped ? x : y;
      }
    }
  };
  crossings(a, b, false);
  crossings(b, a, true);
  const Vec3 m = 0.5 * (best.a + best.b);
  best.a = best.b = m;
  best.distance = 0.0;
  best.intersect = true;
  return best;
}

}  // namespace detail
}  // namespace proxima::mesh
