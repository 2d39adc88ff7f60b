// SPDX-License-Identifier: BSD-3-Clause
// Every query on two shapes built from arbitrary numbers, at arbitrary
// poses. The promises (query.hpp, shape constructors): a constructor gives
// a shape or throws proxima::Error; a query never throws and never returns
// NaN, and with status ok its answers agree: a distance ≥ 0, a unit normal,
// collide exactly when the signed distance is ≤ 0 (up to the answers'
// accuracy), the distance equal to a positive signed distance, a time of
// impact in [0, 1].
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include <proxima/core/error.hpp>
#include <proxima/query.hpp>
#include <proxima/shape/box.hpp>
#include <proxima/shape/capsule.hpp>
#include <proxima/shape/cone.hpp>
#include <proxima/shape/convex_polytope.hpp>
#include <proxima/shape/cylinder.hpp>
#include <proxima/shape/ellipsoid.hpp>
#include <proxima/shape/halfspace.hpp>
#include <proxima/shape/sphere.hpp>

#include "fuzz_input.hpp"

namespace {

using namespace proxima;
using fuzz::broken;

Vec3 vec(fuzz::Input& in) {
  const double x = in.number(), y = in.number(), z = in.number();
  return {x, y, z};
}

// A shape, or nothing when its constructor refused the numbers.
std::optional<Shape> make_shape(fuzz::Input& in) {
  const unsigned kind = in.below(8);
  const double margin = in.byte() < 200 ? 0.0 : in.size();
  try {
    switch (kind) {
      case 0: return Shape(Sphere(in.size(), margin));
      case 1: { const double r = in.size(), l = in.size(); return Shape(Capsule(r, l, margin)); }
      case 2: { const double r = in.size(), l = in.size(); return Shape(Cylinder(r, l, margin)); }
      case 3: { const double r = in.size(), l = in.size(); return Shape(Cone(r, l, margin)); }
      case 4: { const double x = in.size(), y = in.size(), z = in.size(); return Shape(Box(x, y, z, margin)); }
      case 5: return Shape(Ellipsoid(vec(in).cwiseAbs(), margin));
      case 6: { const Vec3 n = vec(in); return Shape(Halfspace(n, in.number(), margin)); }
      default: {
        std::vector<Vec3> points(1 + in.below(12));
        for (Vec3& p : points) p = vec(in);
        return Shape(ConvexPolytope(points, margin));
      }
    }
  } catch (const Error&) {
    return std::nullopt;
  }
}

// A pose; sometimes one with a non-finite or far translation set directly
// (what a caller's own arithmetic can produce), which queries must refuse.
Transform make_pose(fuzz::Input& in) {
  const double w = in.number(), x = in.number(), y = in.number(), z = in.number();
  const Vec3 p = vec(in);
  try {
    return Transform::from_quaternion(w, x, y, z, p);
  } catch (const Error&) {
    Transform t = Transform::identity();
    if (in.byte() >= 128) t.p = p;
    return t;
  }
}

bool finite(const Vec3& v) { return v.allFinite(); }

// Largest side of a shape's box, 0 for an unbounded one (a halfspace: its
// pairs are closed forms, exact).
double extent(const Shape& s) {
  const Aabb box = s.local_aabb();
  const double e = (box.max - box.min).maxCoeff();
  return std::isfinite(e) ? e : 0.0;
}

// PROXIMA_FUZZ_VERBOSE=1: what the input decoded to, for triage.
void describe(const char* name, const Shape& s, const Transform& t) {
  if (!std::getenv("PROXIMA_FUZZ_VERBOSE")) return;
  const Aabb box = s.local_aabb();
  std::fprintf(stderr,
               "%s: %s box [%.17g %.17g %.17g]–[%.17g %.17g %.17g] margin %.17g\n"
               "  R row0 %.17g %.17g %.17g row1 %.17g %.17g %.17g row2 %.17g %.17g %.17g\n"
               "  p %.17g %.17g %.17g\n",
               name, s.name(), box.min.x(), box.min.y(), box.min.z(), box.max.x(), box.max.y(), box.max.z(), s.margin(),
               t.R(0, 0), t.R(0, 1), t.R(0, 2), t.R(1, 0), t.R(1, 1), t.R(1, 2), t.R(2, 0), t.R(2, 1), t.R(2, 2),
               t.p.x(), t.p.y(), t.p.z());
  if (s.type() == ShapeType::convex)
    for (const Vec3& v : s.as<ConvexPolytope>().vertices())
      std::fprintf(stderr, "  vertex %.17g %.17g %.17g\n", v.x(), v.y(), v.z());
}

void check_result(const char* what, const DistanceResult& r, bool is_signed) {
  if (r.status != Status::ok) return;
  if (!std::isfinite(r.distance)) broken(what, "distance " + std::to_string(r.distance));
  if (!is_signed && r.distance < 0.0) broken(what, "negative distance");
  if (!finite(r.normal) || std::abs(r.normal.norm() - 1.0) > 1e-6) broken(what, "normal not unit");
  if (!finite(r.point_a) || !finite(r.point_b)) broken(what, "non-finite witness point");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Input in(data, size);
  const std::optional<Shape> a = make_shape(in);
  const std::optional<Shape> b = make_shape(in);
  if (!a || !b) return 0;
  const Transform ta = make_pose(in), tb = make_pose(in);
  DistanceRequest req;
  describe("A", *a, ta);
  describe("B", *b, tb);
  const unsigned method = in.below(6);
  req.method = static_cast<Method>(method);

  const DistanceResult sd = signed_distance(*a, ta, *b, tb, req);
  if (std::getenv("PROXIMA_FUZZ_VERBOSE"))
    std::fprintf(stderr, "method %u: signed %.17g (status %d, %d it)\n", method, sd.distance, int(sd.status),
                 sd.iterations);
  check_result("signed_distance", sd, true);
  const DistanceResult d = distance(*a, ta, *b, tb, req);
  check_result("distance", d, false);
  CollideRequest creq;
  creq.method = req.method;
  const CollideResult c = collide(*a, ta, *b, tb, creq);
  if (std::getenv("PROXIMA_FUZZ_VERBOSE"))
    std::fprintf(stderr, "distance %.17g (status %d, %d it) collide %d (status %d, %d it)\n", d.distance,
                 int(d.status), d.iterations, int(c.collide), int(c.status), c.iterations);
  const ToleranceResult tol = tolerance(*a, ta, *b, tb, 0.01, req);
  if (tol.status == Status::ok && (std::isnan(tol.distance) || tol.distance < 0.0)) broken("tolerance distance");

  // Agreement, where all three answered for the default method; the
  // scale is that of the pair (positions and the distance itself).
  if (req.method == Method::automatic && sd.status == Status::ok && d.status == Status::ok &&
      c.status == Status::ok) {
    // GJK's accuracy is relative to the size of A − B (DistanceRequest::tol_rel).
    const double scale = 1.0 + ta.p.norm() + tb.p.norm() + std::abs(sd.distance) + extent(*a) + extent(*b);
    const double slack = 1e-6 * scale;
    if (sd.distance > slack && c.collide) broken("collide at signed distance", std::to_string(sd.distance));
    if (sd.distance < -slack && !c.collide) broken("no collision at signed distance", std::to_string(sd.distance));
    if (sd.distance > slack && std::abs(d.distance - sd.distance) > slack)
      broken("distance and signed distance differ", std::to_string(d.distance) + " " + std::to_string(sd.distance));
    if (tol.status == Status::ok && tol.within == (sd.distance > 0.01 + slack) && std::abs(sd.distance - 0.01) > slack)
      broken("tolerance 0.01 against signed distance", std::to_string(sd.distance));
  }

  ContactOptions copt;
  copt.margin = in.byte() < 128 ? 0.0 : in.size();
  ContactSet cs;
  contacts(*a, ta, *b, tb, copt, cs);
  if (cs.status == Status::ok) {
    if (!std::isfinite(cs.distance) || !finite(cs.normal)) broken("contacts: non-finite distance or normal");
    for (const Contact& k : cs.points)
      if (!finite(k.point) || !finite(k.normal) || !std::isfinite(k.depth)) broken("contacts: non-finite point");
  }

  const Transform ta_end = make_pose(in), tb_end = make_pose(in);
  TimeOfImpactRequest treq;
  treq.max_iterations = 200;
  const TimeOfImpactResult t = time_of_impact(*a, ta, ta_end, *b, tb, tb_end, treq);
  if (t.status == Status::ok && !(t.time >= 0.0 && t.time <= 1.0)) broken("time of impact", std::to_string(t.time));
  return 0;
}
