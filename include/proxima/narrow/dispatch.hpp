// SPDX-License-Identifier: BSD-3-Clause
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

/// The tables, indexed by ShapeType (defined in src/narrow/dispatch.cpp).
/// Declared here so `select` inlines into every query (out of line, a call
/// before the pair's own: a sphere–sphere query took 24 ns in a
/// microbenchmark, 21 ns inlined).
extern const PairFn kAnalyticPairs[kShapeTypeCount][kShapeTypeCount];
extern const PairFn kGjkPairs[kShapeTypeCount][kShapeTypeCount];

/// The closed form for the pair if it has one, else nullptr.
inline PairFn analytic_fn(ShapeType a, ShapeType b) {
  return kAnalyticPairs[static_cast<int>(a)][static_cast<int>(b)];
}
/// GJK for the pair if both are bounded, else nullptr.
inline PairFn gjk_fn(ShapeType a, ShapeType b) { return kGjkPairs[static_cast<int>(a)][static_cast<int>(b)]; }

/// The pair function `method` selects (automatic: analytic, else GJK), or
/// nullptr when that method does not apply to the pair. The GJK-based methods
/// need bounded shapes: a pair with a halfspace is answered by its closed form
/// (exact, the minimum every method seeks) whatever the method.
inline PairFn select(ShapeType a, ShapeType b, Method method) {
  if (method == Method::automatic) {
    const PairFn f = analytic_fn(a, b);
    return f ? f : gjk_fn(a, b);
  }
  if (method == Method::analytic) return analytic_fn(a, b);
  const PairFn g = gjk_fn(a, b);  // the others run GJK first
  return g ? g : analytic_fn(a, b);
}

}  // namespace proxima::narrow
