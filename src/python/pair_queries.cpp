// SPDX-License-Identifier: BSD-3-Clause
#include "pair_queries.hpp"

#include <utility>

#include <proxima/mesh/mesh_queries.hpp>
#include <proxima/mesh/mesh_time_of_impact.hpp>

namespace proxima::python {
namespace {

// The fields convex and mesh distance results share.
template <class Result>
DistanceAnswer common(const Result& d) {
  DistanceAnswer r;
  r.status = d.status;
  r.distance = d.distance;
  r.normal = d.normal;
  r.point_a = d.point_a;
  r.point_b = d.point_b;
  return r;
}

DistanceAnswer from(const DistanceResult& d) {
  DistanceAnswer r = common(d);
  r.iterations = d.iterations;
  r.bound_exceeded = d.bound_exceeded;
  return r;
}

DistanceAnswer from(const MeshDistanceResult& d) {
  DistanceAnswer r = common(d);
  r.triangle_a = d.triangle_a;
  r.triangle_b = d.triangle_b;
  return r;
}

// Back to the caller's order after a swapped (mesh-first) query.
void unswap(DistanceAnswer& d) {
  d.normal = -d.normal;
  std::swap(d.point_a, d.point_b);
  std::swap(d.triangle_a, d.triangle_b);
}

// The pair as the mesh queries take it, mesh first; `other` is a mesh or a
// shape, and `ask` calls f with whichever it is.
struct MeshFirst {
  bool swapped;
  const Bvh& mesh;
  const Transform& pose_mesh;
  const Operand& other;
  const Transform& pose_other;

  template <class F>
  auto ask(F&& f) const {
    return other.mesh ? f(*other.mesh) : f(*other.shape);
  }
};

MeshFirst mesh_first(const Operand& a, const Transform& ta, const Operand& b, const Transform& tb) {
  if (a.mesh) return {false, *a.mesh, ta, b, tb};
  return {true, *b.mesh, tb, a, ta};
}

}  // namespace

CollideAnswer pair_collide(const Operand& a, const Transform& ta, const Operand& b, const Transform& tb,
                           const CollideRequest& request) {
  CollideAnswer r;
  if (a.shape && b.shape) {
    const CollideResult c = collide(*a.shape, ta, *b.shape, tb, request);
    r.status = c.status;
    r.collide = c.collide;
    r.iterations = c.iterations;
    return r;
  }
  const MeshFirst p = mesh_first(a, ta, b, tb);
  const MeshCollideResult c = p.ask([&](const auto& other) { return collide(p.mesh, p.pose_mesh, other, p.pose_other); });
  r.status = c.status;
  r.collide = c.collide;
  r.triangle_a = p.swapped ? c.triangle_b : c.triangle_a;
  r.triangle_b = p.swapped ? c.triangle_a : c.triangle_b;
  return r;
}

ToleranceAnswer pair_tolerance(const Operand& a, const Transform& ta, const Operand& b, const Transform& tb,
                               double tolerance) {
  ToleranceAnswer r;
  if (a.shape && b.shape) {
    const ToleranceResult t = proxima::tolerance(*a.shape, ta, *b.shape, tb, tolerance);
    r.status = t.status;
    r.within = t.within;
    r.distance = t.distance;
    r.iterations = t.iterations;
    return r;
  }
  const MeshFirst p = mesh_first(a, ta, b, tb);
  const MeshToleranceResult t =
      p.ask([&](const auto& other) { return proxima::tolerance(p.mesh, p.pose_mesh, other, p.pose_other, tolerance); });
  r.status = t.status;
  r.within = t.within;
  r.triangle_a = p.swapped ? t.triangle_b : t.triangle_a;
  r.triangle_b = p.swapped ? t.triangle_a : t.triangle_b;
  return r;
}

DistanceAnswer pair_distance(const Operand& a, const Transform& ta, const Operand& b, const Transform& tb,
                             const DistanceRequest& request, bool signed_distance) {
  if (a.shape && b.shape) {
    return from(signed_distance ? proxima::signed_distance(*a.shape, ta, *b.shape, tb, request)
                                : distance(*a.shape, ta, *b.shape, tb, request));
  }
  const MeshFirst p = mesh_first(a, ta, b, tb);
  DistanceAnswer r = from(p.ask([&](const auto& other) { return distance(p.mesh, p.pose_mesh, other, p.pose_other); }));
  if (p.swapped) unswap(r);
  if (signed_distance && r.status == Status::ok && r.distance <= 0.0) r.status = Status::not_implemented;
  return r;
}

ContactAnswer pair_contacts(const Operand& a, const Transform& ta, const Operand& b, const Transform& tb,
                            const ContactOptions& convex, const MeshContactOptions& mesh) {
  ContactAnswer r;
  ContactSet set;
  if (a.shape && b.shape) {
    contacts(*a.shape, ta, *b.shape, tb, convex, set);
  } else {
    const MeshFirst p = mesh_first(a, ta, b, tb);
    p.ask([&](const auto& other) { mesh_contacts(p.mesh, p.pose_mesh, other, p.pose_other, mesh, set); });
    if (p.swapped) {
      // Points and depths are symmetric; normals and features are not.
      set.normal = -set.normal;
      for (Contact& c : set.points) {
        c.normal = -c.normal;
        std::swap(c.feature_a, c.feature_b);
      }
    }
  }
  r.status = set.status;
  r.distance = set.distance;
  r.normal = set.normal;
  r.bound_exceeded = set.bound_exceeded;
  r.points = std::move(set.points);
  return r;
}

TimeOfImpactAnswer pair_time_of_impact(const Operand& a, const Transform& ta, const Transform& ta_end,
                                       const Operand& b, const Transform& tb, const Transform& tb_end,
                                       const TimeOfImpactRequest& request) {
  TimeOfImpactAnswer r;
  if (a.shape && b.shape) {
    const TimeOfImpactResult t = time_of_impact(*a.shape, ta, ta_end, *b.shape, tb, tb_end, request);
    r.status = t.status;
    r.collide = t.collide;
    r.time = t.time;
    r.witness = from(t.witness);
    r.witness_time = t.witness_time;
    r.iterations = t.iterations;
    return r;
  }
  const MeshFirst p = mesh_first(a, ta, b, tb);
  const MeshFirst end = mesh_first(a, ta_end, b, tb_end);
  const MeshTimeOfImpactResult t = p.ask([&](const auto& other) {
    return time_of_impact(p.mesh, p.pose_mesh, end.pose_mesh, other, p.pose_other, end.pose_other, request);
  });
  r.status = t.status;
  r.collide = t.collide;
  r.time = t.time;
  r.witness = from(t.witness);
  r.witness.triangle_a = t.triangle_a;
  r.witness.triangle_b = t.triangle_b;
  r.witness_time = t.witness_time;
  r.iterations = t.iterations;
  if (p.swapped) unswap(r.witness);
  return r;
}

}  // namespace proxima::python
