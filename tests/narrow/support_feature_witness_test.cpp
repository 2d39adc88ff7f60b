// SPDX-License-Identifier: BSD-3-Clause
// on_support_feature (src/narrow/witness.hpp), the quick test that a depth
// answer's witness lies on a polytope's support feature along its normal.
// It may say false for a point on the surface (the full test decides then)
// but never true for a point farther than tol from it. Ground truth: a box
// given as a hull of its corners, whose signed distance is a closed form,
// and the features of a cube written out by hand.
#include <algorithm>
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include <proxima/shape/convex_polytope.hpp>

#include "../../src/narrow/witness.hpp"
#include "../support/test_shapes.hpp"

namespace proxima::support_feature_witness_test {
namespace {

using narrow::detail::on_support_feature;
using testing::Rng;

// Signed distance from local point q to a box of half extents e.
double box_signed_distance(const Vec3& e, const Vec3& q) {
  const Vec3 o = q.cwiseAbs() - e;
  return o.cwiseMax(0.0).norm() + std::min(o.maxCoeff(), 0.0);
}

const Vec3 kHalf(0.5, 0.3, 0.2);
constexpr double kTol = 1e-6;

// Points on a face, an edge and a vertex of the box, each along the
// direction whose support feature it is, are accepted; the same points moved
// off the feature (out of the plane, past the face's edge, along the edge
// past its end) by 4·tol are not.
TEST(SupportFeatureWitness, FacesEdgesAndVertices) {
  const ConvexPolytope box(testing::box_corners(kHalf));
  Rng g(501);
  for (int i = 0; i < 20; ++i) {
    const Transform t = i == 0 ? Transform::identity() : g.pose(1.0);
    SCOPED_TRACE(i);
    const auto world = [&](const Vec3& q) { return Vec3(t.R * q + t.p); };
    const auto dir = [&](const Vec3& d) { return Vec3(t.R * d.normalized()); };
    // The +z face: interior point, and off it.
    const Vec3 face(g.uniform(-0.45, 0.45), g.uniform(-0.25, 0.25), kHalf.z());
    EXPECT_TRUE(on_support_feature(box, t, world(face), dir(Vec3::UnitZ()), kTol));
    EXPECT_FALSE(on_support_feature(box, t, world(face + Vec3(0, 0, 4 * kTol)), dir(Vec3::UnitZ()), kTol));
    EXPECT_FALSE(on_support_feature(box, t, world(face - Vec3(0, 0, 4 * kTol)), dir(Vec3::UnitZ()), kTol));
    // On the face's edge, and just past it in the face's plane.
    const Vec3 rim(kHalf.x(), face.y(), kHalf.z());
    EXPECT_TRUE(on_support_feature(box, t, world(rim), dir(Vec3::UnitZ()), kTol));
    EXPECT_FALSE(on_support_feature(box, t, world(rim + Vec3(4 * kTol, 0, 0)), dir(Vec3::UnitZ()), kTol));
    // The edge x = +hx, z = +hz, along the direction between the two faces.
    const Vec3 edge_dir(1.0, 0.0, g.uniform(0.3, 3.0));
    EXPECT_TRUE(on_support_feature(box, t, world(rim), dir(edge_dir), kTol));
    EXPECT_FALSE(on_support_feature(box, t, world(face), dir(edge_dir), kTol));  // on the face, off the edge
    const Vec3 end(kHalf.x(), kHalf.y(), kHalf.z());
    EXPECT_TRUE(on_support_feature(box, t, world(end), dir(edge_dir), kTol));
    EXPECT_FALSE(on_support_feature(box, t, world(end + Vec3(0, 4 * kTol, 0)), dir(edge_dir), kTol));
    // The vertex (+,+,+) along a direction into its octant.
    const Vec3 vertex_dir(g.uniform(0.2, 1.0), g.uniform(0.2, 1.0), g.uniform(0.2, 1.0));
    EXPECT_TRUE(on_support_feature(box, t, world(end), dir(vertex_dir), kTol));
    EXPECT_FALSE(on_support_feature(box, t, world(rim), dir(vertex_dir), kTol));
    EXPECT_FALSE(on_support_feature(box, t, world(end - Vec3(4 * kTol, 0, 0)), dir(vertex_dir), kTol));
  }
}

// Soundness on random points near the support feature of random
// directions: whatever the test accepts is within tol of the box's
// surface (the closed form); points drawn on the feature itself (a convex
// combination of the corners within tol/8 of the support plane) are all
// accepted.
TEST(SupportFeatureWitness, AcceptsOnlyPointsNearTheSurface) {
  const std::vector<Vec3> corners = testing::box_corners(kHalf);
  const ConvexPolytope box(corners);
  Rng g(511);
  int accepted = 0, rejected = 0;
  for (int i = 0; i < testing::scaled(400); ++i) {
    const Transform t = g.pose(1.0);
    // Directions of every kind: generic (a vertex), in a coordinate plane
    // (an edge) and along an axis (a face).
    Vec3 d = g.unit_vector();
    if (i % 3 == 1) d[i % 9 / 3] = 0.0;
    if (i % 3 == 2) d = Vec3::Unit(i % 9 / 3) * (g.uniform(0.0, 1.0) < 0.5 ? -1.0 : 1.0);
    d.normalize();
    const double top = (corners[0].cwiseAbs().array() * d.cwiseAbs().array()).sum();
    std::vector<Vec3> feature;
    for (const Vec3& c : corners)
      if (c.dot(d) >= top - 1e-12) feature.push_back(c);
    Vec3 on = Vec3::Zero();
    double wsum = 0.0;
    for (const Vec3& c : feature) {
      const double w = g.uniform(0.0, 1.0);
      on += w * c;
      wsum += w;
    }
    on /= wsum;
    const Vec3 m = t.R * d;
    EXPECT_TRUE(on_support_feature(box, t, t.R * on + t.p, m, kTol)) << i;
    for (int k = 0; k < 10; ++k) {
      const Vec3 q = on + g.uniform(0.0, 6.0) * kTol * g.unit_vector();
      if (on_support_feature(box, t, t.R * q + t.p, m, kTol)) {
        ++accepted;
        EXPECT_LE(std::abs(box_signed_distance(kHalf, q)), kTol) << i;
      } else {
        ++rejected;
      }
    }
  }
  EXPECT_GT(accepted, 0);
  EXPECT_GT(rejected, 0);
}

// A polytope with a margin has rounded edges: the test declines.
TEST(SupportFeatureWitness, MarginsDecline) {
  const ConvexPolytope rounded(testing::box_corners(kHalf), 0.01);
  EXPECT_FALSE(on_support_feature(rounded, Transform::identity(), Vec3(0, 0, kHalf.z() + 0.01), Vec3::UnitZ(), kTol));
}

}  // namespace
}  // namespace proxima::support_feature_witness_test
