// SPDX-License-Identifier: BSD-3-Clause
// SAT penetration depth against the explicit Minkowski-difference oracle
// (the unit test of Contact data for convex polyhedra and more), hand cases with known answers, and the
// Gauss-map pruning against an unpruned reference loop kept here.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <ostream>
#include <string>

#include <gtest/gtest.h>

#include <proxima/narrow/sat.hpp>
#include <proxima/query.hpp>

#include "../oracle/minkowski_oracle.hpp"
#include "../support/random.hpp"
#include "../support/test_shapes.hpp"

namespace proxima {
namespace {

using narrow::sat_box_box;
using narrow::sat_box_polytope;
using narrow::sat_polytope_box;
using narrow::sat_polytope_polytope;
using testing::transformed;

using testing::box_corners;

std::vector<Vec3> shifted(std::vector<Vec3> pts, const Vec3& d) {
  for (Vec3& p : pts) p += d;
  return pts;
}

// Overlap of the projections along n when A moves along +n: max_B n·b − min_A n·a.
double overlap_along(const std::vector<Vec3>& a, const std::vector<Vec3>& b, const Vec3& n) {
  double min_a = std::numeric_limits<double>::infinity(), max_b = -min_a;
  for (const Vec3& p : a) min_a = std::min(min_a, n.dot(p));
  for (const Vec3& p : b) max_b = std::max(max_b, n.dot(p));
  return max_b - min_a;
}

struct SatStats {
  int overlapping = 0;
  int separated = 0;
  int translated = 0;  // overlapping poses with the oracle translation check
  double max_err = 0.0;
  double max_axis_err = 0.0;
  double max_point_err = 0.0;
};

// Checks a SAT result for world vertex sets wa, wb against the oracle value
// `truth`. `deep` adds the expensive checks (oracle after translating A along
// the normal; points inside their bodies).
void check(const DistanceResult& r, const std::vector<Vec3>& wa, const std::vector<Vec3>& wb, double truth,
           bool deep, SatStats& st, const std::string& what) {
  ASSERT_EQ(r.status, Status::ok) << what;
  ASSERT_TRUE(std::isfinite(r.distance) && r.normal.allFinite() && r.point_a.allFinite() &&
              r.point_b.allFinite())
      << what;
  EXPECT_NEAR(r.normal.norm(), 1.0, 1e-12) << what;
  EXPECT_LE((r.point_b - (r.point_a - r.distance * r.normal)).norm(), 1e-12) << what;
  if (truth > 1e-9) {
    // Separated: a lower bound, never above the distance.
    ++st.separated;
    EXPECT_GE(r.distance, 0.0) << what;
    EXPECT_LE(r.distance, truth + 1e-9) << what << " truth " << truth;
    return;
  }
  if (truth >= -1e-9) return;  // touching within rounding: nothing sharp to say
  ++st.overlapping;
  const double depth = -r.distance;
  const double err = std::abs(r.distance - truth);
  st.max_err = std::max(st.max_err, err);
  EXPECT_LE(err, 1e-9) << what << " truth " << truth << " sat " << r.distance;
  // The axis is honest: the projections overlap by exactly the depth on it.
  const double axis_err = std::abs(overlap_along(wa, wb, r.normal) - depth);
  st.max_axis_err = std::max(st.max_axis_err, axis_err);
  EXPECT_LE(axis_err, 1e-9) << what;
  if (!deep) return;
  ++st.translated;
  EXPECT_GT(oracle::minkowski_signed_distance(shifted(wa, (depth + 1e-6) * r.normal), wb), 0.0) << what;
  if (depth > 2e-6) {
    EXPECT_LT(oracle::minkowski_signed_distance(shifted(wa, (depth - 1e-6) * r.normal), wb), 0.0) << what;
  }
  // point_a lies in A and point_b in B (on their boundaries, up to rounding).
  const double in_a = oracle::hull_signed_distance(wa, r.point_a);
  const double in_b = oracle::hull_signed_distance(wb, r.point_b);
  st.max_point_err = std::max({st.max_point_err, in_a, in_b});
  EXPECT_LE(in_a, 1e-9) << what;
  EXPECT_LE(in_b, 1e-9) << what;
}

void print(const char* label, const SatStats& st) {
  std::printf("%-34s overlapping %5d (translation-checked %5d) separated %5d  max |err| %.3g  axis %.3g  points %.3g\n",
              label, st.overlapping, st.translated, st.separated, st.max_err, st.max_axis_err, st.max_point_err);
}

// The unit test of Contact data for convex polyhedra: two 2×2×2 boxes at random poses against the
// Minkowski-difference oracle (paper: max error 2.7e-15 for its SAT).
TEST(Sat, PaperUnitTestTwoBoxes) {
  const Box box(2, 2, 2);
  const ConvexPolytope hull(box_corners(Vec3(1, 1, 1)));
  const std::vector<Vec3> corners = box_corners(Vec3(1, 1, 1));
  testing::Rng rng(2024);
  SatStats bb, pp, bp, pb;
  const int poses = testing::scaled(10000);
  for (int i = 0; i < poses; ++i) {
    const Transform ta = rng.pose(2.6), tb = rng.pose(0.4);
    const std::vector<Vec3> wa = transformed(ta, corners), wb = transformed(tb, corners);
    const double truth = oracle::minkowski_signed_distance(wa, wb);
    const std::string what = "pose " + std::to_string(i);
    check(sat_box_box(box, ta, box, tb), wa, wb, truth, true, bb, "box_box " + what);
    check(sat_polytope_polytope(hull, ta, hull, tb), wa, wb, truth, false, pp, "hull_hull " + what);
    check(sat_box_polytope(box, ta, hull, tb), wa, wb, truth, false, bp, "box_hull " + what);
    check(sat_polytope_box(hull, ta, box, tb), wa, wb, truth, false, pb, "hull_box " + what);
  }
  print("box-box (15 axes)", bb);
  print("box-box as hulls (Gauss map)", pp);
  print("box-hull", bp);
  print("hull-box", pb);
  EXPECT_GT(bb.overlapping, poses / 4);
  EXPECT_GT(bb.separated, poses / 10);
}

// `n` random points on an ellipsoid with semi-axes `radii`.
std::vector<Vec3> ellipsoid_points(testing::Rng& rng, int n, const Vec3& radii) {
  std::vector<Vec3> p;
  for (int i = 0; i < n; ++i) p.push_back(radii.cwiseProduct(rng.unit_vector()));
  return p;
}

struct HullPairCase {
  const char* label;
  int na;
  Vec3 ra;
  int nb;
  Vec3 rb;
  int poses;       // overlapping poses to check
  int deep_every;  // translation check on every k-th overlapping pose
  unsigned seed;
};

void PrintTo(const HullPairCase& c, std::ostream* os) { *os << c.label; }

// One test per case so that ctest can run them side by side (the oracle on
// 200 × 200 vertices dominates the time).
class SatHulls : public ::testing::TestWithParam<HullPairCase> {};

TEST_P(SatHulls, AgainstOracle) {
  const HullPairCase& c = GetParam();
  testing::Rng rng(c.seed);
  const ConvexPolytope a(ellipsoid_points(rng, c.na, c.ra));
  const ConvexPolytope b(ellipsoid_points(rng, c.nb, c.rb));
  const double reach = c.ra.maxCoeff() + c.rb.maxCoeff();
  SatStats st;
  const int want = testing::scaled(c.poses);
  for (int i = 0; i < 20 * want && st.overlapping < want; ++i) {
    const Transform ta = rng.pose(0.6 * reach), tb = rng.pose(0.1);
    const std::vector<Vec3> wa = transformed(ta, a.vertices()), wb = transformed(tb, b.vertices());
    const double truth = oracle::minkowski_signed_distance(wa, wb);
    const bool deep = truth < 0.0 && st.overlapping % c.deep_every == 0;
    check(sat_polytope_polytope(a, ta, b, tb), wa, wb, truth, deep, st, std::string(c.label) + " pose " + std::to_string(i));
  }
  print(c.label, st);
  EXPECT_EQ(st.overlapping, want) << c.label;
}

INSTANTIATE_TEST_SUITE_P(
    Sat, SatHulls,
    ::testing::Values(
        HullPairCase{"hull10 / hull12 (spheres)", 10, Vec3(0.5, 0.5, 0.5), 12, Vec3(0.6, 0.6, 0.6), 2000, 1, 10},
        HullPairCase{"hull40 / hull25 (ellipsoids)", 40, Vec3(0.8, 0.4, 0.2), 25, Vec3(0.3, 0.5, 0.7), 2000, 1, 11},
        HullPairCase{"hull100 / hull60 (ellipsoid)", 100, Vec3(1.0, 0.5, 0.5), 60, Vec3(0.5, 0.5, 0.5), 2000, 10, 12},
        HullPairCase{"hull200 / hull200 (spheres)", 200, Vec3(0.5, 0.5, 0.5), 200, Vec3(0.7, 0.7, 0.7), 2000, 100, 13}),
    [](const ::testing::TestParamInfo<HullPairCase>& info) {
      return "hulls_" + std::to_string(info.param.na) + "_" + std::to_string(info.param.nb);
    });

TEST(Sat, BoxAgainstHullsAgainstOracle) {
  testing::Rng rng(31);
  const Box box(0.6, 1.0, 0.3);
  const std::vector<Vec3> corners = box_corners(Vec3(0.3, 0.5, 0.15));
  const ConvexPolytope hull(ellipsoid_points(rng, 60, Vec3(0.6, 0.4, 0.3)));
  SatStats bp, pb;
  const int want = testing::scaled(2000);
  for (int i = 0; i < 20 * want && bp.overlapping < want; ++i) {
    const Transform ta = rng.pose(0.7), tb = rng.pose(0.1);
    const std::vector<Vec3> wa = transformed(ta, corners), wb = transformed(tb, hull.vertices());
    const double truth = oracle::minkowski_signed_distance(wa, wb);
    const std::string what = "pose " + std::to_string(i);
    check(sat_box_polytope(box, ta, hull, tb), wa, wb, truth, truth < 0.0, bp, "box_hull " + what);
    check(sat_polytope_box(hull, tb, box, ta), wb, wa, truth, false, pb, "hull_box " + what);
  }
  print("box / hull60", bp);
  print("hull60 / box", pb);
  EXPECT_EQ(bp.overlapping, want);
}

// Hand cases with known answers, through the box–box and the hull code.
struct Hand {
  DistanceResult bb, pp;
};

Hand both(const Vec3& ha, const Transform& ta, const Vec3& hb, const Transform& tb) {
  const ConvexPolytope pa(box_corners(ha)), pb(box_corners(hb));
  return {sat_box_box(Box(2 * ha), ta, Box(2 * hb), tb), sat_polytope_polytope(pa, ta, pb, tb)};
}

TEST(Sat, FaceOnFace) {
  const Transform ta = Transform::from_translation(Vec3(0.3, -0.2, 1.9));
  for (const DistanceResult& r : {both(Vec3(1, 1, 1), ta, Vec3(1, 1, 1), Transform()).bb,
                                  both(Vec3(1, 1, 1), ta, Vec3(1, 1, 1), Transform()).pp}) {
    EXPECT_EQ(r.status, Status::ok);
    EXPECT_NEAR(r.distance, -0.1, 1e-15);
    EXPECT_NEAR((r.normal - Vec3::UnitZ()).norm(), 0.0, 1e-15);
    EXPECT_NEAR(r.point_a.z(), 0.9, 1e-15);  // A's bottom face, inside B
    EXPECT_NEAR(r.point_b.z(), 1.0, 1e-15);  // on B's top face
  }
}

TEST(Sat, EdgeCrossingEdgeAt45Degrees) {
  // A's lowest edge runs along x, B's highest along y; they cross 0.1 deep.
  const double s2 = std::sqrt(2.0);
  const Transform ta = Transform::from_axis_angle(Vec3::UnitX(), M_PI / 4, Vec3(0, 0, 2 * s2 - 0.1));
  const Transform tb = Transform::from_axis_angle(Vec3::UnitY(), M_PI / 4);
  const Hand h = both(Vec3(1, 1, 1), ta, Vec3(1, 1, 1), tb);
  for (const DistanceResult& r : {h.bb, h.pp}) {
    EXPECT_EQ(r.status, Status::ok);
    EXPECT_NEAR(r.distance, -0.1, 1e-14);
    EXPECT_NEAR((r.normal - Vec3::UnitZ()).norm(), 0.0, 1e-14);
    EXPECT_NEAR((r.point_a - Vec3(0, 0, s2 - 0.1)).norm(), 0.0, 1e-14);
    EXPECT_NEAR((r.point_b - Vec3(0, 0, s2)).norm(), 0.0, 1e-14);
  }
}

TEST(Sat, VertexIntoFace) {
  // A cube standing on a corner: (1,1,1)/√3 rotated to −z, that corner 0.05 into B's top face.
  const Quat q = Quat::FromTwoVectors(Vec3(1, 1, 1).normalized(), -Vec3::UnitZ());
  const double s3 = std::sqrt(3.0);
  const Transform ta = Transform::from_quaternion(q, Vec3(0.2, 0.1, 1 + s3 - 0.05));
  const Hand h = both(Vec3(1, 1, 1), ta, Vec3(2, 2, 1), Transform());
  for (const DistanceResult& r : {h.bb, h.pp}) {
    EXPECT_EQ(r.status, Status::ok);
    EXPECT_NEAR(r.distance, -0.05, 1e-14);
    EXPECT_NEAR((r.normal - Vec3::UnitZ()).norm(), 0.0, 1e-14);
    EXPECT_NEAR((r.point_a - Vec3(0.2, 0.1, 0.95)).norm(), 0.0, 1e-14);
    EXPECT_NEAR((r.point_b - Vec3(0.2, 0.1, 1.0)).norm(), 0.0, 1e-14);
  }
}

TEST(Sat, CoincidentBoxes) {
  // Full extent along the thinnest axis (y, size 1) in either direction.
  const Transform t = Transform::from_axis_angle(Vec3(1, 2, 3).normalized(), 0.7, Vec3(0.5, -1, 2));
  const Hand h = both(Vec3(1, 0.5, 1.5), t, Vec3(1, 0.5, 1.5), t);
  for (const DistanceResult& r : {h.bb, h.pp}) {
    EXPECT_EQ(r.status, Status::ok);
    EXPECT_NEAR(r.distance, -1.0, 1e-14);
    EXPECT_NEAR(std::abs(r.normal.dot(t.R.col(1))), 1.0, 1e-14);
    EXPECT_NEAR((r.point_b - (r.point_a + r.normal)).norm(), 0.0, 1e-14);
  }
}

TEST(Sat, OneInsideTheOther) {
  // A small cube deep inside a big one: leaving through +x is shortest (0.6).
  const Transform ta = Transform::from_translation(Vec3(1.5, 0.3, -0.2));
  const Hand h = both(Vec3(0.1, 0.1, 0.1), ta, Vec3(2, 2, 2), Transform());
  const Hand flipped = both(Vec3(2, 2, 2), Transform(), Vec3(0.1, 0.1, 0.1), ta);
  for (const DistanceResult& r : {h.bb, h.pp}) {
    EXPECT_EQ(r.status, Status::ok);
    EXPECT_NEAR(r.distance, -0.6, 1e-14);
    EXPECT_NEAR((r.normal - Vec3::UnitX()).norm(), 0.0, 1e-14);
    EXPECT_NEAR(r.point_b.x(), 2.0, 1e-14);
  }
  for (const DistanceResult& r : {flipped.bb, flipped.pp}) {
    EXPECT_NEAR(r.distance, -0.6, 1e-14);
    EXPECT_NEAR((r.normal + Vec3::UnitX()).norm(), 0.0, 1e-14);
    EXPECT_NEAR(r.point_a.x(), 2.0, 1e-14);
  }
}

TEST(Sat, MarginsAddToTheDepth) {
  const Transform ta = Transform::from_translation(Vec3(0, 0, 1.9));
  const DistanceResult r = sat_box_box(Box(Vec3(2, 2, 2), 0.05), ta, Box(Vec3(2, 2, 2), 0.02), Transform());
  EXPECT_NEAR(r.distance, -0.17, 1e-15);
  EXPECT_NEAR(r.point_a.z(), 0.85, 1e-15);
  EXPECT_NEAR(r.point_b.z(), 1.02, 1e-15);
  const ConvexPolytope pa(box_corners(Vec3(1, 1, 1)), 0.05), pb(box_corners(Vec3(1, 1, 1)), 0.02);
  const DistanceResult q = sat_polytope_polytope(pa, ta, pb, Transform());
  EXPECT_NEAR(q.distance, -0.17, 1e-15);
  EXPECT_NEAR((q.point_b - (q.point_a - q.distance * q.normal)).norm(), 0.0, 1e-15);
}

TEST(Sat, SeparatedGivesLowerBoundAndBadInputIsReported) {
  const Transform ta = Transform::from_translation(Vec3(0.5, 0.2, 2.3));
  const DistanceResult r = sat_box_box(Box(2, 2, 2), ta, Box(2, 2, 2), Transform());
  EXPECT_EQ(r.status, Status::ok);
  EXPECT_NEAR(r.distance, 0.3, 1e-15);  // face-on: the bound is the distance
  EXPECT_NEAR((r.normal - Vec3::UnitZ()).norm(), 0.0, 1e-15);

  Transform bad = ta;
  bad.p.x() = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(sat_box_box(Box(2, 2, 2), bad, Box(2, 2, 2), Transform()).status, Status::invalid_input);
  const ConvexPolytope cube(box_corners(Vec3(1, 1, 1)));
  const DistanceResult nb = sat_polytope_polytope(cube, bad, cube, Transform());
  EXPECT_EQ(nb.status, Status::invalid_input);
  EXPECT_TRUE(std::isfinite(nb.distance));

  // Segment and point cores have no faces: not handled here.
  const ConvexPolytope segment(std::vector<Vec3>{{0, 0, 0}, {1, 1, 0}}, 0.01);
  const ConvexPolytope point(std::vector<Vec3>{{0, 0, 0}}, 0.01);
  const DistanceResult ns = sat_polytope_polytope(segment, Transform(), cube, Transform());
  EXPECT_EQ(ns.status, Status::not_implemented);
  EXPECT_TRUE(std::isfinite(ns.distance));
  EXPECT_EQ(sat_box_polytope(Box(2, 2, 2), Transform(), point, Transform()).status, Status::not_implemented);
  EXPECT_EQ(sat_polytope_box(segment, Transform(), Box(2, 2, 2), Transform()).status, Status::not_implemented);
}

// Rounded boxes whose cores are apart while the margins overlap: the SAT's
// best axis is only a lower bound on the cores' distance there, and
// signed_distance and contacts used to take it as the answer (a fuzz
// finding: −8.9 m for a pair 2.5 m apart). Against the explicit Minkowski
// difference of the core corners, less the margins.
TEST(Sat, RoundedBoxesWithCoresApartAreMeasuredNotBounded) {
  testing::Rng rng(2611);
  int checked = 0, margins_overlap = 0;
  for (int i = 0; i < testing::scaled(2000); ++i) {
    const Vec3 ha = rng.uniform_vec(0.01, 1.0), hb = rng.uniform_vec(0.01, 1.0);
    const double ra = rng.uniform(0.0, 1.0), rb = rng.uniform(0.0, 1.0);
    const Box a(2.0 * ha, ra), b(2.0 * hb, rb);
    const Transform ta = rng.pose(2.5), tb = rng.pose(0.5);
    const double truth = oracle::minkowski_signed_distance(transformed(ta, box_corners(ha)),
                                                           transformed(tb, box_corners(hb))) - ra - rb;
    const DistanceResult r = signed_distance(Shape(a), ta, Shape(b), tb);
    ASSERT_EQ(r.status, Status::ok);
    EXPECT_NEAR(r.distance, truth, 1e-9) << i;
    ContactOptions options;
    options.margin = 10.0;
    const ContactSet c = contacts(Shape(a), ta, Shape(b), tb, options);
    EXPECT_NEAR(c.distance, truth, 1e-9) << i;
    ++checked;
    if (truth < 0.0 && truth + ra + rb > 0.0) ++margins_overlap;
  }
  std::printf("  rounded boxes: %d poses, %d with cores apart and margins overlapping\n", checked, margins_overlap);
  EXPECT_GT(margins_overlap, checked / 20);
  // The pose the fuzzer found.
  Transform ta = Transform::from_translation(Vec3(-50.588235294117645, 1, 0));
  ta.R << -0.99999984422292321, 0.00032296622224305647, 0.00045524383387481244, 0.00045524383387481244,
      -7.3514196285984212e-08, 0.99999989637651776, 0.00032296622224305647, 0.99999994784640545, -7.3514196285984212e-08;
  const Transform tb = Transform::from_axis_angle(Vec3(0, 1, 1), 3.141592653589793,
                                                  Vec3(-44.705882352941174, 44.705882352941174, 44.705882352941174));
  const Vec3 ha(0.0046035706111240415, 2.9005874723430267, 10.850690470740822);
  const Vec3 hb(33.66521705958648, 0.4013427939269092, 0.00390630960555427);
  const double ra = 49.317158770122838, rb = 0.99931334401464866;
  const double truth = oracle::minkowski_signed_distance(transformed(ta, box_corners(ha)),
                                                         transformed(tb, box_corners(hb))) - ra - rb;
  EXPECT_GT(truth, 2.0);
  const DistanceResult r = signed_distance(Shape(Box(2.0 * ha, ra)), ta, Shape(Box(2.0 * hb, rb)), tb);
  EXPECT_NEAR(r.distance, truth, 1e-8);
}

// The paper's loop (Alg. 1–2): every face normal and every normalized edge
// cross product, both bodies projected in full, the smaller of the two
// overlaps per axis. O(n³); a reference for the pruned code only.
double unpruned_depth(const ConvexPolytope& a, const Transform& ta, const ConvexPolytope& b, const Transform& tb) {
  const std::vector<Vec3> wa = transformed(ta, a.vertices()), wb = transformed(tb, b.vertices());
  double best = std::numeric_limits<double>::infinity();
  auto project = [&](const Vec3& n) {
    double lo_a = std::numeric_limits<double>::infinity(), hi_a = -lo_a, lo_b = lo_a, hi_b = -lo_a;
    for (const Vec3& p : wa) { lo_a = std::min(lo_a, n.dot(p)); hi_a = std::max(hi_a, n.dot(p)); }
    for (const Vec3& p : wb) { lo_b = std::min(lo_b, n.dot(p)); hi_b = std::max(hi_b, n.dot(p)); }
    best = std::min(best, std::min(hi_a - lo_b, hi_b - lo_a));
  };
  for (const Vec3& n : a.data().face_normals) project(ta.rotate(n));
  for (const Vec3& n : b.data().face_normals) project(tb.rotate(n));
  for (const auto& ea : a.data().edges) {
    const Vec3 da = wa[ea[1]] - wa[ea[0]];
    for (const auto& eb : b.data().edges) {
      const Vec3 c = da.cross(wb[eb[1]] - wb[eb[0]]);
      if (c.norm() > 1e-12) project(c.normalized());
    }
  }
  return -best;
}

// The classic Gauss-map test on every edge pair: the arc of A's edge (its
// two face normals) crosses the arc of −B's edge (B's face normals negated).
// Counts the pairs that pass; the library's walk must find as many.
long classic_gauss_pairs(const ConvexPolytope& a, const Transform& ta, const ConvexPolytope& b, const Transform& tb) {
  long count = 0;
  const PolytopeData &da = a.data(), &db = b.data();
  for (const auto& fa : da.edge_faces) {
    const Vec3 p = ta.rotate(da.face_normals[fa[0]]), q = ta.rotate(da.face_normals[fa[1]]);
    for (const auto& fb : db.edge_faces) {
      const Vec3 r = -tb.rotate(db.face_normals[fb[0]]), s = -tb.rotate(db.face_normals[fb[1]]);
      const Vec3 pq = p.cross(q), rs = r.cross(s);
      // r, s on opposite sides of p–q's great circle and vice versa, and the
      // crossing on the minor arcs (not its antipode).
      const double r_pq = r.dot(pq), s_pq = s.dot(pq), p_rs = p.dot(rs), q_rs = q.dot(rs);
      if (r_pq * s_pq < 0.0 && p_rs * q_rs < 0.0 && r_pq * q_rs > 0.0) ++count;
    }
  }
  return count;
}

TEST(Sat, GaussMapPruningMatchesUnprunedLoop) {
  testing::Rng rng(99);
  const ConvexPolytope a(rng.sphere_points(200, 0.5)), b(ellipsoid_points(rng, 200, Vec3(0.7, 0.5, 0.4)));
  ASSERT_EQ(a.vertices().size(), 200u);
  const int poses = testing::scaled(8);
  double max_diff = 0.0, max_fraction = 0.0;
  for (int i = 0; i < poses; ++i) {
    const Transform ta = rng.pose(0.5), tb = rng.pose(0.1);
    narrow::SatStats st;
    const DistanceResult r = sat_polytope_polytope(a, ta, b, tb, st);
    ASSERT_EQ(r.status, Status::ok);
    ASSERT_LT(r.distance, 0.0);
    const long all_pairs = static_cast<long>(a.data().edges.size()) * static_cast<long>(b.data().edges.size());
    const double fraction = static_cast<double>(st.edge_pairs) / static_cast<double>(all_pairs);
    max_fraction = std::max(max_fraction, fraction);
    EXPECT_LT(fraction, 0.10) << "pose " << i;
    const long classic = classic_gauss_pairs(a, ta, b, tb);
    EXPECT_EQ(st.edge_axes, classic) << "pose " << i;
    const double ref = unpruned_depth(a, ta, b, tb);
    max_diff = std::max(max_diff, std::abs(ref - r.distance));
    EXPECT_NEAR(r.distance, ref, 1e-12) << "pose " << i;
    if (i == 0) {
      std::printf("200x200 hulls: |E_A| = %zu, |E_B| = %zu, all pairs %ld, looked at %ld (%.3f%%), "
                  "arcs crossing %ld (classic test: %ld)\n",
                  a.data().edges.size(), b.data().edges.size(), all_pairs, st.edge_pairs, 100.0 * fraction,
                  st.edge_axes, classic);
    }
  }
  std::printf("pruned vs unpruned over %d poses: max |diff| %.3g, max fraction of pairs looked at %.3f%%\n", poses,
              max_diff, 100.0 * max_fraction);
}

// Flat polygons (with a margin) against solid hulls and each other; the
// oracle works on the cores, so the margins are taken off the result first.
DistanceResult core_of(DistanceResult r, double ra, double rb) {
  r.distance += ra + rb;
  r.point_a += ra * r.normal;
  r.point_b -= rb * r.normal;
  return r;
}

std::vector<Vec3> flat_points(testing::Rng& rng, int n, double radius) {
  std::vector<Vec3> p;
  for (int i = 0; i < n; ++i) {
    const double t = rng.uniform(0.0, 2 * M_PI);
    p.emplace_back(radius * std::cos(t), 0.7 * radius * std::sin(t), 0.0);
  }
  return p;
}

TEST(Sat, FlatPolygonsAgainstOracle) {
  testing::Rng rng(57);
  const double m = 1e-3;
  const ConvexPolytope flat_a(flat_points(rng, 9, 0.6), m), flat_b(flat_points(rng, 6, 0.5), m);
  const ConvexPolytope solid(ellipsoid_points(rng, 30, Vec3(0.5, 0.4, 0.3)));
  ASSERT_EQ(flat_a.data().dimension, 2);
  struct Case {
    const char* label;
    const ConvexPolytope& a;
    const ConvexPolytope& b;
  };
  for (const Case& c : {Case{"flat / solid", flat_a, solid}, Case{"solid / flat", solid, flat_a},
                        Case{"flat / flat", flat_a, flat_b}}) {
    SatStats st;
    const int want = testing::scaled(c.a.data().dimension + c.b.data().dimension == 4 ? 300 : 1000);
    for (int i = 0; i < 50 * want && st.overlapping < want; ++i) {
      const Transform ta = rng.pose(0.5), tb = rng.pose(0.1);
      const std::vector<Vec3> wa = transformed(ta, c.a.vertices()), wb = transformed(tb, c.b.vertices());
      const double truth = oracle::minkowski_signed_distance(wa, wb);
      const DistanceResult r = sat_polytope_polytope(c.a, ta, c.b, tb);
      check(core_of(r, c.a.margin(), c.b.margin()), wa, wb, truth, truth < 0.0, st,
            std::string(c.label) + " pose " + std::to_string(i));
    }
    print(c.label, st);
    EXPECT_EQ(st.overlapping, want) << c.label;
  }
}

}  // namespace
}  // namespace proxima
