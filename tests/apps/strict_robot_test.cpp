// SPDX-License-Identifier: BSD-3-Clause
// `proxima robot` requests, `proxima watch` lines, cell files and programs
// are read strictly: a misspelt, unknown or repeated key, or a number out of
// range, is an error naming the field and its place.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>
#include <unistd.h>

#include <gtest/gtest.h>

#include "robot_protocol.hpp"
#include "watch_protocol.hpp"

namespace proxima::apps {
namespace {

using nlohmann::json;

std::filesystem::path strict_panda_dir() {
  return std::filesystem::path(__FILE__).parent_path().parent_path() / "data" / "robots" / "panda";
}

RobotCommandOptions strict_panda_options() {
  RobotCommandOptions o;
  o.urdf = (strict_panda_dir() / "panda.urdf").string();
  o.srdf = (strict_panda_dir() / "panda.srdf").string();
  return o;
}

const robot::SceneChecker& strict_panda() {
  static const robot::SceneChecker c = load_robot_checker(strict_panda_options());
  return c;
}

constexpr const char* kStrictReady = "[0, -0.785, 0, -2.356, 0, 1.571, 0.785]";
constexpr const char* kStrictTable =
    R"({"name": "table", "geometry": {"shape": "box", "size": [1.5, 1.5, 0.1]}, "pose": {"p": [0.2, 0, -0.08]}})";

// The answers of one robot stream to `lines` (one request a line).
std::vector<json> robot_stream(const std::string& lines) {
  std::istringstream in(lines);
  std::ostringstream out;
  run_robot_stream(strict_panda(), in, out);
  std::vector<json> a;
  std::istringstream answers(out.str());
  std::string l;
  while (std::getline(answers, l)) a.push_back(json::parse(l));
  return a;
}

struct RobotRefused {
  std::string request;
  std::string message;
};

int expect_robot_refused(const std::vector<RobotRefused>& cases) {
  int checked = 0;
  for (const RobotRefused& c : cases) {
    const std::vector<json> a = robot_stream(c.request + "\n");
    EXPECT_EQ(a.size(), 1u) << c.request;
    if (a.size() != 1) continue;
    EXPECT_EQ(a[0]["status"], "error") << c.request << " → " << a[0].dump();
    EXPECT_EQ(a[0].value("message", ""), c.message) << c.request;
    ++checked;
  }
  return checked;
}

// Appended in place: GCC 12 at -O3 reports a false -Warray-bounds on the
// chain of operator+ over temporaries that this line used to be.
std::string robot_line(const std::string& extra) {
  std::string line = R"({"id": 1, "q": )";
  line.append(kStrictReady).append(", ").append(extra).append("}");
  return line;
}

TEST(StrictRobot, AMisspeltEnvironmentIsAnErrorNotAnEmptyScene) {
  // Spelt right, the table is there: its distance is measured.
  const std::vector<json> ok = robot_stream(robot_line(std::string(R"("environment": [)") + kStrictTable + "]") + "\n");
  ASSERT_EQ(ok.size(), 1u);
  ASSERT_EQ(ok[0]["status"], "ok") << ok[0].dump();
  EXPECT_EQ(ok[0]["environment_distance"]["other"], "table");
  const int n = expect_robot_refused({
      {robot_line(std::string(R"("enviroment": [)") + kStrictTable + "]"), "enviroment: unknown key (did you mean \"environment\"?)"},
      {robot_line(R"("tolerence": 0.05)"), "tolerence: unknown key (did you mean \"tolerance\"?)"},
      {robot_line(R"("Base": {"p": [0, 0, 0]})"), "Base: unknown key (did you mean \"base\"?)"},
  });
  EXPECT_EQ(n, 3);
}

TEST(StrictRobot, MisspeltKeysInNestedObjectsAndArrayElementsNameThePath) {
  const int n = expect_robot_refused({
      {robot_line(R"("base": {"position": [0, 0, 0]})"), "base.position: unknown key (expected \"p\" or \"q\")"},
      {robot_line(std::string(R"("environment": [)") + kStrictTable +
              R"(, {"name": "box", "geometry": {"shape": "sphere", "raduis": 0.1, "radius": 0.1}}])"),
       "environment[1].geometry.raduis: unknown key (did you mean \"radius\"?)"},
      {robot_line(std::string(R"("environment": [)") + kStrictTable + R"(, {"name": "b", "geometry": {"shape": "sphere", "radius": 0.1}, "pse": {}}])"),
       "environment[1].pse: unknown key (did you mean \"pose\"?)"},
      {robot_line(R"("environment": [{"name": "b", "geometry": {"shape": "sphere", "radius": 0.1}, "pose": {"p": [1, 0, 0], "qq": [1, 0, 0, 0]}}])"),
       "environment[0].pose.qq: unknown key (did you mean \"q\"?)"},
      {robot_line(R"("attached": [{"name": "tool", "link": "panda_hand", "geometry": {"shape": "sphere", "radius": 0.02}, "touch_link": ["panda_hand"]}])"),
       "attached[0].touch_link: unknown key (did you mean \"touch_links\"?)"},
      {robot_line(R"("environment": [{"name": "scan", "geometry": {"shape": "point_cloud", "points": [[1, 0, 0]], "voxel": 0.05, "min_point": 2}}])"),
       "environment[0].geometry.min_point: unknown key (did you mean \"min_points\"?)"},
      {robot_line(std::string(R"("q_end": )") + kStrictReady + R"(, "motion": {"clearence": 0.01})"),
       "motion.clearence: unknown key (did you mean \"clearance\"?)"},
  });
  EXPECT_EQ(n, 7);
}

TEST(StrictRobot, DuplicateKeysAreErrorsNamingThePlace) {
  const int n = expect_robot_refused({
      {std::string(R"({"q": )") + kStrictReady + R"(, "q": )" + kStrictReady + "}", "q: duplicate key"},
      {robot_line(R"("environment": [{"name": "a", "geometry": {"shape": "sphere", "radius": 0.1}}, {"name": "b", "name": "c", "geometry": {"shape": "sphere", "radius": 0.1}}])"),
       "environment[1].name: duplicate key"},
  });
  EXPECT_EQ(n, 2);
}

TEST(StrictRobot, NumbersOutOfRangeNameTheField) {
  const int n = expect_robot_refused({
      {robot_line(R"("tolerance": 1e308)"), "tolerance: must be in [0, 1e+15] m (got 1e+308)"},
      {robot_line(R"("tolerance": "0.1")"), "tolerance: expected a number (got \"0.1\")"},
      {std::string(R"({"q": [0, -0.785, 0, 1e300, 0, 1.571, 0.785]})"),
       "q[3]: must be in [-1e+15, 1e+15] (got 1e+300)"},
      {robot_line(std::string(R"("q_end": )") + kStrictReady + R"(, "motion": {"max_iterations": 0})"),
       "motion.max_iterations: expected an integer from 1 to 100000000 (got 0)"},
      {robot_line(std::string(R"("q_end": )") + kStrictReady + R"(, "motion": {"accuracy": 0})"),
       "motion.accuracy: must be in (0, 1e+15] m (got 0)"},
      {robot_line(R"("motion": {"clearance": 0.01})"), "motion: applies to a request with \"q_end\" (the segment q → q_end)"},
  });
  EXPECT_EQ(n, 6);
}

TEST(StrictRobot, ABadSceneLineChangesNothing) {
  const std::string scene = std::string(R"({"id": "s", "scene": [)") + kStrictTable + "]}";
  const std::string bad = std::string(R"({"id": "b", "scene": [], "tolerence": 1})");
  const std::vector<json> a = robot_stream(scene + "\n" + bad + "\n" + std::string(R"({"id": "q", "q": )") + kStrictReady + "}\n");
  ASSERT_EQ(a.size(), 3u);
  EXPECT_EQ(a[0]["scene_objects"], 1);
  EXPECT_EQ(a[1]["status"], "error");
  EXPECT_EQ(a[1]["message"], "tolerence: unknown key (did you mean \"tolerance\"?)");
  // The table of the first line is still the scene.
  EXPECT_EQ(a[2]["environment_distance"]["other"], "table") << a[2].dump();
}

// A file of its own per test (ctest runs tests in parallel).
std::string strict_file(const std::string& name, const std::string& text) {
  const auto p = std::filesystem::temp_directory_path() / (name + "_" + std::to_string(::getpid()) + ".json");
  std::ofstream(p) << text;
  return p.string();
}

WatchCommandOptions strict_watch_options(const std::string& environment) {
  WatchCommandOptions o;
  o.robot = strict_panda_options();
  o.environment = environment;
  return o;
}

// The command's stderr for a cell file that must be refused (exit code 1).
std::string watch_refusal(const std::string& name, const std::string& cell) {
  const std::string path = strict_file(name, cell);
  std::istringstream in;
  std::ostringstream out, err;
  EXPECT_EQ(run_watch_command(strict_watch_options(path), in, out, err), 1) << cell;
  std::filesystem::remove(path);
  return err.str();
}

TEST(StrictWatch, CellFilesAreReadStrictly) {
  struct Case {
    const char* cell;
    const char* message;
  };
  const std::vector<Case> cases = {
      {R"({"enviroment": []})", "enviroment: unknown key (did you mean \"environment\"?)"},
      {R"({"environment": [{"name": "t", "geometry": {"shape": "box", "size": [1, 1, 1], "margn": 0.01}}]})",
       "environment[0].geometry.margn: unknown key (did you mean \"margin\"?)"},
      {R"({"environment": [], "environment": []})", "environment: duplicate key"},
      {R"({"thresholds": {"self": {"stop": 0.01, "slw": 0.1}}})", "thresholds.self.slw: unknown key (did you mean \"slow\"?)"},
      {R"({"thresholds": {"self": {"stop": 1e300}}})", "thresholds.self.stop: must be in [0, 1e+15] m (got 1e+300)"},
      {R"({"program": {"to": [0, 0, 0, -1, 0, 1, 0], "speed": 1, "sped": 1}})",
       "program.sped: unknown key (did you mean \"speed\"?)"},
      {R"({"program": {"to": [0, 0, 0, -1, 0, 1, 0], "sped": 1}})",
       "program: missing \"speed\" (rad/s of the joint moving most); is \"sped\" a typo of it?"},
      {R"([{"name": "t", "geometry": {"shape": "sphere", "radius": 0.1}, "groop": "g"}])",
       "environment[0].groop: unknown key (did you mean \"group\"?)"},
  };
  int checked = 0;
  for (const Case& c : cases) {
    const std::string err = watch_refusal("strict_cell", c.cell);
    EXPECT_NE(err.find(c.message), std::string::npos) << c.cell << " → " << err;
    ++checked;
  }
  EXPECT_EQ(checked, 8);
}

std::vector<json> watch_stream(const std::string& lines) {
  std::istringstream in(lines);
  std::ostringstream out, err;
  EXPECT_EQ(run_watch_command(strict_watch_options(""), in, out, err), 0) << err.str();
  std::vector<json> a;
  std::istringstream answers(out.str());
  std::string l;
  while (std::getline(answers, l)) a.push_back(json::parse(l));
  return a;
}

TEST(StrictWatch, LinesAreReadStrictly) {
  const std::string q = kStrictReady;
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"({"t": 0, "Q": )" + q + "}", "Q: unknown key (did you mean \"q\"?)"},
      {R"({"t": 0, "t": 1, "q": )" + q + "}", "t: duplicate key"},
      {R"({"t": 1e300, "q": )" + q + "}", "t: must be in [-1e+15, 1e+15] s (got 1e+300)"},
      {R"({"t": 0, "program": {"waypoints": [{"t": 0, "q": )" + q + R"(}, {"t": 1, "q": )" + q + R"(, "tt": 2}]}})",
       "program.waypoints[1].tt: unknown key (did you mean \"t\"?)"},
      {R"({"t": 0, "program": {"to": )" + q + R"(, "speed": 1e300}})", "program.speed: must be in (0, 1e+15] rad/s (got 1e+300)"},
  };
  std::string lines;
  for (const auto& c : cases) lines += c.first + "\n";
  const std::vector<json> a = watch_stream(lines);
  ASSERT_EQ(a.size(), cases.size());
  int checked = 0;
  for (std::size_t k = 0; k < a.size(); ++k) {
    EXPECT_EQ(a[k]["status"], "error") << cases[k].first;
    EXPECT_EQ(a[k].value("message", ""), cases[k].second) << cases[k].first;
    ++checked;
  }
  EXPECT_EQ(checked, 5);
}

}  // namespace
}  // namespace proxima::apps
