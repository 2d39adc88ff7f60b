// SPDX-License-Identifier: BSD-3-Clause
// Contact manifold of a convex pair (Contact data for convex polyhedra, §IV-D–E):
// the normal and distance from signed_distance; each body's support feature
// along the normal; both projected onto the contact plane; the vertices of
// their intersection are the contact points.
#include <algorithm>
#include <cmath>
#include <type_traits>
#include <variant>

#include <proxima/contact/reduce.hpp>
#include <proxima/narrow/manifold.hpp>
#include <proxima/query.hpp>

#include "box_manifold.hpp"
#include "contact_frame.hpp"
#include "plane_geometry.hpp"
#include "support_feature.hpp"

namespace proxima {
namespace {

using narrow::detail::FeatureParams;
using narrow::detail::FeaturePoints;
using narrow::detail::Hull;
using narrow::detail::PlaneFrame;
using narrow::detail::PlanePoint;
using narrow::detail::Vec2;

// Hull of a shape's feature extreme along `dir` (world), heights of its
// surface (core ± inflation `lift`) along the frame's normal.
void feature_hull(const Shape& s, const Transform& pose, const Vec3& dir, const FeatureParams& p,
                  const PlaneFrame& f, double lift, Hull& out) {
  FeaturePoints local;
  std::visit([&](const auto& shape) {
    if constexpr (!std::is_same_v<std::decay_t<decltype(shape)>, Halfspace>)
      narrow::detail::support_feature(shape, pose.rotate_inverse(dir), p, local);
  }, s.variant());
  PlanePoint pts[narrow::detail::kMaxFeaturePoints];
  for (std::size_t i = 0; i < local.size(); ++i) pts[i] = f.project(pose.apply(local[i]), lift);
  narrow::detail::convex_hull(pts, local.size(), p.tol, out);
}

double inflation(const Shape& s) {
  return std::visit([](const auto& shape) { return shape.core_inflation(); }, s.variant());
}

double core_extent(const Shape& s) {
  if (s.type() == ShapeType::halfspace) return 0.0;
  const Aabb box = s.local_aabb().inflated(-s.margin());
  return (box.max - box.min).maxCoeff();
}

// Height of a halfspace body's surface in the frame (its boundary plane is
// ⟂ n, so the height is one number).
double halfspace_height(const Halfspace& h, const Transform& pose, const PlaneFrame& f,
                        double lift) {
  const Vec3 nw = h.world_normal(pose);
  const double c = h.offset() + nw.dot(pose.p);
  return f.project(c * nw, lift).h;
}

bool invalid(const Transform& pose_a, const Transform& pose_b, const ContactOptions& options,
             ContactSet& out) {
  out.points.clear();
  out.status = Status::ok;
  out.distance = 0.0;
  out.normal = Vec3::UnitZ();
  out.bound_exceeded = false;
  if (narrow::detail::bad_contact_options(options) || !both_valid(pose_a, pose_b)) {
    out.status = Status::invalid_input;
    return true;
  }
  return false;
}

}  // namespace

void narrow::generic_contacts(const Shape& a, const Transform& pose_a, const Shape& b,
                              const Transform& pose_b, const ContactOptions& options,
                              ContactSet& out) {
  if (invalid(pose_a, pose_b, options, out)) return;
  const double size = std::max(core_extent(a), core_extent(b));
  // Kissing within rounding counts as touching, even at zero margin.
  const double reach = options.margin + 1e-12 * size;
  DistanceRequest req;
  req.bound = reach;
  const DistanceResult sd = signed_distance(a, pose_a, b, pose_b, req);
  out.status = sd.status;
  out.distance = sd.distance;
  out.normal = sd.normal;
  out.bound_exceeded = sd.bound_exceeded;
  if (sd.status == Status::invalid_input || sd.status == Status::not_implemented) return;
  if (sd.bound_exceeded || sd.distance > reach) return;

  const PlaneFrame f(sd.normal, 0.5 * (sd.point_a + sd.point_b));
  const FeatureParams params{options.feature_tolerance * size, options.disc_points};
  // A little slack on the plane for rounding, even at zero tolerance.
  const double eps = std::max(params.tol, 1e-12 * size);
  const double lift_a = -inflation(a), lift_b = inflation(b);
  Hull ha, hb;
  // A's feature faces B (direction −n); B's faces A (+n).
  feature_hull(a, pose_a, -f.n, params, f, lift_a, ha);
  feature_hull(b, pose_b, f.n, params, f, lift_b, hb);

  auto emit = [&](const Vec2& uv, double h_a, double h_b) {
    narrow::detail::emit_contact(f, uv, h_a, h_b, out);
  };
  const bool half_a = a.type() == ShapeType::halfspace, half_b = b.type() == ShapeType::halfspace;
  if (half_a || half_b) {
    // A halfspace's feature is its whole boundary plane: the intersection is
    // the other body's feature.
    const Hull& other = half_a ? hb : ha;
    const double plane = half_a ? halfspace_height(a.as<Halfspace>(), pose_a, f, lift_a)
                                : halfspace_height(b.as<Halfspace>(), pose_b, f, lift_b);
    for (const PlanePoint& p : other)
      half_a ? emit(p.uv, plane, p.h) : emit(p.uv, p.h, plane);
  } else {
    narrow::detail::Clip clip;
    narrow::detail::intersect(ha, hb, eps, clip);
    const narrow::detail::HeightModel za(ha), zb(hb);
    for (const Vec2& uv : clip) emit(uv, za.at(uv), zb.at(uv));
  }
  if (out.points.empty()) narrow::detail::emit_fallback_contact(f, sd.distance, out);
  if (options.max_points > 0) reduce_contacts(out.points, options.max_points, f.n);
}

void contacts(const Shape& a, const Transform& pose_a, const Shape& b, const Transform& pose_b,
              const ContactOptions& options, ContactSet& out) {
  // Two boxes take the dedicated path, unless a feature is degenerate (a box
  // thinner than the tolerance), which only the generic hull handles.
  if (a.type() == ShapeType::box && b.type() == ShapeType::box) {
    if (invalid(pose_a, pose_b, options, out)) return;
    if (narrow::detail::box_box_contacts(a, pose_a, b, pose_b, options, out))
      return;
  }
  narrow::generic_contacts(a, pose_a, b, pose_b, options, out);
}

ContactSet contacts(const Shape& a, const Transform& pose_a, const Shape& b,
                    const Transform& pose_b, const ContactOptions& options) {
  ContactSet out;
  contacts(a, pose_a, b, pose_b, options, out);
  return out;
}

}  // namespace proxima
