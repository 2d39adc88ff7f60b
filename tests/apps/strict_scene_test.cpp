// SPDX-License-Identifier: BSD-3-Clause
// Scene files (`proxima sim`) are read strictly: a misspelt "gravty" or
// "densty" is an error naming the field and its place, not a run without it.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>
#include <unistd.h>

#include <gtest/gtest.h>

#include <proxima/core/error.hpp>

#include "json_reader.hpp"
#include "scene.hpp"

namespace proxima::apps {
namespace {

using nlohmann::json;

// A resting box on a static ground: every section of the format once.
constexpr const char* kStrictScene = R"({
  "name": "strict", "gravity": [0, 0, -9.81], "dt": 0.001, "time": 0.01,
  "solver": {"kind": "pgs", "friction_directions": 4, "contact_margin": 0.005, "pgs_iterations": 50},
  "bodies": [
    {"name": "ground", "static": true, "shape": {"shape": "halfspace", "normal": [0, 0, 1], "offset": 0}},
    {"name": "box", "shape": {"shape": "box", "size": [0.2, 0.2, 0.2]}, "density": 1000,
     "pose": {"p": [0, 0, 0.1]}},
    {"name": "ball", "shape": {"shape": "tessellated_sphere", "radius": 0.1, "vertices": 50}, "mass": 1,
     "pose": {"p": [1, 0, 0.1]}}
  ],
  "friction": {"default": 0.5, "pairs": [{"a": "box", "b": "ground", "mu": 0.6}]},
  "metrics": [{"kind": "drift", "body": "box"}]
})";

// The error of parsing `text` as a scene ("" when it parses).
std::string scene_text_error(const std::string& text) {
  try {
    (void)scene_from_json(parse_json(text));
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

// kStrictScene with `from` replaced by `to` (which must occur once).
std::string mutated(const std::string& from, const std::string& to) {
  std::string s = kStrictScene;
  const std::size_t at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at == std::string::npos) return s;
  EXPECT_EQ(s.find(from, at + 1), std::string::npos) << from << " occurs twice";
  return s.replace(at, from.size(), to);
}

TEST(StrictScene, TheReferenceSceneParses) { EXPECT_EQ(scene_text_error(kStrictScene), ""); }

TEST(StrictScene, MisspeltKeysAreErrorsNamingTheirPlace) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {mutated("\"gravity\"", "\"gravty\""), "gravty: unknown key (did you mean \"gravity\"?)"},
      {mutated("\"density\"", "\"densty\""), "bodies[1]: missing \"density\" or \"mass\" (or \"static\": true)"},
      {mutated("\"density\": 1000", "\"density\": 1000, \"densty\": 1"),
       "bodies[1].densty: unknown key (did you mean \"density\"?)"},
      {mutated("\"contact_margin\"", "\"contact_margn\""),
       "solver.contact_margn: unknown key (did you mean \"contact_margin\"?)"},
      {mutated("\"vertices\": 50", "\"vertices\": 50, \"raduis\": 1"),
       "bodies[2].shape.raduis: unknown key (did you mean \"radius\"?)"},
      {mutated("\"size\": [0.2, 0.2, 0.2]", "\"size\": [0.2, 0.2, 0.2], \"margn\": 0.001"),
       "bodies[1].shape.margn: unknown key (did you mean \"margin\"?)"},
      {mutated("\"mu\": 0.6", "\"mu\": 0.6, \"muu\": 1"), "friction.pairs[0].muu: unknown key (did you mean \"mu\"?)"},
      {mutated("\"body\": \"box\"", "\"bdy\": \"box\""), "metrics[0].bdy: unknown key (did you mean \"body\"?)"},
      {mutated("\"pose\": {\"p\": [0, 0, 0.1]}", "\"pose\": {\"position\": [0, 0, 0.1]}"),
       "bodies[1].pose.position: unknown key (expected \"p\" or \"q\")"},
  };
  int checked = 0;
  for (const auto& [text, message] : cases) {
    EXPECT_EQ(scene_text_error(text), message);
    ++checked;
  }
  EXPECT_EQ(checked, 9);
}

TEST(StrictScene, DuplicateKeysAndInapplicableKeysAreErrors) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {mutated("\"density\": 1000", "\"density\": 1000, \"density\": 2000"), "bodies[1].density: duplicate key"},
      {mutated("\"dt\": 0.001", "\"dt\": 0.001, \"dt\": 0.1"), "dt: duplicate key"},
      {mutated("\"static\": true", "\"static\": true, \"density\": 1"),
       "bodies[0].density: a static body has no mass properties"},
      {mutated("\"density\": 1000", "\"density\": 1000, \"mass\": 1"), "bodies[1].density: give \"mass\" or \"density\", not both"},
      {mutated("{\"kind\": \"drift\", \"body\": \"box\"}", "{\"kind\": \"drift\", \"body\": \"box\", \"on\": \"ground\"}"),
       "metrics[0].on: applies to incline, belt, push and bounce metrics only"},
  };
  int checked = 0;
  for (const auto& [text, message] : cases) {
    EXPECT_EQ(scene_text_error(text), message);
    ++checked;
  }
  EXPECT_EQ(checked, 5);
}

TEST(StrictScene, NumbersOutOfRangeNameTheField) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {mutated("\"contact_margin\": 0.005", "\"contact_margin\": 1e300"),
       "solver.contact_margin: must be in [0, 1e+15] m (got 1e+300)"},
      {mutated("\"density\": 1000", "\"density\": 0"), "bodies[1].density: must be in (0, 1e+15] (got 0)"},
      {mutated("\"mu\": 0.6", "\"mu\": -1"), "friction.pairs[0].mu: must be in [0, 1e+15] (got -1)"},
      {mutated("\"pgs_iterations\": 50", "\"pgs_iterations\": 0.5"),
       "solver.pgs_iterations: expected an integer from 1 to 1000000 (got 0.5)"},
      {mutated("\"vertices\": 50", "\"vertices\": 3"),
       "bodies[2].shape.vertices: expected an integer from 4 to 1000000 (got 3)"},
      {mutated("\"contact_margin\": 0.005", "\"stabilization\": 2"), "solver.stabilization: must be in [0, 1] (got 2)"},
      {mutated("\"default\": 0.5", "\"default\": \"high\""), "friction.default: expected a number (got \"high\")"},
  };
  int checked = 0;
  for (const auto& [text, message] : cases) {
    EXPECT_EQ(scene_text_error(text), message);
    ++checked;
  }
  EXPECT_EQ(checked, 7);
}

// A mesh body's "feature_pairs" is a boolean, and read: a tetrahedron
// with it parses, a number or a misspelling is an error naming the key.
TEST(StrictScene, MeshFeaturePairsIsStrict) {
  auto scene = [](const std::string& extra) {
    return std::string(R"({"name": "fp", "bodies": [
      {"name": "tet", "static": true, "shape": {"shape": "mesh", "margin": 0.001,
       "vertices": [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]],
       "triangles": [[0, 2, 1], [0, 1, 3], [1, 2, 3], [0, 3, 2]])") +
           extra + "}}]}";
  };
  EXPECT_EQ(scene_text_error(scene(", \"feature_pairs\": true")), "");
  EXPECT_EQ(scene_text_error(scene("")), "");
  const std::string bad = scene_text_error(scene(", \"feature_pairs\": 1"));
  EXPECT_EQ(bad.rfind("bodies[0].shape.feature_pairs: ", 0), 0u) << bad;
  const std::string misspelt = scene_text_error(scene(", \"feature_pair\": true"));
  EXPECT_NE(misspelt.find("bodies[0].shape.feature_pair: unknown key"), std::string::npos) << misspelt;
  EXPECT_NE(misspelt.find("feature_pairs"), std::string::npos) << misspelt;  // the key it resembles
}

TEST(StrictScene, TheSimCommandExitsWithTheFieldNamed) {
  const auto path = std::filesystem::temp_directory_path() / ("strict_scene_" + std::to_string(::getpid()) + ".json");
  std::ofstream(path) << mutated("\"gravity\"", "\"gravty\"");
  std::ostringstream out, err;
  EXPECT_EQ(run_sim_command(path.string(), SimCommandOptions{}, out, err), 1);
  EXPECT_NE(err.str().find("gravty: unknown key (did you mean \"gravity\"?)"), std::string::npos) << err.str();
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace proxima::apps
