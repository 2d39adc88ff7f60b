// SPDX-License-Identifier: BSD-3-Clause
// Every pair and method at the ends of the range of lengths (kMinLength and
// kMaxLength, core/math.hpp), against the same query at unit scale: signed
// distance is homogeneous of degree one, so scaling every size and every
// pose by s scales the answer by s. Powers of two scale each rounding
// exactly, so a difference can come only from a method's own tolerances.
// Beyond the range every query refuses the pose instead of squaring 1e200
// into infinity.
#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include <proxima/query.hpp>

#include "../support/random.hpp"
#include "../support/test_shapes.hpp"

namespace proxima {
namespace {

// One shape of every type (a halfspace and a box with a margin too), sized s.
std::vector<std::pair<std::string, Shape>> shapes_of_size(double s) {
  std::vector<std::pair<std::string, Shape>> v;
  v.push_back({"sphere", Sphere(0.5 * s)});
  v.push_back({"capsule", Capsule(0.2 * s, 0.6 * s, 0.01 * s)});
  v.push_back({"cylinder", Cylinder(0.3 * s, 0.8 * s)});
  v.push_back({"cone", Cone(0.3 * s, 0.7 * s)});
  v.push_back({"box", Box(Vec3(0.6 * s, 0.4 * s, 0.8 * s))});
  v.push_back({"ellipsoid", Ellipsoid(Vec3(0.5 * s, 0.3 * s, 0.2 * s))});
  testing::Rng rng(3);
  std::vector<Vec3> points;
  for (int i = 0; i < 30; ++i) points.push_back(0.4 * s * rng.unit_vector());
  v.push_back({"convex", ConvexPolytope(points)});
  v.push_back({"halfspace", Halfspace(Vec3(0, 0, 1), 0.1 * s)});
  v.push_back({"box+margin", Box(Vec3(0.6 * s, 0.4 * s, 0.8 * s), 0.05 * s)});
  return v;
}

bool finite_answer(const DistanceResult& r) {
  return std::isfinite(r.distance) && r.normal.allFinite() && r.point_a.allFinite() && r.point_b.allFinite();
}

constexpr Method kEveryMethod[] = {Method::automatic, Method::gjk,         Method::analytic,
                                   Method::sat,       Method::incremental, Method::mpr};

// s = 2^exponent: every answer finite, with the status of the unit-scale
// query and its distance times s, to `tol` (relative to the unit shapes;
// `mpr_tol` for the centre-line MPR, an estimate, not an exact method).
// Contacts: the same deepest depth times s; with `same_points`, the same
// points times s (a normal that differs within GJK's tolerance can move a
// vertex across the feature tolerance and change the polygon).
void expect_scaled_answers(int exponent, double tol, double mpr_tol, bool same_points) {
  const double s = std::ldexp(1.0, exponent);
  ASSERT_LE(0.8 * s, kMaxLength);
  ASSERT_GE(0.2 * s, kMinLength);
  const auto unit = shapes_of_size(1.0), scaled = shapes_of_size(s);
  testing::Rng rng(41);
  int compared = 0;
  for (std::size_t i = 0; i < unit.size(); ++i)
    for (std::size_t j = 0; j < unit.size(); ++j)
      for (int k = 0; k < testing::scaled(30); ++k) {
        const Transform ta = rng.pose(0.8), tb = rng.pose(0.8);
        Transform sa = ta, sb = tb;
        sa.p *= s;
        sb.p *= s;
        const std::string what = unit[i].first + "/" + unit[j].first + " pose " + std::to_string(k);
        for (Method m : kEveryMethod) {
          DistanceRequest q;
          q.method = m;
          for (bool sign : {false, true}) {
            const DistanceResult r1 = sign ? signed_distance(unit[i].second, ta, unit[j].second, tb, q)
                                           : distance(unit[i].second, ta, unit[j].second, tb, q);
            const DistanceResult rs = sign ? signed_distance(scaled[i].second, sa, scaled[j].second, sb, q)
                                           : distance(scaled[i].second, sa, scaled[j].second, sb, q);
            ASSERT_EQ(rs.status, r1.status) << what << " method " << static_cast<int>(m);
            if (rs.status != Status::ok && rs.status != Status::not_converged && rs.status != Status::upper_bound) {
              continue;
            }
            ASSERT_TRUE(finite_answer(rs)) << what << " method " << static_cast<int>(m);
            EXPECT_NEAR(rs.distance / s, r1.distance, m == Method::mpr ? mpr_tol : tol)
                << what << " method " << static_cast<int>(m);
            ++compared;
          }
        }
        const ContactSet c1 = contacts(unit[i].second, ta, unit[j].second, tb);
        const ContactSet cs = contacts(scaled[i].second, sa, scaled[j].second, sb);
        ASSERT_EQ(cs.status, c1.status) << what;
        ASSERT_EQ(cs.empty(), c1.empty()) << what;
        double deepest_s = -1e300, deepest_1 = -1e300;
        for (const Contact& x : cs.points) {
          ASSERT_TRUE(x.point.allFinite() && x.normal.allFinite() && std::isfinite(x.depth)) << what;
          deepest_s = std::max(deepest_s, x.depth / s);
        }
        for (const Contact& x : c1.points) deepest_1 = std::max(deepest_1, x.depth);
        EXPECT_NEAR(deepest_s, deepest_1, tol) << what;
        if (!same_points) continue;
        ASSERT_EQ(cs.points.size(), c1.points.size()) << what;
        for (std::size_t p = 0; p < cs.points.size(); ++p)
          EXPECT_LE((cs.points[p].point / s - c1.points[p].point).norm(), tol) << what;
      }
  EXPECT_GT(compared, 1000);
}

// Measured: bit-identical, every method and every contact point.
TEST(RangeOfLengths, LargeBodiesScaleTheUnitAnswers) { expect_scaled_answers(47, 1e-12, 1e-12, true); }

// Below 2^-19 m qhull lists the same hull's vertices and faces in another
// order, so the polytope's hill climbing starts elsewhere and some
// polytope–cylinder and polytope–cone poses take another path. Measured:
// the exact methods then agree to 2.4e-11 (within their 1e-10 relative
// tolerance), the centre-line MPR (whose exit point along the ray is good to
// its own tolerance) to 1e-5, and a contact polygon can differ by a vertex.
TEST(RangeOfLengths, TinyBodiesScaleTheUnitAnswers) { expect_scaled_answers(-46, 1e-9, 1e-4, false); }

TEST(RangeOfLengths, FarFromTheOriginAnswersStayFinite) {
  // Unit bodies 9e14 m out: each coordinate is then good to 0.125 m, so only
  // finiteness and a status can be asked for.
  const auto unit = shapes_of_size(1.0);
  testing::Rng rng(42);
  for (const auto& [na, a] : unit)
    for (const auto& [nb, b] : unit)
      for (int k = 0; k < testing::scaled(10); ++k) {
        Transform ta = rng.pose(0.8), tb = rng.pose(0.8);
        ta.p.x() += 0.9 * kMaxLength;
        tb.p.x() += 0.9 * kMaxLength;
        for (Method m : kEveryMethod) {
          DistanceRequest q;
          q.method = m;
          const DistanceResult r = signed_distance(a, ta, b, tb, q);
          if (r.status == Status::ok || r.status == Status::not_converged || r.status == Status::upper_bound)
            EXPECT_TRUE(finite_answer(r)) << na << "/" << nb << " method " << static_cast<int>(m);
          else
            EXPECT_EQ(r.status, Status::not_implemented) << na << "/" << nb;
        }
      }
}

TEST(RangeOfLengths, PosesBeyondTheRangeAreRefused) {
  const auto unit = shapes_of_size(1.0);
  Transform far;
  far.p = Vec3(0, std::nextafter(kMaxLength, 2 * kMaxLength), 0);
  Transform skewed;
  skewed.R(2, 0) = 4.0;  // not a rotation: its products grow without bound
  for (const Transform& bad : {far, skewed})
    for (const auto& [na, a] : unit)
      for (const auto& [nb, b] : unit) {
        for (Method m : kEveryMethod) {
          DistanceRequest q;
          q.method = m;
          const DistanceResult r = signed_distance(a, bad, b, {}, q);
          EXPECT_EQ(r.status, Status::invalid_input) << na << "/" << nb;
          EXPECT_FALSE(std::isnan(r.distance));
          EXPECT_EQ(distance(a, {}, b, bad, q).status, Status::invalid_input) << na << "/" << nb;
        }
        EXPECT_EQ(collide(a, bad, b, {}).status, Status::invalid_input) << na << "/" << nb;
        EXPECT_EQ(contacts(a, {}, b, bad).status, Status::invalid_input) << na << "/" << nb;
      }
}

}  // namespace
}  // namespace proxima
