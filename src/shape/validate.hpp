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

inline void require_positive(const char* shape, const char* what, double v) {
  if (!std::isfinite(v) || v <= 0.0) {
    std::ostringstream m;
    m << what << " must be finite and > 0 (got " << v << ")";
    reject(shape, m.str());
  }
}

inline void require_positive(const char* shape, const char* what, const Vec3& v) {
  for (int i = 0; i < 3; ++i) {
    if (!std::isfinite(v[i]) || v[i] <= 0.0) {
      std::ostringstream m;
      m << what << " must be finite and > 0 on every axis (got [" << v.x() << ", " << v.y()
        << ", " << v.z() << "])";
      reject(shape, m.str());
    }
  }
}

inline void require_margin(const char* shape, double margin) {
  if (!std::isfinite(margin) || margin < 0.0) {
    std::ostringstream m;
    m << "margin must be finite and >= 0 (got " << margin << ")";
    reject(shape, m.str());
  }
}

}  // namespace proxima::detail
