// SPDX-License-Identifier: BSD-3-Clause
#include "sweep_bounds.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <proxima/broad/obb.hpp>
#include <proxima/narrow/conservative_advancement.hpp>
#include <proxima/robot/kinematics.hpp>

namespace proxima::robot::detail {

namespace {

bool turns(JointType t) { return t == JointType::revolute || t == JointType::continuous; }

// The largest distance from the origin, and from the line through the
// origin along unit `axis`, to a point of the core of `shape` placed at
// `to_frame`. Only the core counts: a shape is its core ⊕ a ball (margin,
// sphere radius), so its distance to anything is the core's less the
// radius (clamped at 0), which changes no faster than the core's points
// move. Hulls and meshes by their vertices (the largest of a convex
// function over a hull is at a vertex); other primitives by their centre
// plus their core radius.
struct Reach {
  double point = 0.0, axis = 0.0;
};

void vertex_reach(const std::vector<Vec3>& vertices, const Transform& to_frame, const Vec3& axis, Reach& r) {
  for (const Vec3& v : vertices) {
    const Vec3 x = to_frame.apply(v);
    r.point = std::max(r.point, x.norm());
    r.axis = std::max(r.axis, axis.cross(x).norm());
  }
}

void shape_reach(const LinkShape& ls, const Transform& to_frame, const Vec3& axis, Reach& r) {
  if (const Bvh* b = ls.bvh()) return vertex_reach(b->mesh().vertices(), to_frame, axis, r);
  const Shape& s = *ls.shape();
  if (s.type() == ShapeType::convex) return vertex_reach(s.as<ConvexPolytope>().vertices(), to_frame, axis, r);
  const double radius = narrow::core_radius(s);
  r.point = std::max(r.point, to_frame.p.norm() + radius);
  r.axis = std::max(r.axis, axis.cross(to_frame.p).norm() + radius);
}

// The largest |position| prismatic joint j takes on the segment: its value
// is affine in s, so the larger of its ends.
double largest_slide(const Joint& j, std::span<const double> q0, std::span<const double> q1) {
  const auto v = static_cast<std::size_t>(j.variable);
  return std::max(std::abs(j.variable_multiplier * q0[v] + j.variable_offset),
                  std::abs(j.variable_multiplier * q1[v] + j.variable_offset));
}

}  // namespace

SweepGeometry sweep_geometry(const RobotGeometry& geometry) {
  const RobotModel& model = geometry.model();
  const std::size_t n = model.links().size();
  SweepGeometry g;
  g.chain_begin.assign(n + 1, 0);
  g.reach.assign(n, 0.0);
  g.axis_reach.assign(n, 0.0);
  std::vector<int> up;
  for (std::size_t i = 0; i < n; ++i) {
    g.chain_begin[i] = g.chain.size();
    // Up through fixed joints to the anchor: the link's pose in the
    // anchor's child frame is constant.
    Transform to_anchor = Transform::identity();
    int link = static_cast<int>(i);
    int anchor = -1;
    while (model.link(link).parent_joint >= 0) {
      const Joint& j = model.joint(model.link(link).parent_joint);
      if (j.type != JointType::fixed) {
        anchor = model.link(link).parent_joint;
        break;
      }
      to_anchor = j.origin * to_anchor;
      link = j.parent_link;
    }
    if (anchor < 0) continue;  // rigid on the base: it does not move
    up.clear();
    for (int j = anchor; j >= 0; j = model.link(model.joint(j).parent_link).parent_joint) up.push_back(j);
    g.chain.insert(g.chain.end(), up.rbegin(), up.rend());
    Reach r;
    for (const LinkShape& ls : geometry.link(static_cast<int>(i)).shapes)
      shape_reach(ls, to_anchor * ls.origin, model.joint(anchor).axis, r);
    g.reach[i] = r.point;
    g.axis_reach[i] = r.axis;
  }
  g.chain_begin[n] = g.chain.size();
  // World axes at q = 0; 1e-12 rad counts as parallel, and Approach::add
  // still charges such joints a 1e-9 share of their rate.
  const std::vector<double> zero(model.variable_count(), 0.0);
  const std::vector<Transform> at_zero = forward_kinematics(model, zero);
  auto world_axis = [&](int joint) {
    const Joint& j = model.joint(joint);
    return Vec3(at_zero[static_cast<std::size_t>(j.child_link)].R * j.axis);
  };
  g.parallel_from.assign(g.chain.size(), 0);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t b = g.chain_begin[i], m = g.chain_begin[i + 1] - b;
    for (std::size_t l = 0; l < m; ++l) {
      const Vec3 a = world_axis(g.chain[b + l]);
      std::size_t from = l;
      while (from > 0) {
        const Joint& above = model.joint(g.chain[b + from - 1]);
        if (turns(above.type) && world_axis(g.chain[b + from - 1]).cross(a).norm() > 1e-12) break;
        --from;
      }
      g.parallel_from[b + l] = from;
    }
  }
  return g;
}

double LinkSpeeds::below(const SweepGeometry& g, int link, std::size_t shared) const {
  const auto i = static_cast<std::size_t>(link);
  const std::size_t m = g.chain_begin[i + 1] - g.chain_begin[i];
  return tail[g.chain_begin[i] + i + std::min(shared, m)];
}

void link_speeds(const RobotModel& model, const SweepGeometry& g, std::span<const double> q0,
                 std::span<const double> q1, LinkSpeeds& out) {
  const std::size_t n = model.links().size();
  out.tail.assign(g.chain.size() + n, 0.0);
  out.term.assign(g.chain.size() + n, 0.0);
  out.spin.assign(g.chain.size() + n, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t b = g.chain_begin[i], m = g.chain_begin[i + 1] - b;
    double* tail = out.tail.data() + b + i;
    double* term = out.term.data() + b + i;
    double* spin = out.spin.data() + b + i;
    // Walking up from the anchor: `lever` bounds the distance from the
    // current joint's child-frame origin to the link's points, `radius`
    // the distance from the current joint's axis to them.
    double lever = g.reach[i];
    double radius = g.axis_reach[i];
    for (std::size_t l = m; l-- > 0;) {
      const Joint& j = model.joint(g.chain[b + l]);
      if (l + 1 < m) {
        // The next joint's origin is fixed in this joint's child link,
        // away from it by its origin offset plus its own slide.
        const Joint& next = model.joint(g.chain[b + l + 1]);
        const double slide = next.type == JointType::prismatic ? largest_slide(next, q0, q1) : 0.0;
        radius = j.axis.cross(next.origin.p).norm() + slide + lever;
        lever += next.origin.p.norm() + slide;
      }
      double speed = 0.0;
      if (j.variable >= 0) {
        const auto v = static_cast<std::size_t>(j.variable);
        const double rate = std::abs(j.variable_multiplier * (q1[v] - q0[v]));
        if (turns(j.type)) {
          speed = rate * radius;
          spin[l] = rate;
        } else if (j.type == JointType::prismatic) {
          speed = rate;
        }
      }
      term[l] = speed;
      tail[l] = tail[l + 1] + speed;
    }
  }
}

void Approach::add(const RobotModel& model, const SweepGeometry& g, const LinkSpeeds& speeds, int link,
                   std::size_t from, const Vec3& n, std::span<const Transform> link_poses, const Geometry& shape,
                   const Transform& shape_pose) {
  const auto i = static_cast<std::size_t>(link);
  const std::size_t b = g.chain_begin[i], m = g.chain_begin[i + 1] - b;
  double spun = 0.0;  // Σ |θ'| of the turning joints from `from` to the current one
  // The shape's local box, placed: its corners bound the extents in closed
  // form. (The hull's own support values, a hill climb per direction, are
  // tighter, but in one A/B run they took the Panda's long edges from 126
  // to 154 ms while saving steps.)
  const broad::Obb box = broad::Obb::placed(local_box(shape), shape_pose);
  for (std::size_t l = from; l < m; ++l) {
    const double term = speeds.term[b + i + l], spin = speeds.spin[b + i + l];
    spun += spin;
    if (term == 0.0) continue;
    const Joint& j = model.joint(g.chain[b + l]);
    const Transform& frame = link_poses[static_cast<std::size_t>(j.child_link)];
    const Vec3 axis = frame.R * j.axis;
    double turn = 0.0;
    const std::size_t locked = g.parallel_from[b + l];
    for (std::size_t k = from; k < l; ++k) turn += (k < locked ? 1.0 : 1e-9) * speeds.spin[b + i + k];
    const double turned = term * (turn * (1.0 + 1e-12));
    speed += term;
    turning += turned;
    if (!turns(j.type)) {
      const double f = std::abs(n.dot(axis));
      along += term * f;
      extent += term * f;
      extent_turning += turned;
      continue;
    }
    const Vec3 t = n.cross(axis);
    along += term * t.norm();
    // The extent about the axis (through the child frame's origin) along t.
    const double e = std::abs(t.dot(box.center - frame.p)) + box.reach(t);
    extent += spin * e * (1.0 + 1e-12);
    extent_turning += (term * spun + spin * speeds.tail[b + i + l + 1]) * (1.0 + 1e-12);
  }
}

double Approach::horizon(double room, double limit) const {
  if (!(room > 0.0)) return 0.0;
  // The slack covers the rounding of the sums and of unit vectors.
  constexpr double kUp = 1.0 + 1e-12;
  const double s = speed * kUp;
  if (!(s > 0.0)) return limit;
  // The root of a h + c h²/2 = room, in its cancellation-free form
  // (infinite when both are 0: that bound never reaches the room).
  auto root = [&](double a, double c) {
    a *= kUp;
    c *= kUp;
    if (c > 0.0) return 2.0 * room / (a + std::sqrt(a * a + 2.0 * c * room));
    return a > 0.0 ? room / a : std::numeric_limits<double>::infinity();
  };
  const double h = std::max({room / s, root(along, turning), root(extent, extent_turning)});
  return std::min(h * (1.0 - 1e-12), limit);
}

std::size_t shared_joints(const SweepGeometry& g, int a, int b) {
  const auto ua = static_cast<std::size_t>(a), ub = static_cast<std::size_t>(b);
  const std::size_t ma = g.chain_begin[ua + 1] - g.chain_begin[ua], mb = g.chain_begin[ub + 1] - g.chain_begin[ub];
  std::size_t k = 0;
  while (k < ma && k < mb && g.chain[g.chain_begin[ua] + k] == g.chain[g.chain_begin[ub] + k]) ++k;
  return k;
}

}  // namespace proxima::robot::detail
