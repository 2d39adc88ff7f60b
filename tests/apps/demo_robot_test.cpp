// SPDX-License-Identifier: BSD-3-Clause
// The demo's robot section: the unwatched jog reaches the table, the
// watched one does not, and a robot that is not there is reported, not
// thrown.
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "demo_robot.hpp"

namespace proxima::apps {
namespace {

TEST(DemoRobot, TheWatchdogKeepsThePandaOffTheTable) {
  const std::string robots = (std::filesystem::path(__FILE__).parent_path().parent_path() / "data" / "robots").string();
  const RobotDemo demo = run_robot_demo(robots);
  ASSERT_TRUE(demo.error.empty()) << demo.error;
  EXPECT_GT(demo.contact_time_unwatched, 0.0);
  EXPECT_GT(demo.closest_watched, 0.0);
  EXPECT_LT(demo.closest_watched, 0.05);
  ASSERT_FALSE(demo.steps.empty());
  EXPECT_EQ(demo.steps.front().level, "clear");
  EXPECT_NE(demo.steps.back().level, "clear");
  EXPECT_EQ(demo.steps.back().channel, "table");
  // A closed loop run to the stop, recorded at every sample.
  EXPECT_GT(demo.stop_time, 0.0);
  EXPECT_EQ(demo.steps.back().level, "stop");
  EXPECT_EQ(demo.steps.back().speed_factor, 0.0);
  ASSERT_EQ(demo.time.size(), demo.speed_factor.size());
  ASSERT_EQ(demo.time.size(), demo.table_mm.size());
  EXPECT_DOUBLE_EQ(demo.time.back(), demo.stop_time);
  EXPECT_EQ(demo.speed_factor.front(), 1.0);
  EXPECT_EQ(demo.speed_factor.back(), 0.0);
  EXPECT_GE(demo.table_mm.back(), 1e3 * demo.closest_watched - 1e-9);
  std::ostringstream md;
  robot_markdown(demo, md, {"a.svg", "b.svg"});
  EXPECT_NE(md.str().find("| t (s) | level |"), std::string::npos);
  EXPECT_NE(md.str().find("touches the table after"), std::string::npos);
  EXPECT_NE(md.str().find("stopped for good after"), std::string::npos);
  EXPECT_NE(md.str().find("![a.svg](a.svg)"), std::string::npos);
  const std::vector<std::string> plots = robot_plots(demo);
  ASSERT_EQ(plots.size(), 2u);
  for (const std::string& p : plots) EXPECT_EQ(p.rfind("<svg", 0), 0u);
  // The unwatched jog beside the watched one, named in the distance plot's legend; it ends touching the table.
  ASSERT_EQ(demo.unwatched_time.size(), demo.unwatched_table_mm.size());
  EXPECT_DOUBLE_EQ(demo.unwatched_time.back(), demo.contact_time_unwatched);
  EXPECT_EQ(demo.unwatched_table_mm.back(), 0.0);
  EXPECT_NE(plots[0].find(">watched</tspan>"), std::string::npos);
  EXPECT_NE(plots[0].find(">unwatched</tspan>"), std::string::npos);
  EXPECT_EQ(plots[1].find("class=\"legend\""), std::string::npos) << "one series";

  // The watched run's replay page: a frame per sample (fewer than the page's 600), ending at the stop,
  // its levels and speed factors those of the run, the table's clearance colours on the stop-to-warn scale.
  const nlohmann::json& page = demo.watch_page;
  ASSERT_TRUE(page.is_object());
  EXPECT_EQ(page["strip"], true);
  ASSERT_EQ(page["frames"].size(), demo.time.size());
  EXPECT_NEAR(page["frames"].back()["time"].get<double>(), demo.stop_time, 1e-9);
  const nlohmann::json& timelines = page["timelines"];
  ASSERT_EQ(timelines.size(), 3u);
  EXPECT_EQ(timelines[1]["values"].back(), 3) << "stop";
  for (std::size_t i = 0; i < demo.speed_factor.size(); ++i)
    EXPECT_NEAR(timelines[2]["values"][i].get<double>(), demo.speed_factor[i], 5e-4) << i;
  EXPECT_EQ(page["colour_scale"]["near"], 0.01);
  EXPECT_EQ(page["colour_scale"]["far"], 0.2);
  std::ostringstream linked;
  robot_markdown(demo, linked, {}, "watchdog_replay.html");
  EXPECT_NE(linked.str().find("[3-D replay of the watched jog](watchdog_replay.html)"), std::string::npos);
}

TEST(DemoRobot, AMissingRobotIsReported) {
  const RobotDemo demo = run_robot_demo("/nonexistent/robots");
  EXPECT_NE(demo.error.find("/nonexistent/robots/panda/panda.urdf"), std::string::npos) << demo.error;
  std::ostringstream md;
  robot_markdown(demo, md);
  EXPECT_NE(md.str().find("did not load"), std::string::npos);
  EXPECT_TRUE(demo.watch_page.is_null());
}

}  // namespace
}  // namespace proxima::apps
