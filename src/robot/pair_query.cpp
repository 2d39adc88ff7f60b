// SPDX-License-Identifier: BSD-3-Clause
#include "pair_query.hpp"

#include <algorithm>
#include <cmath>
#include <type_traits>

#include <proxima/mesh/mesh_queries.hpp>
#include <proxima/query.hpp>

namespace proxima::robot::detail {

PairCollide collide_pair(const Geometry& a, const Transform& pa, const Geometry& b, const Transform& pb) {
  const Shape* sa = std::get_if<Shape>(&a);
  const Shape* sb = std::get_if<Shape>(&b);
  const Bvh* ma = std::get_if<Bvh>(&a);
  const Bvh* mb = std::get_if<Bvh>(&b);
  if (sa && sb) {
    const CollideResult r = collide(*sa, pa, *sb, pb);
    return {r.status, r.collide};
  }
  MeshCollideResult r;
  if (ma && mb) r = collide(*ma, pa, *mb, pb);
  else if (ma) r = collide(*ma, pa, *sb, pb);
  else r = collide(*mb, pb, *sa, pa);
  return {r.status, r.collide};
}

PairDistance distance_pair(const Geometry& a, const Transform& pa, const Geometry& b, const Transform& pb,
                           double bound, GjkCache* cache) {
  const Shape* sa = std::get_if<Shape>(&a);
  const Shape* sb = std::get_if<Shape>(&b);
  const Bvh* ma = std::get_if<Bvh>(&a);
  const Bvh* mb = std::get_if<Bvh>(&b);
  PairDistance out;
  if (sa && sb) {
    DistanceRequest req;
    req.bound = bound;
    req.cache = cache;
    const DistanceResult r = distance(*sa, pa, *sb, pb, req);
    out.status = r.status;
    if (!r.bound_exceeded) out = {r.status, r.distance, r.point_a, r.point_b};
    return out;
  }
  // The mesh queries prune with their own best-so-far; they take no bound.
  if (ma && mb) {
    const MeshDistanceResult r = distance(*ma, pa, *mb, pb);
    return {r.status, r.distance, r.point_a, r.point_b};
  }
  if (ma) {
    const MeshDistanceResult r = distance(*ma, pa, *sb, pb);
    return {r.status, r.distance, r.point_a, r.point_b};
  }
  const MeshDistanceResult r = distance(*mb, pb, *sa, pa);
  return {r.status, r.distance, r.point_b, r.point_a};
}

bool within_pair(const Geometry& a, const Transform& pa, const Geometry& b, const Transform& pb, double t,
                 Status& status) {
  const Shape* sa = std::get_if<Shape>(&a);
  const Shape* sb = std::get_if<Shape>(&b);
  const Bvh* ma = std::get_if<Bvh>(&a);
  const Bvh* mb = std::get_if<Bvh>(&b);
  if (sa && sb) {
    // The yes/no query: GJK stops once either answer is proven, and an
    // overlap needs no depth (a distance query would run EPA for it).
    const ToleranceResult r = tolerance(*sa, pa, *sb, pb, t);
    status = r.status;
    return r.within;
  }
  MeshToleranceResult r;
  if (ma && mb) r = tolerance(*ma, pa, *mb, pb, t);
  else if (ma) r = tolerance(*ma, pa, *sb, pb, t);
  else r = tolerance(*mb, pb, *sa, pa, t);
  status = r.status;
  return r.within;
}

std::optional<std::string> environment_error(const Environment& env) {
  for (const EnvironmentObject& o : env.objects)
    if (!o.pose.is_valid()) return "environment object '" + o.name + "': pose is not finite";
  return std::nullopt;
}

Aabb local_box(const Geometry& g) {
  if (const Shape* s = std::get_if<Shape>(&g)) return s->local_aabb();
  return std::get<Bvh>(g).mesh().local_aabb();
}

std::optional<double> support_value(const Geometry& g, const Transform& pose, const Vec3& u, int& hint) {
  const Shape* s = std::get_if<Shape>(&g);
  if (!s) return std::nullopt;
  return std::visit(
      [&](const auto& shape) -> std::optional<double> {
        using T = std::decay_t<decltype(shape)>;
        if constexpr (std::is_same_v<T, Halfspace>) {
          return std::nullopt;
        } else if constexpr (std::is_same_v<T, ConvexPolytope>) {
          return u.dot(pose.apply(shape.core_support(pose.rotate_inverse(u), hint))) + shape.core_inflation();
        } else {
          return u.dot(pose.apply(shape.core_support(pose.rotate_inverse(u)))) + shape.core_inflation();
        }
      },
      s->variant());
}

std::vector<Aabb> object_boxes(const Environment& env) {
  std::vector<Aabb> boxes;
  boxes.reserve(env.objects.size());
  for (const EnvironmentObject& o : env.objects) boxes.push_back(local_box(o.geometry).transformed(o.pose));
  return boxes;
}

}  // namespace proxima::robot::detail
