// SPDX-License-Identifier: BSD-3-Clause
// `proxima robot`: the JSON-lines answers for the Panda (tests/data/robots).
#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include <gtest/gtest.h>

#include <proxima/robot/attached_object.hpp>
#include <proxima/robot/point_cloud.hpp>

#include "../robot/robot_test_support.hpp"
#include "../support/test_shapes.hpp"
#include "robot_protocol.hpp"

namespace proxima::apps {
namespace {

using nlohmann::json;

std::filesystem::path robot_protocol_panda_dir() {
  return std::filesystem::path(__FILE__).parent_path().parent_path() / "data" / "robots" / "panda";
}

const robot::SceneChecker& robot_protocol_panda() {
  static const robot::SceneChecker c = [] {
    RobotCommandOptions o;
    o.urdf = (robot_protocol_panda_dir() / "panda.urdf").string();
    o.srdf = (robot_protocol_panda_dir() / "panda.srdf").string();
    return load_robot_checker(o);
  }();
  return c;
}

json robot_answer(const std::string& line) {
  MeshFiles files;
  return answer_robot(robot_protocol_panda(), json::parse(line), files);
}

TEST(RobotProtocol, ReadyPoseAboveATable) {
  const json a = robot_answer(R"({"id": "r", "q": [0, -0.785, 0, -2.356, 0, 1.571, 0.785], "tolerance": 0.01,
      "environment": [{"name": "table", "geometry": {"shape": "box", "size": [1.5, 1.5, 0.1]},
                       "pose": {"p": [0.2, 0, -0.08]}}]})");
  EXPECT_EQ(a["id"], "r");
  EXPECT_EQ(a["status"], "ok");
  EXPECT_EQ(a["self_collision"], false);
  EXPECT_TRUE(a["self_pairs"].empty());
  EXPECT_GT(a["self_distance"]["distance"].get<double>(), 0.0);
  EXPECT_EQ(a["environment_collision"], false);
  EXPECT_EQ(a["environment_distance"]["other"], "table");
  // The base's mesh bottom is a hair below z = 0; the table top at −0.03.
  EXPECT_NEAR(a["environment_distance"]["distance"].get<double>(), 0.03, 1e-3);
  EXPECT_EQ(a["within_tolerance"], false);
  EXPECT_TRUE(a["limit_violations"].empty());
}

TEST(RobotProtocol, FoldedPoseListsItsPairsAndLimitViolations) {
  const json a = robot_answer(R"({"q": [0, 0, 0, -2.5, 0, 0, 0], "tolerance": 0})");
  EXPECT_EQ(a["status"], "ok");
  EXPECT_EQ(a["self_collision"], true);
  EXPECT_EQ(a["self_pairs"], json::parse(R"([["panda_link5", "panda_link7"], ["panda_link5", "panda_hand"],
                                             ["panda_link5", "panda_rightfinger"]])"));
  EXPECT_EQ(a["self_distance"]["distance"].get<double>(), 0.0);
  EXPECT_TRUE(a["environment_distance"].is_null());
  EXPECT_EQ(a["within_tolerance"], true);
  const json b = robot_answer(R"({"q": [0, 0, 0, -4, 0, 0, 0]})");
  ASSERT_EQ(b["limit_violations"].size(), 1u);
  EXPECT_EQ(b["limit_violations"][0]["joint"], "panda_joint4");
  EXPECT_EQ(b["limit_violations"][0]["value"], -4.0);
}

TEST(RobotProtocol, QEndChecksTheSegmentContinuously) {
  const std::string table = R"("environment": [{"name": "table", "geometry": {"shape": "box", "size": [1.5, 1.5, 0.1]},
                                                "pose": {"p": [0.2, 0, -0.08]}}])";
  // Joint 2 leans the arm forward and down into the table.
  const json hit = robot_answer(R"({"id": 5, "q": [0, -0.785, 0, -2.356, 0, 1.571, 0.785],
      "q_end": [0, 1.5, 0, -2.356, 0, 1.571, 0.785], )" + table + "}");
  EXPECT_EQ(hit["status"], "ok") << hit.dump();
  const json& m = hit["motion"];
  EXPECT_EQ(m["status"], "ok");
  EXPECT_EQ(m["collide"], true);
  EXPECT_GT(m["s"].get<double>(), 0.0);
  EXPECT_LT(m["s"].get<double>(), 1.0);
  EXPECT_EQ(m["self"], false);
  EXPECT_EQ(m["other"], "table");
  EXPECT_LE(m["distance"].get<double>(), 1e-4);  // the default accuracy
  EXPECT_EQ(m["point_link"].size(), 3u);
  EXPECT_GT(m["iterations"].get<int>(), 1);
  // With a 2 cm clearance the segment is stopped earlier (the base stands
  // 3 cm above the table: the start is clear).
  const json early = robot_answer(R"({"q": [0, -0.785, 0, -2.356, 0, 1.571, 0.785],
      "q_end": [0, 1.5, 0, -2.356, 0, 1.571, 0.785], "motion": {"clearance": 0.02}, )" + table + "}");
  EXPECT_GT(early["motion"]["s"].get<double>(), 0.0);
  EXPECT_LT(early["motion"]["s"].get<double>(), m["s"].get<double>());
  EXPECT_GE(early["motion"]["distance"].get<double>(), 0.02);
  EXPECT_LE(early["motion"]["distance"].get<double>(), 0.02 + 1e-4);
  // Turning about joint 1 stays clear: no pair.
  const json clear = robot_answer(R"({"q": [0, -0.785, 0, -2.356, 0, 1.571, 0.785],
      "q_end": [0.5, -0.785, 0, -2.356, 0, 1.571, 0.785], )" + table + "}");
  EXPECT_EQ(clear["motion"]["collide"], false);
  EXPECT_EQ(clear["motion"]["s"], 1.0);
  EXPECT_FALSE(clear["motion"].contains("link"));
}

TEST(RobotProtocol, BadMotionLinesAnswerErrors) {
  const std::string q = R"("q": [0, 0, 0, -1, 0, 1, 0])";
  auto message = [&](const std::string& rest) {
    const json a = robot_answer("{" + q + ", " + rest + "}");
    EXPECT_EQ(a["status"], "error") << rest;
    return a.value("message", std::string());
  };
  EXPECT_EQ(message(R"("q_end": [1, 2])"), "q_end: robot 'panda': joint vector has 2 values, expected 7");
  EXPECT_EQ(message(R"("q_end": "x")"), "q_end: expected an array of numbers");
  EXPECT_NE(message(R"("q_end": [0, 0, 0, -1, 0, 1, 0], "motion": {"clearance": -1})").find("clearance"),
            std::string::npos);
  EXPECT_NE(message(R"("q_end": [0, 0, 0, -1, 0, 1, 0], "motion": {"accuracy": 0})").find("accuracy"),
            std::string::npos);
  EXPECT_EQ(message(R"("q_end": [0, 0, 0, -1, 0, 1, 0], "motion": {"self": 1})"),
            "motion.self: expected true or false (got 1)");
  for (const char* n : {"0.5", "0", "-4294967295", "18446744073709551615"})
    EXPECT_EQ(message(std::string(R"("q_end": [0, 0, 0, -1, 0, 1, 0], "motion": {"max_iterations": )") + n + "}"),
              std::string("motion.max_iterations: expected an integer from 1 to 100000000 (got ") + n + ")")
        << n;
  EXPECT_EQ(message(R"("q_end": [0, 0, 0, -1, 0, 1, 0], "motion": 3)"), "motion: expected a JSON object (got 3)");
}

TEST(RobotProtocol, TouchLinksTakeTheirPairsOut) {
  // A block around the hand at the ready pose: the hand and fingers collide
  // with it until they are its touch links.
  const std::string q = R"("q": [0, -0.785, 0, -2.356, 0, 1.571, 0.785], )";
  const std::string block = R"({"name": "block", "geometry": {"shape": "box", "size": [0.3, 0.3, 0.3]},
                                "pose": {"p": [0.307, 0, 0.52]})";
  const json in = robot_answer("{" + q + R"("environment": [)" + block + "}]}");
  ASSERT_EQ(in["status"], "ok") << in;
  EXPECT_EQ(in["environment_collision"], true);
  const json out = robot_answer("{" + q + R"("environment": [)" + block +
                                R"(, "touch_links": ["panda_link7", "panda_hand", "panda_leftfinger", "panda_rightfinger"]}]})");
  ASSERT_EQ(out["status"], "ok") << out;
  for (const json& pair : out["environment_pairs"]) EXPECT_NE(pair[0], "panda_hand") << out;
  EXPECT_LT(out["environment_pairs"].size(), in["environment_pairs"].size());
  const json typo = robot_answer("{" + q + R"("environment": [)" + block + R"(, "touch_links": ["panda_hnd"]}]})");
  EXPECT_EQ(typo["status"], "error") << typo;
  EXPECT_EQ(typo["message"], "environment object 'block': touch link 'panda_hnd' is not a link of robot 'panda'");
  const json bad = robot_answer("{" + q + R"("environment": [)" + block + R"(, "touch_links": "panda_hand"}]})");
  EXPECT_EQ(bad["status"], "error");
  EXPECT_NE(bad["message"].get<std::string>().find("environment[0].touch_links"), std::string::npos) << bad;
}

// A scanned table: the cloud's cubes are what the robot is checked against,
// named "<cloud>/<k>", the same as robot::add_point_cloud builds in C++.
TEST(RobotProtocol, PointCloudsAreVoxelised) {
  const std::string q = R"("q": [0, -0.785, 0, -2.356, 0, 1.571, 0.785], )";
  const std::string cloud =
      R"({"name": "scan", "pose": {"p": [0.3, 0, 0.1]}, "geometry": {"shape": "point_cloud", "voxel": 0.05,
          "min_points": 2, "points": [[0, 0, 0], [0.01, 0.01, 0.01], [0.2, 0, 0], [0.21, 0.02, 0], [0.4, 0, 0]]}})";
  const json a = robot_answer("{" + q + R"("environment": [)" + cloud + "]}");
  ASSERT_EQ(a["status"], "ok") << a;
  const std::vector<Vec3> points{{0, 0, 0}, {0.01, 0.01, 0.01}, {0.2, 0, 0}, {0.21, 0.02, 0}, {0.4, 0, 0}};
  robot::Environment env;
  robot::PointCloudOptions options;
  options.min_points = 2;
  ASSERT_EQ(robot::add_point_cloud(env, "scan", points, 0.05, Transform::from_translation(Vec3(0.3, 0, 0.1)), options),
            2u);
  const std::vector<double> qv{0, -0.785, 0, -2.356, 0, 1.571, 0.785};
  const robot::DistanceReport d = robot_protocol_panda().environment_distance(robot_protocol_panda().state(qv), env);
  ASSERT_TRUE(d.found);
  EXPECT_EQ(a["environment_distance"]["distance"].get<double>(), d.distance);
  EXPECT_EQ(a["environment_distance"]["other"], d.pair.other_name);
  EXPECT_EQ(d.pair.other_name.rfind("scan/", 0), 0u) << d.pair.other_name;
  auto error_of = [&](const std::string& geometry) {
    const json e = robot_answer("{" + q + R"("environment": [{"name": "scan", "geometry": )" + geometry + "}]}");
    EXPECT_EQ(e["status"], "error") << geometry;
    return e.value("message", std::string());
  };
  EXPECT_EQ(error_of(R"({"shape": "point_cloud", "voxel": 0.1})"),
            "environment[0].geometry: missing \"points\"");
  EXPECT_NE(error_of(R"({"shape": "point_cloud", "voxel": 0.1, "points": [[0, 0]]})").find("points[0]"),
            std::string::npos);
  EXPECT_EQ(error_of(R"({"shape": "point_cloud", "points": []})"), "environment[0].geometry: missing \"voxel\"");
  EXPECT_NE(error_of(R"({"shape": "point_cloud", "voxel": -1, "points": []})").find("point cloud 'scan'"),
            std::string::npos);
  EXPECT_EQ(error_of(R"({"shape": "point_cloud", "voxel": 0.1, "min_points": 0, "points": []})"),
            "environment[0].geometry.min_points: expected an integer from 1 to 1000000000 (got 0)");
  const json g = robot_answer("{" + q + R"("environment": [{"name": "b", "group": 3, "geometry": {"shape": "sphere", "radius": 0.1}}]})");
  EXPECT_EQ(g["message"], "environment[0].group: expected a string (got 3)");
  // One name, one object: a second "b", or a name a cloud's cubes already
  // have, is refused with both entries named.
  const json twice = robot_answer("{" + q + R"("environment": [{"name": "b", "geometry": {"shape": "sphere", "radius": 0.1}},
      {"name": "b", "geometry": {"shape": "box", "size": [0.1, 0.1, 0.1]}}]})");
  EXPECT_EQ(twice["message"], "environment[1]: the name 'b' is already taken by environment[0]");
  const json cube = robot_answer("{" + q + R"("environment": [)" + cloud +
                                 R"(, {"name": "scan/0", "geometry": {"shape": "sphere", "radius": 0.1}}]})");
  EXPECT_EQ(cube["message"], "environment[1]: the name 'scan/0' is already taken by environment[0]");
}

// A held rod: the JSON "attached" objects are robot::attach's, and an
// obstacle only the rod reaches is reported against it.
TEST(RobotProtocol, AttachedObjectsAreChecked) {
  const std::string q = R"("q": [0, -0.785, 0, -2.356, 0, 1.571, 0.785], )";
  const std::string rod = R"({"name": "rod", "link": "panda_hand", "geometry": {"shape": "capsule", "radius": 0.015,
      "length": 0.2}, "pose": {"p": [0, 0, 0.2]}, "touch_links": ["panda_leftfinger", "panda_rightfinger"]})";
  const robot::SceneChecker& c = robot_protocol_panda();
  const std::vector<double> qv{0, -0.785, 0, -2.356, 0, 1.571, 0.785};
  const robot::RobotState s = c.state(qv);
  const Vec3 tip = s.link_poses[static_cast<std::size_t>(c.model().link_index("panda_hand"))].apply(Vec3(0, 0, 0.3));
  std::ostringstream ball;
  ball << R"({"name": "ball", "geometry": {"shape": "sphere", "radius": 0.01}, "pose": {"p": [)" << tip.x() + 0.02
       << ", " << tip.y() << ", " << tip.z() << "]}}";
  const json bare = robot_answer("{" + q + R"("environment": [)" + ball.str() + "]}");
  ASSERT_EQ(bare["status"], "ok") << bare;
  EXPECT_EQ(bare["environment_collision"], false);
  const json held = robot_answer("{" + q + R"("attached": [)" + rod + R"(], "environment": [)" + ball.str() + "]}");
  ASSERT_EQ(held["status"], "ok") << held;
  EXPECT_EQ(held["environment_pairs"], json::parse(R"([["rod", "ball"]])"));
  EXPECT_EQ(held["self_collision"], false);
  const robot::AttachedObject o{"rod", "panda_hand", Shape(Capsule(0.015, 0.2)), Transform::from_translation(Vec3(0, 0, 0.2)),
                                {"panda_leftfinger", "panda_rightfinger"}};
  const robot::SceneChecker h = robot::attach(c, std::span(&o, 1));
  EXPECT_EQ(held["self_distance"]["distance"].get<double>(), h.self_distance(h.state(qv)).distance);
  auto message = [&](const std::string& attached) {
    const json e = robot_answer("{" + q + R"("attached": )" + attached + "}");
    EXPECT_EQ(e["status"], "error") << attached;
    return e.value("message", std::string());
  };
  EXPECT_EQ(message(R"({"name": "rod"})"),
            "attached: expected an array of objects {\"name\", \"link\", \"geometry\", \"pose\", \"touch_links\"}");
  EXPECT_EQ(message(R"([{"name": "rod", "geometry": {"shape": "sphere", "radius": 0.1}}])"),
            "attached[0]: missing \"link\"");
  EXPECT_EQ(message(R"([{"name": "rod", "link": "panda_thumb", "geometry": {"shape": "sphere", "radius": 0.1}}])"),
            "robot 'panda': attached object 'rod': link 'panda_thumb' is not a link of the robot");
  EXPECT_NE(message(R"([{"name": "rod", "link": "panda_hand", "geometry": {"shape": "sphere"}}])").find("attached[0].geometry"),
            std::string::npos);

  // A stream's "hold" line: the later lines are checked with the rod held,
  // as the line carrying it was; a line's own "attached" replaces it for
  // that line; a bad "hold" changes nothing; "hold": [] lets go.
  const std::string env = R"("environment": [)" + ball.str() + "]";
  std::string rod_line = rod;  // one JSON line
  std::replace(rod_line.begin(), rod_line.end(), '\n', ' ');
  const std::vector<std::string> stream{
      R"({"id": 1, "hold": [)" + rod_line + "]}",
      R"({"id": 2, )" + q + env + "}",
      R"({"id": 3, )" + q + R"("attached": [], )" + env + "}",
      R"({"id": 4, "hold": [{"name": "rod", "link": "panda_thumb", "geometry": {"shape": "sphere", "radius": 0.1}}]})",
      R"({"id": 5, )" + q + env + "}",
      R"({"id": 6, "hold": {"name": "x"}})",
      R"({"id": 7, "hold": [], "scene": [)" + ball.str() + "]}",
      R"({"id": 8, )" + q + R"("tolerance": 0})"};
  std::string text;
  for (const std::string& line : stream) text += line + "\n";
  std::istringstream in(text);
  std::ostringstream out;
  EXPECT_EQ(run_robot_stream(c, in, out), 2);
  std::vector<json> a;
  std::istringstream lines(out.str());
  for (std::string l; std::getline(lines, l);) a.push_back(json::parse(l));
  ASSERT_EQ(a.size(), stream.size());
  EXPECT_EQ(a[0], json::parse(R"({"id": 1, "status": "ok", "held_objects": 1})"));
  json same = held;
  same["id"] = 2;
  EXPECT_EQ(a[1], same);
  EXPECT_EQ(a[2]["environment_collision"], false);
  EXPECT_EQ(a[3]["status"], "error");
  EXPECT_EQ(a[3]["message"], "robot 'panda': attached object 'rod': link 'panda_thumb' is not a link of the robot");
  EXPECT_EQ(a[4]["environment_pairs"], json::parse(R"([["rod", "ball"]])"));
  EXPECT_EQ(a[5]["message"],
            "hold: expected an array of objects {\"name\", \"link\", \"geometry\", \"pose\", \"touch_links\"}");
  EXPECT_EQ(a[6], json::parse(R"({"id": 7, "status": "ok", "held_objects": 0, "scene_objects": 1})"));
  EXPECT_EQ(a[7]["environment_collision"], false);
  EXPECT_EQ(a[7]["self_distance"], bare["self_distance"]);
  EXPECT_EQ(robot_answer(R"({"hold": []})")["message"], "hold: needs a stream to keep it in");
}

// A stream's scene: set once, used by the lines without an environment of
// their own, which get the same answers as lines carrying it.
TEST(RobotProtocol, AStreamKeepsItsScene) {
  const std::string table =
      R"([{"name": "table", "geometry": {"shape": "box", "size": [1.5, 1.5, 0.1]}, "pose": {"p": [0.2, 0, -0.08]}}])";
  const std::string q = R"("q": [0, -0.785, 0, -2.356, 0, 1.571, 0.785])";
  const std::string post = R"([{"name": "post", "geometry": {"shape": "sphere", "radius": 0.05}, "pose": {"p": [0.5, 0.5, 0.5]}}])";
  std::istringstream in(R"({"id": 1, "scene": )" + table + "}\n" + "{\"id\": 2, " + q + "}\n" + "{\"id\": 3, " + q +
                        R"(, "environment": )" + post + "}\n" + R"({"id": 4, "scene": []})" + "\n" + "{\"id\": 5, " + q +
                        "}\n" + R"({"id": 6, "scene": {"name": "x"}})" + "\n" +
                        R"({"id": 7, "scene": [{"name": "t", "geometry": {"shape": "sphere", "radius": 0.1}, "touch_links": ["panda_hnd"]}]})" +
                        "\n");
  std::ostringstream out;
  EXPECT_EQ(run_robot_stream(robot_protocol_panda(), in, out), 2);
  std::vector<json> a;
  std::istringstream lines(out.str());
  for (std::string l; std::getline(lines, l);) a.push_back(json::parse(l));
  ASSERT_EQ(a.size(), 7u);
  EXPECT_EQ(a[0]["status"], "ok");
  EXPECT_EQ(a[0]["scene_objects"], 1);
  const json direct = robot_answer("{" + q + R"(, "environment": )" + table + "}");
  EXPECT_EQ(a[1]["environment_distance"], direct["environment_distance"]);
  EXPECT_EQ(a[1]["environment_distance"]["other"], "table");
  EXPECT_EQ(a[2]["environment_distance"]["other"], "post");  // its own environment, not the scene
  EXPECT_EQ(a[3]["scene_objects"], 0);
  EXPECT_TRUE(a[4]["environment_distance"].is_null());
  EXPECT_EQ(a[5]["status"], "error");
  EXPECT_EQ(a[5]["message"],
            "scene: expected an array of objects {\"name\", \"geometry\", \"pose\", \"touch_links\", \"group\"}");
  EXPECT_EQ(a[6]["status"], "error");
  EXPECT_EQ(a[6]["message"], "environment object 't': touch link 'panda_hnd' is not a link of robot 'panda'");
  // A single answer has no stream to keep a scene in.
  EXPECT_EQ(robot_answer(R"({"scene": []})")["status"], "error");
}

TEST(RobotProtocol, BadLinesAnswerErrors) {
  EXPECT_EQ(robot_answer(R"({"id": 3, "q": [1, 2]})")["message"], "robot 'panda': joint vector has 2 values, expected 7");
  EXPECT_EQ(robot_answer(R"({"id": 3, "q": [1, 2]})")["id"], 3);
  EXPECT_EQ(robot_answer(R"({"id": 3})")["status"], "error");
  EXPECT_EQ(robot_answer(R"({"q": [0, 0, "x", 0, 0, 0, 0]})")["status"], "error");
  EXPECT_EQ(robot_answer(R"({"q": [0, 0, 0, 0, 0, 0, 0], "tolerance": -1})")["status"], "error");
  const json e = robot_answer(R"({"q": [0, 0, 0, 0, 0, 0, 0], "environment": [{"geometry": {"shape": "sphere"}}]})");
  EXPECT_EQ(e["status"], "error");
  EXPECT_NE(e["message"].get<std::string>().find("environment[0]"), std::string::npos) << e["message"];
  std::istringstream in("oops\n\n{\"q\": [0, 0, 0, 0, 0, 0, 0]}\n");
  std::ostringstream out;
  EXPECT_EQ(run_robot_stream(robot_protocol_panda(), in, out), 1);
  std::istringstream lines(out.str());
  std::string l1, l2, l3;
  std::getline(lines, l1);
  std::getline(lines, l2);
  EXPECT_FALSE(std::getline(lines, l3));
  EXPECT_EQ(json::parse(l1)["status"], "error");
  EXPECT_EQ(json::parse(l2)["status"], "ok");
}

// A random pose as the protocol writes one, and the same pose built here.
std::pair<json, Transform> random_pose(testing::Rng& rng, double reach) {
  Eigen::Vector4d w(rng.uniform(-1.0, 1.0), rng.uniform(-1.0, 1.0), rng.uniform(-1.0, 1.0), rng.uniform(-1.0, 1.0));
  w /= w.norm();
  const Vec3 p = rng.uniform_vec(-reach, reach);
  return {json{{"p", {p.x(), p.y(), p.z()}}, {"q", {w[0], w[1], w[2], w[3]}}},
          Transform::from_quaternion(w[0], w[1], w[2], w[3], p)};
}

// A random primitive about `scale` m across as the protocol writes one, and
// the same shape.
std::pair<json, Shape> random_primitive(testing::Rng& rng, double scale) {
  const double r = scale * rng.uniform(0.1, 1.0), l = scale * rng.uniform(0.5, 4.0);
  switch (static_cast<int>(rng.uniform(0.0, 4.0))) {
    case 0: {
      const Vec3 size = scale * rng.uniform_vec(0.5, 4.0);
      return {json{{"shape", "box"}, {"size", {size.x(), size.y(), size.z()}}}, Shape(Box(size))};
    }
    case 1: return {json{{"shape", "sphere"}, {"radius", r}}, Shape(Sphere(r))};
    case 2: return {json{{"shape", "cylinder"}, {"radius", r}, {"length", l}}, Shape(Cylinder(r, l))};
    default: return {json{{"shape", "capsule"}, {"radius", r}, {"length", l}}, Shape(Capsule(r, l))};
  }
}

// The fields of a distance answer against the library's report.
void expect_distance(const json& a, const robot::DistanceReport& d, const std::string& what) {
  if (!d.found) {
    EXPECT_TRUE(a.is_null()) << what << ": " << a;
    return;
  }
  ASSERT_TRUE(a.is_object()) << what;
  EXPECT_NEAR(a["distance"].get<double>(), d.distance, 1e-12) << what;
  // The nearest pair by a hair: either of a tie may be named.
  if (d.distance > 1e-9) {
    EXPECT_EQ(a["link"], d.pair.link_name) << what;
    EXPECT_EQ(a["other"], d.pair.other_name) << what;
  }
}

json pair_names(const robot::CollisionReport& r) {
  json out = json::array();
  for (const robot::PairId& p : r.pairs) out.push_back({p.link_name, p.other_name});
  return out;
}

// Random robots (robot_test::random_robot_urdf: prismatic and mimic joints,
// random meshes as hulls or raw surfaces, a margin on some, an SRDF of the
// pairs that often touch) loaded by the command, with a random base pose, random objects at random poses, an
// object held on a random link, a tolerance and a segment to q_end: every
// answer is the library's on the same inputs, built here from the URDF,
// and limit_violations lists each joint outside its limits, mimic joints
// at their multiplier times their joint's value plus their offset
// (computed here from the URDF's mimic elements).
TEST(RobotProtocol, RandomRobotsAnswerAsTheLibrary) {
  testing::Rng rng(83);
  robot_test::TempDir dir;
  const int robots = std::max(3, testing::scaled(12)), draws = std::max(4, testing::scaled(12));
  int compared = 0, violations = 0, collisions = 0, motions_hit = 0;
  for (int k = 0; k < robots; ++k) {
    const std::string urdf = robot_test::random_robot_urdf(rng, false, dir.path());
    const std::filesystem::path file = dir.write("robot" + std::to_string(k) + ".urdf", urdf);
    const bool raw = k % 2 == 1;
    const double margin = k % 3 == 2 ? 0.003 : 0.0;
    RobotCommandOptions o;
    o.urdf = file.string();
    o.mesh_mode = raw ? "mesh" : "hull";
    o.margin = margin;
    const robot::RobotModel m = robot::load_urdf(file);
    const robot::RobotGeometry geometry(
        m, robot_test::options(raw ? robot::MeshMode::triangle_mesh : robot::MeshMode::convex_hull, margin));
    // The pairs that touch at most configurations allowed, given to the
    // command as an SRDF.
    const robot::AllowedCollisionMatrix acm = robot_test::always_near_allowed(geometry, m, rng, 64, 0.01, 0.5);
    std::string srdf = "<robot name=\"random\">";
    for (int a = 0; a < static_cast<int>(m.links().size()); ++a)
      for (int b = a + 1; b < static_cast<int>(m.links().size()); ++b)
        if (acm.allowed(a, b))
          srdf += "<disable_collisions link1=\"" + m.link(a).name + "\" link2=\"" + m.link(b).name + "\"/>";
    o.srdf = dir.write("robot" + std::to_string(k) + ".srdf", srdf + "</robot>").string();
    const robot::SceneChecker loaded = load_robot_checker(o);
    const robot::SceneChecker plain(geometry, acm);
    for (int n = 0; n < draws; ++n) {
      // Joint values up to 10 % of their range beyond the limits.
      std::vector<double> q(m.variable_count()), q_end(m.variable_count());
      for (std::size_t v = 0; v < q.size(); ++v) {
        const robot::Joint& jt = m.joint(m.variable_joint(v));
        const double spill = 0.1 * (jt.upper - jt.lower);
        q[v] = rng.uniform(jt.lower - spill, jt.upper + spill);
        q_end[v] = rng.uniform(jt.lower, jt.upper);
      }
      const auto [base_json, base] = random_pose(rng, 0.3);
      json environment = json::array();
      robot::Environment env;
      for (int i = 0; i < 2; ++i) {
        const auto [shape_json, shape] = random_primitive(rng, 0.05);
        const auto [pose_json, pose] = random_pose(rng, 0.8);
        const std::string name = "object" + std::to_string(i);
        environment.push_back({{"name", name}, {"geometry", shape_json}, {"pose", pose_json}});
        env.add(name, shape, pose);
      }
      const auto [held_json, held_shape] = random_primitive(rng, 0.02);
      const auto [held_pose_json, held_pose] = random_pose(rng, 0.1);
      const std::string link = m.link(static_cast<int>(rng.uniform(1.0, static_cast<double>(m.links().size())))).name;
      const robot::AttachedObject held{"held", link, held_shape, held_pose};
      const double tolerance = rng.uniform(0.0, 0.05), clearance = rng.uniform(0.0, 0.02);
      const json request = {{"id", n},
                            {"q", q},
                            {"base", base_json},
                            {"environment", environment},
                            {"attached", {{{"name", "held"}, {"link", link}, {"geometry", held_json},
                                           {"pose", held_pose_json}}}},
                            {"tolerance", tolerance},
                            {"q_end", q_end},
                            {"motion", {{"clearance", clearance}}}};
      MeshFiles files;
      const json a = answer_robot(loaded, request, files);
      const std::string what = "robot " + std::to_string(k) + " request " + request.dump();
      ASSERT_EQ(a["id"], n) << what << "\n" << a;
      ASSERT_NE(a["status"], "error") << what << "\n" << a;

      const robot::SceneChecker c = robot::attach(plain, std::span(&held, 1));
      const robot::RobotState s = c.state(q, base);
      ASSERT_EQ(s.status, Status::ok) << what;
      const robot::CollisionReport self = c.self_collision(s), envc = c.environment_collision(s, env);
      EXPECT_EQ(a["self_collision"], self.collide()) << what;
      EXPECT_EQ(a["self_pairs"], pair_names(self)) << what;
      EXPECT_EQ(a["environment_collision"], envc.collide()) << what;
      EXPECT_EQ(a["environment_pairs"], pair_names(envc)) << what;
      expect_distance(a["self_distance"], c.self_distance(s), what + " self_distance");
      expect_distance(a["environment_distance"], c.environment_distance(s, env), what + " environment_distance");
      const robot::ToleranceReport t = c.tolerance(s, env, tolerance);
      EXPECT_EQ(a["within_tolerance"], t.within) << what;
      robot::MotionCheckOptions mo;
      mo.clearance = clearance;
      const robot::MotionCheck mc = c.check_motion(q, q_end, env, mo, base);
      EXPECT_EQ(a["motion"]["collide"], mc.collide) << what;
      EXPECT_NEAR(a["motion"]["s"].get<double>(), mc.s, 1e-12) << what;
      collisions += self.collide() || envc.collide();
      motions_hit += mc.collide;

      // Each joint's position from the URDF's own values.
      std::map<std::string, double> position;
      for (std::size_t v = 0; v < q.size(); ++v) position[m.joint(m.variable_joint(v)).name] = q[v];
      for (const robot::Joint& jt : m.joints())
        if (jt.mimic && jt.type != robot::JointType::fixed)
          position[jt.name] = jt.mimic->multiplier * position.at(jt.mimic->joint) + jt.mimic->offset;
      std::set<std::string> outside, listed;
      for (const robot::Joint& jt : m.joints())
        if (jt.type != robot::JointType::fixed && (position[jt.name] < jt.lower || position[jt.name] > jt.upper))
          outside.insert(jt.name);
      for (const json& v : a["limit_violations"]) {
        listed.insert(v["joint"].get<std::string>());
        EXPECT_DOUBLE_EQ(v["value"].get<double>(), position[v["joint"].get<std::string>()]) << what;
      }
      EXPECT_EQ(listed, outside) << what;
      violations += !outside.empty();
      ++compared;
      if (::testing::Test::HasFailure()) {
        ADD_FAILURE() << urdf;
        return;
      }
    }
  }
  std::printf("%d requests on %d random robots: %d collide, %d segments collide, %d outside the limits\n", compared,
              robots, collisions, motions_hit, violations);
  // Both answers of each kind, where the run is large enough to hold them
  // (the sanitizers' run is not).
  if (compared >= 100) {
    EXPECT_GT(violations, 0);
    EXPECT_LT(violations, compared);
    EXPECT_GT(motions_hit, 0);
    EXPECT_LT(motions_hit, compared);
  }
}

TEST(RobotProtocol, RobotThatDoesNotLoadExitsWithItsMessage) {
  RobotCommandOptions o;
  o.urdf = "/nonexistent/robot.urdf";
  std::istringstream in;
  std::ostringstream out, err;
  EXPECT_EQ(run_robot_command(o, in, out, err), 1);
  EXPECT_NE(err.str().find("/nonexistent/robot.urdf"), std::string::npos) << err.str();
  o.urdf = (robot_protocol_panda_dir() / "panda.urdf").string();
  o.srdf = "/nonexistent/panda.srdf";
  EXPECT_EQ(run_robot_command(o, in, out, err), 1);
  EXPECT_NE(err.str().find("/nonexistent/panda.srdf"), std::string::npos) << err.str();
}

}  // namespace
}  // namespace proxima::apps
