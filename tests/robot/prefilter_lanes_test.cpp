// SPDX-License-Identifier: BSD-3-Clause
// The prefilter's lane arithmetic on its own: the lane kinematics (with its
// fused multiply-adds where the processor has them) against the robot's
// forward_kinematics, its range check against the poses that gives; the
// link balls' pair masks and the objects' box masks against exact
// arithmetic on coordinates of a 1/1024 grid, ties included, with lanes
// left out of the box placed far away so that using them would show.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include <proxima/robot/kinematics.hpp>
#include <proxima/robot/sphere_prefilter.hpp>
#include <proxima/robot/urdf.hpp>

#include "../../src/robot/fk_step.hpp"
#include "../../src/robot/prefilter_lanes.hpp"
#include "robot_test_support.hpp"
#include "support/random.hpp"

namespace proxima::robot {
namespace {

using testing::Rng;
constexpr std::size_t W = kPrefilterLanes;

// A value of the grid k/1024, |k| ≤ 1024 · span: sums, differences and
// squares of a few of them are exact in double.
double grid(Rng& rng, double span) { return std::round(rng.uniform(-span, span) * 1024.0) / 1024.0; }

TEST(PrefilterLanes, KinematicsMatchForwardKinematicsAndFlagTheRange) {
  Rng rng(23);
  for (const char* name : {"panda", "ur5"}) {
    const RobotModel model = load_urdf(robot_test::robots_dir() / name / (std::string(name) + ".urdf"));
    const std::vector<detail::PrefilterStep> steps = detail::prefilter_steps(model);
    const std::size_t links = model.links().size(), dof = model.variable_count();
    const auto root = static_cast<std::size_t>(model.root_link());
    std::vector<double> rot(links * 9 * W), pos(links * 3 * W), q(dof * W);
    double worst = 0.0;
    int flagged = 0, kept = 0;
    for (int group = 0; group < 500; ++group) {
      const Transform base = rng.pose(0.5);
      // Angles well past the limits (the lanes reduce any |θ| ≤ 1e4), and
      // a range about the origin that some rows' links leave.
      std::vector<std::vector<double>> rows(W, std::vector<double>(dof));
      for (std::size_t l = 0; l < W; ++l)
        for (std::size_t v = 0; v < dof; ++v) {
          const Joint& jt = model.joint(model.variable_joint(v));
          rows[l][v] = jt.type == JointType::prismatic ? rng.uniform(jt.lower, jt.upper)
                                                        : rng.uniform(-1.0, 1.0) * (group % 2 ? 4.0 : 900.0);
          q[v * W + l] = rows[l][v];
        }
      for (std::size_t k = 0; k < 9; ++k)
        for (std::size_t l = 0; l < W; ++l) rot[(root * 9 + k) * W + l] = base.R(static_cast<int>(k / 3), static_cast<int>(k % 3));
      for (std::size_t k = 0; k < 3; ++k)
        for (std::size_t l = 0; l < W; ++l) pos[(root * 3 + k) * W + l] = base.p[static_cast<int>(k)];
      const double kRange = std::string(name) == "ur5" ? 0.9 : 0.6;
      double usable[W];
      std::fill(usable, usable + W, 1.0);
      detail::lane_kinematics(steps, q.data(), kRange, rot.data(), pos.data(), usable);
      for (std::size_t l = 0; l < W; ++l) {
        const std::vector<Transform> poses = forward_kinematics(model, rows[l], base);
        bool beyond = false, near_edge = false;
        for (std::size_t i = 0; i < links; ++i) {
          for (int k = 0; k < 3; ++k) {
            const double p = poses[i].p[k];
            worst = std::max(worst, std::abs(pos[(i * 3 + static_cast<std::size_t>(k)) * W + l] - p));
            if (i != root) {
              beyond |= std::abs(p) > kRange;
              near_edge |= std::abs(std::abs(p) - kRange) < 1e-9;
            }
          }
          for (int k = 0; k < 9; ++k)
            worst = std::max(worst, std::abs(rot[(i * 9 + static_cast<std::size_t>(k)) * W + l] - poses[i].R(k / 3, k % 3)));
        }
        ASSERT_FALSE(near_edge) << "pick another seed: a link origin lies on the range's edge";
        EXPECT_EQ(usable[l] > 0.0, !beyond) << name << " group " << group << " lane " << l;
        (beyond ? flagged : kept)++;
      }
    }
    // The allowance of the spheres assumes well under 1e-10 m.
    EXPECT_LT(worst, 1e-12) << name;
    EXPECT_GT(flagged, 100) << name;
    EXPECT_GT(kept, 100) << name;
  }
}

TEST(PrefilterLanes, AnAngleBeyondTheLaneRangeLeavesItsLane) {
  const RobotModel model = load_urdf(robot_test::robots_dir() / "panda" / "panda.urdf");
  const std::vector<detail::PrefilterStep> steps = detail::prefilter_steps(model);
  const std::size_t links = model.links().size(), dof = model.variable_count();
  std::vector<double> rot(links * 9 * W), pos(links * 3 * W), q(dof * W, 0.1);
  const auto root = static_cast<std::size_t>(model.root_link());
  for (std::size_t k = 0; k < 9; ++k)
    for (std::size_t l = 0; l < W; ++l) rot[(root * 9 + k) * W + l] = k % 4 == 0 ? 1.0 : 0.0;
  q[0 * W + 1] = 2.0 * detail::kAngleRange;
  q[0 * W + 2] = std::numeric_limits<double>::quiet_NaN();
  double usable[W] = {1.0, 1.0, 1.0, 1.0};
  detail::lane_kinematics(steps, q.data(), 1e3, rot.data(), pos.data(), usable);
  EXPECT_GT(usable[0], 0.0);
  EXPECT_LT(usable[1], 0.0);
  EXPECT_LT(usable[2], 0.0);
  EXPECT_GT(usable[3], 0.0);
}

TEST(PrefilterLanes, PairMasksAreTheSignsOfTheExactClearances) {
  Rng rng(29);
  constexpr std::size_t kLinks = 6;
  std::vector<double> centers(kLinks * 3 * W), radius(kLinks);
  std::vector<std::pair<int, int>> pairs;
  for (int a = 0; a < static_cast<int>(kLinks); ++a)
    for (int b = a + 1; b < static_cast<int>(kLinks); ++b) pairs.emplace_back(a, b);
  std::vector<unsigned char> apart(pairs.size());
  int ties = 0, set = 0, clear = 0;
  for (int round = 0; round < 2000; ++round) {
    for (double& c : centers) c = grid(rng, 1.0);
    for (double& r : radius) r = std::abs(grid(rng, 0.5));
    // Links 0 and 1 with centres 1.25 apart (0.75, 1, 0) and reach 1.25 in
    // one lane: the clearance is exactly zero, which proves nothing.
    const std::size_t lane = static_cast<std::size_t>(round) % W;
    const double x = centers[0 * W + lane];
    centers[(1 * 3 + 0) * W + lane] = x + 0.75;
    centers[(1 * 3 + 1) * W + lane] = centers[1 * W + lane] + 1.0;
    centers[(1 * 3 + 2) * W + lane] = centers[2 * W + lane];
    const double t = round % 3 == 0 ? 0.0 : 0.25;
    radius[0] = 0.5;
    radius[1] = 0.75 - t;
    detail::lane_pairs_apart(centers.data(), radius.data(), pairs.data(), pairs.size(), t, apart.data());
    for (std::size_t k = 0; k < pairs.size(); ++k)
      for (std::size_t l = 0; l < W; ++l) {
        const auto a = static_cast<std::size_t>(pairs[k].first), b = static_cast<std::size_t>(pairs[k].second);
        long double d2 = 0.0L;
        for (std::size_t i = 0; i < 3; ++i) {
          const long double d = static_cast<long double>(centers[(a * 3 + i) * W + l]) - centers[(b * 3 + i) * W + l];
          d2 += d * d;
        }
        const long double reach = static_cast<long double>(radius[a]) + radius[b] + t;
        const long double clearance = d2 - reach * reach;
        ties += clearance == 0.0L;
        const bool expected = clearance > 0.0L;
        (expected ? set : clear)++;
        ASSERT_EQ((apart[k] >> l & 1u) != 0, expected) << "round " << round << " pair " << k << " lane " << l;
      }
  }
  EXPECT_GT(ties, 500);
  EXPECT_GT(set, 1000);
  EXPECT_GT(clear, 1000);
}

TEST(PrefilterLanes, ObjectMasksUseTheBoxOfTheKeptLanesOnly) {
  Rng rng(31);
  constexpr std::size_t kObjects = 70;  // a chunk of 64 and a part of one
  constexpr double kInf = std::numeric_limits<double>::infinity();
  std::vector<double> bounds(6 * kObjects);
  int near = 0, far = 0, ties = 0;
  for (int round = 0; round < 3000; ++round) {
    for (std::size_t o = 0; o < kObjects; ++o)
      for (std::size_t k = 0; k < 3; ++k) {
        double lo = grid(rng, 2.0), hi = grid(rng, 2.0);
        if (lo > hi) std::swap(lo, hi);
        bounds[k * kObjects + o] = lo;
        bounds[(3 + k) * kObjects + o] = hi;
      }
    // One object unbounded (a halfspace's box): always near.
    const std::size_t open = static_cast<std::size_t>(round) % kObjects;
    for (std::size_t k = 0; k < 3; ++k) {
      bounds[k * kObjects + open] = -kInf;
      bounds[(3 + k) * kObjects + open] = kInf;
    }
    unsigned lanes = 0;
    while (lanes == 0) lanes = static_cast<unsigned>(rng.uniform(0.0, 16.0)) & 15u;
    double center[3 * W];
    for (std::size_t k = 0; k < 3; ++k)
      for (std::size_t l = 0; l < W; ++l) center[k * W + l] = (lanes >> l & 1u) ? grid(rng, 1.0) : 1e6;
    const double radius = std::abs(grid(rng, 0.25)), t = round % 2 ? 0.0 : 0.125;
    // The lane boxes' corner touching an object's face at exactly t: a tie.
    double box_hi = -kInf;
    for (std::size_t l = 0; l < W; ++l)
      if (lanes >> l & 1u) box_hi = std::max(box_hi, center[l]);
    const std::size_t tied = (open + 1) % kObjects;
    bounds[tied] = box_hi + radius + t;
    bounds[3 * kObjects + tied] = bounds[tied] + 0.5;
    for (const std::size_t first : {std::size_t{0}, std::size_t{64}}) {
      const std::size_t count = std::min(detail::kBoxChunk, kObjects - first);
      const std::uint64_t mask =
          detail::near_objects(center, radius, lanes, bounds.data(), kObjects, first, count, t);
      for (std::size_t i = 0; i < count; ++i) {
        const std::size_t o = first + i;
        long double gap = -std::numeric_limits<long double>::infinity();
        for (std::size_t k = 0; k < 3; ++k) {
          long double lo = std::numeric_limits<long double>::infinity(), hi = -lo;
          for (std::size_t l = 0; l < W; ++l)
            if (lanes >> l & 1u) {
              lo = std::min<long double>(lo, center[k * W + l]);
              hi = std::max<long double>(hi, center[k * W + l]);
            }
          lo -= radius;
          hi += radius;
          gap = std::max({gap, bounds[k * kObjects + o] - hi, lo - bounds[(3 + k) * kObjects + o]});
        }
        ties += gap == static_cast<long double>(t);
        const bool expected = !(gap > t);
        (expected ? near : far)++;
        ASSERT_EQ((mask >> i & 1u) != 0, expected) << "round " << round << " object " << o;
      }
    }
  }
  EXPECT_GT(ties, 1000);
  EXPECT_GT(near, 10000);
  EXPECT_GT(far, 10000);
}

}  // namespace
}  // namespace proxima::robot
