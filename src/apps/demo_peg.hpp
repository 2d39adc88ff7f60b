// SPDX-License-Identifier: BSD-3-Clause
// The Polyhedral Exact Geometry part of `proxima demo`: the paper's two
// benchmarks (examples/peg_sawtooth.json, examples/peg_hills.json) run with
// PEG and with Stewart–Trinkle, and the sawtooth at Δt = 1e-4 … 1e-1, plotted
// as the paper's figures plot them: trajectories over the true surface,
// problem size and solve time per step, and energy.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "svg_plot.hpp"

namespace proxima::apps {

/// One run of a PEG scene.
struct PegRun {
  std::string formulation;  ///< peg | stewart_trinkle
  double dt = 0.0;
  PlotSeries trajectory;   ///< the particle's (x, y), m
  PlotSeries rows;         ///< contact rows + PEG aux rows per step
  PlotSeries solve_ms;     ///< LCP solve time per step
  PlotSeries energy;       ///< kinetic + potential (gravity and the constant force) − its start value, J
  double max_gain = 0.0;   ///< largest rise of the energy above its running minimum, J
  double lowest = 0.0;     ///< the particle's lowest y, m (below the surface: it fell through)
  double ms_per_step = 0.0;
  int steps = 0;
};

struct PegScene {
  std::string file, name;
  std::vector<PegRun> runs;  ///< at the scene's dt: PEG, then Stewart–Trinkle
  PlotSeries surface;        ///< the obstacles' true top surface (x, y), for the trajectory plots
};

/// The sawtooth and the hills at their own dt, both formulations (Lemke),
/// for their scene time times `time_scale`, and the sawtooth also at the
/// other three of Δt = 1e-4, 1e-3, 1e-2, 1e-1 s (its `runs` then hold those
/// after the first two: PEG's, then Stewart–Trinkle's, in order of dt).
/// A scene that fails to load is reported in `log` and skipped.
std::vector<PegScene> run_demo_peg(const std::string& examples_dir, double time_scale, std::ostream& log);

/// A Markdown table: scene, formulation, dt, steps, energy gain, lowest
/// point, ms/step.
void peg_markdown(const std::vector<PegScene>& scenes, std::ostream& out);

/// A self-contained HTML page of the plots.
std::string peg_html(const std::vector<PegScene>& scenes, const std::string& command, const std::string& date);

}  // namespace proxima::apps
