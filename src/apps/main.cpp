// SPDX-License-Identifier: BSD-3-Clause
// The `proxima` command: query (JSON lines), sim (scene files), demo, bench,
// robot (a URDF's collisions) and watch (the predictive watchdog).
#include <array>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include <CLI/CLI.hpp>

#include <proxima/version.hpp>

#include "demo.hpp"
#include "nearest_name.hpp"
#include "query_page.hpp"
#include "query_protocol.hpp"
#include "replay_page.hpp"
#include "robot_protocol.hpp"
#include "scene.hpp"
#include "watch_protocol.hpp"

namespace {

// A number option's range, checked as CLI11 parses it: NaN, an infinity or a
// value out of range is an error naming the option ("--time: …").
CLI::Validator number_in(double lo, double hi, bool lo_open, const char* unit) {
  std::ostringstream what;
  what << (lo_open ? "> " : ">= ") << lo;
  if (std::isfinite(hi)) what << " and <= " << hi;
  if (*unit) what << " " << unit;
  const std::string range = what.str();
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        double v = 0.0;
        try {
          std::size_t used = 0;
          v = std::stod(text, &used);
          if (used != text.size()) return "'" + text + "' is not a number";
        } catch (const std::exception&) {
          return "'" + text + "' is not a number";
        }
        if (!std::isfinite(v) || (lo_open ? !(v > lo) : !(v >= lo)) || !(v <= hi))
          return "'" + text + "' must be " + range;
        return {};
      },
      range);
}

constexpr double kInf = std::numeric_limits<double>::infinity();

// The subcommands, for the message naming an unknown one.
constexpr std::array<std::string_view, 6> kCommands = {"query", "sim", "robot", "watch", "demo", "bench"};

// An unknown first word gets its own message: CLI11 says only "A subcommand
// is required", which reads as if the word were not there at all.
bool known_command(int argc, char** argv) {
  if (argc < 2 || argv[1][0] == '-') return true;
  for (std::string_view c : kCommands)
    if (c == argv[1]) return true;
  std::cerr << "proxima: unknown command '" << argv[1] << "'" << proxima::apps::did_you_mean(argv[1], kCommands)
            << "; the commands are query, sim, robot, watch, demo and bench (proxima --help)\n";
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  if (!known_command(argc, argv)) return 1;
  CLI::App app{"Proxima: collision, distance and contacts for robots"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("proxima ") + proxima::version());
  app.footer("Each command's inputs: proxima COMMAND --help. Formats: docs/query-protocol.md, docs/scene-format.md,\n"
             "docs/robot-command.md, docs/watch-command.md.");

  CLI::App* query = app.add_subcommand(
      "query", "Answer JSON-lines requests from stdin (collide, distance, signed_distance, contacts, ...)");
  query->footer(
      "Reads one JSON object per line on stdin, writes one JSON answer per line on stdout, in order, flushed:\n"
      "  {\"id\": 1, \"query\": \"signed_distance\", \"a\": {\"shape\": \"box\", \"size\": [1, 1, 1]},\n"
      "   \"pose_a\": {\"p\": [0, 0, 0.9]}, \"b\": {\"shape\": \"sphere\", \"radius\": 0.5}}\n"
      "query: collide | distance | signed_distance | tolerance | contacts | time_of_impact.\n"
      "Shapes: sphere, capsule, cylinder, cone, box, ellipsoid, halfspace, convex, mesh (inline or a file).\n"
      "Poses: {\"p\": [x, y, z], \"q\": [w, x, y, z]}. Optional: method, warm_start, bound, tolerance.\n"
      "A bad line gets {\"status\": \"error\", \"message\": ...} naming the field. Full format: "
      "docs/query-protocol.md.");

  std::string query_html;
  CLI::Option* query_html_flag = query->add_option(
      "--html", query_html, "Also write a 3-D page of the collide/distance/contacts answers (docs/viewer.md)");

  proxima::apps::DemoOptions demo_opt;
  CLI::App* demo = app.add_subcommand("demo", "Run the example queries, scenes and benchmark; write proxima-report/");
  demo->add_option("--report", demo_opt.report_dir, "Report folder")->capture_default_str();
  demo->add_option("--poses", demo_opt.bench_poses, "Poses per benchmark workload")
      ->check(CLI::Range(1, 100000000))
      ->capture_default_str();
  demo->add_flag("!--no-bench", demo_opt.bench, "Skip the benchmark");
  demo->add_flag("!--no-sim", demo_opt.sim, "Skip the example scenes");
  demo->add_option("--sim-scale", demo_opt.sim_time_scale, "Multiply the scenes' demo durations")
      ->check(number_in(0.0, 1e3, true, ""))
      ->capture_default_str();
  demo->add_option("--examples", demo_opt.examples_dir,
                   "Folder of the example scenes (default: the installed or the source tree's)");
  demo->add_flag("!--quiet", demo_opt.progress, "No progress line on stderr (shown only on a terminal)");

  int bench_poses = 1000;
  CLI::App* bench = app.add_subcommand("bench", "Run the side-by-side distance benchmark");
  bench->add_option("--poses", bench_poses, "Poses per workload")->check(CLI::Range(1, 100000000))->capture_default_str();
  bool bench_progress = true;
  bench->add_flag("!--quiet", bench_progress, "No progress line on stderr (shown only on a terminal)");

  std::string scene_path;
  proxima::apps::SimCommandOptions sim_opt;
  CLI::App* simc = app.add_subcommand("sim", "Run a scene file (docs/scene-format.md) and print its metrics");
  simc->add_option("scene", scene_path, "Scene file (JSON)")->required();
  simc->footer("The scene file is JSON: {\"name\", \"dt\", \"time\", \"gravity\", \"solver\": {...}, \"bodies\": [...],\n"
               "\"metrics\": [...]}; docs/scene-format.md lists every field. Prints the scene's metrics and timing.");
  double sim_time = 0.0, sim_dt = 0.0;
  int sim_friction_directions = 0;
  CLI::Option* sim_time_flag = simc->add_option("--time", sim_time, "Simulated seconds (default: the scene's \"time\")")
                                    ->check(number_in(0.0, 1e9, true, "s"));
  CLI::Option* sim_dt_flag =
      simc->add_option("--dt", sim_dt, "Time step, s (default: the scene's \"dt\")")->check(number_in(0.0, 1.0, true, "s"));
  simc->add_option("--out", sim_opt.out_path, "Trajectory CSV: per-step poses, energies, contacts, solver stats");
  simc->add_option("--contacts", sim_opt.contacts_path,
                   "Per-step contacts, JSON lines: bodies, point, normal, normal and friction force");
  simc->add_option("--solver", sim_opt.solver, "Override the solver: lemke or pgs")->check(CLI::IsMember({"lemke", "pgs"}));
  CLI::Option* sim_friction_flag =
      simc->add_option("--friction-directions", sim_friction_directions, "Override q, the friction cone's edges")
          ->check(CLI::Range(3, 64));
  simc->add_option("--friction-basis", sim_opt.friction_basis, "Override the cone's orientation: fixed or sliding")
      ->check(CLI::IsMember({"fixed", "sliding"}));
  simc->add_option("--formulation", sim_opt.formulation, "Override the contact formulation: peg or stewart_trinkle")
      ->check(CLI::IsMember({"peg", "stewart_trinkle"}));
  std::string sim_html;
  CLI::Option* sim_html_flag =
      simc->add_option("--html", sim_html, "Write a 3-D replay page (one HTML file, opens from disk; docs/viewer.md)");
  simc->add_flag("!--quiet", sim_opt.progress, "No progress line on stderr (shown only on a terminal)");

  proxima::apps::RobotCommandOptions robot_opt;
  std::vector<std::string> robot_packages;
  CLI::App* robotc = app.add_subcommand(
      "robot", "Load a URDF, then answer JSON lines {\"q\": [...]} with collision pairs and minimum distances");
  // ROS hands robot_description over as text: --urdf-xml / --srdf-xml take it
  // instead of a file (one or the other, never both).
  CLI::Option* urdf_file = robotc->add_option("urdf", robot_opt.urdf, "URDF file (or --urdf-xml)");
  CLI::Option* urdf_xml = robotc->add_option("--urdf-xml", robot_opt.urdf_xml,
                                             "URDF text instead of the file (ROS's robot_description); relative mesh "
                                             "paths resolve against the working directory");
  urdf_xml->excludes(urdf_file);
  CLI::Option* srdf_file =
      robotc->add_option("--srdf", robot_opt.srdf, "SRDF file: its disable_collisions pairs are not checked");
  robotc->add_option("--srdf-xml", robot_opt.srdf_xml, "SRDF text instead of --srdf (robot_description_semantic)")
      ->excludes(srdf_file);
  robotc->add_option("--planning-scene", robot_opt.planning_scene,
                     "MoveIt planning scene (.scene text, or .yaml/.yml moveit_msgs/PlanningScene): the stream's "
                     "scene until a \"scene\" line replaces it");
  robotc->add_option("--package", robot_packages, "NAME=DIR for package://NAME/ mesh URIs (repeatable)");
  robotc->add_option("--mesh-mode", robot_opt.mesh_mode, "Mesh links as their convex hull or the raw mesh")
      ->check(CLI::IsMember({"hull", "mesh"}))
      ->capture_default_str();
  robotc->add_option("--margin", robot_opt.margin, "Safety margin of every link, m")
      ->check(number_in(0.0, 1e3, false, "m"))
      ->capture_default_str();
  std::string robot_html;
  CLI::Option* robot_html_flag = robotc->add_option(
      "--html", robot_html, "Also write a 3-D page of the checked configurations, links coloured by clearance "
                            "(docs/viewer.md)");
  robotc->footer(
      "Reads one JSON request per line on stdin: {\"id\": 1, \"q\": [joint values in URDF order], \"environment\": [\n"
      "  {\"name\": \"table\", \"geometry\": {\"shape\": \"box\", \"size\": [1, 1, 0.1]}, \"pose\": {\"p\": [0.5, 0, 0]}}]}\n"
      "Optional: base, attached, tolerance, q_end with motion (a continuous check); a line {\"scene\": [...]} or\n"
      "{\"hold\": [...]} sets the stream's environment or held objects. Answers: self and environment\n"
      "collisions and distances. Full format: docs/robot-command.md.");

  proxima::apps::WatchCommandOptions watch_opt;
  std::vector<std::string> watch_packages;
  CLI::App* watchc = app.add_subcommand(
      "watch", "Predictive collision watchdog: JSON lines {\"t\": s, \"q\": [...]} in, warn / slow / stop out");
  watchc->add_option("urdf", watch_opt.robot.urdf, "URDF file")->required();
  watchc->add_option("--srdf", watch_opt.robot.srdf, "SRDF file: its disable_collisions pairs are not checked");
  watchc->add_option("--package", watch_packages, "NAME=DIR for package://NAME/ mesh URIs (repeatable)");
  watchc->add_option("--mesh-mode", watch_opt.robot.mesh_mode, "Mesh links as their convex hull or the raw mesh")
      ->check(CLI::IsMember({"hull", "mesh"}))
      ->capture_default_str();
  watchc->add_option("--margin", watch_opt.robot.margin, "Safety margin of every link, m")
      ->check(number_in(0.0, 1e3, false, "m"))
      ->capture_default_str();
  watchc->footer(
      "Reads joint samples as JSON lines on stdin: {\"t\": seconds, \"q\": [joint values in URDF order]}\n"
      "(times strictly increasing); {\"t\": s} alone is a tick; a line with \"program\" sets the program followed\n"
      "in automatic mode. Answers each with {\"level\": \"clear\" | \"warn\" | \"slow\" | \"stop\", \"speed_factor\",\n"
      "\"clearance\", \"reason\", ...}.\n"
      "--environment is a JSON file: an array of objects as in proxima robot, or a cell file {\"environment\",\n"
      "\"thresholds\"}. Full format and the stated guarantee: docs/watch-command.md.");
  std::string watch_html;
  CLI::Option* watch_html_flag = watchc->add_option(
      "--html", watch_html, "Also write a 3-D replay of the run with its clearance, level and speed factor over time "
                            "(docs/viewer.md)");
  watchc->add_option("--environment", watch_opt.environment, "JSON file: the environment array of `proxima robot`");
  watchc->add_option("--tool", watch_opt.tool, "Tool link, for the Cartesian motion model");
  watchc->add_option("--stop", watch_opt.watchdog.stop_distance, "Stop distance, m")->check(number_in(0.0, 1e3, false, "m"))->capture_default_str();
  watchc->add_option("--slow", watch_opt.watchdog.slow_distance, "Slow-down distance, m")
      ->check(number_in(0.0, 1e3, true, "m"))->capture_default_str();
  watchc->add_option("--warn", watch_opt.watchdog.warn_distance, "Warning distance, m")
      ->check(number_in(0.0, 1e3, true, "m"))->capture_default_str();
  watchc->add_option("--horizon", watch_opt.watchdog.horizon, "Predicted motion checked, s")
      ->check(number_in(0.0, 60.0, true, "s"))->capture_default_str();
  watchc->add_option("--stale-after", watch_opt.watchdog.stale_after, "Feed age at which slowing starts, s")
      ->check(number_in(0.0, 3600.0, false, "s"))
      ->capture_default_str();
  watchc->add_option("--stop-after", watch_opt.watchdog.stop_after, "Feed age at which the robot stops, s")
      ->check(number_in(0.0, 3600.0, true, "s"))
      ->capture_default_str();
  watchc->add_option("--angle-tolerance", watch_opt.feed.angle_tolerance,
                     "A sample may read this far beyond a revolute joint's limit, rad")
      ->check(number_in(0.0, 10.0, false, "rad"))
      ->capture_default_str();
  watchc->add_option("--length-tolerance", watch_opt.feed.length_tolerance,
                     "A sample may read this far beyond a prismatic joint's limit, m")
      ->check(number_in(0.0, 10.0, false, "m"))
      ->capture_default_str();
  watchc->add_option("--speed-tolerance", watch_opt.feed.speed_tolerance,
                     "A move between samples may imply this multiple of a joint's velocity limit")
      ->check(number_in(1.0, 1e3, false, ""))
      ->capture_default_str();
  double watch_deadline = 0.0;
  CLI::Option* watch_deadline_flag = watchc->add_option(
      "--deadline", watch_deadline, "Seconds of silence after which watch writes a stop itself (real-time mode)")
      ->check(number_in(0.0, 3600.0, true, "s"));
  watchc->add_option("--program-tolerance", watch_opt.program.tolerance,
                     "A sample farther from the program (joint space, rad) is off it: warn")
      ->check(number_in(0.0, 10.0, true, "rad"))
      ->capture_default_str();
  watchc->add_option("--program-fallback", watch_opt.program.fallback,
                     "Farther from the program than this, the prediction is checked instead, rad")
      ->check(number_in(0.0, 10.0, true, "rad"))
      ->capture_default_str();

  CLI11_PARSE(app, argc, argv);
  if (sim_time_flag->count() > 0) sim_opt.time = sim_time;
  if (sim_dt_flag->count() > 0) sim_opt.dt = sim_dt;
  if (sim_friction_flag->count() > 0) sim_opt.friction_directions = sim_friction_directions;
  if (sim_html_flag->count() > 0) sim_opt.html_path = sim_html;
  if (robot_html_flag->count() > 0) robot_opt.html_path = robot_html;
  if (watch_html_flag->count() > 0) watch_opt.html_path = watch_html;

  // NAME=DIR arguments into the package map; false (with a message) for a malformed one.
  auto parse_packages = [](const char* command, const std::vector<std::string>& args,
                           std::map<std::string, std::string>& packages) {
    for (const std::string& p : args) {
      const auto eq = p.find('=');
      if (eq == std::string::npos || eq == 0) {
        std::cerr << "proxima " << command << ": --package '" << p << "': expected NAME=DIR\n";
        return false;
      }
      packages[p.substr(0, eq)] = p.substr(eq + 1);
    }
    return true;
  };
  if (*robotc) {
    if (!parse_packages("robot", robot_packages, robot_opt.packages)) return 1;
    if (robot_opt.urdf.empty() && urdf_xml->count() == 0) {
      std::cerr << "proxima robot: the robot is missing: give a URDF file or --urdf-xml TEXT\n";
      return 1;
    }
    for (const auto& [flag, text] : {std::pair{"--urdf-xml", &robot_opt.urdf_xml}, {"--srdf-xml", &robot_opt.srdf_xml}}) {
      if (robotc->count(flag) != 0 && text->find_first_not_of(" \t\r\n") == std::string::npos) {
        std::cerr << "proxima robot: " << flag << ": the text is empty\n";
        return 1;
      }
    }
    std::ios::sync_with_stdio(false);
    return proxima::apps::run_robot_command(robot_opt, std::cin, std::cout, std::cerr);
  }
  if (*watchc) {
    if (!parse_packages("watch", watch_packages, watch_opt.robot.packages)) return 1;
    if (watch_deadline_flag->count() > 0) watch_opt.deadline = watch_deadline;  // checked by run_watch_command
    std::ios::sync_with_stdio(false);
    if (!watch_opt.deadline) return proxima::apps::run_watch_command(watch_opt, std::cin, std::cout, std::cerr);
    // Silence is answered too: stdin is polled, not read through std::cin.
    proxima::apps::FdLineSource stdin_lines(STDIN_FILENO);
    return proxima::apps::run_watch_command(watch_opt, stdin_lines, std::cout, std::cerr);
  }

  if (*simc) return proxima::apps::run_sim_command(scene_path, sim_opt, std::cout, std::cerr);

  if (*query) {
    std::ios::sync_with_stdio(false);
    if (query_html_flag->count() == 0) {
      proxima::apps::run_query_stream(std::cin, std::cout);
      return 0;
    }
    try {
      proxima::apps::ReplayPageFile page(query_html, "--html");
      proxima::apps::QueryReplay replay;
      proxima::apps::run_query_stream(std::cin, std::cout, replay);
      page.write(replay.data());
    } catch (const proxima::Error& e) {
      std::cerr << "proxima query: " << e.what() << "\n";
      return 1;
    }
    return 0;
  }
  if (*demo) return proxima::apps::run_demo(demo_opt, std::cout);
  if (*bench) {
    const std::string prog = proxima::apps::find_bench_program();
    if (prog.empty()) {
      std::cerr << "proxima bench: the program proxima-bench was not found beside proxima\n";
      return 1;
    }
    std::string cmd = "'" + prog + "' --poses " + std::to_string(bench_poses);
    if (!bench_progress) cmd.append(" --quiet");
    const int rc = std::system(cmd.c_str());
    return rc == 0 ? 0 : 1;
  }
  return 0;
}
