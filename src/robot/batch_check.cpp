// SPDX-License-Identifier: BSD-3-Clause
#include <proxima/robot/batch_check.hpp>

#include <string>

#include <proxima/core/error.hpp>
#include <proxima/core/parallel.hpp>

namespace proxima::robot {

std::vector<ToleranceReport> check_configurations(const SceneChecker& checker, const PreparedEnvironment& env,
                                                  std::span<const double> qs, double tolerance,
                                                  const Transform& base, int threads) {
  const std::size_t dof = checker.model().variable_count();
  if (dof == 0 ? !qs.empty() : qs.size() % dof != 0)
    throw Error("qs: " + std::to_string(qs.size()) + " values are not a whole number of rows of " +
                std::to_string(dof) + " joint values");
  const std::size_t n = dof == 0 ? 0 : qs.size() / dof;
  std::vector<ToleranceReport> out(n);
  const int count = thread_count(threads);
  // One RobotState per thread, refilled row after row (no allocation once
  // its vectors have grown).
  std::vector<RobotState> states(static_cast<std::size_t>(count));
  parallel_for(n, count, [&](std::size_t begin, std::size_t end, int thread) {
    RobotState& state = states[static_cast<std::size_t>(thread)];
    for (std::size_t i = begin; i < end; ++i) {
      checker.state(qs.subspan(i * dof, dof), base, state);
      out[i] = checker.tolerance(state, env, tolerance);
    }
  });
  return out;
}

}  // namespace proxima::robot
