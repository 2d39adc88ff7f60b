// SPDX-License-Identifier: BSD-3-Clause
#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include <proxima/narrow/conservative_advancement.hpp>
#include <proxima/narrow/dispatch.hpp>

namespace proxima {
namespace narrow {

double core_radius(const Shape& s) {
  struct Radius {
    double operator()(const Sphere&) const { return 0.0; }
    double operator()(const Capsule& x) const { return x.half_length(); }
    double operator()(const Cylinder& x) const { return std::hypot(x.radius(), 0.5 * x.length()); }
    double operator()(const Cone& x) const { return std::hypot(x.radius(), 0.5 * x.length()); }
    double operator()(const Box& x) const { return x.half_extents().norm(); }
    double operator()(const Ellipsoid& x) const { return x.radii().maxCoeff(); }
    double operator()(const Halfspace&) const { return std::numeric_limits<double>::infinity(); }
    double operator()(const ConvexPolytope& x) const {
      double r2 = 0.0;
      for (const Vec3& v : x.vertices()) r2 = std::max(r2, v.squaredNorm());
      return std::sqrt(r2);
    }
  };
  return std::visit(Radius{}, s.variant());
}

bool is_valid(const TimeOfImpactRequest& r) {
  return std::isfinite(r.clearance) && r.clearance >= 0.0 && r.clearance <= kMaxLength &&
         std::isfinite(r.accuracy) && r.accuracy > 0.0 && r.accuracy <= kMaxLength && r.max_iterations > 0;
}

}  // namespace narrow

namespace {

DistanceResult swapped(DistanceResult r) {
  r.normal = -r.normal;
  std::swap(r.point_a, r.point_b);
  return r;
}

/// A bounded A against a halfspace B that turns: queried in B's frame,
/// where the halfspace stands still.
TimeOfImpactResult against_turning_halfspace(const Shape& a, const RigidMotion& ma, const Shape& b,
                                             const RigidMotion& mb, narrow::PairFn f,
                                             const TimeOfImpactRequest& req) {
  const double ra = narrow::core_radius(a);
  const DistanceRequest dreq;
  double now = 0.0;
  return narrow::advance(
      req,
      [&](double t) {
        now = t;
        const Transform tb = mb.at(t);
        DistanceResult r = f(a, tb.inverse() * ma.at(t), b, Transform::identity(), dreq, narrow::Mode::distance);
        r.normal = tb.rotate(r.normal);
        r.point_a = tb.apply(r.point_a);
        r.point_b = tb.apply(r.point_b);
        return r;
      },
      [&](const DistanceResult&) {
        return narrow::closing_speed_to_turning_halfspace(b.as<Halfspace>().world_normal(mb.start), ma, ra, mb,
                                                          now);
      });
}

}  // namespace

TimeOfImpactResult time_of_impact(const Shape& a, const Transform& pose_a, const Transform& pose_a_end,
                                  const Shape& b, const Transform& pose_b, const Transform& pose_b_end,
                                  const TimeOfImpactRequest& request) {
  TimeOfImpactResult out;
  if (!both_valid(pose_a, pose_a_end) || !both_valid(pose_b, pose_b_end) ||
      !narrow::is_valid(request)) {
    out.status = Status::invalid_input;
    out.collide = false;
    return out;
  }
  if (a.type() == ShapeType::halfspace && b.type() != ShapeType::halfspace) {
    out = time_of_impact(b, pose_b, pose_b_end, a, pose_a, pose_a_end, request);
    out.witness = swapped(out.witness);
    return out;
  }
  const narrow::PairFn f = narrow::select(a.type(), b.type(), Method::automatic);
  if (!f) {
    out.status = Status::not_implemented;
    return out;
  }
  const RigidMotion ma = RigidMotion::between(pose_a, pose_a_end);
  const RigidMotion mb = RigidMotion::between(pose_b, pose_b_end);
  if (b.type() == ShapeType::halfspace && mb.rotates()) {
    return against_turning_halfspace(a, ma, b, mb, f, request);
  }
  const double ra = ma.rotates() ? narrow::core_radius(a) : 0.0;
  const double rb = mb.rotates() ? narrow::core_radius(b) : 0.0;
  GjkCache cache;
  DistanceRequest dreq;
  dreq.cache = &cache;
  return narrow::advance(
      request, [&](double t) { return f(a, ma.at(t), b, mb.at(t), dreq, narrow::Mode::distance); },
      [&](const DistanceResult& r) { return narrow::closing_speed_along(r.normal, ma, ra, mb, rb); });
}

}  // namespace proxima
