// SPDX-License-Identifier: BSD-3-Clause
// Errors for bad input at the edges of the library (shape construction, files,
// parsing). Queries on valid shapes never throw; they report a Status.
#pragma once

#include <stdexcept>
#include <string>

namespace proxima {

/// Thrown when an input is rejected; the message names the input and the reason.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Outcome of a query. Every result struct carries one; numbers in a result
/// whose status is not `ok` may be partial but are never NaN.
enum class Status {
  ok,               ///< converged to the requested tolerance
  not_converged,    ///< iteration cap reached; the result is the best bound found
  invalid_input,    ///< a pose or parameter was not finite
  not_implemented,  ///< no algorithm for this pair or case yet
  /// The method answers a bound, not the minimum: a penetration depth that is
  /// a proven upper bound (Method::mpr's depth along the centre line), with a
  /// normal along which moving A by that depth separates the pair.
  upper_bound,
};

/// Lower-case name used in JSON output ("ok", "not_converged", ...).
const char* to_string(Status s);

}  // namespace proxima
