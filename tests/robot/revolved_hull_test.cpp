// SPDX-License-Identifier: BSD-3-Clause
// The sweeps of a link about a joint's line that the prefilter's pair
// tables stand in for the joint with: the hull of the sweep holds every
// turn of the link (points from the shapes' closed forms, turned about the
// line by random angles), and each solid of revolution the link holds lies
// in every turn of it (its vertices and margin, turned, against the
// shapes' closed forms); the box about its own axis gives the closed-form
// radii (its corners' for the hull, its narrower half width inside).
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include <proxima/query.hpp>
#include <proxima/robot/link_geometry.hpp>
#include <proxima/shape/box.hpp>
#include <proxima/shape/capsule.hpp>
#include <proxima/shape/convex_polytope.hpp>
#include <proxima/shape/sphere.hpp>

#include "../../src/robot/revolved_hull.hpp"
#include "support/random.hpp"

namespace proxima::robot {
namespace {

using testing::Rng;

LinkShape link_shape(Shape shape, const Transform& origin) { return LinkShape{std::move(shape), origin, "test"}; }

// x turned by `angle` about the line through `point` along unit `axis`.
Vec3 turn(const Vec3& x, const Vec3& point, const Vec3& axis, double angle) {
  return Transform::from_axis_angle(axis, angle).apply(x - point) + point;
}

// Distance from x to the solid `shape` at `pose` (0 inside), by the narrow
// phase against a point-sized ball.
double distance_to(const Shape& shape, const Transform& pose, const Vec3& x) {
  const Shape dot = Sphere(1e-12);
  const DistanceResult r = distance(shape, pose, dot, Transform{Mat3::Identity(), x});
  EXPECT_EQ(r.status, Status::ok);
  return r.distance;
}

// Distance from x (in the box's frame) to a box of half extents h grown by
// its margin m: the closed form, less m.
double box_gap(const Vec3& h, double m, const Vec3& x) { return (x.cwiseAbs() - h).cwiseMax(0.0).norm() - m; }

// A few points of a link's shapes' surfaces in the link's frame, from the
// closed forms: box corners and face points grown by the margin, hull
// vertices grown by the margin, capsule and sphere points on their
// spheres.
std::vector<Vec3> surface_points(const std::vector<LinkShape>& shapes, Rng& rng) {
  std::vector<Vec3> out;
  for (const LinkShape& ls : shapes) {
    const Shape& s = *ls.shape();
    for (int k = 0; k < 200; ++k) {
      Vec3 x = Vec3::Zero();
      const Vec3 u = rng.unit_vector();
      if (const auto* box = std::get_if<Box>(&s.variant())) {
        const Vec3 h = box->half_extents();
        x = Vec3(rng.uniform(-1, 1) < 0 ? -h.x() : h.x(), rng.uniform(-h.y(), h.y()), rng.uniform(-1, 1) < 0 ? -h.z() : h.z());
        if (k % 3 == 0) x = Vec3(x.x() < 0 ? -h.x() : h.x(), x.y() < 0 ? -h.y() : h.y(), x.z());
        x += box->core_inflation() * u;
      } else if (const auto* poly = std::get_if<ConvexPolytope>(&s.variant())) {
        const std::vector<Vec3>& v = poly->vertices();
        x = v[static_cast<std::size_t>(k) % v.size()] + poly->core_inflation() * u;
      } else if (const auto* cap = std::get_if<Capsule>(&s.variant())) {
        x = Vec3(0, 0, k % 2 == 0 ? cap->half_length() : -cap->half_length()) + cap->core_inflation() * u;
      } else if (const auto* ball = std::get_if<Sphere>(&s.variant())) {
        x = ball->core_inflation() * u;
      } else {
        ADD_FAILURE() << "unexpected shape";
      }
      out.push_back(ls.origin.apply(x));
    }
  }
  return out;
}

TEST(RevolvedHull, HoldsEveryTurnOfTheLink) {
  Rng rng(7);
  std::vector<Vec3> cloud;
  for (int i = 0; i < 40; ++i) cloud.push_back(rng.uniform_vec(-0.05, 0.05) + Vec3(0.1, 0.0, 0.2));
  const std::vector<LinkShape> shapes = {
      link_shape(Box(0.3, 0.1, 0.05, 0.01), Transform::from_axis_angle(Vec3(1, 2, 3).normalized(), 0.4, Vec3(0.2, 0, 0))),
      link_shape(ConvexPolytope(cloud, 0.004), Transform::identity()),
      link_shape(Capsule(0.03, 0.2), Transform::from_axis_angle(Vec3::UnitX(), 1.0, Vec3(0, 0.1, -0.1))),
      link_shape(Sphere(0.05), Transform{Mat3::Identity(), Vec3(-0.15, 0.05, 0.0)})};
  const std::vector<Vec3> points = surface_points(shapes, rng);
  for (int line = 0; line < 4; ++line) {
    const Vec3 point = rng.uniform_vec(-0.2, 0.2), axis = rng.unit_vector();
    for (const int copies : {8, 64}) {
      const std::optional<ConvexPolytope> hull = detail::revolved_hull(shapes, point, axis, copies);
      ASSERT_TRUE(hull.has_value());
      const Shape swept = *hull;
      double worst = -std::numeric_limits<double>::infinity();
      for (const Vec3& x : points)
        for (int k = 0; k < 8; ++k)
          worst = std::max(worst, distance_to(swept, Transform::identity(), turn(x, point, axis, rng.uniform(-M_PI, M_PI))));
      EXPECT_LE(worst, 1e-9) << "line " << line << ", " << copies << " copies";
    }
  }
  // Unbounded shapes have no sweep.
  EXPECT_FALSE(detail::revolved_hull({link_shape(Halfspace(Vec3::UnitZ(), 0.0), Transform::identity())}, Vec3::Zero(),
                                     Vec3::UnitZ()).has_value());
}

TEST(RevolvedHull, BoxAboutItsAxisReachesItsCornersAndHoldsItsNarrowerHalfWidth) {
  // A 0.4 × 0.2 × 0.6 box with 0.01 of margin about its z axis: the sweep
  // reaches the corners' radius √(0.2² + 0.1²), and the largest solid of
  // revolution inside is the cylinder of radius 0.1 (plus the margin).
  const std::vector<LinkShape> shapes = {link_shape(Box(0.4, 0.2, 0.6, 0.01), Transform::identity())};
  const std::optional<ConvexPolytope> hull = detail::revolved_hull(shapes, Vec3::Zero(), Vec3::UnitZ(), 64);
  ASSERT_TRUE(hull.has_value());
  double reach = 0.0;
  for (const Vec3& v : hull->vertices()) reach = std::max(reach, std::hypot(v.x(), v.y()));
  EXPECT_NEAR(reach, std::hypot(0.2, 0.1), 1e-12);
  EXPECT_NEAR(hull->core_inflation(), 0.01 + std::hypot(0.2, 0.1) * (1 - std::cos(M_PI / 64)) + 1e-9, 1e-12);
  const std::vector<ConvexPolytope> inside = detail::inscribed_revolutions(shapes, Vec3::Zero(), Vec3::UnitZ());
  ASSERT_EQ(inside.size(), 1u);
  double radius = 0.0, low = 1.0, high = -1.0;
  for (const Vec3& v : inside[0].vertices()) {
    radius = std::max(radius, std::hypot(v.x(), v.y()));
    low = std::min(low, v.z());
    high = std::max(high, v.z());
  }
  EXPECT_NEAR(radius, 0.1, 1e-8);
  EXPECT_NEAR(low, -0.3, 1e-12);
  EXPECT_NEAR(high, 0.3, 1e-12);
  EXPECT_EQ(inside[0].core_inflation(), 0.01);
  // A line that misses the box: nothing inside.
  EXPECT_TRUE(detail::inscribed_revolutions(shapes, Vec3(0.5, 0, 0), Vec3::UnitZ()).empty());
}

TEST(RevolvedHull, SolidsOfRevolutionLieInEveryTurnOfTheLink) {
  Rng rng(8);
  // A box and a hull (a hexagonal prism with a cap), lines through them
  // along and across, off centre and tilted.
  std::vector<Vec3> prism;
  for (int i = 0; i < 6; ++i)
    for (const double z : {-0.1, 0.1}) prism.emplace_back(0.08 * std::cos(i * M_PI / 3), 0.08 * std::sin(i * M_PI / 3), z);
  prism.emplace_back(0.0, 0.0, 0.16);
  const Transform box_origin = Transform::from_axis_angle(Vec3(0, 1, 1).normalized(), 0.3, Vec3(0.05, 0, 0));
  const Box box(0.3, 0.2, 0.4, 0.02);
  const ConvexPolytope hull(prism);
  const std::vector<LinkShape> shapes = {link_shape(box, box_origin), link_shape(hull, Transform::identity())};
  int solids = 0;
  for (int line = 0; line < 6; ++line) {
    const Vec3 point = rng.uniform_vec(-0.02, 0.02);
    const Vec3 axis = (Vec3::Unit(line % 3) + rng.uniform_vec(-0.2, 0.2)).normalized();
    for (const ConvexPolytope& in : detail::inscribed_revolutions(shapes, point, axis)) {
      ++solids;
      // Its core points (the vertices) and its margin's reach, turned,
      // must all lie in one of the shapes: the box by its closed form, the
      // prism by its face planes (it has no margin).
      double out_of_box = -1.0, out_of_prism = -1.0;
      for (const Vec3& v : in.vertices())
        for (int k = 0; k < 4; ++k) {
          const Vec3 x = turn(v + in.core_inflation() * rng.unit_vector(), point, axis, rng.uniform(-M_PI, M_PI));
          out_of_box = std::max(out_of_box, box_gap(box.half_extents(), box.core_inflation(), box_origin.inverse().apply(x)));
          out_of_prism = std::max(out_of_prism, hull.largest_plane_value(x));
        }
      EXPECT_LE(std::min(out_of_box, out_of_prism), 1e-9) << "line " << line;
    }
  }
  EXPECT_GE(solids, 8);
}

}  // namespace
}  // namespace proxima::robot
