// SPDX-License-Identifier: BSD-3-Clause
// The batch prefilter: its spheres hold every link's geometry (points taken
// from the shapes' closed forms and the meshes' vertices and triangles, not
// from the fit), and check_configurations answers the same with it as
// without it on the Panda and the UR5 in their MotionBenchMaker scenes,
// random and near-contact configurations alike, on 1 and 2 threads.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <proxima/query.hpp>
#include <proxima/robot/attached_object.hpp>
#include <proxima/robot/batch_check.hpp>
#include <proxima/robot/planning_scene.hpp>
#include <proxima/robot/prepared_environment.hpp>
#include <proxima/robot/scene_checker.hpp>
#include <proxima/robot/sphere_prefilter.hpp>

#include "../../src/robot/pair_verdicts.hpp"
#include "../../src/robot/prefilter_lanes.hpp"
#include "robot_test_support.hpp"
#include "support/random.hpp"
#include "support/test_shapes.hpp"

namespace proxima::robot {
namespace {

using testing::Rng;

// Is x in some sphere of the set?
bool covered(const std::vector<BoundingSphere>& spheres, const Vec3& x) {
  for (const BoundingSphere& s : spheres)
    if ((x - s.center).norm() <= s.radius) return true;
  return false;
}

Vec3 unit(Rng& rng) { return rng.unit_vector(); }

// Points of a convex core given by its extreme points in closed form, as
// convex combinations of two or three of them, each moved by at most
// `inflation` in a random direction: every one lies in the core ⊕
// ball(inflation). Counts the points found outside every sphere.
int uncovered_points(const std::vector<BoundingSphere>& spheres, const std::vector<Vec3>& extreme, double inflation,
                     const Transform& origin, Rng& rng, int& checked) {
  int outside = 0;
  const auto idx = [&] {
    return static_cast<std::size_t>(rng.uniform(0.0, 1.0) * 0.999999 * static_cast<double>(extreme.size()));
  };
  for (int k = 0; k < 600; ++k) {
    Vec3 x = extreme[idx()];
    if (k >= 100) {  // the first hundred: extreme points themselves
      const double a = rng.uniform(0, 1), b = rng.uniform(0, 1 - a);
      x = a * x + b * extreme[idx()] + (1 - a - b) * extreme[idx()];
    }
    const Vec3 y = origin.apply(x) + (k % 2 == 0 ? inflation : rng.uniform(0, inflation)) * unit(rng);
    outside += !covered(spheres, y);
    ++checked;
  }
  return outside;
}

// Closed-form extreme points of a primitive (its core: no radius or margin).
std::vector<Vec3> cylinder_rims(double radius, double length) {
  std::vector<Vec3> out;
  for (int i = 0; i < 720; ++i) {
    const double a = 2.0 * M_PI * i / 720.0;
    for (const double z : {-0.5 * length, 0.5 * length}) out.emplace_back(radius * std::cos(a), radius * std::sin(a), z);
  }
  return out;
}

TEST(SpherePrefilter, SpheresHoldEveryPrimitiveWithItsMargin) {
  Rng rng(3);
  const Transform origin = Transform{Mat3(Eigen::AngleAxisd(0.9, Vec3(0.4, -0.7, 1.1).normalized())), Vec3(0.1, -0.2, 0.3)};
  struct Case {
    Shape shape;
    std::vector<Vec3> extreme;
    double inflation;
  };
  const std::vector<Case> cases = {
      {Sphere(0.1, 0.02), {Vec3::Zero()}, 0.12},
      {Capsule(0.05, 0.4, 0.01), {Vec3(0, 0, -0.2), Vec3(0, 0, 0.2)}, 0.06},
      {Box(0.6, 0.1, 0.05, 0.02), testing::box_corners(Vec3(0.3, 0.05, 0.025)), 0.02},
      {Box(0.05, 0.05, 0.05), testing::box_corners(Vec3(0.025, 0.025, 0.025)), 0.0},
      {Cylinder(0.04, 0.5, 0.0), cylinder_rims(0.04, 0.5), 0.0},
      {Cylinder(0.2, 0.05, 0.03), cylinder_rims(0.2, 0.05), 0.03},
  };
  int checked = 0, outside = 0, shapes = 0;
  for (const Case& c : cases) {
    for (const int pieces : {1, 3, 6}) {
      const std::vector<BoundingSphere> spheres = fit_spheres(LinkShape{c.shape, origin, "primitive"}, pieces);
      EXPECT_GE(spheres.size(), 1u);
      EXPECT_LE(spheres.size(), static_cast<std::size_t>(pieces));
      outside += uncovered_points(spheres, c.extreme, c.inflation, origin, rng, checked);
      ++shapes;
    }
  }
  EXPECT_EQ(shapes, 18);
  EXPECT_EQ(checked, 18 * 600);
  EXPECT_EQ(outside, 0);
  // A long thin box is cut into the whole budget of pieces along its
  // length, each ball far smaller than its one bounding ball (0.5 m).
  const std::vector<BoundingSphere> rod = fit_spheres(LinkShape{Box(1.0, 0.05, 0.05), Transform::identity(), "rod"});
  EXPECT_EQ(rod.size(), 8u);
  for (const BoundingSphere& s : rod) EXPECT_LT(s.radius, 0.08);
  // A halfspace has no bounds: no spheres.
  EXPECT_TRUE(fit_spheres(LinkShape{Halfspace(Vec3::UnitZ(), 0.0), Transform::identity(), "floor"}).empty());
  testing::expect_error([] { fit_spheres(LinkShape{Sphere(0.1), Transform::identity(), "s"}, 0); },
                        {"max_pieces must be from 1 to 64, not 0"});
}

// Every link of a shipped robot: each hull vertex, points on hull edges and
// faces (convex combinations of vertices), and, for a raw mesh, points on
// its triangles, each moved by up to the margin.
int expect_links_covered(const SceneChecker& c, double margin, Rng& rng) {
  const SpherePrefilter& p = c.sphere_prefilter();
  EXPECT_TRUE(p.available());
  int checked = 0, outside = 0;
  for (std::size_t l = 0; l < c.geometry().links().size(); ++l) {
    const std::vector<BoundingSphere>& spheres = p.link_spheres(l);
    EXPECT_EQ(spheres.empty(), c.geometry().links()[l].shapes.empty()) << c.model().links()[l].name;
    for (const LinkShape& shape : c.geometry().links()[l].shapes) {
      std::vector<Vec3> v;
      std::vector<std::array<std::size_t, 3>> tris;
      if (const Shape* s = shape.shape()) {
        EXPECT_EQ(s->margin(), margin);
        // Primitives have their own test; here the meshes' hulls.
        if (s->type() != ShapeType::convex) continue;
        v = s->as<ConvexPolytope>().vertices();
        // Hull points: triples of vertices (inside the hull, convex).
        for (int k = 0; k < 300; ++k) {
          const auto pick = [&] { return static_cast<std::size_t>(rng.uniform(0, 0.999999) * static_cast<double>(v.size())); };
          tris.push_back({pick(), pick(), pick()});
        }
      } else {
        const TriangleMesh& m = shape.bvh()->mesh();
        v = m.vertices();
        EXPECT_EQ(m.margin(), margin);
        for (const TriangleIndices& t : m.triangles()) tris.push_back({t[0], t[1], t[2]});
      }
      for (const Vec3& x : v)
        for (int k = 0; k < 4; ++k) {
          outside += !covered(spheres, shape.origin.apply(x) + (k == 0 ? 0.0 : margin) * unit(rng));
          ++checked;
        }
      for (const auto& t : tris) {
        const double a = rng.uniform(0, 1), b = rng.uniform(0, 1 - a);
        const Vec3 x = a * v[t[0]] + b * v[t[1]] + (1 - a - b) * v[t[2]];
        outside += !covered(spheres, shape.origin.apply(x) + margin * unit(rng));
        ++checked;
      }
    }
  }
  EXPECT_EQ(outside, 0);
  return checked;
}

// Points of each inner ball's surface (the six axis points and 400 random
// ones) against the shape's closed form, margin included.
TEST(SpherePrefilter, InnerBallsLieInsideTheirShapes) {
  Rng rng(5);
  const Transform origin = Transform::from_axis_angle(Vec3(1, 2, 3).normalized(), 0.7, Vec3(0.1, -0.2, 0.3));
  const Transform to_shape = origin.inverse();
  const double m = 0.01;
  struct Case {
    const char* name;
    Shape shape;
    double deepest;  // the largest ball the shape holds, closed form
    // How far a point (shape frame) lies outside the shape with its margin
    // (≤ 0 inside).
    std::function<double(const Vec3&)> outside;
  };
  const auto box_gap = [](const Vec3& x, const Vec3& h) { return (x.cwiseAbs() - h).cwiseMax(0.0).norm(); };
  const std::vector<Vec3> cloud = {{0.3, 0, 0}, {-0.2, 0.1, 0}, {0, 0.25, 0.05}, {0, -0.2, -0.1}, {0.05, 0, 0.3},
                                   {0, 0.05, -0.25}, {0.15, 0.15, 0.15}};
  const ConvexPolytope hull(cloud, 0.0);
  const PolytopeData& hd = hull.data();
  const std::vector<Case> cases = {
      {"sphere", Shape(Sphere(0.2, m)), 0.21, [&](const Vec3& x) { return x.norm() - 0.21; }},
      {"capsule", Shape(Capsule(0.05, 0.4, m)), 0.06,
       [&](const Vec3& x) { return (x - Vec3(0, 0, std::clamp(x.z(), -0.2, 0.2))).norm() - 0.06; }},
      {"box", Shape(Box(0.2, 0.3, 0.4, m)), 0.11, [&](const Vec3& x) { return box_gap(x, Vec3(0.1, 0.15, 0.2)) - m; }},
      {"cylinder", Shape(Cylinder(0.1, 0.5, m)), 0.11,
       [&](const Vec3& x) {
         const double radial = std::max(std::hypot(x.x(), x.y()) - 0.1, 0.0), axial = std::max(std::abs(x.z()) - 0.25, 0.0);
         return std::hypot(radial, axial) - m;
       }},
      {"hull", Shape(hull), 0.0,
       [&](const Vec3& x) {
         double worst = -std::numeric_limits<double>::infinity();
         for (std::size_t f = 0; f < hd.face_normals.size(); ++f)
           worst = std::max(worst, hd.face_normals[f].dot(x) - hd.face_offsets[f]);
         return worst;
       }},
  };
  for (const Case& c : cases) {
    const LinkShape link_shape{c.shape, origin, c.name};
    const std::vector<BoundingSphere> inner = inner_spheres(link_shape, fit_spheres(link_shape, 32));
    ASSERT_FALSE(inner.empty()) << c.name;
    double largest = 0.0, worst = -1.0;
    for (const BoundingSphere& b : inner) {
      largest = std::max(largest, b.radius);
      // A convex shape holds a ball when it holds the ball's surface.
      for (int k = 0; k < 406; ++k) {
        const Vec3 u = k < 6 ? Vec3((k % 3 == 0) * (k < 3 ? 1.0 : -1.0), (k % 3 == 1) * (k < 3 ? 1.0 : -1.0),
                                    (k % 3 == 2) * (k < 3 ? 1.0 : -1.0))
                             : rng.unit_vector();
        worst = std::max(worst, c.outside(to_shape.apply(b.center + b.radius * u)));
      }
    }
    // Inside by the 1e-6 m allowance, and not needlessly small.
    EXPECT_LE(worst, 0.0) << c.name;
    if (c.deepest > 0.0) {
      EXPECT_GT(largest, 0.5 * c.deepest) << c.name;
    }
  }
  // A raw mesh is a surface: no inside, no balls.
  const std::vector<Vec3> corners = testing::box_corners(Vec3(0.1, 0.1, 0.1));
  const std::vector<TriangleIndices> faces = {{0, 2, 1}, {1, 2, 3}, {4, 5, 6}, {5, 7, 6}, {0, 1, 4}, {1, 5, 4},
                                              {2, 6, 3}, {3, 6, 7}, {0, 4, 2}, {2, 4, 6}, {1, 3, 5}, {3, 7, 5}};
  const LinkShape surface{Bvh(TriangleMesh(corners, faces, 0.0, "cube")), Transform::identity(), "cube"};
  EXPECT_TRUE(inner_spheres(surface, fit_spheres(surface, 8)).empty());
}

// The lanes' sine and cosine against libm's over the range they accept:
// within the 4 u + 1e-15 (u = 2^-24) the float kinematics' allowance
// assumes (prefilter_rounding.hpp).
TEST(SpherePrefilter, LaneSineAndCosineMatchLibm) {
  Rng rng(17);
  std::vector<double> angles = {0.0, -0.0, M_PI / 4, -M_PI / 4, M_PI / 2, M_PI, 3 * M_PI / 2, 2 * M_PI, 1e-300,
                                detail::kAngleRange, -detail::kAngleRange, 0.5 * detail::kAngleRange};
  for (int k = 0; k < 200000; ++k) angles.push_back(rng.uniform(-1.0, 1.0) * (k % 2 ? 10.0 : detail::kAngleRange));
  // Just either side of the quadrant boundaries, where r is largest.
  for (int k = -64; k <= 64; ++k)
    for (const double d : {-1e-7, 0.0, 1e-7}) angles.push_back((k + 0.5) * M_PI / 2 + d);
  while (angles.size() % kPrefilterLanes) angles.push_back(1.0);
  double worst = 0.0;
  for (std::size_t i = 0; i < angles.size(); i += kPrefilterLanes) {
    float s[kPrefilterLanes], c[kPrefilterLanes];
    detail::lane_sin_cos(&angles[i], s, c);
    for (std::size_t l = 0; l < kPrefilterLanes; ++l)
      worst = std::max({worst, std::abs(s[l] - std::sin(angles[i + l])), std::abs(c[l] - std::cos(angles[i + l]))});
  }
  std::printf("lane sine and cosine: worst error %.3g u\n", worst / 0x1p-24);
  EXPECT_LE(worst, 4.0 * 0x1p-24 + 1e-15);
  // Float's own rounding is as much as u/2 near ±1: the bound is not loose.
  EXPECT_GT(worst, 0x1p-26);
}

// The balls hold the whole solid core, not only its surface: a grid of
// points inside random hulls (round, long, flat; 12 to 400 vertices),
// each cut into up to 32 pieces, against the hull's own face planes. A cut
// that lost a corner of a piece (a side of an earlier cut face, say) leaves
// a sliver of some piece outside its ball, and grid points in it.
TEST(SpherePrefilter, SpheresHoldTheSolidOfRandomHulls) {
  Rng rng(17);
  int inside = 0, outside = 0;
  for (int h = 0; h < 24; ++h) {
    const Vec3 stretch(rng.uniform(0.05, 1.0), rng.uniform(0.05, 1.0), rng.uniform(0.05, 1.0));
    std::vector<Vec3> points;
    const int count = 12 + static_cast<int>(rng.uniform(0.0, 388.0));
    for (int k = 0; k < count; ++k) {
      const Vec3 x = h % 2 == 0 ? rng.unit_vector() : Vec3(rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1));
      points.push_back(x.cwiseProduct(stretch));
    }
    const ConvexPolytope hull(points, 0.0);
    const Aabb box = hull.local_aabb();
    for (const int pieces : {4, 11, 32}) {
      const std::vector<BoundingSphere> spheres = fit_spheres(LinkShape{hull, Transform::identity(), "hull"}, pieces);
      constexpr int kSteps = 28;
      for (int i = 0; i <= kSteps; ++i)
        for (int j = 0; j <= kSteps; ++j)
          for (int k = 0; k <= kSteps; ++k) {
            const Vec3 t(i, j, k);
            const Vec3 x = box.min + (box.max - box.min).cwiseProduct(t / kSteps);
            if (hull.largest_plane_value(x) > 0.0) continue;
            ++inside;
            outside += !covered(spheres, x);
          }
    }
  }
  EXPECT_GT(inside, 100000);
  EXPECT_EQ(outside, 0);
}

TEST(SpherePrefilter, SpheresHoldEveryLinkOfTheShippedRobots) {
  Rng rng(5);
  for (const char* name : {"panda", "ur5"}) {
    const auto dir = robot_test::robots_dir() / name;
    const RobotModel m = load_urdf(dir / (std::string(name) + ".urdf"));
    AllowedCollisionMatrix acm = AllowedCollisionMatrix::adjacent(m);
    apply_srdf(m, dir / (std::string(name) + ".srdf"), acm);
    for (const MeshMode mode : {MeshMode::convex_hull, MeshMode::triangle_mesh})
      for (const double margin : {0.0, 0.015}) {
        const SceneChecker c(RobotGeometry(m, robot_test::options(mode, margin)), acm);
        EXPECT_GT(expect_links_covered(c, margin, rng), 1000) << name;
      }
  }
}

// `rows` joint vectors uniform within the limits, row-major.
std::vector<double> uniform_rows(const SceneChecker& c, int rows, Rng& rng) {
  std::vector<double> qs;
  for (int r = 0; r < rows; ++r)
    for (std::size_t j = 0; j < c.model().variable_count(); ++j) {
      const Joint& jt = c.model().joint(c.model().variable_joint(j));
      qs.push_back(rng.uniform(jt.lower, jt.upper));
    }
  return qs;
}

// Joint vectors uniform within the limits, then, for pairs of a free and a
// hit one, the two ends of a bisection of the segment between them down to
// 1e-9 of its length: configurations just clear of and just within the
// tolerance.
std::vector<double> configurations(const SceneChecker& c, const PreparedEnvironment& env, double tolerance,
                                   int random, Rng& rng) {
  const std::size_t dof = c.model().variable_count();
  std::vector<double> qs = uniform_rows(c, random, rng);
  const auto within = [&](const std::vector<double>& q) { return c.tolerance(c.state(q), env, tolerance).within; };
  int pairs = 0;
  for (int r = 0; r + 1 < random && pairs < random / 10; r += 2) {
    std::vector<double> a(qs.begin() + static_cast<std::ptrdiff_t>(r * dof), qs.begin() + static_cast<std::ptrdiff_t>((r + 1) * dof));
    std::vector<double> b(qs.begin() + static_cast<std::ptrdiff_t>((r + 1) * dof), qs.begin() + static_cast<std::ptrdiff_t>((r + 2) * dof));
    if (within(a) == within(b)) continue;
    if (within(a)) std::swap(a, b);
    double lo = 0, hi = 1;
    std::vector<double> q(dof);
    const auto at = [&](double s) {
      for (std::size_t j = 0; j < dof; ++j) q[j] = a[j] + s * (b[j] - a[j]);
      return q;
    };
    while (hi - lo > 1e-9) {
      const double mid = 0.5 * (lo + hi);
      (within(at(mid)) ? hi : lo) = mid;
    }
    for (const double s : {lo, hi}) {
      const std::vector<double> edge = at(s);
      qs.insert(qs.end(), edge.begin(), edge.end());
    }
    ++pairs;
  }
  EXPECT_GT(pairs, 0);
  return qs;
}

bool same(const ToleranceReport& a, const ToleranceReport& b) {
  return a.status == b.status && a.message == b.message && a.within == b.within && a.self == b.self &&
         a.pair.link == b.pair.link && a.pair.other == b.pair.other && a.pair.link_name == b.pair.link_name &&
         a.pair.other_name == b.pair.other_name;
}

struct Tally {
  int rows = 0, proven = 0, within = 0;
  int known_within = 0;  ///< rows answered by a pair proven within, no narrow phase
  int other_pair = 0;    ///< rows BatchAnswer::any_pair answered with another pair than the first
};

// The least distance between the shapes of link `l` and those of link or
// object `other` at state s.
double pair_distance(const SceneChecker& c, const PreparedEnvironment& env, const RobotState& s, int l, int other,
                     bool self) {
  if (self) return robot_test::link_pair_distance(c.geometry(), s, l, other);
  const EnvironmentObject& o = env.objects()[static_cast<std::size_t>(other)];
  const std::size_t u = static_cast<std::size_t>(l);
  double least = std::numeric_limits<double>::infinity();
  for (std::size_t i = s.shape_begin[u]; i < s.shape_begin[u + 1]; ++i)
    least = std::min(least, robot_test::geometry_distance(c.geometry().link(l).shapes[i - s.shape_begin[u]].geometry,
                                                          s.shape_poses[i], o.geometry, o.pose));
  return least;
}

// BatchAnswer::any_pair against the exact answers: without the prefilter
// the same, field for field; with it, on 1 and 2 threads, the same rows
// within, and a row naming another pair than the exact check's first names
// one within the tolerance, measured here by the distance query.
int expect_any_pair_answers(const SceneChecker& c, const PreparedEnvironment& env, const std::vector<double>& qs,
                            double tolerance, const std::vector<ToleranceReport>& exact) {
  const std::size_t dof = c.model().variable_count();
  const auto plain =
      check_configurations(c, env, qs, tolerance, Transform::identity(), 1, false, BatchAnswer::any_pair);
  int differ = 0, other = 0;
  for (std::size_t r = 0; r < plain.size() && r < exact.size(); ++r) differ += !same(plain[r], exact[r]);
  EXPECT_EQ(plain.size(), exact.size());
  for (const int threads : {1, 2}) {
    const auto fast =
        check_configurations(c, env, qs, tolerance, Transform::identity(), threads, true, BatchAnswer::any_pair);
    EXPECT_EQ(fast.size(), exact.size());
    for (std::size_t r = 0; r < fast.size() && r < exact.size(); ++r) {
      const ToleranceReport& f = fast[r];
      const ToleranceReport& e = exact[r];
      if (same(f, e)) continue;
      if (f.within != e.within || !e.within || e.status == Status::invalid_input) {
        ++differ;
        ADD_FAILURE() << "row " << r << " threads " << threads << ": within " << f.within << " against " << e.within;
        continue;
      }
      ++other;
      const RobotState s = c.state(std::span<const double>(qs).subspan(r * dof, dof), Transform::identity());
      const double d = pair_distance(c, env, s, f.pair.link, f.pair.other, f.self);
      if (!(d <= tolerance)) {
        ++differ;
        ADD_FAILURE() << "row " << r << ": " << f.pair.link_name << " and " << f.pair.other_name << " are " << d
                      << " m apart, beyond the tolerance " << tolerance;
      }
    }
  }
  EXPECT_EQ(differ, 0);
  return other;
}

// Prefilter on and off, 1 and 2 threads: the same answers, field by field;
// every row the prefilter proves free (asked directly, lane group by lane
// group) is free by the exact check.
Tally expect_same_answers(const SceneChecker& c, const PreparedEnvironment& env, const std::vector<double>& qs,
                          double tolerance) {
  const std::size_t dof = c.model().variable_count();
  const std::vector<ToleranceReport> exact =
      check_configurations(c, env, qs, tolerance, Transform::identity(), 1, false);
  Tally t;
  t.rows = static_cast<int>(exact.size());
  for (const int threads : {1, 2}) {
    const std::vector<ToleranceReport> fast =
        check_configurations(c, env, qs, tolerance, Transform::identity(), threads, true);
    EXPECT_EQ(fast.size(), exact.size());
    int differ = 0;
    for (std::size_t r = 0; r < fast.size() && r < exact.size(); ++r)
      if (!same(fast[r], exact[r])) {
        ++differ;
        ADD_FAILURE() << "row " << r << " threads " << threads;
      }
    EXPECT_EQ(differ, 0);
  }
  const SpherePrefilter& p = c.sphere_prefilter();
  const auto scene = p.scene(c, env, Transform::identity(), tolerance);
  // A scene made for another tolerance (by an ulp) reads its pair tables'
  // bounds, not the verdicts made for its own: the same lists.
  const auto other_scene = p.scene(c, env, Transform::identity(), std::nextafter(tolerance, 1.0));
  const auto scratch = p.scratch();
  const auto other_scratch = p.scratch();
  int wrong = 0;
  for (std::size_t r = 0; r < exact.size(); r += kPrefilterLanes) {
    const std::size_t rows = std::min(kPrefilterLanes, exact.size() - r);
    bool proven[kPrefilterLanes];
    const std::span<const double> group = std::span<const double>(qs).subspan(r * dof, rows * dof);
    p.prove_free(group, rows, Transform::identity(), tolerance, *scene, *scratch, proven);
    p.classify(group, rows, Transform::identity(), tolerance, *other_scene, *other_scratch);
    for (std::size_t k = 0; k < rows; ++k) {
      const std::vector<detail::KnownPair>& a = scratch->known[k];
      const std::vector<detail::KnownPair>& b = other_scratch->known[k];
      const auto same_pair = [](const detail::KnownPair& x, const detail::KnownPair& y) {
        return x.first == y.first && x.second == y.second && x.self == y.self && x.verdict == y.verdict;
      };
      const bool same_list = a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), same_pair);
      if (!same_list) {
        ++wrong;
        ADD_FAILURE() << "row " << r + k << ": the tables' verdicts and their bounds list other pairs";
      }
    }
    for (std::size_t k = 0; k < rows; ++k) {
      t.proven += proven[k];
      t.within += exact[r + k].within;
      wrong += proven[k] && (exact[r + k].within || exact[r + k].status != Status::ok);
      // A row whose first pair not proven apart is proven within: the
      // exact check finds that very pair within the tolerance first.
      const std::vector<detail::KnownPair>& known = scratch->known[k];
      if (known.empty() || known.front().verdict != detail::Verdict::within) continue;
      ++t.known_within;
      const ToleranceReport& e = exact[r + k];
      const detail::KnownPair& p = known.front();
      const std::pair<int, int> pair = p.self ? c.self_pairs()[p.first]
                                              : std::pair<int, int>{static_cast<int>(p.first), static_cast<int>(p.second)};
      const bool agree = e.within && e.self == p.self && e.pair.link == pair.first && e.pair.other == pair.second;
      if (!agree) {
        ++wrong;
        ADD_FAILURE() << "row " << r + k << ": pair proven within is not the exact check's answer";
      }
    }
  }
  EXPECT_EQ(wrong, 0);
  EXPECT_GT(t.within, 0);
  t.other_pair = expect_any_pair_answers(c, env, qs, tolerance, exact);
  return t;
}

TEST(SpherePrefilter, SameAnswersOnTheShippedRobotsInTheirScenes) {
  Rng rng(11);
  const int random = testing::scaled(2000);
  int panda_proven = 0, compared = 0, known_within = 0, other_pair = 0;
  for (const char* name : {"panda", "ur5"}) {
    const SceneChecker c = robot_test::shipped_checker(name, MeshMode::convex_hull);
    for (const char* scene : {"table_pick_scene0001", "bookshelf_tall_scene0001", "cage_scene0001"}) {
      const PreparedEnvironment env(
          read_planning_scene(robot_test::robots_dir() / name / "scenes" / (std::string(scene) + ".yaml")).environment);
      for (const double tolerance : {0.0, 0.005}) {
        const Tally t = expect_same_answers(c, env, configurations(c, env, tolerance, random, rng), tolerance);
        EXPECT_GT(t.rows, random) << name << " " << scene;
        compared += t.rows;
        if (std::string(name) == "panda" && tolerance == 0.0) {
          // Most of the Panda's free rows are proven at tolerance 0.
          EXPECT_GT(t.proven, (t.rows - t.within) / 3) << scene;
          panda_proven += t.proven;
        }
        if (std::string(name) == "ur5" && tolerance == 0.0) {
          // The UR5's too, through the tables that sweep a chain's end
          // joints (its base and upper arm, forearm and wrist links stay
          // millimetres apart): without them, under a third.
          EXPECT_GT(t.proven, (t.rows - t.within) * 9 / 20) << scene;
        }
        std::printf("%s %s tolerance %g: %d rows, %d proven free, %d within (%d proven within; validity only: %d "
                    "named another pair)\n",
                    name, scene, tolerance, t.rows, t.proven, t.within, t.known_within, t.other_pair);
        known_within += t.known_within;
        other_pair += t.other_pair;
      }
    }
  }
  EXPECT_GT(panda_proven, 0);
  EXPECT_GT(compared, 12 * random);
  // Colliding rows answered without the narrow phase, each checked above.
  EXPECT_GT(known_within, compared / 50);
  // Validity only: rows a pair proven within answered past open pairs.
  EXPECT_GT(other_pair, 0);
}

// Past 0.1 m the pair tables keep only a lower bound of a far cell's
// distance (prefilter_tables.cpp, kFar): at tolerances beyond it, a row's
// first pair within is still the exact check's, whichever pairs before it
// the tables prove apart or leave open.
TEST(SpherePrefilter, SameAnswersBeyondTheTablesFarBound) {
  Rng rng(23);
  const int rows = testing::scaled(1000);
  for (const char* name : {"panda", "ur5"}) {
    const SceneChecker c = robot_test::shipped_checker(name, MeshMode::convex_hull);
    const PreparedEnvironment env(
        read_planning_scene(robot_test::robots_dir() / name / "scenes" / "table_pick_scene0001.yaml").environment);
    const std::vector<double> qs = uniform_rows(c, rows, rng);
    for (const double tolerance : {0.12, 0.3}) {
      const auto exact = check_configurations(c, env, qs, tolerance, Transform::identity(), 1, false);
      const auto fast = check_configurations(c, env, qs, tolerance, Transform::identity(), 2, true);
      ASSERT_EQ(fast.size(), exact.size());
      int differ = 0;
      std::set<std::pair<int, int>> named;
      for (std::size_t r = 0; r < exact.size(); ++r) {
        differ += !same(fast[r], exact[r]);
        if (exact[r].within) named.insert({exact[r].pair.link, exact[r].pair.other});
      }
      EXPECT_EQ(differ, 0) << name << " " << tolerance;
      // The Panda's first pair within varies from row to row: the pairs
      // before it were judged apart, by the tables among others. (The
      // UR5's first self pair is always within these tolerances.)
      if (std::string(name) == "panda") {
        EXPECT_GE(named.size(), 3u) << tolerance;
      }
    }
  }
}

TEST(SpherePrefilter, SameAnswersWithMarginsMeshesAndAttachedObjects) {
  Rng rng(13);
  const int random = testing::scaled(600);
  const auto dir = robot_test::robots_dir() / "panda";
  const RobotModel m = load_urdf(dir / "panda.urdf");
  AllowedCollisionMatrix acm = AllowedCollisionMatrix::adjacent(m);
  apply_srdf(m, dir / "panda.srdf", acm);
  Environment scene = read_planning_scene(dir / "scenes" / "table_pick_scene0001.yaml").environment;
  // A floor and an object the hand may touch: both kinds of object bound,
  // and a pair the exact check skips.
  scene.add("floor", Halfspace(Vec3::UnitZ(), -0.05), Transform::identity());
  scene.add("holder", Box(0.1, 0.1, 0.1), testing::at(0.4, 0.0, 0.6));
  scene.objects.back().touch_links = {"panda_hand", "panda_leftfinger", "panda_rightfinger"};
  const PreparedEnvironment env(scene);
  // A margin a few millimetres wide: the wrist's links stay about 2 cm apart.
  const SceneChecker margin(RobotGeometry(m, robot_test::options(MeshMode::convex_hull, 0.003)), acm);
  const SceneChecker raw(RobotGeometry(m, robot_test::options(MeshMode::triangle_mesh, 0.0)), acm);
  const AttachedObject part{"part", "panda_hand", Shape(Cylinder(0.03, 0.2)), testing::at(0.0, 0.0, 0.15),
                            {"panda_leftfinger", "panda_rightfinger"}};
  const SceneChecker held = attach(robot_test::panda_checker(MeshMode::convex_hull), std::span(&part, 1));
  int proven = 0;
  for (const SceneChecker* c : {&margin, &raw, &held}) {
    const Tally t = expect_same_answers(*c, env, configurations(*c, env, 0.0, random, rng), 0.0);
    std::printf("%d rows, %d proven free, %d within\n", t.rows, t.proven, t.within);
    // The raw meshes have no pair tables (only convex pairs get them), so
    // the wrist blocks most rows there; the other two prove some.
    if (c != &raw) {
      EXPECT_GT(t.proven, 0);
    }
    proven += t.proven;
  }
  EXPECT_GT(proven, 0);
}

// Random robots in random scenes (boxes, spheres and cylinders about the
// robot, sometimes a floor), with and without a margin, at tolerance 0 and
// 1 cm, at the origin and on a random base pose (the scene moved with it):
// the prefilter's answers are the exact check's, field by field. As
// a robot's SRDF does, the self pairs within 1 cm at every one of 64
// sample configurations are allowed; a scene is drawn again until the
// samples hold rows both free and within at both tolerances (else the
// robot is skipped).
// `meshes`: a folder for random_robot_urdf's meshes (none when empty), read
// in `mode`. Returns the rows compared and those the lane groups proved
// free, at the origin and on the base pose.
struct RandomTally {
  int compared = 0, proven = 0, proven_moved = 0;
};
RandomTally expect_same_answers_on_random_robots(unsigned seed, int robots, int rows, const std::filesystem::path& meshes,
                                         MeshMode mode) {
  Rng rng(seed);
  int proven = 0, within = 0, compared = 0, used = 0, proven_moved = 0;
  for (int k = 0; k < robots; ++k) {
    const std::string urdf = robot_test::random_robot_urdf(rng, false, meshes);
    const RobotModel m = parse_urdf(urdf, meshes.empty() ? "." : meshes, {}, "random robot " + std::to_string(k));
    const double margin = k % 3 == 2 ? 0.004 : 0.0;
    const RobotGeometry geometry(m, robot_test::options(mode, margin));
    const SceneChecker c(geometry, robot_test::always_near_allowed(geometry, m, rng));
    const std::vector<double> samples = uniform_rows(c, 64, rng);
    EXPECT_TRUE(c.sphere_prefilter().available()) << urdf;
    if (!c.sphere_prefilter().available()) break;
    std::optional<PreparedEnvironment> env, moved;
    // The robot and its scene again, both placed by a random base pose.
    const Transform base = rng.pose(1.0);
    for (int attempt = 0; attempt < 20 && !env; ++attempt) {
      Environment scene;
      const int objects = static_cast<int>(rng.uniform(2.0, 6.0));
      for (int o = 0; o < objects; ++o) {
        const Transform at{rng.pose(0.0).R, rng.uniform_vec(Vec3(-0.7, -0.7, -0.2), Vec3(0.7, 0.7, 0.9))};
        const std::string name = "object" + std::to_string(o);
        switch (o % 3) {
          case 0: scene.add(name, Box(rng.uniform_vec(0.05, 0.5)), at); break;
          case 1: scene.add(name, Sphere(rng.uniform(0.03, 0.2)), at); break;
          default: scene.add(name, Cylinder(rng.uniform(0.02, 0.15), rng.uniform(0.1, 0.6)), at); break;
        }
      }
      if (k % 2 == 1) scene.add("floor", Halfspace(Vec3::UnitZ(), rng.uniform(-0.4, -0.1)), Transform::identity());
      // At both tolerances, some samples within and some free.
      bool mixed = true;
      for (const double tolerance : {0.0, 0.01}) {
        int hits = 0;
        for (std::size_t r = 0; r < 64; ++r)
          hits += c.tolerance(c.state(std::span<const double>(samples).subspan(r * m.variable_count(),
                                                                               m.variable_count())),
                              scene, tolerance)
                      .within;
        mixed &= hits >= 4 && hits <= 56;
      }
      if (mixed) {
        env.emplace(scene);
        for (EnvironmentObject& o : scene.objects) o.pose = base * o.pose;
        moved.emplace(scene);
      }
    }
    if (!env) continue;
    ++used;
    for (const double tolerance : {0.0, 0.01}) {
      const std::vector<double> qs = configurations(c, *env, tolerance, rows, rng);
      const Tally t = expect_same_answers(c, *env, qs, tolerance);
      proven += t.proven;
      within += t.within;
      compared += t.rows;
      // With the base: the lanes start from its rotation, and the scene is
      // relative to its position.
      const std::vector<ToleranceReport> exact = check_configurations(c, *moved, qs, tolerance, base, 1, false);
      for (const int threads : {1, 2}) {
        const std::vector<ToleranceReport> fast = check_configurations(c, *moved, qs, tolerance, base, threads, true);
        const BatchValidity labels = check_validity(c, *moved, qs, tolerance, base, threads, true);
        for (std::size_t r = 0; r < exact.size(); ++r) {
          EXPECT_TRUE(r < fast.size() && same(fast[r], exact[r])) << "row " << r << " threads " << threads;
          EXPECT_TRUE(r < labels.within.size() && (labels.within[r] != 0) == exact[r].within) << "row " << r;
        }
      }
      const SpherePrefilter& p = c.sphere_prefilter();
      const auto placed = p.scene(c, *moved, base, tolerance);
      const auto scratch = p.scratch();
      const std::size_t dof = m.variable_count();
      for (std::size_t r = 0; r < exact.size(); r += kPrefilterLanes) {
        const std::size_t n = std::min(kPrefilterLanes, exact.size() - r);
        bool free[kPrefilterLanes];
        p.prove_free(std::span<const double>(qs).subspan(r * dof, n * dof), n, base, tolerance, *placed, *scratch,
                     free);
        for (std::size_t l = 0; l < n; ++l) {
          proven_moved += free[l];
          EXPECT_FALSE(free[l] && exact[r + l].within) << "row " << r + l << " proven free with the base";
        }
      }
      if (::testing::Test::HasFailure()) {
        ADD_FAILURE() << "robot " << k << " at tolerance " << tolerance << ":\n" << urdf;
        return {compared, proven, proven_moved};
      }
    }
  }
  std::printf("%d rows on %d of %d random robots: %d proven free (%d with the base), %d within\n", compared, used,
              robots, proven, proven_moved, within);
  EXPECT_GE(used, robots / 2);
  EXPECT_GT(within, compared / 10);
  return {compared, proven, proven_moved};
}

// Not fewer than 6 robots of 120 rows under the sanitizers: the counts need
// some of each kind.
TEST(SpherePrefilter, SameAnswersOnRandomRobots) {
  const RandomTally t = expect_same_answers_on_random_robots(41, std::max(6, testing::scaled(24)),
                                                             std::max(120, testing::scaled(240)), {},
                                                             MeshMode::convex_hull);
  // The prefilter is exercised both ways: rows it proves free, rows it sends on.
  EXPECT_GT(t.proven, t.compared / 10);
  EXPECT_GT(t.proven_moved, t.compared / 10);
}

// The same with random meshes on the links (robot_test::random_mesh_obj:
// bumpy, dented, some open), read as hulls and as raw surfaces: their outer
// spheres hold the meshes' vertex hulls.
TEST(SpherePrefilter, SameAnswersOnRandomMeshRobots) {
  testing::TempDir dir;
  const int robots = std::max(6, testing::scaled(16)), rows = std::max(120, testing::scaled(160));
  for (const MeshMode mode : {MeshMode::convex_hull, MeshMode::triangle_mesh}) {
    const RandomTally t = expect_same_answers_on_random_robots(mode == MeshMode::convex_hull ? 43 : 47, robots, rows,
                                                               dir.path(), mode);
    EXPECT_GT(t.proven, t.compared / 10);
    EXPECT_GT(t.proven_moved, t.compared / 10);
  }
}

TEST(SpherePrefilter, BadInputsAnswerAsTheExactCheck) {
  const SceneChecker c = robot_test::panda_checker(MeshMode::convex_hull);
  Environment plain;
  plain.add("box", Box(0.2, 0.2, 0.2), testing::at(0.5, 0.0, 0.3));
  const PreparedEnvironment env(plain);
  std::vector<double> qs(7 * 9, 0.1);
  qs[7 * 2 + 3] = std::nan("");
  qs[7 * 5] = std::numeric_limits<double>::infinity();
  qs[7 * 6 + 1] = 100.0;  // beyond a limit: answered, as by state()
  int compared = 0;
  const auto expect_same = [&](const PreparedEnvironment& e, double tolerance,
                               const Transform& base) -> std::vector<ToleranceReport> {
    const auto off = check_configurations(c, e, qs, tolerance, base, 1, false);
    for (const int threads : {1, 2}) {
      const auto on = check_configurations(c, e, qs, tolerance, base, threads, true);
      EXPECT_EQ(on.size(), off.size());
      for (std::size_t r = 0; r < on.size() && r < off.size(); ++r) {
        EXPECT_TRUE(same(on[r], off[r])) << r;
        ++compared;
      }
      const auto any = check_configurations(c, e, qs, tolerance, base, threads, true, BatchAnswer::any_pair);
      EXPECT_EQ(any.size(), off.size());
      for (std::size_t r = 0; r < any.size() && r < off.size(); ++r) {
        EXPECT_EQ(any[r].within, off[r].within) << r;
        if (off[r].status == Status::invalid_input) {
          EXPECT_TRUE(same(any[r], off[r])) << r;
        }
      }
    }
    return off;
  };
  const auto rows = expect_same(env, 0.0, Transform::identity());
  EXPECT_EQ(rows[2].status, Status::invalid_input);
  EXPECT_EQ(rows[5].status, Status::invalid_input);
  EXPECT_EQ(rows[6].status, Status::ok);
  for (const double bad : {-1.0, std::nan(""), 1e300}) {
    const auto r = expect_same(env, bad, Transform::identity());
    EXPECT_EQ(r[0].status, Status::invalid_input);
    EXPECT_NE(r[0].message.find("tolerance"), std::string::npos);
  }
  Transform far = Transform::identity();
  far.p.x() = std::numeric_limits<double>::infinity();
  EXPECT_EQ(expect_same(env, 0.0, far)[0].status, Status::invalid_input);
  Environment touching = plain;
  touching.objects[0].touch_links = {"panda_hnd"};
  const auto t = expect_same(PreparedEnvironment(touching), 0.0, Transform::identity());
  EXPECT_NE(t[0].message.find("panda_hnd"), std::string::npos);
  EXPECT_EQ(compared, 6 * 2 * 9);
  // Partial rows and negative threads are refused before any row is checked.
  testing::expect_error([&] { check_configurations(c, env, std::span(qs).first(8)); }, {"not a whole number of rows"});
  testing::expect_error([&] { check_configurations(c, env, qs, 0.0, Transform::identity(), -1); }, {"threads"});
  testing::expect_error(
      [&] { check_configurations(c, env, qs, 0.0, Transform::identity(), 1, true, static_cast<BatchAnswer>(7)); },
      {"answer", "not a BatchAnswer"});
}

}  // namespace
}  // namespace proxima::robot
