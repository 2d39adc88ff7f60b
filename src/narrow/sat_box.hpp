// Box–box SAT without the pose check, for callers that have made it
// already (contacts() checks both poses before the box–box manifold).
#pragma once

#include <proxima/narrow/sat.hpp>

namespace proxima::narrow::detail {

/// sat_box_box for finite poses.
DistanceResult sat_box_box_finite(const Box& a, const Transform& ta, const Box& b, const Transform& tb);

}  // namespace proxima::narrow::detail
