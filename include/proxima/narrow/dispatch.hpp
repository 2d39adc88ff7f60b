// The pair dispatch table: one function per ordered pair of shape types,
// chosen once per query. See src/narrow/dispatch.cpp for the table itself.
#pragma once

#include <proxima/query.hpp>

namespace proxima::narrow {

/// Which question a pair function answers; it decides GJK's early exits.
/// `tolerance`: stop as soon as the distance is proven at most, or above,
/// DistanceRequest::bound (the distance is then that proof's bound).
enum class Mode { collide, distance, signed_distance, tolerance };

using PairFn = DistanceResult (*)(const Shape& a, const Transform& ta, const Shape& b,
                                  const Transform& tb, const DistanceRequest& req, Mode mode);

/// The closed form for the pair if it has one, else nullptr.
PairFn analytic_fn(ShapeType a, ShapeType b);
/// GJK for the pair if both are bounded, else nullptr.
PairFn gjk_fn(ShapeType a, ShapeType b);

/// The pair function `method` selects (automatic: analytic, else GJK), or
/// nullptr when that method does not apply to the pair.
PairFn select(ShapeType a, ShapeType b, Method method);

}  // namespace proxima::narrow
