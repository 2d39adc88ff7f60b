// SPDX-License-Identifier: BSD-3-Clause
// The robot part of `proxima demo`: the Franka Panda (tests/data/robots)
// jogging its shoulder towards a table, once unwatched (it hits the table)
// and once with the predictive watchdog setting its speed factor.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace proxima::apps {

struct RobotDemo {
  std::string error;  ///< why the robot did not load; empty when it did
  std::size_t links = 0, self_pairs = 0;
  double load_ms = 0.0;
  struct Step {
    double t = 0.0;
    std::string level, channel;
    double speed_factor = 1.0, table_distance = 0.0;
  };
  std::vector<Step> steps;             ///< the watched run, every few steps and the last
  double closest_watched = 0.0;        ///< smallest table distance of the watched run, m
  /// The watched run is a closed loop run until the stop holds (the speed
  /// factor 0 on a robot standing still): when that was (s; −1: not within
  /// the run's 60 s), and per sample its time, the table distance (mm) and
  /// the speed factor, for the plots.
  double stop_time = -1.0;
  std::vector<double> time, table_mm, speed_factor;
  double contact_time_unwatched = -1;  ///< when the unwatched jog touches the table, s (−1: never)
  /// The unwatched jog per sample, from the start to the contact: time (s) and table distance (mm).
  std::vector<double> unwatched_time, unwatched_table_mm;
  int updates = 0;                     ///< watchdog updates timed
  double update_us_mean = 0.0, update_us_max = 0.0;
  /// The watched run's replay page data (watch_page.hpp): the robot at each
  /// sample, its links coloured by clearance, the clearance, level and speed
  /// factor over time. Null when the robot did not load.
  nlohmann::json watch_page;
};

/// The robots' folder (the Panda's URDF, SRDF and meshes): installed or
/// the source tree's (data_dirs.hpp).
std::string default_robots_dir();

/// Runs both jogs; never throws (a robot that does not load sets `error`).
RobotDemo run_robot_demo(const std::string& robots_dir);

/// The runs as Markdown; `plots` (may be empty) names the SVG files of the
/// watched run's table distance and speed factor to link, `page` (may be
/// empty) the watched run's replay page.
void robot_markdown(const RobotDemo& demo, std::ostream& out, const std::vector<std::string>& plots = {},
                    const std::string& page = "");

/// The table distance over time of the watched run beside the unwatched
/// one, and the watched run's speed factor: SVG elements (svg_plot.hpp).
std::vector<std::string> robot_plots(const RobotDemo& demo);

}  // namespace proxima::apps
