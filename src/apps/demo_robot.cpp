// SPDX-License-Identifier: BSD-3-Clause
#include "demo_robot.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <numbers>
#include <ostream>

#include <proxima/robot/scene_watchdog.hpp>
#include <proxima/robot/urdf.hpp>

#include "data_dirs.hpp"
#include "html_replay.hpp"
#include "svg_plot.hpp"
#include "watch_page.hpp"

namespace proxima::apps {

using namespace proxima::robot;

namespace {

constexpr double kFeed = 0.032;     // s between joint samples (the paper's poll period)
constexpr double kShoulder = 0.4;   // rad/s commanded on joint 2
constexpr int kSteps = 250;         // 8 s of the unwatched jog
constexpr double kWatchedFor = 60.0;  // s: the closed loop gives up then

std::vector<double> ready_pose() {
  constexpr double pi = std::numbers::pi;
  return {0.0, -pi / 4, 0.0, -3 * pi / 4, 0.0, pi / 2, pi / 4};
}

}  // namespace

std::string default_robots_dir() { return robots_dir(); }

RobotDemo run_robot_demo(const std::string& robots_dir) {
  RobotDemo demo;
  try {
    using clock = std::chrono::steady_clock;
    const auto t0 = clock::now();
    const std::filesystem::path dir = std::filesystem::path(robots_dir) / "panda";
    const RobotModel model = load_urdf(dir / "panda.urdf");
    AllowedCollisionMatrix acm = AllowedCollisionMatrix::adjacent(model);
    apply_srdf(model, dir / "panda.srdf", acm);
    const SceneChecker checker(RobotGeometry(model), acm);
    demo.load_ms = std::chrono::duration<double, std::milli>(clock::now() - t0).count();
    demo.links = checker.model().links().size();
    demo.self_pairs = checker.self_pairs().size();
    Environment env;
    env.add("table", Box(Vec3(0.6, 1.0, 0.1)), Transform::from_translation(Vec3(0.65, 0.0, 0.15)));
    auto table_distance = [&](const std::vector<double>& q) {
      return checker.environment_distance(checker.state(q), env).distance;
    };

    std::vector<double> q = ready_pose();
    q.resize(checker.model().variable_count(), 0.0);
    const std::vector<double> start = q;
    demo.unwatched_time.push_back(0.0);
    demo.unwatched_table_mm.push_back(1e3 * table_distance(q));
    for (int k = 0; k < kSteps && demo.contact_time_unwatched < 0; ++k) {
      q[1] += kShoulder * kFeed;
      if (checker.environment_collision(checker.state(q), env).collide()) demo.contact_time_unwatched = (k + 1) * kFeed;
      demo.unwatched_time.push_back((k + 1) * kFeed);
      demo.unwatched_table_mm.push_back(1e3 * table_distance(q));
    }

    // The closed loop: the jog scaled by each answer, run until the stop
    // holds (a stop answered for a robot the predictor reads as still).
    q = start;
    WatchdogOptions options;
    const SceneClearances channels = watched_channels(checker, env, options);
    Watchdog dog(q.size(), channels.channels, channels.fn, options, {},
                 link_kinematics(checker.model(), "panda_hand"));
    demo.closest_watched = table_distance(q);
    // The page's colours run from the stop distance (red) to the warn distance (green), as `proxima watch --html`.
    WatchRecorder page(checker, env, {options.stop_distance, options.warn_distance});
    double total_us = 0.0;
    const int samples = static_cast<int>(kWatchedFor / kFeed);
    for (int k = 0; k < samples; ++k) {
      const auto u0 = clock::now();
      const WatchdogState s = dog.update({k * kFeed, q});
      const double us = std::chrono::duration<double, std::micro>(clock::now() - u0).count();
      total_us += us;
      demo.update_us_max = std::max(demo.update_us_max, us);
      ++demo.updates;
      const double d = table_distance(q);
      page.observe({{"t", k * kFeed}, {"q", q}},
                   {{"t", k * kFeed}, {"level", to_string(s.level)}, {"speed_factor", s.speed_factor},
                    {"clearance", std::isfinite(s.clearance) ? nlohmann::json(s.clearance) : nlohmann::json()},
                    {"channel", channels.names.at(static_cast<std::size_t>(s.channel))},
                    {"reason", to_string(s.reason)}});
      demo.time.push_back(k * kFeed);
      demo.table_mm.push_back(1e3 * d);
      demo.speed_factor.push_back(s.speed_factor);
      const bool stopped = s.speed_factor == 0.0 && s.model == MotionModel::stationary;
      if (k % 25 == 0 || stopped) {
        demo.steps.push_back({k * kFeed, to_string(s.level), channels.names.at(static_cast<std::size_t>(s.channel)),
                              s.speed_factor, d});
      }
      if (stopped) {
        demo.stop_time = k * kFeed;
        break;
      }
      q[1] += kShoulder * s.speed_factor * kFeed;
      demo.closest_watched = std::min(demo.closest_watched, table_distance(q));
    }
    demo.update_us_mean = total_us / demo.updates;
    demo.watch_page = page.data("proxima demo: the Panda's watched jog", kDefaultFrameBudget);
  } catch (const std::exception& e) {
    demo.error = e.what();
  }
  return demo;
}

std::vector<std::string> robot_plots(const RobotDemo& demo) {
  const PlotOptions distance{
      .title = "table distance, watched and unwatched", .y_label = "mm", .width = 480, .height = 200};
  return {svg_plot({{demo.time, demo.table_mm, "watched"}, {demo.unwatched_time, demo.unwatched_table_mm, "unwatched"}},
                   distance),
          svg_line_plot({demo.time, demo.speed_factor}, "watched jog: speed factor", "factor", 480,
                        200)};
}

void robot_markdown(const RobotDemo& demo, std::ostream& out, const std::vector<std::string>& plots,
                    const std::string& page) {
  if (!demo.error.empty()) {
    out << "The Panda did not load: " << demo.error << "\n";
    return;
  }
  const auto flags = out.flags();
  const auto precision = out.precision();
  out << std::fixed << std::setprecision(1);
  out << "The Franka Panda (" << demo.links << " links, " << demo.self_pairs
      << " link pairs checked after the SRDF's allowed pairs; convex hulls of its meshes, loaded in "
      << demo.load_ms << " ms) jogs its shoulder at " << kShoulder
      << " rad/s from the ready pose towards a table whose top is 0.2 m above its base, with a joint sample every "
      << kFeed * 1000 << " ms. Unwatched, it ";
  if (demo.contact_time_unwatched >= 0) {
    out << "touches the table after " << std::setprecision(3) << demo.contact_time_unwatched << std::setprecision(1)
        << " s.";
  }
  else {
    out << "never reaches the table in " << kSteps * kFeed << " s.";
  }
  out << " Watched (`proxima watch`'s defaults: warn 0.2 m, slow 0.1 m, stop 0.01 m, 0.5 s horizon), the speed factor "
         "is applied to the jog at each sample, a closed loop run until the stop holds: ";
  if (demo.stop_time >= 0) {
    out << "stopped for good after " << std::setprecision(2) << demo.stop_time << std::setprecision(1) << " s";
  } else {
    out << "still moving after " << kWatchedFor << " s";
  }
  out << ", its closest approach " << demo.closest_watched * 1000 << " mm. A watchdog update (motion fit, 10 predicted points, self and table "
      << "clearances at each) took " << demo.update_us_mean << " µs on average, " << demo.update_us_max
      << " µs at most, over " << demo.updates << " updates.\n\n";
  out << "| t (s) | level | deciding channel | speed factor | table distance (mm) |\n|---:|---|---|---:|---:|\n";
  for (const RobotDemo::Step& s : demo.steps) {
    out << "| " << std::setprecision(3) << s.t << " | " << s.level << " | " << s.channel << " | " << s.speed_factor
        << " | " << std::setprecision(1) << s.table_distance * 1000 << " |\n";
  }
  if (!plots.empty()) {
    out << "\n";
    for (const std::string& p : plots) out << "![" << p << "](" << p << ") ";
    out << "\n";
  }
  if (!page.empty()) {
    out << "\n[3-D replay of the watched jog](" << page
        << "): the Panda's links coloured by clearance, the clearance, level and speed factor under it.\n";
  }
  out.flags(flags);
  out.precision(precision);
}

}  // namespace proxima::apps
