// SPDX-License-Identifier: BSD-3-Clause
// The prefilter's lane arithmetic on its own, in float: the lane
// kinematics (with its fused multiply-adds where the processor has them)
// against the robot's forward_kinematics in double, within the allowance
// prefilter_rounding.hpp proves, and its range check against the poses
// that gives; the link balls' pair masks against long double on
// adversarial near-ties at the edge of the range; the objects' box masks
// against exact arithmetic on coordinates of a 1/1024 grid, ties
// included, with lanes left out of the box placed far away so that using
// them would show.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
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
#include "../../src/robot/prefilter_rounding.hpp"
#include "robot_test_support.hpp"
#include "support/random.hpp"

namespace proxima::robot {
namespace {

using testing::Rng;
constexpr std::size_t W = kPrefilterLanes;

// A value of the grid k/1024, |k| ≤ 1024 · span: sums, differences and
// squares of a few of them are exact in float for span ≤ 2.
double grid(Rng& rng, double span) { return std::round(rng.uniform(-span, span) * 1024.0) / 1024.0; }

// Joint values well past the limits (the lanes reduce any |θ| ≤ 1e4), the
// base anywhere within a few metres and turned any way: the float
// kinematics stays within its allowance of forward_kinematics in double
// (whose own error, ~1e-15, is far below it) for every link, and flags
// exactly the lanes with a link origin beyond the range (but for a lane
// with one within twice its allowance of the range's edge). Without the allowance (0), the
// first comparison fails: float rounding is ~1e-7 of a metre.
TEST(PrefilterLanes, FloatKinematicsStaysWithinItsAllowance) {
  Rng rng(23);
  for (const char* name : {"panda", "ur5"}) {
    const RobotModel model = load_urdf(robot_test::robots_dir() / name / (std::string(name) + ".urdf"));
    const std::vector<detail::PrefilterStep> steps = detail::prefilter_steps(model);
    const std::size_t links = model.links().size(), dof = model.variable_count();
    const auto root = static_cast<std::size_t>(model.root_link());
    std::vector<float> rot(links * 9 * W), pos(links * 3 * W);
    std::vector<double> q(dof * W);
    double worst_ratio = 0.0, largest_allowance = 0.0;
    int flagged = 0, kept = 0, edge = 0;
    for (int group = 0; group < 400; ++group) {
      // The range either the robot's reach (every lane kept) or a smaller
      // one that some lanes' links leave.
      const bool small = group % 2 == 1;
      const double range = small ? (std::string(name) == "ur5" ? 0.6 : 0.5) : 1.5;
      const detail::KinematicsAllowance allowance = detail::kinematics_allowance(steps, links, model.root_link(), range, 4.0 * range);
      const Transform base = rng.pose(3.0);
      std::vector<std::vector<double>> rows(W, std::vector<double>(dof));
      for (std::size_t l = 0; l < W; ++l)
        for (std::size_t v = 0; v < dof; ++v) {
          rows[l][v] = rng.uniform(-1.0, 1.0) * (group % 4 < 2 ? 4.0 : 0.9 * detail::kAngleRange);
          q[v * W + l] = rows[l][v];
        }
      for (std::size_t k = 0; k < 9; ++k)
        for (std::size_t l = 0; l < W; ++l)
          rot[(root * 9 + k) * W + l] = static_cast<float>(base.R(static_cast<int>(k / 3), static_cast<int>(k % 3)));
      for (std::size_t k = 0; k < 3; ++k)
        for (std::size_t l = 0; l < W; ++l) pos[(root * 3 + k) * W + l] = 0.0f;
      float usable[W];
      std::fill(usable, usable + W, 1.0f);
      detail::lane_kinematics(steps, q.data(), allowance.travel, detail::float_down(range), rot.data(), pos.data(),
                              usable);
      for (std::size_t l = 0; l < W; ++l) {
        const std::vector<Transform> poses = forward_kinematics(model, rows[l], base);
        bool beyond = false, near_edge = false;
        for (std::size_t i = 0; i < links; ++i) {
          double dp = 0.0, dr = 0.0;
          for (int k = 0; k < 3; ++k) {
            const double p = poses[i].p[k] - base.p[k];
            const double e = pos[(i * 3 + static_cast<std::size_t>(k)) * W + l] - p;
            dp += e * e;
            if (i != root) {
              beyond |= std::abs(p) > range;
              near_edge |= std::abs(std::abs(p) - range) < 2.0 * allowance.pos[i];
            }
          }
          for (int k = 0; k < 9; ++k)
            dr = std::max(dr, std::abs(rot[(i * 9 + static_cast<std::size_t>(k)) * W + l] - poses[i].R(k / 3, k % 3)));
          dp = std::sqrt(dp);
          // An entry of R̃ − R is at most its spectral norm, which ρ bounds.
          ASSERT_LE(dp, allowance.pos[i]) << name << " link " << i << " lane " << l;
          ASSERT_LE(dr, allowance.rot[i]) << name << " link " << i << " lane " << l;
          if (i != root) worst_ratio = std::max(worst_ratio, dp / allowance.pos[i]);
          largest_allowance = std::max(largest_allowance, allowance.pos[i]);
        }
        // Within its allowance of the edge, either answer is right.
        if (near_edge) {
          ++edge;
          continue;
        }
        EXPECT_EQ(usable[l] > 0.0f, !beyond) << name << " group " << group << " lane " << l;
        (beyond ? flagged : kept)++;
      }
    }
    // The bound is not loose beyond reason: the worst case seen uses a
    // sizeable part of it, and it stays far below the spheres' slack.
    std::printf("%s: largest allowance %.3g m, worst error %.3g of it\n", name, largest_allowance, worst_ratio);
    EXPECT_GT(worst_ratio, 0.002) << name;
    EXPECT_LT(largest_allowance, 1e-4) << name;
    EXPECT_GT(flagged, 100) << name;
    EXPECT_GT(kept, 100) << name;
    EXPECT_LT(edge, 5) << name;
  }
}

TEST(PrefilterLanes, AnAngleOrATravelBeyondTheLaneRangeLeavesItsLane) {
  const RobotModel model = load_urdf(robot_test::robots_dir() / "panda" / "panda.urdf");
  const std::vector<detail::PrefilterStep> steps = detail::prefilter_steps(model);
  const std::size_t links = model.links().size(), dof = model.variable_count();
  std::vector<float> rot(links * 9 * W), pos(links * 3 * W);
  std::vector<double> q(dof * W, 0.1);
  const auto root = static_cast<std::size_t>(model.root_link());
  for (std::size_t k = 0; k < 9; ++k)
    for (std::size_t l = 0; l < W; ++l) rot[(root * 9 + k) * W + l] = k % 4 == 0 ? 1.0f : 0.0f;
  q[0 * W + 1] = 2.0 * detail::kAngleRange;
  q[0 * W + 2] = std::numeric_limits<double>::quiet_NaN();
  q[0 * W + 6] = -2.0 * detail::kAngleRange;
  float usable[W];
  std::fill(usable, usable + W, 1.0f);
  detail::lane_kinematics(steps, q.data(), 0.5, 1e3f, rot.data(), pos.data(), usable);
  for (std::size_t l = 0; l < W; ++l) EXPECT_EQ(usable[l] > 0.0f, l != 1 && l != 2 && l != 6) << l;
  // The first joint made to slide along its axis: a value beyond the
  // travel allowed (0.5 m here) leaves its lane, one within does not.
  std::vector<detail::PrefilterStep> sliding = steps;
  for (detail::PrefilterStep& st : sliding)
    if (st.variable == 0) {
      st.revolute = false;
      st.slide = {0.0, 0.0, 1.0};
      st.slide_f = {0.0f, 0.0f, 1.0f};
    }
  std::fill(q.begin(), q.end(), 0.1);
  q[0 * W + 3] = 0.75;
  q[0 * W + 4] = -0.5;
  q[0 * W + 5] = -0.51;
  std::fill(usable, usable + W, 1.0f);
  detail::lane_kinematics(sliding, q.data(), 0.5, 1e3f, rot.data(), pos.data(), usable);
  for (std::size_t l = 0; l < W; ++l) EXPECT_EQ(usable[l] > 0.0f, l != 3 && l != 5) << l;
}

// Balls whose centres are floats up to 100 m out and whose distance is
// their reach within a few units of float rounding either way: a lane the
// link balls' masks (lane_pairs_apart) or the spheres' clearances
// (lane_balls) say apart is apart, and one lane_balls says within (its
// reach rounded down) is within, by long double arithmetic on the same
// floats. The reach's factors 1 ± 16u (kReachUp, kReachDown) are what
// make it so: with 1 instead, some near-ties are called wrongly.
TEST(PrefilterLanes, PairMasksNeverCallNearTiesApart) {
  Rng rng(29);
  constexpr std::size_t kLinks = 6;
  constexpr double kRange = 100.0;
  std::vector<float> centers(kLinks * 3 * W), radius(kLinks);
  std::vector<std::pair<int, int>> pairs;
  for (int a = 0; a < static_cast<int>(kLinks); a += 2) pairs.emplace_back(a, a + 1);
  std::vector<unsigned char> apart(pairs.size());
  int set = 0, clear = 0, close_apart = 0, close_not = 0, within = 0;
  for (int round = 0; round < 20000; ++round) {
    const double t = round % 3 == 0 ? 0.0 : 0.01;
    const double scale = round % 2 ? kRange : 2.0;
    for (std::size_t k = 0; k < pairs.size(); ++k) {
      const auto a = static_cast<std::size_t>(pairs[k].first), b = static_cast<std::size_t>(pairs[k].second);
      radius[a] = static_cast<float>(rng.uniform(0.0, 0.2));
      radius[b] = static_cast<float>(rng.uniform(0.0, 0.2));
      const double reach = static_cast<double>(radius[a]) + radius[b] + t;
      for (std::size_t l = 0; l < W; ++l) {
        const Vec3 dir = rng.unit_vector();
        const double off = rng.uniform(-24.0, 24.0) * detail::kUnit;
        for (std::size_t i = 0; i < 3; ++i) {
          const double c = rng.uniform(-scale, scale);
          centers[(a * 3 + i) * W + l] = static_cast<float>(c);
          centers[(b * 3 + i) * W + l] =
              static_cast<float>(centers[(a * 3 + i) * W + l] + dir[static_cast<int>(i)] * reach * (1.0 + off));
        }
      }
    }
    detail::lane_pairs_apart(centers.data(), radius.data(), pairs.data(), pairs.size(), t, apart.data());
    for (std::size_t k = 0; k < pairs.size(); ++k) {
      const auto a = static_cast<std::size_t>(pairs[k].first), b = static_cast<std::size_t>(pairs[k].second);
      float out[W], in[W];
      std::fill(out, out + W, std::numeric_limits<float>::infinity());
      std::fill(in, in + W, 1.0f);
      const float out2 = detail::ball_reach_squared(radius[a], radius[b], t, detail::Proof::apart);
      const float in2 = detail::ball_reach_squared(radius[a], radius[b], t, detail::Proof::within);
      detail::lane_balls(centers.data() + a * 3 * W, 1, centers.data() + b * 3 * W, 1, &out2, out);
      detail::lane_balls(centers.data() + a * 3 * W, 1, centers.data() + b * 3 * W, 1, &in2, in);
      for (std::size_t l = 0; l < W; ++l) {
        const auto a = static_cast<std::size_t>(pairs[k].first), b = static_cast<std::size_t>(pairs[k].second);
        long double d2 = 0.0L;
        for (std::size_t i = 0; i < 3; ++i) {
          const long double d =
              static_cast<long double>(centers[(a * 3 + i) * W + l]) - centers[(b * 3 + i) * W + l];
          d2 += d * d;
        }
        const long double reach = static_cast<long double>(radius[a]) + radius[b] + t;
        const bool said = apart[k] >> l & 1u;
        ASSERT_EQ(said, out[l] > 0.0f) << "round " << round << " pair " << k << " lane " << l;
        if (in[l] < 0.0f) {
          ASSERT_LT(d2, reach * reach) << "round " << round << " pair " << k << " lane " << l;
          ++within;
        }
        if (said) {
          ASSERT_GT(d2, reach * reach) << "round " << round << " pair " << k << " lane " << l;
          ++set;
        } else {
          ++clear;
        }
        // Apart by more than 64 units of rounding: the mask must say so.
        if (d2 > reach * reach * (1.0L + 128.0L * detail::kUnit)) {
          ++close_apart;
          EXPECT_TRUE(said) << "round " << round << " pair " << k << " lane " << l;
        } else {
          ++close_not;
        }
      }
    }
  }
  EXPECT_GT(within, 10000);
  EXPECT_GT(set, 10000);
  EXPECT_GT(clear, 10000);
  EXPECT_GT(close_apart, 1000);
  EXPECT_GT(close_not, 1000);
}

// A ball against an oriented box (lane_object), both ways: a clearance
// said positive (apart) or negative (within) holds by long double
// arithmetic on the float centre and the double box, the box's rounding
// allowance (box_allowance) in its growth; without it, some are wrong.
TEST(PrefilterLanes, BallAndBoxClearancesHoldBothWays) {
  Rng rng(37);
  constexpr double kRange = 50.0;
  int apart = 0, within = 0;
  for (int round = 0; round < 20000; ++round) {
    const double t = round % 2 ? 0.0 : 0.005;
    const detail::Proof proof = round % 4 < 2 ? detail::Proof::apart : detail::Proof::within;
    // A box turned any way, near the origin or far from it.
    const Transform pose = rng.pose(round % 3 ? 2.0 : kRange);
    const Vec3 half(rng.uniform(0.0, 0.5), rng.uniform(0.0, 0.5), rng.uniform(0.0, 0.5));
    const double grow_core = rng.uniform(0.0, 0.05);
    detail::PrefilterObject o;
    const Mat3 rows = pose.R.transpose();
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) o.rows[static_cast<std::size_t>(3 * i + j)] = static_cast<float>(rows(i, j));
      o.center[static_cast<std::size_t>(i)] = static_cast<float>(pose.p[i]);
      o.half[static_cast<std::size_t>(i)] = static_cast<float>(half[i]);
    }
    const double reach = kRange * std::sqrt(3.0);
    const double e = detail::box_allowance(reach, pose.p.norm(), half.norm());
    o.grow = proof == detail::Proof::apart ? grow_core + e : grow_core - e;
    // Ball centres just outside or inside the grown box: a point of its
    // surface pushed out along a face normal by the ball's reach, give or
    // take three allowances.
    float c[3 * W], r[1];
    r[0] = static_cast<float>(rng.uniform(0.0, 0.1));
    for (std::size_t l = 0; l < W; ++l) {
      Vec3 local(rng.uniform(-1.0, 1.0) * half.x(), rng.uniform(-1.0, 1.0) * half.y(), rng.uniform(-1.0, 1.0) * half.z());
      const int axis = static_cast<int>(l % 3);
      const double side = rng.uniform(0.0, 1.0) < 0.5 ? -1.0 : 1.0;
      local[axis] = side * (half[axis] + grow_core + r[0] + t + rng.uniform(-3.0, 3.0) * e);
      const Vec3 world = pose.apply(local);
      for (std::size_t i = 0; i < 3; ++i) c[i * W + l] = static_cast<float>(world[static_cast<int>(i)]);
    }
    float clear[W];
    std::fill(clear, clear + W, proof == detail::Proof::apart ? std::numeric_limits<float>::infinity() : 1.0f);
    detail::lane_object(c, r, 1, o, t, proof, clear);
    for (std::size_t l = 0; l < W; ++l) {
      // The exact distance from the float centre to the core box.
      const Vec3 x(c[l], c[W + l], c[2 * W + l]);
      const Vec3 u = rows * (x - pose.p);
      long double d2 = 0.0L;
      for (int k = 0; k < 3; ++k) {
        const long double ex = std::max<long double>(std::abs(static_cast<long double>(u[k])) - half[k], 0.0L);
        d2 += ex * ex;
      }
      const long double need = static_cast<long double>(grow_core) + r[0] + t;
      if (proof == detail::Proof::apart && clear[l] > 0.0f) {
        ++apart;
        ASSERT_GT(d2, need * need) << "round " << round << " lane " << l;
      }
      if (proof == detail::Proof::within && clear[l] < 0.0f) {
        ++within;
        ASSERT_LT(d2, need * need) << "round " << round << " lane " << l;
      }
    }
  }
  EXPECT_GT(apart, 5000);
  EXPECT_GT(within, 5000);
}

TEST(PrefilterLanes, ObjectMasksUseTheBoxOfTheKeptLanesOnly) {
  Rng rng(31);
  constexpr std::size_t kObjects = 70;  // a chunk of 64 and a part of one
  constexpr float kInf = std::numeric_limits<float>::infinity();
  std::vector<float> bounds(6 * kObjects);
  int near = 0, far = 0, ties = 0;
  for (int round = 0; round < 3000; ++round) {
    for (std::size_t o = 0; o < kObjects; ++o)
      for (std::size_t k = 0; k < 3; ++k) {
        float lo = static_cast<float>(grid(rng, 2.0)), hi = static_cast<float>(grid(rng, 2.0));
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
    while (lanes == 0) lanes = static_cast<unsigned>(rng.uniform(0.0, 256.0)) & 255u;
    float center[3 * W];
    for (std::size_t k = 0; k < 3; ++k)
      for (std::size_t l = 0; l < W; ++l) center[k * W + l] = (lanes >> l & 1u) ? static_cast<float>(grid(rng, 1.0)) : 1e6f;
    const float radius = static_cast<float>(std::abs(grid(rng, 0.25)));
    const double t = round % 2 ? 0.0 : 0.125;
    // The lane boxes' corner touching an object's face at exactly t: a tie.
    float box_hi = -kInf;
    for (std::size_t l = 0; l < W; ++l)
      if (lanes >> l & 1u) box_hi = std::max(box_hi, center[l]);
    const std::size_t tied = (open + 1) % kObjects;
    bounds[tied] = box_hi + radius + static_cast<float>(t);
    bounds[3 * kObjects + tied] = bounds[tied] + 0.5f;
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
