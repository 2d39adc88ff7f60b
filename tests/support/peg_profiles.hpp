// SPDX-License-Identifier: BSD-3-Clause
// The Polyhedral Exact Geometry benchmark obstacles (examples/peg_sawtooth.json,
// examples/peg_hills.json) written in closed form: their top profiles in
// the x–y plane and the signed clearance of a small sphere above them, the
// ground truth of the PEG scene tests (sim and robot).
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include <Eigen/Core>

namespace proxima::testing {

/// Top profile of the sawtooth: teeth of length 1 m from x = −0.5, each a
/// ramp rising 0.1 m and a vertical drop.
inline std::vector<Eigen::Vector2d> sawtooth_profile() {
  std::vector<Eigen::Vector2d> p{{-0.5, 0.0}};
  for (int k = 1; k <= 8; ++k) {
    p.emplace_back(-0.5 + k, 0.1);
    p.emplace_back(-0.5 + k, 0.0);
  }
  return p;
}

/// Ten-edge circular hills 1 m wide and 0.25 m high, centred at x = −1, 0,
/// 1, …: the arc through the hill's two base corners and its top, 11
/// points per hill.
inline std::vector<Eigen::Vector2d> hills_profile() {
  const double w = 1.0, h = 0.25;
  const double r = (w * w / 4 + h * h) / (2 * h), half_angle = std::asin(w / 2 / r);
  std::vector<Eigen::Vector2d> p;
  for (int j = 0; j < 8; ++j)
    for (int i = 0; i <= 10; ++i) {
      const double t = -half_angle + 2 * half_angle * i / 10;
      p.emplace_back(-1.0 + j + r * std::sin(t), h - r + r * std::cos(t));
    }
  return p;
}

/// Signed distance of the surface of a sphere of `radius` centred at x
/// from the profile's solid (negative: penetrating). Below the profile
/// means inside.
inline double profile_clearance(const std::vector<Eigen::Vector2d>& p, const Eigen::Vector2d& x, double radius) {
  double d = std::numeric_limits<double>::infinity(), height = -std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i + 1 < p.size(); ++i) {
    const Eigen::Vector2d e = p[i + 1] - p[i];
    if (e.squaredNorm() == 0.0) continue;
    const double t = std::clamp((x - p[i]).dot(e) / e.squaredNorm(), 0.0, 1.0);
    d = std::min(d, (x - p[i] - t * e).norm());
    const double lo = std::min(p[i].x(), p[i + 1].x()), hi = std::max(p[i].x(), p[i + 1].x());
    if (e.x() != 0.0 && lo <= x.x() && x.x() <= hi) height = std::max(height, p[i].y() + e.y() * (x.x() - p[i].x()) / e.x());
  }
  return (x.y() < height ? -d : d) - radius;
}

}  // namespace proxima::testing
