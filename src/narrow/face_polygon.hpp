// SPDX-License-Identifier: BSD-3-Clause
// Whether a point on a polytope face's plane lies in that face's polygon:
// the cone-pruned SATs' (sat_segment.cpp, sat_polytope_box.cpp) proof that
// the witness they place on a face's plane is on the polytope's surface.
#pragma once

#include <cstddef>
#include <vector>

#include <proxima/shape/convex_polytope.hpp>

namespace proxima::narrow::detail {

/// Whether x (P's frame), on the plane of face `face` of P (an index into
/// PolytopeData::faces), lies inside or on that face's polygon: on the left
/// of each of its edges, seen from outside (the loop is counter-clockwise).
/// A point on the plane and in the polygon is on P's surface, which the
/// dispatcher would otherwise prove by a search over P's planes; a point
/// within rounding of an edge may fail here, and is then checked that way.
inline bool inside_face_polygon(const PolytopeData& d, int face, const Vec3& x) {
  const std::vector<int>& loop = d.faces[static_cast<std::size_t>(face)];
  const Vec3& n = d.face_normals[static_cast<std::size_t>(face)];
  const std::size_t m = loop.size();
  for (std::size_t i = 0; i < m; ++i) {
    const Vec3& p = d.vertices[static_cast<std::size_t>(loop[i])];
    const Vec3& q = d.vertices[static_cast<std::size_t>(loop[i + 1 == m ? 0 : i + 1])];
    if ((q - p).cross(x - p).dot(n) < 0.0) return false;
  }
  return true;
}

}  // namespace proxima::narrow::detail
