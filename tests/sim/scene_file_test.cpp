// SPDX-License-Identifier: BSD-3-Clause
// Bad scene files give an error that names the field.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "scene.hpp"
#include "../support/scene_error.hpp"

namespace proxima {
namespace {

using nlohmann::json;

json good() {
  return json::parse(R"({"bodies": [
    {"name": "floor", "static": true, "shape": {"shape": "halfspace", "normal": [0, 0, 1], "offset": 0}},
    {"name": "box", "shape": {"shape": "box", "size": [1, 1, 1]}, "density": 1000, "pose": {"p": [0, 0, 0.5]}}]})");
}

std::string error_of(const json& j) { return testing::scene_error(j); }

TEST(SceneFile, GoodSceneLoads) {
  const apps::Scene s = apps::scene_from_json(good());
  EXPECT_EQ(s.world.bodies().size(), 2u);
  EXPECT_NEAR(s.world.bodies()[1].mass.mass, 1000.0, 1e-9);
}

TEST(SceneFile, ContactReuseIsOnUnlessTurnedOff) {
  EXPECT_TRUE(apps::scene_from_json(good()).world.options.reuse.enabled);
  json j = good();
  j["solver"] = {{"contact_reuse", false}};
  EXPECT_FALSE(apps::scene_from_json(j).world.options.reuse.enabled);
  j["solver"] = {{"contact_reuse", 1}};
  EXPECT_NE(error_of(j).find("solver.contact_reuse"), std::string::npos) << error_of(j);
}

TEST(SceneFile, UnknownShape) {
  json j = good();
  j["bodies"][1]["shape"]["shape"] = "dodecahedron";
  const std::string e = error_of(j);
  EXPECT_EQ(e.rfind("bodies[1].shape.shape: unknown shape \"dodecahedron\"", 0), 0u) << e;
}

TEST(SceneFile, NegativeMass) {
  json j = good();
  j["bodies"][1].erase("density");
  j["bodies"][1]["mass"] = -2.0;
  EXPECT_EQ(error_of(j), "bodies[1].mass: must be in (0, 1e+15] (got -2)");
  j["bodies"][1].erase("mass");
  j["bodies"][1]["density"] = -2.0;
  EXPECT_EQ(error_of(j), "bodies[1].density: must be in (0, 1e+15] (got -2)");
}

TEST(SceneFile, MissingFields) {
  json j = good();
  j["bodies"][1].erase("density");
  EXPECT_EQ(error_of(j).rfind("bodies[1]: missing \"density\" or \"mass\"", 0), 0u) << error_of(j);
  j = good();
  j["bodies"][0].erase("shape");
  EXPECT_EQ(error_of(j), "bodies[0]: missing \"shape\"");
  j = good();
  j["bodies"][1]["shape"].erase("size");
  EXPECT_EQ(error_of(j), "bodies[1].shape: missing \"size\"");
  j = good();
  j["bodies"][1].erase("name");
  EXPECT_EQ(error_of(j), "bodies[1]: missing \"name\"");
  j = good();
  j.erase("bodies");
  EXPECT_EQ(error_of(j), "bodies: missing");
  j = good();
  j["metrics"] = json::parse(R"([{"kind": "drift", "body": "nobody"}])");
  EXPECT_EQ(error_of(j), "metrics[0]: metric.body: no body named \"nobody\"");
  j = good();
  j["friction"] = json::parse(R"({"pairs": [{"a": "box", "b": "floor"}]})");
  EXPECT_EQ(error_of(j), "friction.pairs[0]: missing \"mu\"");
}

// Finite numbers that a few steps would overflow, or an int cannot hold
// (fuzz/fuzz_scene.cpp fed a dt of 2e53 s; the steps' positions passed
// 1e100): refused by name.
TEST(SceneFile, OutOfRangeNumbersAreRefusedByName) {
  auto starts = [](const json& j, const std::string& prefix) {
    const std::string e = error_of(j);
    EXPECT_EQ(e.rfind(prefix, 0), 0u) << e;
  };
  json j = good();
  j["dt"] = 2.2e53;
  starts(j, "dt: must be in (0, 1] s");
  j["dt"] = 0.0;
  starts(j, "dt: must be in (0, 1] s");
  j = good();
  j["time"] = -1.0;
  starts(j, "time: must be ≥ 0 s");
  j["time"] = 1e10;
  starts(j, "time: is 1e+13 steps of 0.001 s; at most 1e+09");
  j = good();
  j["gravity"] = {0.0, 0.0, -1e7};
  starts(j, "gravity: magnitude 1e+07 m/s² is above 1e+06");
  j = good();
  j["bodies"][1]["velocity"] = {1e300, 0.0, 0.0};
  starts(j, "bodies[1].velocity: 1e+300 is beyond ±1e15");
  j = good();
  j["bodies"][1]["angular_velocity"] = {0.0, 2e6, 0.0};
  starts(j, "bodies[1].angular_velocity: magnitude 2e+06 rad/s");
  j = good();
  j["solver"] = {{"friction_directions", 1e12}};
  starts(j, "solver.friction_directions: expected an integer from 3 to 64");
  j["solver"] = {{"pgs_iterations", 0.5}};
  starts(j, "solver.pgs_iterations: expected an integer from 1 to 1000000");
  j = good();
  j["bodies"][1]["shape"] = {{"shape", "tessellated_sphere"}, {"radius", 0.1}, {"vertices", 1e12}};
  starts(j, "bodies[1].shape.vertices: expected an integer from 4 to 1000000");
  // At the limits, the scene loads.
  j = good();
  j["dt"] = 1.0;
  j["time"] = 1e6;
  j["gravity"] = {0.0, 0.0, -1e6};
  j["solver"] = {{"friction_directions", 64}, {"pgs_iterations", 1e6}};
  EXPECT_NO_THROW(apps::scene_from_json(j));
}

TEST(SceneFile, FileErrorsNameTheFile) {
  try {
    apps::load_scene("/nonexistent/scene.json");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("scene file '/nonexistent/scene.json': no such file"), std::string::npos)
        << e.what();
  }
  for (const char* path : {"/tmp", "/dev/zero"}) try {
      apps::load_scene(path);
      ADD_FAILURE() << path << " loaded as a scene";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("not a regular file"), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace proxima
