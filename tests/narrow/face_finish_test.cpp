// SPDX-License-Identifier: BSD-3-Clause
// GJK's finish on a cylinder's or a cone's face against a cylinder, a cone or
// an ellipsoid (narrow/face_finish.hpp, with narrow/smooth_finish.hpp where
// rims meet). Ground truth never comes from the finish: distances against the
// certified support sweep of tests/oracle with support points written from
// the shapes' definitions (tests/support/curved_solids.hpp), and against a
// separating slab in arrangements that put the nearest points on sides,
// slants and caps, families of them included (parallel sides, a slant along a
// slant, a cap over a cap).
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <proxima/query.hpp>

#include "../support/curved_solids.hpp"
#include "../support/random.hpp"
#include "../support/test_shapes.hpp"

// A named namespace: the tests are compiled in unity batches, where
// anonymous namespaces of several files meet.
namespace proxima::face_finish_test {
namespace {

using testing::cone_solid;
using testing::cylinder_solid;
using testing::ellipsoid_solid;
using testing::expect_pair_matches_sweep;

// Without the finishes GJK takes on average 18.8 support calls between two
// such cylinders, 17.1 between the cylinder and the cone, 19.2 against the
// ellipsoid and 13.7 between two cones (a driver timing gjk(), 1,000 random
// poses a pair); with them 6.6, 6.0, 6.5 and 5.5.
TEST(FaceFinish, CylinderPairsMatchTheSweepInBothOrders) {
  const testing::CurvedSolid cyl = cylinder_solid("cylinder", 0.3, 0.8);
  expect_pair_matches_sweep(cyl, cyl, 95, 9.5);
  expect_pair_matches_sweep(cyl, cone_solid("cone", 0.3, 0.8), 95, 9.0);
  expect_pair_matches_sweep(cyl, ellipsoid_solid("ellipsoid", Vec3(0.3, 0.2, 0.4)), 95, 9.5);
  expect_pair_matches_sweep(cylinder_solid("rod", 0.05, 1.0), cylinder_solid("disc", 0.4, 0.1), 95, 9.5);
}

TEST(FaceFinish, ConePairsMatchTheSweepInBothOrders) {
  const testing::CurvedSolid cone = cone_solid("cone", 0.3, 0.8);
  expect_pair_matches_sweep(cone, cone, 97, 8.0);
  expect_pair_matches_sweep(cone, ellipsoid_solid("ellipsoid", Vec3(0.3, 0.2, 0.4)), 97, 8.0);
  expect_pair_matches_sweep(cone_solid("spike", 0.08, 1.0), cone_solid("flat cone", 0.45, 0.15), 97, 9.0);
  expect_pair_matches_sweep(cone_solid("spike", 0.08, 1.0), cylinder_solid("disc", 0.4, 0.1), 97, 9.0);
}

// Gaps of 0.2 down to 1e-11 where a slab separates the two and holds a pair
// of points at the gap, all under a random rigid motion. Against a cylinder
// (radius 0.3, length 0.8, axis z): sides crossed, parallel sides (a family of
// nearest points), a cap over a cap (a disc of them), a rim over a cap, a rim
// beside the side, an ellipsoid's tip against the side, a cone's base over a
// cap. Against a cone of the same size: a cylinder's side along the slant and
// across it, an ellipsoid's tip on the slant, a cone's slant along the slant
// (the second cone turned half round a line of the slant), an ellipsoid under
// the base.
TEST(FaceFinish, SlabArrangementsAgainstTheGap) {
  constexpr double r = 0.3, h = 0.4;
  const Cylinder cyl(r, 2.0 * h);
  const Cone cone(r, 2.0 * h);
  const Cylinder b(0.2, 0.6);
  const double tilt = M_PI / 4;
  // b tilted by 45° about y: its extent along x and along z from its centre.
  const double b_reach = 0.3 * std::cos(tilt) + 0.2 * std::sin(tilt);
  // The cone's slant in the xz plane: from the apex (0, 0, h) along g to the
  // rim (r, 0, −h), its outward normal n, its middle m.
  const double slant = std::sqrt(r * r + 4.0 * h * h);
  const Vec3 g(r / slant, 0.0, -2.0 * h / slant), n(2.0 * h / slant, 0.0, r / slant), m(0.5 * r, 0.0, 0.0);
  const Ellipsoid tip(Vec3(0.25, 0.2, 0.15));
  const double tip_reach = Vec3(0.25 * n.x(), 0.0, 0.15 * n.z()).norm();  // its support value along n
  // b's axis along g: a turn about y taking z to g.
  const Transform along_slant = Transform::from_axis_angle(Vec3::UnitY(), std::atan2(g.x(), g.z()), m + 0.2 * n);
  struct Arrangement {
    const char* label;
    Shape first;
    Shape other;
    Transform pose;  // the other's pose at gap zero, the first at the origin
    Vec3 slab;       // the slab's normal, from the first towards the other
  };
  const Vec3 x = Vec3::UnitX(), z = Vec3::UnitZ();
  const std::vector<Arrangement> arrangements = {
      {"sides crossed", cyl, b, Transform::from_axis_angle(Vec3::UnitX(), 0.5 * M_PI, Vec3(r + 0.2, 0.0, 0.05)), x},
      {"parallel sides", cyl, b, Transform::from_translation(Vec3(r + 0.2, 0.0, 0.1)), x},
      {"cap over a cap", cyl, b, Transform::from_translation(Vec3(0.05, -0.02, h + 0.3)), z},
      {"rim over a cap", cyl, b, Transform::from_axis_angle(Vec3::UnitY(), tilt, Vec3(0.1, 0.0, h + b_reach)), z},
      {"rim beside the side", cyl, b,
       Transform::from_axis_angle(Vec3::UnitY(), tilt, Vec3(r + b_reach, 0.0, 0.05)), x},
      {"ellipsoid tip on the side", cyl, tip, Transform::from_translation(Vec3(r + 0.25, 0.0, -0.1)), x},
      {"cone base over a cap", cyl, Cone(0.2, 0.6), Transform::from_translation(Vec3(0.05, 0.0, h + 0.3)), z},
      {"side along the slant", cone, b, along_slant, n},
      {"side across the slant", cone, b, Transform::from_axis_angle(Vec3::UnitX(), 0.5 * M_PI, m + 0.2 * n), n},
      {"ellipsoid tip on the slant", cone, tip, Transform::from_translation(m + tip_reach * n), n},
      {"slant along the slant", cone, cone, Transform::from_axis_angle(Vec3::UnitY(), M_PI, 2.0 * m), n},
      {"ellipsoid under the base", cone, tip, Transform::from_translation(Vec3(0.05, 0.02, -h - 0.15)), -z},
  };
  testing::Rng rng(96);
  for (const Arrangement& arr : arrangements) {
    for (double gap : {0.2, 1e-3, 1e-7, 1e-11}) {
      for (int k = 0; k < testing::scaled(20); ++k) {
        const Transform motion = rng.pose(1.0);
        Transform tb = arr.pose;
        tb.p += gap * arr.slab;
        const Transform tb_w = motion * tb;
        for (int order = 0; order < 2; ++order) {
          const DistanceResult d =
              order == 0 ? distance(arr.first, motion, arr.other, tb_w) : distance(arr.other, tb_w, arr.first, motion);
          const std::string where = std::string(arr.label) + " gap " + std::to_string(gap) + " order " +
                                    std::to_string(order) + " motion " + std::to_string(k);
          ASSERT_EQ(d.status, Status::ok) << where;
          EXPECT_NEAR(d.distance, gap, 1e-9) << where;
          EXPECT_NEAR((d.point_a - d.point_b).norm(), d.distance, 1e-12) << where;
          if (gap >= 1e-3) {
            EXPECT_NEAR(std::abs(d.normal.dot(motion.R * arr.slab)), 1.0, 1e-6) << where;
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace proxima::face_finish_test
