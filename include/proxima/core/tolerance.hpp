// SPDX-License-Identifier: BSD-3-Clause
// Numerical tolerances shared across the library, in one place so that a
// reader can see what "equal" means everywhere.
#pragma once

namespace proxima::tol {

/// Relative tolerance for geometric predicates on shape data (hull flatness,
/// duplicate points), relative to the shape's extent.
inline constexpr double kGeometryRelative = 1e-10;
/// Smallest accepted quaternion norm before normalization.
inline constexpr double kQuaternionNorm = 1e-9;

}  // namespace proxima::tol
