// SPDX-License-Identifier: BSD-3-Clause
// `proxima watch` on arbitrary lines (joint samples and clock ticks) for the
// Panda beside a table, each input a fresh watchdog. The promise
// (apps/watch_protocol.hpp, docs/watch-command.md): one JSON answer per
// line, an error answer for a bad line, never an exception, a crash or a
// NaN (a number it cannot give, +inf, is written as null); a sample beyond
// the Panda's joint limits or speeds is a stop naming the joint.
#include <cstdint>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include <proxima/robot/scene_watchdog.hpp>
#include <proxima/shape/box.hpp>

#include "fuzz_input.hpp"
#include "json_checks.hpp"
#include "watch_protocol.hpp"

namespace {

using namespace proxima;

const robot::SceneChecker& panda() {
  static const robot::SceneChecker checker = [] {
    apps::RobotCommandOptions o;
    o.urdf = PROXIMA_ROBOTS_DIR "/panda/panda.urdf";
    o.srdf = PROXIMA_ROBOTS_DIR "/panda/panda.srdf";
    return apps::load_robot_checker(o);
  }();
  return checker;
}

// The channels (each pair of links, "table"); scene_clearances holds the checker by
// reference, which the static above keeps in place.
const robot::SceneClearances& clearances() {
  static const robot::SceneClearances c = [] {
    robot::Environment env;
    env.add("table", Shape(Box(1.5, 1.5, 0.1)), Transform::from_translation(Vec3(0.2, 0.0, -0.08)));
    return robot::scene_clearances(panda(), env);
  }();
  return c;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const robot::SceneClearances& c = clearances();
  // With the feed checked against the Panda's limits, as `proxima watch` does.
  robot::WatchdogOptions options;
  options.limits = robot::feed_limits(panda().model());
  robot::Watchdog dog(panda().model().variable_count(), c.channels, c.fn, options);
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  std::ostringstream out;
  apps::StreamLineSource input(in);
  apps::WatchStreamOptions stream;
  stream.channels = c.names;
  stream.joints = panda().model().variable_names();
  apps::run_watch_stream(dog, stream, input, out);
  std::istringstream lines(out.str());
  for (std::string l; std::getline(lines, l);) {
    const nlohmann::json a = nlohmann::json::parse(l, nullptr, false);
    if (a.is_discarded() || !a.is_object() || !a.contains("status")) fuzz::broken("answer line", l);
    proxima::fuzz::check_finite(a);
    const auto reason = a.find("reason");
    if (reason != a.end() && (*reason == "joint_limit" || *reason == "joint_speed") &&
        (a["level"] != "stop" || a["speed_factor"] != 0.0 || !a.contains("joint") || !a.contains("message")))
      fuzz::broken("feed stop", l);
  }
  return 0;
}
