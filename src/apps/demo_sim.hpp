// SPDX-License-Identifier: BSD-3-Clause
// The simulator part of `proxima demo`: short runs of every shipped scene,
// a metrics table (Markdown) and an HTML page with inline SVG plots.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include <proxima/sim/metrics.hpp>

#include "svg_plot.hpp"

namespace proxima::apps {

struct SceneReport {
  std::string file, name, solver;
  double duration = 0.0;
  std::vector<sim::MetricResult> metrics;
  sim::TimingSummary timing;
  std::string tracked_body;  ///< whose displacement `drift` plots
  PlotSeries drift_mm;       ///< |x(t) − x(t_ref)| of tracked_body, mm (t_ref: the drift metric's start, else 0)
  PlotSeries energy_j;       ///< kinetic + potential − its start value, J
  PlotSeries contacts;       ///< contact points per step
  PlotSeries ms_per_step;    ///< wall-clock time of each step
  std::string replay_page;   ///< the run's 3-D replay page, a file name in the report folder; empty when none
};

/// The shipped scenes and their demo durations (a few simulated seconds,
/// chosen so that the whole set runs in a few wall-clock seconds).
struct DemoScene {
  const char* file;
  double seconds;
};
const std::vector<DemoScene>& demo_scenes();

/// Runs every demo scene found in `examples_dir` for its duration times
/// `time_scale`; progress lines go to `log`. A scene that fails to load
/// is reported in `log` and skipped. With a `replay_dir`, each run's 3-D
/// replay page (html_replay.hpp) is written there as replay_<scene file
/// stem>.html; without three.js (Debian's libjs-three) `log` says so once
/// and the runs go on without pages.
std::vector<SceneReport> run_demo_scenes(const std::string& examples_dir, double time_scale, std::ostream& log,
                                         const std::string& replay_dir = "");

/// One Markdown table: scene, solver, simulated time, metrics, ms/step.
void sim_markdown(const std::vector<SceneReport>& reports, std::ostream& out);

/// The report's other pages, file names in the report folder ("" when not written).
struct ReportLinks {
  std::string watch_page;  ///< the Panda's watched jog in 3-D
  std::string peg_page;    ///< the PEG benchmarks' plots
  std::string query_page;  ///< the example queries and manifolds in 3-D
  std::string mug_page;    ///< the scanned mug's boundary-layer contacts in 3-D
};

/// A self-contained HTML page: per scene, the metrics table next to plots
/// of drift, energy, contacts per step and time per step, and links to the
/// report's other pages.
std::string sim_html(const std::vector<SceneReport>& reports, const std::string& command, const std::string& date,
                     const ReportLinks& links = {});

/// The example scenes' folder: installed or the source tree's (data_dirs.hpp).
std::string default_examples_dir();

}  // namespace proxima::apps
