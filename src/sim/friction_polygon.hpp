// SPDX-License-Identifier: BSD-3-Clause
// The friction step of projected Gauss–Seidel, shared by the dense and the
// body-space solvers.
#pragma once

#include <vector>

#include <Eigen/Core>

namespace proxima::sim::detail {

/// The regular q-gon with vertices (cos 2πj/q, sin 2πj/q): the polyhedral
/// friction cone of eq. (1) of Contact data for convex polyhedra cut at unit μ c_n. Vertices and edge
/// normals are tabulated once per solve, not per contact visit.
class FrictionPolygon {
 public:
  explicit FrictionPolygon(int q);
  /// Minimizes ½ fᵀ A f + gᵀ f over the polygon scaled by R ≥ 0: the
  /// unconstrained minimum when it lies inside, else the best point of the
  /// q edges (each a clamped 1-D minimization). A is symmetric PSD.
  Eigen::Vector2d minimize(const Eigen::Matrix2d& A, const Eigen::Vector2d& g, double R) const;

 private:
  std::vector<Eigen::Vector2d> vertex_;       // unit circumradius
  std::vector<Eigen::Vector2d> edge_normal_;  // outward, unit
  double apothem_ = 1.0;                      // distance of the edges from the centre
};

}  // namespace proxima::sim::detail
