// SPDX-License-Identifier: BSD-3-Clause
// Box–box contact manifold (Contact data for convex polyhedra, §IV-E), the generic construction of
// manifold.cpp specialized to two boxes. Every number that decides which
// points come out (frame, projected corners, eps, the planar intersection)
// is computed by the same expressions or the same functions, so segments and
// polygons equal the generic path's, bit for bit
// (tests/narrow/box_manifold_test.cpp); a single point and a face on a face
// agree to rounding (see their sections). What two boxes save:
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
#include "witness.hpp"

namespace proxima::narrow::detail {
namespace {

using BoxHull = HullOf<kBoxHull>;
using BoxClip = ClipOf<kBoxHull>;

double side_of(double x) { return x >= 0.0 ? 1.0 : -1.0; }

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

// ---- Face on face, without reduction -------------------------------------
//
// A box resting on a box: both features are faces and the normal is one of
// the two faces' axes (the SAT winner's). The intersection is then the
// incident face's quad clipped by the reference face's rectangle, and in the
// reference box's own frame that rectangle is axis-aligned: four clip lines
// of the form ±x ≤ h, each side test a subtraction. Heights come from the
// incident face's plane rather than a least-squares fit. The points agree
// with the generic construction to rounding, not bit for bit, which is why
// this path only runs without max_points' reduction (there equal depths
// must tie alike) and with the default tolerance or finer (the slack of the
// clip is eps = tol; within a few eps of each other distinct vertices merge
// in visiting order, which differs here).

// Off-axis components of the normal, in the reference box's frame, above
// which the normal is not that box's face axis: projecting along the axis
// instead of along n would then move points by this times their height.
constexpr double kAxisAligned = 1e-14;

// A box's face axis along local direction d when its feature is a face (the
// other two axes flip, as in box_feature), else −1.
int face_axis(const Vec3& h, const Vec3& d, double tol) {
  int k = -1, flips = 0;
  for (int i = 0; i < 3; ++i) {
    if (2.0 * h[i] * std::abs(d[i]) <= tol) ++flips;
    else k = i;
  }
  return flips == 2 ? k : -1;
}

bool along_axis(const Vec3& d, int k) {
  const int k1 = k == 2 ? 0 : k + 1, k2 = k == 0 ? 2 : k - 1;
  return std::abs(d[k1]) <= kAxisAligned && std::abs(d[k2]) <= kAxisAligned;
}

// A clip polygon of at most 4 + 4 vertices (each of four lines adds at most
// one to a convex polygon), in the reference face's coordinates.
struct Quad2 {
  double x[8], y[8];
  int n = 0;
};

// Keeps the part of p with coord ≤ bound, within eps outside counting as
// inside; crossings on the line itself (plane_geometry's clip_polygons rule:
// slack never moves a point). `c` selects x (0) or y (1), `sign` flips the
// inequality (−coord ≤ bound). Returns false, leaving q alone, when all of p
// is inside: p is then the answer, and is not copied.
bool clip_line(const Quad2& p, int c, double sign, double bound, double eps, Quad2& q) {
  const double* a = c == 0 ? p.x : p.y;
  double s[8];
  bool all_in = true;
  for (int j = 0; j < p.n; ++j) {
    s[j] = bound - sign * a[j];
    all_in = all_in && s[j] >= -eps;
  }
  if (all_in) return false;
  q.n = 0;
  for (int j = 0; j < p.n; ++j) {
    const int k = j + 1 == p.n ? 0 : j + 1;
    const bool in0 = s[j] >= -eps, in1 = s[k] >= -eps;
    if (in0) { q.x[q.n] = p.x[j]; q.y[q.n] = p.y[j]; ++q.n; }
    if (in0 != in1) {
      const double t = std::clamp(s[j] / (s[j] - s[k]), 0.0, 1.0);
      q.x[q.n] = p.x[j] + t * (p.x[k] - p.x[j]);
      q.y[q.n] = p.y[j] + t * (p.y[k] - p.y[j]);
      ++q.n;
    }
  }
  return true;
}

// The manifold of box `inc` lying with a face on box `ref`'s face k, whose
// outward normal (towards inc) is sref·e_k in ref's frame. Heights are taken
// along that normal; depth is the overlap, as in emit_contact. Returns false
// (nothing emitted) for a face too thin or too steep for the plane formula.
bool face_on_face(const Box& ref, const Transform& pose_ref, int k, double sref, const Box& inc,
                  const Transform& pose_inc, int ki, double sinc, const Vec3& n, double eps,
                  double min_half, ContactSet& out) {
  const int k1 = k == 2 ? 0 : k + 1, k2 = k == 0 ? 2 : k - 1;
  const int ki1 = ki == 2 ? 0 : ki + 1, ki2 = ki == 0 ? 2 : ki - 1;
  const Vec3& hr = ref.half_extents();
  const Vec3& hi = inc.half_extents();
  // Faces narrower than this leave the generic hull to merge or drop corners.
  if (hr[k1] < min_half || hr[k2] < min_half || hi[ki1] < min_half || hi[ki2] < min_half) return false;
  // inc's face in ref's frame: centre c, half-edge vectors a1, a2, normal m
  // (outward of inc, towards ref).
  const Mat3 M = pose_ref.R.transpose() * pose_inc.R;
  const Vec3 m = sinc * M.col(ki);
  // A face this steep is no face feature at the tolerances admitted here;
  // the plane's slope would divide by nearly zero.
  if (!(std::abs(m[k]) >= 0.5)) return false;
  const Vec3 c = pose_ref.R.transpose() * (pose_inc.p - pose_ref.p) + hi[ki] * m;
  const Vec3 a1 = hi[ki1] * M.col(ki1), a2 = hi[ki2] * M.col(ki2);
  Quad2 buf[2];
  int cur = 0;  // buf[cur] holds the polygon so far
  Quad2* p = &buf[0];
  // Corners in cyclic order: the clip needs a closed polygon, not a
  // particular orientation (each line is a half-plane).
  p->n = 4;
  p->x[0] = c[k1] + a1[k1] + a2[k1]; p->y[0] = c[k2] + a1[k2] + a2[k2];
  p->x[1] = c[k1] - a1[k1] + a2[k1]; p->y[1] = c[k2] - a1[k2] + a2[k2];
  p->x[2] = c[k1] - a1[k1] - a2[k1]; p->y[2] = c[k2] - a1[k2] - a2[k2];
  p->x[3] = c[k1] + a1[k1] - a2[k1]; p->y[3] = c[k2] + a1[k2] - a2[k2];
  // Height of inc's face plane along axis k above (x, y) of ref's frame.
  const double gx = -m[k1] / m[k], gy = -m[k2] / m[k];
  bool clipped = false;
  auto clip = [&](int coord, double sign, double bound) {
    if (buf[cur].n > 0 && clip_line(buf[cur], coord, sign, bound, eps, buf[1 - cur])) {
      cur = 1 - cur;
      clipped = true;
    }
  };
  clip(0, 1.0, hr[k1]);
  clip(0, -1.0, hr[k1]);
  clip(1, 1.0, hr[k2]);
  clip(1, -1.0, hr[k2]);
  p = &buf[cur];
  // plane_geometry's push_unique: vertices within eps merge, first kept.
  // Unclipped, the four corners are at least min_half ≫ eps apart: with
  // |m[k]| ≥ 1/2 each side keeps at least half its length in projection.
  int keep[8];
  int kept = 0;
  for (int j = 0; j < p->n; ++j) {
    bool dup = false;
    for (int i = 0; clipped && i < kept; ++i) {
      const double dx = p->x[j] - p->x[keep[i]], dy = p->y[j] - p->y[keep[i]];
      dup = dup || dx * dx + dy * dy <= eps * eps;
    }
    if (!dup) keep[kept++] = j;
  }
  const double h_ref = hr[k] + ref.core_inflation();
  for (int i = 0; i < kept; ++i) {
    const double x = p->x[keep[i]], y = p->y[keep[i]];
    // inc's surface along the reference normal: its plane, lifted by its
    // inflation towards ref (as the generic lift does along n).
    const double zk = c[k] + gx * (x - c[k1]) + gy * (y - c[k2]);
    const double h_inc = sref * zk - inc.core_inflation();
    Vec3 local;
    local[k1] = x;
    local[k2] = y;
    local[k] = sref * 0.5 * (h_ref + h_inc);
    Contact ct;
    ct.point = pose_ref.apply(local);
    ct.normal = n;
    ct.depth = h_ref - h_inc;
    out.points.push_back(ct);
  }
  return true;
}

// The face-on-face path when it applies: both features faces, the normal
// one of their axes. Returns false, emitting nothing, otherwise.
bool try_face_on_face(const Box& a, const Transform& pose_a, const Box& b, const Transform& pose_b,
                      const Vec3& n, double tol, double eps, double size, ContactSet& out) {
  const Vec3 da = pose_a.rotate_inverse(-n), db = pose_b.rotate_inverse(n);
  const int ka = face_axis(a.half_extents(), da, tol);
  if (ka < 0) return false;
  const int kb = face_axis(b.half_extents(), db, tol);
  if (kb < 0) return false;
  const double min_half = 1e-3 * size;
  if (along_axis(db, kb))
    return face_on_face(b, pose_b, kb, side_of(db[kb]), a, pose_a, ka, side_of(da[ka]), n, eps,
                        min_half, out);
  if (along_axis(da, ka))
    return face_on_face(a, pose_a, ka, side_of(da[ka]), b, pose_b, kb, side_of(db[kb]), n, eps,
                        min_half, out);
  return false;
}

// ---- One point -----------------------------------------------------------
//
// When one box shows a corner along the normal, or both show edges that
// cross at an angle, the planar intersection is at most one point, and that
// point is the midpoint of the signed distance's closest points: a corner
// inside (or within eps of) the other feature lies where the closest points
// project, two crossing edges meet where the closest points of their lines
// project, and an empty intersection falls back to that midpoint anyway
// (emit_fallback_contact). So the frame, the hulls, the height fits and the
// clip can be skipped; the point agrees with theirs to rounding when the
// SAT gave the closest points (an overlap; GJK's points of a separated pair
// are good to its tolerance only, where the hulls project exact corners).
// Most random overlapping poses (corner on face, edge across edge) end here.

// Axes of a box whose two faces lie within tol along local direction d
// (box_feature's flips): their number, and the last one in *axis.
int flip_axes(const Vec3& h, const Vec3& d, double tol, int* axis) {
  int k = 0;
  for (int i = 0; i < 3; ++i) {
    if (2.0 * h[i] * std::abs(d[i]) <= tol) {
      ++k;
      *axis = i;
    }
  }
  return k;
}

bool single_point(const Box& a, const Transform& pose_a, const Box& b, const Transform& pose_b,
                  const Vec3& n, double tol, double eps) {
  int ia = -1, ib = -1;
  const int fa = flip_axes(a.half_extents(), pose_a.rotate_inverse(-n), tol, &ia);
  const int fb = flip_axes(b.half_extents(), pose_b.rotate_inverse(n), tol, &ib);
  if (fa == 3 || fb == 3) return false;  // a degenerate feature: the generic hull's case
  if (fa == 0 || fb == 0) return true;
  if (fa != 1 || fb != 1) return false;
  // Two edges: segment_segment yields one point unless their projections
  // are parallel within eps over the shorter one, |la × lb| ≤ eps·min(la, lb).
  // The projected cross product is n·(la × lb); a factor 4 keeps the
  // decision clear of the projections' rounding.
  const double la = 2.0 * a.half_extents()[ia], lb = 2.0 * b.half_extents()[ib];
  const double den = std::abs(n.dot(pose_a.R.col(ia).cross(pose_b.R.col(ib)))) * la * lb;
  return den > 4.0 * eps * std::min(la, lb);
}

void emit_midpoint_contact(const DistanceResult& sd, ContactSet& out) {
  Contact c;
  c.point = 0.5 * (sd.point_a + sd.point_b);
  c.normal = sd.normal;
  c.depth = -sd.distance;
  out.points.push_back(c);
}

}  // namespace

bool box_box_contacts(const Shape& sa, const Transform& pose_a, const Shape& sb,
                      const Transform& pose_b, const ContactOptions& options, ContactSet& out) {
  const Box& a = sa.as<Box>();
  const Box& b = sb.as<Box>();
  const double size = std::max(box_extent(a), box_extent(b));
  const double reach = options.margin + 1e-12 * size;
  // Without reduction, two faces lying on each other take the clip in the
  // reference face's frame. It needs the SAT's normal and distance only
  // (make_result's, so the same bits as below), not its deepest points nor
  // the contact plane's frame; the SAT leaves the points out when a loose
  // test on its axis finds a face on each box (measured: building n and
  // testing it exactly for every overlapping pose cost random poses ~15 ns),
  // and the exact test follows in try_face_on_face.
  const bool face_path = options.max_points == 0 && options.feature_tolerance <= 1e-6;
  bool skipped = false;
  DistanceResult sd = sat_box_box_finite(a, pose_a, b, pose_b, 2.0 * options.feature_tolerance * size,
                                         face_path ? &skipped : nullptr);
  if (skipped) {
    if (sd.status == Status::ok && sd.distance < 0.0) {
      const double tol = options.feature_tolerance * size;
      const double eps = std::max(tol, 1e-12 * size);
      if (try_face_on_face(a, pose_a, b, pose_b, sd.normal, tol, eps, size, out) && !out.points.empty()) {
        out.status = sd.status;
        out.distance = sd.distance;
        out.normal = sd.normal;
        return true;
      }
      out.points.clear();
    }
    sd = sat_box_box_finite(a, pose_a, b, pose_b);  // the points after all (rare)
  }
  // signed_distance's own route for two boxes: SAT answers an overlap of
  // the cores, GJK the rest.
  const bool from_sat = sat_cores_overlap(sd, a.core_inflation() + b.core_inflation());
  // signed_distance places the witnesses on both boxes; the same here keeps
  // the contact plane's frame, hence every point, bit for bit the generic one.
  if (from_sat) ensure_depth_witnesses(a, pose_a, b, pose_b, sd);
  if (!from_sat) {
    DistanceRequest req;
    req.bound = reach;
    sd = signed_distance(sa, pose_a, sb, pose_b, req);
  }
  out.status = sd.status;
  out.distance = sd.distance;
  out.normal = sd.normal;
  out.bound_exceeded = sd.bound_exceeded;
  if (sd.status == Status::invalid_input || sd.status == Status::not_implemented) return true;
  if (sd.bound_exceeded || sd.distance > reach) return true;

  const double tol = options.feature_tolerance * size;
  const double eps = std::max(tol, 1e-12 * size);
  if (from_sat && single_point(a, pose_a, b, pose_b, sd.normal, tol, eps)) {
    emit_midpoint_contact(sd, out);
    return true;
  }
  const PlaneFrame f(sd.normal, 0.5 * (sd.point_a + sd.point_b));
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
