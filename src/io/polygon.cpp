// SPDX-License-Identifier: BSD-3-Clause
// Polygons of OBJ and PLY faces into triangles: a fan when the polygon is
// planar and convex, a reason otherwise. A fan of a non-convex polygon would
// cover area outside it, and a fan of a non-planar one invents a surface, so
// those are rejected rather than guessed at.
#include <cmath>
#include <numbers>
#include <sstream>

#include "mesh_source.hpp"

namespace proxima::io_detail {

namespace {
// Tolerances stated in mesh_io.hpp.
constexpr double kPlanarity = 1e-6;     // × the polygon's largest extent
constexpr double kTurn = 1e-9;          // sine of a backward turn
constexpr double kDegenerate = 1e-12;   // |Newell normal| / extent²
}  // namespace

std::string triangulate_polygon(const std::vector<Vec3>& vertices, const std::uint32_t* corners,
                                std::size_t count, std::vector<TriangleIndices>& out) {
  std::ostringstream why;
  if (count < 3) {
    why << "face has " << count << " corner" << (count == 1 ? "" : "s") << ", needs at least 3";
    return why.str();
  }
  if (count == 3) {
    out.push_back({corners[0], corners[1], corners[2]});
    return {};
  }
  auto p = [&](std::size_t i) -> const Vec3& { return vertices[corners[i % count]]; };

  // Mean plane: centroid and Newell normal (area-weighted, so the sign
  // follows the corner order even when some corners are collinear).
  Vec3 centroid = Vec3::Zero();
  Aabb box;
  for (std::size_t i = 0; i < count; ++i) {
    centroid += p(i);
    box.extend(p(i));
  }
  centroid /= static_cast<double>(count);
  const double extent = (box.max - box.min).maxCoeff();
  Vec3 normal = Vec3::Zero();
  for (std::size_t i = 0; i < count; ++i) normal += (p(i) - centroid).cross(p(i + 1) - centroid);
  if (!(normal.norm() > kDegenerate * extent * extent)) {
    why << "polygon with " << count << " corners has no area (collinear or folded corners)";
    return why.str();
  }
  normal.normalize();

  // Planarity: every corner close to the mean plane.
  for (std::size_t i = 0; i < count; ++i) {
    const double off = std::abs(normal.dot(p(i) - centroid));
    if (off > kPlanarity * extent) {
      why << "polygon with " << count << " corners is not planar: corner " << i + 1 << " is " << off
          << " off its mean plane (tolerance " << kPlanarity << " x extent " << extent << ")";
      return why.str();
    }
  }

  // Convexity: no turn against the normal, and the turns add up to one
  // revolution (a pentagram turns the right way at every corner, twice round).
  double winding = 0.0;
  for (std::size_t i = 0; i < count; ++i) {
    const Vec3 e1 = p(i + count) - p(i + count - 1);
    const Vec3 e2 = p(i + 1) - p(i);
    const double l = e1.norm() * e2.norm();
    if (l == 0.0) continue;  // repeated corner: no turn
    const double s = normal.dot(e1.cross(e2)) / l;
    if (s < -kTurn) {
      why << "polygon with " << count << " corners is not convex (turns back at corner " << i + 1
          << "); only convex polygons are triangulated";
      return why.str();
    }
    winding += std::atan2(s, e1.dot(e2) / l);
  }
  if (std::abs(winding - 2.0 * std::numbers::pi) > 1e-6) {
    why << "polygon with " << count << " corners is not simple (winds "
        << winding / (2.0 * std::numbers::pi) << " times round); only convex polygons are triangulated";
    return why.str();
  }

  for (std::size_t i = 1; i + 1 < count; ++i) out.push_back({corners[0], corners[i], corners[i + 1]});
  return {};
}

}  // namespace proxima::io_detail
