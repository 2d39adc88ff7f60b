// SPDX-License-Identifier: BSD-3-Clause
#include "progress.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <utility>

namespace proxima::apps {

Progress::Progress(std::string label, double total, std::ostream* out, double interval)
    : label_(std::move(label)), total_(total > 0.0 ? total : 1.0), out_(out), interval_(interval),
      start_(Clock::now()), last_(start_) {}

Progress Progress::on_terminal(std::string label, double total, bool enabled, double interval) {
  return Progress(std::move(label), total, enabled && isatty(STDERR_FILENO) ? &std::cerr : nullptr, interval);
}

void Progress::update(double done, const std::string& note) {
  if (!out_) return;
  const Clock::time_point now = Clock::now();
  if (drawn_ && std::chrono::duration<double>(now - last_).count() < interval_) return;
  last_ = now;
  const double share = std::clamp(done / total_, 0.0, 1.0);
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  char figures[96];
  if (share > 0.0 && elapsed > 0.0) {
    const double left = elapsed * (1.0 - share) / share;
    std::snprintf(figures, sizeof figures, " %3.0f %%  %.0f s, about %.0f s left", 100.0 * share, elapsed, left);
  } else {
    std::snprintf(figures, sizeof figures, " %3.0f %%", 100.0 * share);
  }
  std::string line = label_;
  line.append(figures);
  if (!note.empty()) line.append("  ").append(note);
  // Pad over a longer previous line.
  const std::size_t width = line.size();
  if (width < width_) line.append(width_ - width, ' ');
  width_ = std::max(width_, width);
  *out_ << '\r' << line << std::flush;
  drawn_ = true;
}

void Progress::clear() {
  if (!out_ || !drawn_) return;
  *out_ << '\r' << std::string(width_, ' ') << '\r' << std::flush;
  drawn_ = false;
}

void Progress::finish() {
  clear();
  out_ = nullptr;
}

}  // namespace proxima::apps
