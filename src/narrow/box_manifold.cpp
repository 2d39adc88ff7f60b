// Box–box contact manifold (paper 001 §IV-E), the generic construction of
// manifold.cpp specialized to two boxes. Every number that decides which
// points come out (frame, projected corners, eps, the planar intersection)
// is computed by the same expressions or the same functions, so the points
// equal the generic path's, bit for bit (tests/narrow/box_manifold_test.cpp). What two
// boxes save:
//  * the feature is a corner, an edge or a face, read off the axes whose two
//    faces lie within the tolerance along the normal, its corners generated
//    in cyclic order;
//  * a face's projected corners are already the convex hull: rotated to
//    start where Andrew's monotone chain would, no sort and no turn tests,
//    whenever every turn of the chain is decided far from its threshold;
//  * heights still come from HeightModel's least-squares fit: a face plane
//    through the corners is the same plane, but across a plate thinner than
//    a micrometre the two differ by more than 1e-12 (both ill-conditioned),
//    and equal depths must tie alike for max_points' reduction;
//  * hull and clip buffers sized for a face, not for a 512-vertex polytope;
//  * SAT is called directly, without the type dispatch or a second pose
//    check.
#include "box_manifold.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include <proxima/contact/reduce.hpp>
#include <proxima/narrow/sat.hpp>
#include <proxima/query.hpp>

#include "contact_frame.hpp"
#include "plane_geometry.hpp"
#include "sat_box.hpp"

namespace proxima::narrow::detail {
namespace {

using BoxHull = HullOf<kBoxHull>;
using BoxClip = ClipOf<kBoxHull>;

double cross(const Vec2& a, const Vec2& b) { return a.x() * b.y() - a.y() * b.x(); }

// convex_hull's sort order.
bool before(const PlanePoint& a, const PlanePoint& b) {
  return a.uv.x() < b.uv.x() || (a.uv.x() == b.uv.x() && a.uv.y() < b.uv.y());
}

// The size manifold.cpp's core_extent gives a box: its core AABB, rounded as
// there (the AABB of the inflated box, deflated again).
double box_extent(const Box& s) {
  const double m = s.margin();
  return 2.0 * ((s.half_extents().array() + m) - m).maxCoeff();
}

// support_feature(Box) along local direction d: the corner in d's octant,
// flipped on every axis whose two faces are within tol along d. Corners in
// cyclic order (c, flip i, flip i and j, flip j). Returns their number, 0
// when all three axes flip.
// (Corners are flipped by whole-vector selects: writing one component at a
// run-time index and reading the vector back stalls store forwarding.)
Vec3 flipped(const Vec3& c, int axis) {
  return {axis == 0 ? -c.x() : c.x(), axis == 1 ? -c.y() : c.y(), axis == 2 ? -c.z() : c.z()};
}

int box_feature(const Box& s, const Vec3& d, double tol, Vec3* out) {
  const Vec3& h = s.half_extents();
  int axes[2];
  int k = 0;
  for (int i = 0; i < 3; ++i) {
    if (2.0 * h[i] * std::abs(d[i]) <= tol) {
      if (k == 2) return 0;
      axes[k++] = i;
    }
  }
  out[0] = s.core_support(d);
  if (k == 0) return 1;
  out[1] = flipped(out[0], axes[0]);
  if (k == 1) return 2;
  out[2] = flipped(out[1], axes[1]);
  out[3] = flipped(out[0], axes[1]);
  return 4;
}

// True when convex_hull keeps all four corners of q (counter-clockwise):
// every triangle of three of them has all its altitudes above 2·eps, so each
// turn test of the monotone chain (a left turn by more than eps) is decided
// far from its threshold and no two corners merge. q is a projected
// rectangle, a parallelogram with sides E1 = q1 − q0, E2 = q3 − q0 up to
// rounding (far below the factor 2 of margin): each of its four triangles
// has twice the area A = E1 × E2, and no side longer than the longer
// diagonal, |E1 ± E2|² = |E1|² + |E2|² + 2|E1·E2|. One area and one length
// then stand for the twelve altitudes (a sufficient test, like the one per
// triangle it replaces; the hull it admits is the same).
bool clearly_convex(const PlanePoint* q, double eps) {
  const Vec2 e1 = q[1].uv - q[0].uv, e2 = q[3].uv - q[0].uv;
  const double area2 = cross(e1, e2);
  const double longest2 = e1.squaredNorm() + e2.squaredNorm() + 2.0 * std::abs(e1.dot(e2));
  return area2 > 0.0 && area2 * area2 > 4.0 * eps * eps * longest2;
}

// One box's feature along `dir` (world), projected and hulled as
// feature_hull + convex_hull in manifold.cpp would. Returns false for a
// feature this path leaves to the generic one.
bool box_hull(const Box& s, const Transform& pose, const Vec3& dir, double tol, double eps,
              const PlaneFrame& f, double lift, BoxHull& out) {
  Vec3 local[4];
  const int n = box_feature(s, pose.rotate_inverse(dir), tol, local);
  if (n == 0) return false;
  PlanePoint p[4];
  for (int i = 0; i < n; ++i) p[i] = f.project(pose.apply(local[i]), lift);
  out.clear();
  if (n == 1) {
    out.push_back(p[0]);
  } else if (n == 2) {
    if (before(p[1], p[0])) std::swap(p[0], p[1]);
    out.push_back(p[0]);
    if ((p[1].uv - p[0].uv).squaredNorm() > eps * eps) out.push_back(p[1]);
  } else {
    if (cross(p[2].uv - p[0].uv, p[3].uv - p[1].uv) < 0.0) std::swap(p[1], p[3]);  // counter-clockwise
    if (clearly_convex(p, eps)) {
      int first = 0;
      for (int i = 1; i < 4; ++i)
        if (before(p[i], p[first])) first = i;
      for (int i = 0; i < 4; ++i) out.push_back(p[(first + i) & 3]);
    } else {
      // Nearly degenerate (seen edge-on, or thinner than eps): the generic
      // hull, fed in support_feature's order so that ties sort alike.
      PlanePoint q[4];
      for (int i = 0; i < 4; ++i) q[i] = f.project(pose.apply(local[i ^ (i >> 1)]), lift);
      convex_hull(q, 4, eps, out);
    }
  }
  return true;
}

}  // namespace

bool box_box_contacts(const Shape& sa, const Transform& pose_a, const Shape& sb,
                      const Transform& pose_b, const ContactOptions& options, ContactSet& out) {
  const Box& a = sa.as<Box>();
  const Box& b = sb.as<Box>();
  const double size = std::max(box_extent(a), box_extent(b));
  const double reach = options.margin + 1e-12 * std::max(size, 1.0);
  // signed_distance's own route for two boxes: SAT answers an overlap, GJK
  // the rest.
  DistanceResult sd = sat_box_box_finite(a, pose_a, b, pose_b);
  if (!(sd.status == Status::ok && sd.distance < 0.0)) {
    DistanceRequest req;
    req.bound = reach;
    sd = signed_distance(sa, pose_a, sb, pose_b, req);
  }
  out.status = sd.status;
  out.distance = sd.distance;
  out.normal = sd.normal;
  if (sd.status == Status::invalid_input || sd.status == Status::not_implemented) return true;
  if (sd.bound_exceeded || sd.distance > reach) return true;

  const PlaneFrame f(sd.normal, 0.5 * (sd.point_a + sd.point_b));
  const double tol = options.feature_tolerance * size;
  const double eps = std::max(tol, 1e-12 * std::max(size, 1.0));
  BoxHull ha, hb;
  if (!box_hull(a, pose_a, -f.n, tol, eps, f, -a.core_inflation(), ha) ||
      !box_hull(b, pose_b, f.n, tol, eps, f, b.core_inflation(), hb))
    return false;

  // The height fits first: their divisions then overlap the clipping.
  const HeightModel za(ha), zb(hb);
  BoxClip clip;
  intersect(ha, hb, eps, clip);
  for (const Vec2& uv : clip) emit_contact(f, uv, za.at(uv), zb.at(uv), out);
  if (out.points.empty()) emit_fallback_contact(f, sd.distance, out);
  if (options.max_points > 0) reduce_contacts(out.points, options.max_points, f.n);
  return true;
}

}  // namespace proxima::narrow::detail
