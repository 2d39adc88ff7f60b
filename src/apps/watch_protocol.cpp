#include "watch_protocol.hpp"

#include <cmath>
#include <fstream>
#include <istream>
#include <optional>
#include <ostream>
#include <sstream>
#include <vector>

#include <proxima/core/error.hpp>
#include <proxima/robot/program_follower.hpp>
#include <proxima/robot/scene_watchdog.hpp>

#include "json_lines.hpp"
#include "json_program.hpp"

namespace proxima::apps {

using nlohmann::json;
using namespace proxima::robot;

namespace {

json watch_error(const json& line, const std::string& message) { return error_line(line, "t", message); }

// +inf (nothing predicted) has no JSON spelling: null.
json finite_or_null(double x) { return std::isfinite(x) ? json(x) : json(nullptr); }

json state_json(double t, const WatchdogState& s, const std::vector<std::string>& channels) {
  return {{"t", t},
          {"status", to_string(s.status)},
          {"level", to_string(s.level)},
          {"speed_factor", s.speed_factor},
          {"warning", s.warning},
          {"clearance", finite_or_null(s.clearance)},
          {"predicted_clearance", finite_or_null(s.predicted_clearance)},
          {"time_to_stop_distance", finite_or_null(s.time_to_stop_distance)},
          {"approaching", s.approaching},
          {"receding", s.receding},
          {"stale", s.stale},
          {"model", to_string(s.model)},
          {"channel", channels.at(static_cast<std::size_t>(s.channel))},
          {"path", s.programmed ? "program" : "prediction"},
          {"deviation", finite_or_null(s.deviation)},
          {"program_time", finite_or_null(s.program_time)},
          {"off_program", s.off_program}};
}

json answer_watch(Watchdog& dog, ProgramFollower* follower, const std::vector<std::string>& channels,
                  const json& line) {
  try {
    if (!line.is_object()) return watch_error(line, "a line is a JSON object");
    for (const auto& [key, value] : line.items())
      if (key != "t" && key != "q" && key != "program")
        return watch_error(line, "unknown key \"" + key + "\" (expected \"t\", \"q\" and \"program\")");
    if (!line.contains("t") || !line["t"].is_number()) return watch_error(line, "missing \"t\" (the time, s)");
    const double t = line["t"].get<double>();
    if (line.contains("program")) {
      // Set, replaced or (null) cleared before the line's sample, if any.
      if (follower == nullptr) return watch_error(line, "\"program\": this watchdog follows no program");
      if (line["program"].is_null()) follower->clear();
      else follower->set(program_from_json(line["program"], "program"));
    }
    if (!line.contains("q")) return state_json(t, dog.tick(t), channels);
    const json& q = line["q"];
    if (!q.is_array()) return watch_error(line, "\"q\" must be an array of numbers");
    MotionSample sample{t, {}};
    for (std::size_t i = 0; i < q.size(); ++i) {
      if (!q[i].is_number()) return watch_error(line, "\"q\"[" + std::to_string(i) + "] is not a number");
      sample.q.push_back(q[i].get<double>());
    }
    return state_json(t, dog.update(sample), channels);
  } catch (const std::exception& e) {
    return watch_error(line, e.what());
  }
}

// The cell file: the environment array, or {"environment": [...],
// "attached": [...], "thresholds": {...}} with the tools and parts the
// robot holds and distances of its own for some channels.
struct Cell {
  Environment environment;
  std::vector<AttachedObject> attached;
  std::vector<ThresholdsFor> thresholds;
  std::optional<ProgramRequest> program;
};

// "thresholds": {"table": {"stop": 0.02, "slow": 0.15}, "self": {"warn": 0.05}, ...}
std::vector<ThresholdsFor> thresholds_from_json(const json& j) {
  if (!j.is_object()) throw Error("\"thresholds\" must be an object of channel names");
  std::vector<ThresholdsFor> out;
  for (const auto& [name, entry] : j.items()) {
    const std::string where = "\"thresholds\".\"" + name + "\"";
    if (!entry.is_object()) throw Error(where + " must be an object with \"stop\", \"slow\" and/or \"warn\" (m)");
    ThresholdsFor t{name, {}, {}, {}};
    for (const auto& [key, value] : entry.items()) {
      std::optional<double>* field = key == "stop"   ? &t.stop_distance
                                     : key == "slow" ? &t.slow_distance
                                     : key == "warn" ? &t.warn_distance
                                                     : nullptr;
      if (field == nullptr)
        throw Error(where + ": unknown key \"" + key + "\" (expected \"stop\", \"slow\", \"warn\")");
      if (!value.is_number() || !std::isfinite(value.get<double>()) || value.get<double>() < 0.0)
        throw Error(where + ".\"" + key + "\" must be a finite distance ≥ 0 (m)");
      *field = value.get<double>();
    }
    out.push_back(std::move(t));
  }
  return out;
}

Cell load_cell(const std::string& path, MeshFiles& files) {
  if (path.empty()) return {};
  std::ifstream in(path);
  if (!in) throw Error("environment file '" + path + "' cannot be opened");
  json file;
  try {
    file = json::parse(in);
  } catch (const json::exception& e) {
    throw Error("environment file '" + path + "' is not valid JSON: " + e.what());
  }
  try {
    Cell cell;
    if (file.is_object()) {
      for (const auto& [key, value] : file.items())
        if (key != "environment" && key != "attached" && key != "thresholds" && key != "program")
          throw Error("unknown key \"" + key +
                      "\" (expected \"environment\", \"attached\", \"thresholds\" and \"program\")");
      if (file.contains("environment")) cell.environment = environment_from_json(file["environment"], files);
      if (file.contains("attached")) cell.attached = attached_from_json(file["attached"], files);
      if (file.contains("thresholds")) cell.thresholds = thresholds_from_json(file["thresholds"]);
      if (file.contains("program")) cell.program = program_from_json(file["program"], "program");
    } else {
      cell.environment = environment_from_json(file, files);
    }
    return cell;
  } catch (const Error& e) {
    throw Error("environment file '" + path + "': " + e.what());
  }
}

}  // namespace

int run_watch_stream(Watchdog& dog, const std::vector<std::string>& channels, std::istream& in, std::ostream& out,
                     ProgramFollower* follower) {
  return run_json_lines(in, out, [&](const std::string& text) {
    try {
      return answer_watch(dog, follower, channels, json::parse(text));
    } catch (const json::exception& e) {
      return watch_error(json(), std::string("not valid JSON: ") + e.what());
    }
  });
}

int run_watch_command(const WatchCommandOptions& options, std::istream& in, std::ostream& out, std::ostream& err) {
  try {
    MeshFiles files;
    const Cell cell = load_cell(options.environment, files);
    const Environment& env = cell.environment;
    const SceneChecker checker = [&] {
      SceneChecker robot = load_robot_checker(options.robot);
      if (cell.attached.empty()) return robot;
      try {
        return attach(robot, cell.attached);
      } catch (const Error& e) {
        throw Error("environment file '" + options.environment + "': " + e.what());
      }
    }();
    // Refused at the start rather than as an invalid clearance on every sample.
    if (auto e = checker.touch_error(env)) throw Error("environment file '" + options.environment + "': " + *e);
    WatchdogOptions watchdog = options.watchdog;
    const SceneClearances clearances = [&] {
      try {
        SceneClearances c =
            scene_clearances(checker, env, {.exact_within = largest_warn_distance(watchdog, cell.thresholds)});
        watchdog.channels = scene_thresholds(c, watchdog, cell.thresholds);
        return c;
      } catch (const Error& e) {
        throw Error("environment file '" + options.environment + "': " + e.what());
      }
    }();
    ToolKinematics tool;
    if (!options.tool.empty()) tool = link_kinematics(checker.model(), options.tool);
    Watchdog dog(checker.model().variable_count(), clearances.channels, clearances.fn, watchdog, {}, std::move(tool));
    // The automatic mode: a program from the cell file or a stdin line is
    // checked ahead continuously (check_motion), as `proxima robot` does.
    const auto follower = follow_programs(dog, joint_limits(checker.model()), options.program,
                                          scene_segment_check(checker, env, clearances));
    if (cell.program) {
      try {
        follower->set(*cell.program);
      } catch (const Error& e) {
        throw Error("environment file '" + options.environment + "': " + e.what());
      }
    }
    run_watch_stream(dog, clearances.names, in, out, follower.get());
    return 0;
  } catch (const std::exception& e) {
    err << "proxima watch: " << e.what() << '\n';
    return 1;
  }
}

}  // namespace proxima::apps
