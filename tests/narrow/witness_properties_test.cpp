// SPDX-License-Identifier: BSD-3-Clause
// Witness points, normals and statuses of distance and signed_distance over
// every ordered pair of convex shapes (the dispatch table's 63 cells: every
// pair but two halfspaces) and every method that applies, on separated,
// exactly touching, overlapping and face-on-face poses, with and without
// margins. The oracle shares no code with the queries: each shape's support
// point and the signed distance of a point to it are written here from
// closed forms (qhull's facets for the polytope), and
//   * point_a lies on A's surface, point_b on B's (signed distance of the
//     point to the shape within tolerance; for `distance` on an overlap, a
//     common point inside both, and the normal of least penetration);
//   * point_a − point_b = distance · normal and |normal| = 1;
//   * the gap of the supporting planes along the normal, g(n) = min over A
//     of n·x − max over B of n·x, equals the distance, and no sampled
//     direction has a larger gap (the signed distance is the largest gap over
//     all directions, for separated and overlapping pairs alike), except for
//     an `upper_bound` answer, whose depth need only separate the pair.
#include <cstdio>

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <numbers>
#include <string>
#include <vector>

#include <proxima/query.hpp>

#include "../oracle/minkowski_oracle.hpp"
#include "../oracle/oracle_geometry.hpp"
#include "../support/random.hpp"
#include "../support/test_shapes.hpp"

namespace proxima {
namespace {

using testing::Rng;

enum class Kind { sphere, capsule, cylinder, cone, box, ellipsoid, halfspace, convex };
constexpr std::array<Kind, 8> kKinds = {Kind::sphere, Kind::capsule,   Kind::cylinder,  Kind::cone,
                                        Kind::box,    Kind::ellipsoid, Kind::halfspace, Kind::convex};
const char* name(Kind k) {
  constexpr const char* names[] = {"sphere", "capsule", "cylinder", "cone", "box", "ellipsoid", "halfspace", "convex"};
  return names[static_cast<int>(k)];
}

// A shape as the test knows it: its parameters, written again here.
struct Desc {
  Kind kind = Kind::sphere;
  double r = 0.0, h = 0.0;       // radius and half length (capsule segment, cylinder and cone height)
  Vec3 e = Vec3::Zero();         // box half extents, ellipsoid radii, halfspace normal
  double offset = 0.0;           // halfspace
  double margin = 0.0;
  std::vector<Vec3> points;      // polytope vertices (local)
};

std::vector<Vec3> prism_points() {
  // An irregular hexagonal prism with a roof point: flat bottom, pointed top.
  std::vector<Vec3> p;
  const double radius[6] = {0.45, 0.38, 0.5, 0.42, 0.36, 0.48};
  for (int i = 0; i < 6; ++i) {
    const double t = std::numbers::pi * i / 3.0 + 0.1;
    p.push_back({radius[i] * std::cos(t), radius[i] * std::sin(t), -0.3});
    p.push_back({radius[i] * std::cos(t), radius[i] * std::sin(t), 0.25});
  }
  p.push_back({0.05, -0.02, 0.5});
  return p;
}

Desc describe(Kind k, double margin) {
  Desc d;
  d.kind = k;
  d.margin = margin;
  switch (k) {
    case Kind::sphere: d.r = 0.5; break;
    case Kind::capsule: d.r = 0.3; d.h = 0.4; break;
    case Kind::cylinder: d.r = 0.4; d.h = 0.5; break;
    case Kind::cone: d.r = 0.5; d.h = 0.5; break;
    case Kind::box: d.e = Vec3(0.5, 0.3, 0.4); break;
    case Kind::ellipsoid: d.e = Vec3(0.5, 0.3, 0.4); break;
    case Kind::halfspace: d.e = Vec3(0, 0, 1); d.offset = 0.1; break;
    case Kind::convex: d.points = prism_points(); break;
  }
  return d;
}

Shape make(const Desc& d) {
  switch (d.kind) {
    case Kind::sphere: return Shape(Sphere(d.r, d.margin));
    case Kind::capsule: return Shape(Capsule(d.r, 2 * d.h, d.margin));
    case Kind::cylinder: return Shape(Cylinder(d.r, 2 * d.h, d.margin));
    case Kind::cone: return Shape(Cone(d.r, 2 * d.h, d.margin));
    case Kind::box: return Shape(Box(2 * d.e, d.margin));
    case Kind::ellipsoid: return Shape(Ellipsoid(d.e, d.margin));
    case Kind::halfspace: return Shape(Halfspace(d.e, d.offset, d.margin));
    case Kind::convex: return Shape(ConvexPolytope(d.points, d.margin));
  }
  return Shape(Sphere(1.0));
}

double sgn(double x) { return x >= 0.0 ? 1.0 : -1.0; }

// A support point of the core along unit u (local frame). Halfspaces have
// none but along their normal (the caller handles them).
Vec3 core_support(const Desc& d, const Vec3& u) {
  switch (d.kind) {
    case Kind::sphere: return Vec3::Zero();
    case Kind::capsule: return Vec3(0, 0, sgn(u.z()) * d.h);
    case Kind::cylinder: {
      const double rho = std::hypot(u.x(), u.y());
      const Vec3 rim = rho > 0 ? Vec3(d.r * u.x() / rho, d.r * u.y() / rho, 0) : Vec3(d.r, 0, 0);
      return rim + Vec3(0, 0, sgn(u.z()) * d.h);
    }
    case Kind::cone: {
      const double rho = std::hypot(u.x(), u.y());
      const double apex = d.h * u.z(), rim = d.r * rho - d.h * u.z();
      if (apex >= rim) return Vec3(0, 0, d.h);
      return rho > 0 ? Vec3(d.r * u.x() / rho, d.r * u.y() / rho, -d.h) : Vec3(d.r, 0, -d.h);
    }
    case Kind::box: return Vec3(sgn(u.x()) * d.e.x(), sgn(u.y()) * d.e.y(), sgn(u.z()) * d.e.z());
    case Kind::ellipsoid: {
      const Vec3 s = d.e.cwiseProduct(d.e).cwiseProduct(u);
      return s / d.e.cwiseProduct(u).norm();
    }
    case Kind::halfspace: return Vec3::Zero();
    case Kind::convex: {
      Vec3 best = d.points[0];
      for (const Vec3& p : d.points)
        if (p.dot(u) > best.dot(u)) best = p;
      return best;
    }
  }
  return Vec3::Zero();
}

// 2-D signed distance of q to the convex polygon `poly` (counter-clockwise).
double polygon_sd(const std::vector<Eigen::Vector2d>& poly, const Eigen::Vector2d& q) {
  double outside = -1e300, nearest = 1e300;
  for (std::size_t i = 0; i < poly.size(); ++i) {
    const Eigen::Vector2d a = poly[i], b = poly[(i + 1) % poly.size()], e = b - a;
    const Eigen::Vector2d nrm = Eigen::Vector2d(e.y(), -e.x()).normalized();  // outward
    outside = std::max(outside, nrm.dot(q - a));
    const double t = std::clamp((q - a).dot(e) / e.squaredNorm(), 0.0, 1.0);
    nearest = std::min(nearest, (q - (a + t * e)).norm());
  }
  return outside > 0.0 ? nearest : -nearest;
}

// Signed distance of a local point to the shape, margin included. Inside an
// ellipsoid only the sign is exact (the checks need no more there).
double signed_distance_to(const Desc& d, const Vec3& q) {
  double core = 0.0;
  const double rho = std::hypot(q.x(), q.y());
  switch (d.kind) {
    case Kind::sphere: core = q.norm() - d.r; break;
    case Kind::capsule: core = (q - Vec3(0, 0, std::clamp(q.z(), -d.h, d.h))).norm() - d.r; break;
    case Kind::cylinder: core = polygon_sd({{-d.r, -d.h}, {d.r, -d.h}, {d.r, d.h}, {-d.r, d.h}}, {rho, q.z()}); break;
    case Kind::cone: core = polygon_sd({{-d.r, -d.h}, {d.r, -d.h}, {0.0, d.h}}, {rho, q.z()}); break;
    case Kind::box: {
      const Vec3 o = q.cwiseAbs() - d.e;
      core = o.cwiseMax(0.0).norm() + std::min(o.maxCoeff(), 0.0);
      break;
    }
    case Kind::ellipsoid: {
      const double level = q.cwiseQuotient(d.e).squaredNorm();
      core = level <= 1.0 ? -(1.0 - std::sqrt(level)) * d.e.minCoeff() : oracle::point_ellipsoid_distance(d.e, q);
      break;
    }
    case Kind::halfspace: core = d.e.normalized().dot(q) - d.offset; break;
    case Kind::convex: core = oracle::hull_signed_distance(d.points, q); break;
  }
  return core - d.margin;
}

// How far the surface lies out of the core (a sphere's point, a capsule's
// segment, every other shape itself): radius and margin.
double inflation(const Desc& d) {
  return d.margin + (d.kind == Kind::sphere || d.kind == Kind::capsule ? d.r : 0.0);
}

// Support value of the shape (posed) along world unit u; +inf for a
// halfspace unless u is its outward normal.
double support_value(const Desc& d, const Transform& t, const Vec3& u) {
  const Vec3 ul = t.R.transpose() * u;
  if (d.kind == Kind::halfspace) {
    const Vec3 k = d.e.normalized();
    if (ul.dot(k) < 1.0 - 1e-12) return std::numeric_limits<double>::infinity();
    return d.offset + d.margin + u.dot(t.p);
  }
  return u.dot(t.apply(core_support(d, ul))) + inflation(d);
}

// g(n) = min over A of n·x − max over B of n·x (−inf when unbounded).
double gap(const Desc& a, const Transform& ta, const Desc& b, const Transform& tb, const Vec3& n) {
  return -support_value(a, ta, -n) - support_value(b, tb, n);
}

// A support point of the posed shape along world u, margin included (a
// halfspace: the foot of `near` on its boundary plane).
Vec3 support_point(const Desc& d, const Transform& t, const Vec3& u, const Vec3& near) {
  if (d.kind == Kind::halfspace) {
    const Vec3 k = t.rotate(d.e.normalized());
    const double c = d.offset + d.margin + k.dot(t.p);
    return near - (k.dot(near) - c) * k;
  }
  return t.apply(core_support(d, t.R.transpose() * u)) + inflation(d) * u;
}

Vec3 halfspace_normal(const Desc& d, const Transform& t) { return t.rotate(d.e.normalized()); }

struct Tally {
  std::map<std::string, int> asserted;  // "cell/method" → poses whose answer was checked
};

constexpr Method kMethods[] = {Method::automatic, Method::gjk, Method::analytic,
                               Method::sat,       Method::incremental, Method::mpr};
const char* method_name(Method m) {
  constexpr const char* names[] = {"auto", "gjk", "analytic", "sat", "incremental", "mpr"};
  return names[static_cast<int>(m)];
}

struct Pair {
  Desc a, b;
  Shape sa, sb;
};

// Every check of one answer; returns whether it was asserted.
bool check_answer(const Pair& p, const Transform& ta, const Transform& tb, Method m, bool signed_query,
                  const std::string& what, Rng& rng) {
  DistanceRequest req;
  req.method = m;
  const DistanceResult r = signed_query ? signed_distance(p.sa, ta, p.sb, tb, req) : distance(p.sa, ta, p.sb, tb, req);
  if (r.status == Status::not_implemented) return false;
  std::string tag = what + " " + method_name(m) + (signed_query ? " signed" : " distance");
  tag.append(" (status ").append(to_string(r.status)).append(", distance ").append(std::to_string(r.distance));
  tag.append(", normal ").append(std::to_string(r.normal.x())).append(" ").append(std::to_string(r.normal.y()));
  tag.append(" ").append(std::to_string(r.normal.z())).append(")");
  EXPECT_TRUE(r.status == Status::ok || r.status == Status::not_converged || r.status == Status::upper_bound)
      << tag << " status " << to_string(r.status);
  EXPECT_TRUE(std::isfinite(r.distance) && r.normal.allFinite() && r.point_a.allFinite() && r.point_b.allFinite())
      << tag;
  if (!std::isfinite(r.distance) || !r.point_a.allFinite() || !r.point_b.allFinite() || !r.normal.allFinite())
    return true;
  // upper_bound only from mpr, and only on an overlap.
  if (r.status == Status::upper_bound) {
    EXPECT_EQ(m, Method::mpr) << tag;
    EXPECT_LT(r.distance, 0.0) << tag;
  }
  const double size = 1.0;  // every shape here is about a metre across
  EXPECT_NEAR(r.normal.norm(), 1.0, 1e-9) << tag;
  EXPECT_LE((r.point_a - r.point_b - r.distance * r.normal).norm(), 1e-9 * size) << tag;
  // Exact methods to rounding; EPA and the SQP on curved pairs to their tolerance.
  auto flat = [](Kind k) { return k == Kind::box || k == Kind::convex || k == Kind::halfspace; };
  // Iterative depths on curved pairs: a normal off by θ moves a curved
  // support point by about R·θ, and EPA's 1e-10 on the depth leaves θ near
  // 1e-5; the witness splits that mismatch between the two shapes. MPR's
  // exit point splits into points within its tolerance of both surfaces.
  const bool exact = (r.status == Status::ok && flat(p.a.kind) && flat(p.b.kind)) || r.status == Status::upper_bound;
  const double tol = exact ? 1e-7 : 5e-5;
  const double sd_a = signed_distance_to(p.a, ta.apply_inverse(r.point_a));
  const double sd_b = signed_distance_to(p.b, tb.apply_inverse(r.point_b));
  if (!signed_query && r.distance == 0.0) {
    // A common point of the overlap (or the touching point).
    EXPECT_LE(sd_a, tol) << tag;
    EXPECT_LE(sd_b, tol) << tag;
  } else {
    EXPECT_LE(std::abs(sd_a), tol) << tag << " point_a off A by " << sd_a;
    EXPECT_LE(std::abs(sd_b), tol) << tag << " point_b off B by " << sd_b;
  }
  // The supporting planes along the normal: their gap is the distance (a
  // bound for upper_bound and not_converged), and no direction does better.
  const double g = gap(p.a, ta, p.b, tb, r.normal);
  double best = g;
  const bool hs = p.a.kind == Kind::halfspace || p.b.kind == Kind::halfspace;
  if (hs) {
    const Vec3 k = p.a.kind == Kind::halfspace ? Vec3(-halfspace_normal(p.a, ta)) : halfspace_normal(p.b, tb);
    best = gap(p.a, ta, p.b, tb, k);
  } else {
    for (int i = 0; i < 64; ++i) best = std::max(best, gap(p.a, ta, p.b, tb, rng.unit_vector()));
    for (int i = 0; i < 3; ++i) {
      for (const Transform* t : {&ta, &tb}) {
        best = std::max(best, gap(p.a, ta, p.b, tb, t->R.col(i)));
        best = std::max(best, gap(p.a, ta, p.b, tb, -t->R.col(i)));
      }
    }
  }
  if (!signed_query && r.distance == 0.0) {
    EXPECT_LE(best, tol) << tag << ": distance 0 for a pair a direction separates by " << best;
    // Its normal is the direction of least penetration (mpr's: the centre
    // line's), margins or not: no direction has the planes overlap less.
    if (r.status == Status::ok && m != Method::mpr) {
      EXPECT_GE(g, best - tol) << tag << ": a direction overlaps by " << -best << ", the normal by " << -g;
    }
    return true;
  }
  if (r.status == Status::ok) {
    EXPECT_NEAR(g, r.distance, tol) << tag << ": the planes along the normal are not the distance apart";
    EXPECT_LE(best, r.distance + tol) << tag << ": a direction separates more than the answer";
  } else {
    // A bound on the depth: moving A by −distance along the normal takes its
    // witness onto B's, and no shorter move along it pulls the supporting
    // planes apart (the pair may part before its planes do: an upper bound).
    EXPECT_LE(g, r.distance + tol) << tag << ": the planes along the normal part before the answer's depth";
  }
  return true;
}

Transform rot_z(double angle) {
  return Transform::from_quaternion(std::cos(angle / 2), 0, 0, std::sin(angle / 2), Vec3::Zero());
}

// The poses of one cell: separated, touching (A placed so that its support
// point along −u meets B's along u), overlapping, and faces parallel (A turned
// about B's z: boxes, prisms, cylinders and cones then meet face on face) at
// a small overlap and exactly touching.
std::vector<std::pair<Transform, Transform>> poses_for(const Desc& a, const Desc& b, Rng& rng, int n) {
  std::vector<std::pair<Transform, Transform>> out;
  for (int i = 0; i < n; ++i) {
    const int kind = i % 5;
    Transform tb = rng.pose(0.5);
    if (b.kind == Kind::halfspace && rng.uniform(0, 1) < 0.5) tb = Transform::identity();
    Transform ta = rng.pose(0.0);
    Vec3 u = rng.unit_vector();  // B→A
    if (b.kind == Kind::halfspace) u = halfspace_normal(b, tb);
    if (a.kind == Kind::halfspace) {
      const Vec3 k = halfspace_normal(a, ta);
      u = -k;
      if (b.kind == Kind::halfspace) continue;
    }
    const bool faces = (kind == 3 || kind == 4) && a.kind != Kind::halfspace && b.kind != Kind::halfspace;
    if (faces) {
      // Faces parallel: A's −z face on B's +z face.
      ta.R = tb.R * rot_z(rng.uniform(0, 2 * std::numbers::pi)).R;
      u = tb.R.col(2);
    }
    const double shift = kind == 0 ? rng.uniform(0.05, 0.6) : kind == 1 || kind == 4 ? 0.0 : -rng.uniform(0.01, 0.2);
    // Touch: A's support along −u at B's support along u, then shift along u.
    const Vec3 sb = support_point(b, tb, u, tb.p);
    ta.p = Vec3::Zero();
    Vec3 sa = support_point(a, ta, -u, Vec3::Zero());
    if (a.kind == Kind::halfspace) sa = support_point(a, ta, -u, sb);
    Vec3 slide = Vec3::Zero();
    if (faces) {
      // An in-plane offset that keeps the faces partly over each other.
      const Vec3 t1 = tb.R.col(0), t2 = tb.R.col(1);
      slide = rng.uniform(-0.15, 0.15) * t1 + rng.uniform(-0.15, 0.15) * t2;
      sa = ta.R * Vec3(0, 0, -(support_value(a, Transform::identity(), -Vec3::UnitZ())));
      const Vec3 top = tb.p + u * (support_value(b, tb, u) - u.dot(tb.p));
      ta.p = top - sa + slide + shift * u;
    } else {
      ta.p = sb - sa + shift * u;
    }
    out.push_back({ta, tb});
  }
  return out;
}

bool has_closed_form(Kind a, Kind b) {
  auto pair = [&](Kind x, Kind y) { return (a == x && b == y) || (a == y && b == x); };
  if (a == Kind::halfspace || b == Kind::halfspace) return true;
  if (a == Kind::sphere || b == Kind::sphere) {
    const Kind o = a == Kind::sphere ? b : a;
    return o != Kind::convex;
  }
  return pair(Kind::capsule, Kind::capsule) || pair(Kind::capsule, Kind::box);
}

TEST(WitnessProperties, EveryCellEveryMethod) {
  Rng rng(2024);
  const int poses = testing::scaled(60);
  std::map<std::string, int> counts;
  int cells = 0;
  for (double margin : {0.0, 0.05}) {
    for (Kind ka : kKinds) {
      for (Kind kb : kKinds) {
        if (ka == Kind::halfspace && kb == Kind::halfspace) continue;
        const Pair p{describe(ka, margin), describe(kb, 0.5 * margin), make(describe(ka, margin)),
                     make(describe(kb, 0.5 * margin))};
        const std::string cell = std::string(name(ka)) + "/" + name(kb);
        if (margin == 0.0) ++cells;
        const auto set = poses_for(p.a, p.b, rng, poses);
        for (std::size_t i = 0; i < set.size(); ++i) {
          const std::string what = cell + " margin " + std::to_string(margin) + " pose " + std::to_string(i) +
                                   " kind " + std::to_string(i % 5);
          for (Method m : kMethods) {
            int checked = 0;
            for (bool sign : {false, true}) checked += check_answer(p, set[i].first, set[i].second, m, sign, what, rng);
            if (checked == 2) ++counts[cell + "/" + method_name(m)];
          }
        }
      }
    }
  }
  EXPECT_EQ(cells, 63);
  int cell_methods = 0, answers = 0;
  for (const auto& [key, n] : counts) {
    cell_methods += n > 0 ? 1 : 0;
    answers += 2 * n;  // distance and signed_distance
  }
  std::printf("witness properties: %d cells, %d cell-method combinations, %d poses each at 2 margins, %d answers checked\n",
              cells, cell_methods, poses, answers);
  // Every method that applies answered (and was checked) on every pose: the
  // closed forms where the pair has one; every other method on bounded pairs
  // (sat only on the polyhedral and polytope–capsule ones, where it applies
  // to every overlap; elsewhere GJK answers the separated poses only).
  for (Kind ka : kKinds) {
    for (Kind kb : kKinds) {
      if (ka == Kind::halfspace && kb == Kind::halfspace) continue;
      const std::string cell = std::string(name(ka)) + "/" + name(kb);
      const bool hs = ka == Kind::halfspace || kb == Kind::halfspace;
      const int all = 2 * poses;
      EXPECT_EQ(counts[cell + "/auto"], all) << cell;
      if (has_closed_form(ka, kb)) {
        EXPECT_EQ(counts[cell + "/analytic"], all) << cell;
      }
      if (hs) {
        // The closed form answers a halfspace pair whatever the method.
        for (const char* m : {"gjk", "sat", "incremental", "mpr"}) EXPECT_EQ(counts[cell + "/" + m], all) << cell << " " << m;
        continue;
      }
      for (const char* m : {"gjk", "incremental", "mpr"}) {
        EXPECT_EQ(counts[cell + "/" + m], all) << cell << " " << m;
      }
      auto poly = [](Kind k) { return k == Kind::box || k == Kind::convex; };
      auto seg = [](Kind k) { return k == Kind::capsule || k == Kind::sphere; };
      const bool sat = (poly(ka) && poly(kb)) || (ka == Kind::convex && seg(kb)) || (seg(ka) && kb == Kind::convex) ||
                       (ka == Kind::box && kb == Kind::capsule) || (ka == Kind::capsule && kb == Kind::box);
      if (sat) {
        EXPECT_EQ(counts[cell + "/sat"], all) << cell;
      }
    }
  }
}

// The user cases and their kin from other libraries' suites: witness points
// on the shapes and the supporting plane's normal at touching, every method.
DistanceResult query(const Shape& a, const Transform& ta, const Shape& b, const Transform& tb, Method m, bool sign) {
  DistanceRequest req;
  req.method = m;
  return sign ? signed_distance(a, ta, b, tb, req) : distance(a, ta, b, tb, req);
}

Transform at(double x, double y, double z) { return Transform::from_quaternion(1, 0, 0, 0, Vec3(x, y, z)); }

TEST(WitnessRegression, MujocoBoxBoxDepth) {
  // Box 5×5×5 at x = −1 overlapping box 2×2×2 at x = 1.5 by 1 m along x.
  const Shape a(Box(5, 5, 5)), b(Box(2, 2, 2));
  const Transform ta = at(-1, 0, 0), tb = at(1.5, 0, 0);
  int checked = 0;
  for (Method m : {Method::automatic, Method::gjk, Method::sat, Method::incremental, Method::mpr}) {
    const DistanceResult r = query(a, ta, b, tb, m, true);
    ASSERT_NE(r.status, Status::not_implemented) << method_name(m);
    EXPECT_NEAR(r.distance, -1.0, 1e-9) << method_name(m);
    EXPECT_LE((r.normal - Vec3(-1, 0, 0)).norm(), 1e-9) << method_name(m);
    // point_b on B's −x face, inside the 2×2 square; point_a on A's +x face.
    EXPECT_NEAR(r.point_b.x(), 0.5, 1e-9) << method_name(m);
    EXPECT_LE(std::max(std::abs(r.point_b.y()), std::abs(r.point_b.z())), 1.0 + 1e-9) << method_name(m);
    EXPECT_NEAR(r.point_a.x(), 1.5, 1e-9) << method_name(m);
    EXPECT_LE((r.point_a - r.point_b - r.distance * r.normal).norm(), 1e-12) << method_name(m);
    ++checked;
  }
  EXPECT_EQ(checked, 5);
}

TEST(WitnessRegression, DrakeTouchingBoxes) {
  // Box 2×3×4 at x = −1 and box 2×5×6 at x = 1 share the plane x = 0.
  const Shape a(Box(2, 3, 4)), b(Box(2, 5, 6));
  const Transform ta = at(-1, 0, 0), tb = at(1, 0, 0);
  int checked = 0;
  for (Method m : {Method::automatic, Method::gjk, Method::sat, Method::incremental, Method::mpr}) {
    for (bool sign : {false, true}) {
      const DistanceResult r = query(a, ta, b, tb, m, sign);
      ASSERT_EQ(r.status, Status::ok) << method_name(m) << sign;
      EXPECT_NEAR(r.distance, 0.0, 1e-12) << method_name(m) << sign;
      EXPECT_LE((r.normal - Vec3(-1, 0, 0)).norm(), 1e-9) << method_name(m) << sign;
      EXPECT_NEAR(r.point_a.x(), 0.0, 1e-9) << method_name(m) << sign;
      EXPECT_LE(std::abs(r.point_a.y()), 1.5 + 1e-9) << method_name(m) << sign;
      EXPECT_LE(std::abs(r.point_a.z()), 2.0 + 1e-9) << method_name(m) << sign;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 10);
}

TEST(WitnessRegression, FclCoalBoxBoxFaceOverlap) {
  // Unit boxes, B shifted 0.9 along x and 0.3 along y: depth 0.1 along x,
  // the faces' overlap 0.7 × 1.
  const Shape a(Box(1, 1, 1)), b(Box(1, 1, 1));
  const Transform ta = at(0, 0, 0), tb = at(0.9, 0.3, 0);
  int checked = 0;
  for (Method m : {Method::automatic, Method::gjk, Method::sat, Method::incremental}) {
    const DistanceResult r = query(a, ta, b, tb, m, true);
    ASSERT_EQ(r.status, Status::ok) << method_name(m);
    EXPECT_NEAR(r.distance, -0.1, 1e-9) << method_name(m);
    EXPECT_LE((r.normal - Vec3(-1, 0, 0)).norm(), 1e-9) << method_name(m);
    EXPECT_NEAR(r.point_a.x(), 0.5, 1e-9) << method_name(m);  // A's +x face
    EXPECT_NEAR(r.point_b.x(), 0.4, 1e-9) << method_name(m);  // B's −x face
    // In the faces' overlap: y in [−0.2, 0.5], z in [−0.5, 0.5].
    EXPECT_GE(r.point_b.y(), -0.2 - 1e-9) << method_name(m);
    EXPECT_LE(r.point_b.y(), 0.5 + 1e-9) << method_name(m);
    EXPECT_LE(std::abs(r.point_b.z()), 0.5 + 1e-9) << method_name(m);
    ++checked;
  }
  EXPECT_EQ(checked, 4);
}

TEST(WitnessRegression, SphereOnBoxFaceTouching) {
  const Shape a(Sphere(0.5)), b(Box(2, 2, 1));
  const Transform ta = at(0.3, -0.2, 1.0), tb = at(0, 0, 0);
  int checked = 0;
  for (Method m : {Method::automatic, Method::analytic, Method::gjk, Method::incremental, Method::mpr}) {
    for (bool sign : {false, true}) {
      const DistanceResult r = query(a, ta, b, tb, m, sign);
      ASSERT_EQ(r.status, Status::ok) << method_name(m) << sign;
      EXPECT_NEAR(r.distance, 0.0, 1e-9) << method_name(m) << sign;
      EXPECT_LE((r.normal - Vec3(0, 0, 1)).norm(), 1e-6) << method_name(m) << sign;
      EXPECT_LE((r.point_a - Vec3(0.3, -0.2, 0.5)).norm(), 1e-6) << method_name(m) << sign;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 10);
}

TEST(WitnessRegression, CapsuleOnBoxEdgeTouching) {
  // A capsule along y resting on the box's edge x = z = 0.5, touching it
  // along the diagonal: any normal between the two faces' separates.
  const double r = 0.1, c = 0.5 + r / std::sqrt(2.0);
  const Shape a(Capsule(r, 0.6)), b(Box(1, 1, 1));
  const Transform ta = Transform::from_quaternion(std::cos(std::numbers::pi / 4), std::sin(std::numbers::pi / 4), 0,
                                                  0, Vec3(c, 0, c));
  const Transform tb = at(0, 0, 0);
  int checked = 0;
  for (Method m : {Method::automatic, Method::analytic, Method::gjk, Method::incremental, Method::mpr,
                   Method::sat}) {
    for (bool sign : {false, true}) {
      const DistanceResult d = query(a, ta, b, tb, m, sign);
      ASSERT_EQ(d.status, Status::ok) << method_name(m) << sign;
      EXPECT_NEAR(d.distance, 0.0, 1e-9) << method_name(m) << sign;
      EXPECT_NEAR(d.normal.norm(), 1.0, 1e-12);
      // Separating: the normal lies in the x–z quarter between the faces.
      EXPECT_NEAR(d.normal.y(), 0.0, 1e-6) << method_name(m) << sign;
      EXPECT_GE(d.normal.x(), -1e-9) << method_name(m) << sign;
      EXPECT_GE(d.normal.z(), -1e-9) << method_name(m) << sign;
      EXPECT_NEAR(d.point_b.x(), 0.5, 1e-6) << method_name(m) << sign;
      EXPECT_NEAR(d.point_b.z(), 0.5, 1e-6) << method_name(m) << sign;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 12);
}

// A capsule deep in a box (their cores overlapping), in both orders:
// `distance` answers 0 at a point of both bodies, checked in closed form
// (the box's nearest point by clamping, the capsule's axis segment by the
// oracle). The midpoint of the depth's surface points, answered before, lay
// up to 1.6 cm outside the box on about 1 in 8,000 such poses.
TEST(WitnessRegression, CapsuleDeepInABoxAnswersAPointOfBoth) {
  Rng rng(91);
  const int n = testing::scaled(40000);
  int deep = 0;
  for (int k = 0; k < n; ++k) {
    const Vec3 half = rng.uniform_vec(0.01, 0.08);
    const double margin = k % 2 == 1 ? 0.005 : 0.0, r = rng.uniform(0.005, 0.02), l = rng.uniform(0.01, 0.11);
    const Shape box(Box(2.0 * half, margin)), capsule(Capsule(r, l, k % 3 == 0 ? 0.005 : 0.0));
    const double rc = r + (k % 3 == 0 ? 0.005 : 0.0);
    const Transform tb = rng.pose(0.1);
    const Vec3 top = tb.apply(Vec3(0, 0, 0.5 * l)), bottom = tb.apply(Vec3(0, 0, -0.5 * l));
    const auto off_box = [&](const Vec3& p) { return (p - p.cwiseMax(-half).cwiseMin(half)).norm() - margin; };
    const auto off_capsule = [&](const Vec3& p) {
      return (p - oracle::closest_point_on_segment(p, bottom, top)).norm() - rc;
    };
    for (const bool box_first : {true, false}) {
      const DistanceResult d = box_first ? distance(box, Transform::identity(), capsule, tb)
                                         : distance(capsule, tb, box, Transform::identity());
      ASSERT_EQ(d.status, Status::ok) << k;
      if (d.distance > 0.0) continue;
      EXPECT_EQ(d.point_a, d.point_b) << k;
      EXPECT_LE(off_box(d.point_a), 1e-12) << k << (box_first ? " box first" : " capsule first");
      EXPECT_LE(off_capsule(d.point_a), 1e-12) << k << (box_first ? " box first" : " capsule first");
      // Cores overlapping: the capsule's axis reaches into the box itself.
      deep += oracle::closest_point_on_segment(Vec3::Zero(), bottom, top).cwiseAbs().maxCoeff() < half.minCoeff();
    }
  }
  EXPECT_GT(deep, n / 20);
}

}  // namespace
}  // namespace proxima
