// SPDX-License-Identifier: BSD-3-Clause
// Rigid transform x ↦ R x + p.
#pragma once

#include <proxima/core/math.hpp>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace proxima {

/// A rigid pose. R is orthonormal with det +1 whenever built through the
/// factory functions; the default is the identity.
struct Transform {
  Mat3 R = Mat3::Identity();
  Vec3 p = Vec3::Zero();

  static Transform identity() { return {}; }
  static Transform from_translation(const Vec3& p) { return {Mat3::Identity(), p}; }
  /// Quaternion (w, x, y, z), normalized here: any finite quaternion with
  /// norm ≥ 1e-9 is accepted and scaled to unit length. Throws proxima::Error
  /// for a non-finite or (near-)zero quaternion or a non-finite translation.
  static Transform from_quaternion(double w, double x, double y, double z, const Vec3& p);
  static Transform from_quaternion(const Quat& q, const Vec3& p) {
    return from_quaternion(q.w(), q.x(), q.y(), q.z(), p);
  }
  /// Rotation of `angle` radians about the unit-length `axis`, then translation.
  static Transform from_axis_angle(const Vec3& axis, double angle, const Vec3& p = Vec3::Zero());

  Vec3 apply(const Vec3& x) const { return R * x + p; }
  Vec3 rotate(const Vec3& v) const { return R * v; }
  Vec3 apply_inverse(const Vec3& x) const { return R.transpose() * (x - p); }
  Vec3 rotate_inverse(const Vec3& v) const { return R.transpose() * v; }
  Transform inverse() const { return {R.transpose(), -(R.transpose() * p)}; }
  /// (this * o)(x) = this(o(x)).
  Transform operator*(const Transform& o) const { return {R * o.R, R * o.p + p}; }
  Quat quaternion() const { return Quat(R); }
  /// x·0 is 0 for finite x and NaN for inf or NaN: one branch for 12 checks.
  bool is_finite() const { return (R.array() * 0.0).sum() + (p.array() * 0.0).sum() == 0.0; }
  /// What every query asks of a pose: R's entries finite with absolute
  /// values summing to at most 6 (a rotation's sum to at most 3√3 ≈ 5.2),
  /// and each coordinate of the translation within ±kMaxLength. NaN and inf
  /// fail the comparisons. (Compares joined by `&`, not `&&`: two poses
  /// cost two branches, not eight; nine compares of R, each a branch, took
  /// a sphere–sphere query from 15 to 19 ns in a microbenchmark.)
  bool is_valid() const {
    const Vec3 a = p.cwiseAbs();
    return static_cast<bool>(static_cast<int>(R.cwiseAbs().sum() <= 6.0) & static_cast<int>(a.x() <= kMaxLength) &
                             static_cast<int>(a.y() <= kMaxLength) & static_cast<int>(a.z() <= kMaxLength));
  }
  /// is_finite() and is_valid(), and R a rotation: orthonormal to
  /// `tolerance` (max |RᵀR − I|; matrices from float32 sources or long
  /// products of rotations are orthonormal to ~1e-7, not to rounding) with
  /// det R > 0. For poses a model keeps and integrates (a robot's base),
  /// where a scaled, sheared or mirrored R would be silently misread.
  bool is_rigid(double tolerance = 1e-6) const {
    return is_finite() && is_valid() && (R.transpose() * R - Mat3::Identity()).cwiseAbs().maxCoeff() <= tolerance &&
           R.determinant() > 0.0;
  }
};

/// a.is_valid() && b.is_valid(), as every pair query asks it. With SSE2 the
/// 24 numbers are checked in packed registers with one branch: about 46
/// instructions against is_valid's 70 for two poses, a third of the cost of a
/// sphere–sphere query beside its geometry.
inline bool both_valid(const Transform& a, const Transform& b) {
#if defined(__SSE2__)
  const __m128d magnitude = _mm_castsi128_pd(_mm_set1_epi64x(0x7fffffffffffffffLL));
  const auto abs_at = [&](const double* x) { return _mm_and_pd(_mm_loadu_pd(x), magnitude); };
  const auto abs_pair = [&](const double* x, const double* y) {
    return _mm_and_pd(_mm_loadh_pd(_mm_load_sd(x), y), magnitude);
  };
  const double* ra = a.R.data();
  const double* rb = b.R.data();
  // R's entries 0–7 in pairs, then entry 8: lane 0 holds a's sum, lane 1 b's.
  const __m128d sa = _mm_add_pd(_mm_add_pd(abs_at(ra), abs_at(ra + 2)), _mm_add_pd(abs_at(ra + 4), abs_at(ra + 6)));
  const __m128d sb = _mm_add_pd(_mm_add_pd(abs_at(rb), abs_at(rb + 2)), _mm_add_pd(abs_at(rb + 4), abs_at(rb + 6)));
  const __m128d sums =
      _mm_add_pd(_mm_add_pd(_mm_unpacklo_pd(sa, sb), _mm_unpackhi_pd(sa, sb)), abs_pair(ra + 8, rb + 8));
  const __m128d max_length = _mm_set1_pd(kMaxLength);
  const __m128d ok = _mm_and_pd(
      _mm_and_pd(_mm_cmple_pd(sums, _mm_set1_pd(6.0)), _mm_cmple_pd(abs_pair(&a.p.z(), &b.p.z()), max_length)),
      _mm_and_pd(_mm_cmple_pd(abs_at(a.p.data()), max_length), _mm_cmple_pd(abs_at(b.p.data()), max_length)));
  return _mm_movemask_pd(ok) == 3;
#else
  return a.is_valid() & b.is_valid();
#endif
}

}  // namespace proxima
