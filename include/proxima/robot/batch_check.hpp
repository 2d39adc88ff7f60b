// SPDX-License-Identifier: BSD-3-Clause
// Many configurations of one robot in one prepared scene, checked on a
// number of threads: the validity labels of a planner's dataset, or every
// waypoint of a fleet's trajectories. Each row's answer is the single
// query's (SceneChecker::state, then tolerance) and lands in the row's own
// slot, so the answers are in input order and do not depend on the number
// of threads.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <proxima/core/transform.hpp>
#include <proxima/robot/scene_checker.hpp>

namespace proxima::robot {

/// What a batch row's answer names when the row is within the tolerance.
enum class BatchAnswer : std::uint8_t {
  /// The single query's report, field for field: the first pair within in
  /// its order (self pairs, then each link's objects).
  first_pair,
  /// Validity only: `within` is the single query's, and a row within names
  /// some pair within, not necessarily the first. With the prefilter, a
  /// pair its inner balls prove within answers the row without the narrow
  /// phase on the open pairs before it (what a planner's validity label
  /// needs). `status` is then the worst of the narrow-phase queries run.
  any_pair,
};

/// For each row q_i of `qs` (row-major, N rows of model().variable_count()
/// joint values): checker.tolerance(checker.state(q_i, base), env,
/// tolerance), on thread_count(threads) threads (core/parallel.hpp).
/// A bad row (non-finite or out of its limits) answers invalid_input in its
/// own slot, as the single query does. Throws proxima::Error when qs is not
/// a whole number of rows or threads is negative.
///
/// With `prefilter`, the rows are first taken a lane group at a time
/// through the checker's sphere prefilter (sphere_prefilter.hpp), which
/// proves each checked pair apart or within the tolerance, or leaves it
/// open. A row with every pair apart answers ToleranceReport{} (status ok,
/// nothing within), which is what the exact check answers for it; any
/// other row is walked in the exact check's pair order, where the first
/// pair proven within is the answer and the narrow phase runs only on the
/// open pairs before it. The answers are the same either way, only the
/// work differs (the narrow-phase statuses of pairs proven apart are not
/// asked). Off by default: it pays on both shipped robots, but little on
/// the UR5's random rows, most of which collide (docs/robot.md, "Batches
/// of configurations"), and its first use measures the pair tables (0.1 s
/// for the Panda, 0.9 s for the UR5, on two cores). With
/// BatchAnswer::any_pair, a row with a pair proven within answers at once,
/// whatever is open before it.
/// Throws proxima::Error for an `answer` outside the enumeration.
std::vector<ToleranceReport> check_configurations(const SceneChecker& checker, const PreparedEnvironment& env,
                                                  std::span<const double> qs, double tolerance = 0.0,
                                                  const Transform& base = Transform::identity(), int threads = 1,
                                                  bool prefilter = false,
                                                  BatchAnswer answer = BatchAnswer::first_pair);

/// A batch's validity labels, row by row.
struct BatchValidity {
  /// 1 where some checked pair is within the tolerance, else 0.
  std::vector<std::uint8_t> within;
  /// The row's status: invalid_input for a bad row, else the worst of the
  /// narrow-phase queries it ran.
  std::vector<Status> status;
};

/// The labels a planner keeps of check_configurations(..., prefilter,
/// BatchAnswer::any_pair): row i's `within` and `status`, the same values,
/// with no report made or kept per row (the pair within and the message
/// of a bad row are check_configurations' to give). Throws as it does.
BatchValidity check_validity(const SceneChecker& checker, const PreparedEnvironment& env,
                             std::span<const double> qs, double tolerance = 0.0,
                             const Transform& base = Transform::identity(), int threads = 1, bool prefilter = false);

}  // namespace proxima::robot
