// Seeded random poses and shapes for tests; fixed seeds keep failures reproducible.
#pragma once

#include <random>
#include <vector>

#include <proxima/core/transform.hpp>

namespace proxima::testing {

class Rng {
 public:
  explicit Rng(unsigned seed) : g_(seed) {}
  double uniform(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(g_); }
  double normal() { return std::normal_distribution<double>()(g_); }
  Vec3 unit_vector() {
    for (;;) {
      const Vec3 v(normal(), normal(), normal());
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
      return Transform::from_quaternion(w, x, y, z,
                                        Vec3(uniform(-half, half), uniform(-half, half), uniform(-half, half)));
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
