// SPDX-License-Identifier: BSD-3-Clause
// `proxima sim --contacts`: one JSON line per step with each contact's
// bodies, point, normal and forces; the forces sum to the closed-form loads.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "scene.hpp"

namespace proxima {
namespace {

using nlohmann::json;

std::filesystem::path temp(const std::string& name) {
  return std::filesystem::temp_directory_path() / (name + "_" + std::to_string(::getpid()));
}

// A 0.2 m box (density 500: m = 4 kg) on a static floor, pushed along x by
// a kinematic plate at 0.5 m/s against μ = 0.5 (frictionless plate).
const char* kScene = R"({"name": "push", "dt": 0.001, "time": 0.4,
  "bodies": [
    {"name": "floor", "static": true, "shape": {"shape": "halfspace", "normal": [0, 0, 1], "offset": 0}},
    {"name": "box", "shape": {"shape": "box", "size": [0.2, 0.2, 0.2]}, "density": 500, "pose": {"p": [0, 0, 0.1]}},
    {"name": "plate", "shape": {"shape": "box", "size": [0.1, 0.4, 0.1]}, "pose": {"p": [-0.17, 0, 0.1]},
     "kinematic": {"velocity": [0.5, 0, 0]}}],
  "friction": {"default": 0.5, "pairs": [{"a": "plate", "b": "box", "mu": 0}]}})";

std::vector<json> run_with_contacts(const std::string& scene_text, int& exit_code, std::string& err_text) {
  const auto scene = temp("contact_output_scene.json");
  const auto lines = temp("contact_output.jsonl");
  std::ofstream(scene) << scene_text;
  apps::SimCommandOptions o;
  o.contacts_path = lines.string();
  o.progress = false;
  std::ostringstream out, err;
  exit_code = apps::run_sim_command(scene.string(), o, out, err);
  err_text = err.str();
  std::vector<json> parsed;
  std::ifstream in(lines);
  for (std::string line; std::getline(in, line);) parsed.push_back(json::parse(line));
  std::filesystem::remove(scene);
  std::filesystem::remove(lines);
  return parsed;
}

TEST(ContactOutput, ForcesPerContactSumToTheLoads) {
  int code = -1;
  std::string err;
  const std::vector<json> lines = run_with_contacts(kScene, code, err);
  ASSERT_EQ(code, 0) << err;
  ASSERT_EQ(lines.size(), 400u);  // one line per step
  const double m = 4.0, g = 9.81, mu = 0.5;
  int checked = 0;
  for (const json& line : lines) {
    ASSERT_EQ(line["step"].get<int>(), checked + 1);
    ASSERT_NEAR(line["time"].get<double>(), 0.001 * (checked + 1), 1e-12);
    ++checked;
    if (line["time"].get<double>() < 0.3) continue;  // the push is steady from here on
    double support = 0.0, floor_friction = 0.0, push = 0.0;
    for (const json& c : line["contacts"]) {
      const std::string a = c["a"], b = c["b"];
      const Vec3 n(c["normal"][0], c["normal"][1], c["normal"][2]);
      ASSERT_NEAR(n.norm(), 1.0, 1e-9);
      const Vec3 f(c["friction_force"][0], c["friction_force"][1], c["friction_force"][2]);
      ASSERT_NEAR(f.dot(n), 0.0, 1e-6);  // friction lies in the tangent plane
      ASSERT_GE(c["normal_force"].get<double>(), 0.0);
      // Forces as acting on the box (the output's are on body a).
      const double sign = a == "box" ? 1.0 : -1.0;
      const Vec3 on_box = sign * (c["normal_force"].get<double>() * n + f);
      const std::string other = a == "box" ? b : a;
      if (other == "floor") {
        support += on_box.z();
        floor_friction += on_box.x();
      } else {
        ASSERT_EQ(other, "plate");
        push += on_box.x();
      }
    }
    // Closed forms: the floor carries m g, its friction is μ m g against the
    // motion, and the plate pushes with μ m g (the box moves at constant speed).
    EXPECT_NEAR(support, m * g, 0.01 * m * g);
    EXPECT_NEAR(floor_friction, -mu * m * g, 0.01 * mu * m * g);
    EXPECT_NEAR(push, mu * m * g, 0.01 * mu * m * g);
  }
  EXPECT_EQ(checked, 400);
}

TEST(ContactOutput, AnUnwritablePathIsAnError) {
  const auto scene = temp("contact_output_scene2.json");
  std::ofstream(scene) << kScene;
  apps::SimCommandOptions o;
  o.contacts_path = "/nonexistent-dir/contacts.jsonl";
  o.progress = false;
  std::ostringstream out, err;
  EXPECT_EQ(apps::run_sim_command(scene.string(), o, out, err), 1);
  EXPECT_EQ(err.str(), "proxima sim: /nonexistent-dir/contacts.jsonl: cannot write the contacts file\n");
  std::filesystem::remove(scene);
}

}  // namespace
}  // namespace proxima
