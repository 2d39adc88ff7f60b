// SPDX-License-Identifier: BSD-3-Clause
// Pieces every contact-manifold construction shares (manifold.cpp for any
// pair, box_manifold.cpp for two boxes): the option check, the contact
// plane's frame and how a planar point becomes a Contact. Sharing them keeps
// the box path's output identical to the generic one.
#pragma once

#include <cmath>

#include <proxima/contact/contact.hpp>

#include "plane_geometry.hpp"

namespace proxima::narrow::detail {

inline bool bad_contact_options(const ContactOptions& o) {
  return !(o.margin >= 0.0) || !std::isfinite(o.margin) || !(o.feature_tolerance >= 0.0) ||
         !std::isfinite(o.feature_tolerance) || o.disc_points < 3 || o.max_points < 0;
}

// The contact plane's frame: origin o, in-plane axes e1, e2, normal n (B→A).
struct PlaneFrame {
  Vec3 o, e1, e2, n;
  PlaneFrame(const Vec3& normal, const Vec3& origin) : o(origin), n(normal) {
    e1 = n.unitOrthogonal();
    e2 = n.cross(e1);
  }
  PlanePoint project(const Vec3& x, double lift) const {
    const Vec3 r = x - o;
    return {Vec2(e1.dot(r), e2.dot(r)), n.dot(r) + lift};
  }
  Vec3 lift(const Vec2& uv, double h) const { return o + uv.x() * e1 + uv.y() * e2 + h * n; }
};

// The contact at (u, v) between A's surface at height h_a and B's at h_b:
// midway between them, depth the overlap.
inline void emit_contact(const PlaneFrame& f, const Vec2& uv, double h_a, double h_b, ContactSet& out) {
  Contact c;
  c.point = f.lift(uv, 0.5 * (h_a + h_b));
  c.normal = f.n;
  c.depth = h_b - h_a;
  out.points.push_back(c);
}

// Contact data for convex polyhedra, §IV-E, its numerical issue 2: no intersection found, so the midpoint
// of the closest points stands for it.
inline void emit_fallback_contact(const PlaneFrame& f, double distance, ContactSet& out) {
  Contact c;
  c.point = f.o;
  c.normal = f.n;
  c.depth = -distance;
  out.points.push_back(c);
}

}  // namespace proxima::narrow::detail
