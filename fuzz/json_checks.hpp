// SPDX-License-Identifier: BSD-3-Clause
// What the stream targets (query, robot, watch) check of every answer.
#pragma once

#include <cmath>

#include <nlohmann/json.hpp>

#include "fuzz_input.hpp"

namespace proxima::fuzz {

// No number of the answer is NaN or ±inf (JSON has none; dump() would
// write null where the protocol promised a number).
inline void check_finite(const nlohmann::json& j) {
  if (j.is_number_float() && !std::isfinite(j.get<double>())) broken("non-finite number in", j.dump());
  if (j.is_structured())
    for (const auto& x : j) check_finite(x);
}

}  // namespace proxima::fuzz
