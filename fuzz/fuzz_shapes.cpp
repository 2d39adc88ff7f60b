// SPDX-License-Identifier: BSD-3-Clause
// Every query on two shapes built from arbitrary numbers, at arbitrary
// poses, under every method. The promises (query.hpp, core/error.hpp, shape
// constructors): a constructor gives a shape or throws proxima::Error; a
// query never throws and never returns NaN, whatever its status; each status
// means what it says (check_result); and the answers agree: a distance ≥ 0,
// a unit normal, collide exactly when the signed distance is ≤ 0 (up to the
// answers' accuracy; a bound below zero proves the overlap too), the
// distance equal to a positive signed distance, a time of impact in [0, 1].
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

bool has_nan(const DistanceResult& r) {
  return std::isnan(r.distance) || r.normal.hasNaN() || r.point_a.hasNaN() || r.point_b.hasNaN();
}

// The promises of each status (query.hpp, core/error.hpp), checked whatever
// the status: no NaN ever; an answer (ok, a bound) with a finite distance, a
// unit normal and witnesses whose difference is distance · normal; a bound
// only from MPR on an overlap; invalid_input exactly for an invalid pose;
// not_implemented under the automatic method only for the signed distance of
// two halfspaces. `scale` is the pair's size and position, which bound the
// rounding of the witnesses.
void check_result(const char* what, const DistanceResult& r, bool is_signed, Method method, bool poses_valid,
                  bool unbounded, double scale) {
  if (has_nan(r)) broken(what, std::string("NaN with status ") + to_string(r.status));
  if (r.status == Status::invalid_input) {
    if (poses_valid) broken(what, "invalid_input for valid poses");
    return;
  }
  if (!poses_valid) broken(what, std::string("status ") + to_string(r.status) + " for an invalid pose");
  if (r.status == Status::not_implemented) {
    // The one depth that does not exist (the header's promise): two
    // halfspaces that are not opposed overlap without bound.
    if (method == Method::automatic && !(unbounded && is_signed))
      broken(what, "not_implemented under the automatic method");
    return;
  }
  if (r.status == Status::upper_bound && (method != Method::mpr || !(r.distance < 0.0) || !is_signed))
    broken(what, "upper_bound outside an MPR overlap depth");
  // Two halfspaces that are not opposed overlap without bound.
  if (!std::isfinite(r.distance) && !(unbounded && r.distance < 0.0))
    broken(what, "distance " + std::to_string(r.distance));
  if (!is_signed && r.distance < 0.0) broken(what, "negative distance");
  if (!finite(r.normal) || std::abs(r.normal.norm() - 1.0) > 1e-6) broken(what, "normal not unit");
  if (!finite(r.point_a) || !finite(r.point_b)) broken(what, "non-finite witness point");
  if (std::isfinite(r.distance) && !r.bound_exceeded &&
      (r.point_a - r.point_b - r.distance * r.normal).norm() > 1e-6 * (scale + std::abs(r.distance)))
    broken(what, "point_a - point_b is not distance * normal");
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

  const bool poses_valid = ta.is_valid() && tb.is_valid();
  const bool unbounded = a->type() == ShapeType::halfspace && b->type() == ShapeType::halfspace;
  // GJK's accuracy is relative to the size of A − B (DistanceRequest::tol_rel).
  const double scale = 1.0 + (poses_valid ? ta.p.norm() + tb.p.norm() : 0.0) + extent(*a) + extent(*b);
  const DistanceResult sd = signed_distance(*a, ta, *b, tb, req);
  if (std::getenv("PROXIMA_FUZZ_VERBOSE"))
    std::fprintf(stderr, "method %u: signed %.17g (status %d, %d it)\n", method, sd.distance, int(sd.status),
                 sd.iterations);
  check_result("signed_distance", sd, true, req.method, poses_valid, unbounded, scale);
  const DistanceResult d = distance(*a, ta, *b, tb, req);
  check_result("distance", d, false, req.method, poses_valid, unbounded, scale);
  CollideRequest creq;
  creq.method = req.method;
  const CollideResult c = collide(*a, ta, *b, tb, creq);
  if (std::getenv("PROXIMA_FUZZ_VERBOSE"))
    std::fprintf(stderr, "distance %.17g (status %d, %d it) collide %d (status %d, %d it)\n", d.distance,
                 int(d.status), d.iterations, int(c.collide), int(c.status), c.iterations);
  if ((c.status == Status::invalid_input) == poses_valid) broken("collide: invalid_input exactly for invalid poses");
  const ToleranceResult tol = tolerance(*a, ta, *b, tb, 0.01, req);
  if (std::isnan(tol.distance)) broken("tolerance: NaN distance");
  if (tol.status == Status::ok && tol.distance < 0.0) broken("tolerance distance");
  if ((tol.status == Status::invalid_input) == poses_valid) broken("tolerance: invalid_input exactly for invalid poses");

  // Agreement, under every method, where the answers are proofs: a signed
  // distance that is ok, or a bound below zero (not_converged and upper_bound
  // are upper bounds: below zero, the pair overlaps); the scale is that of
  // the pair (positions and the distance itself).
  if (poses_valid && std::isfinite(sd.distance)) {
    const double slack = 1e-6 * (scale + std::abs(sd.distance));
    const bool exact = sd.status == Status::ok;
    const bool bound = sd.status == Status::not_converged || sd.status == Status::upper_bound;
    if (c.status == Status::ok) {
      if (exact && sd.distance > slack && c.collide) broken("collide at signed distance", std::to_string(sd.distance));
      if ((exact || bound) && sd.distance < -slack && !c.collide)
        broken("no collision at signed distance", std::to_string(sd.distance) + " " + to_string(sd.status));
    }
    if (exact && d.status == Status::ok && sd.distance > slack && std::abs(d.distance - sd.distance) > slack)
      broken("distance and signed distance differ", std::to_string(d.distance) + " " + std::to_string(sd.distance));
    if (exact && tol.status == Status::ok && tol.within == (sd.distance > 0.01 + slack) &&
        std::abs(sd.distance - 0.01) > slack)
      broken("tolerance 0.01 against signed distance", std::to_string(sd.distance));
  }

  ContactOptions copt;
  copt.margin = in.byte() < 128 ? 0.0 : in.size();
  ContactSet cs;
  contacts(*a, ta, *b, tb, copt, cs);
  if (std::getenv("PROXIMA_FUZZ_VERBOSE"))
    std::fprintf(stderr, "contacts: margin %.17g, status %s, distance %.17g\n", copt.margin, to_string(cs.status),
                 cs.distance);
  if (std::isnan(cs.distance) || cs.normal.hasNaN()) broken("contacts: NaN distance or normal");
  // A negative or non-finite margin is invalid input too (the header's promise).
  const bool margin_valid = std::isfinite(copt.margin) && copt.margin >= 0.0;
  if ((cs.status == Status::invalid_input) == (poses_valid && margin_valid))
    broken("contacts: invalid_input exactly for invalid poses or margin");
  if (cs.status == Status::ok) {
    if (!std::isfinite(cs.distance) && !unbounded) broken("contacts: non-finite distance");
    if (!finite(cs.normal)) broken("contacts: non-finite normal");
    for (const Contact& k : cs.points)
      if (!finite(k.point) || !finite(k.normal) || !std::isfinite(k.depth)) broken("contacts: non-finite point");
  }

  const Transform ta_end = make_pose(in), tb_end = make_pose(in);
  TimeOfImpactRequest treq;
  treq.max_iterations = 200;
  const TimeOfImpactResult t = time_of_impact(*a, ta, ta_end, *b, tb, tb_end, treq);
  if (std::isnan(t.time) || has_nan(t.witness)) broken("time of impact: NaN");
  // A lower bound when not converged: still a time of the motion.
  if ((t.status == Status::ok || t.status == Status::not_converged) && !(t.time >= 0.0 && t.time <= 1.0))
    broken("time of impact", std::to_string(t.time));
  return 0;
}
