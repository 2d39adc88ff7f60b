// SPDX-License-Identifier: BSD-3-Clause
// Seeded random poses and shapes for tests; fixed seeds keep failures reproducible.
#pragma once

#include <random>
#include <vector>

#include <proxima/core/transform.hpp>

namespace proxima::testing {

// Several draws in one call's arguments (`Vec3(rng.uniform(…), rng.uniform(…),
// …)`) are evaluated in an unspecified order: gcc and clang sample different
// tests from the same seed. Draw each coordinate in its own statement, or
// through uniform_vec(), which draws x, then y, then z.
class Rng {
 public:
  explicit Rng(unsigned seed) : g_(seed) {}
  double uniform(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(g_); }
  /// Each coordinate uniform in [lo, hi).
  Vec3 uniform_vec(double lo, double hi) { return uniform_vec(Vec3::Constant(lo), Vec3::Constant(hi)); }
  /// Coordinate i uniform in [lo[i], hi[i]).
  Vec3 uniform_vec(const Vec3& lo, const Vec3& hi) {
    const double x = uniform(lo.x(), hi.x()), y = uniform(lo.y(), hi.y()), z = uniform(lo.z(), hi.z());
    return {x, y, z};
  }
  double normal() { return std::normal_distribution<double>()(g_); }
  Vec3 unit_vector() {
    for (;;) {
      const double x = normal(), y = normal(), z = normal();
      const Vec3 v(x, y, z);
      const double n = v.norm();
      if (n > 1e-6) return v / n;
    }
  }
  /// Uniform rotation (normalized 4-D Gaussian) and a translation uniform in
  /// the cube [-half, half]³.
  Transform pose(double half) {
    for (;;) {
      const double w = normal(), x = normal(), y = normal(), z = normal();
      if (w * w + x * x + y * y + z * z < 1e-6) continue;
      return Transform::from_quaternion(w, x, y, z, uniform_vec(-half, half));
    }
  }
  /// `n` points on a sphere of radius r.
  std::vector<Vec3> sphere_points(int n, double r) {
    std::vector<Vec3> p;
    for (int i = 0; i < n; ++i) p.push_back(r * unit_vector());
    return p;
  }
  std::mt19937& engine() { return g_; }

 private:
  std::mt19937 g_;
};

}  // namespace proxima::testing
