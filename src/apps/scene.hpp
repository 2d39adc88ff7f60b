// SPDX-License-Identifier: BSD-3-Clause
// Scene files for `proxima sim`; the format is documented in docs/scene-format.md.
#pragma once

#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <proxima/sim/metrics.hpp>
#include <proxima/sim/world.hpp>

#include "scene_robot.hpp"

namespace proxima::apps {

/// The magnitudes a scene file accepts (docs/scene-format.md), and
/// proxima.World's arguments too (src/python/simulation.cpp): beyond them a
/// few steps overflow the doubles. |gravity| m/s², |velocity| m/s and
/// |angular velocity| rad/s up to kMaxSceneRate; |force| N and |torque| N·m
/// up to kMaxSceneForce.
inline constexpr double kMaxSceneRate = 1e6;
inline constexpr double kMaxSceneForce = 1e12;

struct Scene {
  std::string name;
  sim::World world;
  double time = 1.0;  ///< default duration, s (the command's --time overrides)
  std::vector<sim::MetricSpec> metrics;
  /// At most one robot (scene_robot.hpp); run_scene steps it with the bodies.
  std::vector<SceneRobot> robots;
};

/// Parses a scene. Throws proxima::Error whose message starts with the
/// path of the offending field (e.g. `bodies[2].mass: must be > 0`).
/// Relative mesh "file" paths are resolved against `base_dir` (the scene
/// file's directory for load_scene; empty: the working directory).
Scene scene_from_json(const nlohmann::json& j, const std::string& base_dir = {});
/// Reads and parses a file; the message names the file too.
Scene load_scene(const std::string& path);

/// Throws proxima::Error naming `dt_field` or `time_field` unless dt is in
/// (0, 1] s, time is ≥ 0 and time / dt is at most 1e9 steps (the scene's
/// limits, docs/scene-format.md).
void check_run(double dt, double time, const std::string& dt_field, const std::string& time_field);

/// Tessellated sphere: the hull of n Fibonacci-spiral points on a sphere of
/// `radius`, turned to rest on a face ("face") or balanced on a vertex
/// ("vertex") and shifted so that the lowest point is the local origin with
/// the centroid straight above it.
std::vector<Vec3> tessellated_sphere_points(double radius, int n, const std::string& rest);

struct SimRunResult {
  std::vector<sim::MetricResult> metrics;
  sim::TimingSummary timing;
  int steps = 0;
};

/// Called after every step (after the metrics have seen it).
using StepObserver = std::function<void(const sim::World&, const sim::StepStats&)>;
/// In a scene with a robot: called with step 0 before the first step (the
/// robot world is made inside run_scene) and after every step, after the
/// StepObserver.
using RobotObserver = std::function<void(const robot::RobotWorld&, int step)>;

/// Runs `scene` for `duration` s at its dt, writing one CSV line per step to
/// `csv` when given (header first; columns in docs/scene-format.md). A scene
/// with a robot is stepped by robot::RobotWorld (its bodies are handed back
/// to scene.world at the end); its CSV adds the joints' positions and motor
/// torques; `on_robot` sees the robot world.
SimRunResult run_scene(Scene& scene, double duration, std::ostream* csv, const StepObserver& on_step = {},
                       const RobotObserver& on_robot = {});

/// Command-line overrides of `proxima sim` (≤ 0 or empty: the scene's).
struct SimCommandOptions {
  std::optional<double> time, dt;          ///< override the scene's "time" and "dt"
  std::string solver;                      ///< lemke | pgs
  std::optional<int> friction_directions;  ///< q ≥ 3
  std::string friction_basis;  ///< fixed | sliding
  std::string formulation;     ///< peg | stewart_trinkle
  std::string out_path;        ///< trajectory CSV
  std::optional<std::string> html_path;  ///< the 3-D replay page (html_replay.hpp)
  std::string contacts_path;   ///< per-step contact forces, JSON lines (sim_contacts.hpp)
  bool progress = true;        ///< a progress line on stderr when it is a terminal (off: --quiet)
};

/// The `proxima sim` command; returns the exit code (1 with a message on
/// stderr naming the field for a bad scene file or option).
int run_sim_command(const std::string& scene_path, const SimCommandOptions& options, std::ostream& out,
                    std::ostream& err);

}  // namespace proxima::apps
