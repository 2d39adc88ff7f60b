// SPDX-License-Identifier: BSD-3-Clause
// The cone-pruned polytope–box SAT (src/narrow/sat_polytope_box.cpp) against
// the explicit Minkowski difference of the raw points and the box corners
// (tests/oracle, written apart from the library): exact depth, normal and
// witnesses from any warm start, the `below` certificate both ways, a lower
// bound on the gap when the cores are apart, and the refusals; a request
// for Method::sat on a polytope and a box answers through it, in either
// order, and through the generic SAT where it cannot (a flat hull).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include <gtest/gtest.h>

#include <proxima/narrow/sat.hpp>
#include <proxima/query.hpp>

#include "../oracle/minkowski_oracle.hpp"
#include "../support/test_shapes.hpp"

namespace proxima {
namespace {

using testing::Rng;

// `n` turned by `deg` degrees about a random axis perpendicular to it.
Vec3 turned(const Vec3& n, double deg, Rng& rng) {
  Vec3 ax = rng.unit_vector().cross(n);
  while (ax.norm() < 1e-3) ax = rng.unit_vector().cross(n);
  return Eigen::AngleAxisd(deg * M_PI / 180.0, ax.normalized()) * n;
}

struct BoxWalkCase {
  const char* label;
  std::vector<Vec3> raw;  // the polytope's points, as the oracle gets them
  double poly_margin;
  Vec3 box_size;
  double box_margin;
  double half;  // translations uniform in [−half, half]³
};

// Every overlapping pose from a cold start and from warm starts 0°–60° off
// the true normal: exact against the oracle, witnesses on the support planes.
void exact_against_oracle(const BoxWalkCase& c, unsigned seed, int poses) {
  const ConvexPolytope poly(c.raw, c.poly_margin);
  const Box box(c.box_size, c.box_margin);
  const std::vector<Vec3> corners = testing::box_corners(0.5 * c.box_size);
  const double radii = c.poly_margin + c.box_margin;
  Rng rng(seed);
  const double starts[] = {-1.0, 0.0, 5.0, 15.0, 30.0, 60.0};  // −1: no guess (the centre line)
  double max_err = 0.0, max_angle = 0.0;
  int n = 0;
  while (n < poses) {
    const Transform ta = rng.pose(c.half), tb = rng.pose(0.0);
    const std::vector<Vec3> wa = testing::transformed(ta, c.raw), wb = testing::transformed(tb, corners);
    Vec3 closest;
    const double core = oracle::minkowski_signed_distance(wa, wb, &closest);
    if (!(core < -1e-6)) continue;  // overlapping cores only
    ++n;
    const double truth = core - radii;
    const Vec3 normal = -closest.normalized();  // B→A: out of the nearest boundary point of A ⊖ B
    for (double deg : starts) {
      const Vec3 guess = deg < 0.0 ? Vec3(Vec3::Zero()) : turned(normal, deg, rng);
      const DistanceResult r = narrow::detail::sat_polytope_box_depth(poly, ta, box, tb, guess);
      SCOPED_TRACE(::testing::Message() << c.label << " pose " << n << " start " << deg);
      ASSERT_EQ(r.status, Status::ok);
      const double err = std::abs(r.distance - truth), ang = std::acos(std::clamp(r.normal.dot(normal), -1.0, 1.0));
      max_err = std::max(max_err, err);
      max_angle = std::max(max_angle, ang);
      EXPECT_LE(err, 1e-12);
      EXPECT_LE(ang, 1e-6);
      // point_a on A's support plane along −normal, point_b on B's along
      // +normal (brute force over the raw points and the corners), and the
      // depth between them.
      const Vec3& m = r.normal;
      EXPECT_NEAR((-m).dot(r.point_a), (-m).dot(testing::points_support(wa, c.poly_margin, -m)), 1e-12);
      EXPECT_NEAR(m.dot(r.point_b), m.dot(testing::points_support(wb, c.box_margin, m)), 1e-12);
      EXPECT_LE((r.point_b - r.point_a + r.distance * m).norm(), 1e-12);
    }
    // The certificate: nothing below the true core depth less a little; the
    // exact answer when asked below it plus a little.
    const double depth = -core;
    const DistanceResult none =
        narrow::detail::sat_polytope_box_depth(poly, ta, box, tb, normal, depth - 1e-7);
    EXPECT_EQ(none.status, Status::not_converged) << c.label << " pose " << n;
    const DistanceResult some =
        narrow::detail::sat_polytope_box_depth(poly, ta, box, tb, Vec3::Zero(), depth + 1e-7);
    ASSERT_EQ(some.status, Status::ok) << c.label << " pose " << n;
    EXPECT_NEAR(some.distance, truth, 1e-12) << c.label << " pose " << n;
  }
  std::printf("%-26s poses %d (6 starts each): max |depth error| %.3g, max normal angle %.3g rad\n", c.label, n,
              max_err, max_angle);
}

TEST(SatPolytopeBox, ExactAgainstTheMinkowskiOracle) {
  Rng g(90);
  const int poses = testing::scaled(60);
  exact_against_oracle({"sphere-like polytope(200)", g.sphere_points(200, 0.5), 0.0, Vec3(1.0, 0.6, 0.4), 0.0, 0.55},
                       91u, poses);
  // An elongated irregular hull (points inside a box, not on a sphere) and margins.
  std::vector<Vec3> blob;
  for (int i = 0; i < 40; ++i) blob.push_back(g.uniform_vec(Vec3(-0.4, -0.15, -0.25), Vec3(0.4, 0.15, 0.25)));
  exact_against_oracle({"irregular polytope(40), margins", blob, 0.03, Vec3(0.5, 0.5, 0.1), 0.02, 0.4}, 92u, poses);
  // A cube against a cube-like hull: many parallel faces and edges (the
  // sliver facets of nearly parallel edges).
  std::vector<Vec3> cube = testing::box_corners(Vec3(0.3, 0.3, 0.3));
  for (int i = 0; i < 12; ++i) cube.push_back(g.uniform_vec(-0.29, 0.29));
  exact_against_oracle({"cube-like polytope", cube, 0.0, Vec3(0.6, 0.6, 0.6), 0.0, 0.5}, 93u, poses);
}

// Cores apart: the answer is a separating axis, a lower bound on the gap
// (distance + margins ≥ 0 says so); the guess's plane when that separates.
TEST(SatPolytopeBox, CoresApartGiveALowerBoundOnTheGap) {
  Rng g(94);
  const std::vector<Vec3> raw = g.sphere_points(100, 0.4);
  const ConvexPolytope poly(raw, 0.01);
  const Box box(Vec3(0.6, 0.4, 0.2), 0.02);
  const std::vector<Vec3> corners = testing::box_corners(Vec3(0.3, 0.2, 0.1));
  int n = 0;
  while (n < testing::scaled(100)) {
    const Transform ta = g.pose(0.8), tb = g.pose(0.0);
    const double core =
        oracle::minkowski_signed_distance(testing::transformed(ta, raw), testing::transformed(tb, corners));
    if (!(core > 1e-6)) continue;
    ++n;
    const DistanceResult r = narrow::detail::sat_polytope_box_depth(poly, ta, box, tb, Vec3::Zero());
    EXPECT_EQ(r.status, Status::ok);
    EXPECT_GE(r.distance + 0.03, 0.0) << "pose " << n;
    EXPECT_LE(r.distance, core - 0.03 + 1e-12) << "pose " << n << ": above the true gap";
    EXPECT_NEAR(r.normal.norm(), 1.0, 1e-12);
  }
}

TEST(SatPolytopeBox, RefusesWhatItCannotAnswer) {
  const Box box(Vec3(1.0, 1.0, 1.0));
  Rng g(95);
  const ConvexPolytope poly(g.sphere_points(50, 0.5));
  Transform bad;
  bad.p.y() = std::nan("");
  EXPECT_EQ(narrow::detail::sat_polytope_box_depth(poly, bad, box, Transform::identity(), Vec3::Zero()).status,
            Status::invalid_input);
  // A flat core (a square with a margin) has no cone hierarchy.
  const ConvexPolytope flat({Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(1, 1, 0), Vec3(0, 1, 0)}, 0.1);
  EXPECT_EQ(narrow::detail::sat_polytope_box_depth(flat, Transform::identity(), box, Transform::identity(),
                                                   Vec3::Zero())
                .status,
            Status::not_implemented);
}

// signed_distance with Method::sat: the oracle's depth in either order
// (normals opposite), both witnesses on their shape and its support plane, the
// same answer as the generic Gauss-map SAT; a flat hull with a margin (no
// cone hierarchy) answered too.
TEST(SatPolytopeBox, ForcedSatRequestInEitherOrder) {
  Rng g(96);
  const std::vector<Vec3> round = g.sphere_points(200, 0.5);
  const std::vector<Vec3> flat = {Vec3(-0.4, -0.3, 0), Vec3(0.4, -0.3, 0), Vec3(0.4, 0.3, 0), Vec3(-0.4, 0.3, 0),
                                  Vec3(0.1, 0.35, 0)};
  struct Case {
    const char* label;
    const std::vector<Vec3>* raw;
    double margin;
  };
  DistanceRequest sat;
  sat.method = Method::sat;
  for (const Case& c : {Case{"polytope(200)", &round, 0.0}, Case{"polytope(200), margins", &round, 0.02},
                        Case{"flat pentagon, margin", &flat, 0.05}}) {
    const ConvexPolytope poly(*c.raw, c.margin);
    const Box box(Vec3(1.0, 0.6, 0.4), c.margin);
    const Shape sp(poly), sb(box);
    const std::vector<Vec3> corners = testing::box_corners(Vec3(0.5, 0.3, 0.2));
    const double radii = 2.0 * c.margin;
    int n = 0;
    while (n < testing::scaled(200)) {
      const Transform ta = g.pose(0.6), tb = g.pose(0.0);
      const std::vector<Vec3> wa = testing::transformed(ta, *c.raw), wb = testing::transformed(tb, corners);
      const double core = oracle::minkowski_signed_distance(wa, wb);
      if (!(core < -1e-6)) continue;  // the cores overlap: the SAT's part
      ++n;
      SCOPED_TRACE(::testing::Message() << c.label << " pose " << n);
      const double truth = core - radii;
      const DistanceResult ab = signed_distance(sp, ta, sb, tb, sat);
      const DistanceResult ba = signed_distance(sb, tb, sp, ta, sat);
      ASSERT_EQ(ab.status, Status::ok);
      ASSERT_EQ(ba.status, Status::ok);
      EXPECT_NEAR(ab.distance, truth, 1e-12);
      EXPECT_NEAR(ba.distance, truth, 1e-12);
      EXPECT_NEAR((ab.normal + ba.normal).norm(), 0.0, 1e-9);
      const Vec3& m = ab.normal;
      EXPECT_NEAR((-m).dot(ab.point_a), (-m).dot(testing::points_support(wa, c.margin, -m)), 1e-12);
      EXPECT_NEAR(m.dot(ab.point_b), m.dot(testing::points_support(wb, c.margin, m)), 1e-12);
      EXPECT_LE((ab.point_b - ab.point_a + ab.distance * m).norm(), 1e-12);
      // On the shapes themselves, not only on their planes: within the
      // margin of the hull of the raw points and of the box's corners.
      EXPECT_LE(oracle::minkowski_signed_distance(wa, {ab.point_a}), c.margin + 1e-9);
      EXPECT_LE(oracle::minkowski_signed_distance(wb, {ab.point_b}), c.margin + 1e-9);
      EXPECT_NEAR(ab.distance, narrow::sat_polytope_box(poly, ta, box, tb).distance, 1e-12);
    }
  }
}

}  // namespace
}  // namespace proxima
