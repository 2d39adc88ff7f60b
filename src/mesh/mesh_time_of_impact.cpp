// SPDX-License-Identifier: BSD-3-Clause
#include <algorithm>
#include <cmath>

#include <proxima/mesh/mesh_time_of_impact.hpp>
#include <proxima/narrow/conservative_advancement.hpp>

namespace proxima {
namespace {

// The core radius (narrow::core_radius): the margin's ball turns in place.
double mesh_radius(const Bvh& m) {
  double r2 = 0.0;
  for (const Vec3& v : m.mesh().vertices()) r2 = std::max(r2, v.squaredNorm());
  return std::sqrt(r2);
}

bool poses_valid(const Transform& a0, const Transform& a1, const Transform& b0, const Transform& b1) {
  return a0.is_valid() && a1.is_valid() && b0.is_valid() && b1.is_valid();
}

DistanceResult as_distance(const MeshDistanceResult& m) {
  DistanceResult r;
  r.status = m.status;
  r.distance = m.distance;
  r.normal = m.normal;
  r.point_a = m.point_a;
  r.point_b = m.point_b;
  return r;
}

// The loop with the mesh's witness triangles kept: `query(t)` answers a
// MeshDistanceResult at time t, `speed(t)` bounds the closing speed from t on.
template <class Query, class Speed>
MeshTimeOfImpactResult advance_with_witnesses(const TimeOfImpactRequest& req, Query&& query, Speed&& speed) {
  MeshDistanceResult last;
  double now = 0.0;
  MeshTimeOfImpactResult out;
  static_cast<TimeOfImpactResult&>(out) = narrow::advance(
      req,
      [&](double t) {
        now = t;
        last = query(t);
        return as_distance(last);
      },
      [&](const DistanceResult&) { return speed(now); });
  if (out.iterations > 0) {
    out.triangle_a = last.triangle_a;
    out.triangle_b = last.triangle_b;
  }
  return out;
}

MeshTimeOfImpactResult rejected() {
  MeshTimeOfImpactResult out;
  out.status = Status::invalid_input;
  return out;
}

}  // namespace

MeshTimeOfImpactResult time_of_impact(const Bvh& a, const Transform& pose_a, const Transform& pose_a_end,
                                      const Bvh& b, const Transform& pose_b, const Transform& pose_b_end,
                                      const TimeOfImpactRequest& request) {
  if (!poses_valid(pose_a, pose_a_end, pose_b, pose_b_end) || !narrow::is_valid(request)) return rejected();
  const RigidMotion ma = RigidMotion::between(pose_a, pose_a_end);
  const RigidMotion mb = RigidMotion::between(pose_b, pose_b_end);
  const double mu = narrow::closing_speed(ma, ma.rotates() ? mesh_radius(a) : 0.0, mb,
                                          mb.rotates() ? mesh_radius(b) : 0.0);
  MeshCache cache;
  MeshRequest mreq;
  mreq.cache = &cache;
  return advance_with_witnesses(
      request, [&](double t) { return distance(a, ma.at(t), b, mb.at(t), mreq); }, [&](double) { return mu; });
}

MeshTimeOfImpactResult time_of_impact(const Bvh& a, const Transform& pose_a, const Transform& pose_a_end,
                                      const Shape& b, const Transform& pose_b, const Transform& pose_b_end,
                                      const TimeOfImpactRequest& request) {
  if (!poses_valid(pose_a, pose_a_end, pose_b, pose_b_end) || !narrow::is_valid(request)) return rejected();
  const RigidMotion ma = RigidMotion::between(pose_a, pose_a_end);
  const RigidMotion mb = RigidMotion::between(pose_b, pose_b_end);
  const double ra = ma.rotates() ? mesh_radius(a) : 0.0;
  MeshCache cache;
  MeshRequest mreq;
  mreq.cache = &cache;
  if (b.type() == ShapeType::halfspace && mb.rotates()) {
    // Queried in the halfspace's frame, where it stands still.
    const Vec3 n = b.as<Halfspace>().world_normal(mb.start);
    return advance_with_witnesses(
        request,
        [&](double t) {
          const Transform tb = mb.at(t);
          MeshDistanceResult r = distance(a, tb.inverse() * ma.at(t), b, Transform::identity(), mreq);
          r.normal = tb.rotate(r.normal);
          r.point_a = tb.apply(r.point_a);
          r.point_b = tb.apply(r.point_b);
          return r;
        },
        [&](double t) { return narrow::closing_speed_to_turning_halfspace(n, ma, ra, mb, t); });
  }
  const double mu = narrow::closing_speed(ma, ra, mb, mb.rotates() ? narrow::core_radius(b) : 0.0);
  return advance_with_witnesses(
      request, [&](double t) { return distance(a, ma.at(t), b, mb.at(t), mreq); }, [&](double) { return mu; });
}

}  // namespace proxima
