// SPDX-License-Identifier: BSD-3-Clause
#include "nearest_name.hpp"

#include <algorithm>
#include <cctype>
#include <vector>

namespace proxima::apps {
namespace {

char lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

// Optimal string alignment distance: a transposed pair ("raduis") costs one edit, as typists make it.
std::size_t edit_distance(std::string_view a, std::string_view b) {
  const std::size_t n = a.size(), m = b.size();
  std::vector<std::size_t> d((n + 1) * (m + 1));
  const auto at = [&](std::size_t i, std::size_t j) -> std::size_t& { return d[i * (m + 1) + j]; };
  for (std::size_t i = 0; i <= n; ++i) at(i, 0) = i;
  for (std::size_t j = 0; j <= m; ++j) at(0, j) = j;
  for (std::size_t i = 1; i <= n; ++i)
    for (std::size_t j = 1; j <= m; ++j) {
      const std::size_t cost = lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1;
      at(i, j) = std::min({at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost});
      if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) && lower(a[i - 2]) == lower(b[j - 1]))
        at(i, j) = std::min(at(i, j), at(i - 2, j - 2) + 1);
    }
  return at(n, m);
}

}  // namespace

std::string nearest_name(std::string_view given, std::span<const std::string_view> known) {
  std::string_view best;
  std::size_t best_d = 0;
  for (std::string_view k : known) {
    const std::size_t limit = std::clamp<std::size_t>(std::max(given.size(), k.size()) / 3, 1, 3);
    const std::size_t d = edit_distance(given, k);
    if (d <= limit && (best.empty() || d < best_d)) {
      best = k;
      best_d = d;
    }
  }
  return std::string(best);
}

std::string did_you_mean(std::string_view given, std::span<const std::string_view> known) {
  const std::string n = nearest_name(given, known);
  return n.empty() ? std::string() : std::string(" (did you mean \"").append(n).append("\"?)");
}

}  // namespace proxima::apps
