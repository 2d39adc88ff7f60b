// SPDX-License-Identifier: BSD-3-Clause
#include <algorithm>
#include <cmath>
#include <numbers>

#include <Eigen/Dense>

#include "friction_polygon.hpp"

namespace proxima::sim::detail {

using Eigen::Matrix2d;
using Eigen::Vector2d;

FrictionPolygon::FrictionPolygon(int q) {
  const double step = 2.0 * std::numbers::pi / q;
  for (int j = 0; j < q; ++j) {
    vertex_.emplace_back(std::cos(j * step), std::sin(j * step));
    edge_normal_.emplace_back(std::cos((j + 0.5) * step), std::sin((j + 0.5) * step));
  }
  apothem_ = std::cos(0.5 * step);
}

Vector2d FrictionPolygon::minimize(const Matrix2d& A, const Vector2d& g, double R) const {
  if (R <= 0.0) return Vector2d::Zero();
  const double det = A(0, 0) * A(1, 1) - A(0, 1) * A(1, 0);
  if (det > 1e-300) {
    // Unconstrained minimum −A⁻¹ g, kept when inside every edge.
    const Vector2d f = Vector2d(A(1, 1) * g.x() - A(0, 1) * g.y(), A(0, 0) * g.y() - A(1, 0) * g.x()) / -det;
    const double limit = R * apothem_;
    bool inside = true;
    for (std::size_t j = 0; j < edge_normal_.size() && inside; ++j) inside = f.dot(edge_normal_[j]) <= limit;
    if (inside) return f;
  }
  // The minimum is on the boundary: best clamped point of each edge.
  const std::size_t q = vertex_.size();
  Vector2d best = Vector2d::Zero();
  double best_val = 0.0;  // the origin is inside, value 0
  for (std::size_t j = 0; j < q; ++j) {
    const Vector2d p0 = R * vertex_[j];
    const Vector2d e = R * vertex_[(j + 1) % q] - p0;
    const Vector2d Ae = A * e;
    const double curv = e.dot(Ae);
    const double slope = p0.dot(Ae) + g.dot(e);
    const double s = curv > 0.0 ? std::clamp(-slope / curv, 0.0, 1.0) : (slope < 0.0 ? 1.0 : 0.0);
    const Vector2d f = p0 + s * e;
    const double val = 0.5 * f.dot(A * f) + g.dot(f);
    if (val < best_val) {
      best_val = val;
      best = f;
    }
  }
  return best;
}

}  // namespace proxima::sim::detail
