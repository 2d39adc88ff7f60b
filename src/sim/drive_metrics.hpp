// SPDX-License-Identifier: BSD-3-Clause
// Metrics of driven scenes (belt, push, bounce): each measures what a
// closed form predicts and reports both (docs/scene-format.md).
#pragma once

#include <memory>

#include <proxima/sim/metrics.hpp>

namespace proxima::sim::detail {

/// Body on a kinematic belt with a constant velocity v: the time to reach
/// v against v/(μ g) and the slip against v²/(2 μ g).
std::unique_ptr<Metric> belt_metric(const World& w, int body, int belt);
/// Body pushed by a kinematic pusher over static supports: the mean push
/// force after `from` over μ m g and the body's mean speed over the pusher's.
std::unique_ptr<Metric> push_metric(const World& w, int body, int pusher, double from);
/// Body dropped on `on`: the first rebound's height over the drop height,
/// against e² (e of the pair).
std::unique_ptr<Metric> bounce_metric(const World& w, int body, int on);

}  // namespace proxima::sim::detail
