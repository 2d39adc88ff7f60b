// SPDX-License-Identifier: BSD-3-Clause
// Scene metrics: what each example scene measures, observed step by step.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <proxima/sim/world.hpp>

namespace proxima::sim {

/// Settings of a metric (scene file "metric" object, docs/scene-format.md).
struct MetricSpec {
  std::string kind;          ///< support_force | incline | spin | energy | drift | belt | push | bounce
  std::string body;          ///< the body measured (not used by energy)
  std::string on;            ///< incline: the inclined static body; belt, push: the kinematic body; bounce: the floor
  double from = 0.0;         ///< start of the measuring window, s
};

/// One number (plus context) a scene reports, and whether it met its bound.
struct MetricResult {
  std::string name;
  double value = 0.0;
  std::string text;  ///< one human line, e.g. "support / weight = 1.00000"
};

class Metric {
 public:
  virtual ~Metric() = default;
  /// Called once before the first step.
  virtual void start(const World& world) = 0;
  /// Called after every step.
  virtual void observe(const World& world, const StepStats& stats) = 0;
  virtual std::vector<MetricResult> results() const = 0;
};

/// Extremes of an energy series: the largest rise above the running minimum
/// (energy regained after a loss is a gain, even below the starting value)
/// and the largest fall below the starting value.
struct EnergyExtremes {
  double start = 0.0;
  double lowest = 0.0;
  double max_gain = 0.0;  ///< max over t of e(t) − min over s ≤ t of e(s), ≥ 0
  double max_loss = 0.0;  ///< max over t of start − e(t), ≥ 0
  explicit EnergyExtremes(double e0 = 0.0) : start(e0), lowest(e0) {}
  void add(double e) {
    lowest = e < lowest ? e : lowest;
    max_gain = e - lowest > max_gain ? e - lowest : max_gain;
    max_loss = start - e > max_loss ? start - e : max_loss;
  }
};

/// Throws proxima::Error naming the field for an unknown kind or body.
std::unique_ptr<Metric> make_metric(const MetricSpec& spec, const World& world);

/// Timing over a run: mean ms per step of each phase.
struct TimingSummary {
  int steps = 0;
  double broadphase = 0, contacts = 0, build = 0, solve = 0;
  int fallbacks = 0;
  int unconverged_queries = 0, failed_queries = 0;  ///< pair queries, StepStats
  int max_contacts = 0;
  int intersecting_steps = 0;  ///< steps with a mesh contact of intersecting cores
  void add(const StepStats& s);
  std::string text() const;
};

}  // namespace proxima::sim
