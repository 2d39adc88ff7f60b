// SPDX-License-Identifier: BSD-3-Clause
// Tangent basis of a contact normal (proxima/sim/rigid_motion.hpp), shared by
// the LCP build and warm starts, and the key of a body pair.
#pragma once

#include <cstdint>

#include <proxima/core/math.hpp>
#include <proxima/sim/rigid_motion.hpp>

namespace proxima::sim::detail {

using proxima::sim::tangent_basis;

inline std::uint64_t pair_key(int a, int b) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(a)) << 32) | static_cast<std::uint32_t>(b);
}

}  // namespace proxima::sim::detail
