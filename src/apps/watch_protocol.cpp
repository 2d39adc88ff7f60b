// SPDX-License-Identifier: BSD-3-Clause
#include "watch_protocol.hpp"

#include <chrono>
#include <cmath>
#include <fstream>
#include <istream>
#include <limits>
#include <optional>
#include <ostream>
#include <vector>

#include <proxima/core/error.hpp>
#include <proxima/io/file.hpp>
#include <proxima/robot/program_follower.hpp>
#include <proxima/robot/scene_watchdog.hpp>

#include "html_replay.hpp"
#include "json_lines.hpp"
#include "json_program.hpp"
#include "json_reader.hpp"
#include "watch_page.hpp"

namespace proxima::apps {

using nlohmann::json;
using namespace proxima::robot;

namespace {

json watch_error(const json& line, const std::string& message) { return error_line(line, "t", message); }

// +inf (nothing predicted) has no JSON spelling: null.
json finite_or_null(double x) { return std::isfinite(x) ? json(x) : json(nullptr); }

std::string joint_text(const WatchStreamOptions& o, int j) {
  const auto i = static_cast<std::size_t>(j);
  return i < o.joints.size() ? o.joints[i] : "joint " + std::to_string(j);
}

std::string unit_text(const WatchStreamOptions& o, int j, const char* per) {
  const auto i = static_cast<std::size_t>(j);
  return i < o.units.size() ? " " + o.units[i] + per : std::string();
}

// `age`: seconds since the last sample, for a stale feed's message.
json state_json(double t, const WatchdogState& s, const WatchStreamOptions& o, double age) {
  json a = {{"t", t},
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
            {"channel", o.channels.at(static_cast<std::size_t>(s.channel))},
            {"path", s.programmed ? "program" : "prediction"},
            {"deviation", finite_or_null(s.deviation)},
            {"program_time", finite_or_null(s.program_time)},
            {"off_program", s.off_program},
            {"reason", to_string(s.reason)}};
  switch (s.reason) {
    case WatchdogReason::joint_limit: {
      const bool above = s.joint_value > s.joint_limit;
      a["joint"] = joint_text(o, s.joint);
      a["value"] = s.joint_value;
      a["limit"] = s.joint_limit;
      a["message"] = joint_text(o, s.joint) + " reads " + number_text(s.joint_value) + unit_text(o, s.joint, "") +
                     ", " + (above ? "above its upper" : "below its lower") + " limit " +
                     number_text(s.joint_limit) + unit_text(o, s.joint, "");
      break;
    }
    case WatchdogReason::joint_speed:
      a["joint"] = joint_text(o, s.joint);
      a["value"] = finite_or_null(s.joint_value);  // +inf: a move in next to no time
      a["limit"] = s.joint_limit;
      a["message"] = joint_text(o, s.joint) + " moved at " + number_text(s.joint_value) +
                     unit_text(o, s.joint, "/s") + " since the last sample, above its velocity limit " +
                     number_text(s.joint_limit) + unit_text(o, s.joint, "/s");
      break;
    case WatchdogReason::stale_feed: a["message"] = "no sample for " + number_text(age) + " s"; break;
    case WatchdogReason::deadline: a["message"] = "no line for " + number_text(age) + " s"; break;
    case WatchdogReason::invalid_clearance: a["message"] = "a clearance could not be computed"; break;
    case WatchdogReason::none:
    case WatchdogReason::clearance: break;
  }
  return a;
}

// `sampled` is set when the line was a sample the watchdog took;
// `last_sample` is the time of the last one before it.
json answer_watch(Watchdog& dog, const WatchStreamOptions& o, const json& line,
                  const std::optional<double>& last_sample, bool& sampled) {
  try {
    if (!line.is_object()) return watch_error(line, "a line is a JSON object");
    // Every key is read and checked before the program or the watchdog sees
    // the line: a bad line changes nothing.
    double t = 0.0;
    const json* program = nullptr;
    std::optional<ProgramRequest> request;
    std::optional<MotionSample> sample;
    read_object(line, "", [&](ObjectReader& r) {
      // Times are seconds on the feed's clock: finite, within the range of lengths' magnitude.
      t = r.number("t", Range{-kMaxLength, kMaxLength, false, false, " s"});
      program = r.get("program");
      if (program && !program->is_null()) {
        if (o.follower == nullptr) fail("program", "this watchdog follows no program");
        request = program_from_json(*program, "program");
      }
      if (const json* q = r.get("q")) {
        array_at(*q, "q", "numbers");
        sample = MotionSample{t, {}};
        for (std::size_t i = 0; i < q->size(); ++i) sample->q.push_back(number_at((*q)[i], index_path("q", i)));
      }
    });
    if (program) {
      // Set, replaced or (null) cleared before the line's sample, if any.
      if (o.follower == nullptr) return watch_error(line, "program: this watchdog follows no program");
      if (request) o.follower->set(*request);
      else o.follower->clear();
    }
    if (!sample) return state_json(t, dog.tick(t), o, last_sample ? t - *last_sample : 0.0);
    const WatchdogState s = dog.update(*sample);
    sampled = true;
    return state_json(t, s, o, 0.0);
  } catch (const std::exception& e) {
    return watch_error(line, e.what());
  }
}

// Silence past the deadline: the last decision as of `t`, stopped.
json deadline_json(const Watchdog& dog, const WatchStreamOptions& o, double t, double silent) {
  WatchdogState s = dog.tick(t);
  s.level = WatchdogLevel::stop;
  s.speed_factor = 0.0;
  s.warning = 1.0;
  s.stale = true;
  s.reason = WatchdogReason::deadline;
  s.joint = -1;
  s.joint_value = s.joint_limit = 0.0;
  return state_json(t, s, o, silent);
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
// The channel names are the cell's own (checked by watched_channels); the
// keys inside each are the format's.
std::vector<ThresholdsFor> thresholds_from_json(const json& j) {
  require_object(j, "thresholds", "an object of channel names");
  std::vector<ThresholdsFor> out;
  for (const auto& [name, entry] : j.items()) {
    ThresholdsFor t{name, {}, {}, {}};
    require_object(entry, child_path("thresholds", name), "an object with \"stop\", \"slow\" and/or \"warn\" (m)");
    read_object(entry, child_path("thresholds", name), [&](ObjectReader& r) {
      for (auto [key, field] : {std::pair{"stop", &t.stop_distance}, std::pair{"slow", &t.slow_distance},
                                std::pair{"warn", &t.warn_distance}})
        if (const json* v = r.get(key)) *field = number_at(*v, r.field(key), kLengthRange);
    });
    out.push_back(std::move(t));
  }
  return out;
}

Cell load_cell(const std::string& path, MeshFiles& files) {
  if (path.empty()) return {};
  const std::string text = read_whole_file(path, "environment file");
  json file;
  try {
    file = parse_json(text);
  } catch (const json::exception& e) {
    throw Error("environment file '" + path + "' is not valid JSON: " + e.what());
  } catch (const Error& e) {
    throw Error("environment file '" + path + "': " + e.what());  // a duplicate key
  }
  try {
    Cell cell;
    if (file.is_object()) {
      read_object(file, "", [&](ObjectReader& r) {
        if (const json* e = r.get("environment")) cell.environment = environment_from_json(*e, files);
        if (const json* a = r.get("attached")) cell.attached = attached_from_json(*a, files);
        if (const json* t = r.get("thresholds")) cell.thresholds = thresholds_from_json(*t);
        if (const json* p = r.get("program")) cell.program = program_from_json(*p, "program");
      });
    } else {
      cell.environment = environment_from_json(file, files);
    }
    return cell;
  } catch (const Error& e) {
    throw Error("environment file '" + path + "': " + e.what());
  }
}

}  // namespace

int run_watch_stream(Watchdog& dog, const WatchStreamOptions& options, LineSource& in, std::ostream& out) {
  const std::optional<double>& deadline = options.deadline;
  if (deadline && !(std::isfinite(*deadline) && *deadline > 0.0))
    throw Error("deadline " + number_text(*deadline) + " must be a positive number of seconds");
  using clock = std::chrono::steady_clock;
  const auto since = [](clock::time_point then) { return std::chrono::duration<double>(clock::now() - then).count(); };
  int errors = 0;
  // The last sample taken (its time, and when it arrived), and when the
  // last line did: the deadline counts from there once a sample gave the
  // stream a time.
  std::optional<double> sample_t;
  clock::time_point sample_wall, line_wall;
  std::string text;
  for (;;) {
    double wait = std::numeric_limits<double>::infinity();
    if (deadline && sample_t) wait = *deadline - since(line_wall);
    const LineSource::Read r = in.next(text, wait);
    if (r == LineSource::Read::eof) break;
    json a;
    if (r == LineSource::Read::timeout) {
      if (!deadline || !sample_t) continue;  // no deadline armed: nothing to answer
      // One reading of the clock: the next stop comes `deadline` after this
      // one's stamp, and the stamps are that far apart.
      const clock::time_point now = clock::now();
      const double silent = std::chrono::duration<double>(now - line_wall).count();
      if (silent < *deadline) continue;
      line_wall = now;
      a = deadline_json(dog, options, *sample_t + std::chrono::duration<double>(now - sample_wall).count(), silent);
      if (options.observer) options.observer(json(), a);
    } else {
      if (text.find_first_not_of(" \t\r") == std::string::npos) continue;  // not a line to answer
      line_wall = clock::now();
      bool sampled = false;
      json line;
      try {
        line = parse_json(text);
        a = answer_watch(dog, options, line, sample_t, sampled);
      } catch (const json::exception& e) {
        a = watch_error(json(), std::string("not valid JSON: ") + e.what());
      } catch (const Error& e) {
        a = watch_error(json(), e.what());  // a duplicate key
      }
      if (sampled) {
        sample_t = a["t"].get<double>();
        sample_wall = line_wall;
      }
      if (a["status"] == "error") ++errors;
      else if (options.observer) options.observer(line, a);
    }
    out << answer_text(a) << '\n' << std::flush;
  }
  return errors;
}

int run_watch_stream(Watchdog& dog, const std::vector<std::string>& channels, std::istream& in, std::ostream& out,
                     ProgramFollower* follower) {
  StreamLineSource lines(in);
  WatchStreamOptions options;
  options.channels = channels;
  options.follower = follower;
  return run_watch_stream(dog, options, lines, out);
}

namespace {

// The flags that are checked here rather than by the watchdog, named as
// the command line spells them.
void check_flags(const WatchCommandOptions& o) {
  const auto check = [](bool ok, const char* flag, double x, const char* what) {
    if (!ok) throw Error(std::string(flag) + " " + number_text(x) + " must be " + what);
  };
  check(std::isfinite(o.feed.angle_tolerance) && o.feed.angle_tolerance >= 0.0, "--angle-tolerance",
        o.feed.angle_tolerance, "finite and >= 0 (rad)");
  check(std::isfinite(o.feed.length_tolerance) && o.feed.length_tolerance >= 0.0, "--length-tolerance",
        o.feed.length_tolerance, "finite and >= 0 (m)");
  check(std::isfinite(o.feed.speed_tolerance) && o.feed.speed_tolerance >= 1.0, "--speed-tolerance",
        o.feed.speed_tolerance, "finite and >= 1 (a multiple of the velocity limit)");
  if (o.deadline)
    check(std::isfinite(*o.deadline) && *o.deadline > 0.0, "--deadline", *o.deadline, "a positive number of seconds");
  // The default distances, before any channel is built from them: the
  // watchdog would name the first channel, not the flags.
  const WatchdogOptions& w = o.watchdog;
  for (const auto& [flag, x] : {std::pair{"--stop", w.stop_distance}, std::pair{"--slow", w.slow_distance},
                                std::pair{"--warn", w.warn_distance}})
    check(std::isfinite(x) && x >= 0.0 && x <= 1e3, flag, x, "finite, >= 0 and <= 1000 (m)");
  if (!(w.stop_distance < w.slow_distance && w.slow_distance <= w.warn_distance))
    throw Error("--stop " + number_text(w.stop_distance) + ", --slow " + number_text(w.slow_distance) + ", --warn " +
                number_text(w.warn_distance) + ": must be ordered stop < slow <= warn");
}

// "environment file 'F': " before an error about what the file set up, or
// "" when no file was given (the error then comes from the robot or flags).
std::string file_prefix(const WatchCommandOptions& o) {
  return o.environment.empty() ? std::string() : "environment file '" + o.environment + "': ";
}

}  // namespace

int run_watch_command(const WatchCommandOptions& options, std::istream& in, std::ostream& out, std::ostream& err) {
  if (options.deadline) {
    err << "proxima watch: --deadline needs its input as a file descriptor (poll), not a stream\n";
    return 1;
  }
  StreamLineSource lines(in);
  return run_watch_command(options, lines, out, err);
}

int run_watch_command(const WatchCommandOptions& options, LineSource& in, std::ostream& out, std::ostream& err) {
  try {
    check_flags(options);
    // Opened first: a bad page path fails before the robot loads.
    std::optional<ReplayPageFile> page;
    if (options.html_path) page.emplace(*options.html_path, "--html");
    MeshFiles files;
    const Cell cell = load_cell(options.environment, files);
    const Environment& env = cell.environment;
    const SceneChecker checker = [&] {
      SceneChecker robot = load_robot_checker(options.robot);
      if (cell.attached.empty()) return robot;
      try {
        return attach(robot, cell.attached);
      } catch (const Error& e) {
        throw Error(file_prefix(options) + e.what());
      }
    }();
    // Refused at the start rather than as an invalid clearance on every sample.
    if (auto e = checker.touch_error(env)) throw Error(file_prefix(options) + *e);
    WatchdogOptions watchdog = options.watchdog;
    const SceneClearances clearances = [&] {
      try {
        return watched_channels(checker, env, watchdog, cell.thresholds);
      } catch (const Error& e) {
        throw Error(file_prefix(options) + e.what());
      }
    }();
    ToolKinematics tool;
    if (!options.tool.empty()) tool = link_kinematics(checker.model(), options.tool);
    // The feed is checked against the robot's own limits.
    const RobotModel& model = checker.model();
    watchdog.limits = feed_limits(model, options.feed);
    Watchdog dog(model.variable_count(), clearances.channels, clearances.fn, watchdog, {}, std::move(tool));
    WatchStreamOptions so;
    so.channels = clearances.names;
    so.joints = model.variable_names();
    for (std::size_t i = 0; i < model.variable_count(); ++i)
      so.units.push_back(model.joint(model.variable_joint(i)).type == JointType::prismatic ? "m" : "rad");
    so.deadline = options.deadline;
    // The automatic mode: a program from the cell file or a stdin line is
    // checked ahead continuously (check_motion), as `proxima robot` does.
    const auto follower = follow_programs(dog, joint_limits(model), options.program,
                                          scene_segment_check(checker, env, clearances));
    if (cell.program) {
      try {
        follower->set(*cell.program);
      } catch (const Error& e) {
        throw Error(file_prefix(options) + e.what());
      }
    }
    so.follower = follower.get();
    if (!page) {
      run_watch_stream(dog, so, in, out);
      return 0;
    }
    // The page's colours run from the stop distance (red) to the warn distance (green).
    WatchRecorder recorder(checker, env, {watchdog.stop_distance, watchdog.warn_distance});
    so.observer = [&](const json& line, const json& answer) { recorder.observe(line, answer); };
    run_watch_stream(dog, so, in, out);
    page->write(recorder.data("proxima watch: " + model.name(), kDefaultFrameBudget));
    return 0;
  } catch (const std::exception& e) {
    err << "proxima watch: " << e.what() << '\n';
    return 1;
  }
}

}  // namespace proxima::apps
