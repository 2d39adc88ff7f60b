// SPDX-License-Identifier: BSD-3-Clause
// A one-line progress indicator for long commands (sim, demo): the task, the
// share done and an estimate of the time left, redrawn in place on a
// terminal. Silent when switched off (--quiet) or when stderr is not a
// terminal, so logs and pipes get no carriage returns.
#pragma once

#include <chrono>
#include <ostream>
#include <string>

namespace proxima::apps {

class Progress {
 public:
  /// On `out` (nullptr: silent), redrawn at most every `interval` seconds.
  Progress(std::string label, double total, std::ostream* out, double interval = 0.2);
  /// On stderr when `enabled` and stderr is a terminal, else silent.
  static Progress on_terminal(std::string label, double total, bool enabled, double interval = 0.2);
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;
  ~Progress() { finish(); }

  /// `done` of `total` (clamped), with an optional note after the figures.
  void update(double done, const std::string& note = {});
  /// Erases the line, so that other output can follow; the next update
  /// draws it again.
  void clear();
  /// Erases the line and goes silent.
  void finish();
  bool active() const { return out_ != nullptr; }

 private:
  using Clock = std::chrono::steady_clock;
  std::string label_;
  double total_;
  std::ostream* out_;
  double interval_;
  Clock::time_point start_, last_;
  bool drawn_ = false;
  std::size_t width_ = 0;
};

}  // namespace proxima::apps
