// SPDX-License-Identifier: BSD-3-Clause
// A pair table's verdicts at one tolerance (PrefilterVerdicts) against
// the comparison of its bounds they stand for: tables of zero, one and
// two variables, refined cells among plain ones, bounds on a coarse grid
// so that a tolerance often equals one of them (lo > t and hi < t are
// strict), every point drawn inside, on and beyond the table's edges.
#include <cstddef>
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "../../src/robot/prefilter_data.hpp"
#include "support/random.hpp"

namespace proxima::robot {
namespace {

using proxima::testing::Rng;

// A bound on the grid of 1/8 in [-1, 1]: ties with the tolerances below.
float grid_value(Rng& rng) { return static_cast<float>(static_cast<int>(rng.uniform(-8.0, 9.0)) / 8.0); }

PrefilterPairTable::Cell random_cell(Rng& rng) {
  PrefilterPairTable::Cell c;
  c.lo = grid_value(rng);
  c.hi = grid_value(rng);
  if (c.lo > c.hi) std::swap(c.lo, c.hi);
  return c;
}

PrefilterPairTable random_table(Rng& rng, int count) {
  PrefilterPairTable t;
  t.count = count;
  t.sub = count == 2 ? 4 : 16;
  for (int v = 0; v < count; ++v) {
    const auto uv = static_cast<std::size_t>(v);
    t.variable[uv] = v == 0 ? 2 : 0;
    t.lower[uv] = rng.uniform(-3.0, 0.0);
    t.cells[uv] = count == 1 ? 100 + static_cast<int>(rng.uniform(0.0, 200.0)) : 64;
    t.inverse_width[uv] = t.cells[uv] / rng.uniform(1.0, 6.0);
  }
  const auto per_cell = static_cast<std::size_t>(count == 2 ? t.sub * t.sub : t.sub);
  t.grid.resize(static_cast<std::size_t>(t.cells[0] * t.cells[1]));
  for (PrefilterPairTable::Cell& c : t.grid) {
    c = random_cell(rng);
    if (count > 0 && rng.uniform(0.0, 1.0) < 0.3) {
      c.refined = static_cast<std::int32_t>(t.subs.size());
      for (std::size_t i = 0; i < per_cell; ++i) t.subs.push_back(random_cell(rng));
    }
  }
  return t;
}

TEST(PrefilterVerdicts, AgreeWithTheBoundsEverywhere) {
  Rng rng(41);
  constexpr std::size_t kLanes = 8;
  const double tolerances[] = {0.0, 0.125, 0.5, -0.25, 0.01};
  int apart = 0, within = 0, open = 0, outside = 0;
  for (int round = 0; round < 60; ++round) {
    const PrefilterPairTable table = random_table(rng, round % 3);
    for (const double t : tolerances) {
      const PrefilterVerdicts verdicts(table, t);
      // Far smaller than the bounds: two bytes a cell, four per refined one.
      EXPECT_LE(verdicts.grid.size() * 2 + verdicts.blocks.size() * 4,
                (table.grid.size() + table.subs.size()) * sizeof(PrefilterPairTable::Cell) / 4);
      std::vector<double> q(3 * kLanes);
      for (int draw = 0; draw < 2000; ++draw) {
        for (std::size_t v = 0; v < 3; ++v)
          for (std::size_t l = 0; l < kLanes; ++l) {
            // Inside mostly; beyond either edge and on cell boundaries too.
            const bool bounded = v != 1 && table.count > (v == 2 ? 0 : 1);
            const std::size_t tv = v == 2 ? 0 : 1;
            double x = rng.uniform(-0.1, 1.1);
            if (draw % 5 == 0) x = static_cast<int>(rng.uniform(0.0, 65.0)) / 64.0;
            q[v * kLanes + l] =
                bounded ? table.lower[tv] + x * table.cells[tv] / table.inverse_width[tv] : rng.uniform(-9.0, 9.0);
          }
        for (std::size_t l = 0; l < kLanes; ++l) {
          std::size_t cell = 0;
          int sub_cell = 0;
          if (!table.locate(q.data(), kLanes, l, cell, sub_cell)) {
            ++outside;
            continue;
          }
          const double lo = table.at(cell, sub_cell).lo, hi = table.at(cell, sub_cell).hi;
          const int expected = lo > t ? PrefilterVerdicts::kApart
                               : hi < t ? PrefilterVerdicts::kWithin
                                        : PrefilterVerdicts::kOpen;
          ASSERT_EQ(verdicts.at(cell, sub_cell), expected)
              << "round " << round << " t " << t << " cell " << cell << " sub " << sub_cell;
          ++(expected == PrefilterVerdicts::kApart ? apart : expected == PrefilterVerdicts::kWithin ? within : open);
        }
      }
    }
  }
  // Every verdict and the outside were met many times.
  EXPECT_GT(apart, 10000);
  EXPECT_GT(within, 10000);
  EXPECT_GT(open, 10000);
  EXPECT_GT(outside, 10000);
}

}  // namespace
}  // namespace proxima::robot
