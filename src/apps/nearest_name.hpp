// SPDX-License-Identifier: BSD-3-Clause
// "Did you mean …?": the known name closest to a misspelt one.
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace proxima::apps {

/// The name of `known` nearest to `given` by edit distance (insertions,
/// deletions, substitutions and swaps of neighbours, case ignored), or "" when
/// none is within a third of the longer name's length (at least 1, at most
/// 3): far-off suggestions mislead more than they help.
std::string nearest_name(std::string_view given, std::span<const std::string_view> known);

/// " (did you mean \"x\"?)" for the nearest name, or "".
std::string did_you_mean(std::string_view given, std::span<const std::string_view> known);

}  // namespace proxima::apps
