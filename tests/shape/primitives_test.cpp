// SPDX-License-Identifier: BSD-3-Clause
#include <cmath>
#include <functional>
#include <limits>
#include <numbers>
#include <string>

#include <gtest/gtest.h>

#include <proxima/core/error.hpp>
#include <proxima/shape/shape.hpp>

#include "../support/non_finite.hpp"

namespace proxima {
namespace {

using testing::kInf;
using testing::kNan;

// Expects construction to throw proxima::Error whose message has both words.
void expect_error(const std::function<void()>& make, const std::string& shape, const std::string& what) {
  try {
    make();
    FAIL() << shape << ": no error for bad " << what;
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find(shape), std::string::npos) << m;
    EXPECT_NE(m.find(what), std::string::npos) << m;
  }
}

TEST(Primitives, RejectBadSizes) {
  for (double bad : {0.0, -1.0, kNan, kInf}) {
    expect_error([&] { Sphere s(bad); }, "sphere", "radius");
    expect_error([&] { Capsule c(bad, 1.0); }, "capsule", "radius");
    expect_error([&] { Capsule c(1.0, bad); }, "capsule", "length");
    expect_error([&] { Cylinder c(bad, 1.0); }, "cylinder", "radius");
    expect_error([&] { Cylinder c(1.0, bad); }, "cylinder", "length");
    expect_error([&] { Cone c(bad, 1.0); }, "cone", "radius");
    expect_error([&] { Cone c(1.0, bad); }, "cone", "length");
    expect_error([&] { Box b(1.0, bad, 1.0); }, "box", "size");
    expect_error([&] { Ellipsoid e(Vec3(1.0, 1.0, bad)); }, "ellipsoid", "radii");
  }
  for (double bad : {-1e-3, kNan, kInf}) {
    expect_error([&] { Sphere s(1.0, bad); }, "sphere", "margin");
    expect_error([&] { Box b(1.0, 1.0, 1.0, bad); }, "box", "margin");
    expect_error([&] { Halfspace h(Vec3::UnitZ(), 0.0, bad); }, "halfspace", "margin");
  }
  expect_error([] { Halfspace h(Vec3::Zero(), 0.0); }, "halfspace", "normal");
  expect_error([] { Halfspace h(Vec3(kNan, 0, 1), 0.0); }, "halfspace", "normal");
  expect_error([] { Halfspace h(Vec3::UnitZ(), kInf); }, "halfspace", "offset");
  expect_error([] { Halfspace(Vec3::UnitZ(), 0.0).mass_properties(); }, "halfspace", "unbounded");
}

// Sizes within [kMinLength, kMaxLength], margins and offsets up to
// kMaxLength: beyond, the queries' squared lengths leave the double range.
TEST(Primitives, RejectSizesOutsideTheRangeOfLengths) {
  const double big = 2.0 * kMaxLength, small = 0.5 * kMinLength;
  for (double bad : {big, small}) {
    const char* why = bad > 1.0 ? "beyond" : "below";
    expect_error([&] { Sphere s(bad); }, "sphere", why);
    expect_error([&] { Capsule c(bad, 1.0); }, "capsule", why);
    expect_error([&] { Capsule c(1.0, bad); }, "capsule", why);
    expect_error([&] { Cylinder c(bad, 1.0); }, "cylinder", why);
    expect_error([&] { Cone c(1.0, bad); }, "cone", why);
    expect_error([&] { Box b(1.0, bad, 1.0); }, "box", why);
    expect_error([&] { Ellipsoid e(Vec3(1.0, 1.0, bad)); }, "ellipsoid", why);
  }
  expect_error([&] { Sphere s(1.0, big); }, "sphere", "margin");
  expect_error([&] { Box b(1.0, 1.0, 1.0, big); }, "box", "beyond");
  expect_error([&] { Halfspace h(Vec3::UnitZ(), -big); }, "halfspace", "offset");
  // The ends themselves are accepted, and a margin may be tiny.
  EXPECT_NO_THROW(Sphere(kMaxLength, kMaxLength));
  EXPECT_NO_THROW(Box(kMinLength, kMaxLength, 1.0, 1e-300));
  EXPECT_NO_THROW(Ellipsoid(Vec3(kMinLength, 1.0, kMaxLength)));
  EXPECT_NO_THROW(Halfspace(Vec3::UnitZ(), -kMaxLength));
}

TEST(Primitives, SupportsAreExtremeAlongTheDirection) {
  // Brute force over boundary samples: no sample beats the support point.
  const Cylinder cyl(0.4, 1.2);
  const Cone cone(0.3, 0.8);
  const Ellipsoid ell(Vec3(0.5, 0.3, 0.2));
  const Box box(1.0, 2.0, 3.0);
  for (int k = 0; k < 200; ++k) {
    const double th = 2 * std::numbers::pi * k / 200.0, ph = std::numbers::pi * (k % 17) / 16.0;
    const Vec3 d(std::sin(ph) * std::cos(th), std::sin(ph) * std::sin(th), std::cos(ph));
    double best_cyl = -kInf, best_cone = -kInf, best_ell = -kInf;
    for (int i = 0; i < 360; ++i) {
      const double a = 2 * std::numbers::pi * i / 360.0;
      for (int j = 0; j <= 20; ++j) {
        const double b = std::numbers::pi * j / 20.0;
        best_ell = std::max(best_ell, d.dot(Vec3(0.5 * std::sin(b) * std::cos(a), 0.3 * std::sin(b) * std::sin(a), 0.2 * std::cos(b))));
      }
      for (double z : {-0.6, 0.6}) best_cyl = std::max(best_cyl, d.dot(Vec3(0.4 * std::cos(a), 0.4 * std::sin(a), z)));
      best_cone = std::max(best_cone, d.dot(Vec3(0.3 * std::cos(a), 0.3 * std::sin(a), -0.4)));
    }
    best_cone = std::max(best_cone, d.dot(Vec3(0, 0, 0.4)));
    EXPECT_GE(d.dot(cyl.core_support(d)), best_cyl - 1e-12);
    EXPECT_LE(d.dot(cyl.core_support(d)), best_cyl + 0.4 * (1 - std::cos(std::numbers::pi / 360)) + 1e-12);
    EXPECT_GE(d.dot(cone.core_support(d)), best_cone - 1e-12);
    EXPECT_GE(d.dot(ell.core_support(d)), best_ell - 1e-12);
    EXPECT_NEAR(d.dot(box.core_support(d)), 0.5 * std::abs(d.x()) + std::abs(d.y()) + 1.5 * std::abs(d.z()), 1e-15);
  }
}

// Mass properties against a midpoint-rule integration over a fine grid of the
// body's implicit inside test (shares nothing with the closed forms).
void expect_mass_properties(const Shape& s, const std::function<bool(const Vec3&)>& inside, double tol) {
  const Aabb b = s.local_aabb();
  const int n = 120;
  const Vec3 step = (b.max - b.min) / n;
  const double dv = step.prod();
  double v = 0;
  Vec3 c = Vec3::Zero();
  Mat3 second = Mat3::Zero();
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k) {
        const Vec3 x = b.min + step.cwiseProduct(Vec3(i + 0.5, j + 0.5, k + 0.5));
        if (!inside(x)) continue;
        v += dv;
        c += dv * x;
        second += dv * x * x.transpose();
      }
  c /= v;
  const Mat3 cov = second - v * c * c.transpose();
  const Mat3 inertia = cov.trace() * Mat3::Identity() - cov;
  const MassProperties m = s.mass_properties();
  EXPECT_NEAR(m.volume, v, tol * v) << s.name();
  EXPECT_NEAR((m.centroid - c).norm(), 0.0, tol * b.half_extents().norm()) << s.name();
  EXPECT_NEAR((m.inertia - inertia).norm(), 0.0, tol * inertia.norm()) << s.name();
}

TEST(Primitives, MassPropertiesMatchIntegration) {
  expect_mass_properties(Sphere(0.5), [](const Vec3& x) { return x.norm() <= 0.5; }, 5e-3);
  expect_mass_properties(Box(1.0, 2.0, 3.0), [](const Vec3&) { return true; }, 1e-3);
  expect_mass_properties(Ellipsoid(Vec3(0.5, 0.3, 0.2)), [](const Vec3& x) {
    return std::pow(x.x() / 0.5, 2) + std::pow(x.y() / 0.3, 2) + std::pow(x.z() / 0.2, 2) <= 1.0;
  }, 5e-3);
  expect_mass_properties(Cylinder(0.3, 1.0), [](const Vec3& x) { return x.head<2>().norm() <= 0.3; }, 5e-3);
  expect_mass_properties(Cone(0.3, 0.8), [](const Vec3& x) {
    return x.head<2>().norm() <= 0.3 * (0.4 - x.z()) / 0.8;
  }, 5e-3);
  expect_mass_properties(Capsule(0.2, 0.6), [](const Vec3& x) {
    return Vec3(x.x(), x.y(), std::max(0.0, std::abs(x.z()) - 0.3)).norm() <= 0.2;
  }, 5e-3);
}

TEST(Primitives, MarginInflatesBoundsNotMass) {
  const Box b(1.0, 1.0, 1.0, 0.1);
  EXPECT_NEAR(b.local_aabb().max.x(), 0.6, 1e-15);
  EXPECT_NEAR(b.mass_properties().volume, 1.0, 1e-15);
  const Shape s = Capsule(0.2, 1.0, 0.05);
  EXPECT_EQ(s.type(), ShapeType::capsule);
  EXPECT_STREQ(s.name(), "capsule");
  EXPECT_NEAR(s.local_aabb().max.z(), 0.75, 1e-15);
  EXPECT_DOUBLE_EQ(s.margin(), 0.05);
}

}  // namespace
}  // namespace proxima
