// SPDX-License-Identifier: BSD-3-Clause
// Planar geometry of the contact manifold (Contact data for convex polyhedra, §IV-E): both bodies'
// support features projected onto the contact plane, their convex hulls, and
// the intersection of the two hulls (point, segment or polygon each).
#pragma once

#include <algorithm>

#include <proxima/core/static_vector.hpp>
#include <proxima/core/math.hpp>

namespace proxima::narrow::detail {

using Vec2 = Eigen::Vector2d;

/// The z component of the cross product of two plane vectors: positive when b
/// turns left from a.
inline double cross(const Vec2& a, const Vec2& b) { return a.x() * b.y() - a.y() * b.x(); }

/// A point of a feature in plane coordinates (u, v) and its height h along
/// the normal.
struct PlanePoint {
  Vec2 uv;
  double h;
};

/// Hulls of up to N points; the intersection of two has at most 2N vertices.
/// Two capacities are built: kMaxHull for any feature, kBoxHull for a box's
/// (a face at most), whose buffers then stay a few cache lines.
template <std::size_t N>
using HullOf = StaticVector<PlanePoint, N>;
template <std::size_t N>
using ClipOf = StaticVector<Vec2, 2 * N>;

inline constexpr std::size_t kMaxHull = 512;
inline constexpr std::size_t kBoxHull = 8;  // a box face has 4; the rest is slack
using Hull = HullOf<kMaxHull>;
using Clip = ClipOf<kMaxHull>;

/// Counter-clockwise convex hull of pts (reordered in place; n ≤ 2N).
/// Points closer than eps merge; a collinear set gives its two ends, a
/// coincident set one point. The hull starts at the lowest (u, v)
/// lexicographically.
template <std::size_t N>
void convex_hull(PlanePoint* pts, std::size_t n, double eps, HullOf<N>& out);

/// Vertices of the intersection of two hulls (each a point, a segment or a
/// counter-clockwise polygon), with eps of slack on every boundary. Empty
/// when they do not meet.
template <std::size_t N>
void intersect(const HullOf<N>& p, const HullOf<N>& q, double eps, ClipOf<N>& out);

/// Height of a hull's surface above (u, v): constant for a point, linear
/// along a segment, the least-squares plane of a polygon's vertices (exact
/// for a face; within the feature tolerance for a near-flat vertex set).
class HeightModel {
 public:
  HeightModel(const PlanePoint* hull, std::size_t n) {
    if (n == 0) return;
    origin_ = hull[0].uv;
    h0_ = hull[0].h;
    kind_ = n == 1 ? 1 : n == 2 ? 2 : 3;
    if (kind_ == 2) {
      const Vec2 e = hull[1].uv - hull[0].uv;
      slope_ = e / e.squaredNorm();
      dh_ = hull[1].h - hull[0].h;
    } else if (n == 4) {
      fit_quad(hull);  // a box face
    } else if (kind_ == 3) {
      fit_polygon(hull, n);
    }
  }
  template <std::size_t N>
  explicit HeightModel(const HullOf<N>& hull) : HeightModel(hull.begin(), hull.size()) {}
  double at(const Vec2& uv) const {
    switch (kind_) {
      case 2: return h0_ + std::clamp(slope_.dot(uv - origin_), 0.0, 1.0) * dh_;
      case 3: return h0_ + slope_.dot(uv - origin_);
      default: return h0_;
    }
  }

 private:
  void fit_polygon(const PlanePoint* hull, std::size_t n);
  void fit_quad(const PlanePoint* q);

  Vec2 origin_ = Vec2::Zero();
  Vec2 slope_ = Vec2::Zero();  // polygon: gradient; segment: direction / length²
  double h0_ = 0.0;
  double dh_ = 0.0;  // segment: height change end to end
  int kind_ = 0;     // 1 point, 2 segment, 3 polygon
};

}  // namespace proxima::narrow::detail
