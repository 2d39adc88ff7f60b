// SPDX-License-Identifier: BSD-3-Clause
// Polytope–capsule depth by SAT on P ⊖ S (narrow/sat.hpp,
// sat_polytope_capsule) and through signed_distance's automatic method,
// against two truths that share nothing with the pruned search: the
// Minkowski-difference oracle (tests/oracle: qhull on all vertex−endpoint
// differences, exact support values on its facets) and a brute force over
// every face normal and every ±(edge × axis) of the hull with support values
// from a scan of all vertices.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <gtest/gtest.h>
#include <limits>

#include <proxima/narrow/sat.hpp>
#include <proxima/query.hpp>

#include "../oracle/minkowski_oracle.hpp"
#include "../support/test_shapes.hpp"

namespace proxima {
namespace {

using testing::Rng;

std::vector<Vec3> segment(const Capsule& c, const Transform& t) {
  return {t.apply(Vec3(0, 0, -c.half_length())), t.apply(Vec3(0, 0, c.half_length()))};
}

// Core depth by brute force in world frame: min of h_C(u) = max_v u·v −
// min(u·s0, u·s1) over all face normals and both signs of every edge × axis.
// Every term is an honest support value, so each is ≥ the depth, and the
// facet normals of P ⊖ S are among the directions: the minimum is the depth.
double brute_core_depth(const ConvexPolytope& p, const Transform& tp, const std::vector<Vec3>& seg) {
  const std::vector<Vec3> v = testing::transformed(tp, p.vertices());
  const Vec3 d = seg[1] - seg[0];
  const auto h = [&](const Vec3& u) {
    double m = -std::numeric_limits<double>::infinity();
    for (const Vec3& x : v) m = std::max(m, u.dot(x));
    return m - std::min(u.dot(seg[0]), u.dot(seg[1]));
  };
  double best = std::numeric_limits<double>::infinity();
  for (const Vec3& n : p.data().face_normals) best = std::min(best, h(tp.rotate(n)));
  for (const auto& e : p.data().edges) {
    const Vec3 u = (v[static_cast<std::size_t>(e[1])] - v[static_cast<std::size_t>(e[0])]).cross(d);
    if (!(u.norm() > 1e-9 * d.norm())) continue;
    best = std::min({best, h(u.normalized()), h(-u.normalized())});
  }
  return best;
}

struct SegmentStats {
  int overlapping = 0, separated_cores = 0;
  double max_err = 0.0, max_brute = 0.0;
  long faces = 0, total_faces = 0;
};

// Random poses of the polytope (centre within `half` of the capsule's); the
// SAT and signed_distance must match the oracle to 1e-9 wherever the whole
// shapes overlap, and the SAT must match the brute force wherever the cores do.
SegmentStats check_capsule(const char* label, const ConvexPolytope& poly, const Capsule& cap, double half, int poses, int brute_every,
            unsigned seed) {
  Rng rng(seed);
  SegmentStats st;
  const double r = cap.radius();
  const Shape sa(poly), sb(cap);
  int tried = 0;
  while (st.overlapping < poses && tried < 20 * poses) {
    ++tried;
    const Transform ta = rng.pose(half), tb = rng.pose(0.0);
    const std::vector<Vec3> seg = segment(cap, tb);
    const double core = oracle::minkowski_signed_distance(testing::transformed(ta, poly.vertices()), seg);
    const double truth = core - r;
    if (!(truth < -1e-9)) continue;
    ++st.overlapping;

    const DistanceResult ab = signed_distance(sa, ta, sb, tb);
    EXPECT_EQ(ab.status, Status::ok) << label << " pose " << st.overlapping;
    EXPECT_NEAR(ab.distance, truth, 1e-9) << label << " pose " << st.overlapping;
    EXPECT_NEAR((ab.point_b - ab.point_a - (-ab.distance) * ab.normal).norm(), 0.0, 1e-12);
    st.max_err = std::max(st.max_err, std::abs(ab.distance - truth));
    // Reversed pair: same depth, opposite normal, points swapped.
    const DistanceResult ba = signed_distance(sb, tb, sa, ta);
    EXPECT_NEAR(ba.distance, truth, 1e-9) << label << " reversed pose " << st.overlapping;
    EXPECT_NEAR((ba.normal + ab.normal).norm(), 0.0, 1e-12) << label << " reversed pose " << st.overlapping;
    EXPECT_NEAR((ba.point_a - ab.point_b).norm(), 0.0, 1e-12);

    if (!(core < -1e-9)) {
      ++st.separated_cores;
      continue;
    }
    narrow::SatStats work;
    const DistanceResult s = narrow::sat_polytope_capsule(poly, ta, cap, tb, &work);
    EXPECT_EQ(s.status, Status::ok) << label;
    EXPECT_NEAR(s.distance, truth, 1e-9) << label << " pose " << st.overlapping;
    EXPECT_NEAR((s.normal.norm()), 1.0, 1e-12);
    st.faces += work.face_axes;
    st.total_faces += static_cast<long>(poly.data().face_normals.size());
    if (st.overlapping % brute_every == 0) {
      const double brute = -brute_core_depth(poly, ta, seg) - r;
      EXPECT_NEAR(s.distance, brute, 1e-12) << label << " pose " << st.overlapping;
      st.max_brute = std::max(st.max_brute, std::abs(s.distance - brute));
      // The depth is the shortest separating translation: along the normal,
      // a little more separates and a little less does not.
      const Transform more{ta.R, ta.p + (-s.distance + 1e-7) * s.normal};
      const Transform less{ta.R, ta.p + (-s.distance - 1e-7) * s.normal};
      EXPECT_GT(oracle::minkowski_signed_distance(testing::transformed(more, poly.vertices()), seg) - r, 0.0) << label;
      EXPECT_LT(oracle::minkowski_signed_distance(testing::transformed(less, poly.vertices()), seg) - r, 0.0) << label;
    }
  }
  EXPECT_EQ(st.overlapping, poses) << label << ": too few overlapping poses";
  std::printf("%-28s poses %5d (cores apart %4d) max |err| vs oracle %.2g, vs brute force %.2g; faces evaluated %.1f%%\n",
              label, st.overlapping, st.separated_cores, st.max_err, st.max_brute,
              100.0 * static_cast<double>(st.faces) / static_cast<double>(std::max(1L, st.total_faces)));
  return st;
}

class SatSegmentSphere : public ::testing::TestWithParam<int> {};

TEST_P(SatSegmentSphere, MatchesOracleAndBruteForce) {
  const int n = GetParam();
  Rng g(500u + static_cast<unsigned>(n));
  const ConvexPolytope poly(g.sphere_points(n, 0.5));
  char label[48];
  std::snprintf(label, sizeof label, "polytope(%d)-capsule", n);
  const int poses = testing::scaled(n >= 2000 ? 600 : n >= 1000 ? 1000 : 2000);
  const SegmentStats st = check_capsule(label, poly, Capsule(0.25, 0.5), 0.45, poses, n >= 1000 ? 50 : 10, 900u + static_cast<unsigned>(n));
  // The cone hierarchy must prune: a scan evaluates every face.
  if (n >= 1000) {
    EXPECT_LT(st.faces, st.total_faces / 10);
  }
}

INSTANTIATE_TEST_SUITE_P(Sizes, SatSegmentSphere, ::testing::Values(8, 50, 200, 1000, 2000));

// A sphere's core is a point, the segment of length zero: the dispatcher
// answers sphere–polytope depth by the same SAT (no edge axes then), in
// either order, against the Minkowski oracle on hull vertices − centre.
TEST(SatSegment, SphereAgainstPolytopeMatchesOracle) {
  for (const int n : {8, 200, 1000}) {
    Rng g(700u + static_cast<unsigned>(n));
    const ConvexPolytope poly(g.sphere_points(n, 0.5));
    const Sphere ball(0.2, 0.01);
    const Shape sa(poly), sb(ball);
    const int poses = testing::scaled(n >= 1000 ? 300 : 1000);
    int overlapping = 0, cores_apart = 0, tried = 0;
    double max_err = 0.0;
    while (overlapping < poses && tried < 20 * poses) {
      ++tried;
      const Transform ta = g.pose(0.45), tb = g.pose(0.0);
      const double core = oracle::minkowski_signed_distance(testing::transformed(ta, poly.vertices()), {tb.p});
      const double truth = core - ball.core_inflation();
      if (!(truth < -1e-9)) continue;
      ++overlapping;
      cores_apart += core > 0.0;
      const DistanceResult ab = signed_distance(sa, ta, sb, tb);
      ASSERT_EQ(ab.status, Status::ok) << n << " pose " << overlapping;
      EXPECT_NEAR(ab.distance, truth, 1e-9) << n << " pose " << overlapping;
      max_err = std::max(max_err, std::abs(ab.distance - truth));
      EXPECT_NEAR((ab.point_b - ab.point_a - (-ab.distance) * ab.normal).norm(), 0.0, 1e-12);
      const DistanceResult ba = signed_distance(sb, tb, sa, ta);
      EXPECT_NEAR(ba.distance, truth, 1e-9) << n << " reversed pose " << overlapping;
      EXPECT_NEAR((ba.normal + ab.normal).norm(), 0.0, 1e-12) << n << " reversed pose " << overlapping;
      // Along the normal, a little more than the depth separates the cores
      // plus margins and a little less does not.
      const Transform more{ta.R, ta.p + (-ab.distance + 1e-7) * ab.normal};
      const Transform less{ta.R, ta.p + (-ab.distance - 1e-7) * ab.normal};
      EXPECT_GT(oracle::minkowski_signed_distance(testing::transformed(more, poly.vertices()), {tb.p}) -
                    ball.core_inflation(), 0.0);
      EXPECT_LT(oracle::minkowski_signed_distance(testing::transformed(less, poly.vertices()), {tb.p}) -
                    ball.core_inflation(), 0.0);
      // Forced SAT takes the same path.
      DistanceRequest sat;
      sat.method = Method::sat;
      EXPECT_NEAR(signed_distance(sb, tb, sa, ta, sat).distance, truth, 1e-9);
    }
    EXPECT_EQ(overlapping, poses) << n;
    EXPECT_GT(cores_apart, 0) << n;                // some poses overlap only through the radius (GJK's part)
    EXPECT_GT(overlapping - cores_apart, 0) << n;  // and some cores overlap (the SAT's)
    std::printf("sphere-polytope(%d): %d poses (cores apart %d), max |err| vs oracle %.2g\n", n, overlapping,
                cores_apart, max_err);
  }
}

// Hulls whose cones are wide or whose offsets are negative: an off-centre
// hull (the local origin outside it), a flattened one, and a box whose
// edges run parallel to the capsule at axis-aligned poses.
TEST(SatSegment, OffCentreAndThinHulls) {
  Rng g(71);
  std::vector<Vec3> off = g.sphere_points(300, 0.4);
  for (Vec3& p : off) p += Vec3(1.5, -0.7, 0.4);
  const ConvexPolytope poly_off(off);
  Rng g2(72);
  std::vector<Vec3> flat = g2.sphere_points(300, 0.6);
  for (Vec3& p : flat) p = p.cwiseProduct(Vec3(1.0, 0.4, 0.08));
  const ConvexPolytope poly_flat(flat);
  // Centre offset only moves where the overlapping poses are: pose the hull
  // about its own centre by shifting the capsule's frame instead.
  Rng rng(73);
  int n = 0;
  const Capsule cap(0.1, 0.8);
  const Shape so(poly_off), sc(cap);
  while (n < testing::scaled(1000)) {
    const Transform ta = rng.pose(0.0);
    Transform tb = rng.pose(0.5);
    tb.p += ta.apply(Vec3(1.5, -0.7, 0.4)) - ta.p;
    const std::vector<Vec3> seg = segment(cap, tb);
    const double core = oracle::minkowski_signed_distance(testing::transformed(ta, poly_off.vertices()), seg);
    if (!(core - cap.radius() < -1e-9)) continue;
    ++n;
    EXPECT_NEAR(signed_distance(so, ta, sc, tb).distance, core - cap.radius(), 1e-9) << "off-centre pose " << n;
  }
  check_capsule("flattened polytope(300)", poly_flat, Capsule(0.05, 0.6), 0.3, testing::scaled(1000), 10, 74);
}

TEST(SatSegment, BoxHullWithParallelEdges) {
  std::vector<Vec3> c;
  for (int i = 0; i < 8; ++i) c.emplace_back((i & 1) ? 0.5 : -0.5, (i & 2) ? 0.3 : -0.3, (i & 4) ? 0.2 : -0.2);
  const ConvexPolytope box(c);
  const Capsule cap(0.1, 0.4);
  const Shape sa(box), sb(cap);
  Rng rng(75);
  const Mat3 turns[3] = {Mat3::Identity(), Eigen::AngleAxisd(M_PI / 2, Vec3::UnitX()).toRotationMatrix(),
                         Eigen::AngleAxisd(M_PI / 2, Vec3::UnitY()).toRotationMatrix()};
  int n = 0;
  while (n < testing::scaled(600)) {
    // Capsule axis along each box axis, then slightly tilted.
    const Transform ta{Mat3::Identity(), Vec3::Zero()};
    const double tilt = (n % 2) ? 0.0 : rng.uniform(-1e-6, 1e-6);
    const Mat3 R = turns[n % 3] * Eigen::AngleAxisd(tilt, rng.unit_vector()).toRotationMatrix();
    const Transform tb{R, rng.uniform_vec(Vec3(-0.6, -0.4, -0.3), Vec3(0.6, 0.4, 0.3))};
    const std::vector<Vec3> seg = segment(cap, tb);
    const double core = oracle::minkowski_signed_distance(c, seg);
    if (!(core < -1e-9)) continue;
    ++n;
    const DistanceResult s = narrow::sat_polytope_capsule(box, ta, cap, tb);
    EXPECT_NEAR(s.distance, core - cap.radius(), 1e-9) << "box pose " << n;
    EXPECT_NEAR(s.distance, -brute_core_depth(box, ta, seg) - cap.radius(), 1e-12) << "box pose " << n;
    EXPECT_NEAR(signed_distance(sa, ta, sb, tb).distance, core - cap.radius(), 1e-9) << "box pose " << n;
  }
}

TEST(SatSegment, MarginsAndInvalidInput) {
  Rng g(76);
  const ConvexPolytope poly(g.sphere_points(100, 0.4), 0.03);
  const Capsule cap(0.1, 0.5, 0.02);
  Rng rng(77);
  int n = 0;
  while (n < testing::scaled(300)) {
    const Transform ta = rng.pose(0.4), tb = rng.pose(0.0);
    const double core = oracle::minkowski_signed_distance(testing::transformed(ta, poly.vertices()), segment(cap, tb));
    if (!(core < -1e-9)) continue;
    ++n;
    EXPECT_NEAR(narrow::sat_polytope_capsule(poly, ta, cap, tb).distance, core - 0.03 - 0.12, 1e-9);
  }
  Transform bad = rng.pose(0.1);
  bad.p.x() = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(narrow::sat_polytope_capsule(poly, bad, cap, rng.pose(0.0)).status, Status::invalid_input);
  const ConvexPolytope flat({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, 0.05);
  const Transform ta = rng.pose(0.0), tb = rng.pose(0.0);
  EXPECT_EQ(narrow::sat_polytope_capsule(flat, ta, cap, tb).status, Status::not_implemented);
}

// The warm-started dispatcher form: whatever the guess (the answer, near it,
// opposite, zero, non-finite), overlapping cores get the unseeded answer;
// a guess whose plane separates the cores is reported as apart.
TEST(SatSegment, WarmStartGivesTheSameAnswerForAnyGuess) {
  Rng g(78);
  const ConvexPolytope poly(g.sphere_points(300, 0.5), 0.01);
  const Capsule cap(0.2, 0.6, 0.02);
  Rng rng(79);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  int overlapping = 0, apart = 0;
  const int poses = testing::scaled(400);
  for (int n = 0; n < poses; ++n) {
    const Transform ta = rng.pose(0.8), tb = rng.pose(0.0);
    const DistanceResult exact = narrow::sat_polytope_capsule(poly, ta, cap, tb);
    const double radii = 0.01 + 0.22;
    const Vec3 guesses[] = {exact.normal, Eigen::AngleAxisd(0.3, exact.normal.unitOrthogonal()) * exact.normal,
                            -exact.normal, Vec3::Zero(), rng.unit_vector(), Vec3(nan, 0, 0)};
    for (const Vec3& guess : guesses) {
      const DistanceResult w = narrow::detail::sat_polytope_capsule_depth(poly, ta, narrow::detail::SegmentCore::of(cap), tb, guess);
      ASSERT_EQ(w.status, Status::ok);
      ASSERT_TRUE(std::isfinite(w.distance) && w.normal.allFinite());
      if (exact.distance + radii < 0.0) {
        EXPECT_NEAR(w.distance, exact.distance, 1e-12) << "pose " << n;
        EXPECT_NEAR(w.normal.dot(exact.normal), 1.0, 1e-9) << "pose " << n;
      } else {
        EXPECT_GE(w.distance + radii, 0.0) << "pose " << n;  // the cores are apart: never a depth
      }
    }
    (exact.distance + radii < 0.0 ? overlapping : apart) += 1;
  }
  EXPECT_GT(overlapping, poses / 20);  // both kinds are exercised (about 15 % overlap)
  EXPECT_GT(apart, poses / 20);
}

// The dispatcher skips its search over all of the polytope's planes when the
// SAT reports its witness on the polytope by construction (an edge's point,
// or a face's inside its polygon). Wherever it says so, the qhull oracle
// must find point_a on the hull's boundary; it must say so on most poses
// (else the shortcut is dead code) and at faces and edges both; never with
// a margin (the witness is then off the core). signed_distance's witnesses
// must be on both bodies whichever path placed them.
TEST(SatSegment, WitnessOnPolytopeIsOnItsBoundary) {
  Rng g(80);
  const std::vector<Vec3> pts = g.sphere_points(400, 0.5);
  const ConvexPolytope poly(pts), rounded(pts, 0.02);
  const Capsule cap(0.1, 0.6);
  const Sphere ball(0.2);
  Rng rng(81);
  int overlapping = 0, known = 0, known_face = 0, known_edge = 0;
  const int poses = testing::scaled(300);
  while (overlapping < poses) {
    const Transform ta = rng.pose(0.6), tb = rng.pose(0.0);
    const bool with_ball = overlapping % 4 == 3;
    const narrow::detail::SegmentCore core =
        with_ball ? narrow::detail::SegmentCore::of(ball) : narrow::detail::SegmentCore::of(cap);
    bool on = true;
    const DistanceResult r = narrow::detail::sat_polytope_capsule_depth(poly, ta, core, tb, Vec3::Zero(), nullptr, &on);
    if (!(r.status == Status::ok && r.distance + core.core_inflation() < 0.0)) continue;  // cores apart
    ++overlapping;
    const std::vector<Vec3> world = testing::transformed(ta, pts);
    if (on) {
      ++known;
      EXPECT_NEAR(oracle::hull_signed_distance(world, r.point_a), 0.0, 1e-12) << "pose " << overlapping;
      // A face's normal is the hull's at point_a; an edge's is between its faces'.
      bool face = false;
      for (const Vec3& n : poly.data().face_normals) face |= (ta.rotate(n) + r.normal).norm() < 1e-12;
      (face ? known_face : known_edge) += 1;
    }
    bool on_rounded = true;
    (void)narrow::detail::sat_polytope_capsule_depth(rounded, ta, core, tb, Vec3::Zero(), nullptr, &on_rounded);
    EXPECT_FALSE(on_rounded) << "pose " << overlapping;
    const Shape sa(poly), sb = with_ball ? Shape(ball) : Shape(cap);
    const DistanceResult d = signed_distance(sa, ta, sb, tb);
    EXPECT_NEAR(d.distance, r.distance, 1e-12);
    EXPECT_NEAR(oracle::hull_signed_distance(world, d.point_a), 0.0, 1e-9) << "pose " << overlapping;
    const Vec3 pb = tb.apply_inverse(d.point_b);
    const double half = with_ball ? 0.0 : cap.half_length();
    const double rb = with_ball ? ball.radius() : cap.radius();
    EXPECT_NEAR((pb - Vec3(0, 0, std::clamp(pb.z(), -half, half))).norm(), rb, 1e-9) << "pose " << overlapping;
  }
  EXPECT_GT(known, poses / 2);
  EXPECT_GT(known_face, 0);
  EXPECT_GT(known_edge, 0);
  // A capsule lying along a face, just below its plane: both ends trail
  // (within rounding), and the end pushed out to the face plane is most
  // often beside the face, off the hull. The SAT must not vouch for it then.
  int lying = 0, unknown = 0;
  for (int k = 0; k < testing::scaled(200); ++k) {
    const Transform ta = rng.pose(0.3);
    const std::size_t f = static_cast<std::size_t>(k * 7) % poly.data().faces.size();
    const Vec3 n = poly.data().face_normals[f];
    Vec3 centroid = Vec3::Zero();
    for (const int v : poly.data().faces[f]) centroid += pts[static_cast<std::size_t>(v)];
    centroid /= static_cast<double>(poly.data().faces[f].size());
    const Vec3 t = Eigen::AngleAxisd(0.9 * k, n) * n.unitOrthogonal();
    const Vec3 centre = centroid - (0.001 + 0.0001 * (k % 10)) * n;
    const Mat3 R = Eigen::Quaterniond::FromTwoVectors(Vec3::UnitZ(), t).toRotationMatrix();
    const Transform tb{ta.R * R, ta.apply(centre)};
    bool on = true;
    const DistanceResult r = narrow::detail::sat_polytope_capsule_depth(
        poly, ta, narrow::detail::SegmentCore::of(cap), tb, Vec3::Zero(), nullptr, &on);
    ASSERT_EQ(r.status, Status::ok);
    ASSERT_LT(r.distance + cap.radius(), 0.0);  // the segment's middle is inside the hull
    ++lying;
    const std::vector<Vec3> world = testing::transformed(ta, pts);
    if (on) {
      EXPECT_NEAR(oracle::hull_signed_distance(world, r.point_a), 0.0, 1e-12) << "lying pose " << k;
    } else {
      ++unknown;
    }
    const DistanceResult d = signed_distance(Shape(poly), ta, Shape(cap), tb);
    EXPECT_NEAR(d.distance, r.distance, 1e-12);
    EXPECT_NEAR(oracle::hull_signed_distance(world, d.point_a), 0.0, 1e-9) << "lying pose " << k;
  }
  EXPECT_GT(unknown, lying / 10);  // the search still proves these
}

// Box–capsule (sat_box_capsule, and signed_distance in both orders) against
// the Minkowski-difference oracle on the box's eight corners and the
// segment's ends, at random poses and at poses where the capsule lies along
// a box axis or nearly so (a robot link beside a shelf), with margins on
// both. Overlapping cores: exact depth and A moved by depth ± ε along the
// normal touches or not; separated cores: the axis returned separates them.
TEST(SatSegment, BoxCapsuleMatchesOracle) {
  const Box box(0.6, 0.4, 0.3, 0.01);
  const Capsule cap(0.1, 0.5, 0.005);
  const double radii = 0.01 + 0.105;
  const Shape sb(box), sc(cap);
  std::vector<Vec3> corners;
  for (int i = 0; i < 8; ++i) corners.push_back(Vec3(i & 1 ? 0.3 : -0.3, i & 2 ? 0.2 : -0.2, i & 4 ? 0.15 : -0.15));
  Rng rng(81);
  const double tilts[] = {0.0, 1e-13, 1e-9, 1e-6, 1e-3};
  int overlapping = 0, apart = 0;
  const int poses = testing::scaled(4000);
  for (int n = 0; n < poses; ++n) {
    const Transform tx = rng.pose(0.0);
    Transform tc = rng.pose(0.45);
    if (n % 2 == 0) {  // along box axis n/2 % 3, tilted a little
      const Vec3 axis = tx.R.col(n / 2 % 3);
      const Mat3 tilt = Transform::from_axis_angle(rng.unit_vector(), tilts[n / 6 % 5]).R;
      tc.R = tilt * Eigen::Quaterniond::FromTwoVectors(Vec3::UnitZ(), axis).toRotationMatrix();
    }
    const std::vector<Vec3> seg = segment(cap, tc);
    const double core = oracle::minkowski_signed_distance(testing::transformed(tx, corners), seg);
    const DistanceResult r = narrow::sat_box_capsule(box, tx, cap, tc);
    ASSERT_EQ(r.status, Status::ok);
    ASSERT_TRUE(std::isfinite(r.distance) && r.normal.allFinite() && r.point_a.allFinite() && r.point_b.allFinite());
    EXPECT_NEAR(r.normal.norm(), 1.0, 1e-12);
    if (core < -1e-9) {
      ++overlapping;
      EXPECT_NEAR(r.distance, core - radii, 1e-12) << "pose " << n;
      EXPECT_NEAR((r.point_b - r.point_a + r.distance * r.normal).norm(), 0.0, 1e-12) << "pose " << n;
      // The deepest point of A lies on A's surface: its core point, ra back along the normal, on the core box.
      const Vec3 pa_core = tx.apply_inverse(r.point_a + 0.01 * r.normal);
      EXPECT_LT((pa_core.cwiseAbs() - Vec3(0.3, 0.2, 0.15)).maxCoeff(), 1e-12) << "pose " << n;
      EXPECT_GT((pa_core.cwiseAbs() - Vec3(0.3, 0.2, 0.15)).maxCoeff(), -1e-12) << "pose " << n;
      // Moved by the depth less or more ε along the normal, the cores still meet or come apart.
      const double depth = -r.distance - radii;
      auto core_after = [&](double move) {
        Transform moved = tx;
        moved.p += move * r.normal;
        return oracle::minkowski_signed_distance(testing::transformed(moved, corners), seg);
      };
      EXPECT_LT(core_after(depth - 1e-7), 0.0) << "pose " << n;
      EXPECT_NEAR(core_after(depth + 1e-7), 1e-7, 1e-10) << "pose " << n;
      for (const bool flip : {false, true}) {
        const DistanceResult d = flip ? signed_distance(sc, tc, sb, tx) : signed_distance(sb, tx, sc, tc);
        EXPECT_EQ(d.status, Status::ok);
        EXPECT_NEAR(d.distance, core - radii, 1e-12) << "pose " << n << (flip ? " reversed" : "");
        EXPECT_NEAR(d.normal.dot(flip ? -r.normal : r.normal), 1.0, 1e-9) << "pose " << n;
      }
    } else if (core > 1e-9) {
      ++apart;
      EXPECT_GE(r.distance + radii, 0.0) << "pose " << n;  // never a depth for apart cores
      EXPECT_LE(r.distance + radii, core + 1e-12) << "pose " << n;  // a separating axis's gap is a lower bound
      const DistanceResult d = signed_distance(sb, tx, sc, tc);
      EXPECT_NEAR(d.distance, core - radii, 1e-9) << "pose " << n;
    }
  }
  EXPECT_GT(overlapping, poses / 5);
  EXPECT_GT(apart, poses / 5);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  Transform bad = Transform::identity();
  bad.R(1, 2) = nan;
  EXPECT_EQ(narrow::sat_box_capsule(box, bad, cap, Transform::identity()).status, Status::invalid_input);
  EXPECT_EQ(narrow::sat_box_capsule(box, Transform::identity(), cap, bad).status, Status::invalid_input);
}

}  // namespace
}  // namespace proxima
