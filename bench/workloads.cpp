// SPDX-License-Identifier: BSD-3-Clause
#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>

#include <proxima/core/transform.hpp>
#include <proxima/query.hpp>

#include "draws.hpp"
#include "minkowski_oracle.hpp"
#include "sweep_oracle.hpp"
#include "workloads.hpp"

namespace proxima::bench {
namespace {

ShapeSpec sphere(double r) { ShapeSpec s; s.kind = Kind::sphere; s.radius = r; return s; }
ShapeSpec capsule(double r, double l) { ShapeSpec s; s.kind = Kind::capsule; s.radius = r; s.length = l; return s; }
ShapeSpec cylinder(double r, double l) { ShapeSpec s; s.kind = Kind::cylinder; s.radius = r; s.length = l; return s; }
ShapeSpec box(double x, double y, double z) { ShapeSpec s; s.kind = Kind::box; s.size = {x, y, z}; return s; }
ShapeSpec ellipsoid(double x, double y, double z) { ShapeSpec s; s.kind = Kind::ellipsoid; s.radii = {x, y, z}; return s; }
ShapeSpec floor_halfspace() { ShapeSpec s; s.kind = Kind::halfspace; return s; }  // z ≤ 0

// Hull vertices of `n` random points on a sphere of radius r.
ShapeSpec polytope(int n, double r, std::mt19937& g) {
  std::normal_distribution<double> N;
  std::vector<Vec3> pts;
  for (int i = 0; i < n; ++i) pts.push_back(r * draw_vec3(N, g).normalized());
  const ConvexPolytope hull(pts);
  ShapeSpec s;
  s.kind = Kind::convex;
  for (const Vec3& v : hull.vertices()) s.points.push_back({v.x(), v.y(), v.z()});
  return s;
}

double bounding_radius(const ShapeSpec& s) {
  switch (s.kind) {
    case Kind::sphere: return s.radius;
    case Kind::capsule: return s.radius + 0.5 * s.length;
    case Kind::cylinder: return std::hypot(s.radius, 0.5 * s.length);
    case Kind::box: return 0.5 * std::sqrt(s.size[0] * s.size[0] + s.size[1] * s.size[1] + s.size[2] * s.size[2]);
    case Kind::ellipsoid: return std::max({s.radii[0], s.radii[1], s.radii[2]});
    case Kind::convex: {
      double r = 0;
      for (const auto& p : s.points) r = std::max(r, std::sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]));
      return r;
    }
    case Kind::halfspace: return 0.0;  // unbounded; its workloads place A around its plane
  }
  return 1.0;
}

// Core vertices in world (point, segment ends, corners, hull) and the radius
// around them, when the core is a polytope; empty otherwise.
std::vector<Vec3> core_vertices(const ShapeSpec& s, const Transform& t, double& radius) {
  std::vector<Vec3> local;
  radius = 0.0;
  switch (s.kind) {
    case Kind::sphere: local = {Vec3::Zero()}; radius = s.radius; break;
    case Kind::capsule: local = {Vec3(0, 0, -0.5 * s.length), Vec3(0, 0, 0.5 * s.length)}; radius = s.radius; break;
    case Kind::box:
      for (int c = 0; c < 8; ++c)
        local.emplace_back(((c & 1) ? 0.5 : -0.5) * s.size[0], ((c & 2) ? 0.5 : -0.5) * s.size[1], ((c & 4) ? 0.5 : -0.5) * s.size[2]);
      break;
    case Kind::convex:
      for (const auto& p : s.points) local.emplace_back(p[0], p[1], p[2]);
      break;
    default: return {};
  }
  std::vector<Vec3> out;
  for (const Vec3& p : local) out.push_back(t.apply(p));
  return out;
}

// World support of the whole shape, written from the shape's definition.
Vec3 support(const ShapeSpec& s, const Transform& t, const Vec3& d_world) {
  const Vec3 d = t.rotate_inverse(d_world);
  Vec3 p = Vec3::Zero();
  switch (s.kind) {
    case Kind::sphere: p = s.radius * d.normalized(); break;
    case Kind::capsule: p = Vec3(0, 0, d.z() >= 0 ? 0.5 * s.length : -0.5 * s.length) + s.radius * d.normalized(); break;
    case Kind::cylinder: {
      const double rho = std::hypot(d.x(), d.y());
      p = Vec3(0, 0, d.z() >= 0 ? 0.5 * s.length : -0.5 * s.length);
      if (rho > 0) p.head<2>() = s.radius * d.head<2>() / rho;
      break;
    }
    case Kind::box:
      for (int i = 0; i < 3; ++i) p[i] = (d[i] >= 0 ? 0.5 : -0.5) * s.size[static_cast<std::size_t>(i)];
      break;
    case Kind::ellipsoid: {
      const Vec3 r(s.radii[0], s.radii[1], s.radii[2]);
      p = r.cwiseProduct(r.cwiseProduct(d).normalized());
      break;
    }
    case Kind::convex: {
      double best = -1e300;
      for (const auto& q : s.points) {
        const Vec3 v(q[0], q[1], q[2]);
        if (v.dot(d) > best) { best = v.dot(d); p = v; }
      }
      break;
    }
    case Kind::halfspace: break;  // unbounded: its workloads' truth is in closed form (build_on_halfspace)
  }
  return t.apply(p);
}

Pose random_pose(std::mt19937& g, double half) {
  std::normal_distribution<double> N;
  std::uniform_real_distribution<double> U(-half, half);
  Quat q = draw_quat(N, g);
  q.normalize();
  Pose p;
  p.p = {U(g), U(g), U(g)};
  p.q = {q.w(), q.x(), q.y(), q.z()};
  return p;
}

TruthWorkload build(const std::string& name, const ShapeSpec& a, const ShapeSpec& b, int poses, std::mt19937& g,
                    bool overlapping = false) {
  TruthWorkload w;
  w.work.name = name;
  w.work.a = a;
  w.work.b = b;
  const double half = (overlapping ? 0.5 : 1.2) * (bounding_radius(a) + bounding_radius(b));
  double ra = 0, rb = 0;
  const bool exact = !core_vertices(a, {}, ra).empty() && !core_vertices(b, {}, rb).empty();
  w.oracle = exact ? "Minkowski difference" : "certified direction sweep";
  int attempts = 0;
  while (static_cast<int>(w.truth.size()) < poses && attempts++ < 100 * poses) {
    const Pose pa = random_pose(g, half), pb = random_pose(g, 0.0);
    const Transform ta = to_transform(pa), tb = to_transform(pb);
    double truth;
    Vec3 closest = Vec3::Zero();
    if (exact) {
      truth = oracle::minkowski_signed_distance(core_vertices(a, ta, ra), core_vertices(b, tb, rb), &closest) - ra - rb;
    } else {
      const oracle::SweepReport r = oracle::sweep_separation_report(
          [&](const Vec3& d) { return support(a, ta, d); }, [&](const Vec3& d) { return support(b, tb, d); });
      if (!r.separated) continue;
      truth = r.value;
    }
    if (overlapping) {
      if (!exact || !(truth < -1e-6)) continue;
      // Normal B→A. Cores overlapping: A leaves by −closest (the nearest
      // boundary point of the core difference); cores apart: along it.
      const double cn = closest.norm();
      if (!(cn > 1e-9)) continue;  // crossing segments etc.: the normal is not unique
      w.truth_normal.push_back(truth + ra + rb < 0.0 ? Vec3(-closest / cn) : Vec3(closest / cn));
    } else if (!(truth > 1e-6)) {
      continue;  // separated pairs only
    }
    w.work.pose_a.push_back(pa);
    w.work.pose_b.push_back(pb);
    w.truth.push_back(truth);
  }
  return w;
}

// Hull vertices of `n` random points on a sphere of radius r, with every point
// below z = -cut moved up onto that plane: a flat bottom face.
ShapeSpec flattened_polytope(int n, double r, double cut, std::mt19937& g) {
  std::normal_distribution<double> N;
  std::vector<Vec3> pts;
  for (int i = 0; i < n; ++i) {
    Vec3 p = r * draw_vec3(N, g).normalized();
    p.z() = std::max(p.z(), -cut);
    pts.push_back(p);
  }
  const ConvexPolytope hull(pts);
  ShapeSpec s;
  s.kind = Kind::convex;
  for (const Vec3& v : hull.vertices()) s.points.push_back({v.x(), v.y(), v.z()});
  return s;
}

Pose to_pose(const Quat& q, const Vec3& p) { return Pose{{p.x(), p.y(), p.z()}, {q.w(), q.x(), q.y(), q.z()}}; }

// A resting on B's top face (B's local +z, at height b_top), A's bottom face at
// A-local height -a_bottom: random yaw about the face normal, in-plane offset
// in ±offset, overlap in (0, max_overlap], then the whole pair moved by a
// random rotation and a translation in ±1 so nothing is axis-aligned.
Workload resting(const std::string& name, const ShapeSpec& a, double a_bottom, const ShapeSpec& b, double b_top,
                 double offset, double max_overlap, int poses, std::mt19937& g) {
  Workload w;
  w.name = name;
  w.a = a;
  w.b = b;
  std::normal_distribution<double> N;
  std::uniform_real_distribution<double> U(-1.0, 1.0), yaw(0.0, 2.0 * M_PI), depth(0.0, max_overlap);
  for (int i = 0; i < poses; ++i) {
    const double overlap = max_overlap - depth(g);  // (0, max_overlap]
    const Quat local_a(Eigen::AngleAxisd(yaw(g), Vec3::UnitZ()));
    const double local_x = offset * U(g);
    const double local_y = offset * U(g);
    const Vec3 local_p(local_x, local_y, b_top + a_bottom - overlap);
    const Quat world = draw_quat(N, g).normalized();
    const Vec3 shift = draw_vec3(U, g);
    w.pose_a.push_back(to_pose(world * local_a, shift + world * local_p));
    w.pose_b.push_back(to_pose(world, shift));
  }
  return w;
}

// Random orientations of both, B at a random position, A approaching it along
// a random direction u: the touching offset along u is found by bisection on
// the sign of Proxima's signed distance (overlap along the line through B's
// centre is an interval; only the sign is used, and the Minkowski oracle
// would make generation take most of the run), then A is pushed in by a
// random amount in (0, max_overlap] along -u, so the penetration depth is at
// most that.
Workload shallow(const std::string& name, const ShapeSpec& a, const ShapeSpec& b, double max_overlap, int poses,
                 std::mt19937& g) {
  Workload w;
  w.name = name;
  w.a = a;
  w.b = b;
  std::normal_distribution<double> N;
  std::uniform_real_distribution<double> depth(0.0, max_overlap);
  const Shape shape_a = to_shape(a), shape_b = to_shape(b);
  const double reach = 2.0 * (bounding_radius(a) + bounding_radius(b));
  while (static_cast<int>(w.pose_a.size()) < poses) {
    Pose pb = random_pose(g, 1.0), pa = random_pose(g, 0.0);
    const Vec3 u = draw_vec3(N, g).normalized();
    const Vec3 cb(pb.p[0], pb.p[1], pb.p[2]);
    const Transform tb = to_transform(pb);
    const auto signed_distance_at = [&](double t) {
      pa.p = {cb.x() + t * u.x(), cb.y() + t * u.y(), cb.z() + t * u.z()};
      return signed_distance(shape_a, to_transform(pa), shape_b, tb).distance;
    };
    double lo = 0.0, hi = reach;  // overlapping at lo, separated at hi
    for (int k = 0; k < 45; ++k) {
      const double mid = 0.5 * (lo + hi);
      (signed_distance_at(mid) < 0.0 ? lo : hi) = mid;
    }
    const double overlap = max_overlap - depth(g);  // (0, max_overlap]
    if (!(signed_distance_at(hi - overlap) < 0.0)) continue;
    w.pose_a.push_back(pa);
    w.pose_b.push_back(pb);
  }
  return w;
}

// Shape A sunk into a halfspace B kept at the identity pose: A turned at
// random, its centre within its bounding radius of the plane. The truth is in
// closed form: A's lowest core vertex along the normal, less the plane's
// offset and A's radius; the normal (B→A) is the plane's.
TruthWorkload build_on_halfspace(const std::string& name, const ShapeSpec& a, const ShapeSpec& b, int poses,
                                 std::mt19937& g) {
  TruthWorkload w;
  w.work.name = name;
  w.work.a = a;
  w.work.b = b;
  w.oracle = "closed form (lowest core vertex)";
  const Vec3 n(b.normal[0], b.normal[1], b.normal[2]);
  const double reach = bounding_radius(a);
  int attempts = 0;
  while (static_cast<int>(w.truth.size()) < poses && attempts++ < 100 * poses) {
    Pose pa = random_pose(g, reach);
    const Transform ta = to_transform(pa);
    double ra = 0.0;
    double lowest = std::numeric_limits<double>::infinity();
    for (const Vec3& v : core_vertices(a, ta, ra)) lowest = std::min(lowest, n.dot(v));
    const double truth = lowest - b.offset - ra;
    if (!(truth < -1e-6)) continue;
    w.work.pose_a.push_back(pa);
    w.work.pose_b.push_back(Pose{});
    w.truth.push_back(truth);
    w.truth_normal.push_back(n);
  }
  return w;
}

}  // namespace

Shape to_shape(const ShapeSpec& s) {
  switch (s.kind) {
    case Kind::sphere: return Sphere(s.radius);
    case Kind::capsule: return Capsule(s.radius, s.length);
    case Kind::cylinder: return Cylinder(s.radius, s.length);
    case Kind::box: return Box(Vec3(s.size[0], s.size[1], s.size[2]));
    case Kind::ellipsoid: return Ellipsoid(Vec3(s.radii[0], s.radii[1], s.radii[2]));
    case Kind::convex: {
      std::vector<Vec3> pts;
      for (const auto& p : s.points) pts.emplace_back(p[0], p[1], p[2]);
      return ConvexPolytope(pts);
    }
    case Kind::halfspace: return Halfspace(Vec3(s.normal[0], s.normal[1], s.normal[2]), s.offset);
  }
  return Sphere(1.0);
}

Transform to_transform(const Pose& p) {
  return Transform::from_quaternion(p.q[0], p.q[1], p.q[2], p.q[3], Vec3(p.p[0], p.p[1], p.p[2]));
}

std::vector<TruthWorkload> make_workloads(int poses, unsigned seed) {
  std::mt19937 g(seed);
  std::vector<TruthWorkload> out;
  out.push_back(build("box-box (2x2x2)", box(2, 2, 2), box(2, 2, 2), poses, g));
  const ShapeSpec p200 = polytope(200, 0.5, g);
  out.push_back(build("polytope(200)-polytope(200)", p200, p200, poses, g));
  out.push_back(build("sphere-capsule", sphere(0.5), capsule(0.25, 0.5), poses, g));
  out.push_back(build("capsule-capsule", capsule(0.25, 0.5), capsule(0.25, 0.5), poses, g));
  out.push_back(build("ellipsoid-ellipsoid", ellipsoid(0.5, 0.3, 0.2), ellipsoid(0.4, 0.4, 0.25), poses, g));
  out.push_back(build("cylinder-box", cylinder(0.3, 0.8), box(0.6, 0.4, 0.8), poses, g));
  return out;
}

std::vector<TruthWorkload> make_depth_workloads(int poses, unsigned seed) {
  std::mt19937 g(seed);
  std::vector<TruthWorkload> out;
  out.push_back(build("sphere-sphere (r 0.5)", sphere(0.5), sphere(0.5), poses, g, true));
  out.push_back(build("capsule-capsule (r 0.25, l 0.5)", capsule(0.25, 0.5), capsule(0.25, 0.5), poses, g, true));
  out.push_back(build("sphere-capsule", sphere(0.5), capsule(0.25, 0.5), poses, g, true));
  out.push_back(build("box-box (2x2x2)", box(2, 2, 2), box(2, 2, 2), poses, g, true));
  for (int n : {50, 200, 1000, 2000}) {
    out.push_back(build("polytope(" + std::to_string(n) + ")-capsule", polytope(n, 0.5, g), capsule(0.25, 0.5), poses, g, true));
  }
  // A robot link against a shelf or table; last, so the poses above keep their seeds.
  out.push_back(build("capsule-box (r 0.1, l 0.6; 1x0.6x0.4)", capsule(0.1, 0.6), box(1, 0.6, 0.4), poses, g, true));
  // A link's convex hull sunk into a shelf: what an optimising planner's
  // signed distance asks once a link is in collision.
  out.push_back(build("polytope(200)-box (1x0.6x0.4)", polytope(200, 0.5, g), box(1, 0.6, 0.4), poses, g, true));
  // A bounding sphere (a fingertip, a tool) against a shelf board.
  out.push_back(build("sphere-box (r 0.25; 1x0.6x0.4)", sphere(0.25), box(1, 0.6, 0.4), poses, g, true));
  // Shapes sunk into a floor (ODE's plane; the halfspace z ≤ 0).
  out.push_back(build_on_halfspace("sphere-halfspace (r 0.25)", sphere(0.25), floor_halfspace(), poses, g));
  out.push_back(build_on_halfspace("capsule-halfspace (r 0.1, l 0.6)", capsule(0.1, 0.6), floor_halfspace(), poses, g));
  out.push_back(build_on_halfspace("box-halfspace (1x0.6x0.4)", box(1, 0.6, 0.4), floor_halfspace(), poses, g));
  return out;
}

std::vector<Workload> make_contact_workloads(int poses, unsigned seed) {
  std::mt19937 g(seed);
  std::vector<Workload> out;
  const ShapeSpec cube = box(1, 1, 1), slab = box(2, 2, 1);
  out.push_back(resting("box-box resting (1x1x1 on 2x2x1)", cube, 0.5, slab, 0.5, 0.75, 0.005, poses, g));
  out.push_back(shallow("box-box random, overlap ≤ 5 mm", cube, slab, 0.005, poses, g));
  out.push_back(build("box-box random, deep overlap", cube, slab, poses, g, true).work);
  const ShapeSpec p200 = polytope(200, 0.5, g);
  out.push_back(shallow("polytope(200)-box random, overlap ≤ 5 mm", p200, slab, 0.005, poses, g));
  out.push_back(build("polytope(200)-box random, deep overlap", p200, slab, poses, g, true).work);
  const double cut = 0.3;
  out.push_back(resting("flat polytope(200)-box resting", flattened_polytope(200, 0.5, cut, g), cut, slab, 0.5, 0.75,
                        0.005, poses, g));
  return out;
}

}  // namespace proxima::bench
