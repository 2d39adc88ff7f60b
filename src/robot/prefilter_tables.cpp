// SPDX-License-Identifier: BSD-3-Clause
// The sphere prefilter's pair tables: for a self pair whose relative pose
// depends on few joint variables, bounds on its distance over a grid of
// them, measured once with the narrow phase.
//
// A pair a (above) – b (below) depends on the variables of the joints
// between them. Two of those can be taken out by sweeping a link instead:
// the joint just below a turns everything beneath it about a line fixed in
// a's frame, so the distance from a to b at any angle of that joint is at
// least the distance from a swept through every angle about the line to b
// at one angle; the joint just above b turns b about a line fixed in b's
// frame, so b swept about it may stand in for b at any angle of it. The
// sweep is held by a hull (revolved_hull.hpp), which bounds the distance
// from below (proofs of apart), and holds solids of revolution that every
// turn of the link holds, which bound the signed distance from above
// (proofs of within). Of the tables a pair allows (its own variables, one
// end swept, both swept; at most two variables left), the one that decides
// the most of its grid at tolerance 0 is kept, and the pair's own beside it
// where that proves "within" over more of the grid.
#include <proxima/robot/sphere_prefilter.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <tuple>
#include <vector>

#include <proxima/core/parallel.hpp>
#include <proxima/query.hpp>
#include <proxima/robot/scene_checker.hpp>

#include "prefilter_data.hpp"
#include "revolved_hull.hpp"

namespace proxima::robot {

using detail::PrefilterStep;

namespace {

// A two-variable table's cells at most (kMaxCells²), a one-variable
// table's, and the travel a cell may allow (m): a table then costs up to
// 128 × 128 (or 2048) narrow-phase distances, and as many again per cell
// refined. 128² cells instead of 64² left the UR5's wrist pairs open over
// half as much of their grids (its rows 11 % faster); the verdicts, which a
// row reads, still fit a core's second-level cache.
constexpr int kMaxCells = 128;
constexpr int kMaxCellsOne = 2048;
constexpr double kCellTravel = 0.004;
// The band of distances (m) that counts as undecided: such a cell gets
// sub-cells, kSubCells per variable of a two-variable table, kSubCellsOne
// of a one-variable table.
constexpr double kRefineBand = 0.01;
constexpr int kSubCells = 4;
constexpr int kSubCellsOne = 16;
// A cell whose neighbours' distances already bound its own above this (m)
// is not measured: its lower bound comes from theirs, and it proves
// nothing within (a pair that far apart is within no tolerance a check
// usually asks). Most of a table is that far, so most narrow-phase
// distances are saved.
constexpr double kFar = 0.1;
// Copies of a swept link in its hull.
constexpr int kTurns = 64;
// A table deciding this share of its grid is kept without trying sweeps.
constexpr double kGoodEnough = 0.98;
// A pair's own table is kept beside a swept one where it decides this
// share of its grid that the swept one leaves open.
constexpr double kSecondTableShare = 0.005;
// PrefilterVerdicts packs a refined cell's sub-cells, two bits each, into
// 32 bits, and the index of those 32 bits into 14.
static_assert(kSubCells * kSubCells <= 16 && kSubCellsOne <= 16);
static_assert(kMaxCells * kMaxCells <= (1 << 14) && kMaxCellsOne <= (1 << 14));

// The step moving each link (−1: the root).
std::vector<int> moving_steps(const std::vector<PrefilterStep>& steps, std::size_t links) {
  std::vector<int> out(links, -1);
  for (std::size_t i = 0; i < steps.size(); ++i) out[static_cast<std::size_t>(steps[i].child)] = static_cast<int>(i);
  return out;
}

// Shapes in a link's frame: each with its pose there.
using ShapeList = std::vector<std::pair<const Shape*, Transform>>;

ShapeList link_shapes(const SceneChecker& c, int link) {
  ShapeList out;
  for (const LinkShape& shape : c.geometry().link(link).shapes) out.emplace_back(shape.shape(), shape.origin);
  return out;
}

// A link turned about a joint's line: the hull of its sweep, which holds
// every rotation (for proofs of apart), and the solids every rotation
// holds (for proofs of within); how far the hull reaches from the link's
// frame origin.
struct Swept {
  std::optional<Shape> hull;
  std::vector<Shape> inside;
  double reach = 0.0;
};

Swept sweep(const std::vector<LinkShape>& shapes, const std::pair<Vec3, Vec3>& line) {
  Swept out;
  std::optional<ConvexPolytope> hull = detail::revolved_hull(shapes, line.first, line.second, kTurns);
  if (!hull) return out;
  for (const Vec3& v : hull->vertices()) out.reach = std::max(out.reach, v.norm());
  out.reach += hull->core_inflation();
  out.hull.emplace(std::move(*hull));
  for (ConvexPolytope& in : detail::inscribed_revolutions(shapes, line.first, line.second)) out.inside.emplace_back(std::move(in));
  return out;
}

// Warm starts of the narrow phase for one table's cells, one per pair of
// shapes: neighbouring cells are near in pose and share them.
struct PairCaches {
  std::vector<GjkCache> gjk;
  // The pair overlapped at the last cell asked.
  std::vector<unsigned char> overlapped;
};

// The smallest distance between the shapes of a (a's frame at the origin)
// and of b (b's frame at `pose`), margins included: −inf when some pair
// has no usable answer. A pair that overlapped at the last cell is asked
// `collide` first: an overlap's distance is 0, and `distance` would also
// find its direction of least penetration (EPA), which a table does not
// read. Beyond `bound`, the answer may be only a lower bound above it
// (`exact` false): each pair stops once proven farther than the bound or
// than the nearest pair so far.
double min_distance(const ShapeList& a, const ShapeList& b, const Transform& pose, PairCaches& caches,
                    double bound, bool& exact) {
  caches.gjk.resize(a.size() * b.size());
  caches.overlapped.resize(a.size() * b.size(), 0);
  double out = std::numeric_limits<double>::infinity();
  // The smallest lower bound of a pair stopped early.
  double stopped = std::numeric_limits<double>::infinity();
  std::size_t pair = 0;
  for (const auto& [shape_a, pose_a] : a)
    for (const auto& [shape_b, pose_b] : b) {
      if (!shape_a || !shape_b) return -std::numeric_limits<double>::infinity();
      const std::size_t k = pair++;
      const Transform placed = pose * pose_b;
      if (caches.overlapped[k]) {
        CollideRequest request;
        request.cache = &caches.gjk[k];
        const CollideResult c = collide(*shape_a, pose_a, *shape_b, placed, request);
        if (c.status == Status::ok && c.collide) {
          out = std::min(out, 0.0);
          continue;
        }
      }
      DistanceRequest request;
      request.cache = &caches.gjk[k];
      request.bound = std::min(bound, out);
      const DistanceResult r = distance(*shape_a, pose_a, *shape_b, placed, request);
      if (r.status != Status::ok || !std::isfinite(r.distance)) return -std::numeric_limits<double>::infinity();
      caches.overlapped[k] = r.distance <= 0.0;
      if (r.bound_exceeded) {
        stopped = std::min(stopped, r.distance);
        continue;
      }
      out = std::min(out, r.distance);
    }
  // A pair stopped above the nearest exact one does not change the minimum.
  exact = out <= stopped;
  return std::min(out, stopped);
}

double min_distance(const ShapeList& a, const ShapeList& b, const Transform& pose, PairCaches& caches) {
  bool exact = true;
  return min_distance(a, b, pose, caches, std::numeric_limits<double>::infinity(), exact);
}

// The smallest signed distance between the shapes, as min_distance places
// them, given their smallest distance `apart` (when positive, that is it);
// +inf for no shapes or when some pair has no usable answer.
double min_signed_distance(const ShapeList& a, const ShapeList& b, const Transform& pose, double apart) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  if (a.empty() || b.empty() || !(apart > -inf)) return inf;
  if (apart > 0.0) return apart;
  double out = inf;
  for (const auto& [shape_a, pose_a] : a)
    for (const auto& [shape_b, pose_b] : b) {
      if (!shape_a || !shape_b) return inf;
      const DistanceResult d = signed_distance(*shape_a, pose_a, *shape_b, pose * pose_b);
      if (d.status != Status::ok || !std::isfinite(d.distance)) return inf;
      out = std::min(out, d.distance);
    }
  return out;
}

// The shares of a table's grid its bounds prove apart and within at
// tolerance 0, each cell weighted by its size.
std::pair<double, double> decided_share(const PrefilterPairTable& t) {
  double apart = 0.0, within = 0.0;
  const auto per = static_cast<std::size_t>(t.count == 2 ? t.sub * t.sub : t.sub);
  const auto add = [&](const PrefilterPairTable::Cell& c, double weight) {
    apart += c.lo > 0.0f ? weight : 0.0;
    within += c.hi < 0.0f ? weight : 0.0;
  };
  for (const PrefilterPairTable::Cell& cell : t.grid) {
    if (cell.refined < 0) {
      add(cell, 1.0);
      continue;
    }
    for (auto k = static_cast<std::size_t>(cell.refined); k < static_cast<std::size_t>(cell.refined) + per; ++k)
      add(t.subs[k], 1.0 / static_cast<double>(per));
  }
  const double n = std::max<double>(static_cast<double>(t.grid.size()), 1.0);
  return {apart / n, within / n};
}

// The share of `other`'s grid (each cell weighted by its size, a refined
// cell's sub-cells at their centres) that `first` leaves open at tolerance
// 0 and `other` decides there. `first`'s variables are among `other`'s (a
// swept table drops some of a pair's own).
double decides_where_open(const PrefilterPairTable& first, const PrefilterPairTable& other, std::size_t variables) {
  std::vector<double> q(std::max<std::size_t>(variables, 1), 0.0);
  const auto per0 = other.count >= 1 ? other.sub : 1, per1 = other.count == 2 ? other.sub : 1;
  double decided = 0.0;
  for (int i = 0; i < other.cells[0]; ++i)
    for (int j = 0; j < other.cells[1]; ++j) {
      const PrefilterPairTable::Cell& cell = other.grid[static_cast<std::size_t>(i * other.cells[1] + j)];
      const int n0 = cell.refined < 0 ? 1 : per0, n1 = cell.refined < 0 ? 1 : per1;
      for (int u = 0; u < n0; ++u)
        for (int v = 0; v < n1; ++v) {
          const PrefilterPairTable::Cell& c =
              cell.refined < 0 ? cell : other.subs[static_cast<std::size_t>(cell.refined + u * per1 + v)];
          if (PrefilterVerdicts::verdict(c, 0.0) == PrefilterVerdicts::kOpen) continue;
          const double at[2] = {i + (u + 0.5) / n0, j + (v + 0.5) / n1};
          for (int k = 0; k < other.count; ++k) {
            const auto uk = static_cast<std::size_t>(k);
            q[static_cast<std::size_t>(other.variable[uk])] = other.lower[uk] + at[k] / other.inverse_width[uk];
          }
          std::size_t first_cell = 0;
          int first_sub = 0;
          if (first.locate(q.data(), 1, 0, first_cell, first_sub) &&
              PrefilterVerdicts::verdict(first.at(first_cell, first_sub), 0.0) == PrefilterVerdicts::kOpen)
            decided += 1.0 / (n0 * n1);
        }
    }
  return decided / std::max<double>(static_cast<double>(other.grid.size()), 1.0);
}

// A step's child frame in its parent's, at the joint vector q: the
// recurrence of forward_kinematics (kinematics.cpp).
Transform step_transform(const PrefilterStep& st, const std::vector<double>& q) {
  const double v = st.variable >= 0 ? st.multiplier * q[static_cast<std::size_t>(st.variable)] + st.offset : 0.0;
  Transform t;
  const double c = st.revolute ? std::cos(v) : 0.0, sn = st.revolute ? std::sin(v) : 0.0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      const auto k = static_cast<std::size_t>(3 * i + j);
      t.R(i, j) = st.fixed[k] + (st.revolute ? c * st.cosine[k] + sn * st.sine[k] : 0.0);
    }
  for (int i = 0; i < 3; ++i) {
    const auto ui = static_cast<std::size_t>(i);
    t.p[i] = st.p[ui] + (st.revolute ? 0.0 : v * st.slide[ui]);
  }
  return t;
}

// The line a revolute step turns its child about, in its parent's frame
// (from_parent) or in the child's own frame: the joint's origin and O k.
std::pair<Vec3, Vec3> joint_line(const RobotModel& model, int child, bool in_parent) {
  const Joint& jt = model.joint(model.link(child).parent_joint);
  if (in_parent) return {jt.origin.p, jt.origin.R * jt.axis};
  return {Vec3::Zero(), jt.axis};
}

// What a table of a self pair needs of the prefilter.
struct TableContext {
  const SceneChecker& checker;
  const std::vector<PrefilterStep>& steps;
  const std::vector<double>& middle;
  const std::vector<std::vector<BoundingSphere>>& link_spheres;
};

// A self pair as its tables see it: a above b, the steps from b up to a,
// the highest and lowest of them with a variable (−1: none; the steps
// beyond them are fixed), and a and b swept about those steps' lines
// where that may stand in for the step (null otherwise).
struct PairChain {
  int a = -1, b = -1;
  std::vector<int> steps;
  int top = -1, bottom = -1;
  // How far a's points are from the top step's line, and b's from the
  // bottom step's, at most (+inf: unknown, or the step may not be taken
  // alone).
  double top_radius = std::numeric_limits<double>::infinity();
  double bottom_radius = std::numeric_limits<double>::infinity();
  const Swept* top_sweep = nullptr;
  const Swept* bottom_sweep = nullptr;
};

// The chain of the pair (a, b) when one hangs below the other (the chain
// between them is then the only motion between them).
std::optional<PairChain> pair_chain(const std::vector<PrefilterStep>& steps, const std::vector<int>& step_of, int a,
                                    int b) {
  const auto below = [&](int top, int low) {
    for (int l = low; l >= 0;) {
      if (l == top) return true;
      const int st = step_of[static_cast<std::size_t>(l)];
      l = st < 0 ? -1 : steps[static_cast<std::size_t>(st)].parent;
    }
    return false;
  };
  if (!below(a, b)) {
    if (!below(b, a)) return std::nullopt;
    std::swap(a, b);
  }
  PairChain c;
  c.a = a;
  c.b = b;
  for (int l = b; l != a;) {
    const int st = step_of[static_cast<std::size_t>(l)];
    c.steps.push_back(st);
    l = steps[static_cast<std::size_t>(st)].parent;
  }
  for (const int st : c.steps)
    if (steps[static_cast<std::size_t>(st)].variable >= 0) {
      if (c.bottom < 0) c.bottom = st;
      c.top = st;
    }
  return c;
}

// A chain end may be swept when its step turns and its variable moves no
// other step of the chain (a mimic joint would move with it).
bool sweepable(const std::vector<PrefilterStep>& steps, const PairChain& c, int st) {
  if (st < 0) return false;
  const PrefilterStep& s = steps[static_cast<std::size_t>(st)];
  if (!s.revolute || s.variable < 0) return false;
  int uses = 0;
  for (const int other : c.steps) uses += steps[static_cast<std::size_t>(other)].variable == s.variable;
  return uses == 1;
}

// The table of a pair with its top and/or bottom step swept, or nothing
// when more than two variables are left, a step slides or a sweep is
// missing.
std::optional<PrefilterPairTable> pair_table(const TableContext& ctx, const PairChain& c, bool sweep_top,
                                             bool sweep_bottom) {
  const RobotModel& model = ctx.checker.model();
  if ((sweep_top && !c.top_sweep) || (sweep_bottom && !c.bottom_sweep) ||
      (sweep_top && sweep_bottom && c.top == c.bottom))
    return std::nullopt;
  ShapeList outer_a = link_shapes(ctx.checker, c.a), outer_b = link_shapes(ctx.checker, c.b);
  ShapeList inner_a = outer_a, inner_b = outer_b;
  // A swept side's shapes for the proofs of apart (outer) and within
  // (inner).
  const auto side = [](const Swept& swept, ShapeList& outer, ShapeList& inner) {
    outer = {{&*swept.hull, Transform::identity()}};
    inner.clear();
    for (const Shape& in : swept.inside) inner.emplace_back(&in, Transform::identity());
  };
  if (sweep_top) side(*c.top_sweep, outer_a, inner_a);
  if (sweep_bottom) side(*c.bottom_sweep, outer_b, inner_b);
  // How far a point of b (or of its sweep) can be from each step's joint:
  // the lengths of the steps below it plus b's own reach.
  double reach = 0.0;
  if (sweep_bottom) {
    reach = c.bottom_sweep->reach;
  } else {
    for (const BoundingSphere& sp : ctx.link_spheres[static_cast<std::size_t>(c.b)])
      reach = std::max(reach, sp.center.norm() + sp.radius);
  }
  PrefilterPairTable t;
  std::array<double, 2> speed{};  // m per unit of the variable
  for (const int st_index : c.steps) {
    const PrefilterStep& st = ctx.steps[static_cast<std::size_t>(st_index)];
    const bool swept = (sweep_top && st_index == c.top) || (sweep_bottom && st_index == c.bottom);
    if (st.variable >= 0 && !swept) {
      if (!st.revolute) return std::nullopt;
      int slot = -1;
      for (int v = 0; v < t.count; ++v)
        if (t.variable[static_cast<std::size_t>(v)] == st.variable) slot = v;
      if (slot < 0) {
        if (t.count == 2) return std::nullopt;
        slot = t.count++;
        t.variable[static_cast<std::size_t>(slot)] = st.variable;
      }
      // Turning the top step turns everything below it about a line fixed
      // in a's frame: as far as their distance goes, the same as turning a
      // the other way about it, which moves a's points by at most the
      // angle times their distance from the line. Turning the bottom step
      // moves b's points by the angle times their distance from its line.
      double arm = reach;
      if (st_index == c.top) arm = std::min(arm, c.top_radius);
      if (st_index == c.bottom) arm = std::min(arm, c.bottom_radius);
      speed[static_cast<std::size_t>(slot)] += std::abs(st.multiplier) * arm;
    }
    reach += std::sqrt(st.p[0] * st.p[0] + st.p[1] * st.p[1] + st.p[2] * st.p[2]);
  }
  // The cells each variable needs for kCellTravel; a two-variable table
  // shares kMaxCells² cells between its variables in proportion to those,
  // so that a cell's points move about as far along either.
  std::array<double, 2> range{}, wanted{1.0, 1.0};
  for (int v = 0; v < t.count; ++v) {
    const auto uv = static_cast<std::size_t>(v);
    const Joint& jt = model.joint(model.variable_joint(static_cast<std::size_t>(t.variable[uv])));
    range[uv] = jt.upper - jt.lower;
    if (!(range[uv] > 0.0) || !std::isfinite(range[uv])) return std::nullopt;
    t.lower[uv] = jt.lower;
    const double need = std::ceil(range[uv] * speed[uv] / kCellTravel);
    wanted[uv] = need > 1.0 ? std::min(need, static_cast<double>(kMaxCellsOne)) : 1.0;
  }
  if (t.count == 1) {
    t.cells[0] = static_cast<int>(wanted[0]);
  } else if (t.count == 2) {
    constexpr double budget = static_cast<double>(kMaxCells) * kMaxCells;
    const double scale = std::min(1.0, std::sqrt(budget / (wanted[0] * wanted[1])));
    double cells0 = std::clamp(std::floor(wanted[0] * scale), 1.0, wanted[0]);
    const double cells1 = std::min(wanted[1], std::floor(budget / cells0));
    cells0 = std::min(wanted[0], std::floor(budget / cells1));
    t.cells = {static_cast<int>(cells0), static_cast<int>(cells1)};
  }
  double travel = 0.0;  // half a cell's travel, summed over the variables
  for (int v = 0; v < t.count; ++v) {
    const auto uv = static_cast<std::size_t>(v);
    const double width = range[uv] / t.cells[uv];
    t.inverse_width[uv] = 1.0 / width;
    travel += 0.5 * width * speed[uv];
  }
  t.sub = t.count == 2 ? kSubCells : kSubCellsOne;
  // Every other variable at the middle of its range: the pair's distance
  // does not depend on them (nor, through the sweeps, on the swept steps'
  // variables).
  std::vector<double> q = ctx.middle;
  const bool swept = sweep_top || sweep_bottom;
  PairCaches caches, inner_caches;
  // The bounds over the cell (or sub-cell) about (x0, x1), in cells, whose
  // points move at most `moves` from its centre's; and whether its
  // sub-cells could decide what it leaves open.
  bool worth_refining = true;
  // The distance at the last centre asked, before any allowance.
  double centre_distance = 0.0;
  // Beyond `far` (m), the centre's distance may be only a lower bound above
  // it, and the cell then proves nothing within.
  const auto bounds_at = [&](double x0, double x1, double moves,
                             double far = std::numeric_limits<double>::infinity()) -> std::pair<double, double> {
    if (t.count >= 1) q[static_cast<std::size_t>(t.variable[0])] = t.lower[0] + x0 / t.inverse_width[0];
    if (t.count == 2) q[static_cast<std::size_t>(t.variable[1])] = t.lower[1] + x1 / t.inverse_width[1];
    // b's pose in a's frame: the chain's steps from a down.
    Transform pose = Transform::identity();
    for (auto it = c.steps.rbegin(); it != c.steps.rend(); ++it)
      pose = pose * step_transform(ctx.steps[static_cast<std::size_t>(*it)], q);
    bool exact = true;
    const double apart = min_distance(outer_a, outer_b, pose, caches, far, exact);
    centre_distance = apart;
    const double lo = apart - moves - 1e-8;
    if (!exact) {
      worth_refining = false;
      return {lo, std::numeric_limits<double>::infinity()};
    }
    // An upper bound from the inner shapes where the pair may be near (a
    // swept side's inner shapes are not its outer ones).
    const double sd = !swept ? min_signed_distance(inner_a, inner_b, pose, apart)
                      : lo <= kRefineBand
                          ? min_signed_distance(inner_a, inner_b, pose, min_distance(inner_a, inner_b, pose, inner_caches))
                          : std::numeric_limits<double>::infinity();
    // The rounding allowance again: a pair proven by the table is that far
    // beyond the tolerance too. The signed distance of convex shapes also
    // moves by at most how far their points move (an overlap deeper than
    // the travel stays an overlap), and a pair proven within by it is the
    // inner balls' allowance deep. Sub-cells, whose points move t.sub
    // times less, are made only where the one about this centre would
    // decide the pair.
    const double sub_moves = moves / t.sub;
    worth_refining = apart - sub_moves - 1e-8 > 0.0 || sd + sub_moves + 1e-6 < 0.0;
    return {lo, sd + moves + 1e-6};
  };
  const std::size_t cell_count = static_cast<std::size_t>(t.cells[0]) * static_cast<std::size_t>(t.cells[1]);
  t.grid.assign(cell_count, {});
  const int sub0 = t.count >= 1 ? t.sub : 1, sub1 = t.count == 2 ? t.sub : 1;
  // Is a cell with these bounds worth cutting? The bounds
  // leave it undecided at the tolerances a check usually asks (0 to a
  // centimetre), and the sub-cell about its centre would decide it.
  const auto undecided = [&](double lo, double hi) {
    return t.count > 0 && lo <= kRefineBand && hi >= 0.0 && worth_refining;
  };
  // The sub-cells of the cell about (x0, x1), in cells, whose own points
  // move at most `moves` from their centres; the index of the first. (A
  // second level of sub-cells decided a few rows more in a thousand, at
  // four times the memory: the tables then outgrow the caches.)
  const auto refine = [&](double x0, double x1, double moves) -> int {
    const auto first = static_cast<int>(t.subs.size());
    for (int u = 0; u < sub0; ++u)
      for (int v = 0; v < sub1; ++v) {
        const auto [lo, hi] = bounds_at(x0 + (u + 0.5) / sub0 - 0.5, x1 + (v + 0.5) / sub1 - 0.5, moves);
        t.subs.push_back(PrefilterPairTable::cell_of(lo, hi));
      }
    return first;
  };
  // Neighbouring centres are a cell's width apart along one variable, so
  // their points are at most that width times its speed apart, and so are
  // their distances: a lower bound at each centre of the row before
  // (`above`) and at the centre before in this row (`left`) bounds this
  // centre's from below. Measured centres give their distance; the rest,
  // the bound.
  constexpr double unknown = -std::numeric_limits<double>::infinity();
  const double step0 = t.count >= 1 ? speed[0] / t.inverse_width[0] : 0.0;
  const double step1 = t.count == 2 ? speed[1] / t.inverse_width[1] : 0.0;
  std::vector<double> above(static_cast<std::size_t>(t.cells[1]), unknown);
  for (int i = 0; i < t.cells[0]; ++i) {
    double left = unknown;
    for (int j = 0; j < t.cells[1]; ++j) {
      const auto cell = static_cast<std::size_t>(i * t.cells[1] + j);
      double& up = above[static_cast<std::size_t>(j)];
      const double bound = std::max(left - step1, up - step0);
      const double far_lo = bound - travel - 1e-8;
      if (far_lo > kFar) {
        t.grid[cell] = PrefilterPairTable::cell_of(far_lo, std::numeric_limits<double>::infinity());
        left = up = bound;
        continue;
      }
      const auto [lo, hi] = bounds_at(i + 0.5, j + 0.5, travel, kFar + travel + 1e-8);
      left = up = centre_distance;
      t.grid[cell] = PrefilterPairTable::cell_of(lo, hi);
      if (undecided(lo, hi)) t.grid[cell].refined = refine(i + 0.5, j + 0.5, travel / t.sub);
    }
  }
  return t;
}

// A pair's tables as kept: the one deciding the most of its grid, and the
// pair's own where that one sweeps and the pair's own proves the pair
// within over more of the grid or decides some of what it leaves open.
struct ChosenTables {
  std::optional<PrefilterPairTable> table, second;
};

}  // namespace

void SpherePrefilter::build_tables(const SceneChecker& checker, Data& d) {
  const RobotModel& model = checker.model();
  const std::vector<int> step_of = moving_steps(d.steps, d.links);
  const std::size_t n = d.self_pairs.size();
  d.pair_table.assign(n, -1);
  d.pair_second_table.assign(n, -1);
  const TableContext ctx{checker, d.steps, d.middle, d.link_spheres};
  std::vector<std::optional<PairChain>> chains(n);
  for (std::size_t k = 0; k < n; ++k) chains[k] = pair_chain(d.steps, step_of, d.self_pairs[k].first, d.self_pairs[k].second);
  // The product of the chain's fixed steps in [first, last), from a down.
  const auto fixed_steps = [&](auto first, auto last) {
    Transform t = Transform::identity();
    for (; first != last; ++first) t = t * step_transform(d.steps[static_cast<std::size_t>(*first)], d.middle);
    return t;
  };
  // The line of the top step's joint in its parent's frame, carried into
  // a's frame through the fixed steps from a down.
  const auto top_line = [&](const PairChain& c) {
    const Transform above = fixed_steps(c.steps.rbegin(), std::find(c.steps.rbegin(), c.steps.rend(), c.top));
    const auto [point, axis] = joint_line(model, d.steps[static_cast<std::size_t>(c.top)].child, true);
    return std::pair<Vec3, Vec3>{above.apply(point), above.R * axis};
  };
  // The line of the bottom step's joint in its child's frame, carried
  // into b's frame through the fixed steps down to b.
  const auto bottom_line = [&](const PairChain& c) {
    const auto bottom_at = std::find(c.steps.rbegin(), c.steps.rend(), c.bottom);
    const Transform to_b = fixed_steps(bottom_at + 1, c.steps.rend()).inverse();
    const auto [point, axis] = joint_line(model, d.steps[static_cast<std::size_t>(c.bottom)].child, false);
    return std::pair<Vec3, Vec3>{to_b.apply(point), to_b.R * axis};
  };
  // How far a link's spheres reach from a line in its frame (+inf for a
  // line of no direction); a little more covers the rounding here.
  const auto radius_about = [&](int link, const std::pair<Vec3, Vec3>& line) {
    const double length = line.second.norm();
    if (!(length > 0.0)) return std::numeric_limits<double>::infinity();
    double radius = 0.0;
    for (const BoundingSphere& sp : d.link_spheres[static_cast<std::size_t>(link)])
      radius = std::max(radius, (sp.center - line.first).cross(line.second).norm() / length + sp.radius);
    return radius * (1.0 + 1e-12) + 1e-12;
  };
  for (std::optional<PairChain>& c : chains) {
    if (!c) continue;
    if (sweepable(d.steps, *c, c->top)) c->top_radius = radius_about(c->a, top_line(*c));
    if (sweepable(d.steps, *c, c->bottom)) c->bottom_radius = radius_about(c->b, bottom_line(*c));
  }
  // Each pair's own table first, then, for the pairs it leaves undecided
  // over more than a sliver of the grid, the swept ones: spread over the
  // machine's threads (each pair's tables are its own work), so the tables
  // are the same whatever the thread count.
  std::vector<ChosenTables> chosen(n);
  std::vector<std::pair<double, double>> plain_share(n, {-1.0, -1.0});
  parallel_for(n, 0, [&](std::size_t begin, std::size_t end, int) {
    for (std::size_t k = begin; k < end; ++k) {
      if (!chains[k]) continue;
      chosen[k].table = pair_table(ctx, *chains[k], false, false);
      if (chosen[k].table) plain_share[k] = decided_share(*chosen[k].table);
    }
  });
  // The sweeps, once per link and line (by (link, step)), made over the
  // machine's threads (each is a hull or two of many turned points).
  std::map<std::pair<int, int>, Swept> swept_top, swept_bottom;
  struct SweepJob {
    std::map<std::pair<int, int>, Swept>* made;
    int link, step;
    std::pair<Vec3, Vec3> line;
  };
  std::vector<SweepJob> jobs;
  const auto ask = [&](std::map<std::pair<int, int>, Swept>& made, int link, int step, const auto& line) {
    if (made.emplace(std::pair{link, step}, Swept{}).second) jobs.push_back({&made, link, step, line()});
  };
  const auto needs_sweeps = [&](std::size_t k) {
    return chains[k] && plain_share[k].first + plain_share[k].second < kGoodEnough;
  };
  for (std::size_t k = 0; k < n; ++k) {
    if (!needs_sweeps(k)) continue;
    const PairChain& c = *chains[k];
    if (sweepable(d.steps, c, c.top)) ask(swept_top, c.a, c.top, [&] { return top_line(c); });
    if (sweepable(d.steps, c, c.bottom)) ask(swept_bottom, c.b, c.bottom, [&] { return bottom_line(c); });
  }
  parallel_for(jobs.size(), 0, [&](std::size_t begin, std::size_t end, int) {
    for (std::size_t i = begin; i < end; ++i)
      jobs[i].made->at({jobs[i].link, jobs[i].step}) =
          sweep(checker.geometry().link(jobs[i].link).shapes, jobs[i].line);
  });
  const auto swept = [](const std::map<std::pair<int, int>, Swept>& made, int link, int step) -> const Swept* {
    const Swept& s = made.at({link, step});
    return s.hull ? &s : nullptr;
  };
  std::vector<std::size_t> undecided;
  for (std::size_t k = 0; k < n; ++k) {
    if (!needs_sweeps(k)) continue;
    PairChain& c = *chains[k];
    if (sweepable(d.steps, c, c.top)) c.top_sweep = swept(swept_top, c.a, c.top);
    if (sweepable(d.steps, c, c.bottom)) c.bottom_sweep = swept(swept_bottom, c.b, c.bottom);
    if (c.top_sweep || c.bottom_sweep) undecided.push_back(k);
  }
  parallel_for(undecided.size(), 0, [&](std::size_t begin, std::size_t end, int) {
    for (std::size_t i = begin; i < end; ++i) {
      const std::size_t k = undecided[i];
      double best = plain_share[k].first + plain_share[k].second, best_within = plain_share[k].second;
      std::optional<PrefilterPairTable> kept;
      for (const auto& [top, bottom] : {std::pair{true, false}, std::pair{false, true}, std::pair{true, true}}) {
        std::optional<PrefilterPairTable> t = pair_table(ctx, *chains[k], top, bottom);
        if (!t) continue;
        const auto [apart, within] = decided_share(*t);
        if (apart + within > best) {
          best = apart + within;
          best_within = within;
          kept = std::move(t);
        }
      }
      if (!kept) continue;
      // The pair's own table is read too where it decides some of what
      // the kept one leaves open: a swept end that is not round about its
      // joint (the UR5's base about its first joint) leaves a band of the
      // other variable open that the pair's own table partly decides.
      if (chosen[k].table && (plain_share[k].second > best_within ||
                              decides_where_open(*kept, *chosen[k].table, d.variables) >= kSecondTableShare))
        chosen[k].second = std::move(chosen[k].table);
      chosen[k].table = std::move(kept);
    }
  });
  for (std::size_t k = 0; k < n; ++k) {
    if (chosen[k].table) {
      d.pair_table[k] = static_cast<int>(d.tables.size());
      d.tables.push_back(std::move(*chosen[k].table));
    }
    if (chosen[k].second) {
      d.pair_second_table[k] = static_cast<int>(d.tables.size());
      d.tables.push_back(std::move(*chosen[k].second));
    }
  }
}

}  // namespace proxima::robot
