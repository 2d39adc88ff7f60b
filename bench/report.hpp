// SPDX-License-Identifier: BSD-3-Clause
// What the benchmark programs share in their reports: the machine's name and
// a table printed as Markdown or as padded plain text.
#pragma once

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <ostream>
#include <string>
#include <vector>

namespace proxima::bench {

/// The CPU's model name from /proc/cpuinfo ("unknown CPU" elsewhere).
inline std::string machine_name() {
  std::FILE* f = std::fopen("/proc/cpuinfo", "r");
  if (!f) return "unknown CPU";
  char line[512];
  std::string name = "unknown CPU";
  while (std::fgets(line, sizeof line, f)) {
    if (std::strncmp(line, "model name", 10) == 0) {
      if (const char* c = std::strchr(line, ':')) {
        name = c + 2;
        while (!name.empty() && (name.back() == '\n' || name.back() == ' ')) name.pop_back();
      }
      break;
    }
  }
  std::fclose(f);
  return name;
}

/// rows[0] is the header; `right[c]` right-aligns column c. Markdown escapes
/// '|' inside cells; plain text pads each column to its widest cell, counted
/// in code points (the tables hold "–", "×", "≤").
inline void print_table(const std::vector<std::vector<std::string>>& rows, bool markdown, std::ostream& out,
                        const std::vector<bool>& right = {}) {
  if (rows.empty()) return;
  const std::size_t cols = rows[0].size();
  auto right_aligned = [&](std::size_t c) { return c < right.size() && right[c]; };
  if (markdown) {
    for (std::size_t r = 0; r < rows.size(); ++r) {
      out << "|";
      for (const std::string& c : rows[r]) {
        std::string cell;
        for (char ch : c) cell += ch == '|' ? std::string("\\|") : std::string(1, ch);
        out << " " << cell << " |";
      }
      out << "\n";
      if (r == 0) {
        out << "|";
        for (std::size_t c = 0; c < cols; ++c) out << (right_aligned(c) ? "---:|" : "---|");
        out << "\n";
      }
    }
    return;
  }
  auto width = [](const std::string& s) {
    std::size_t n = 0;
    for (unsigned char ch : s) n += (ch & 0xC0) != 0x80;
    return n;
  };
  std::vector<std::size_t> w(cols, 0);
  for (const auto& row : rows)
    for (std::size_t c = 0; c < cols; ++c) w[c] = std::max(w[c], width(row[c]));
  for (const auto& row : rows) {
    for (std::size_t c = 0; c < cols; ++c) {
      const std::string pad(w[c] - width(row[c]), ' ');
      out << (right_aligned(c) ? pad + row[c] : row[c] + pad) << (c + 1 < cols ? "  " : "");
    }
    out << "\n";
  }
}

}  // namespace proxima::bench
