// SPDX-License-Identifier: BSD-3-Clause
// What the sphere prefilter holds once built (sphere_prefilter.cpp fills
// it, prefilter_tables.cpp adds the self pairs' tables).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include <proxima/robot/sphere_prefilter.hpp>

#include "prefilter_lanes.hpp"
#include "prefilter_rounding.hpp"

namespace proxima::robot {

// A lower bound on the distance of a self pair whose relative pose depends
// on one or two joint variables only (links near each other along the
// chain: a wrist and the hand it carries, which stay a couple of
// centimetres apart however the arm moves, closer than spheres fit):
// over a grid of those variables, the exact distance at each cell's centre
// less how far any point of the moving link can travel within the cell.
struct PrefilterPairTable {
  int count = 0;                     // variables: 0, 1 or 2
  std::array<int, 2> variable{};     // joint-vector indices
  std::array<double, 2> lower{}, inverse_width{};
  std::array<int, 2> cells{1, 1};
  int sub = 1;                       // sub-cells per variable of a refined cell
  /// A cell's bounds on the pair's distance: `lo` below it (above the
  /// tolerance, the pair is apart), `hi` above it (below the tolerance, the
  /// pair is within), rounded outward to floats (a lookup reads one short
  /// record: the tables of a robot would not fit a cache as doubles in
  /// parallel arrays); and the index of its first sub-cell in `subs` (sub ×
  /// sub of them, row-major; sub for one variable; they are not cut
  /// further), or −1 when its own bounds decide.
  struct Cell {
    float lo = 0.0f, hi = 0.0f;
    std::int32_t refined = -1;
  };
  std::vector<Cell> grid;  // cells[0] × cells[1], row-major
  std::vector<Cell> subs;

  /// A cell of bounds lo ≤ distance ≤ hi.
  static Cell cell_of(double lo, double hi) {
    Cell c;
    c.lo = static_cast<float>(lo);
    c.hi = static_cast<float>(hi);
    if (!(static_cast<double>(c.lo) <= lo)) c.lo = lo == lo ? std::nextafter(c.lo, -HUGE_VALF) : -HUGE_VALF;
    if (!(static_cast<double>(c.hi) >= hi)) c.hi = hi == hi ? std::nextafter(c.hi, HUGE_VALF) : HUGE_VALF;
    return c;
  }

  /// Where lane `lane` of the joint vectors `q` (a row of `lanes` values
  /// per variable) falls: its grid cell, and within it the sub-cell (index
  /// into a refined cell's sub × sub, or sub for one variable); false when
  /// a variable is outside the table. A point on a cell boundary is in
  /// either neighbour: both cells' bounds hold there.
  bool locate(const double* q, std::size_t lanes, std::size_t lane, std::size_t& cell, int& sub_cell) const {
    int whole[2] = {0, 0}, inside[2] = {0, 0};
    for (int v = 0; v < count; ++v) {
      const auto uv = static_cast<std::size_t>(v);
      const double x = (q[static_cast<std::size_t>(variable[uv]) * lanes + lane] - lower[uv]) * inverse_width[uv];
      if (!(x >= 0.0 && x < cells[uv])) return false;
      whole[v] = static_cast<int>(x);
      inside[v] = std::min(static_cast<int>((x - whole[v]) * sub), sub - 1);
    }
    cell = static_cast<std::size_t>(whole[0] * cells[1] + whole[1]);
    sub_cell = inside[0] * (count == 2 ? sub : 1) + inside[1];
    return true;
  }

  /// The bounds of a cell, or of its sub-cell where it is refined.
  const Cell& at(std::size_t cell, int sub_cell) const {
    const Cell& c = grid[cell];
    return c.refined < 0 ? c : subs[static_cast<std::size_t>(c.refined + sub_cell)];
  }
};

/// A pair table's verdicts at one tolerance t, all a lane needs of it in
/// a sixth of the memory or less (a robot's tables exceed a core's
/// cache as bounds; its lookups, one per open lane and pair, then wait on
/// memory): per cell, 0 (open), 1 (apart: lo > t) or 2 (within: hi < t),
/// or for a refined cell 3 with its sub-cells' verdicts, two bits each, in
/// `blocks` at the index in its upper 14 bits.
struct PrefilterVerdicts {
  static constexpr int kOpen = 0, kApart = 1, kWithin = 2, kRefined = 3;
  std::vector<std::uint16_t> grid;
  std::vector<std::uint32_t> blocks;

  static int verdict(const PrefilterPairTable::Cell& c, double t) {
    return c.lo > t ? kApart : c.hi < t ? kWithin : kOpen;
  }
  PrefilterVerdicts(const PrefilterPairTable& table, double t) {
    // A refined cell has at most 16 sub-cells and a table fewer than 2^14
    // cells (prefilter_tables.cpp asserts both).
    grid.reserve(table.grid.size());
    const auto per_cell = static_cast<std::size_t>(table.count == 2 ? table.sub * table.sub : table.sub);
    for (const PrefilterPairTable::Cell& c : table.grid) {
      if (c.refined < 0) {
        grid.push_back(static_cast<std::uint16_t>(verdict(c, t)));
        continue;
      }
      std::uint32_t block = 0;
      for (std::size_t i = 0; i < per_cell; ++i)
        block |= static_cast<std::uint32_t>(verdict(table.subs[static_cast<std::size_t>(c.refined) + i], t)) << (2 * i);
      grid.push_back(static_cast<std::uint16_t>(kRefined | blocks.size() << 2));
      blocks.push_back(block);
    }
  }
  /// The verdict at a cell and sub-cell (PrefilterPairTable::locate).
  int at(std::size_t cell, int sub_cell) const {
    const std::uint16_t g = grid[cell];
    if ((g & 3) != kRefined) return g & 3;
    return static_cast<int>(blocks[g >> 2] >> (2 * sub_cell) & 3u);
  }
};

struct SpherePrefilter::Data {
  bool available = true;
  std::size_t links = 0, variables = 0;
  int root = 0;
  std::vector<detail::PrefilterStep> steps;
  /// The steps the lanes run (fold_constant_steps), each link's frame (the
  /// link whose pose the lanes compute for it) and its pose in that frame;
  /// the points below (centres, inner centres, link-ball centres) are in
  /// their link's frame's coordinates.
  std::vector<detail::PrefilterStep> lane_steps;
  std::vector<int> frame;
  std::vector<Transform> to_frame;
  std::vector<std::vector<BoundingSphere>> link_spheres;
  /// What the float lanes may err by (prefilter_rounding.hpp): link
  /// origins within ±allowance.range of the base, and a bound on the
  /// distance of any ball centre from the base (`reach`).
  detail::KinematicsAllowance allowance;
  double reach = 0.0;
  /// Flat: link l's spheres are [begin[l], begin[l + 1]) of center/radius;
  /// the lanes' radius is grown by the centre's allowance, rounded up.
  std::vector<std::size_t> begin;
  std::vector<Vec3> center;
  std::vector<float> radius;
  /// Balls inside the link's solid shapes, flat as the spheres:
  /// [inner_begin[l], inner_begin[l + 1]); radii less the allowance,
  /// rounded down (a ball it leaves no radius is not kept).
  std::vector<std::size_t> inner_begin;
  std::vector<Vec3> inner_center;
  std::vector<float> inner_radius;
  /// One ball per link holding all of its spheres (radius < 0: none).
  std::vector<Vec3> bound_center;
  /// bound_center of each link of `geometric`, in its order, in its
  /// frame's coordinates; and that frame.
  std::vector<Vec3> geometric_bound_center;
  std::vector<int> geometric_frame;
  /// Its radius grown by the allowance (rounded up), and for the boxes of
  /// near_objects by the rounding of their corners too.
  std::vector<float> bound_radius, near_radius;
  std::vector<std::pair<int, int>> self_pairs;
  /// Per self pair: where its sphere pairs' (and inner ball pairs')
  /// squared reaches start in Scratch::reach2 (inner_reach2), one more at
  /// the end.
  std::vector<std::size_t> reach_begin, inner_reach_begin;
  /// Per self pair: its index into `tables`, or −1; and the index of a
  /// second table, the pair's own beside a swept first one, deciding some
  /// of what the first leaves open (−1: none).
  std::vector<int> pair_table, pair_second_table;
  /// The tables are made by the first SpherePrefilter::scene call.
  std::once_flag tables_once;
  std::vector<PrefilterPairTable> tables;
  /// Their verdicts at the tolerances of the latest scenes, each made by
  /// the first scene of its tolerance (a few kept: a caller seldom changes
  /// it; a scene holds its own).
  std::mutex verdicts_mutex;
  std::vector<std::pair<double, std::shared_ptr<const std::vector<PrefilterVerdicts>>>> verdicts;
  std::shared_ptr<const std::vector<PrefilterVerdicts>> verdicts_at(double tolerance);
  /// Links with spheres, for the environment loop.
  std::vector<int> geometric;
  std::vector<std::string> link_names;
  /// Each variable at the middle of its limits (0 when unbounded).
  std::vector<double> middle;
  /// Links with spheres that no joint moves.
  std::vector<int> fixed_links;
};

namespace detail {
/// A prefilter's data (its pair tables among them), for the tests.
struct PrefilterAccess {
  static const SpherePrefilter::Data& data(const SpherePrefilter& p) { return *p.d_; }
};
}  // namespace detail

}  // namespace proxima::robot
