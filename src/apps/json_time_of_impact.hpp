// SPDX-License-Identifier: BSD-3-Clause
// The time_of_impact request options and answer of `proxima query`, shared
// by convex pairs and pairs with a mesh operand (docs/query-protocol.md).
#pragma once

#include <nlohmann/json.hpp>

#include <proxima/query.hpp>

namespace proxima::apps {

class ObjectReader;

/// "clearance" ([0, 1e15] m), "accuracy" ((0, 1e15] m), "max_iterations" (1..100000), read from the
/// request (consumed); throws
/// proxima::Error naming the field. "method" and "warm_start" are errors.
TimeOfImpactRequest time_of_impact_request_from_json(ObjectReader& request);

/// collide, time, witness_time, distance, normal (when apart), point_a,
/// point_b, iterations. `swapped`: the result was computed with A and B
/// exchanged and is turned back here.
nlohmann::json time_of_impact_json(const nlohmann::json& id, const TimeOfImpactResult& result, bool swapped);

}  // namespace proxima::apps
