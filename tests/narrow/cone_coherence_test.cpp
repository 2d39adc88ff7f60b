// SPDX-License-Identifier: BSD-3-Clause
// The coherence certificate of incremental_penetration (narrow/
// incremental_depth.hpp): a PenetrationCache carried along pose sequences
// answers small motions from its cached cone leaves. Ground truth: the
// explicit Minkowski difference of the raw points (tests/oracle, written
// apart from the library) and brute-force support planes for the witnesses.
// Every certified answer is checked; so is every way a cache can be wrong
// for the query (another hull, another core, the other order, a freed hull,
// a large motion), which must never yield a wrong certified answer. Shallow
// contacts (the cores apart) along sequences, answered from GJK between the
// cores, are checked the same way.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <vector>

#include <gtest/gtest.h>

#include <proxima/narrow/incremental_depth.hpp>
#include <proxima/query.hpp>

#include "../oracle/minkowski_oracle.hpp"
#include "../support/test_shapes.hpp"

// A named namespace of its own: the unity build batches this file with others.
namespace proxima::coherence_test {
namespace {

using testing::Rng;

struct CoreVerts {
  std::vector<Vec3> local;  // core vertices in the shape's frame
  double radius;            // inflation: radius plus margin
};

struct Truth {
  double distance;  // signed, margins included
  Vec3 normal;      // B→A
};

// The oracle's answer, or distance ≥ 0 when the pair is not a deep enough
// overlap with overlapping cores (the certificate's domain).
Truth truth_of(const CoreVerts& ca, const Transform& ta, const CoreVerts& cb, const Transform& tb) {
  Vec3 c;
  const double core =
      oracle::minkowski_signed_distance(testing::transformed(ta, ca.local), testing::transformed(tb, cb.local), &c);
  if (!(core < -1e-4) || !(c.norm() > 1e-9)) return {1.0, Vec3::UnitZ()};
  return {core - ca.radius - cb.radius, Vec3(-c.normalized())};
}

double angle(const Vec3& a, const Vec3& b) { return std::acos(std::clamp(a.dot(b), -1.0, 1.0)); }

Vec3 perturbed(const Vec3& n, double deg, Rng& rng) {
  Vec3 ax = rng.unit_vector().cross(n);
  while (ax.norm() < 1e-3) ax = rng.unit_vector().cross(n);
  return Eigen::AngleAxisd(deg * M_PI / 180.0, ax.normalized()) * n;
}

// An answer's witnesses on both shapes' support planes along its normal,
// the distance apart.
void expect_witnesses(const DistanceResult& r, const CoreVerts& ca, const Transform& ta, const CoreVerts& cb,
                      const Transform& tb) {
  const Vec3& m = r.normal;
  const std::vector<Vec3> wa = testing::transformed(ta, ca.local), wb = testing::transformed(tb, cb.local);
  EXPECT_NEAR((-m).dot(r.point_a), (-m).dot(testing::points_support(wa, ca.radius, -m)), 1e-9);
  EXPECT_NEAR(m.dot(r.point_b), m.dot(testing::points_support(wb, cb.radius, m)), 1e-9);
  EXPECT_LE((r.point_b - r.point_a + r.distance * m).norm(), 1e-9);
}

// A certified answer against the truth: depth, normal, and witnesses on both
// shapes' support planes along the normal.
void expect_right(const DistanceResult& r, const Truth& t, const CoreVerts& ca, const Transform& ta,
                  const CoreVerts& cb, const Transform& tb) {
  ASSERT_EQ(r.status, Status::ok);
  EXPECT_LE(std::abs(r.distance - t.distance), 2e-9);
  EXPECT_LE(angle(r.normal, t.normal), 1e-6);
  expect_witnesses(r, ca, ta, cb, tb);
}

// Answered from the cache (the certificate, or the collecting walk from
// its features' bound) without the SQP: iterations 0.
bool from_certificate(const DistanceResult& r) { return r.status == Status::ok && r.iterations == 0; }

// Pose sequences: B starts at a random overlapping pose and moves by a
// fixed small screw per step (up to `mm` millimetres and `deg` degrees),
// the cache carried along; before each step the cache's direction is set
// to the true normal turned by 0°, 5°, 15°, 30° or 60° (what a caller's
// guess might be; the first step of a run has only it). Every answer is
// certified and right; returns the share answered from the cache without
// the SQP.
template <class A, class B>
double sequences(const char* label, const A& a, const CoreVerts& ca, const B& b, const CoreVerts& cb, double half,
                 double mm, double deg, unsigned seed, int runs, int steps) {
  Rng rng(seed);
  const double starts[] = {0.0, 5.0, 15.0, 30.0, 60.0};
  int answered = 0, by_certificate = 0;
  for (int run = 0; run < runs; ++run) {
    const Transform ta = rng.pose(0.0);
    Transform tb = rng.pose(half);
    if (!(truth_of(ca, ta, cb, tb).distance < 0.0)) {
      --run;
      continue;
    }
    const Vec3 v = rng.uniform(0.2, 1.0) * mm * 1e-3 * rng.unit_vector();
    const Mat3 turn = Eigen::AngleAxisd(rng.uniform(0.2, 1.0) * deg * M_PI / 180.0, rng.unit_vector()).toRotationMatrix();
    PenetrationCache cache;
    for (int k = 0; k < steps; ++k) {
      tb = Transform{turn * tb.R, tb.p + v};
      const Truth t = truth_of(ca, ta, cb, tb);
      if (!(t.distance < 0.0)) break;  // moved out of the overlap
      cache.direction = perturbed(t.normal, starts[(k + run) % 5], rng);
      const DistanceResult r = incremental_penetration(a, ta, b, tb, {}, &cache);
      SCOPED_TRACE(::testing::Message() << label << " run " << run << " step " << k);
      expect_right(r, t, ca, ta, cb, tb);
      ++answered;
      by_certificate += from_certificate(r);
    }
  }
  const double share = answered ? double(by_certificate) / answered : 0.0;
  std::printf("%-22s %d steps of %.1f mm, %.1f°: all certified and right, %.0f%% from the cache (no SQP)\n",
              label, answered, mm, deg, 100.0 * share);
  return share;
}

struct Fixture {
  std::vector<Vec3> raw;
  ConvexPolytope poly;
  CoreVerts pc;
  explicit Fixture(Rng& g) : raw(g.sphere_points(200, 0.5)), poly(raw), pc{raw, 0.0} {}
};

const Capsule kCapsule(0.25, 0.5);
const CoreVerts kSegment{{Vec3(0, 0, -0.25), Vec3(0, 0, 0.25)}, 0.25};
const Box kBox(Vec3(1.0, 0.6, 0.4));
const CoreVerts kCorners{testing::box_corners(Vec3(0.5, 0.3, 0.2)), 0.0};
const Sphere kSphere(0.3);
const CoreVerts kCentre{{Vec3::Zero()}, 0.3};

TEST(ConeCoherence, PoseSequences) {
  Rng g(301);
  const Fixture f(g);
  const int runs = testing::scaled(12), steps = 25;
  // Small steps: the cache answers most of them (the certificate, or the
  // collecting walk when the motion since the last collection has outgrown
  // its floor).
  EXPECT_GE(sequences("polytope200-capsule", f.poly, f.pc, kCapsule, kSegment, 0.6, 1.0, 0.5, 302u, runs, steps), 0.5);
  EXPECT_GE(sequences("capsule-polytope200", kCapsule, kSegment, f.poly, f.pc, 0.6, 1.0, 0.5, 303u, runs, steps), 0.5);
  EXPECT_GE(sequences("polytope200-sphere", f.poly, f.pc, kSphere, kCentre, 0.5, 1.0, 0.5, 304u, runs, steps), 0.5);
  EXPECT_GE(sequences("polytope200-box", f.poly, f.pc, kBox, kCorners, 0.55, 1.0, 0.5, 305u, runs, steps), 0.5);
  EXPECT_GE(sequences("box-polytope200", kBox, kCorners, f.poly, f.pc, 0.55, 1.0, 0.5, 306u, runs, steps), 0.5);
  // Large steps (2 cm, 5°): never wrong, whoever answers.
  sequences("polytope200-capsule", f.poly, f.pc, kCapsule, kSegment, 0.6, 20.0, 5.0, 307u, runs, 10);
  sequences("polytope200-box", f.poly, f.pc, kBox, kCorners, 0.55, 20.0, 5.0, 308u, runs, 10);
  // Margins on both shapes: the inflation is part of what the cache names.
  std::vector<Vec3> blob;
  for (int i = 0; i < 60; ++i) blob.push_back(g.uniform_vec(Vec3(-0.4, -0.15, -0.25), Vec3(0.4, 0.15, 0.25)));
  const ConvexPolytope irregular(blob, 0.02);
  const Capsule mcap(0.1, 0.4, 0.01);
  EXPECT_GE(sequences("irregular60-capsule margins", irregular, CoreVerts{blob, 0.02}, mcap,
                      CoreVerts{{Vec3(0, 0, -0.2), Vec3(0, 0, 0.2)}, 0.11}, 0.35, 1.0, 0.5, 309u, runs, steps),
            0.5);
}

// A filled cache, then a query at the same relative pose with something
// else: another hull, another core, another inflation, the other order,
// another shape type, a freed hull replaced by a new one, a large motion,
// garbage in the cache's public fields. The motion bound is zero, so only
// the pair check stands between the foreign features and a wrong answer:
// every answer must be right (the cache's direction may still warm-start
// the walk or the SQP). A copy of the hull shares it, and there the
// certificate answers from the cache (the control).
TEST(ConeCoherence, ForeignCachesAreNeverUsed) {
  Rng g(311);
  const Fixture f(g);
  const Fixture other(g);
  const ConvexPolytope copy = f.poly;
  const Capsule longer(0.25, 0.6), fatter(0.3, 0.5);
  const CoreVerts longer_seg{{Vec3(0, 0, -0.3), Vec3(0, 0, 0.3)}, 0.25};
  const CoreVerts fatter_seg{{Vec3(0, 0, -0.25), Vec3(0, 0, 0.25)}, 0.3};
  int poses = 0;
  while (poses < testing::scaled(20)) {
    const Transform ta = g.pose(0.0), tb = g.pose(0.5);
    const Truth t = truth_of(f.pc, ta, kSegment, tb);
    if (!(t.distance < 0.0)) continue;
    ++poses;
    SCOPED_TRACE(::testing::Message() << "pose " << poses);
    PenetrationCache filled;
    expect_right(incremental_penetration(f.poly, ta, kCapsule, tb, {}, &filled), t, f.pc, ta, kSegment, tb);
    ASSERT_TRUE(filled.coherence.holds());
    {
      PenetrationCache c = filled;
      const DistanceResult r = incremental_penetration(copy, ta, kCapsule, tb, {}, &c);
      EXPECT_TRUE(from_certificate(r));
      expect_right(r, t, f.pc, ta, kSegment, tb);
    }
    const auto foreign = [&](const auto& a, const CoreVerts& ca, const Transform& pa, const auto& b,
                             const CoreVerts& cb, const Transform& pb, PenetrationCache c) {
      const Truth u = truth_of(ca, pa, cb, pb);
      if (!(u.distance < 0.0)) return;
      expect_right(incremental_penetration(a, pa, b, pb, {}, &c), u, ca, pa, cb, pb);
    };
    foreign(other.poly, other.pc, ta, kCapsule, kSegment, tb, filled);
    foreign(f.poly, f.pc, ta, longer, longer_seg, tb, filled);
    foreign(f.poly, f.pc, ta, fatter, fatter_seg, tb, filled);
    foreign(kCapsule, kSegment, tb, f.poly, f.pc, ta, filled);
    foreign(f.poly, f.pc, ta, kBox, kCorners, tb, filled);
    foreign(f.poly, f.pc, ta, kSphere, kCentre, tb, filled);
    // Garbage in the public fields, on a cache of another hull.
    PenetrationCache garbage = filled;
    garbage.direction = Vec3(std::nan(""), 1.0, 0.0);
    garbage.hint_a = 1 << 30;
    garbage.hint_b = -7;
    foreign(other.poly, other.pc, ta, kCapsule, kSegment, tb, garbage);
    // A large motion since the cache was filled: whatever answers, right.
    const Transform moved{Eigen::AngleAxisd(0.4, g.unit_vector()).toRotationMatrix() * tb.R,
                          tb.p + 0.05 * g.unit_vector()};
    const Truth m = truth_of(f.pc, ta, kSegment, moved);
    if (m.distance < 0.0) {
      PenetrationCache c = filled;
      expect_right(incremental_penetration(f.poly, ta, kCapsule, moved, {}, &c), m, f.pc, ta, kSegment, moved);
    }
  }
  // A hull freed and another built, likely at the same address: the cache
  // holds a weak reference to the first, which never matches the second.
  Rng h(312);
  int tried = 0;
  while (tried < testing::scaled(10)) {
    const Transform ta = h.pose(0.0), tb = h.pose(0.5);
    const std::vector<Vec3> first = h.sphere_points(200, 0.5), second = h.sphere_points(200, 0.5);
    const CoreVerts c1{first, 0.0}, c2{second, 0.0};
    const Truth t1 = truth_of(c1, ta, kSegment, tb), t2 = truth_of(c2, ta, kSegment, tb);
    if (!(t1.distance < 0.0) || !(t2.distance < 0.0)) continue;
    ++tried;
    PenetrationCache c;
    auto p1 = std::make_unique<ConvexPolytope>(first);
    expect_right(incremental_penetration(*p1, ta, kCapsule, tb, {}, &c), t1, c1, ta, kSegment, tb);
    ASSERT_TRUE(c.coherence.holds());
    p1.reset();
    const auto p2 = std::make_unique<ConvexPolytope>(second);
    expect_right(incremental_penetration(*p2, ta, kCapsule, tb, {}, &c), t2, c2, ta, kSegment, tb);
  }
}

// The certificate's motion bound at work: after one certified answer, the
// same relative pose moved by a growing translation, up to 10 cm. While the
// motion is within the floor's margin the certificate may answer; beyond
// it the collecting walk or the SQP answers; every answer is right.
TEST(ConeCoherence, GrowingMotionStaysRight) {
  Rng g(321);
  const Fixture f(g);
  int poses = 0, answered = 0, fell_back = 0;
  while (poses < testing::scaled(20)) {
    const Transform ta = g.pose(0.0), tb = g.pose(0.55);
    const Truth t = truth_of(f.pc, ta, kCorners, tb);
    if (!(t.distance < 0.0)) continue;
    ++poses;
    PenetrationCache filled;
    expect_right(incremental_penetration(f.poly, ta, kBox, tb, {}, &filled), t, f.pc, ta, kCorners, tb);
    const Vec3 dir = g.unit_vector();
    for (double mm : {0.1, 0.3, 1.0, 3.0, 10.0, 30.0, 100.0}) {
      const Transform moved{tb.R, tb.p + mm * 1e-3 * dir};
      const Truth m = truth_of(f.pc, ta, kCorners, moved);
      if (!(m.distance < 0.0)) break;
      PenetrationCache c = filled;
      const DistanceResult r = incremental_penetration(f.poly, ta, kBox, moved, {}, &c);
      SCOPED_TRACE(::testing::Message() << "pose " << poses << " moved " << mm << " mm");
      expect_right(r, m, f.pc, ta, kCorners, moved);
      answered += from_certificate(r);
      fell_back += !from_certificate(r);
    }
  }
  std::printf("growing motion: %d answers from the cache, %d by the SQP, all right\n", answered, fell_back);
  EXPECT_GT(answered, 0);
}

// The pair's signed distance whatever the cores do (margins included), and
// whether the cores overlap deeply enough for the certificate's domain.
// With the cores apart, `normal` is the B→A direction between their
// closest points.
struct AnyTruth {
  double distance;
  bool cores_overlap;
  Vec3 normal;
};
AnyTruth any_truth_of(const CoreVerts& ca, const Transform& ta, const CoreVerts& cb, const Transform& tb) {
  Vec3 c;
  const double core =
      oracle::minkowski_signed_distance(testing::transformed(ta, ca.local), testing::transformed(tb, cb.local), &c);
  return {core - ca.radius - cb.radius, core < -1e-4, c.normalized()};
}

// A capsule moving back and forth through a polytope's surface, the cache
// carried along: deep steps (the cores overlap), radius-only steps (the
// cores apart, only the capsule's radius overlaps: the SQP's inflation
// model answers them, and the certificate held stays, unused) and deep
// steps again, where that certificate answers, proven by its check (its
// smallest feature value positive: the cores overlap again). Every answer
// is certified and right; some deep steps after a radius-only one must
// come from the cache.
TEST(ConeCoherence, RadiusOnlyStepsKeepTheCertificate) {
  Rng g(331);
  const Fixture f(g);
  int runs = 0, radius_only = 0, deep = 0, deep_after_radius = 0, cached_after_radius = 0;
  while (runs < testing::scaled(30)) {
    const Transform ta = g.pose(0.0);
    Transform tb = g.pose(0.6);
    const Truth t0 = truth_of(f.pc, ta, kSegment, tb);
    if (!(t0.distance < 0.0)) continue;
    // B moved along −normal (out of A) until its core overlaps P by 3 mm,
    // then 2 mm steps: 8 out (the cores part by up to 13 mm), then back,
    // along a direction 30° off the normal, so that the closest features
    // of the parted cores are not always the face that was deepest (where
    // the smallest facet value is minus their distance, by chance).
    tb.p += (-(t0.distance + 0.25) - 3e-3) * -t0.normal;
    const Vec3 out = perturbed(-t0.normal, 30.0, g);
    ++runs;
    PenetrationCache cache;
    bool seen_radius = false;
    for (int k = 0; k < 20; ++k) {
      const AnyTruth t = any_truth_of(f.pc, ta, kSegment, tb);
      SCOPED_TRACE(::testing::Message() << "run " << runs << " step " << k);
      ASSERT_LT(t.distance, -0.1);  // the radius (0.25) overlaps throughout
      const DistanceResult r = incremental_penetration(f.poly, ta, kCapsule, tb, {}, &cache);
      ASSERT_EQ(r.status, Status::ok);
      EXPECT_LE(std::abs(r.distance - t.distance), 2e-9);
      if (t.cores_overlap) {
        ++deep;
        if (seen_radius) {
          ++deep_after_radius;
          cached_after_radius += from_certificate(r);
          expect_right(r, truth_of(f.pc, ta, kSegment, tb), f.pc, ta, kSegment, tb);
        }
      } else if (t.distance + 0.25 > 1e-4) {  // the cores apart by more than rounding
        EXPECT_LE(angle(r.normal, t.normal), 1e-6);
        ++radius_only;
        seen_radius = true;
      }
      tb.p += (k < 8 ? 2e-3 : -2e-3) * out;
    }
  }
  std::printf("radius-only steps: %d, deep steps %d, %d after radius-only ones, %d of those from the cache\n",
              radius_only, deep, deep_after_radius, cached_after_radius);
  EXPECT_GT(radius_only, 0);
  EXPECT_GT(cached_after_radius, 0);
}

// A fresh cache without a direction: the pruned walk finds the cores' depth
// and collects the certificate (no SQP); with the cores apart (radius-only
// overlaps) the SQP answers. Every answer right, on both orders and the box.
TEST(ConeCoherence, ColdCachesAnswerWithoutTheSqp) {
  Rng g(341);
  const Fixture f(g);
  int deep = 0, shallow = 0;
  for (int i = 0; i < testing::scaled(60); ++i) {
    const Transform ta = g.pose(0.0), tb = g.pose(0.6);
    SCOPED_TRACE(::testing::Message() << "pose " << i);
    const AnyTruth any = any_truth_of(f.pc, ta, kSegment, tb);
    if (!(any.distance < -1e-4)) continue;
    PenetrationCache c;
    const DistanceResult r = incremental_penetration(f.poly, ta, kCapsule, tb, {}, &c);
    ASSERT_EQ(r.status, Status::ok);
    EXPECT_LE(std::abs(r.distance - any.distance), 2e-9);
    const Truth t = truth_of(f.pc, ta, kSegment, tb);
    if (t.distance < 0.0) {
      ++deep;
      EXPECT_TRUE(from_certificate(r));
      EXPECT_TRUE(c.coherence.holds());
      expect_right(r, t, f.pc, ta, kSegment, tb);
      PenetrationCache d;
      const DistanceResult s = incremental_penetration(kCapsule, tb, f.poly, ta, {}, &d);
      expect_right(s, truth_of(kSegment, tb, f.pc, ta), kSegment, tb, f.pc, ta);
      EXPECT_TRUE(from_certificate(s));
    } else {
      ++shallow;
    }
    const Truth tbox = truth_of(f.pc, ta, kCorners, tb);
    if (tbox.distance < 0.0) {
      PenetrationCache e;
      const DistanceResult s = incremental_penetration(f.poly, ta, kBox, tb, {}, &e);
      expect_right(s, tbox, f.pc, ta, kCorners, tb);
      EXPECT_TRUE(from_certificate(s));
    }
  }
  std::printf("cold caches: %d deep, %d radius-only\n", deep, shallow);
  EXPECT_GT(deep, 0);
  EXPECT_GT(shallow, 0);
}

// Shallow contacts (the cores apart, only a radius or a margin overlapping)
// along pose sequences, one cache carried: after the first answer the query
// measures the cores' distance by GJK from the cache's simplex
// (incremental_depth.hpp, "Cores apart, with a PenetrationCache"). Every
// answer is certified and right against the oracle (the cores' distance
// less the radii, along their closest vector; the cores' depth plus the
// radii once a sequence drifts into core overlap), with its witnesses on
// the shapes' support planes; the cache holds GJK's warm start exactly
// while the cores are apart. Returns the steps answered.
template <class A, class B>
int shallow_sequences(const char* label, const A& a, const CoreVerts& ca, const B& b, const CoreVerts& cb,
                      double half, unsigned seed) {
  Rng rng(seed);
  const double radii = ca.radius + cb.radius;
  int answered = 0, apart = 0, runs = 0;
  while (runs < testing::scaled(10)) {
    const Transform ta = rng.pose(0.0);
    Transform tb = rng.pose(half);
    const AnyTruth t0 = any_truth_of(ca, ta, cb, tb);
    if (t0.cores_overlap || !(t0.distance < -1e-3) || !(t0.distance + radii > 1e-3)) continue;
    ++runs;
    const Vec3 v = rng.uniform(0.1, 0.5) * 1e-3 * rng.unit_vector();
    const Mat3 turn = Eigen::AngleAxisd(rng.uniform(0.05, 0.3) * M_PI / 180.0, rng.unit_vector()).toRotationMatrix();
    PenetrationCache cache;
    for (int k = 0; k < 30; ++k) {
      const AnyTruth t = any_truth_of(ca, ta, cb, tb);
      if (!(t.distance < -1e-6)) break;  // moved out of the overlap
      SCOPED_TRACE(::testing::Message() << label << " run " << runs << " step " << k);
      const DistanceResult r = incremental_penetration(a, ta, b, tb, {}, &cache);
      EXPECT_EQ(r.status, Status::ok);
      if (r.status != Status::ok) break;
      EXPECT_LE(std::abs(r.distance - t.distance), 2e-9);
      const double core = t.distance + radii;
      if (std::abs(core) > 1e-4) {  // the closest vector, and which side, beyond rounding
        EXPECT_LE(angle(r.normal, t.cores_overlap ? Vec3(-t.normal) : t.normal), 1e-6);
        EXPECT_EQ(cache.cores.direction.squaredNorm() > 0.0, !t.cores_overlap);
        apart += !t.cores_overlap;
      }
      expect_witnesses(r, ca, ta, cb, tb);
      ++answered;
      tb = Transform{turn * tb.R, tb.p + v};
    }
  }
  std::printf("%-28s %d shallow-contact steps, %d with the cores apart: all certified and right\n", label, answered,
              apart);
  EXPECT_GT(apart, answered / 2) << label;
  return answered;
}

TEST(ConeCoherence, ShallowContactsAnswerFromTheCoresDistance) {
  Rng g(351);
  const Fixture f(g);
  const Capsule thin(0.1, 0.4);
  const CoreVerts thin_seg{{Vec3(0, 0, -0.2), Vec3(0, 0, 0.2)}, 0.1};
  std::vector<Vec3> blob;
  for (int i = 0; i < 60; ++i) blob.push_back(g.uniform_vec(Vec3(-0.4, -0.15, -0.25), Vec3(0.4, 0.15, 0.25)));
  const ConvexPolytope irregular(blob, 0.03);
  const Box padded(Vec3(1.0, 0.6, 0.4), 0.02);
  EXPECT_GT(shallow_sequences("polytope200-capsule", f.poly, f.pc, kCapsule, kSegment, 0.6, 352u), 0);
  EXPECT_GT(shallow_sequences("capsule-polytope200", kCapsule, kSegment, f.poly, f.pc, 0.6, 353u), 0);
  EXPECT_GT(shallow_sequences("polytope200-sphere", f.poly, f.pc, kSphere, kCentre, 0.5, 354u), 0);
  EXPECT_GT(shallow_sequences("capsule-capsule", kCapsule, kSegment, thin, thin_seg, 0.5, 355u), 0);
  EXPECT_GT(shallow_sequences("irregular60 margin-box margin", irregular, CoreVerts{blob, 0.03}, padded,
                              CoreVerts{kCorners.local, 0.02}, 0.55, 356u),
            0);
}

}  // namespace
}  // namespace proxima::coherence_test
