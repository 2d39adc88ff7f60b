// SPDX-License-Identifier: BSD-3-Clause
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

/// The largest magnitude of a length Proxima accepts, in metres: shape sizes,
/// radii, margins, polytope points, mesh vertices, halfspace offsets and pose
/// translations (shapes throw proxima::Error beyond it, queries answer
/// Status::invalid_input). The queries square and multiply lengths (a
/// triangle's normal is a square, its squared length a fourth power), so
/// finite input of 1e200 m would make infinite intermediates and an infinite
/// or wrong answer flagged ok. Up to 1e15 m even an eighth power stays far
/// inside the double range, and no robot cell needs more.
inline constexpr double kMaxLength = 1e15;

/// The smallest size (radius, length, box extent, ellipsoid radius) a shape
/// accepts, in metres; margins may be anything from 0 to kMaxLength. A body
/// of 1e-160 m at a pose of that size squares its lengths to below the
/// smallest double, and directions normalised by a length of 0 come out NaN.
inline constexpr double kMinLength = 1e-15;

/// True when all three components are finite and at most kMaxLength in magnitude.
inline bool in_range(const Vec3& v) { return (v.array().abs() <= kMaxLength).all(); }

}  // namespace proxima
