// SPDX-License-Identifier: BSD-3-Clause
// Self test of the ground-truth oracles against closed-form distances.
#include <gtest/gtest.h>

#include <Eigen/Geometry>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <random>
#include <vector>

#include "minkowski_oracle.hpp"
#include "oracle_geometry.hpp"
#include "sweep_oracle.hpp"

namespace {

using Eigen::Matrix3d;
using Eigen::Vector3d;
using proxima::oracle::closest_point_on_segment;
using proxima::oracle::closest_points_of_segments;
using proxima::oracle::hull_signed_distance;
using proxima::oracle::minkowski_signed_distance;
using proxima::oracle::Support;
using proxima::oracle::sweep_separation;
using proxima::oracle::sweep_separation_report;
using proxima::oracle::SweepReport;

constexpr double kMinkowskiTol = 1e-12;  // asserted accuracy, Minkowski oracle
constexpr double kSweepTol = 1e-12;      // asserted accuracy, sweep oracle
constexpr double kSweepGap = 1e-12;      // asserted certificate gap, sweep oracle

// ----------------------------------------------------------------- helpers --
Matrix3d random_rotation(std::mt19937_64& rng) {
  std::normal_distribution<double> n(0.0, 1.0);
  const double w = n(rng), x = n(rng), y = n(rng), z = n(rng);
  Eigen::Quaterniond q(w, x, y, z);
  q.normalize();
  return q.toRotationMatrix();
}

Vector3d random_vector(std::mt19937_64& rng, double lo, double hi) {
  std::uniform_real_distribution<double> u(lo, hi);
  const double x = u(rng), y = u(rng), z = u(rng);
  return Vector3d(x, y, z);
}

std::vector<Vector3d> box_vertices(const Vector3d& c, const Vector3d& half,
                                   const Matrix3d& R = Matrix3d::Identity()) {
  std::vector<Vector3d> v;
  for (int i = 0; i < 8; ++i) {
    const Vector3d s((i & 1) ? 1.0 : -1.0, (i & 2) ? 1.0 : -1.0, (i & 4) ? 1.0 : -1.0);
    v.push_back(c + R * s.cwiseProduct(half));
  }
  return v;
}

std::vector<Vector3d> transformed(const std::vector<Vector3d>& pts, const Matrix3d& R,
                                  const Vector3d& t) {
  std::vector<Vector3d> out;
  for (const auto& p : pts) out.push_back(R * p + t);
  return out;
}

double sgn(double x) { return x >= 0.0 ? 1.0 : -1.0; }

Support box_support(const Vector3d& c, const Vector3d& half,
                    const Matrix3d& R = Matrix3d::Identity()) {
  return [=](const Vector3d& d) {
    const Vector3d l = R.transpose() * d;
    return Vector3d(c + R * Vector3d(sgn(l.x()) * half.x(), sgn(l.y()) * half.y(),
                                     sgn(l.z()) * half.z()));
  };
}

Support sphere_support(const Vector3d& c, double r) {
  return [=](const Vector3d& d) { return Vector3d(c + r * d.normalized()); };
}

// Ellipsoid {c + R diag(axes) u : |u| <= 1}.
Support ellipsoid_support(const Vector3d& c, const Vector3d& axes, const Matrix3d& R) {
  return [=](const Vector3d& d) {
    const Vector3d l = R.transpose() * d;
    const Vector3d dl = axes.cwiseProduct(l);  // D l
    return Vector3d(c + R * axes.cwiseProduct(dl) / dl.norm());
  };
}

// Cylinder of radius r and height h, axis = R * z, centred at c.
Support cylinder_support(const Vector3d& c, double r, double h, const Matrix3d& R) {
  return [=](const Vector3d& d) {
    const Vector3d l = R.transpose() * d;
    const double nxy = std::hypot(l.x(), l.y());
    Vector3d p(0.0, 0.0, sgn(l.z()) * 0.5 * h);
    if (nxy > 0.0) p.head<2>() = r * l.head<2>() / nxy;
    return Vector3d(c + R * p);
  };
}

Support polytope_support(std::vector<Vector3d> pts) {
  return [pts = std::move(pts)](const Vector3d& d) {
    std::size_t best = 0;
    double h = pts[0].dot(d);
    for (std::size_t i = 1; i < pts.size(); ++i) {
      const double v = pts[i].dot(d);
      if (v > h) h = v, best = i;
    }
    return pts[best];
  };
}

// Rigidly moves a support mapping: x -> R x + t.
Support moved(const Support& s, const Matrix3d& R, const Vector3d& t) {
  return [=](const Vector3d& d) { return Vector3d(R * s(R.transpose() * d) + t); };
}

// Closed-form signed distance between axis-aligned boxes (A - B offset c).
double aabb_signed_distance(const Vector3d& c, const Vector3d& ha, const Vector3d& hb,
                            Vector3d* closest = nullptr) {
  const Vector3d H = ha + hb;
  const Vector3d g = c.cwiseAbs() - H;  // per-axis gap
  if (g.maxCoeff() > 0.0) {
    Vector3d x;
    for (int k = 0; k < 3; ++k) x(k) = sgn(c(k)) * std::max(g(k), 0.0);
    if (closest) *closest = x;
    return x.norm();
  }
  Eigen::Index k;
  const double m = g.maxCoeff(&k);
  if (closest) {
    closest->setZero();
    (*closest)(k) = c(k) - sgn(c(k)) * H(k);
  }
  return m;
}

// Random convex polytope: points on an ellipsoid-ish blob, rotated & moved.
std::vector<Vector3d> random_polytope(std::mt19937_64& rng, int n, double size) {
  std::normal_distribution<double> g(0.0, 1.0);
  std::vector<Vector3d> pts;
  const Vector3d axes = random_vector(rng, 0.5, 1.0) * size;
  for (int i = 0; i < n; ++i) {
    const double x = g(rng), y = g(rng), z = g(rng);
    const Vector3d v(x, y, z);
    pts.push_back(axes.cwiseProduct(v.normalized()));
  }
  return pts;
}

// A box centred in [-1, 1]³ with half extents in [0.1, 1], randomly turned
// (drawn in that order).
std::vector<Vector3d> random_box(std::mt19937_64& rng) {
  const Vector3d c = random_vector(rng, -1, 1), half = random_vector(rng, 0.1, 1);
  return box_vertices(c, half, random_rotation(rng));
}

// random_polytope(), randomly turned, then moved into [-1, 1]³.
std::vector<Vector3d> random_placed_polytope(std::mt19937_64& rng, int n, double size) {
  const std::vector<Vector3d> p = random_polytope(rng, n, size);
  const Matrix3d R = random_rotation(rng);
  return transformed(p, R, random_vector(rng, -1, 1));
}

// ===================================================== Minkowski oracle ==
// Segment pairs with known answers: skew lines whose closest points are
// inside both segments, parallel overlapping segments, end to end, crossing.
TEST(OracleGeometry, ClosestPointsOfSegments) {
  Vector3d pa, pb;
  // x axis at z = 0 and y axis at z = 0.3: closest at the origins.
  EXPECT_NEAR(closest_points_of_segments(Vector3d(-1, 0, 0), Vector3d(1, 0, 0), Vector3d(0, -1, 0.3),
                                         Vector3d(0, 1, 0.3), pa, pb),
              0.3, 1e-15);
  EXPECT_LE(pa.norm(), 1e-15);
  EXPECT_LE((pb - Vector3d(0, 0, 0.3)).norm(), 1e-15);
  // Parallel, 0.2 apart, overlapping in x: any pair across the overlap.
  EXPECT_NEAR(closest_points_of_segments(Vector3d(0, 0, 0), Vector3d(2, 0, 0), Vector3d(1, 0.2, 0),
                                         Vector3d(3, 0.2, 0), pa, pb),
              0.2, 1e-15);
  // End to end along x, 0.5 apart.
  EXPECT_NEAR(closest_points_of_segments(Vector3d(0, 0, 0), Vector3d(1, 0, 0), Vector3d(1.5, 0, 0),
                                         Vector3d(2, 0, 0), pa, pb),
              0.5, 1e-15);
  // Crossing: 0.
  EXPECT_NEAR(closest_points_of_segments(Vector3d(-1, -1, 0), Vector3d(1, 1, 0), Vector3d(-1, 1, 0),
                                         Vector3d(1, -1, 0), pa, pb),
              0.0, 1e-15);
  // Skew segments whose closest points of the lines fall off one segment:
  // against a dense sampling of both.
  std::mt19937_64 rng(71);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int k = 0; k < 200; ++k) {
    const Vector3d a0(u(rng), u(rng), u(rng)), a1(u(rng), u(rng), u(rng));
    const Vector3d b0(u(rng), u(rng), u(rng)), b1(u(rng), u(rng), u(rng));
    const double d = closest_points_of_segments(a0, a1, b0, b1, pa, pb);
    double sampled = 1e300;
    for (int i = 0; i <= 400; ++i) {
      const Vector3d p = a0 + (a1 - a0) * (i / 400.0);
      sampled = std::min(sampled, (closest_point_on_segment(p, b0, b1) - p).norm());
    }
    EXPECT_LE(d, sampled + 1e-15) << k;
    EXPECT_GE(d, sampled - 1e-4) << k;  // the sampling's own step
    EXPECT_NEAR((pa - pb).norm(), d, 1e-15);
  }
}

TEST(OracleGeometry, TriangleTriangleDistance) {
  using proxima::oracle::triangle_triangle_distance;
  const Vector3d a0(0, 0, 0), a1(1, 0, 0), a2(0, 1, 0);
  // Parallel, 0.3 above: face to face.
  EXPECT_NEAR(triangle_triangle_distance(a0, a1, a2, Vector3d(0.1, 0.1, 0.3), Vector3d(0.5, 0.1, 0.3),
                                         Vector3d(0.1, 0.5, 0.3)),
              0.3, 1e-15);
  // An edge through the interior of the other: 0, though every vertex and
  // edge pair is apart.
  EXPECT_EQ(triangle_triangle_distance(a0, a1, a2, Vector3d(0.2, 0.2, -1), Vector3d(0.2, 0.2, 1),
                                       Vector3d(5, 5, 0.5)),
            0.0);
  // Crossed edges, skew: 0.5 apart along z.
  EXPECT_NEAR(triangle_triangle_distance(a0, a1, a2, Vector3d(0.5, -1, 0.5), Vector3d(0.5, -1, 2),
                                         Vector3d(0.5, -2, 0.5)),
              std::hypot(1.0, 0.5), 1e-15);
}

TEST(OracleMinkowski, CubesNamedConfigurations) {
  const Vector3d h(0.5, 0.5, 0.5);
  const auto a = box_vertices(Vector3d::Zero(), h);
  struct Case {
    Vector3d cb;
    double expected;
  };
  const Case cases[] = {
      {Vector3d(2.0, 0.0, 0.0), 1.0},                      // face-face
      {Vector3d(2.0, 2.0, 0.0), std::sqrt(2.0)},           // edge-edge
      {Vector3d(2.0, 2.0, 2.0), std::sqrt(3.0)},           // vertex-vertex
      {Vector3d(2.0, 0.3, -0.2), 1.0},                     // face-face, shifted
      {Vector3d(1.0, 0.0, 0.0), 0.0},                      // touching face
      {Vector3d(1.0, 1.0, 1.0), 0.0},                      // touching vertex
      {Vector3d(0.7, 0.2, 0.1), -0.3},                     // overlap along x
      {Vector3d(0.0, 0.0, 0.0), -1.0},                     // concentric
      {Vector3d(0.1, -0.25, 0.05), -0.75},                 // overlap along y
  };
  for (const auto& cs : cases) {
    Vector3d x;
    const double d = minkowski_signed_distance(a, box_vertices(cs.cb, h), &x);
    EXPECT_NEAR(d, cs.expected, kMinkowskiTol) << cs.cb.transpose();
    Vector3d xe;
    aabb_signed_distance(-cs.cb, h, h, &xe);
    if (cs.expected > 0.0) {
      EXPECT_LT((x - xe).norm(), kMinkowskiTol) << cs.cb.transpose();
    }
    if (cs.expected < 0.0) {
      EXPECT_NEAR(x.norm(), -cs.expected, kMinkowskiTol);
    }
  }
}

TEST(OracleMinkowski, RandomAxisAlignedBoxesClosedForm) {
  std::mt19937_64 rng(1);
  double worst = 0.0;
  for (int i = 0; i < 3000; ++i) {
    const Vector3d ha = random_vector(rng, 0.05, 1.0);
    Vector3d hb = random_vector(rng, 0.05, 1.0);
    if (i % 10 == 0) hb.z() = 0.0;  // a flat square
    const Vector3d ca = random_vector(rng, -1.5, 1.5);
    const Vector3d cb = random_vector(rng, -1.5, 1.5);
    Vector3d x, xe;
    const double d = minkowski_signed_distance(box_vertices(ca, ha), box_vertices(cb, hb), &x);
    const double e = aabb_signed_distance(ca - cb, ha, hb, &xe);
    ASSERT_NEAR(d, e, kMinkowskiTol) << "case " << i;
    worst = std::max(worst, std::abs(d - e));
    if (e > 1e-9) {
      ASSERT_LT((x - xe).norm(), 1e-12);
    }
    if (e < -1e-9) {
      ASSERT_NEAR(x.norm(), -e, kMinkowskiTol);
    }
  }
  std::printf("[oracle] axis-aligned boxes: worst |error| = %.3g\n", worst);
}

TEST(OracleMinkowski, RotatedBoxVersusPointClosedForm) {
  std::mt19937_64 rng(2);
  double worst = 0.0;
  for (int i = 0; i < 2000; ++i) {
    const Matrix3d R = random_rotation(rng);
    const Vector3d half = random_vector(rng, 0.1, 1.0);
    const Vector3d c = random_vector(rng, -1.0, 1.0);
    const Vector3d p = random_vector(rng, -2.0, 2.0);
    const Vector3d local = R.transpose() * (p - c);
    // Closed form: point vs box in the box frame.
    const double e = aabb_signed_distance(local, half, Vector3d::Zero());
    const double d1 = minkowski_signed_distance({p}, box_vertices(c, half, R));
    const double d2 = minkowski_signed_distance(box_vertices(c, half, R), {p});
    const double d3 = hull_signed_distance(box_vertices(c, half, R), p);
    ASSERT_NEAR(d1, e, kMinkowskiTol);
    ASSERT_NEAR(d2, e, kMinkowskiTol);
    ASSERT_NEAR(d3, e, kMinkowskiTol);
    worst = std::max({worst, std::abs(d1 - e), std::abs(d2 - e)});
  }
  std::printf("[oracle] rotated box vs point: worst |error| = %.3g\n", worst);
}

TEST(OracleMinkowski, RigidMotionInvariance) {
  std::mt19937_64 rng(3);
  for (int i = 0; i < 500; ++i) {
    const Vector3d ha = random_vector(rng, 0.1, 1.0), hb = random_vector(rng, 0.1, 1.0);
    const Vector3d ca = random_vector(rng, -1.5, 1.5), cb = random_vector(rng, -1.5, 1.5);
    const double e = aabb_signed_distance(ca - cb, ha, hb);
    const Matrix3d R = random_rotation(rng);
    const Vector3d t = random_vector(rng, -3.0, 3.0);
    const double d = minkowski_signed_distance(transformed(box_vertices(ca, ha), R, t),
                                               transformed(box_vertices(cb, hb), R, t));
    ASSERT_NEAR(d, e, kMinkowskiTol) << "case " << i;
  }
}

TEST(OracleMinkowski, FlatAndDegenerateSets) {
  // Two parallel unit squares in z = 0 and z = 1 (C is flat).
  auto square = [](const Vector3d& c, double hx, double hy) {
    return std::vector<Vector3d>{c + Vector3d(-hx, -hy, 0), c + Vector3d(hx, -hy, 0),
                                 c + Vector3d(hx, hy, 0), c + Vector3d(-hx, hy, 0)};
  };
  const auto s0 = square(Vector3d::Zero(), 0.5, 0.5);
  EXPECT_NEAR(minkowski_signed_distance(s0, square(Vector3d(0.3, 0.2, 1.0), 0.5, 0.5)), 1.0,
              kMinkowskiTol);
  EXPECT_NEAR(minkowski_signed_distance(s0, square(Vector3d(2.0, 0.0, 1.0), 0.5, 0.5)),
              std::sqrt(2.0), kMinkowskiTol);
  EXPECT_NEAR(minkowski_signed_distance(s0, square(Vector3d(2.0, 3.0, 1.0), 0.5, 0.5)),
              std::sqrt(1.0 + 1.0 + 4.0), kMinkowskiTol);
  // Coplanar overlapping squares: distance 0 (no interior).
  EXPECT_NEAR(minkowski_signed_distance(s0, square(Vector3d(0.5, 0.2, 0.0), 0.5, 0.5)), 0.0,
              kMinkowskiTol);
  EXPECT_NEAR(minkowski_signed_distance(s0, square(Vector3d(1.5, 0.2, 0.0), 0.5, 0.5)), 0.5,
              kMinkowskiTol);
  // Skew segments: x-axis segment at z=0 and y-axis segment at z=1.
  const std::vector<Vector3d> sx{Vector3d(-1, 0, 0), Vector3d(1, 0, 0)};
  const std::vector<Vector3d> sy{Vector3d(0.3, -1, 1), Vector3d(0.3, 1, 1)};
  EXPECT_NEAR(minkowski_signed_distance(sx, sy), 1.0, kMinkowskiTol);
  // Parallel segments (C is a segment) and points (C is a point).
  const std::vector<Vector3d> sx2{Vector3d(3, 1, 0), Vector3d(5, 1, 0)};
  EXPECT_NEAR(minkowski_signed_distance(sx, sx2), std::sqrt(5.0), kMinkowskiTol);
  EXPECT_NEAR(minkowski_signed_distance({Vector3d(1, 2, 3)}, {Vector3d(1, 2, 5)}), 2.0,
              kMinkowskiTol);
  // Triangle vs point (C is a triangle) in all Voronoi regions.
  const std::vector<Vector3d> tri{Vector3d(0, 0, 0), Vector3d(1, 0, 0), Vector3d(0, 1, 0)};
  EXPECT_NEAR(minkowski_signed_distance(tri, {Vector3d(0.2, 0.2, 0.5)}), 0.5, kMinkowskiTol);
  EXPECT_NEAR(minkowski_signed_distance(tri, {Vector3d(-1, -1, 0)}), std::sqrt(2.0), kMinkowskiTol);
  EXPECT_NEAR(minkowski_signed_distance(tri, {Vector3d(1, 1, 0)}), std::sqrt(0.5),
              kMinkowskiTol);
  EXPECT_NEAR(minkowski_signed_distance(tri, {Vector3d(0.5, -2, 0)}), 2.0, kMinkowskiTol);

  // Rotated parallel squares: C is flat up to rounding only.
  std::mt19937_64 rng(4);
  for (int i = 0; i < 200; ++i) {
    const Matrix3d R = random_rotation(rng);
    const Vector3d t = random_vector(rng, -2.0, 2.0);
    std::uniform_real_distribution<double> u(-2.0, 2.0);
    const double x = u(rng), y = u(rng);
    const Vector3d cb(x, y, 0.7);
    const double e = aabb_signed_distance(-cb, Vector3d(0.5, 0.5, 0.0), Vector3d(0.4, 0.3, 0.0));
    const double d = minkowski_signed_distance(transformed(s0, R, t),
                                               transformed(square(cb, 0.4, 0.3), R, t));
    ASSERT_NEAR(d, e, kMinkowskiTol) << "case " << i;
  }
}

TEST(OracleMinkowski, DuplicateAndCoplanarPoints) {
  // Cube with duplicated vertices and extra points on faces / edges.
  const Vector3d h(0.5, 0.5, 0.5);
  auto a = box_vertices(Vector3d::Zero(), h);
  const auto copy = a;
  a.insert(a.end(), copy.begin(), copy.end());
  for (int k = 0; k < 3; ++k) {
    Vector3d f = Vector3d::Zero();
    f(k) = 0.5;
    a.push_back(f);
    a.push_back(-f);
    a.push_back(Vector3d(0.5, 0.5, 0.0));
  }
  std::mt19937_64 rng(5);
  for (int i = 0; i < 500; ++i) {
    const Vector3d p = random_vector(rng, -2.0, 2.0);
    const double e = aabb_signed_distance(-p, h, Vector3d::Zero());
    ASSERT_NEAR(minkowski_signed_distance(a, {p}), e, kMinkowskiTol);
  }
}

TEST(OracleMinkowski, NearlyFlatSets) {
  // B is a box of thickness t along z; C = A - B has thickness t, which sweeps
  // through the flat fallback, qhull's precision handling and regular hulls.
  std::mt19937_64 rng(7);
  const Vector3d ha(0.5, 0.4, 0.0);  // flat rectangle
  double worst = 0.0;
  for (double t : {0.0, 1e-15, 1e-13, 1e-11, 1e-9, 1e-7, 1e-5}) {
    for (int i = 0; i < 200; ++i) {
      const Vector3d hb(0.3, 0.6, 0.5 * t);
      Vector3d c = random_vector(rng, -1.5, 1.5);
      if (i % 3 == 0) c.z() = 0.0;  // coplanar configurations
      const double e = aabb_signed_distance(c, ha, hb);
      const Matrix3d R = random_rotation(rng);
      const Vector3d tr = random_vector(rng, -1, 1);
      const double d = minkowski_signed_distance(transformed(box_vertices(c, ha), R, tr),
                                                 transformed(box_vertices(Vector3d::Zero(), hb), R, tr));
      ASSERT_NEAR(d, e, kMinkowskiTol + t) << "t " << t << " case " << i;
      worst = std::max(worst, std::abs(d - e));
    }
  }
  std::printf("[oracle] nearly flat sets: worst |error| = %.3g\n", worst);
}

TEST(OracleMinkowski, ManyCoplanarPointsOnFaces) {
  // Points sampled on the faces of a rotated box: many exactly/nearly
  // coplanar points exercise qhull's facet merging.
  std::mt19937_64 rng(8);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int i = 0; i < 100; ++i) {
    const Matrix3d R = random_rotation(rng);
    const Vector3d half = random_vector(rng, 0.2, 1.0);
    const Vector3d c = random_vector(rng, -1, 1);
    std::vector<Vector3d> pts = box_vertices(c, half, R);
    for (int k = 0; k < 60; ++k) {
      const double x = u(rng), y = u(rng), z = u(rng);
      Vector3d l(x, y, z);
      l(k % 3) = (k % 2) ? 1.0 : -1.0;
      pts.push_back(c + R * l.cwiseProduct(half));
    }
    for (int j = 0; j < 20; ++j) {
      const Vector3d p = c + R * random_vector(rng, -2.0, 2.0);
      const double e = aabb_signed_distance(R.transpose() * (p - c), half, Vector3d::Zero());
      ASSERT_NEAR(minkowski_signed_distance(pts, {p}), e, kMinkowskiTol) << i << " " << j;
    }
  }
}

TEST(OracleMinkowski, FarFromOriginAndLargeScale) {
  std::mt19937_64 rng(9);
  for (double scale : {1e-3, 1.0, 1e3}) {
    for (int i = 0; i < 200; ++i) {
      const Vector3d ha = random_vector(rng, 0.1, 1.0) * scale, hb = random_vector(rng, 0.1, 1.0) * scale;
      const Vector3d ca = random_vector(rng, -1.5, 1.5) * scale, cb = random_vector(rng, -1.5, 1.5) * scale;
      const Vector3d far = Vector3d(100.0, -50.0, 30.0) * scale;
      const double e = aabb_signed_distance(ca - cb, ha, hb);
      const double d = minkowski_signed_distance(box_vertices(ca + far, ha), box_vertices(cb + far, hb));
      // Translating far from the origin costs ~eps * |far| in the inputs.
      ASSERT_NEAR(d, e, 1e-12 * scale * 200.0) << scale << " " << i;
    }
  }
}

// ========================================================= Sweep oracle ==
void expect_sweep(const Support& a, const Support& b, double expected, const char* what,
                  double tol = kSweepTol) {
  const SweepReport r = sweep_separation_report(a, b);
  EXPECT_TRUE(r.separated) << what;
  EXPECT_NEAR(r.value, expected, tol) << what;
  EXPECT_LE(r.lower, r.upper + 1e-14) << what;
  EXPECT_LE(r.upper - r.lower, kSweepGap) << what;
  EXPECT_LE(r.lower, expected + 1e-13) << what;  // F(d) is a lower bound
}

TEST(OracleSweep, SphereSphere) {
  std::mt19937_64 rng(10);
  std::uniform_real_distribution<double> u(0.1, 1.0);
  double worst = 0.0, worst_gap = 0.0;
  for (int i = 0; i < 200; ++i) {
    const double r1 = u(rng), r2 = u(rng);
    const Vector3d c1 = random_vector(rng, -1, 1);
    Vector3d dir = random_vector(rng, -1, 1).normalized();
    const double gap = (i % 4 == 0) ? std::pow(10.0, -1.0 - i % 7) : u(rng);
    const Vector3d c2 = c1 + (r1 + r2 + gap) * dir;
    Vector3d best;
    const SweepReport r = sweep_separation_report(sphere_support(c1, r1), sphere_support(c2, r2));
    ASSERT_TRUE(r.separated) << i;
    ASSERT_NEAR(r.value, gap, kSweepTol) << "case " << i << " gap " << gap;
    ASSERT_LE(r.upper - r.lower, kSweepGap);
    ASSERT_GT(r.direction.dot(-dir), 1.0 - 1e-9);  // from B (c2) towards A (c1)
    worst = std::max(worst, std::abs(r.value - gap));
    worst_gap = std::max(worst_gap, r.upper - r.lower);
  }
  std::printf("[oracle] sweep sphere-sphere: worst |error| = %.3g, worst gap = %.3g\n", worst,
              worst_gap);
}

TEST(OracleSweep, SphereBox) {
  std::mt19937_64 rng(11);
  double worst = 0.0;
  int n = 0;
  while (n < 300) {
    const Matrix3d R = random_rotation(rng);
    const Vector3d half = random_vector(rng, 0.1, 1.0);
    const Vector3d cb = random_vector(rng, -1, 1);
    const Vector3d cs = random_vector(rng, -2.5, 2.5);
    const double r = std::uniform_real_distribution<double>(0.05, 0.8)(rng);
    const Vector3d local = R.transpose() * (cs - cb);
    const Vector3d clamped = local.cwiseMax(-half).cwiseMin(half);
    const double e = (local - clamped).norm() - r;
    if (e < 1e-3) continue;
    ++n;
    const double d = sweep_separation(sphere_support(cs, r), box_support(cb, half, R));
    ASSERT_NEAR(d, e, kSweepTol) << "case " << n;
    worst = std::max(worst, std::abs(d - e));
  }
  std::printf("[oracle] sweep sphere-box: worst |error| = %.3g\n", worst);
}

TEST(OracleSweep, EllipsoidAboveLargeBox) {
  std::mt19937_64 rng(12);
  double worst = 0.0;
  for (int i = 0; i < 200; ++i) {
    const Matrix3d R = random_rotation(rng);
    const Vector3d axes = random_vector(rng, 0.1, 1.0);
    const Vector3d c(0.3 * i / 200.0, -0.2, 0.0);
    const double gap = std::uniform_real_distribution<double>(1e-3, 1.0)(rng);
    // Lowest point of the ellipsoid: c.z - |D R^T z|.  Box top face at z0.
    const double zlow = c.z() - axes.cwiseProduct(R.transpose() * Vector3d::UnitZ()).norm();
    const double z0 = zlow - gap;
    const Vector3d bhalf(50.0, 40.0, 1.0);
    const Support box = box_support(Vector3d(0.0, 0.0, z0 - 1.0), bhalf);
    const double d = sweep_separation(ellipsoid_support(c, axes, R), box);
    ASSERT_NEAR(d, gap, kSweepTol) << "case " << i;
    worst = std::max(worst, std::abs(d - gap));
  }
  std::printf("[oracle] sweep ellipsoid-large box: worst |error| = %.3g\n", worst);
}

TEST(OracleSweep, BoxCylinderArrangements) {
  const Support box = box_support(Vector3d::Zero(), Vector3d(0.5, 0.5, 0.5));
  const Matrix3d I = Matrix3d::Identity();
  const Matrix3d lying = Eigen::AngleAxisd(0.5 * std::numbers::pi, Vector3d::UnitX()).toRotationMatrix();
  struct Case {
    Support cyl;
    double expected;
    const char* what;
  };
  const std::vector<Case> cases = {
      {cylinder_support(Vector3d(2.0, 0.0, 0.0), 0.5, 1.0, I), 1.0, "standing beside (face-side)"},
      {cylinder_support(Vector3d(2.0, 0.1, 0.3), 0.5, 1.0, I), 1.0, "standing beside, shifted"},
      {cylinder_support(Vector3d(0.3, 0.2, 2.0), 0.5, 1.0, I), 1.0, "above (face-disc)"},
      {cylinder_support(Vector3d(1.5, 0.0, 2.0), 0.5, 1.0, I), std::sqrt(1.25), "rim vs edge"},
      {cylinder_support(Vector3d(2.0, 2.0, 0.0), 0.5, 1.0, I), 1.5 * std::sqrt(2.0) - 0.5,
       "side vs vertical edge"},
      {cylinder_support(Vector3d(2.0, 0.0, 0.0), 0.5, 3.0, lying), 1.0, "lying beside"},
      {cylinder_support(Vector3d(0.0, 0.0, 1.7), 0.2, 3.0, lying), 1.0, "lying above"},
      {cylinder_support(Vector3d(2.5, 2.0, 0.0), 0.5, 0.2, lying),
       std::hypot(1.5, 1.4), "thin disc vs edge"},
  };
  std::mt19937_64 rng(13);
  double worst = 0.0;
  for (const auto& cs : cases) {
    expect_sweep(box, cs.cyl, cs.expected, cs.what);
    expect_sweep(cs.cyl, box, cs.expected, cs.what);
    // The same scene under random rigid motions.
    for (int k = 0; k < 20; ++k) {
      const Matrix3d R = random_rotation(rng);
      const Vector3d t = random_vector(rng, -2, 2);
      const SweepReport r = sweep_separation_report(moved(box, R, t), moved(cs.cyl, R, t));
      EXPECT_NEAR(r.value, cs.expected, kSweepTol) << cs.what << " motion " << k;
      EXPECT_LE(r.upper - r.lower, kSweepGap) << cs.what;
      worst = std::max(worst, std::abs(r.value - cs.expected));
    }
  }
  std::printf("[oracle] sweep box-cylinder: worst |error| = %.3g\n", worst);
}

TEST(OracleSweep, AgreesWithMinkowskiOnPolytopes) {
  std::mt19937_64 rng(14);
  double worst = 0.0, worst_gap = 0.0;
  int n = 0;
  while (n < 300) {
    std::vector<Vector3d> a, b;
    if (n % 2 == 0) {
      a = random_box(rng);
      b = random_box(rng);
    } else {
      a = random_placed_polytope(rng, 30, 0.7);
      b = random_placed_polytope(rng, 30, 0.7);
    }
    const double e = minkowski_signed_distance(a, b);
    if (e < 1e-4) continue;
    ++n;
    const SweepReport r = sweep_separation_report(polytope_support(a), polytope_support(b));
    ASSERT_NEAR(r.value, e, kSweepTol) << "case " << n;
    ASSERT_LE(r.upper - r.lower, kSweepGap);
    worst = std::max(worst, std::abs(r.value - e));
    worst_gap = std::max(worst_gap, r.upper - r.lower);
  }
  std::printf("[oracle] sweep vs minkowski on polytopes: worst |diff| = %.3g, gap %.3g\n", worst,
              worst_gap);
}

TEST(OracleSweep, NearlyTouching) {
  // The separating cone is far narrower than the sweep spacing.
  const Vector3d h(0.5, 0.5, 0.5);
  for (double gap : {1e-3, 1e-5, 1e-7, 1e-9}) {
    expect_sweep(box_support(Vector3d::Zero(), h), box_support(Vector3d(1.0 + gap, 0.2, -0.1), h),
                 gap, "boxes face-face");
    expect_sweep(box_support(Vector3d::Zero(), h),
                 cylinder_support(Vector3d(1.0 + gap, 0.0, 0.0), 0.5, 1.0, Matrix3d::Identity()),
                 gap, "box-cylinder");
    expect_sweep(sphere_support(Vector3d::Zero(), 1.0), sphere_support(Vector3d(0, 2.0 + gap, 0), 1.0),
                 gap, "spheres");
  }
}

TEST(OracleSweep, TinyGapsAgainstMinkowski) {
  std::mt19937_64 rng(15);
  double worst = 0.0;
  for (int i = 0; i < 300; ++i) {
    const std::vector<Vector3d> pa = random_polytope(rng, 4 + i % 40, 0.8);
    const auto a = transformed(pa, random_rotation(rng), Vector3d::Zero());
    const std::vector<Vector3d> pb = random_polytope(rng, 4 + (i / 3) % 40, 0.8);
    const Matrix3d rb = random_rotation(rng);
    auto b = transformed(pb, rb, 3.0 * random_vector(rng, -1, 1).normalized());
    Vector3d x;
    const double d0 = minkowski_signed_distance(a, b, &x);
    const double gap = std::pow(10.0, -2.0 - (i % 9));  // 1e-2 ... 1e-10
    const Vector3d shift = (d0 - gap) * x.normalized();  // B moves towards A
    for (auto& p : b) p += shift;
    const double e = minkowski_signed_distance(a, b);
    ASSERT_NEAR(e, gap, 1e-14);
    const SweepReport r = sweep_separation_report(polytope_support(a), polytope_support(b));
    ASSERT_TRUE(r.separated) << "case " << i << " gap " << gap;
    ASSERT_NEAR(r.value, e, kSweepTol) << "case " << i;
    ASSERT_LE(r.upper - r.lower, kSweepGap);
    worst = std::max(worst, std::abs(r.value - e));
  }
  std::printf("[oracle] sweep vs minkowski, gaps 1e-2..1e-10: worst |diff| = %.3g\n", worst);
}

TEST(OracleSweep, CertificateOnRandomMixedPairs) {
  // No closed form: the certified bracket [lower, upper] must be tight.
  std::mt19937_64 rng(16);
  std::uniform_real_distribution<double> u(0.05, 0.7);
  auto make = [&](int kind) -> Support {
    const Matrix3d R = random_rotation(rng);
    const Vector3d c = random_vector(rng, -1.5, 1.5);
    const Vector3d h = random_vector(rng, 0.05, 1.0);
    const double r = u(rng);
    switch (kind) {
      case 0: return box_support(c, h, R);
      case 1: return sphere_support(c, r);
      case 2: return ellipsoid_support(c, h, R);
      case 3: return cylinder_support(c, r, 2.0 * h.z(), R);
      case 4:  // capsule
        return [=](const Vector3d& d) {
          return Vector3d(c + R * Vector3d(0, 0, sgn((R.transpose() * d).z()) * h.z()) + r * d.normalized());
        };
      case 5:  // cone: apex at +h.z, base disc of radius r at -h.z
        return [=](const Vector3d& d) {
          const Vector3d l = R.transpose() * d;
          const double nxy = std::hypot(l.x(), l.y());
          Vector3d base(0, 0, -h.z());
          if (nxy > 0.0) base.head<2>() = r * l.head<2>() / nxy;
          const Vector3d apex(0, 0, h.z());
          return Vector3d(c + R * (apex.dot(l) >= base.dot(l) ? apex : base));
        };
      case 6:  // segment
        return [=](const Vector3d& d) {
          return Vector3d(c + R * Vector3d(0, 0, sgn((R.transpose() * d).z()) * h.z()));
        };
      default:  // point
        return [=](const Vector3d&) { return c; };
    }
  };
  double worst_gap = 0.0;
  int separated = 0;
  for (int i = 0; i < 2000; ++i) {
    const SweepReport r = sweep_separation_report(make(i % 8), make((i / 8) % 8));
    if (!r.separated) continue;
    ++separated;
    ASSERT_LE(r.upper - r.lower, kSweepGap) << "pair " << i % 8 << "/" << (i / 8) % 8;
    worst_gap = std::max(worst_gap, r.upper - r.lower);
  }
  std::printf("[oracle] sweep certificate on %d separated mixed pairs: worst gap = %.3g\n", separated,
              worst_gap);
  EXPECT_GT(separated, 1000);
}

TEST(OracleSweep, OverlapBestEffort) {
  const Vector3d h(0.5, 0.5, 0.5);
  const SweepReport r = sweep_separation_report(box_support(Vector3d::Zero(), h),
                                                box_support(Vector3d(0.7, 0.2, 0.1), h));
  EXPECT_FALSE(r.separated);
  EXPECT_NEAR(r.value, -0.3, 1e-9);
  const SweepReport s = sweep_separation_report(sphere_support(Vector3d::Zero(), 1.0),
                                                sphere_support(Vector3d(0.5, 0.3, 0), 0.5));
  EXPECT_FALSE(s.separated);
  EXPECT_NEAR(s.value, std::hypot(0.5, 0.3) - 1.5, 1e-9);
}

}  // namespace
