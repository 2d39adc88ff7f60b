// SPDX-License-Identifier: BSD-3-Clause
// A seeded sample of the watchdog's closed-loop campaign
// (tests/closed_loop/campaign.hpp), the same code proxima-robot-bench
// closed-loop runs 10,000 times: the Panda and the UR5 in their shipped
// scenes, jogs of one joint, of a random direction in joint space and of
// the tool along a line, each until the motion stops. No run may touch the
// scene, come closer than stop_distance − (1 + D)·V·T or fail to hold its
// stop. (A run still crawling at the give-up time is counted and printed:
// the campaign's report lists them.)
#include <algorithm>
#include <cstdio>
#include <limits>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "campaign.hpp"
#include "robot_test_support.hpp"
#include "support/test_shapes.hpp"

namespace proxima::robot {
namespace {

using closed_loop::CampaignOptions;
using closed_loop::JogKind;
using closed_loop::RunRecord;

TEST(ClosedLoopCampaign, SeededSampleOfBothRobotsAndEveryJogKindKeepsTheGuarantee) {
  // Four runs per robot and jog kind (one under the sanitizers).
  const int per_kind = testing::scaled(4);
  CampaignOptions o;
  o.runs = 6 * per_kind;
  o.seed = 7;
  o.threads = 2;
  o.robots_dir = robot_test::robots_dir();
  const closed_loop::CampaignResult result = closed_loop::run_campaign(o);
  ASSERT_EQ(result.runs.size(), static_cast<std::size_t>(o.runs));
  std::map<std::pair<std::string, JogKind>, int> covered;
  int stopped = 0;
  for (const RunRecord& r : result.runs) {
    const std::string what = "run " + std::to_string(r.index) + ": " + r.robot + " in " + r.scene + ", " +
                             to_string(r.jog) + " " + r.jog_detail + ", bound " + std::to_string(r.bound) + " m";
    EXPECT_EQ(r.error, "") << what;
    EXPECT_GT(r.lowest, 0.0) << what << ": contact";
    EXPECT_GE(r.lowest, r.bound) << what << ": closer than the guaranteed bound";
    EXPECT_EQ(r.stopped + r.at_limit + r.jog_ended + r.gave_up, 1) << what << ": one way to end";
    if (r.stopped) {
      EXPECT_TRUE(r.held) << what;
      ++stopped;
    }
    // The bound is below the stop distance by (1 + D)·V·T of a run that moved.
    if (r.time > 0.0) {
      EXPECT_GT(r.speed_bound, 0.0) << what;
      EXPECT_LT(r.bound, o.watchdog.stop_distance) << what;
    }
    ++covered[{r.robot, r.jog}];
  }
  for (const char* robot : {"panda", "ur5"})
    for (const JogKind k : {JogKind::one_joint, JogKind::joint_direction, JogKind::cartesian})
      EXPECT_EQ((covered[{robot, k}]), per_kind) << robot << ", " << to_string(k);
  EXPECT_GT(stopped, 0);
  std::ostringstream report;
  closed_loop::print_report(report, o, result);
  std::printf("%s", report.str().c_str());
}

TEST(ClosedLoopCampaign, RunsDoNotDependOnTheThreadCount) {
  CampaignOptions o;
  o.runs = std::max(2, testing::scaled(4));
  o.seed = 3;
  o.robots_dir = robot_test::robots_dir();
  o.threads = 1;
  const closed_loop::CampaignResult one = closed_loop::run_campaign(o);
  o.threads = 2;
  const closed_loop::CampaignResult two = closed_loop::run_campaign(o);
  for (std::size_t k = 0; k < one.runs.size(); ++k) {
    EXPECT_EQ(one.runs[k].scene, two.runs[k].scene) << k;
    EXPECT_EQ(one.runs[k].jog_detail, two.runs[k].jog_detail) << k;
    EXPECT_EQ(one.runs[k].time, two.runs[k].time) << k;
    EXPECT_EQ(one.runs[k].lowest, two.runs[k].lowest) << k;
  }
}

// The message names the option and the reason.
void expect_rejected(const CampaignOptions& o, const std::string& what) {
  try {
    closed_loop::run_campaign(o);
    ADD_FAILURE() << "no error; expected one naming " << what;
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
  }
}

TEST(ClosedLoopCampaign, OptionsOutOfRangeAreRejected) {
  CampaignOptions o;
  o.robots_dir = robot_test::robots_dir();
  o.runs = 0;
  expect_rejected(o, "runs must be at least 1");
  o.runs = 1;
  o.threads = 0;
  expect_rejected(o, "threads must be at least 1");
  o.threads = 1;
  o.give_up = std::numeric_limits<double>::quiet_NaN();
  expect_rejected(o, "give_up must be positive");
  o.give_up = 1.0;
  o.start_margin = -0.01;
  expect_rejected(o, "start_margin must be >= 0");
}

}  // namespace
}  // namespace proxima::robot
