// SPDX-License-Identifier: BSD-3-Clause
// Ground truth for SceneChecker::check_motion that shares none of its
// advancement: the discrete queries (collide, or tolerance for a clearance)
// at evenly spaced samples of the segment, then bisection between the last
// clear sample and the first hit.
#pragma once

#include <cmath>
#include <span>
#include <vector>

#include <proxima/robot/scene_checker.hpp>

namespace proxima::robot_test {

/// q0 + s (q1 − q0).
inline std::vector<double> lerp_joints(std::span<const double> q0, std::span<const double> q1, double s) {
  std::vector<double> q(q0.size());
  for (std::size_t k = 0; k < q.size(); ++k) q[k] = q0[k] + s * (q1[k] - q0[k]);
  return q;
}

/// Is some checked pair (self pairs and link–object pairs) within
/// `clearance` at q? Clearance 0 asks the collide queries.
inline bool hits_at(const robot::SceneChecker& c, std::span<const double> q, const robot::Environment& env,
                    double clearance, robot::RobotState& st) {
  c.state(q, Transform::identity(), st);
  if (clearance == 0.0) return c.self_collision(st).collide() || c.environment_collision(st, env).collide();
  return c.tolerance(st, env, clearance).within;
}

/// The smallest distance over the checked pairs at q.
inline double distance_at(const robot::SceneChecker& c, std::span<const double> q, const robot::Environment& env) {
  const robot::RobotState st = c.state(q);
  return std::min(c.self_distance(st).distance, c.environment_distance(st, env).distance);
}

struct DenseHit {
  bool hit = false;
  double sample = 1.0;  ///< the first sample that hits
  double first = 1.0;   ///< a hitting s within 1e-9 of the last clear s before it (bisection)
};

/// `samples` + 1 evenly spaced samples of [0, 1], first to last.
inline DenseHit dense_first_hit(const robot::SceneChecker& c, std::span<const double> q0, std::span<const double> q1,
                                const robot::Environment& env, double clearance, int samples) {
  robot::RobotState st;
  DenseHit out;
  double clear = 0.0;
  for (int k = 0; k <= samples; ++k) {
    const double s = static_cast<double>(k) / samples;
    if (!hits_at(c, lerp_joints(q0, q1, s), env, clearance, st)) {
      clear = s;
      continue;
    }
    out.hit = true;
    out.sample = s;
    double hi = s;
    if (k > 0)
      while (hi - clear > 1e-9) {
        const double mid = 0.5 * (clear + hi);
        (hits_at(c, lerp_joints(q0, q1, mid), env, clearance, st) ? hi : clear) = mid;
      }
    out.first = hi;
    return out;
  }
  return out;
}

}  // namespace proxima::robot_test
