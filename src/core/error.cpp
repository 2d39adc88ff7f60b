// SPDX-License-Identifier: BSD-3-Clause
#include <proxima/core/error.hpp>

namespace proxima {

const char* to_string(Status s) {
  switch (s) {
    case Status::ok: return "ok";
    case Status::not_converged: return "not_converged";
    case Status::invalid_input: return "invalid_input";
    case Status::not_implemented: return "not_implemented";
    case Status::upper_bound: return "upper_bound";
  }
  return "unknown";
}

}  // namespace proxima
