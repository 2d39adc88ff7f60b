// SPDX-License-Identifier: BSD-3-Clause
// The dedicated box–box manifold against the generic construction it
// specializes: the same status, distance and normal, and the same points
// with the same depths (within 1e-12), over random resting and random poses.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include <proxima/narrow/manifold.hpp>
#include <proxima/query.hpp>

#include "../support/random.hpp"

namespace proxima {
namespace {

using testing::Rng;

constexpr double kTol = 1e-12;

// Every point of `s` has a point of `t` within kTol, with the same depth.
bool covered(const ContactSet& s, const ContactSet& t, std::string& why) {
  for (const Contact& c : s.points) {
    bool found = false;
    for (const Contact& d : t.points)
      found = found || ((c.point - d.point).norm() <= kTol && std::abs(c.depth - d.depth) <= kTol &&
                        (c.normal - d.normal).norm() <= kTol);
    if (!found) {
      why = "point " + std::to_string(c.point.x()) + " " + std::to_string(c.point.y()) + " " +
            std::to_string(c.point.z()) + " depth " + std::to_string(c.depth) + " unmatched";
      return false;
    }
  }
  return true;
}

// Runs both paths; returns the number of points compared.
std::size_t expect_same(const Shape& a, const Transform& ta, const Shape& b, const Transform& tb,
                        const ContactOptions& o, const std::string& what) {
  ContactSet fast, generic;
  contacts(a, ta, b, tb, o, fast);
  narrow::generic_contacts(a, ta, b, tb, o, generic);
  EXPECT_EQ(fast.status, generic.status) << what;
  EXPECT_EQ(fast.distance, generic.distance) << what;
  EXPECT_EQ(fast.normal, generic.normal) << what;
  EXPECT_EQ(fast.size(), generic.size()) << what;
  std::string why;
  EXPECT_TRUE(covered(fast, generic, why)) << what << ": fast " << why;
  EXPECT_TRUE(covered(generic, fast, why)) << what << ": generic " << why;
  return fast.size();
}

Vec3 random_size(Rng& rng) { return {rng.uniform(0.2, 2.0), rng.uniform(0.2, 2.0), rng.uniform(0.2, 2.0)}; }

// A on B's top face: random yaw and offset, overlap up to 5 mm, and a tilt
// that is sometimes inside the feature tolerance and sometimes just outside.
void resting_pose(Rng& rng, const Vec3& ha, const Vec3& hb, Transform& ta, Transform& tb) {
  tb = rng.pose(1.0);
  const double exponent = rng.uniform(-12.0, -4.0);
  const double tilt = rng.uniform(0, 1) < 0.3 ? 0.0 : std::pow(10.0, exponent);
  const double turn = rng.uniform(0, 6.3);
  const Vec3 offset = rng.uniform_vec(Vec3(-1, -1, 0.0), Vec3(1, 1, 0.005));
  const Transform yaw = Transform::from_axis_angle(
      Vec3::UnitZ(), turn, Vec3(offset.x() * hb.x(), offset.y() * hb.y(), hb.z() + ha.z() - offset.z()));
  const Transform lean = Transform::from_axis_angle(rng.unit_vector(), tilt, Vec3::Zero());
  ta = tb * yaw * lean;
}

TEST(BoxManifold, RestingPosesMatchTheGenericPath) {
  Rng rng(4);
  std::size_t points = 0;
  for (int i = 0; i < 5000; ++i) {
    const Vec3 sa = random_size(rng), sb = random_size(rng);
    const Shape a = Box(sa), b = Box(sb);
    Transform ta, tb;
    resting_pose(rng, 0.5 * sa, 0.5 * sb, ta, tb);
    points += expect_same(a, ta, b, tb, {}, "resting " + std::to_string(i));
    if (i % 5 == 0) points += expect_same(b, tb, a, ta, {}, "resting swapped " + std::to_string(i));
    if (::testing::Test::HasFailure()) return;
  }
  EXPECT_GT(points, 5000u * 3);  // mostly polygons
}

// Mostly a corner on a face or an edge across an edge: the single-point
// shortcut, which skips the hulls, against the generic clip.
TEST(BoxManifold, RandomPosesMatchTheGenericPath) {
  Rng rng(5);
  int single = 0;
  for (int i = 0; i < 5000; ++i) {
    const Shape a = Box(random_size(rng)), b = Box(random_size(rng));
    const Transform ta = rng.pose(1.0), tb = rng.pose(1.0);
    single += expect_same(a, ta, b, tb, {}, "random " + std::to_string(i)) == 1 ? 1 : 0;
    if (::testing::Test::HasFailure()) return;
  }
  EXPECT_GT(single, 2000);
}

// Margins (separated pairs go through GJK), rounded boxes, a looser
// tolerance, reduction, and boxes thin enough for degenerate features.
TEST(BoxManifold, OptionsAndOddBoxesMatchTheGenericPath) {
  Rng rng(6);
  for (int i = 0; i < 3000; ++i) {
    ContactOptions o;
    o.margin = rng.uniform(0, 1) < 0.5 ? 0.0 : rng.uniform(0.0, 0.05);
    o.feature_tolerance = rng.uniform(0, 1) < 0.5 ? 1e-6 : std::pow(10.0, rng.uniform(-9.0, -2.0));
    o.max_points = rng.uniform(0, 1) < 0.8 ? 0 : 4;
    Vec3 sa = random_size(rng), sb = random_size(rng);
    if (i % 7 == 0) sa[i % 3] = std::pow(10.0, rng.uniform(-9.0, -5.0));  // a plate
    if (i % 11 == 0) sa = Vec3::Constant(std::pow(10.0, rng.uniform(-9.0, -6.0)));  // a speck
    const double m = i % 3 == 0 ? rng.uniform(0.0, 0.1) : 0.0;
    const Shape a = Box(sa, m), b = Box(sb, i % 4 == 0 ? 0.05 : 0.0);
    Transform ta, tb;
    if (i % 2) resting_pose(rng, 0.5 * sa, 0.5 * sb, ta, tb);
    else { ta = rng.pose(0.8); tb = rng.pose(0.8); }
    const double shift = rng.uniform(0.0, 0.03);
    ta.p += shift * rng.unit_vector();
    expect_same(a, ta, b, tb, o, "option case " + std::to_string(i));
    if (::testing::Test::HasFailure()) return;
  }
}

// Without reduction, two faces lying on each other take the face-on-face
// clip in the reference box's frame: the same normal and the same point set,
// to 1e-12, as the generic path. Small tilts (inside and just outside the
// tolerance), offsets that hang A over B's edges, exact 45° turns (the
// octagon), and both operand orders (either box can hold the reference face).
TEST(BoxManifold, FaceOnFaceMatchesTheGenericPath) {
  Rng rng(7);
  std::size_t polygons = 0;
  for (int i = 0; i < 4000; ++i) {
    const Vec3 sa = random_size(rng), sb = random_size(rng);
    const Shape a = Box(sa, i % 5 == 0 ? 0.02 : 0.0), b = Box(sb, i % 7 == 0 ? 0.03 : 0.0);
    const Vec3 ha = 0.5 * sa, hb = 0.5 * sb;
    const Transform tb = rng.pose(1.0);
    const double turn = i % 4 == 0 ? 0.25 * M_PI * static_cast<double>(rng.uniform(0, 8) > 4 ? 1 : 3)
                                   : rng.uniform(0, 6.3);
    const double tilt = i % 3 == 0 ? 0.0 : std::pow(10.0, rng.uniform(-12.0, -5.0));
    const Vec3 offset = rng.uniform_vec(Vec3(-1.2, -1.2, 0.0), Vec3(1.2, 1.2, 0.01));
    const Transform yaw = Transform::from_axis_angle(
        Vec3::UnitZ(), turn, Vec3(offset.x() * hb.x(), offset.y() * hb.y(), hb.z() + ha.z() - offset.z()));
    const Transform lean = Transform::from_axis_angle(rng.unit_vector(), tilt, Vec3::Zero());
    const Transform ta = tb * yaw * lean;
    const std::size_t n = expect_same(a, ta, b, tb, {}, "face on face " + std::to_string(i));
    expect_same(b, tb, a, ta, {}, "face on face swapped " + std::to_string(i));
    polygons += n >= 3 ? 1 : 0;
    if (::testing::Test::HasFailure()) return;
  }
  EXPECT_GT(polygons, 4000u * 3 / 4);
}

// Cases the face-on-face clip leaves to the box path (whose segments and
// polygons equal the generic path's bit for bit, so exact equality shows the
// fallback; a single point, a corner on a face, agrees to rounding): faces
// narrower than 1e-3 of the size (where the generic hull merges corners and
// the least-squares heights drift), a coarser tolerance (wider slack, where
// the order vertices are visited in decides merges), and reduction.
TEST(BoxManifold, DegenerateFaceOnFaceFallsBack) {
  Rng rng(8);
  for (int i = 0; i < 600; ++i) {
    ContactOptions o;
    Vec3 sa = random_size(rng);
    const Vec3 sb = random_size(rng);
    if (i % 3 == 0) sa.x() = std::pow(10.0, rng.uniform(-9.0, -4.0));  // a strip lying flat
    else if (i % 3 == 1) o.feature_tolerance = std::pow(10.0, rng.uniform(-5.0, -3.0));
    else o.max_points = 4;
    const Shape a = Box(sa), b = Box(sb);
    Transform ta, tb;
    resting_pose(rng, 0.5 * sa, 0.5 * sb, ta, tb);
    ContactSet fast, generic;
    contacts(a, ta, b, tb, o, fast);
    narrow::generic_contacts(a, ta, b, tb, o, generic);
    ASSERT_EQ(fast.size(), generic.size()) << i;
    EXPECT_EQ(fast.normal, generic.normal) << i;
    const double slack = fast.size() == 1 ? kTol : 0.0;
    for (std::size_t k = 0; k < fast.size(); ++k) {
      bool same = false;
      for (std::size_t m = 0; m < generic.size(); ++m)
        same = same || ((fast.points[k].point - generic.points[m].point).norm() <= slack &&
                        std::abs(fast.points[k].depth - generic.points[m].depth) <= slack);
      EXPECT_TRUE(same) << "case " << i << " point " << k << " not bit for bit";
    }
    if (::testing::Test::HasFailure()) return;
  }
}

}  // namespace
}  // namespace proxima
