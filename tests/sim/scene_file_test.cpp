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
  EXPECT_EQ(error_of(j), "bodies[1].mass: must be > 0");
  j["bodies"][1].erase("mass");
  j["bodies"][1]["density"] = -2.0;
  EXPECT_EQ(error_of(j), "bodies[1].density: must be > 0");
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
  EXPECT_EQ(error_of(j), "scene: missing \"bodies\"");
  j = good();
  j["metrics"] = json::parse(R"([{"kind": "drift", "body": "nobody"}])");
  EXPECT_EQ(error_of(j), "metrics[0]: metric.body: no body named \"nobody\"");
  j = good();
  j["friction"] = json::parse(R"({"pairs": [{"a": "box", "b": "floor"}]})");
  EXPECT_EQ(error_of(j), "friction.pairs[0]: missing \"mu\"");
}

TEST(SceneFile, FileErrorsNameTheFile) {
  try {
    apps::load_scene("/nonexistent/scene.json");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/scene.json"), std::string::npos);
  }
}

}  // namespace
}  // namespace proxima
