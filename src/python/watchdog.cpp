// SPDX-License-Identifier: BSD-3-Clause
// The predictive collision watchdog (robot/watchdog.hpp) on a SceneChecker:
// one update per joint sample from the robot's feed, answering how fast the
// robot may go.
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <proxima/robot/program_follower.hpp>
#include <proxima/robot/scene_watchdog.hpp>
#include <proxima/robot/watchdog.hpp>

#include "bindings.hpp"
#include "convert.hpp"
#include "scene.hpp"

namespace proxima::python {
namespace {

// The Watchdog with what its clearance and tool functions refer to: the
// checker (held here, so Python may drop its SceneChecker) and the channels'
// names.
struct PyWatchdog {
  std::shared_ptr<const robot::SceneChecker> checker;
  std::vector<std::string> channels;
  std::optional<robot::Watchdog> dog;
  std::shared_ptr<robot::ProgramFollower> follower;  ///< the automatic mode (no program: manual)
};

struct PyWatchdogState {
  robot::WatchdogState state;
  std::string channel;
  std::optional<std::string> joint;  ///< the joint a feed stop names
};

// {"table": {"stop": 0.02, "slow": 0.15}, "self": {"warn": 0.05}}: every
// key and value checked, as the watch command's cell file.
std::vector<robot::ThresholdsFor> thresholds_arg(const std::optional<py::dict>& given) {
  std::vector<robot::ThresholdsFor> out;
  if (!given) return out;
  for (const auto& [key, value] : *given) {
    if (!py::isinstance<py::str>(key)) type_error("Watchdog: thresholds keys must be channel names (str)");
    const std::string name = key.cast<std::string>();
    if (!py::isinstance<py::dict>(value))
      type_error("Watchdog: thresholds['" + name + "'] must be a dict with 'stop', 'slow' and/or 'warn' (m)");
    robot::ThresholdsFor t{name, {}, {}, {}};
    for (const auto& [k, v] : value.cast<py::dict>()) {
      const std::string field = py::isinstance<py::str>(k) ? k.cast<std::string>() : std::string(py::repr(k));
      std::optional<double>* into = field == "stop"   ? &t.stop_distance
                                    : field == "slow" ? &t.slow_distance
                                    : field == "warn" ? &t.warn_distance
                                                      : nullptr;
      if (into == nullptr)
        value_error("Watchdog: thresholds['" + name + "']: unknown key '" + field + "' (expected 'stop', 'slow', 'warn')");
      if (py::isinstance<py::bool_>(v) || !(py::isinstance<py::float_>(v) || py::isinstance<py::int_>(v)))
        type_error("Watchdog: thresholds['" + name + "']['" + field + "'] must be a number (m)");
      *into = v.cast<double>();
    }
    out.push_back(std::move(t));
  }
  return out;
}

std::unique_ptr<PyWatchdog> make_watchdog(const Scene& scene, const std::optional<std::string>& tool, double stop,
                                          double slow, double warn, double horizon, int path_steps,
                                          double stale_after, double stop_after, bool self, bool environment,
                                          double angle_tolerance, double length_tolerance, double speed_tolerance,
                                          const std::optional<py::dict>& thresholds, double program_tolerance,
                                          double program_fallback) {
  auto w = std::make_unique<PyWatchdog>();
  w->checker = scene.checker;
  if (auto e = w->checker->touch_error(*scene.environment)) throw Error(*e);
  robot::WatchdogOptions o;
  o.stop_distance = stop;
  o.slow_distance = slow;
  o.warn_distance = warn;
  o.horizon = horizon;
  o.path_steps = path_steps;
  o.stale_after = stale_after;
  o.stop_after = stop_after;
  // The feed is checked against the robot's own limits.
  robot::FeedLimitOptions feed;
  feed.angle_tolerance = angle_tolerance;
  feed.length_tolerance = length_tolerance;
  feed.speed_tolerance = speed_tolerance;
  o.limits = robot::feed_limits(w->checker->model(), feed);
  const std::vector<robot::ThresholdsFor> given = thresholds_arg(thresholds);
  robot::SceneClearanceOptions co;
  co.self = self;
  co.environment = environment;
  const robot::SceneClearances clearances = robot::watched_channels(*w->checker, *scene.environment, o, given, co);
  if (clearances.channels == 0) value_error("Watchdog: nothing to watch (self_pairs=False and environment=False)");
  w->channels = clearances.names;
  robot::ToolKinematics kinematics;
  if (tool) kinematics = robot::link_kinematics(w->checker->model(), *tool);
  w->dog.emplace(w->checker->model().variable_count(), clearances.channels, clearances.fn, o, robot::PredictorOptions{},
                 std::move(kinematics));
  w->follower = robot::follow_programs(*w->dog, robot::joint_limits(w->checker->model()),
                                       {.tolerance = program_tolerance, .fallback = program_fallback},
                                       robot::scene_segment_check(*w->checker, *scene.environment, clearances, co));
  return w;
}

// A program of (t, q) waypoints, or a segment to `to` at `speed`.
robot::ProgramRequest program_arg(const py::object& waypoints, const py::object& to, const py::object& speed) {
  robot::ProgramRequest r;
  if (!waypoints.is_none()) {
    if (!to.is_none() || !speed.is_none()) value_error("set_program: waypoints, or to with speed, not both");
    std::size_t i = 0;
    for (const py::handle item : waypoints) {
      const std::string name = "waypoints[" + std::to_string(i++) + "]";
      if (!py::isinstance<py::sequence>(item) || py::len(item) != 2) value_error(name + ": must be a pair (t, q)");
      const auto pair = py::reinterpret_borrow<py::sequence>(item);
      const DoubleArray t = double_array(pair[0], name + ".t");
      if (t.ndim() != 0) value_error(name + ".t: must be a number, got shape " + shape_string(t));
      const DoubleArray q = double_array(pair[1], name + ".q");
      if (q.ndim() != 1) value_error(name + ".q: must be a 1-D array of joints, got shape " + shape_string(q));
      r.waypoints.push_back({*t.data(), std::vector<double>(q.data(), q.data() + q.size())});
    }
    if (r.waypoints.empty()) value_error("set_program: waypoints is empty");
    return r;
  }
  if (to.is_none() || speed.is_none()) value_error("set_program: give waypoints, or to and speed");
  const DoubleArray a = double_array(to, "to");
  if (a.ndim() != 1) value_error("to: must be a 1-D array of joints, got shape " + shape_string(a));
  r.to.assign(a.data(), a.data() + a.size());
  const DoubleArray v = double_array(speed, "speed");
  if (v.ndim() != 0) value_error("speed: must be a number, got shape " + shape_string(v));
  r.speed = *v.data();
  return r;
}

PyWatchdogState answer(const PyWatchdog& w, const robot::WatchdogState& s) {
  PyWatchdogState a{s, w.channels.at(static_cast<std::size_t>(s.channel)), std::nullopt};
  if (s.joint >= 0) {
    const robot::RobotModel& model = w.checker->model();
    a.joint = model.joint(model.variable_joint(static_cast<std::size_t>(s.joint))).name;
  }
  return a;
}

std::optional<double> joint_number(const PyWatchdogState& s, double x) {
  return s.joint ? std::optional<double>(x) : std::nullopt;
}

}  // namespace

void bind_watchdog(py::module_& m) {
  py::class_<PyWatchdogState>(m, "WatchdogState", "The watchdog's decision after a sample or a tick.")
      .def_property_readonly("status", [](const PyWatchdogState& s) { return std::string(to_string(s.state.status)); })
      .def_property_readonly("level", [](const PyWatchdogState& s) { return std::string(to_string(s.state.level)); },
                             "'clear', 'warn', 'slow' or 'stop'.")
      .def_property_readonly("speed_factor", [](const PyWatchdogState& s) { return s.state.speed_factor; },
                             "What to scale the robot's speed by, in [0, 1].")
      .def_property_readonly("warning", [](const PyWatchdogState& s) { return s.state.warning; },
                             "A beeper's loudness in [0, 1]; 0 unless approaching.")
      .def_property_readonly("clearance", [](const PyWatchdogState& s) { return s.state.clearance; })
      .def_property_readonly("predicted_clearance", [](const PyWatchdogState& s) { return s.state.predicted_clearance; })
      .def_property_readonly("time_to_stop_distance",
                             [](const PyWatchdogState& s) { return s.state.time_to_stop_distance; })
      .def_property_readonly("approaching", [](const PyWatchdogState& s) { return s.state.approaching; })
      .def_property_readonly("receding", [](const PyWatchdogState& s) { return s.state.receding; },
                             "The deciding channel moves away (or out of an overlap): allowed at full speed.")
      .def_property_readonly("stale", [](const PyWatchdogState& s) { return s.state.stale; })
      .def_property_readonly("model", [](const PyWatchdogState& s) { return std::string(to_string(s.state.model)); },
                             "The motion model fitted: 'stationary', 'joint' or 'cartesian'.")
      .def_property_readonly("channel", [](const PyWatchdogState& s) { return s.channel; },
                             "The channel that decided: a pair of links 'link_a/link_b', an object's name or a group's.")
      .def_property_readonly("reason", [](const PyWatchdogState& s) { return std::string(to_string(s.state.reason)); },
                             "Why: 'none' (clear), 'clearance', 'invalid_clearance', 'joint_limit', 'joint_speed' "
                             "or 'stale_feed'.")
      .def_property_readonly("joint", [](const PyWatchdogState& s) { return s.joint; },
                             "For 'joint_limit' and 'joint_speed': the joint that broke its limit; else None.")
      .def_property_readonly(
          "joint_value", [](const PyWatchdogState& s) { return joint_number(s, s.state.joint_value); },
          "Its position (joint_limit) or speed since the last sample (joint_speed); else None.")
      .def_property_readonly(
          "joint_limit", [](const PyWatchdogState& s) { return joint_number(s, s.state.joint_limit); },
          "The position or velocity limit it went beyond (without tolerance); else None.")
      .def_property_readonly("programmed", [](const PyWatchdogState& s) { return s.state.programmed; },
                             "The path checked was the program's (the automatic mode), not the prediction.")
      .def_property_readonly("deviation", [](const PyWatchdogState& s) { return s.state.deviation; },
                             "The sample's joint-space distance from the program (nan without one).")
      .def_property_readonly("program_time", [](const PyWatchdogState& s) { return s.state.program_time; },
                             "Where on the program the sample was located, program seconds (nan without one).")
      .def_property_readonly("off_program", [](const PyWatchdogState& s) { return s.state.off_program; },
                             "The sample is farther from the program than its tolerance: at least 'warn'.")
      .def("__repr__", [](const PyWatchdogState& s) {
        return "WatchdogState(level='" + std::string(to_string(s.state.level)) + "', speed_factor=" +
               repr(s.state.speed_factor) + ", clearance=" + repr(s.state.clearance) + ", channel='" + s.channel +
               "', reason='" + to_string(s.state.reason) + "')";
      });

  py::class_<PyWatchdog>(m, "Watchdog",
                         "The predictive collision watchdog (Dumitrache et al. §III) on a SceneChecker: feed it the "
                         "robot's joint samples; each answer says whether to warn, slow down or stop, only while "
                         "the robot approaches something. Watches the checker's environment as it is when made.")
      .def(py::init(&make_watchdog), py::arg("checker"), py::kw_only(), py::arg("tool") = py::none(),
           py::arg("stop") = 0.01, py::arg("slow") = 0.10, py::arg("warn") = 0.20, py::arg("horizon") = 0.5,
           py::arg("path_steps") = 10, py::arg("stale_after") = 0.1, py::arg("stop_after") = 0.3,
           py::arg("self_pairs").noconvert() = true, py::arg("environment").noconvert() = true,
           py::arg("angle_tolerance") = 0.02,
           py::arg("length_tolerance") = 0.002, py::arg("speed_tolerance") = 1.5, py::arg("thresholds") = py::none(),
           py::arg("program_tolerance") = 0.05, py::arg("program_fallback") = 0.2,
           "Watchdog(checker, *, tool=None (a link for the Cartesian motion model), stop=0.01, slow=0.10, warn=0.20 "
           "(m), horizon=0.5 (s), path_steps=10, stale_after=0.1, stop_after=0.3 (s), self_pairs=True, "
           "environment=True, angle_tolerance=0.02 (rad), length_tolerance=0.002 (m), speed_tolerance=1.5, "
           "thresholds=None, program_tolerance=0.05, program_fallback=0.2). Each sample is checked against the "
           "URDF's limits: beyond a position limit by more than the tolerance, or moving faster than "
           "speed_tolerance times a velocity limit, is a stop (reason 'joint_limit' or 'joint_speed'). thresholds: "
           "{channel: {'stop': m, 'slow': m, 'warn': m}} for some channels, an object's or group's name, "
           "'link_a/link_b' or 'self'; a pair of links given none rests close. program_tolerance, program_fallback "
           "(rad): off the program beyond the first, the prediction checked instead beyond the second. Raises "
           "proxima.Error for options out of order or range, or a name that is no channel's.")
      .def_property_readonly("channels", [](const PyWatchdog& w) { return w.channels; },
                             "Clearance channels: each pair of the robot's links 'link_a/link_b', then each object "
                             "or group (a point cloud is one).")
      .def(
          "thresholds",
          [](const PyWatchdog& w, const std::string& channel) {
            for (std::size_t c = 0; c < w.channels.size(); ++c) {
              if (w.channels[c] != channel) continue;
              const robot::ChannelThresholds& t = w.dog->thresholds(c);
              py::dict d;
              d["stop"] = t.stop_distance;
              d["slow"] = t.slow_distance;
              d["warn"] = t.warn_distance;
              return d;
            }
            value_error("Watchdog.thresholds: no channel '" + channel + "'");
          },
          py::arg("channel"),
          "The channel's distances in force {'stop', 'slow', 'warn'} (m): as given, or for a pair of links that "
          "rests close, as its first sample set them.")
      .def(
          "update",
          [](PyWatchdog& w, double t, const py::object& q) {
            const DoubleArray a = joints_arg(w.checker->model(), q);
            return answer(w, w.dog->update({t, std::vector<double>(a.data(), a.data() + a.size())}));
          },
          py::arg("t"), py::arg("q"),
          "A joint sample at time t (s, strictly increasing: raises proxima.Error for a time not after the last "
          "sample's): check it against the joint limits, predict, check the path, decide.")
      .def(
          "tick", [](const PyWatchdog& w, double now) { return answer(w, w.dog->tick(now)); }, py::arg("now"),
          "No sample by `now`: the last decision, its speed factor lowered for a stale feed. Raises proxima.Error "
          "for a time before the last sample's.")
      .def(
          "set_program",
          [](PyWatchdog& w, const py::object& waypoints, const py::object& to, const py::object& speed) {
            w.follower->set(program_arg(waypoints, to, speed));
          },
          py::arg("waypoints") = py::none(), py::kw_only(), py::arg("to") = py::none(), py::arg("speed") = py::none(),
          "The automatic mode from the next sample on: the program is checked ahead continuously instead of the "
          "prediction. set_program([(t, q), ...]) (program seconds, strictly increasing; piecewise linear in joint "
          "space) or set_program(to=q, speed=rad/s) (from the next sample's joints, the joint moving most at "
          "`speed`). Raises proxima.Error naming the field.")
      .def(
          "clear_program", [](PyWatchdog& w) { w.follower->clear(); },
          "Back to the manual mode (the prediction from the feed) from the next sample on.")
      .def_property_readonly("has_program", [](const PyWatchdog& w) { return w.follower->active(); });
}

}  // namespace proxima::python
