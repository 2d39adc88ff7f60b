// SPDX-License-Identifier: BSD-3-Clause
// The prepared triangles (prepared_triangle.hpp) one mesh–mesh contact query
// has touched, each made once per query: in the terrain benchmark a foot
// triangle meets terrain triangles from several leaf pairs, and the shadow
// test and the emission come back to both triangles of every pair within
// the layers. Hits name their triangles by slot, so B's triangles are
// transformed into A's frame once, not again per pair, per shadow check and
// per contact.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "prepared_triangle.hpp"

namespace proxima::mesh::detail {

class TriangleCache {
 public:
  // Forgets the previous query's triangles, keeping the memory.
  void clear() {
    slots_.clear();
    if (!table_.empty()) std::memset(table_.data(), 0, table_.size() * sizeof(table_[0]));
  }

  // Room for n triangles without growing (a query's first guess; a reused
  // cache already has it).
  void reserve(std::size_t n) {
    slots_.reserve(n);
    while (table_.size() < 2 * n) grow();
  }

  // The slot of triangle `tri`, prepared from make() on first use.
  template <class Make>
  std::uint32_t slot(std::uint32_t tri, Make&& make) {
    if (2 * (slots_.size() + 1) > table_.size()) grow();
    const std::size_t mask = table_.size() - 1;
    for (std::size_t i = hash(tri) & mask;; i = (i + 1) & mask) {
      const std::uint64_t e = table_[i];
      if (e == 0) {
        const auto s = static_cast<std::uint32_t>(slots_.size());
        slots_.emplace_back();
        slots_.back().reset(make());
        table_[i] = entry(tri, s);
        return s;
      }
      if (static_cast<std::uint32_t>(e >> 32) == tri + 1) return static_cast<std::uint32_t>(e);
    }
  }

  std::size_t size() const { return slots_.size(); }
  PreparedTriangle& operator[](std::uint32_t s) { return slots_[s]; }
  const PreparedTriangle& operator[](std::uint32_t s) const { return slots_[s]; }

 private:
  // Entries are (triangle + 1, slot); 0 is an empty cell.
  static std::uint64_t entry(std::uint32_t tri, std::uint32_t s) { return std::uint64_t(tri + 1) << 32 | s; }
  static std::size_t hash(std::uint32_t tri) { return (std::uint64_t(tri) * 0x9e3779b97f4a7c15ull) >> 40; }

  void grow() {
    std::vector<std::uint64_t> old;
    old.swap(table_);
    table_.assign(old.empty() ? 64 : 2 * old.size(), 0);
    const std::size_t mask = table_.size() - 1;
    for (const std::uint64_t e : old) {
      if (e == 0) continue;
      std::size_t i = hash(static_cast<std::uint32_t>(e >> 32) - 1) & mask;
      while (table_[i] != 0) i = (i + 1) & mask;
      table_[i] = e;
    }
  }

  std::vector<PreparedTriangle> slots_;
  std::vector<std::uint64_t> table_;  // open addressing, at most half full
};

}  // namespace proxima::mesh::detail
