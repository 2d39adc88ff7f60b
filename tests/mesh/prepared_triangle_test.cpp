// SPDX-License-Identifier: BSD-3-Clause
// The prepared per-triangle path of the mesh contacts (src/mesh/prepared_triangle.hpp)
// and feature_distance's two-lane edge pairs must give bit-identical
// results to the per-pair forms they replace: same prefilter values, same
// closest points. The reference below is feature_distance's edge and face
// loops in their original Vec3 form.
#include <cmath>
#include <cstring>
#include <limits>

#include <gtest/gtest.h>

#include <proxima/mesh/triangle_distance.hpp>

#include "../../src/mesh/prepared_triangle.hpp"
#include "../../src/mesh/traversal.hpp"
#include "../support/random.hpp"
#include "../support/test_shapes.hpp"

namespace proxima::mesh {
namespace {

using testing::Rng;
using testing::scaled;

// feature_distance as it was written before the edge pairs became lanes.
ClosestPoints reference_feature_distance(const Triangle& a, const Triangle& b) {
  ClosestPoints best;
  const detail::FaceFrame fa(a), fb(b);
  if (detail::face_settles(a, fa, b, false, best) || detail::face_settles(b, fb, a, true, best)) return best;
  double best_sq = std::numeric_limits<double>::infinity();
  auto take = [&](const Vec3& x, const Vec3& y) {
    const double d = (x - y).squaredNorm();
    if (d < best_sq) {
      best_sq = d;
      best.a = x;
      best.b = y;
    }
  };
  const Vec3 da[3] = {a[1] - a[0], a[2] - a[1], a[0] - a[2]};
  const Vec3 db[3] = {b[1] - b[0], b[2] - b[1], b[0] - b[2]};
  const double la[3] = {da[0].squaredNorm(), da[1].squaredNorm(), da[2].squaredNorm()};
  const double lb[3] = {db[0].squaredNorm(), db[1].squaredNorm(), db[2].squaredNorm()};
  if (la[0] > 0.0 && la[1] > 0.0 && la[2] > 0.0 && lb[0] > 0.0 && lb[1] > 0.0 && lb[2] > 0.0) {
    int wi = 0, wj = 0;
    double ws = 0.0, wt = 0.0;
    const double inv_b[3] = {1.0 / lb[0], 1.0 / lb[1], 1.0 / lb[2]};
    for (int i = 0; i < 3; ++i) {
      const double inv_a = 1.0 / la[i];
      for (int j = 0; j < 3; ++j) {
        const Vec3 r = a[i] - b[j];
        const double bb = da[i].dot(db[j]), c = da[i].dot(r), f = db[j].dot(r);
        const double det = la[i] * lb[j] - bb * bb;
        double s = det > 0.0 ? std::clamp((bb * f - c * lb[j]) / det, 0.0, 1.0) : 0.0;
        const double t = std::clamp((bb * s + f) * inv_b[j], 0.0, 1.0);
        s = std::clamp((bb * t - c) * inv_a, 0.0, 1.0);
        const double d = (r + s * da[i] - t * db[j]).squaredNorm();
        if (d < best_sq) {
          best_sq = d;
          wi = i;
          wj = j;
          ws = s;
          wt = t;
        }
      }
    }
    best.a = a[wi] + ws * da[wi];
    best.b = b[wj] + wt * db[wj];
    best_sq = (best.a - best.b).squaredNorm();
  } else {
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        Vec3 x, y;
        segment_closest(a[i], a[(i + 1) % 3], b[j], b[(j + 1) % 3], x, y);
        take(x, y);
      }
  }
  auto faces = [&](const Triangle& t, const detail::FaceFrame& f, const Triangle& other, bool swap) {
    if (!f.face) return;
    for (int k = 0; k < 3; ++k) {
      Vec3 p;
      if (f.inside(t, other[k] - t[0], p)) swap ? take(other[k], p) : take(p, other[k]);
    }
  };
  faces(b, fb, a, true);
  faces(a, fa, b, false);
  best.distance = std::sqrt(best_sq);
  return best;
}

bool same_bits(double x, double y) { return std::memcmp(&x, &y, sizeof x) == 0; }
bool same_bits(const Vec3& x, const Vec3& y) {
  return same_bits(x.x(), y.x()) && same_bits(x.y(), y.y()) && same_bits(x.z(), y.z());
}
bool same(const ClosestPoints& x, const ClosestPoints& y) {
  return same_bits(x.distance, y.distance) && same_bits(x.a, y.a) && same_bits(x.b, y.b) && x.intersect == y.intersect;
}

// Pairs of every shape the mesh traversal meets: stacked nearly parallel
// faces near a layer's width apart, crossing ones, slivers, collinear and
// point triangles, repeated corners, at small and at huge coordinates.
Triangle shaped(Rng& rng, int kind, const Vec3& at, double size) {
  const Vec3 c = at + size * rng.uniform_vec(Vec3(-1, -1, -0.2), Vec3(1, 1, 0.2));
  Triangle t = {c + size * rng.unit_vector(), c + size * rng.unit_vector(), c + size * rng.unit_vector()};
  switch (kind) {
    case 0:  // flat, nearly horizontal
      for (Vec3& v : t) v.z() = c.z() + 1e-3 * size * rng.uniform(-1, 1);
      break;
    case 1: {  // sliver: third corner almost on the first edge
      const double s = rng.uniform(0.2, 0.8);
      t[2] = t[0] + s * (t[1] - t[0]) + 1e-10 * size * rng.unit_vector();
      break;
    }
    case 2:  // collinear
      t[2] = t[0] + rng.uniform(-0.5, 1.5) * (t[1] - t[0]);
      break;
    case 3:  // a repeated corner: a segment
      t[2] = t[rng.uniform(0, 1) < 0.5 ? 0 : 1];
      break;
    case 4:  // a point
      t[1] = t[2] = t[0];
      break;
    default:
      break;
  }
  return t;
}

TEST(PreparedTriangle, SameBitsAsThePerPairForms) {
  Rng rng(29);
  const double origins[] = {0.0, 3.7, 1e4, -2.5e6, 1e9};
  int pairs = 0;
  for (int k = 0; k < scaled(20000); ++k) {
    const Vec3 at = origins[k % 5] * Vec3(1.0, -0.7, 0.3);
    const double size = std::pow(10.0, rng.uniform(-3, 0));
    const int kind_a = rng.uniform(0, 1) < 0.6 ? 0 : static_cast<int>(rng.uniform(0, 6));
    const int kind_b = rng.uniform(0, 1) < 0.6 ? 0 : static_cast<int>(rng.uniform(0, 6));
    const Triangle a = shaped(rng, kind_a, at + Vec3(0, 0, size * rng.uniform(-0.05, 0.05)), size);
    const Triangle b = shaped(rng, kind_b, at, size);
    detail::PreparedTriangle pa, pb;
    pa.reset(a);
    pb.reset(b);
    ASSERT_TRUE(same_bits(detail::centroid_gap(pa, pb), detail::centroid_gap(a, b))) << k;
    ASSERT_TRUE(same_bits(detail::plane_gap(pa, pb), detail::plane_gap(a, b))) << k;
    const ClosestPoints ref = reference_feature_distance(a, b);
    ASSERT_TRUE(same(feature_distance(a, b), ref)) << k;
    ASSERT_TRUE(same(detail::prepared_distance(pa, pb, false), ref)) << k;
    ASSERT_TRUE(same(detail::prepared_distance(pa, pb, true), triangle_distance(a, b))) << k;
    // The shadow test's point–triangle distance from the prepared plane.
    const Vec3 x = b[0] + size * rng.uniform_vec(-1, 1);
    ASSERT_TRUE(same(detail::point_triangle(x, a, pa.face()), point_triangle(x, a))) << k;
    ++pairs;
  }
  EXPECT_EQ(pairs, scaled(20000));
}

// The exact path skips the intersection test when the boxes are strictly
// apart on an axis: it must agree with the exact predicate, which never
// finds a common point then. Pairs placed one ulp apart along an axis
// (touching and crossing planes, coplanar side faces of stacked boxes,
// degenerate triangles, huge coordinates) and the same pairs touching.
TEST(PreparedTriangle, BoxesApartNeverIntersect) {
  Rng rng(31);
  const double origins[] = {0.0, 1e3, -7e6, 1e12};
  int apart = 0;
  for (int k = 0; k < scaled(20000); ++k) {
    const Vec3 at = origins[k % 4] * Vec3(0.3, 1.0, -0.6);
    const double size = std::pow(10.0, rng.uniform(-3, 1));
    const Triangle a = shaped(rng, k % 7 == 0 ? 1 + k % 5 : 0, at, size);
    Triangle b = shaped(rng, k % 11 == 0 ? 1 + k % 5 : static_cast<int>(rng.uniform(0, 1) < 0.5 ? 0 : 5), at, size);
    if (k % 3 == 0) b = {a[0], a[1], a[0] + Vec3(0, 0, size)};  // a side face standing on a's edge
    // Slide b along an axis until its box starts right after a's (or
    // exactly at it, touching).
    const int axis = k % 3;
    const double a_hi = std::max({a[0][axis], a[1][axis], a[2][axis]});
    const double b_lo = std::min({b[0][axis], b[1][axis], b[2][axis]});
    const bool touch = k % 4 == 0;
    const double target = touch ? a_hi : std::nextafter(a_hi, std::numeric_limits<double>::infinity());
    for (Vec3& v : b) v[axis] += target - b_lo;
    // The shift rounds: move corners that fell at or before a's box out.
    const double new_lo = std::min({b[0][axis], b[1][axis], b[2][axis]});
    if (!touch && !(new_lo > a_hi))
      for (Vec3& v : b)
        if (v[axis] <= a_hi) v[axis] = std::nextafter(a_hi, std::numeric_limits<double>::infinity());
    detail::PreparedTriangle pa, pb;
    pa.reset(a);
    pb.reset(b);
    const bool strictly_apart = (pa.lo.array() > pb.hi.array()).any() || (pb.lo.array() > pa.hi.array()).any();
    if (strictly_apart) {
      ++apart;
      ASSERT_FALSE(triangles_intersect(a, b)) << k;
      ASSERT_FALSE(triangles_intersect(b, a)) << k;
    }
    ASSERT_TRUE(same(detail::prepared_distance(pa, pb, true), triangle_distance(a, b))) << k;
    ASSERT_TRUE(same(detail::prepared_distance(pb, pa, true), triangle_distance(b, a))) << k;
  }
  EXPECT_GT(apart, scaled(20000) / 2);
}

}  // namespace
}  // namespace proxima::mesh
