// SPDX-License-Identifier: BSD-3-Clause
// Construction checks shared by the shapes: each failure names the shape and
// the offending parameter.
#pragma once

#include <cmath>
#include <sstream>
#include <string>

#include <proxima/core/error.hpp>
#include <proxima/core/math.hpp>

namespace proxima::detail {

[[noreturn]] inline void reject(const char* shape, const std::string& reason) {
  throw Error(std::string(shape) + ": " + reason);
}

// The message for a finite length beyond kMaxLength (core/math.hpp).
inline std::string beyond_range(const char* what, double v) {
  std::ostringstream m;
  m << what << " " << v << " is beyond " << kMaxLength << " m, the range of lengths Proxima accepts";
  return m.str();
}

// The message for a size below kMinLength.
inline std::string below_range(const char* what, double v) {
  std::ostringstream m;
  m << what << " " << v << " is below " << kMinLength << " m, the smallest size Proxima accepts";
  return m.str();
}

inline void require_positive(const char* shape, const char* what, double v) {
  if (!std::isfinite(v) || v <= 0.0) {
    std::ostringstream m;
    m << what << " must be finite and > 0 (got " << v << ")";
    reject(shape, m.str());
  }
  if (v > kMaxLength) reject(shape, beyond_range(what, v));
  if (v < kMinLength) reject(shape, below_range(what, v));
}

inline void require_positive(const char* shape, const char* what, const Vec3& v) {
  for (int i = 0; i < 3; ++i) {
    if (!std::isfinite(v[i]) || v[i] <= 0.0) {
      std::ostringstream m;
      m << what << " must be finite and > 0 on every axis (got [" << v.x() << ", " << v.y()
        << ", " << v.z() << "])";
      reject(shape, m.str());
    }
    if (v[i] > kMaxLength) reject(shape, beyond_range(what, v[i]));
    if (v[i] < kMinLength) reject(shape, below_range(what, v[i]));
  }
}

inline void require_margin(const char* shape, double margin) {
  if (!std::isfinite(margin) || margin < 0.0) {
    std::ostringstream m;
    m << "margin must be finite and >= 0 (got " << margin << ")";
    reject(shape, m.str());
  }
  if (margin > kMaxLength) reject(shape, beyond_range("margin", margin));
}

}  // namespace proxima::detail
