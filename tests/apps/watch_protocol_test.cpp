// SPDX-License-Identifier: BSD-3-Clause
// `proxima watch`: the watchdog's JSON-lines answers for the Panda
// (tests/data/robots) jogging towards a table.
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <sstream>
#include <string>
#include <unistd.h>

#include <gtest/gtest.h>

#include "watch_protocol.hpp"

namespace proxima::apps {
namespace {

using nlohmann::json;

std::filesystem::path watch_panda_dir() {
  return std::filesystem::path(__FILE__).parent_path().parent_path() / "data" / "robots" / "panda";
}

constexpr const char* kTable =
    R"([{"name": "table", "geometry": {"shape": "box", "size": [0.6, 1.0, 0.1]}, "pose": {"p": [0.65, 0, 0.15]}}])";

// A file of its own per test (ctest runs tests in parallel).
std::string watch_file(const std::string& name, const std::string& text) {
  const auto p = std::filesystem::temp_directory_path() / (name + "_" + std::to_string(::getpid()) + ".json");
  std::ofstream(p) << text;
  return p.string();
}

WatchCommandOptions watch_options(const std::string& environment) {
  WatchCommandOptions o;
  o.robot.urdf = (watch_panda_dir() / "panda.urdf").string();
  o.robot.srdf = (watch_panda_dir() / "panda.srdf").string();
  o.environment = environment;
  o.tool = "panda_hand";
  return o;
}

std::vector<json> watch_lines(const std::string& text) {
  std::vector<json> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) out.push_back(json::parse(line));
  return out;
}

// The ready pose with the shoulder (joint 2) turned by `shoulder` rad.
std::string sample(double t, double shoulder) {
  std::ostringstream s;
  s << R"({"t": )" << t << R"(, "q": [0, )" << -0.785398 + shoulder << R"(, 0, -2.356194, 0, 1.570796, 0.785398]})";
  return s.str();
}

// The answers to 60 samples 32 ms apart, the shoulder turning at 0.4 rad/s
// whatever they say (the robot does not obey here); empty when the command
// fails.
std::vector<json> watch_jog(const std::string& environment) {
  std::string in;
  for (int k = 0; k < 60; ++k) in += sample(0.032 * k, 0.4 * 0.032 * k) + "\n";
  std::istringstream lines(in);
  std::ostringstream out, err;
  if (run_watch_command(watch_options(environment), lines, out, err) != 0) {
    ADD_FAILURE() << err.str();
    return {};
  }
  return watch_lines(out.str());
}

TEST(WatchProtocol, StopsAJogTowardsATableBeforeContact) {
  const std::string env = watch_file("watch_table", kTable);
  const std::vector<json> a = watch_jog(env);
  ASSERT_EQ(a.size(), 60u);
  EXPECT_EQ(a[0]["level"], "clear");
  EXPECT_EQ(a[0]["model"], "stationary");
  int first_stop = -1, first_warning = -1;
  for (int k = 0; k < 60; ++k) {
    ASSERT_EQ(a[k]["status"], "ok") << k;
    ASSERT_DOUBLE_EQ(a[k]["t"].get<double>(), 0.032 * k);
    if (first_warning < 0 && a[k]["level"] != "clear") first_warning = k;
    if (first_stop < 0 && a[k]["level"] == "stop") first_stop = k;
  }
  ASSERT_GT(first_warning, 0);
  ASSERT_GT(first_stop, first_warning);
  EXPECT_EQ(a[first_stop]["channel"], "table");
  EXPECT_EQ(a[first_stop]["speed_factor"], 0.0);
  EXPECT_EQ(a[first_stop]["reason"], "clearance");
  EXPECT_EQ(a[first_warning]["reason"], "clearance");
  EXPECT_EQ(a[0]["reason"], "none");
  EXPECT_TRUE(a[first_stop]["approaching"].get<bool>());
  // Predicted: at the first stop the table is still clear of the arm.
  EXPECT_GT(a[first_stop]["clearance"].get<double>(), 0.0);
  EXPECT_GE(a[first_stop]["time_to_stop_distance"].get<double>(), 0.0);
  std::filesystem::remove(env);
}

// The table seen by a depth camera: points on its top, voxelised into a few
// hundred cubes that are one channel named after the cloud.
TEST(WatchProtocol, APointCloudIsOneChannel) {
  std::string points;
  for (int i = 0; i <= 30; ++i)
    for (int j = 0; j <= 50; ++j)
      points += (points.empty() ? "" : ", ") + std::string("[") + std::to_string(0.35 + 0.02 * i) + ", " +
                std::to_string(-0.5 + 0.02 * j) + ", 0.18]";
  const std::string env = watch_file(
      "watch_cloud", R"([{"name": "post", "geometry": {"shape": "cylinder", "radius": 0.05, "length": 1.0},
                          "pose": {"p": [-0.6, 0.5, 0.5]}},
                         {"name": "table_scan", "geometry": {"shape": "point_cloud", "voxel": 0.04, "points": [)" +
                         points + "]}}]");
  const std::vector<json> a = watch_jog(env);
  ASSERT_EQ(a.size(), 60u);
  int first_stop = -1;
  for (int k = 0; k < 60; ++k) {
    ASSERT_EQ(a[k]["status"], "ok") << k;
    const std::string channel = a[k]["channel"].get<std::string>();
    EXPECT_TRUE(channel.find('/') != std::string::npos || channel == "post" || channel == "table_scan")
        << k << " " << channel;
    if (first_stop < 0 && a[k]["level"] == "stop") first_stop = k;
  }
  ASSERT_GT(first_stop, 0);
  EXPECT_EQ(a[first_stop]["channel"], "table_scan");
  EXPECT_GT(a[first_stop]["clearance"].get<double>(), 0.0);
  std::filesystem::remove(env);
}

// A tool the URDF does not have (a 30 cm rod in the gripper, pointing at
// the table), given in the cell file: the watchdog slows the jog earlier.
TEST(WatchProtocol, AttachedToolsAreWatched) {
  const std::string bare = watch_file("watch_bare", kTable);
  const std::string tooled = watch_file("watch_tool", std::string(R"({"environment": )") + kTable + R"(,
      "attached": [{"name": "rod", "link": "panda_hand", "geometry": {"shape": "capsule", "radius": 0.01, "length": 0.3},
                    "pose": {"p": [0, 0, 0.25]}, "touch_links": ["panda_leftfinger", "panda_rightfinger"]}]})");
  auto first = [](const std::vector<json>& a, const char* level) {
    for (std::size_t k = 0; k < a.size(); ++k)
      if (a[k]["level"] == level) return static_cast<int>(k);
    return -1;
  };
  const std::vector<json> without = watch_jog(bare), with = watch_jog(tooled);
  ASSERT_EQ(with.size(), 60u);
  ASSERT_EQ(without.size(), 60u);
  const int slow_with = first(with, "slow"), slow_without = first(without, "slow");
  ASSERT_GT(slow_with, 0);
  EXPECT_LT(slow_with, slow_without);
  EXPECT_EQ(with[static_cast<std::size_t>(slow_with)]["channel"], "table");
  EXPECT_GT(first(with, "stop"), 0);
  std::filesystem::remove(bare);
  std::filesystem::remove(tooled);
}

// The table given a stop distance of its own (5 cm) in the cell file: the
// jog is stopped earlier (farther from the table) than under the default
// 1 cm. (`clearance` is the smallest of all channels: here the wrist's 22 mm
// beside the hand, so the time tells.)
TEST(WatchProtocol, TheCellFileGivesAChannelItsOwnDistances) {
  const std::string near = watch_file("watch_near", kTable);
  const std::string far = watch_file("watch_far", std::string(R"({"environment": )") + kTable + R"(,
      "thresholds": {"table": {"stop": 0.05, "slow": 0.15}, "self": {"warn": 0.05, "slow": 0.03}}})");
  // The clearance at the first stop, and after it the stop's channel.
  auto first_stop = [](const std::vector<json>& a) {
    for (const json& x : a)
      if (x["level"] == "stop") return x;
    return json();
  };
  const json a = first_stop(watch_jog(near)), b = first_stop(watch_jog(far));
  ASSERT_FALSE(a.is_null());
  ASSERT_FALSE(b.is_null());
  EXPECT_EQ(a["channel"], "table");
  EXPECT_EQ(b["channel"], "table");
  EXPECT_LT(b["t"].get<double>(), a["t"].get<double>() - 0.1);
  std::filesystem::remove(near);
  std::filesystem::remove(far);
}

TEST(WatchProtocol, TicksLowerTheSpeedFactorOfAStaleFeed) {
  std::ostringstream out, err;
  std::istringstream in(sample(0.0, 0.0) + "\n" + sample(0.032, 0.0) + "\n" + R"({"t": 0.1})" + "\n" +
                        R"({"t": 0.232})" + "\n" + R"({"t": 1.0})" + "\n");
  WatchCommandOptions o = watch_options("");
  o.watchdog.stale_after = 0.1;
  o.watchdog.stop_after = 0.3;
  ASSERT_EQ(run_watch_command(o, in, out, err), 0) << err.str();
  const std::vector<json> a = watch_lines(out.str());
  ASSERT_EQ(a.size(), 5u);
  EXPECT_EQ(a[2]["stale"], false);
  EXPECT_EQ(a[2]["speed_factor"], 1.0);
  EXPECT_EQ(a[3]["stale"], true);
  EXPECT_NEAR(a[3]["speed_factor"].get<double>(), 0.5, 1e-9);  // 0.2 s old: half-way from 0.1 to 0.3
  EXPECT_EQ(a[4]["speed_factor"], 0.0);
  EXPECT_EQ(a[4]["level"], "stop");
  // No environment: the robot against itself only, a pair of its links.
  EXPECT_NE(a[4]["channel"].get<std::string>().find("panda_"), std::string::npos);
  EXPECT_NE(a[4]["channel"].get<std::string>().find('/'), std::string::npos);
  EXPECT_EQ(a[2]["reason"], "none");
  EXPECT_EQ(a[3]["reason"], "stale_feed");
  EXPECT_EQ(a[3]["message"], "no sample for 0.2 s");
  EXPECT_EQ(a[4]["reason"], "stale_feed");
}

TEST(WatchProtocol, BadLinesAreAnsweredAndTheStreamGoesOn) {
  std::ostringstream out, err;
  std::istringstream in(std::string("not json\n") + R"({"q": [0, 0, 0, 0, 0, 0, 0]})" + "\n" +
                        R"({"t": 0.0, "q": [0, 0]})" + "\n" + R"({"t": 0.0, "q": [0, 0, 0, "x", 0, 0, 0]})" + "\n" +
                        sample(0.5, 0.0) + "\n" + sample(0.4, 0.0) + "\n" + "[1, 2]\n" + sample(0.6, 0.0) + "\n");
  ASSERT_EQ(run_watch_command(watch_options(""), in, out, err), 0) << err.str();
  const std::vector<json> a = watch_lines(out.str());
  ASSERT_EQ(a.size(), 8u);
  const char* expect[] = {"not valid JSON", "t: missing", "2 joint values", "q[3]: expected a number",
                          nullptr, "not after the last one", "a line is a JSON object", nullptr};
  for (int k = 0; k < 8; ++k) {
    if (expect[k]) {
      EXPECT_EQ(a[k]["status"], "error") << k;
      EXPECT_NE(a[k]["message"].get<std::string>().find(expect[k]), std::string::npos) << a[k].dump();
    } else {
      EXPECT_EQ(a[k]["status"], "ok") << k;
    }
  }
}

// attr="value" of the joint `joint`'s <limit> in the Panda URDF's text
// (found with a string search, not the URDF reader).
double panda_urdf_limit(const std::string& joint, const std::string& attr) {
  std::ifstream in(watch_panda_dir() / "panda.urdf");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::size_t j = text.find("<joint name=\"" + joint + "\"");
  const std::size_t limit = text.find("<limit ", j);
  const std::size_t at = text.find(" " + attr + "=\"", limit) + attr.size() + 3;
  return std::stod(text.substr(at, text.find('"', at) - at));
}

std::vector<json> watch_run(const WatchCommandOptions& o, const std::string& text) {
  std::istringstream in(text);
  std::ostringstream out, err;
  EXPECT_EQ(run_watch_command(o, in, out, err), 0) << err.str();
  return watch_lines(out.str());
}

TEST(WatchProtocol, AFeedStopNamesTheJointItsValueAndTheUrdfsLimit) {
  const double upper4 = panda_urdf_limit("panda_joint4", "upper");
  const double velocity1 = panda_urdf_limit("panda_joint1", "velocity");
  ASSERT_EQ(upper4, 0.0873);
  auto q = [](double t, double j1, double j4) {
    std::ostringstream s;
    s.precision(17);
    s << R"({"t": )" << t << R"(, "q": [)" << j1 << ", -0.785, 0, " << j4 << ", 0, 1.571, 0.785]}";
    return s.str() + "\n";
  };
  const std::vector<json> a = watch_run(watch_options(""), q(0.0, 0.0, -2.356) + q(0.032, 0.0, upper4 + 0.05) +
                                                               q(0.064, 0.0, upper4 + 0.05) + q(1.0, 0.0, -2.356) +
                                                               q(1.032, 0.2, -2.356) + q(1.064, 0.2, -2.356));
  ASSERT_EQ(a.size(), 6u);
  EXPECT_EQ(a[0]["reason"], "none");
  EXPECT_FALSE(a[0].contains("joint"));
  for (int k : {1, 2}) {
    EXPECT_EQ(a[k]["status"], "ok");
    EXPECT_EQ(a[k]["level"], "stop");
    EXPECT_EQ(a[k]["speed_factor"], 0.0);
    EXPECT_EQ(a[k]["reason"], "joint_limit");
    EXPECT_EQ(a[k]["joint"], "panda_joint4");
    EXPECT_DOUBLE_EQ(a[k]["value"].get<double>(), upper4 + 0.05);
    EXPECT_EQ(a[k]["limit"].get<double>(), upper4);
    const std::string m = a[k]["message"].get<std::string>();
    EXPECT_NE(m.find("panda_joint4 reads 0.1373 rad, above its upper limit 0.0873 rad"), std::string::npos) << m;
  }
  EXPECT_EQ(a[3]["reason"], "none");
  // 0.2 rad in 32 ms: 6.25 rad/s, beyond 1.5 × the URDF's velocity.
  ASSERT_GT(0.2 / 0.032, 1.5 * velocity1);
  EXPECT_EQ(a[4]["reason"], "joint_speed");
  EXPECT_EQ(a[4]["level"], "stop");
  EXPECT_EQ(a[4]["joint"], "panda_joint1");
  EXPECT_NEAR(a[4]["value"].get<double>(), 6.25, 1e-9);
  EXPECT_EQ(a[4]["limit"].get<double>(), velocity1);
  EXPECT_NE(a[4]["message"].get<std::string>().find("rad/s"), std::string::npos);
  EXPECT_EQ(a[5]["reason"], "none");
  EXPECT_EQ(a[5]["speed_factor"], 1.0);
  // Wider tolerances let the same samples through.
  WatchCommandOptions wide = watch_options("");
  wide.feed.angle_tolerance = 0.06;
  wide.feed.speed_tolerance = 3.0;
  for (const json& w : watch_run(wide, q(0.0, 0.0, upper4 + 0.05) + q(0.032, 0.2, upper4 + 0.05)))
    EXPECT_EQ(w["reason"], "none") << w.dump();
}

TEST(WatchProtocol, TimesOutOfOrderAreErrorLinesNotAnswers) {
  const std::vector<json> a = watch_run(watch_options(""), sample(0.1, 0.0) + "\n" + sample(0.1, 0.0) + "\n" +
                                                               R"({"t": 0.05})" + "\n" + R"({"t": 0.1})" + "\n" +
                                                               sample(0.2, 0.0) + "\n");
  ASSERT_EQ(a.size(), 5u);
  EXPECT_EQ(a[0]["status"], "ok");
  EXPECT_EQ(a[1]["status"], "error");
  EXPECT_NE(a[1]["message"].get<std::string>().find("not after the last one"), std::string::npos) << a[1].dump();
  EXPECT_EQ(a[1]["t"], 0.1);
  EXPECT_FALSE(a[1].contains("level"));
  EXPECT_EQ(a[2]["status"], "error");
  EXPECT_NE(a[2]["message"].get<std::string>().find("before the last sample"), std::string::npos) << a[2].dump();
  EXPECT_FALSE(a[2].contains("speed_factor"));
  EXPECT_EQ(a[3]["status"], "ok");  // a tick at the sample's own time
  EXPECT_EQ(a[3]["stale"], false);
  EXPECT_EQ(a[4]["status"], "ok");
}

TEST(WatchProtocol, RejectedSetUpsExitWithTheReason) {
  auto fails = [](const WatchCommandOptions& o, const std::string& part) {
    std::istringstream in;
    std::ostringstream out, err;
    EXPECT_EQ(run_watch_command(o, in, out, err), 1);
    EXPECT_NE(err.str().find(part), std::string::npos) << err.str();
  };
  fails(watch_options("/nonexistent/cell.json"), "environment file '/nonexistent/cell.json': no such file");
  const std::string bad = watch_file("watch_bad_env", "[{\"name\": \"t\"}");
  fails(watch_options(bad), "not valid JSON");
  std::filesystem::remove(bad);
  const std::string no_geometry = watch_file("watch_no_geometry", "[{\"name\": \"t\"}]");
  fails(watch_options(no_geometry), "environment[0]: missing \"geometry\"");
  std::filesystem::remove(no_geometry);
  const std::string typo = watch_file(
      "watch_touch_typo", R"([{"name": "table", "geometry": {"shape": "sphere", "radius": 0.1}, "touch_links": ["panda_hnd"]}])");
  fails(watch_options(typo), "environment object 'table': touch link 'panda_hnd' is not a link of robot 'panda'");
  std::filesystem::remove(typo);
  const std::string cloud = watch_file(
      "watch_bad_cloud", R"([{"name": "scan", "geometry": {"shape": "point_cloud", "voxel": 0, "points": [[0, 0, 0]]}}])");
  fails(watch_options(cloud), "environment[0].geometry: point cloud 'scan'");
  std::filesystem::remove(cloud);
  const std::string lost_tool = watch_file(
      "watch_lost_tool", R"({"attached": [{"name": "rod", "link": "panda_flange", "geometry": {"shape": "sphere", "radius": 0.1}}]})");
  fails(watch_options(lost_tool), "link 'panda_flange' is not a link of the robot");
  std::filesystem::remove(lost_tool);
  const std::string extra = watch_file("watch_extra_key", R"({"environmnet": []})");
  fails(watch_options(extra), "environmnet: unknown key (did you mean \"environment\"?)");
  std::filesystem::remove(extra);
  const std::pair<const char*, const char*> thresholds[] = {
      {R"({"tabel": {"stop": 0.02}})", "thresholds for 'tabel': no channel is named so"},
      {R"({"table": {"stpo": 0.02}})", "thresholds.table.stpo: unknown key (did you mean \"stop\"?)"},
      {R"({"table": {"stop": "2 cm"}})", "thresholds.table.stop: expected a number (got \"2 cm\")"},
      {R"({"table": {"stop": -0.01}})", "thresholds.table.stop: must be in [0, 1e+15] m (got -0.01)"},
      {R"({"table": 0.02})", "thresholds.table: expected an object with \"stop\""},
      {R"({"table": {}})", "thresholds for 'table': no distance given"},
      {R"({"table": {"stop": 0.2}})", "thresholds for channel 'table'"},
      {R"({"panda_link5/panda_link7": {"stop": 0.001}, "panda_link7/panda_link5": {"warn": 0.3}})", "given twice"},
      {R"([0.02])", "thresholds: expected an object of channel names"}};
  for (const auto& [given, part] : thresholds) {
    std::string text = R"({"environment": )";
    text.append(kTable).append(R"(, "thresholds": )").append(given).append("}");
    const std::string f = watch_file("watch_thresholds", text);
    fails(watch_options(f), part);
    std::filesystem::remove(f);
  }
  WatchCommandOptions o = watch_options("");
  o.tool = "panda_tip";
  fails(o, "no link 'panda_tip'");
  o = watch_options("");
  o.watchdog.stop_distance = 0.5;
  fails(o, "--stop 0.5, --slow 0.1, --warn 0.2: must be ordered stop < slow <= warn");
  o = watch_options("");
  o.watchdog.warn_distance = std::numeric_limits<double>::quiet_NaN();
  fails(o, "--warn nan must be finite");
  o = watch_options("");
  o.robot.urdf = "/nonexistent/robot.urdf";
  fails(o, "/nonexistent/robot.urdf");
}

// The ready pose swung about the base by `yaw`, as a JSON array.
std::string swung(double yaw) {
  std::ostringstream s;
  s << "[" << yaw << ", -0.785398, 0, -2.356194, 0, 1.570796, 0.785398]";
  return s.str();
}

TEST(WatchProtocol, AProgramFromTheCellFileIsFollowedAndALineReplacesOrClearsIt) {
  // A swing about the base from bearing 0 to 1 rad in 2 s; the samples
  // follow it at full speed, then leave it by 0.1 rad at the elbow.
  const std::string cell = watch_file(
      "watch_program", std::string(R"({"environment": )") + kTable + R"(, "program": {"waypoints": [{"t": 0, "q": )" +
                           swung(0.0) + R"(}, {"t": 2, "q": )" + swung(1.0) + "}]}}");
  std::string lines;
  for (int k = 0; k < 5; ++k) lines += R"({"t": )" + std::to_string(0.032 * k) + R"(, "q": )" + swung(0.016 * k) + "}\n";
  lines += R"({"t": 0.2, "q": [0.08, -0.785398, 0, -2.256194, 0, 1.570796, 0.785398]})" "\n";
  // Replaced by a segment back to bearing 0 at 0.5 rad/s, from the next sample.
  lines += R"({"t": 0.25, "program": {"to": )" + swung(0.0) + R"(, "speed": 0.5}, "q": )" + swung(0.1) + "}\n";
  lines += R"({"t": 0.3, "program": null, "q": )" + swung(0.09) + "}\n";
  const std::vector<json> a = watch_run(watch_options(cell), lines);
  ASSERT_EQ(a.size(), 8u);
  for (int k = 0; k < 5; ++k) {
    ASSERT_EQ(a[k]["status"], "ok") << a[k].dump();
    EXPECT_EQ(a[k]["path"], "program") << k;
    EXPECT_NEAR(a[k]["deviation"].get<double>(), 0.0, 1e-6) << k;
    EXPECT_NEAR(a[k]["program_time"].get<double>(), 0.032 * k, 1e-6) << k;
    EXPECT_EQ(a[k]["off_program"], false) << k;
  }
  // 0.1 rad off at the elbow (tolerance 0.05): flagged, a warning at least.
  EXPECT_EQ(a[5]["path"], "program");
  EXPECT_NEAR(a[5]["deviation"].get<double>(), 0.1, 1e-6);
  EXPECT_EQ(a[5]["off_program"], true);
  EXPECT_NE(a[5]["level"], "clear");
  // The segment starts at its own sample: program time 0, no deviation.
  EXPECT_EQ(a[6]["path"], "program");
  EXPECT_EQ(a[6]["program_time"], 0.0);
  EXPECT_EQ(a[6]["deviation"], 0.0);
  // Cleared: the prediction, no deviation.
  EXPECT_EQ(a[7]["path"], "prediction");
  EXPECT_TRUE(a[7]["deviation"].is_null());
  EXPECT_EQ(a[7]["off_program"], false);
  std::filesystem::remove(cell);
}

TEST(WatchProtocol, ProgramsAreParsedStrictlyNamingTheKey) {
  const std::string q = swung(0.0);
  const std::string lines =
      std::string(R"({"t": 0, "q": )") + q + ", \"qq\": 1}\n" +                                  // unknown key
      R"({"t": 0, "program": {"waypoints": [{"t": 0, "q": )" + q + R"(, "dt": 1}]}})" + "\n" +   // unknown waypoint key
      R"({"t": 0, "program": {"waypoints": [{"q": )" + q + "}]}}\n" +                            // no t
      R"({"t": 0, "program": {"waypoints": [{"t": 1, "q": )" + q + R"(}, {"t": 1, "q": )" + q + "}]}}\n" +
      R"({"t": 0, "program": {"to": )" + q + R"(, "speed": 0}})" + "\n" +
      R"({"t": 0, "program": {"to": )" + q + "}}\n" +
      R"({"t": 0, "program": {"to": [0, 0], "speed": 1}})" + "\n" +
      R"({"t": 0, "program": {"to": [0, -0.785, 0, -2.356, 0, 1.571, 9], "speed": 1}})" + "\n" +
      R"({"t": 0, "program": {"to": )" + q + R"(, "speed": 1, "waypoints": []}})" + "\n" +
      R"({"t": 0, "program": [1]})" + "\n" +
      R"({"t": 0, "program": {"to": )" + q + R"(, "speed": "fast"}})" + "\n";
  const std::vector<json> a = watch_run(watch_options(""), lines);
  const char* expect[] = {"qq: unknown key (did you mean \"q\"?)",
                          "program.waypoints[0].dt: unknown key (did you mean \"t\"?)",
                          "program.waypoints[0]: missing \"t\"",
                          "waypoints[1].t: 1 must be after waypoints[0].t (1)",
                          "program.speed: must be in (0, 1e+15] rad/s (got 0)",
                          "missing \"speed\"",
                          "to: has 2 values, the robot has 7 joints",
                          "to[6] (panda_joint7): 9 is outside the joint's limits",
                          "not both",
                          "program: expected an object",
                          "program.speed: expected a number"};
  ASSERT_EQ(a.size(), std::size(expect));
  for (std::size_t k = 0; k < a.size(); ++k) {
    EXPECT_EQ(a[k]["status"], "error") << k;
    EXPECT_NE(a[k]["message"].get<std::string>().find(expect[k]), std::string::npos) << a[k].dump();
  }
  // In the cell file: the command refuses to start.
  const std::string bad = watch_file("watch_bad_program", std::string(R"({"program": {"to": )") + q + R"(, "speed": -1}})");
  std::istringstream in;
  std::ostringstream out, err;
  EXPECT_EQ(run_watch_command(watch_options(bad), in, out, err), 1);
  EXPECT_NE(err.str().find("program.speed: must be in (0, 1e+15] rad/s (got -1)"), std::string::npos) << err.str();
  std::filesystem::remove(bad);
}

}  // namespace
}  // namespace proxima::apps
