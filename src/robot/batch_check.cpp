// SPDX-License-Identifier: BSD-3-Clause
#include <proxima/robot/batch_check.hpp>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include <proxima/core/error.hpp>
#include <proxima/core/parallel.hpp>
#include <proxima/robot/kinematics.hpp>
#include <proxima/robot/sphere_prefilter.hpp>

#include "pair_verdicts.hpp"

namespace proxima::robot {

namespace {

// The rows of `qs`, or proxima::Error when it is not a whole number of them.
std::size_t row_count(const SceneChecker& checker, std::span<const double> qs) {
  const std::size_t dof = checker.model().variable_count();
  if (dof == 0 ? !qs.empty() : qs.size() % dof != 0)
    throw Error("qs: " + std::to_string(qs.size()) + " values are not a whole number of rows of " +
                std::to_string(dof) + " joint values");
  return dof == 0 ? 0 : qs.size() / dof;
}

}  // namespace

// Both batch answers' walk: `report(i, r)` receives row i's report, except
// for a row the prefilter proves free, which is left as the caller made it
// (ToleranceReport{}: ok, nothing within), so that neither a report is made
// nor its slot written for the rows most batches are made of. `names`: the
// reports name their pairs (labels alone need no strings; a UR5's link
// names are too long for a string's own storage, so each would allocate).
struct detail::BatchWalk {
  template <class Report>
  static void run(const SceneChecker& checker, const PreparedEnvironment& env, std::span<const double> qs,
                  std::size_t n, double tolerance, const Transform& base, int threads, bool prefilter,
                  BatchAnswer answer, bool names, Report&& report) {
    const std::size_t dof = checker.model().variable_count();
    const int count = thread_count(threads);
    // The prefilter only for inputs every row's exact check accepts: a bad
    // tolerance, base pose or touch link is each row's invalid_input, as the
    // single query answers it.
    const bool lanes = prefilter && n > 0 && SceneChecker::valid_tolerance(tolerance) && base.is_valid() &&
                       !checker.touch_error(env) && checker.sphere_prefilter().available();
    std::shared_ptr<const SpherePrefilter::Scene> scene;
    if (lanes) scene = checker.sphere_prefilter().scene(checker, env, base, tolerance);
    // One RobotState per thread, refilled row after row (no allocation once
    // its vectors have grown), and one prefilter scratch.
    std::vector<RobotState> states(static_cast<std::size_t>(count));
    parallel_for(n, count, [&](std::size_t begin, std::size_t end, int thread) {
      RobotState& state = states[static_cast<std::size_t>(thread)];
      const auto exact = [&](std::size_t i) {
        checker.state(qs.subspan(i * dof, dof), base, state);
        report(i, checker.tolerance(state, env, tolerance));
      };
      if (!lanes) {
        for (std::size_t i = begin; i < end; ++i) exact(i);
        return;
      }
      const SpherePrefilter& filter = checker.sphere_prefilter();
      const auto scratch = filter.scratch();
      // A lane group holds consecutive valid rows; a bad row goes straight to
      // the exact check, which names what is wrong with it. Each row of a
      // group is then finished from the pairs the prefilter left: none (free),
      // a first one proven within (that pair), or the narrow phase on the
      // open ones in the exact check's order.
      std::size_t group[kPrefilterLanes];
      std::vector<double> packed(kPrefilterLanes * dof);
      std::size_t filled = 0;
      const auto flush = [&] {
        filter.classify(std::span<const double>(packed.data(), filled * dof), filled, base, tolerance, *scene,
                        *scratch);
        for (std::size_t k = 0; k < filled; ++k) {
          const std::vector<detail::KnownPair>& known = scratch->known[k];
          if (known.empty()) continue;
          report(group[k], checker.tolerance_known(std::span<const double>(packed.data() + k * dof, dof), base, env,
                                                   tolerance, known, scratch->in_range[k],
                                                   answer == BatchAnswer::any_pair, names, state));
        }
        filled = 0;
      };
      for (std::size_t i = begin; i < end; ++i) {
        const std::span<const double> q = qs.subspan(i * dof, dof);
        bool finite = true;
        for (const double v : q) finite &= std::isfinite(v);
        if (!finite) {
          exact(i);
          continue;
        }
        std::copy(q.begin(), q.end(), packed.begin() + static_cast<std::ptrdiff_t>(filled * dof));
        group[filled++] = i;
        if (filled == kPrefilterLanes) flush();
      }
      if (filled > 0) flush();
    });
  }
};

std::vector<ToleranceReport> check_configurations(const SceneChecker& checker, const PreparedEnvironment& env,
                                                  std::span<const double> qs, double tolerance,
                                                  const Transform& base, int threads, bool prefilter,
                                                  BatchAnswer answer) {
  if (answer != BatchAnswer::first_pair && answer != BatchAnswer::any_pair)
    throw Error("answer: " + std::to_string(static_cast<int>(answer)) + " is not a BatchAnswer");
  const std::size_t n = row_count(checker, qs);
  std::vector<ToleranceReport> out(n);
  detail::BatchWalk::run(checker, env, qs, n, tolerance, base, threads, prefilter, answer, true,
            [&](std::size_t i, ToleranceReport&& r) { out[i] = std::move(r); });
  return out;
}

BatchValidity check_validity(const SceneChecker& checker, const PreparedEnvironment& env,
                             std::span<const double> qs, double tolerance, const Transform& base, int threads,
                             bool prefilter) {
  const std::size_t n = row_count(checker, qs);
  BatchValidity out;
  out.within.assign(n, 0);
  out.status.assign(n, Status::ok);
  detail::BatchWalk::run(checker, env, qs, n, tolerance, base, threads, prefilter, BatchAnswer::any_pair, false,
            [&](std::size_t i, ToleranceReport&& r) {
              out.within[i] = r.within ? 1 : 0;
              out.status[i] = r.status;
            });
  return out;
}

}  // namespace proxima::robot
