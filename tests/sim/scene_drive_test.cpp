// SPDX-License-Identifier: BSD-3-Clause
// The scene keys that drive bodies: each malformed value is refused with
// the field's path and the reason.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "scene.hpp"
#include "../support/scene_error.hpp"

namespace proxima {
namespace {

using nlohmann::json;

json belt_scene() {
  return json::parse(R"({"bodies": [
    {"name": "belt", "shape": {"shape": "box", "size": [4, 1, 0.1]}, "kinematic": {"velocity": [1, 0, 0]}},
    {"name": "arm", "shape": {"shape": "box", "size": [0.1, 0.1, 0.1]},
     "kinematic": {"keyframes": [{"t": 0, "p": [0, 0, 1]}, {"t": 1, "p": [1, 0, 1], "q": [0, 0, 0, 1]}]}},
    {"name": "box", "shape": {"shape": "box", "size": [0.2, 0.2, 0.2]}, "density": 500, "pose": {"p": [0, 0, 0.15]}}]})");
}

std::string drive_error(const json& j) { return testing::scene_error(j); }

TEST(SceneDrive, KinematicBodiesLoad) {
  const apps::Scene s = apps::scene_from_json(belt_scene());
  const auto& b = s.world.bodies();
  ASSERT_EQ(b.size(), 3u);
  ASSERT_TRUE(b[0].kinematic.has_value());
  EXPECT_EQ(b[0].kinematic->velocity, Vec3(1, 0, 0));
  EXPECT_TRUE(b[0].infinite_mass());
  ASSERT_TRUE(b[1].kinematic.has_value());
  ASSERT_EQ(b[1].kinematic->keyframes.size(), 2u);
  EXPECT_EQ(b[1].kinematic->keyframes[1].p, Vec3(1, 0, 1));
  EXPECT_EQ(b[1].kinematic->keyframes[1].q.z(), 1.0);
  EXPECT_EQ(b[1].pose.p, Vec3(0, 0, 1));  // placed at its path's pose of t = 0
  EXPECT_FALSE(b[2].kinematic.has_value());
}

TEST(SceneDrive, BadKinematicKeysNameTheField) {
  json j = belt_scene();
  j["bodies"][1]["kinematic"]["keyframes"][1]["t"] = 0;
  EXPECT_EQ(drive_error(j), "bodies[1].kinematic.keyframes[1].t: time 0 s is not after the previous keyframe's 0 s");
  j = belt_scene();
  j["bodies"][1]["kinematic"]["keyframes"][1]["q"] = {0, 0, 0, 2};
  EXPECT_EQ(drive_error(j), "bodies[1].kinematic.keyframes[1].q: quaternion norm 2 is not 1 (within 1e-6)");
  j = belt_scene();
  j["bodies"][1]["kinematic"]["keyframes"][1]["q"] = {0, 0, 1};
  EXPECT_EQ(drive_error(j), "bodies[1].kinematic.keyframes[1].q: expected an array of 4 numbers [w, x, y, z]");
  j = belt_scene();
  j["bodies"][1]["kinematic"]["keyframes"] = json::array();
  EXPECT_EQ(drive_error(j), "bodies[1].kinematic.keyframes: needs at least one keyframe");
  j = belt_scene();
  j["bodies"][1]["kinematic"]["velocity"] = {1, 0, 0};
  EXPECT_EQ(drive_error(j),
            "bodies[1].kinematic.velocity: a keyframed path has no constant twist (give one or the other)");
  j = belt_scene();
  j["bodies"][1]["kinematic"]["keyframes"][0]["pp"] = {0, 0, 0};
  EXPECT_NE(drive_error(j).find("bodies[1].kinematic.keyframes[0].pp: unknown key"), std::string::npos) << drive_error(j);
  j = belt_scene();
  j["bodies"][1]["kinematic"]["keyframes"][0].erase("t");
  EXPECT_NE(drive_error(j).find("bodies[1].kinematic.keyframes[0]: missing \"t\""), std::string::npos) << drive_error(j);
  j = belt_scene();
  j["bodies"][0]["kinematic"]["velocty"] = {1, 0, 0};
  EXPECT_NE(drive_error(j).find("bodies[0].kinematic.velocty: unknown key (did you mean \"velocity\"?)"),
            std::string::npos)
      << drive_error(j);
  j = belt_scene();
  j["bodies"][0]["kinematic"]["velocity"] = {2e6, 0, 0};
  EXPECT_EQ(drive_error(j), "bodies[0].kinematic.velocity: magnitude 2e+06 m/s is above 1e+06");
  j = belt_scene();
  j["bodies"][0]["kinematic"] = {1, 0, 0};
  EXPECT_NE(drive_error(j).find("bodies[0].kinematic"), std::string::npos) << drive_error(j);
}

TEST(SceneDrive, KinematicRefusesWhatADynamicOrStaticBodyHas) {
  for (const char* key : {"density", "mass"}) {
    json j = belt_scene();
    j["bodies"][0][key] = 100;
    EXPECT_EQ(drive_error(j), std::string("bodies[0].") + key +
                               ": a kinematic body has no mass properties (infinite mass)");
  }
  json j = belt_scene();
  j["bodies"][0]["force"] = {0, 0, 1};
  EXPECT_EQ(drive_error(j), "bodies[0].force: a kinematic body follows its path");
  j = belt_scene();
  j["bodies"][0]["velocity"] = {1, 0, 0};
  EXPECT_NE(drive_error(j).find("bodies[0].velocity: a kinematic body's velocity is its path's"), std::string::npos);
  j = belt_scene();
  j["bodies"][0]["static"] = true;
  EXPECT_EQ(drive_error(j), "bodies[0].kinematic: a static body cannot be kinematic");
}

TEST(SceneDrive, ForceAndTorqueSchedules) {
  json j = belt_scene();
  j["bodies"][2]["force"] = json::parse(R"([{"t": 0, "f": [0, 0, 0]}, {"t": 1, "f": [10, 0, 0]}])");
  j["bodies"][2]["torque"] = json::parse(R"([{"t": 0.5, "tau": [0, 0, 1]}])");
  const apps::Scene s = apps::scene_from_json(j);
  const sim::Body& b = s.world.bodies()[2];
  ASSERT_EQ(b.force_schedule.keys.size(), 2u);
  EXPECT_EQ(b.force_schedule.keys[1].value, Vec3(10, 0, 0));
  ASSERT_EQ(b.torque_schedule.keys.size(), 1u);
  EXPECT_EQ(b.torque_schedule.keys[0].t, 0.5);
  // The constant form still reads as before.
  j["bodies"][2]["force"] = {1, 2, 3};
  EXPECT_EQ(apps::scene_from_json(j).world.bodies()[2].force, Vec3(1, 2, 3));
}

TEST(SceneDrive, BadSchedulesNameTheField) {
  json j = belt_scene();
  j["bodies"][2]["force"] = json::parse(R"([{"t": 1, "f": [0, 0, 0]}, {"t": 1, "f": [10, 0, 0]}])");
  EXPECT_EQ(drive_error(j), "bodies[2].force[1].t: time 1 s is not after the previous key's 1 s");
  j["bodies"][2]["force"] = json::parse(R"([{"t": 0, "tau": [0, 0, 0]}])");
  EXPECT_NE(drive_error(j).find("bodies[2].force[0]: missing \"f\""), std::string::npos) << drive_error(j);
  j["bodies"][2]["force"] = json::parse(R"([{"t": 0, "f": [2e12, 0, 0]}])");
  EXPECT_EQ(drive_error(j), "bodies[2].force[0].f: magnitude 2e+12 N is above 1e+12");
  j["bodies"][2]["force"] = json::parse(R"([{"t": 0, "f": [0, 0, 0]}, [1, 2, 3]])");
  EXPECT_NE(drive_error(j).find("bodies[2].force[1]"), std::string::npos) << drive_error(j);
  j["bodies"][2].erase("force");
  j["bodies"][2]["torque"] = json::parse(R"([{"t": "soon", "tau": [0, 0, 0]}])");
  EXPECT_NE(drive_error(j).find("bodies[2].torque[0].t"), std::string::npos) << drive_error(j);
}

TEST(SceneDrive, RestitutionTable) {
  json j = belt_scene();
  j["restitution"] = json::parse(R"({"default": 0.4, "threshold": 0.2, "pairs": [{"a": "belt", "b": "box", "e": 0.9}]})");
  const apps::Scene s = apps::scene_from_json(j);
  EXPECT_EQ(s.world.restitution.default_e, 0.4);
  EXPECT_EQ(s.world.restitution.threshold, 0.2);
  EXPECT_EQ(s.world.restitution.e(2, 0), 0.9);
  EXPECT_EQ(s.world.restitution.e(1, 0), 0.4);
  // Absent: e = 0 everywhere (no bounce, as before the table existed).
  EXPECT_EQ(apps::scene_from_json(belt_scene()).world.restitution.e(2, 0), 0.0);
  j["restitution"]["default"] = 1.5;
  EXPECT_EQ(drive_error(j), "restitution.default: must be in [0, 1] (got 1.5)");
  j["restitution"]["default"] = 0.4;
  j["restitution"]["threshold"] = -1;
  EXPECT_NE(drive_error(j).find("restitution.threshold: must be in [0"), std::string::npos) << drive_error(j);
  j["restitution"]["threshold"] = 0.2;
  j["restitution"]["pairs"][0]["b"] = "bx";
  EXPECT_EQ(drive_error(j), "restitution.pairs[0].b: no body named \"bx\"");
  j["restitution"]["pairs"][0]["b"] = "box";
  j["restitution"]["pairs"][0]["mu"] = 0.3;
  EXPECT_NE(drive_error(j).find("restitution.pairs[0].mu: unknown key"), std::string::npos) << drive_error(j);
  j["restitution"]["pairs"][0].erase("mu");
  j["restitution"]["pairs"][0].erase("e");
  EXPECT_NE(drive_error(j).find("restitution.pairs[0]: missing \"e\""), std::string::npos) << drive_error(j);
  j["restitution"] = json::parse(R"({"defualt": 0.5})");
  EXPECT_NE(drive_error(j).find("restitution.defualt: unknown key (did you mean \"default\"?)"), std::string::npos)
      << drive_error(j);
}

}  // namespace
}  // namespace proxima
