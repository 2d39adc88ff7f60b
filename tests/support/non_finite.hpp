// SPDX-License-Identifier: BSD-3-Clause
// The non-finite inputs every bad-input test feeds the library.
#pragma once

#include <limits>

namespace proxima::testing {

inline constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
inline constexpr double kInf = std::numeric_limits<double>::infinity();

}  // namespace proxima::testing
