// SPDX-License-Identifier: BSD-3-Clause
// add_point_cloud against a voxelisation written here: each point's cell by
// floor(x / voxel) per axis, counted in a std::map, compared with the cubes
// added (read back through the pose's inverse); every point inside its
// cube; and the cubes met by the Panda's hand through a PreparedEnvironment.
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <vector>

#include <gtest/gtest.h>

#include <proxima/robot/point_cloud.hpp>
#include <proxima/robot/prepared_environment.hpp>
#include <proxima/robot/scene_checker.hpp>

#include "robot_test_support.hpp"
#include "support/random.hpp"

namespace proxima::robot {
namespace {

using testing::Rng;
using CloudCell = std::array<long long, 3>;

std::map<CloudCell, int> count_cells(const std::vector<Vec3>& pts, double voxel) {
  std::map<CloudCell, int> out;
  for (const Vec3& p : pts)
    ++out[{static_cast<long long>(std::floor(p.x() / voxel)), static_cast<long long>(std::floor(p.y() / voxel)),
           static_cast<long long>(std::floor(p.z() / voxel))}];
  return out;
}

TEST(PointCloud, CubesAreExactlyTheOccupiedCells) {
  Rng rng(52);
  for (const int min_points : {1, 3}) {
    // Points on a slanted plane with noise, and some in a clump.
    std::vector<Vec3> pts;
    for (int k = 0; k < 4000; ++k) {
      const double u = rng.uniform(-0.5, 0.5), v = rng.uniform(-0.5, 0.5), w = rng.uniform(-0.003, 0.003);
      pts.emplace_back(u, v, 0.3 * u + w);
    }
    for (int k = 0; k < 300; ++k) pts.push_back(Vec3(0.2, -0.1, 0.4) + rng.uniform_vec(-0.02, 0.02));
    const double voxel = 0.025;
    const Transform pose = rng.pose(1.0);
    Environment env;
    env.add("table", Box(1, 1, 0.1), Transform::identity());
    PointCloudOptions o;
    o.min_points = min_points;
    const std::size_t added = add_point_cloud(env, "cam", pts, voxel, pose, o);

    std::set<CloudCell> want;
    for (const auto& [cell, n] : count_cells(pts, voxel))
      if (n >= min_points) want.insert(cell);
    ASSERT_EQ(added, want.size());
    ASSERT_EQ(env.objects.size(), added + 1);
    std::set<CloudCell> got;
    for (std::size_t k = 1; k < env.objects.size(); ++k) {
      const EnvironmentObject& obj = env.objects[k];
      EXPECT_EQ(obj.name, "cam/" + std::to_string(k - 1));
      const Box& b = std::get<Shape>(obj.geometry).as<Box>();
      EXPECT_EQ(b.size(), Vec3::Constant(voxel));
      EXPECT_TRUE(obj.pose.R.isApprox(pose.R, 1e-15));
      const Vec3 c = pose.apply_inverse(obj.pose.p) / voxel - Vec3::Constant(0.5);  // the cell, up to rounding
      const CloudCell cell{std::llround(c.x()), std::llround(c.y()), std::llround(c.z())};
      EXPECT_LT((c - Vec3(double(cell[0]), double(cell[1]), double(cell[2]))).norm(), 1e-9);
      got.insert(cell);
    }
    EXPECT_EQ(got, want);
    if (min_points > 1) {
      EXPECT_LT(added, count_cells(pts, voxel).size());  // the filter dropped sparse cells
    }
  }
}

TEST(PointCloud, TheHandInACloudMeetsItsCubes) {
  const SceneChecker c = robot_test::panda_checker(MeshMode::convex_hull);
  const std::vector<double> q = {0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785};
  const RobotState st = c.state(q);
  const Vec3 hand = st.link_poses[static_cast<std::size_t>(c.model().link_index("panda_hand"))].p;
  Rng rng(53);
  std::vector<Vec3> pts;
  for (int k = 0; k < 2000; ++k) pts.push_back(hand + rng.uniform_vec(-0.15, 0.15));
  for (const bool touching : {false, true}) {
    Environment env;
    PointCloudOptions o;
    if (touching) o.touch_links = {"panda_link6", "panda_link7", "panda_hand", "panda_leftfinger", "panda_rightfinger"};
    ASSERT_GT(add_point_cloud(env, "cloud", pts, 0.02, Transform::identity(), o), 100u);
    const PreparedEnvironment prepared(env);
    const CollisionReport r = c.environment_collision(st, prepared);
    ASSERT_EQ(r.status, Status::ok);
    std::set<std::string> links;
    for (const PairId& p : r.pairs) links.insert(p.link_name);
    if (touching) {
      for (const std::string& l : o.touch_links) EXPECT_EQ(links.count(l), 0u) << l;
    } else {
      EXPECT_EQ(links.count("panda_hand"), 1u);
      EXPECT_EQ(r.pairs.front().other_name.rfind("cloud/", 0), 0u);
    }
  }
}

TEST(PointCloud, BadInputAddsNothing) {
  Environment env;
  std::vector<Vec3> pts = {Vec3(0, 0, 0), Vec3(1, 1, 1)};
  auto refused = [&](const std::vector<Vec3>& p, double voxel, const Transform& pose, int min_points,
                     const std::string& why) {
    PointCloudOptions o;
    o.min_points = min_points;
    robot_test::expect_error([&] { add_point_cloud(env, "cam", p, voxel, pose, o); }, {"point cloud 'cam'", why});
    EXPECT_TRUE(env.objects.empty()) << why;
  };
  const double nan = std::numeric_limits<double>::quiet_NaN();
  refused(pts, 0.0, Transform::identity(), 1, "voxel size");
  refused(pts, -0.1, Transform::identity(), 1, "voxel size");
  refused(pts, nan, Transform::identity(), 1, "voxel size");
  refused(pts, 0.1, Transform::identity(), 0, "min_points 0");
  Transform bad = Transform::identity();
  bad.p.x() = nan;
  refused(pts, 0.1, bad, 1, "pose is not finite");
  std::vector<Vec3> with_nan = pts;
  with_nan.emplace_back(0, nan, 0);
  refused(with_nan, 0.1, Transform::identity(), 1, "point 2 is not finite");
  refused({Vec3(1e9, 0, 0)}, 1e-9, Transform::identity(), 1, "point 0 is too far out");
  EXPECT_EQ(add_point_cloud(env, "empty", std::vector<Vec3>{}, 0.1), 0u);
  EXPECT_TRUE(env.objects.empty());
}

}  // namespace
}  // namespace proxima::robot
