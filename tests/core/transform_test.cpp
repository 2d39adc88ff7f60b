// SPDX-License-Identifier: BSD-3-Clause
#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include <proxima/core/aabb.hpp>
#include <proxima/core/error.hpp>
#include <proxima/core/transform.hpp>

#include "../support/random.hpp"

namespace proxima {
namespace {

TEST(Transform, QuaternionIsNormalized) {
  // (2, 0, 0, 2) is a 90° turn about z once normalized.
  const Transform t = Transform::from_quaternion(2.0, 0.0, 0.0, 2.0, Vec3(1, 2, 3));
  EXPECT_NEAR((t.R * t.R.transpose() - Mat3::Identity()).norm(), 0.0, 1e-15);
  EXPECT_NEAR((t.apply(Vec3(1, 0, 0)) - Vec3(1, 3, 3)).norm(), 0.0, 1e-15);
}

TEST(Transform, RejectsZeroAndNonFiniteQuaternions) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(Transform::from_quaternion(0, 0, 0, 0, Vec3::Zero()), Error);
  EXPECT_THROW(Transform::from_quaternion(nan, 0, 0, 1, Vec3::Zero()), Error);
  EXPECT_THROW(Transform::from_quaternion(1, 0, 0, 0, Vec3(nan, 0, 0)), Error);
  try {
    Transform::from_quaternion(1e-12, 0, 0, 0, Vec3::Zero());
    FAIL() << "tiny quaternion accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("quaternion"), std::string::npos) << e.what();
  }
}

// Queries accept a pose whose rotation entries are finite with absolute
// values summing to at most 6 (a rotation's: at most 3√3) and whose
// translation is within ±kMaxLength.
TEST(Transform, ValidPosesAreFiniteAndWithinTheRange) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  Transform t = Transform::from_quaternion(1, 2, 3, 4, Vec3(kMaxLength, -kMaxLength, 0));
  EXPECT_TRUE(t.is_valid());
  t.p.y() = std::nextafter(-kMaxLength, -2 * kMaxLength);
  EXPECT_FALSE(t.is_valid());
  EXPECT_TRUE(t.is_finite());
  t.p.y() = nan;
  EXPECT_FALSE(t.is_valid());
  t = Transform::from_quaternion(0.9, 0.3, -0.2, 0.4, Vec3::Zero());
  EXPECT_TRUE(t.is_valid());
  t.R(1, 2) = 4.0;
  EXPECT_FALSE(t.is_valid());
  t.R(1, 2) = nan;
  EXPECT_FALSE(t.is_valid());
  // The factories refuse a translation beyond the range, naming it.
  for (const Vec3& p : {Vec3(0, 0, 2e15), Vec3(-1e300, 0, 0)}) {
    try {
      Transform::from_quaternion(1, 0, 0, 0, p);
      ADD_FAILURE() << "translation " << p.transpose() << " accepted";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("beyond"), std::string::npos) << e.what();
    }
    EXPECT_THROW(Transform::from_axis_angle(Vec3::UnitX(), 0.5, p), Error);
  }
}

// both_valid (packed with SSE2) answers a.is_valid() && b.is_valid() for
// every entry of either pose set to each kind of bad or edge value.
TEST(Transform, BothValidAgreesWithIsValidEntryByEntry) {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  const double values[] = {nan, -nan, inf, -inf, 7.0, -6.5, kMaxLength, std::nextafter(kMaxLength, inf),
                           -std::nextafter(kMaxLength, inf), 1e300, 5e-324, -0.0, 0.5};
  testing::Rng rng(7);
  int invalid = 0, checked = 0;
  for (int trial = 0; trial < 20; ++trial) {
    const Transform base_a = rng.pose(3.0), base_b = rng.pose(3.0);
    ASSERT_TRUE(both_valid(base_a, base_b));
    for (int which = 0; which < 2; ++which) {
      for (int entry = 0; entry < 12; ++entry) {
        for (const double v : values) {
          Transform a = base_a, b = base_b;
          Transform& t = which == 0 ? a : b;
          (entry < 9 ? t.R.data()[entry] : t.p[entry - 9]) = v;
          const bool expected = a.is_valid() && b.is_valid();
          EXPECT_EQ(both_valid(a, b), expected) << "pose " << which << " entry " << entry << " = " << v;
          EXPECT_EQ(both_valid(b, a), expected) << "swapped; pose " << which << " entry " << entry << " = " << v;
          invalid += !expected;
          ++checked;
        }
      }
    }
  }
  // The values above make most cases invalid but not all (a rotation entry
  // of 0.5 or a translation of exactly kMaxLength stays valid).
  EXPECT_GT(invalid, checked / 2);
  EXPECT_LT(invalid, checked);
  // Rotation entries summing to just over 6 (each finite and small).
  Transform a = Transform::identity(), b = Transform::identity();
  b.R.setConstant(6.0 / 9.0);
  b.R(0, 0) = std::nextafter(b.R(0, 0), 1.0) + 1e-12;
  EXPECT_EQ(both_valid(a, b), b.is_valid());
  EXPECT_FALSE(both_valid(a, b));
}

TEST(Transform, InverseAndComposition) {
  testing::Rng rng(1);
  for (int i = 0; i < 100; ++i) {
    const Transform a = rng.pose(5.0), b = rng.pose(5.0);
    const Vec3 x = rng.uniform_vec(-1, 1);
    EXPECT_NEAR((a.inverse().apply(a.apply(x)) - x).norm(), 0.0, 1e-13);
    EXPECT_NEAR(((a * b).apply(x) - a.apply(b.apply(x))).norm(), 0.0, 1e-13);
    EXPECT_NEAR((a.apply_inverse(x) - a.inverse().apply(x)).norm(), 0.0, 1e-13);
  }
}

TEST(Aabb, TransformedContainsTransformedCorners) {
  testing::Rng rng(2);
  const Aabb box{Vec3(-1, -2, -0.5), Vec3(0.5, 1, 3)};
  for (int i = 0; i < 100; ++i) {
    const Transform t = rng.pose(3.0);
    const Aabb w = box.transformed(t);
    for (int c = 0; c < 8; ++c) {
      const Vec3 corner((c & 1) ? box.max.x() : box.min.x(), (c & 2) ? box.max.y() : box.min.y(),
                        (c & 4) ? box.max.z() : box.min.z());
      EXPECT_TRUE(w.inflated(1e-12).contains(t.apply(corner)));
    }
  }
  EXPECT_TRUE(Aabb{}.empty());
  EXPECT_TRUE(Aabb{}.transformed(Transform::identity()).empty());
}

}  // namespace
}  // namespace proxima
