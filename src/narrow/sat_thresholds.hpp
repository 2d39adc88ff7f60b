// SPDX-License-Identifier: BSD-3-Clause
// The separating-axis tests' thresholds on the sine between two edges whose
// cross product is an axis, shared by polytope–polytope (sat.cpp) and
// polytope–segment (sat_segment.cpp) SAT.
#pragma once

namespace proxima::narrow::detail {

/// Edge pairs whose directions make an angle with sine below kParallel are
/// skipped: the facet they span is a sliver of width ≤ edge length · sine, so
/// the neighbouring facets (always tested) are within that of the depth,
/// while the normalized cross product would carry ε/sine of noise.
inline constexpr double kParallel = 1e-9;
/// Between kParallel and kWellConditioned the axis direction carries up to
/// ε/sine ≈ 1e-11 of noise; there the support values are recomputed honestly
/// (an honest h_C(u') on a slightly wrong u' is still an upper bound on the
/// depth, where u'·(a_edge − b_edge) could undershoot).
inline constexpr double kWellConditioned = 1e-5;

}  // namespace proxima::narrow::detail
