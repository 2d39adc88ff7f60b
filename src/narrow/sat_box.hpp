// SPDX-License-Identifier: BSD-3-Clause
// Box–box SAT without the pose check, for callers that have made it
// already (contacts() checks both poses before the box–box manifold).
#pragma once

#include <proxima/narrow/sat.hpp>

namespace proxima::narrow::detail {

/// sat_box_box for finite poses. With `skipped` given, an overlap whose
/// axis may show a face of each box (each box's feature along it a face
/// under a loosened `face_tol`) returns the normal and distance only, the
/// points left zero, and sets *skipped: a face-on-face manifold needs no
/// more, and the points cost a segment closest pair when an edge axis wins
/// (the four edge axes tying with a resting face often win by rounding).
DistanceResult sat_box_box_finite(const Box& a, const Transform& ta, const Box& b, const Transform& tb,
                                  double face_tol = 0.0, bool* skipped = nullptr);

}  // namespace proxima::narrow::detail
