// SPDX-License-Identifier: BSD-3-Clause
// Support features: the part of a shape's core that is extreme along a
// direction, within a tolerance (Contact data for convex polyhedra, §IV-E: "the vertices lying on the
// contact plane"). A point, a segment or a planar convex polygon, given by
// its points in the shape's local frame; the contact manifold intersects the
// features of the two shapes.
#pragma once

#include <cmath>
#include <numbers>

#include <proxima/core/static_vector.hpp>
#include <proxima/shape/shape.hpp>

namespace proxima::narrow::detail {

/// Larger faces than this are thinned to every other vertex, an inner
/// approximation of the face (only polytopes with very large faces reach it).
inline constexpr std::size_t kMaxFeaturePoints = 512;
using FeaturePoints = StaticVector<Vec3, kMaxFeaturePoints>;

struct FeatureParams {
  double tol;       ///< metres: how far below the extreme plane a point may lie
  int disc_points;  ///< polygon used for a flat cap
};

inline void add_disc(FeaturePoints& out, double radius, double z, int n) {
  for (int i = 0; i < n; ++i) {
    const double t = 2.0 * std::numbers::pi * i / n;
    out.push_back({radius * std::cos(t), radius * std::sin(t), z});
  }
}

inline void support_feature(const Sphere&, const Vec3&, const FeatureParams&, FeaturePoints& out) {
  out.push_back(Vec3::Zero());
}

inline void support_feature(const Ellipsoid& s, const Vec3& d, const FeatureParams&,
                            FeaturePoints& out) {
  out.push_back(s.core_support(d));
}

inline void support_feature(const Capsule& s, const Vec3& d, const FeatureParams& p,
                            FeaturePoints& out) {
  const double h = s.half_length();
  if (2.0 * h * std::abs(d.z()) <= p.tol) {
    out.push_back({0.0, 0.0, -h});
    out.push_back({0.0, 0.0, h});
  } else {
    out.push_back(s.core_support(d));
  }
}

inline void support_feature(const Box& s, const Vec3& d, const FeatureParams& p,
                            FeaturePoints& out) {
  const Vec3& h = s.half_extents();
  // An axis whose two faces are within tol along d contributes both signs.
  bool both[3];
  for (int i = 0; i < 3; ++i) both[i] = 2.0 * h[i] * std::abs(d[i]) <= p.tol;
  const Vec3 c = s.core_support(d);
  for (int k = 0; k < 8; ++k) {
    Vec3 x = c;
    bool skip = false;
    for (int i = 0; i < 3; ++i) {
      if (k & (1 << i)) {
        if (!both[i]) { skip = true; break; }
        x[i] = -x[i];
      }
    }
    if (!skip) out.push_back(x);
  }
}

inline void support_feature(const Cylinder& s, const Vec3& d, const FeatureParams& p,
                            FeaturePoints& out) {
  const double h = 0.5 * s.length(), r = s.radius();
  const double rho = std::hypot(d.x(), d.y());
  const bool cap = 2.0 * r * rho <= p.tol;
  const bool side = 2.0 * h * std::abs(d.z()) <= p.tol;
  if (cap && !side) {
    add_disc(out, r, std::copysign(h, d.z()), p.disc_points);
  } else if (side && rho > 0.0) {
    const double ux = r * d.x() / rho, uy = r * d.y() / rho;
    out.push_back({ux, uy, -h});
    out.push_back({ux, uy, h});
  } else {
    out.push_back(s.core_support(d));
  }
}

inline void support_feature(const Cone& s, const Vec3& d, const FeatureParams& p,
                            FeaturePoints& out) {
  const double h = 0.5 * s.length(), r = s.radius();
  const double rho = std::hypot(d.x(), d.y());
  const double apex = h * d.z();
  const double rim = r * rho - h * d.z();
  const double best = std::max(apex, rim);
  if (2.0 * r * rho <= p.tol && rim >= best - p.tol) {
    add_disc(out, r, -h, p.disc_points);  // base cap (apex cannot also be extreme)
    return;
  }
  if (apex >= best - p.tol) out.push_back({0.0, 0.0, h});
  if (rim >= best - p.tol && rho > 0.0) out.push_back({r * d.x() / rho, r * d.y() / rho, -h});
}

// The vertices within tol of the extreme plane form a connected subgraph of
// the hull containing the support vertex: every such vertex has an edge path
// increasing along d to it (the simplex-method property), so a flood fill
// from the support vertex over that subgraph finds them all.
inline void support_feature(const ConvexPolytope& s, const Vec3& d, const FeatureParams& p,
                            FeaturePoints& out) {
  const PolytopeData& data = s.data();
  int hint = -1;
  const int top = s.support_index(d, hint);
  const double floor = d.dot(data.vertices[static_cast<std::size_t>(top)]) - p.tol;
  StaticVector<int, kMaxFeaturePoints> found;
  found.push_back(top);
  bool overflow = false;
  for (std::size_t i = 0; i < found.size() && !overflow; ++i) {
    const auto v = static_cast<std::size_t>(found[i]);
    for (int k = data.neighbor_offsets[v]; k < data.neighbor_offsets[v + 1] && !overflow; ++k) {
      const int w = data.neighbors[static_cast<std::size_t>(k)];
      if (d.dot(data.vertices[static_cast<std::size_t>(w)]) < floor) continue;
      bool seen = false;
      for (int f : found) seen = seen || f == w;
      if (!seen) overflow = !found.push_back(w);
    }
  }
  if (overflow) {
    // Too large a face: keep every other vertex, an inner approximation.
    for (std::size_t i = 0; i < found.size(); i += 2)
      out.push_back(data.vertices[static_cast<std::size_t>(found[i])]);
    return;
  }
  for (int f : found) out.push_back(data.vertices[static_cast<std::size_t>(f)]);
}

}  // namespace proxima::narrow::detail
