// Linear-algebra vocabulary of Proxima: doubles, Eigen fixed-size types.
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>

/// Forces inlining of the few hot support-call paths; left to the compiler
/// under AddressSanitizer, where forced inlining of instrumented code makes
/// the template-heavy pair files slow to build.
#if defined(__SANITIZE_ADDRESS__)
#define PROXIMA_HOT_INLINE
#else
#define PROXIMA_HOT_INLINE __attribute__((always_inline))
#endif

namespace proxima {

using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;
using Quat = Eigen::Quaterniond;

/// True when all three components are finite.
inline bool is_finite(const Vec3& v) { return v.allFinite(); }

}  // namespace proxima
