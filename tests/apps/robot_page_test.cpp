// SPDX-License-Identifier: BSD-3-Clause
// The robot and watch pages' data (robot_page.hpp, watch_page.hpp): each
// link's clearance against closed forms and the robot layer's own distance
// answers, the frames a run keeps, and the strict --html flag.
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include <gtest/gtest.h>

#include <proxima/robot/scene_checker.hpp>

#include "link_clearance.hpp"
#include "robot_page.hpp"
#include "robot_protocol.hpp"
#include "watch_page.hpp"
#include "watch_protocol.hpp"

namespace proxima::apps {
namespace {

using nlohmann::json;
using namespace proxima::robot;

// A box base, a carriage sliding along x (no geometry) and a ball 0.5 m
// above it: the base and the ball are the one checked self pair.
constexpr const char* kSlider = R"(<?xml version="1.0"?>
<robot name="slider">
  <link name="base"><collision><geometry><box size="0.2 0.2 0.2"/></geometry></collision></link>
  <link name="carriage"/>
  <link name="ball"><collision><geometry><sphere radius="0.1"/></geometry></collision></link>
  <joint name="slide" type="prismatic"><parent link="base"/><child link="carriage"/><axis xyz="1 0 0"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <joint name="mount" type="fixed"><parent link="carriage"/><child link="ball"/><origin xyz="0 0 0.5"/></joint>
</robot>)";

SceneChecker slider() {
  RobotCommandOptions o;
  o.urdf_xml = kSlider;
  return load_robot_checker(o);
}

// A wall whose face toward the robot is the plane x = 0.55.
Environment wall() {
  Environment env;
  env.add("wall", Box(Vec3(0.1, 1.0, 1.0)), Transform(Mat3::Identity(), Vec3(0.6, 0.0, 0.5)));
  return env;
}

std::filesystem::path panda_dir() {
  return std::filesystem::path(__FILE__).parent_path().parent_path() / "data" / "robots" / "panda";
}

const SceneChecker& panda() {
  static const SceneChecker c = [] {
    RobotCommandOptions o;
    o.urdf = (panda_dir() / "panda.urdf").string();
    o.srdf = (panda_dir() / "panda.srdf").string();
    return load_robot_checker(o);
  }();
  return c;
}

int link_of(const SceneChecker& c, const std::string& name) {
  const auto& links = c.model().links();
  for (std::size_t i = 0; i < links.size(); ++i)
    if (links[i].name == name) return static_cast<int>(i);
  ADD_FAILURE() << "no link " << name;
  return -1;
}

TEST(LinkClearance, SliderAgainstClosedForms) {
  const SceneChecker c = slider();
  const LinkClearance clearance(c);
  const Environment env = wall();
  int checked = 0;
  for (const double x : {-0.2, 0.0, 0.05, 0.3}) {
    const std::vector<double> q{x};
    const RobotState s = c.state(q);
    ASSERT_EQ(s.status, Status::ok);
    const LinkClearances got = clearance.at(s, env);
    // Ball centre (x, 0, 0.5), radius 0.1; base box [−0.1, 0.1]³; wall face x = 0.55.
    const double dx = std::max(0.0, std::abs(x) - 0.1);
    const double self = std::hypot(dx, 0.5 - 0.1) - 0.1;
    const double ball = std::min(self, 0.55 - x - 0.1);
    const double base = std::min(self, 0.55 - 0.1);
    EXPECT_NEAR(got.per_link[static_cast<std::size_t>(link_of(c, "ball"))], ball, 1e-9) << x;
    EXPECT_NEAR(got.per_link[static_cast<std::size_t>(link_of(c, "base"))], base, 1e-9) << x;
    EXPECT_TRUE(std::isinf(got.per_link[static_cast<std::size_t>(link_of(c, "carriage"))])) << "no geometry";
    ASSERT_TRUE(got.closest.found);
    EXPECT_NEAR(got.closest.distance, std::min(ball, base), 1e-9) << x;
    checked += 5;
  }
  // At x = 0.3 the ball is nearest the wall: the segment runs along x between the ball and the face.
  const LinkClearances near = clearance.at(c.state(std::vector<double>{0.3}), env);
  EXPECT_EQ(near.closest.pair.link_name, "ball");
  EXPECT_EQ(near.closest.pair.other_name, "wall");
  EXPECT_NEAR((near.closest.point_link - Vec3(0.4, 0, 0.5)).norm(), 0.0, 1e-9);
  EXPECT_NEAR((near.closest.point_other - Vec3(0.55, 0, 0.5)).norm(), 0.0, 1e-9);
  EXPECT_EQ(checked, 20);
}

TEST(LinkClearance, PandaMatchesTheSceneCheckersDistances) {
  const SceneChecker& c = panda();
  const LinkClearance clearance(c);
  Environment env;
  env.add("table", Box(Vec3(1.5, 1.5, 0.1)), Transform(Mat3::Identity(), Vec3(0.2, 0, -0.08)));
  env.add("post", Cylinder(0.05, 1.0), Transform(Mat3::Identity(), Vec3(0.45, 0.25, 0.5)));
  const std::vector<std::vector<double>> qs{{0, -0.785, 0, -2.356, 0, 1.571, 0.785},
                                            {0.6, 0.3, 0, -1.8, 0, 2.0, 0.785},
                                            {0, 0, 0, -2.5, 0, 0, 0}};
  int compared = 0;
  for (const auto& q : qs) {
    const RobotState s = c.state(q);
    ASSERT_EQ(s.status, Status::ok);
    const LinkClearances got = clearance.at(s, env);
    const DistanceReport self = c.self_distance(s), objects = c.environment_distance(s, env);
    ASSERT_TRUE(self.found && objects.found);
    // The links the robot layer names are no farther than its distances, and none is nearer than the nearest pair.
    EXPECT_LE(got.per_link[static_cast<std::size_t>(objects.pair.link)], objects.distance + 1e-9);
    EXPECT_LE(got.per_link[static_cast<std::size_t>(self.pair.link)], self.distance + 1e-9);
    EXPECT_LE(got.per_link[static_cast<std::size_t>(self.pair.other)], self.distance + 1e-9);
    double smallest = std::numeric_limits<double>::infinity();
    for (double d : got.per_link) smallest = std::min(smallest, d);
    EXPECT_NEAR(smallest, std::min(self.distance, objects.distance), 1e-9);
    EXPECT_NEAR(got.closest.distance, std::min(self.distance, objects.distance), 1e-9);
    // Each link's value from the robot layer pair by pair: every self pair on its own (a checker
    // checking only that pair), and the objects with only that link checked against them.
    const std::size_t n = got.per_link.size();
    std::vector<double> expected(n, std::numeric_limits<double>::infinity());
    for (const auto& [a, b] : c.self_pairs()) {
      AllowedCollisionMatrix only(n);
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = i + 1; j < n; ++j) only.set_allowed(static_cast<int>(i), static_cast<int>(j));
      only.set_allowed(a, b, false);
      const DistanceReport d = SceneChecker(c.geometry(), only).self_distance(s);
      ASSERT_TRUE(d.found);
      for (const int l : {a, b})
        expected[static_cast<std::size_t>(l)] = std::min(expected[static_cast<std::size_t>(l)], d.distance);
    }
    for (std::size_t l = 0; l < n; ++l) {
      if (!c.geometry().has_geometry(static_cast<int>(l))) continue;
      Environment own = env;
      for (EnvironmentObject& o : own.objects)
        for (std::size_t k = 0; k < n; ++k)
          if (k != l) o.touch_links.push_back(c.model().links()[k].name);
      const DistanceReport alone = c.environment_distance(s, own);
      ASSERT_TRUE(alone.found);
      expected[l] = std::min(expected[l], alone.distance);
      EXPECT_NEAR(got.per_link[l], expected[l], 1e-9) << c.model().links()[l].name;
      ++compared;
    }
  }
  EXPECT_GE(compared, 3 * 9);
}

TEST(RobotPage, ConfigurationsBecomeFramesWithClearances) {
  const SceneChecker c = slider();
  const std::string wall_json =
      R"([{"name": "wall", "geometry": {"shape": "box", "size": [0.1, 1, 1]}, "pose": {"p": [0.6, 0, 0.5]}}])";
  std::istringstream in(R"({"id": 1, "q": [0.3], "environment": )" + wall_json + R"(}
{"id": 2, "q": [0.4, 1]}
{"id": 3, "scene": )" + wall_json + R"(}
{"id": 4, "q": [0.0]}
{"id": 5, "q": [0.3]}
)");
  std::ostringstream out;
  json data;
  EXPECT_EQ(run_robot_stream_with_page(c, in, out, nullptr, "slider", data), 1);
  const json& frames = data["frames"];
  ASSERT_EQ(frames.size(), 3u) << "ids 1, 4 and 5; the error and the scene line are not drawn";
  EXPECT_EQ(data["links"], json::parse(R"(["base", "ball"])"));
  EXPECT_EQ(data["colour_scale"]["unit"], "m");
  EXPECT_NE(data["title"].get<std::string>().find("3 configurations"), std::string::npos);
  // The base and the wall stay put: static; the ball moves.
  int moving = 0, links = 0;
  for (const json& b : data["bodies"]) {
    if (!b["static"].get<bool>()) ++moving;
    if (b.contains("link")) ++links;
    if (b["name"] == "ball") {
      EXPECT_FALSE(b["static"].get<bool>());
    } else {
      EXPECT_TRUE(b["static"].get<bool>()) << b["name"];  // the base and the wall
    }
  }
  EXPECT_EQ(moving, 1);
  EXPECT_EQ(links, 2);
  const double self0 = std::hypot(0.2, 0.4) - 0.1;
  const double expected[3][2] = {{self0, 0.15}, {0.3, 0.3}, {self0, 0.15}};  // [frame][base, ball]
  for (std::size_t f = 0; f < 3; ++f) {
    ASSERT_EQ(frames[f]["poses"].size(), 1u);
    ASSERT_EQ(frames[f]["clearances"].size(), 2u);
    EXPECT_NEAR(frames[f]["clearances"][0].get<double>(), expected[f][0], 1e-6) << f;
    EXPECT_NEAR(frames[f]["clearances"][1].get<double>(), expected[f][1], 1e-6) << f;
    ASSERT_EQ(frames[f]["segments"].size(), 1u);
  }
  EXPECT_NE(frames[0]["label"].get<std::string>().find("id 1, closest ball to wall 150.0 mm"), std::string::npos)
      << frames[0]["label"];
  EXPECT_NEAR(frames[0]["poses"][0][0].get<double>(), 0.3, 1e-9);
  // The answers themselves are the stream's: four lines answered, one an error.
  std::istringstream answers(out.str());
  std::string line;
  int n = 0;
  while (std::getline(answers, line)) ++n;
  EXPECT_EQ(n, 5);
}

// An answer as `proxima watch` writes it, with the fields the page reads.
json watch_answer(double t, const std::string& level, double speed, double clearance) {
  return {{"t", t}, {"status", "ok"}, {"level", level}, {"speed_factor", speed}, {"clearance", clearance},
          {"channel", "wall"}, {"reason", level == "clear" ? "none" : "clearance"}};
}

TEST(WatchPage, KeepsAtMostTheBudgetAndTheWorstBetweenFrames) {
  const SceneChecker c = slider();
  const Environment env = wall();
  WatchRecorder recorder(c, env, {0.01, 0.2});
  recorder.observe(json::object({{"t", 0.0}}), watch_answer(0.0, "clear", 1.0, 0.5));  // a tick before any sample
  EXPECT_EQ(recorder.answers(), 0);
  for (int i = 0; i < 10; ++i) {
    const double t = 0.1 * i, x = 0.03 * i;
    const bool stop = i == 4;
    recorder.observe({{"t", t}, {"q", {x}}},
                     watch_answer(t, stop ? "stop" : "clear", stop ? 0.0 : 1.0, 0.55 - x - 0.1));
  }
  EXPECT_EQ(recorder.answers(), 10);
  const json d = recorder.data("slider", 4);
  const json& frames = d["frames"];
  // Records 0, 3, 6 and 9.
  ASSERT_EQ(frames.size(), 4u);
  const int steps[] = {0, 3, 6, 9};
  for (std::size_t f = 0; f < 4; ++f) EXPECT_EQ(frames[f]["step"], steps[f]);
  EXPECT_EQ(d["strip"], true);
  ASSERT_EQ(d["timelines"].size(), 3u);
  EXPECT_EQ(d["timelines"][1]["name"], "level");
  // The stop at record 4 shows in the frame of record 6, which stands for records 4 to 6.
  EXPECT_EQ(d["timelines"][1]["values"], json::parse("[0, 0, 3, 0]"));
  EXPECT_EQ(d["timelines"][2]["values"], json::parse("[1, 1, 0, 1]"));
  // The clearance timeline is the smallest of those records: the last one's, x = 0.18 at record 6.
  EXPECT_NEAR(d["timelines"][0]["values"][2].get<double>(), 0.55 - 0.18 - 0.1, 1e-9);
  // The ball's clearance in the last frame (x = 0.27) is the wall's closed form.
  EXPECT_NEAR(frames[3]["clearances"][1].get<double>(), 0.55 - 0.27 - 0.1, 1e-6);
  EXPECT_EQ(d["colour_scale"]["near"], 0.01);
  EXPECT_EQ(d["colour_scale"]["far"], 0.2);
  EXPECT_THROW(recorder.data("slider", 1), Error);
  // Fewer answers than the budget: every one is a frame.
  EXPECT_EQ(recorder.data("slider", 600)["frames"].size(), 10u);
}

bool libjs_three_installed() {
  const char* prefix = std::getenv("PROXIMA_LIBJS_THREE_PREFIX");
  return std::filesystem::exists(std::string(prefix ? prefix : "/usr") + "/share/javascript/three/three.min.js");
}

// The data object of a page file.
json page_data(const std::filesystem::path& page) {
  std::ifstream in(page);
  std::stringstream text;
  text << in.rdbuf();
  const std::string tag = R"(<script type="application/json" id="proxima-data">)";
  const std::size_t start = text.str().find(tag);
  if (start == std::string::npos) return nullptr;
  const std::size_t from = start + tag.size();
  return json::parse(text.str().substr(from, text.str().find("</script>", from) - from));
}

TEST(WatchPage, TheCommandWritesTheRun) {
  if (!libjs_three_installed()) GTEST_SKIP() << "libjs-three is not installed";
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "proxima_watch_page_test";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "slider.urdf") << kSlider;
  std::ofstream(dir / "cell.json") << R"({"environment": [{"name": "wall", "geometry": {"shape": "box",)"
                                   << R"( "size": [0.1, 1, 1]}, "pose": {"p": [0.6, 0, 0.5]}}]})";
  WatchCommandOptions o;
  o.robot.urdf = (dir / "slider.urdf").string();
  o.environment = (dir / "cell.json").string();
  o.html_path = (dir / "watch.html").string();
  // A tick before any sample (nothing to draw), five samples, an error line (not drawn), a tick after them.
  std::istringstream in(R"({"t": 0}
{"t": 0.1, "q": [0]}
{"t": 0.2, "q": [0.05]}
{"t": 0.3, "q": [0.1]}
{"t": 0.4, "q": [0.15]}
{"t": 0.5, "q": [0.2]}
{"t": 0.45, "q": [0.2]}
{"t": 0.6}
)");
  std::ostringstream out, err;
  ASSERT_EQ(run_watch_command(o, in, out, err), 0) << err.str();
  const json d = page_data(dir / "watch.html");
  ASSERT_TRUE(d.is_object());
  const json& frames = d["frames"];
  ASSERT_EQ(frames.size(), 6u);
  EXPECT_EQ(d["strip"], true);
  EXPECT_EQ(d["colour_scale"]["near"], 0.01);
  EXPECT_NEAR(frames[5]["time"].get<double>(), 0.6, 1e-12);
  // The tick draws the robot at the last sample: the ball 0.55 − 0.2 − 0.1 from the wall.
  EXPECT_NEAR(frames[5]["clearances"][1].get<double>(), 0.25, 1e-6);
  EXPECT_NEAR(frames[0]["clearances"][1].get<double>(), 0.3, 1e-6) << "the base, 0.3 below, is nearer than the wall";
  EXPECT_NE(d["title"].get<std::string>().find("6 answers, 6 frames"), std::string::npos) << d["title"];
  std::filesystem::remove_all(dir);
}

TEST(RobotPage, HtmlFlagIsStrict) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "proxima_robot_page_test";
  std::filesystem::create_directories(dir);
  const std::string missing_dir = (dir / "no" / "such" / "page.html").string();
  int refused = 0;
  for (const auto& [path, needle] : {std::pair<std::string, std::string>{"", "--html: needs a file name"},
                                     std::pair<std::string, std::string>{missing_dir, "--html: " + missing_dir}}) {
    RobotCommandOptions o;
    o.urdf_xml = kSlider;
    o.html_path = path;
    std::istringstream in(R"({"q": [0]})");
    std::ostringstream out, err;
    EXPECT_EQ(run_robot_command(o, in, out, err), 1);
    EXPECT_NE(err.str().find(needle), std::string::npos) << err.str();
    EXPECT_EQ(out.str(), "") << "refused before the stream";
    WatchCommandOptions w;
    w.robot = o;
    w.robot.urdf_xml.clear();
    w.robot.urdf = (dir / "never_read.urdf").string();
    w.html_path = path;
    std::istringstream win(R"({"t": 0, "q": [0]})");
    std::ostringstream wout, werr;
    EXPECT_EQ(run_watch_command(w, win, wout, werr), 1);
    EXPECT_NE(werr.str().find(needle), std::string::npos) << werr.str();
    refused += 2;
  }
  EXPECT_EQ(refused, 4);
  // A page that can be written: the robot command writes one, with the data object in it.
  RobotCommandOptions o;
  o.urdf_xml = kSlider;
  o.html_path = (dir / "slider.html").string();
  std::istringstream in(R"({"q": [0.1]})");
  std::ostringstream out, err;
  if (!libjs_three_installed()) GTEST_SKIP() << "libjs-three is not installed";
  ASSERT_EQ(run_robot_command(o, in, out, err), 0) << err.str();
  const json d = page_data(*o.html_path);
  ASSERT_TRUE(d.is_object());
  EXPECT_EQ(d["frames"].size(), 1u);
  EXPECT_EQ(d["links"], json::parse(R"(["base", "ball"])"));
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace proxima::apps
