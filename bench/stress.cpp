// proxima-stress: issue #3's robustness target. For every ordered pair of
// shape types, N random overlapping poses through signed_distance (automatic
// method): no throw, no NaN, no wrong sign, no hang. Overlap is certain by
// construction: each shape contains the ball of radius r_in about its
// origin, and the origins are placed closer than 0.9 (r_in(A) + r_in(B)).
// --method forces gjk_epa or incremental on the same poses, for comparison.
// Exit status 1 when any query fails one of the checks.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <proxima/query.hpp>

#include "draws.hpp"

namespace {

using namespace proxima;
using proxima::bench::draw_quat;
using proxima::bench::draw_vec3;

struct Entry {
  std::string label;
  Shape shape;
  double r_in;  ///< radius of a ball about the origin inside the shape
};

double polytope_inradius(const ConvexPolytope& p) {
  const PolytopeData& d = p.data();
  double r = INFINITY;
  for (double c : d.face_offsets) r = std::min(r, c);
  return r + p.margin();
}

std::vector<Entry> shapes() {
  std::mt19937 g(7);
  std::normal_distribution<double> n;
  std::vector<Vec3> pts;
  for (int i = 0; i < 200; ++i) pts.push_back(0.4 * draw_vec3(n, g).normalized());
  const ConvexPolytope poly(pts);
  // Cone r 0.3, height 0.6, origin mid-height: the side line passes 0.134 m
  // from the origin (nearer than the base, 0.3 m); plus the 0.02 margin.
  const double cone_in = 0.09 / std::hypot(0.6, 0.3) + 0.02;
  return {{"sphere", Sphere(0.3), 0.3},
          {"capsule", Capsule(0.2, 0.6, 0.01), 0.21},
          {"cylinder", Cylinder(0.3, 0.7), 0.3},
          {"cone", Cone(0.3, 0.6, 0.02), cone_in},
          {"box", Box(0.6, 0.4, 0.8), 0.2},
          {"ellipsoid", Ellipsoid(Vec3(0.4, 0.25, 0.15)), 0.15},
          {"halfspace", Halfspace(Vec3(0.3, -0.2, 1.0), 0.0), 0.0},
          {"convex200", poly, polytope_inradius(poly)}};
}

struct Tally {
  long queries = 0, not_ok = 0, non_finite = 0, wrong_sign = 0, threw = 0;
  double max_ns = 0.0, total_ns = 0.0;
};

}  // namespace

int main(int argc, char** argv) {
  long queries = 1000000;
  bool markdown = false;
  DistanceRequest request;  // automatic unless --method forces one (the same poses either way)
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--queries") && i + 1 < argc) {
      queries = std::atol(argv[++i]);
    } else if (!std::strcmp(argv[i], "--markdown")) {
      markdown = true;
    } else if (!std::strcmp(argv[i], "--method") && i + 1 < argc) {
      const std::string m = argv[++i];
      if (m == "auto") request.method = Method::automatic;
      else if (m == "gjk_epa") request.method = Method::gjk;
      else if (m == "incremental") request.method = Method::incremental;
      else {
        std::fprintf(stderr, "proxima-stress: --method must be auto, gjk_epa or incremental (got %s)\n", m.c_str());
        return 2;
      }
    } else {
      std::fprintf(stderr, "usage: proxima-stress [--queries N] [--markdown] [--method auto|gjk_epa|incremental]\n");
      return 2;
    }
  }
  if (queries < 1) {
    std::fprintf(stderr, "proxima-stress: --queries must be >= 1\n");
    return 2;
  }
  const std::vector<Entry> all = shapes();
  std::printf(markdown ? "| pair | queries | status not ok | NaN/inf | wrong sign | threw | mean ns | max ns |\n|---|---|---|---|---|---|---|---|\n"
                       : "%-22s %9s %7s %7s %7s %7s %9s %11s\n",
              "pair", "queries", "not_ok", "nan", "sign", "threw", "mean_ns", "max_ns");
  bool failed = false;
  std::mt19937_64 g(2026);
  std::normal_distribution<double> n;
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (const Entry& a : all) {
    for (const Entry& b : all) {
      if (a.shape.type() == ShapeType::halfspace && b.shape.type() == ShapeType::halfspace) continue;
      Tally t;
      const double reach = 0.9 * (a.r_in + b.r_in);
      for (long q = 0; q < queries; ++q) {
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
          if (r.status != Status::ok) ++t.not_ok;
          if (!std::isfinite(r.distance) || !r.normal.allFinite() || !r.point_a.allFinite() ||
              !r.point_b.allFinite() || std::abs(r.normal.norm() - 1.0) > 1e-9) {
            ++t.non_finite;
          } else if (!(r.distance < 0.0)) {
            ++t.wrong_sign;
          }
        } catch (...) {
          ++t.threw;
        }
        ++t.queries;
      }
      const std::string pair = a.label + "-" + b.label;
      std::printf(markdown ? "| %s | %ld | %ld | %ld | %ld | %ld | %.0f | %.0f |\n"
                           : "%-22s %9ld %7ld %7ld %7ld %7ld %9.0f %11.0f\n",
                  pair.c_str(), t.queries, t.not_ok, t.non_finite, t.wrong_sign, t.threw,
                  t.total_ns / static_cast<double>(t.queries), t.max_ns);
      std::fflush(stdout);
      failed = failed || t.non_finite || t.wrong_sign || t.threw;
    }
  }
  return failed ? 1 : 0;
}
