// Planar geometry of the contact manifold (paper 001 §IV-E): both bodies'
// support features projected onto the contact plane, their convex hulls, and
// the intersection of the two hulls (point, segment or polygon each).
#pragma once

#include <proxima/core/static_vector.hpp>
#include <proxima/core/math.hpp>

namespace proxima::narrow::detail {

using Vec2 = Eigen::Vector2d;

/// A point of a feature in plane coordinates (u, v) and its height h along
/// the normal.
struct PlanePoint {
  Vec2 uv;
  double h;
};

inline constexpr std::size_t kMaxHull = 512;
inline constexpr std::size_t kMaxClip = 2 * kMaxHull;
using Hull = StaticVector<PlanePoint, kMaxHull>;
using Clip = StaticVector<Vec2, kMaxClip>;

/// Counter-clockwise convex hull of pts (reordered in place). Points closer
/// than eps merge; a collinear set gives its two ends, a coincident set one
/// point.
void convex_hull(PlanePoint* pts, std::size_t n, double eps, Hull& out);

/// Vertices of the intersection of two hulls (each a point, a segment or a
/// counter-clockwise polygon), with eps of slack on every boundary. Empty
/// when they do not meet.
void intersect(const Hull& p, const Hull& q, double eps, Clip& out);

/// Height of a hull's surface above (u, v): constant for a point, linear
/// along a segment, the least-squares plane of a polygon's vertices (exact
/// for a face; within the feature tolerance for a near-flat vertex set).
class HeightModel {
 public:
  explicit HeightModel(const Hull& hull);
  double at(const Vec2& uv) const;

 private:
  Vec2 origin_ = Vec2::Zero();
  Vec2 slope_ = Vec2::Zero();  // polygon: gradient; segment: direction / length²
  double h0_ = 0.0;
  double dh_ = 0.0;  // segment: height change end to end
  int kind_ = 0;     // 1 point, 2 segment, 3 polygon
};

}  // namespace proxima::narrow::detail
