// SPDX-License-Identifier: BSD-3-Clause
// Mesh time_of_impact against ground truth from tests/oracle: point–triangle
// distances over every triangle (a ball against a noisy soup), the explicit
// Minkowski difference (two closed box meshes) and the explicit lowest
// vertex (a grid against a turning plane).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include <proxima/mesh/mesh_time_of_impact.hpp>

#include "../oracle/minkowski_oracle.hpp"
#include "../oracle/oracle_geometry.hpp"
#include "../support/motion_checks.hpp"
#include "../support/non_finite.hpp"
#include "mesh_fixtures.hpp"

namespace proxima {
namespace {

using testing::aim;
using testing::expect_conservative;
using testing::random_motion;
using testing::Rng;
using testing::TestMotion;

double ball_to_soup(const TriangleMesh& m, const Transform& tm, const Vec3& centre) {
  const Vec3 c = tm.apply_inverse(centre);
  double best = std::numeric_limits<double>::infinity();
  for (const TriangleIndices& t : m.triangles()) {
    const Vec3 q = oracle::closest_point_on_triangle(c, m.vertices()[t[0]], m.vertices()[t[1]], m.vertices()[t[2]]);
    best = std::min(best, (q - c).norm());
  }
  return best;
}

// A soup is not convex: the nearest triangle now is often not the first hit.
TEST(MeshTimeOfImpact, BallAgainstATurningSoup) {
  Rng rng(81);
  int hits = 0;
  for (int i = 0; i < 60; ++i) {
    const TriangleMesh soup = testing::random_soup(rng, 40, 0.5, 0.2, i % 3 == 0 ? 0.01 : 0.0);
    const Bvh bvh(soup);
    const double radius = rng.uniform(0.02, 0.15);
    const TestMotion ms = random_motion(rng, 0.3, 0.4, 2.5);
    TestMotion mb = random_motion(rng, 1.2, 1.0, 0.0);
    if (i % 2 == 0) aim(mb, ms, rng);
    const MeshTimeOfImpactResult r =
        time_of_impact(bvh, ms.at(0), ms.at(1), Sphere(radius), mb.at(0), mb.at(1));
    const auto g = [&](double t) { return ball_to_soup(soup, ms.at(t), mb.at(t).p) - radius - soup.margin(); };
    SCOPED_TRACE(i);
    expect_conservative(r, g, 1e-6, 1e-9);
    if (r.collide && r.time > 0.0) {
      ++hits;
      EXPECT_GE(r.triangle_a, 0);
      EXPECT_EQ(r.triangle_b, -1);
    }
  }
  EXPECT_GT(hits, 10);
}

std::vector<Vec3> placed_vertices(const TriangleMesh& m, const Transform& x) {
  std::vector<Vec3> out;
  for (const Vec3& v : m.vertices()) out.push_back(x.apply(v));
  return out;
}

TEST(MeshTimeOfImpact, TurningBoxMeshesAgainstTheMinkowskiOracle) {
  Rng rng(82);
  int hits = 0;
  for (int i = 0; i < 40; ++i) {
    const TriangleMesh a = testing::box_mesh(rng.uniform_vec(0.05, 0.3));
    const TriangleMesh b = testing::box_mesh(rng.uniform_vec(0.05, 0.3));
    const Bvh ba(a), bb(b);
    TestMotion ma = random_motion(rng, 0.8, 1.0, 2.5);
    const TestMotion mb = random_motion(rng, 0.8, 1.0, 2.5);
    if (i % 2 == 0) aim(ma, mb, rng);
    // Surfaces, not solids: start apart so that surface and solid distance agree.
    const auto g = [&](double t) {
      return oracle::minkowski_signed_distance(placed_vertices(a, ma.at(t)), placed_vertices(b, mb.at(t)));
    };
    if (g(0.0) <= 1e-3) continue;
    const MeshTimeOfImpactResult r = time_of_impact(ba, ma.at(0), ma.at(1), bb, mb.at(0), mb.at(1));
    SCOPED_TRACE(i);
    ASSERT_EQ(r.status, Status::ok);
    if (!r.collide) {
      for (int k = 0; k <= 200; ++k) ASSERT_GT(g(k / 200.0), 0.0) << "contact missed at t = " << k / 200.0;
      continue;
    }
    ++hits;
    EXPECT_GE(g(r.time), -1e-9);
    EXPECT_LE(g(r.time), 1e-6 + 1e-9);
    for (int k = 0; k < 100; ++k) ASSERT_GT(g(r.time * k / 100.0), -1e-9);
    EXPECT_GE(r.triangle_a, 0);
    EXPECT_GE(r.triangle_b, 0);
  }
  EXPECT_GT(hits, 8);
}

TEST(MeshTimeOfImpact, GridAgainstATurningHalfspace) {
  Rng rng(83);
  const TriangleMesh patch = testing::grid(6, 0.1, [](int i, int j) { return (i + j) % 5 == 0; }, 0.005);
  const Bvh bvh(patch);
  int hits = 0;
  for (int i = 0; i < 60; ++i) {
    TestMotion mm = random_motion(rng, 0.3, 0.6, 2.0);
    mm.dp.z() -= 1.0;
    TestMotion plane = random_motion(rng, 0.3, 0.3, 1.0);
    plane.p0.z() -= 0.8;
    const Vec3 n = (Vec3::UnitZ() + 0.4 * rng.unit_vector()).normalized();
    TimeOfImpactRequest req;
    req.clearance = 0.02;
    const MeshTimeOfImpactResult r =
        time_of_impact(bvh, mm.at(0), mm.at(1), Halfspace(n, 0.0), plane.at(0), plane.at(1), req);
    const auto g = [&](double t) {
      const Transform x = mm.at(t), h = plane.at(t);
      double low = std::numeric_limits<double>::infinity();
      for (const TriangleIndices& tri : patch.triangles()) {
        for (const std::uint32_t v : tri) low = std::min(low, (h.R * n).dot(x.apply(patch.vertices()[v]) - h.p));
      }
      return low - patch.margin() - req.clearance;
    };
    SCOPED_TRACE(i);
    expect_conservative(r, g, req.accuracy, 1e-9);
    hits += r.collide && r.time > 0.0;
  }
  EXPECT_GT(hits, 10);
}

TEST(MeshTimeOfImpact, BadInputIsRejected) {
  const Bvh bvh(testing::box_mesh(Vec3(0.1, 0.1, 0.1)));
  const Transform o = Transform::identity();
  Transform bad = o;
  bad.p.y() = testing::kNan;
  EXPECT_EQ(time_of_impact(bvh, o, bad, bvh, o, o).status, Status::invalid_input);
  EXPECT_EQ(time_of_impact(bvh, o, o, Sphere(0.1), bad, o).status, Status::invalid_input);
  TimeOfImpactRequest req;
  req.accuracy = 0.0;
  EXPECT_EQ(time_of_impact(bvh, o, o, Sphere(0.1), o, o, req).status, Status::invalid_input);
  req = {};
  req.clearance = testing::kInf;
  EXPECT_EQ(time_of_impact(bvh, o, o, bvh, o, o, req).status, Status::invalid_input);
}

}  // namespace
}  // namespace proxima
