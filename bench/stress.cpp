// SPDX-License-Identifier: BSD-3-Clause
// proxima-stress: the robustness target. For every ordered pair of shape
// types, N random overlapping poses through signed_distance (automatic
// method): no throw, no NaN, no wrong sign, no hang, and every `ok` answer's
// witness points on their shapes (point_a on A, point_b on B, within 1e-6 m,
// and point_a − point_b = distance · normal) and its normal a supporting
// plane's (the planes of A and B along it the distance apart; for mpr's
// `upper_bound`, at least that far), checked by closed forms of each shape
// (witness_check.hpp). Overlap is certain by construction: each shape
// contains the ball of radius r_in about its origin, and the origins are
// placed closer than 0.9 (r_in(A) + r_in(B)).
// --method forces gjk_epa, incremental, sat or mpr on the same poses, for
// comparison (a method that does not apply to a pair answers
// not_implemented, counted as not ok).
// --query time_of_impact stresses time_of_impact instead: random motions
// (both bodies move and turn, half of them aimed at each other); a query
// fails on NaN, a throw, a status other than ok (not_converged, the safe
// answer at the iteration cap, is counted apart), a reported time whose
// distance is not within the accuracy, or a contact at one of 16 sampled
// earlier times (a contact stepped over).
// --query distance stresses distance on poses from deep overlap to well
// apart, each answer checked against a certificate written here: apart, the
// witnesses on their shapes `distance` apart and the supporting planes across
// the normal as far apart (the planes bound the distance from below, the
// witnesses from above, so together they prove it); overlapping, point_a a
// point of both shapes and the normal one of least penetration (no direction
// of the shapes' frames has their supporting planes overlap less). A proven
// distance d then checks tolerance(): within at d (1 + 1e-6) + 1e-9, not
// within at d (1 − 1e-6) − 1e-9; and collide() must agree with a proven
// overlap, or with a proven distance above 1e-9.
// --query contacts stresses contacts() (contact margin 5 cm) on the same
// poses as distance's and, one in two, on A resting on B give or take (a
// face, a cap or a side on B's, within ±3 cm): the set's distance proven as
// above (within the margin the deepest point's two surface points are the
// witnesses); points exactly when the pair is within the margin; each point
// with the set's normal, midway between a point of A's surface and one of
// B's, each on its body's contact feature (within the feature tolerance of
// the supporting plane), never deeper than the pair, the deepest as deep;
// a set flagged bound_exceeded empty, its distance above the margin and
// below signed_distance's witnesses' (checked on the shapes) distance.
// --margins gives every shape a margin, in every query.
// --seed S draws other poses (and another 200-point hull): the generators
// of the three query kinds start at S, S + 1 and S + 2 and the hull's at
// S − 2019; the default S = 2026 gives the runs of docs/stress.md.
// Exit status 1 when any query fails one of the checks, 2 for a refused
// command line.
// A progress line over the pairs is drawn on stderr when it is a terminal
// (--quiet: none), redrawn between queries, never inside a timed call.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <proxima/query.hpp>

#include "arguments.hpp"
#include "draws.hpp"
#include "progress.hpp"
#include "witness_check.hpp"

namespace {

using namespace proxima;
using proxima::bench::draw_quat;
using proxima::bench::draw_vec3;

struct Entry {
  std::string label;
  Shape shape;
  double r_in;   ///< radius of a ball about the origin inside the shape
  double r_out;  ///< radius of a ball about the origin holding the shape (0: a halfspace)
};

double polytope_inradius(const ConvexPolytope& p) {
  const PolytopeData& d = p.data();
  double r = INFINITY;
  for (double c : d.face_offsets) r = std::min(r, c);
  return r + p.margin();
}

// `margined`: every shape with a margin (the capsule's and the cone's are
// there either way); the radii grow by it.
std::vector<Entry> shapes(bool margined, unsigned hull_seed) {
  std::mt19937 g(hull_seed);
  std::normal_distribution<double> n;
  std::vector<Vec3> pts;
  for (int i = 0; i < 200; ++i) pts.push_back(0.4 * draw_vec3(n, g).normalized());
  const double m = margined ? 1.0 : 0.0;
  const ConvexPolytope poly(pts, 0.03 * m);
  // Cone r 0.3, height 0.6, origin mid-height: the side line passes 0.134 m
  // from the origin (nearer than the base, 0.3 m); plus the 0.02 margin.
  const double cone_in = 0.09 / std::hypot(0.6, 0.3) + 0.02;
  return {{"sphere", Sphere(0.3, 0.05 * m), 0.3 + 0.05 * m, 0.3 + 0.05 * m},
          {"capsule", Capsule(0.2, 0.6, 0.01), 0.21, 0.51},
          {"cylinder", Cylinder(0.3, 0.7, 0.04 * m), 0.3 + 0.04 * m, std::hypot(0.3, 0.35) + 0.04 * m},
          {"cone", Cone(0.3, 0.6, 0.02), cone_in, std::hypot(0.3, 0.3) + 0.02},
          {"box", Box(0.6, 0.4, 0.8, 0.05 * m), 0.2 + 0.05 * m, std::sqrt(0.09 + 0.04 + 0.16) + 0.05 * m},
          {"ellipsoid", Ellipsoid(Vec3(0.4, 0.25, 0.15), 0.03 * m), 0.15 + 0.03 * m, 0.4 + 0.03 * m},
          {"halfspace", Halfspace(Vec3(0.3, -0.2, 1.0), 0.0, 0.02 * m), 0.0, 0.0},
          {"convex200", poly, polytope_inradius(poly), 0.4 + 0.03 * m}};
}

struct Tally {
  long queries = 0, not_ok = 0, non_finite = 0, wrong_sign = 0, threw = 0, witness_off = 0, bad_normal = 0;
  long not_applicable = 0;  // not_implemented: the method does not apply to the pair (sat on curved shapes)
  double max_ns = 0.0, total_ns = 0.0;
};

// Metres, for these metre-sized shapes: EPA's depth on curved pairs is good
// to about 1e-7 of the size, the exact methods to rounding.
constexpr double kWitnessTolerance = 1e-6;

struct ToiTally {
  long queries = 0, not_ok = 0, capped = 0, non_finite = 0, late = 0, missed = 0, threw = 0, hits = 0;
  double max_ns = 0.0, total_ns = 0.0;
};

struct DistanceTally {
  long queries = 0, apart = 0, overlapping = 0, not_ok = 0, non_finite = 0, witness_off = 0, bad_normal = 0;
  long common_off = 0, bad_overlap_normal = 0, tolerance_off = 0, collide_off = 0, threw = 0;
  double max_ns = 0.0, apart_ns = 0.0, overlapping_ns = 0.0;
};

struct ContactTally {
  long queries = 0, overlapping = 0, beyond = 0, with_points = 0, points = 0, not_ok = 0, non_finite = 0;
  long distance_off = 0;
  long set_off = 0, point_off = 0, feature_off = 0, deepest_off = 0, threw = 0;
  double max_ns = 0.0, total_ns = 0.0;
};

// The progress line's position: pair `pair` of the run, query q of `queries`.
// Redrawn every 1024 queries (Progress itself draws at most five times a second).
void advance(apps::Progress& line, double pair, long q, long queries, const std::string& note) {
  if (q % 1024 == 0) line.update(pair + static_cast<double>(q) / static_cast<double>(queries), note);
}

Transform random_pose(std::mt19937_64& g, std::normal_distribution<double>& n, const Vec3& p) {
  const Quat q = draw_quat(n, g);
  return Transform::from_quaternion(q, p);
}

void stress_time_of_impact(const Entry& a, const Entry& b, long queries, std::mt19937_64& g, ToiTally& t,
                           apps::Progress& line, double pair, const std::string& note) {
  std::normal_distribution<double> n;
  std::uniform_real_distribution<double> u(0.0, 1.0);
  const TimeOfImpactRequest req;
  for (long q = 0; q < queries; ++q) {
    advance(line, pair, q, queries, note);
    const Vec3 pb0 = draw_vec3(n, g);
    const Transform b0 = random_pose(g, n, pb0);
    const Vec3 pb1 = pb0 + 0.5 * draw_vec3(n, g);
    const Transform b1 = random_pose(g, n, pb1);
    const Vec3 pa0 = pb0 + 2.0 * draw_vec3(n, g);
    const Transform a0 = random_pose(g, n, pa0);
    const Vec3 miss = 0.3 * draw_vec3(n, g);
    // Aimed: A reaches where B is half-way, give or take `miss`.
    const Vec3 pa1 = q % 2 == 0 ? Vec3(pa0 + 2.0 * (0.5 * (pb0 + pb1) - pa0) + miss) : Vec3(pa0 + miss);
    const Transform a1 = random_pose(g, n, pa1);
    ++t.queries;
    try {
      const auto start = std::chrono::steady_clock::now();
      const TimeOfImpactResult r = time_of_impact(a.shape, a0, a1, b.shape, b0, b1, req);
      const double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
      t.total_ns += ns;
      t.max_ns = std::max(t.max_ns, ns);
      if (!std::isfinite(r.time) || !std::isfinite(r.witness.distance) || !r.witness.normal.allFinite() ||
          !r.witness.point_a.allFinite() || !r.witness.point_b.allFinite()) {
        ++t.non_finite;
        continue;
      }
      // not_converged is the documented safe answer (collide, time a lower
      // bound): counted, not a failure.
      if (r.status == Status::not_converged && r.collide) {
        ++t.capped;
        continue;
      }
      if (r.status != Status::ok) {
        ++t.not_ok;
        continue;
      }
      const RigidMotion ma = RigidMotion::between(a0, a1), mb = RigidMotion::between(b0, b1);
      const double end = r.collide ? r.time : 1.0;
      for (int i = 0; i < 16; ++i) {
        const double s = end * (i + (r.collide ? 0.0 : 1.0)) / 16.0;
        if (s < end && collide(a.shape, ma.at(s), b.shape, mb.at(s)).collide) {
          ++t.missed;
          break;
        }
      }
      if (r.collide) {
        ++t.hits;
        const DistanceResult d = distance(a.shape, ma.at(r.time), b.shape, mb.at(r.time));
        if (r.time > 0.0 && d.distance > req.accuracy + 1e-9) ++t.late;
      }
    } catch (...) {
      ++t.threw;
    }
  }
}

// Whether `normal` (B→A) is one of least penetration for an overlapping
// pair: no direction tried has the supporting planes overlap less than along
// it. Tried: the 26 axis, edge and corner directions of each shape's frame,
// and a halfspace's normal.
bool least_penetration(const Entry& a, const Transform& pa, const Entry& b, const Transform& pb, const Vec3& normal) {
  auto gap = [&](const Vec3& u) { return bench::planes_gap(a.shape, pa, b.shape, pb, u); };
  const double along = gap(normal);
  double best = along;
  for (const Transform* f : {&pa, &pb})
    for (int x = -1; x <= 1; ++x)
      for (int y = -1; y <= 1; ++y)
        for (int z = -1; z <= 1; ++z)
          if (x != 0 || y != 0 || z != 0) best = std::max(best, gap(f->rotate(Vec3(x, y, z).normalized())));
  for (const Entry* e : {&a, &b}) {
    if (e->shape.type() != ShapeType::halfspace) continue;
    const Vec3 k = (e == &a ? pa : pb).rotate(e->shape.as<Halfspace>().normal());
    best = std::max({best, gap(k), gap(-k)});
  }
  return along >= best - kWitnessTolerance;
}

// One distance answer against its certificate (the file's head); true when it
// passes. The planes across the normal must be the distance apart to the
// witness tolerance at every distance, touching included: the normal is the
// direction GJK's last support call probed, whose planes its duality gap
// proves, not the witnesses' difference, whose direction near touching is
// GJK's accuracy over the distance.
bool certify_distance(const Entry& a, const Transform& pa, const Entry& b, const Transform& pb,
                      const DistanceResult& r, DistanceTally& t) {
  if (r.distance > 0.0) {
    ++t.apart;
    bool good = true;
    if (!bench::witnesses_on_shapes(a.shape, pa, b.shape, pb, r, kWitnessTolerance)) {
      ++t.witness_off;
      good = false;
    }
    const double gap = bench::planes_gap(a.shape, pa, b.shape, pb, r.normal);
    if (!(std::abs(gap - r.distance) <= kWitnessTolerance)) {
      ++t.bad_normal;
      good = false;
    }
    return good;
  }
  ++t.overlapping;
  const bool common = bench::point_signed_distance(a.shape, pa, r.point_a) <= kWitnessTolerance &&
                      bench::point_signed_distance(b.shape, pb, r.point_a) <= kWitnessTolerance &&
                      (r.point_a - r.point_b).norm() <= 1e-9;
  if (!common) ++t.common_off;
  const bool least = least_penetration(a, pa, b, pb, r.normal);
  if (!least) ++t.bad_overlap_normal;
  return common && least;
}

void stress_distance(const Entry& a, const Entry& b, long queries, std::mt19937_64& g, DistanceTally& t,
                     apps::Progress& line, double pair, const std::string& note) {
  std::normal_distribution<double> n;
  std::uniform_real_distribution<double> u(0.0, 1.0);
  // The origins from together to 1.25 times the outer radii apart (a
  // halfspace's plane passes through its origin): about as many poses
  // overlap as not, many of them near touching.
  const double reach = 1.25 * (a.r_out + b.r_out);
  for (long q = 0; q < queries; ++q) {
    advance(line, pair, q, queries, note);
    const Transform pb = random_pose(g, n, draw_vec3(n, g));
    const Transform pa = random_pose(g, n, pb.p + u(g) * reach * draw_vec3(n, g).normalized());
    ++t.queries;
    try {
      const auto start = std::chrono::steady_clock::now();
      const DistanceResult r = distance(a.shape, pa, b.shape, pb);
      const double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
      (r.distance > 0.0 ? t.apart_ns : t.overlapping_ns) += ns;
      t.max_ns = std::max(t.max_ns, ns);
      if (!std::isfinite(r.distance) || !r.normal.allFinite() || !r.point_a.allFinite() || !r.point_b.allFinite() ||
          std::abs(r.normal.norm() - 1.0) > 1e-9 || r.distance < 0.0) {
        ++t.non_finite;
        continue;
      }
      if (r.status != Status::ok) {
        ++t.not_ok;
        continue;
      }
      if (!certify_distance(a, pa, b, pb, r, t)) continue;
      const double d = r.distance;
      if ((d == 0.0 || d > 1e-9) && collide(a.shape, pa, b.shape, pb).collide != (d == 0.0)) ++t.collide_off;
      if (!(d > 1e-6)) continue;
      if (!tolerance(a.shape, pa, b.shape, pb, d * (1.0 + 1e-6) + 1e-9).within ||
          tolerance(a.shape, pa, b.shape, pb, d * (1.0 - 1e-6) - 1e-9).within)
        ++t.tolerance_off;
    } catch (...) {
      ++t.threw;
    }
  }
}

// A pose of A resting on B, give or take: A turned from B's frame by one of
// the 24 rotations of a cube and a tilt of up to 1e-7 rad (inside the
// manifold's feature tolerance), moved sideways at random, and its
// supporting plane along one of B's axes (a halfspace's normal) within
// ±3 cm of B's. Face on face for boxes, cap on cap or face for cylinders.
Transform resting_pose(const Entry& a, const Entry& b, const Transform& pb, std::mt19937_64& g,
                       std::normal_distribution<double>& n, std::uniform_real_distribution<double>& u) {
  static const int kPerm[6][3] = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1}, {0, 2, 1}, {2, 1, 0}, {1, 0, 2}};
  const int k = static_cast<int>(6.0 * u(g)) % 6;
  Mat3 rel = Mat3::Zero();
  double sign[3];
  for (double& x : sign) x = u(g) < 0.5 ? -1.0 : 1.0;
  for (int i = 0; i < 3; ++i) rel(kPerm[k][i], i) = sign[i];
  if (rel.determinant() < 0.0) rel.col(2) = -rel.col(2);  // odd permutations and flips: a rotation
  const Vec3 axis = draw_vec3(n, g).normalized();
  const Mat3 tilt = Eigen::AngleAxisd(1e-7 * u(g), axis).toRotationMatrix();
  Transform pa;
  pa.R = pb.R * rel * tilt;
  Vec3 along;
  if (b.shape.type() == ShapeType::halfspace) {
    along = pb.rotate(b.shape.as<Halfspace>().normal()).normalized();
  } else if (a.shape.type() == ShapeType::halfspace) {
    along = -pa.rotate(a.shape.as<Halfspace>().normal()).normalized();
  } else {
    along = pb.R.col(static_cast<int>(3.0 * u(g)) % 3) * (u(g) < 0.5 ? -1.0 : 1.0);
  }
  Vec3 side = draw_vec3(n, g);
  side -= side.dot(along) * along;
  pa.p = pb.p + 0.5 * std::min(a.r_out > 0.0 ? a.r_out : 1.0, b.r_out > 0.0 ? b.r_out : 1.0) * u(g) * side;
  const double gap = bench::planes_gap(a.shape, pa, b.shape, pb, along);
  if (std::isfinite(gap)) pa.p += (-gap + 0.03 * (2.0 * u(g) - 1.0)) * along;
  return pa;
}

// One contact set against the certificate of the file's head; counts what
// fails in `t`.
void certify_contacts(const Entry& a, const Transform& pa, const Entry& b, const Transform& pb,
                      const ContactOptions& opt, const ContactSet& set, ContactTally& t) {
  const Vec3& nrm = set.normal;
  const double d = set.distance;
  if (d < 0.0) ++t.overlapping;
  if (set.bound_exceeded) {
    // Proven farther apart than the margin: no points, and a lower bound
    // above the margin, which no pair of points of the two shapes may
    // undercut (signed_distance's witnesses, once checked on the shapes).
    ++t.beyond;
    const DistanceResult sd = signed_distance(a.shape, pa, b.shape, pb);
    if (!set.points.empty() || !(d > opt.margin) ||
        !bench::witnesses_on_shapes(a.shape, pa, b.shape, pb, sd, kWitnessTolerance) ||
        !(d <= (sd.point_a - sd.point_b).norm() + kWitnessTolerance))
      ++t.distance_off;
    return;
  }
  // The distance, proven as distance's answers are: the planes across the
  // normal are d apart; overlapping, no direction overlaps less; apart, the
  // deepest contact's two surface points are d apart (checked below).
  const double gap = bench::planes_gap(a.shape, pa, b.shape, pb, nrm);
  bool distance_good = std::abs(gap - d) <= kWitnessTolerance;
  if (d < 0.0 && !least_penetration(a, pa, b, pb, nrm)) distance_good = false;
  // Points exactly when the pair is within the margin (a band of rounding
  // around it either way).
  if ((d < opt.margin - 1e-9 && set.points.empty()) || (d > opt.margin + 1e-9 && !set.points.empty())) ++t.set_off;
  if (set.points.empty()) {
    if (!distance_good) ++t.distance_off;
    return;
  }
  ++t.with_points;
  t.points += static_cast<long>(set.points.size());
  // Every point: the set's normal; midway between A's surface and B's, each
  // on its body's contact feature (within the feature tolerance of the
  // supporting plane across the normal); never deeper than the pair.
  const double low_a = -bench::support_value(a.shape, pa, -nrm), high_b = bench::support_value(b.shape, pb, nrm);
  const double band = opt.feature_tolerance * 2.0 * std::max(a.r_out, b.r_out) + kWitnessTolerance;
  double deepest = -std::numeric_limits<double>::infinity();
  bool point_good = true, feature_good = true;
  for (const Contact& c : set.points) {
    const Vec3 on_a = c.point - 0.5 * c.depth * nrm, on_b = c.point + 0.5 * c.depth * nrm;
    if ((c.normal - nrm).norm() > 1e-12 || !(c.depth <= -d + kWitnessTolerance) ||
        !(std::abs(bench::point_signed_distance(a.shape, pa, on_a)) <= kWitnessTolerance) ||
        !(std::abs(bench::point_signed_distance(b.shape, pb, on_b)) <= kWitnessTolerance))
      point_good = false;
    if (!(nrm.dot(on_a) - low_a <= band) || !(high_b - nrm.dot(on_b) <= band)) feature_good = false;
    deepest = std::max(deepest, c.depth);
  }
  // The deepest point is the pair's: its depth is the signed distance's.
  if (!(std::abs(deepest + d) <= kWitnessTolerance)) ++t.deepest_off;
  if (!distance_good) ++t.distance_off;
  if (!point_good) ++t.point_off;
  if (!feature_good) ++t.feature_off;
}

void stress_contacts(const Entry& a, const Entry& b, long queries, std::mt19937_64& g, ContactTally& t,
                     apps::Progress& line, double pair, const std::string& note) {
  std::normal_distribution<double> n;
  std::uniform_real_distribution<double> u(0.0, 1.0);
  const double reach = 1.25 * (a.r_out + b.r_out);
  ContactOptions opt;
  opt.margin = 0.05;
  ContactSet set;
  for (long q = 0; q < queries; ++q) {
    advance(line, pair, q, queries, note);
    const Transform pb = random_pose(g, n, draw_vec3(n, g));
    // Half the poses at random from overlapping to apart, as distance's;
    // half resting, where the manifold has several points.
    const Transform pa = q % 2 == 0 ? random_pose(g, n, pb.p + u(g) * reach * draw_vec3(n, g).normalized())
                                    : resting_pose(a, b, pb, g, n, u);
    ++t.queries;
    try {
      const auto start = std::chrono::steady_clock::now();
      contacts(a.shape, pa, b.shape, pb, opt, set);
      const double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
      t.total_ns += ns;
      t.max_ns = std::max(t.max_ns, ns);
      bool finite = std::isfinite(set.distance) && set.normal.allFinite() && std::abs(set.normal.norm() - 1.0) <= 1e-9;
      for (const Contact& c : set.points) finite = finite && c.point.allFinite() && std::isfinite(c.depth);
      if (!finite) {
        ++t.non_finite;
        continue;
      }
      if (set.status != Status::ok) {
        ++t.not_ok;
        continue;
      }
      certify_contacts(a, pa, b, pb, opt, set, t);
    } catch (...) {
      ++t.threw;
    }
  }
}

// Runs `run(a, b, pair index, "a-b")` on every ordered pair of `all` but two
// halfspaces; it stresses the pair and prints its row. True when any failed.
template <class Run>
bool each_pair(const std::vector<Entry>& all, Run&& run) {
  bool failed = false;
  double index = 0.0;
  for (const Entry& a : all) {
    for (const Entry& b : all) {
      // Two halfspaces overlap without bound (and turning, have no speed bound).
      if (a.shape.type() == ShapeType::halfspace && b.shape.type() == ShapeType::halfspace) continue;
      failed = run(a, b, index++, a.label + "-" + b.label) || failed;
      std::fflush(stdout);
    }
  }
  return failed;
}

constexpr const char* kUsage =
    "usage: proxima-stress [--queries N] [--markdown] [--method auto|gjk_epa|incremental|sat|mpr]"
    " [--query signed_distance|distance|time_of_impact|contacts] [--margins] [--seed S] [--quiet]\n"
    "  --queries N  random queries per pair of shape types, 1 to 1000000000 (default 1000000)\n"
    "  --query      signed_distance on overlapping poses (default), distance from overlapping to well apart,\n"
    "               time_of_impact on random motions, or contacts (margin 5 cm) on distance's poses and resting\n"
    "               ones; --method applies to signed_distance only\n"
    "  --margins    every shape with a margin (sphere 0.05, cylinder 0.04, box 0.05, ellipsoid 0.03, halfspace 0.02,\n"
    "               polytope 0.03 m; the capsule's 0.01 and the cone's 0.02 either way)\n"
    "  --seed S     other random poses and hull, 0 to 4294967295 (default 2026, the documented runs)\n"
    "  --quiet      no progress line on stderr (drawn only when stderr is a terminal)\n";

}  // namespace

int main(int argc, char** argv) {
  long queries = 1000000;
  bool markdown = false, show_progress = true, margined = false;
  DistanceRequest request;  // automatic unless --method forces one (the same poses either way)
  bool toi = false, plain_distance = false, contact_sets = false, method_given = false;
  unsigned long long seed = 2026;
  try {
    bench::Arguments args(argc, argv);
    while (args.next()) {
      if (args.is("--query")) {
        const std::string q = args.text();
        if (q != "signed_distance" && q != "distance" && q != "time_of_impact" && q != "contacts")
          throw bench::BadArgument("--query must be signed_distance, distance, time_of_impact or contacts, not '" +
                                   q + "'");
        toi = q == "time_of_impact";
        plain_distance = q == "distance";
        contact_sets = q == "contacts";
      } else if (args.is("--queries")) {
        queries = static_cast<long>(args.integer(1, 1000000000));
      } else if (args.is("--markdown")) {
        markdown = true;
      } else if (args.is("--method")) {
        const std::string m = args.text();
        method_given = true;
        if (m == "auto") request.method = Method::automatic;
        else if (m == "gjk_epa") request.method = Method::gjk;
        else if (m == "incremental") request.method = Method::incremental;
        else if (m == "sat") request.method = Method::sat;
        else if (m == "mpr") request.method = Method::mpr;
        else throw bench::BadArgument("--method must be auto, gjk_epa, incremental, sat or mpr, not '" + m + "'");
      } else if (args.is("--margins")) {
        margined = true;
      } else if (args.is("--seed")) {
        seed = static_cast<unsigned long long>(args.integer(0, 4294967295LL));
      } else if (args.is("--quiet")) {
        show_progress = false;
      } else if (args.is("--help") || args.is("-h")) {
        std::fputs(kUsage, stdout);
        return 0;
      } else {
        args.unknown();
      }
    }
    // The other queries take no method: a --method would be ignored.
    if (method_given && (toi || plain_distance || contact_sets))
      throw bench::BadArgument("--method applies to --query signed_distance only");
  } catch (const bench::BadArgument& e) {
    return bench::refuse("proxima-stress", e, kUsage);
  }
  const std::vector<Entry> all = shapes(margined, static_cast<unsigned>(seed - 2019));
  // Every ordered pair but halfspace–halfspace.
  const double pairs = static_cast<double>(all.size() * all.size() - 1);
  apps::Progress progress = apps::Progress::on_terminal("proxima-stress", pairs, show_progress);
  if (toi) {
    std::printf(markdown ? "| pair | queries | contacts | capped (safe) | status not ok | NaN/inf | late | missed | threw | mean ns | max ns |\n"
                           "|---|---|---|---|---|---|---|---|---|---|---|\n"
                         : "%-22s %9s %8s %7s %7s %7s %7s %7s %7s %9s %11s\n",
                "pair", "queries", "contacts", "capped", "not_ok", "nan", "late", "missed", "threw", "mean_ns", "max_ns");
    std::mt19937_64 g(seed + 1);
    const bool failed = each_pair(all, [&](const Entry& a, const Entry& b, double index, const std::string& pair) {
      ToiTally t;
      stress_time_of_impact(a, b, queries, g, t, progress, index, pair);
      progress.clear();
      std::printf(markdown ? "| %s | %ld | %ld | %ld | %ld | %ld | %ld | %ld | %ld | %.0f | %.0f |\n"
                           : "%-22s %9ld %8ld %7ld %7ld %7ld %7ld %7ld %7ld %9.0f %11.0f\n",
                  pair.c_str(), t.queries, t.hits, t.capped, t.not_ok, t.non_finite, t.late, t.missed, t.threw,
                  t.total_ns / static_cast<double>(t.queries), t.max_ns);
      return t.non_finite || t.not_ok || t.late || t.missed || t.threw;
    });
    return failed ? 1 : 0;
  }
  if (contact_sets) {
    std::printf(markdown ? "| pair | queries | overlapping | beyond the margin | with points | points | status not ok | "
                           "NaN/inf | distance off | set off | point off | feature off | deepest off | threw | "
                           "mean ns | max ns |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n"
                         : "%-22s %9s %8s %8s %8s %8s %7s %7s %7s %7s %7s %7s %7s %7s %9s %11s\n",
                "pair", "queries", "overlap", "beyond", "w_points", "points", "not_ok", "nan", "dist", "set", "point",
                "feature", "deepest", "threw", "mean_ns", "max_ns");
    std::mt19937_64 g(seed + 3);
    const bool failed = each_pair(all, [&](const Entry& a, const Entry& b, double index, const std::string& pair) {
      ContactTally t;
      stress_contacts(a, b, queries, g, t, progress, index, pair);
      progress.clear();
      std::printf(markdown ? "| %s | %ld | %ld | %ld | %ld | %ld | %ld | %ld | %ld | %ld | %ld | %ld | %ld | %ld | %.0f | "
                             "%.0f |\n"
                           : "%-22s %9ld %8ld %8ld %8ld %8ld %7ld %7ld %7ld %7ld %7ld %7ld %7ld %7ld %9.0f %11.0f\n",
                  pair.c_str(), t.queries, t.overlapping, t.beyond, t.with_points, t.points, t.not_ok, t.non_finite,
                  t.distance_off, t.set_off, t.point_off, t.feature_off, t.deepest_off, t.threw,
                  t.total_ns / static_cast<double>(t.queries), t.max_ns);
      return t.not_ok || t.non_finite || t.distance_off || t.set_off || t.point_off || t.feature_off ||
             t.deepest_off || t.threw;
    });
    return failed ? 1 : 0;
  }
  if (plain_distance) {
    std::printf(markdown ? "| pair | queries | apart | overlapping | status not ok | NaN/inf | witness off | "
                           "normal off | common point off | overlap normal off | tolerance off | collide off | "
                           "threw | mean ns apart | mean ns overlapping | max ns |\n"
                           "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n"
                         : "%-22s %9s %8s %8s %7s %7s %7s %7s %7s %7s %7s %7s %7s %9s %9s %11s\n",
                "pair", "queries", "apart", "overlap", "not_ok", "nan", "witness", "normal", "common", "o_norm",
                "tol", "collide", "threw", "ns_apart", "ns_over", "max_ns");
    std::mt19937_64 g(seed + 2);
    const bool failed = each_pair(all, [&](const Entry& a, const Entry& b, double index, const std::string& pair) {
      DistanceTally t;
      stress_distance(a, b, queries, g, t, progress, index, pair);
      progress.clear();
      std::printf(markdown ? "| %s | %ld | %ld | %ld | %ld | %ld | %ld | %ld | %ld | %ld | %ld | %ld | %ld | %.0f | "
                             "%.0f | %.0f |\n"
                           : "%-22s %9ld %8ld %8ld %7ld %7ld %7ld %7ld %7ld %7ld %7ld %7ld %7ld %9.0f %9.0f %11.0f\n",
                  pair.c_str(), t.queries, t.apart, t.overlapping, t.not_ok, t.non_finite, t.witness_off,
                  t.bad_normal, t.common_off, t.bad_overlap_normal, t.tolerance_off, t.collide_off, t.threw,
                  t.apart_ns / static_cast<double>(std::max(1L, t.apart)),
                  t.overlapping_ns / static_cast<double>(std::max(1L, t.overlapping)), t.max_ns);
      return t.non_finite || t.witness_off || t.bad_normal || t.common_off || t.bad_overlap_normal ||
             t.tolerance_off || t.collide_off || t.threw;
    });
    return failed ? 1 : 0;
  }
  std::printf(markdown ? "| pair | queries | method n/a | status not ok | NaN/inf | wrong sign | witness off | normal off | "
                         "threw | mean ns | max ns |\n|---|---|---|---|---|---|---|---|---|---|---|\n"
                       : "%-22s %9s %7s %7s %7s %7s %7s %7s %7s %9s %11s\n",
              "pair", "queries", "n/a", "not_ok", "nan", "sign", "witness", "normal", "threw", "mean_ns", "max_ns");
  std::mt19937_64 g(seed);
  std::normal_distribution<double> n;
  std::uniform_real_distribution<double> u(0.0, 1.0);
  const bool failed = each_pair(all, [&](const Entry& a, const Entry& b, double index, const std::string& pair) {
    Tally t;
    const double reach = 0.9 * (a.r_in + b.r_in);
    for (long q = 0; q < queries; ++q) {
      advance(progress, index, q, queries, pair);
      const Vec3 dir = draw_vec3(n, g).normalized();
      const Quat qb = draw_quat(n, g);
      const Transform pb = Transform::from_quaternion(qb, draw_vec3(n, g));
      const Quat qa = draw_quat(n, g);
      const Transform pa = Transform::from_quaternion(qa, pb.p + std::cbrt(u(g)) * reach * dir);
      const auto start = std::chrono::steady_clock::now();
      try {
        const DistanceResult r = signed_distance(a.shape, pa, b.shape, pb, request);
        const double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
        t.total_ns += ns;
        t.max_ns = std::max(t.max_ns, ns);
        // upper_bound is mpr's honest status for its centre-line depth.
        const bool answered = r.status == Status::ok || r.status == Status::upper_bound;
        if (r.status == Status::not_implemented) {
          ++t.not_applicable;  // nothing to check: no answer was claimed
        } else {
          if (!answered) ++t.not_ok;
          if (!std::isfinite(r.distance) || !r.normal.allFinite() || !r.point_a.allFinite() ||
              !r.point_b.allFinite() || std::abs(r.normal.norm() - 1.0) > 1e-9) {
            ++t.non_finite;
          } else if (!(r.distance < 0.0)) {
            ++t.wrong_sign;
          } else if (answered) {
            // Outside the timed call: the checks cost more than many queries.
            if (!bench::witnesses_on_shapes(a.shape, pa, b.shape, pb, r, kWitnessTolerance)) ++t.witness_off;
            if (!bench::normal_supports(a.shape, pa, b.shape, pb, r, kWitnessTolerance)) ++t.bad_normal;
          }
        }
      } catch (...) {
        ++t.threw;
      }
      ++t.queries;
    }
    progress.clear();
    std::printf(markdown ? "| %s | %ld | %ld | %ld | %ld | %ld | %ld | %ld | %ld | %.0f | %.0f |\n"
                         : "%-22s %9ld %7ld %7ld %7ld %7ld %7ld %7ld %7ld %9.0f %11.0f\n",
                pair.c_str(), t.queries, t.not_applicable, t.not_ok, t.non_finite, t.wrong_sign, t.witness_off,
                t.bad_normal, t.threw,
                t.total_ns / static_cast<double>(t.queries), t.max_ns);
    return t.non_finite || t.wrong_sign || t.threw || t.witness_off || t.bad_normal;
  });
  return failed ? 1 : 0;
}
