// SPDX-License-Identifier: BSD-3-Clause
// The measurement loop every adapter shares, so all peers are timed alike.
#pragma once

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <exception>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "workload.hpp"

namespace proxima::bench::detail {

/// Forces `value` to be materialised, so a query whose result is otherwise
/// unused cannot be elided or hoisted out of the timing loop.
template <class T>
inline void keep(const T& value) {
  asm volatile("" : : "g"(&value) : "memory");
}

inline double median(std::vector<double> values) {
  if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
  const auto mid = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
  std::nth_element(values.begin(), mid, values.end());
  if (values.size() % 2 == 1) return *mid;
  return 0.5 * (*mid + *std::max_element(values.begin(), mid));
}

/// Median time of one call of `fn` in ns: calls are timed in batches of
/// enough calls to last ≥ 20 µs (one calibration call first), `repeats`
/// batches, the median batch mean returned. Used for Proxima and every peer
/// alike.
template <class Fn>
double median_call_ns(Fn&& fn, int repeats) {
  using clock = std::chrono::steady_clock;
  auto start = clock::now();
  fn();
  const double one = std::chrono::duration<double, std::nano>(clock::now() - start).count();
  const int batch = std::clamp(static_cast<int>(20000.0 / std::max(one, 1.0)), 1, 10000);
  std::vector<double> means;
  for (int r = 0; r < std::max(repeats, 1); ++r) {
    start = clock::now();
    for (int k = 0; k < batch; ++k) fn();
    means.push_back(std::chrono::duration<double, std::nano>(clock::now() - start).count() / batch);
  }
  return median(std::move(means));
}

inline void append_note(PeerCell& cell, const std::string& text) {
  if (!cell.note.empty()) cell.note += "; ";
  cell.note += text;
}

/// What a penetration query returns: the signed distance (negative = -depth)
/// and the unit normal from B to A in the PeerCell::normals convention.
struct Depth {
  double distance = std::numeric_limits<double>::quiet_NaN();
  std::array<double, 3> normal{std::numeric_limits<double>::quiet_NaN(),
                               std::numeric_limits<double>::quiet_NaN(),
                               std::numeric_limits<double>::quiet_NaN()};
};

/// For pose i: `prepare(i)` untimed, one untimed `query()` whose value is the
/// reported distance (NaN = failure), then `repeats` timed queries. Failed
/// poses contribute no time; the first exception's message goes in the note.
/// A query returning a Depth also fills cell.normals (a non-finite normal is
/// kept as given: the distance alone decides failure).
template <class Prepare, class Query>
void measure(const Workload& work, int repeats, PeerCell& cell, Prepare&& prepare, Query&& query) {
  using clock = std::chrono::steady_clock;
  constexpr bool with_normals = std::is_same_v<std::decay_t<decltype(query())>, Depth>;
  const std::size_t poses = std::min(work.pose_a.size(), work.pose_b.size());
  cell.distances.assign(poses, std::numeric_limits<double>::quiet_NaN());
  if constexpr (with_normals) cell.normals.assign(poses, Depth{}.normal);
  cell.failures = 0;
  repeats = std::max(repeats, 1);
  std::vector<double> times;
  times.reserve(poses);
  bool noted_exception = false;
  for (std::size_t i = 0; i < poses; ++i) {
    try {
      prepare(i);
      const auto answer = query();
      double d = 0.0;
      if constexpr (with_normals)
        d = answer.distance;
      else
        d = answer;
      if (!std::isfinite(d)) {
        ++cell.failures;
        continue;
      }
      const auto start = clock::now();
      for (int r = 0; r < repeats; ++r) keep(query());
      const auto stop = clock::now();
      times.push_back(std::chrono::duration<double, std::nano>(stop - start).count() / repeats);
      cell.distances[i] = d;
      if constexpr (with_normals) cell.normals[i] = answer.normal;
    } catch (const std::exception& e) {
      ++cell.failures;
      if (!noted_exception) append_note(cell, std::string("threw: ") + e.what());
      noted_exception = true;
    } catch (...) {
      ++cell.failures;
      if (!noted_exception) append_note(cell, "threw a non-std exception");
      noted_exception = true;
    }
  }
  cell.median_ns = median(std::move(times));
}

}  // namespace proxima::bench::detail
