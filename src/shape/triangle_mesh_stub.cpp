// TEMPORARY STUB of TriangleMesh, only so that the mesh/ layer links on branch
// `bvh` while the real implementation is written in parallel (branch meshio).
// Replace with src/shape/triangle_mesh.cpp at merge; delete this file.
#include <cmath>
#include <algorithm>
#include <vector>
#include <string>
#include <utility>

#include <proxima/core/error.hpp>
#include <proxima/shape/triangle_mesh.hpp>

namespace proxima {

TriangleMesh::TriangleMesh(std::vector<Vec3> vertices, std::vector<TriangleIndices> triangles,
                           double margin, std::string name) {
  const std::string who = name.empty() ? std::string("triangle mesh") : name;
  if (triangles.empty()) throw Error(who + ": no triangles");
  if (!std::isfinite(margin) || margin < 0.0) throw Error(who + ": margin must be finite and >= 0");
  auto d = std::make_shared<Data>();
  for (const Vec3& v : vertices) {
    if (!v.allFinite()) throw Error(who + ": non-finite vertex coordinate");
    d->bounds.extend(v);
  }
  for (const TriangleIndices& t : triangles)
    for (std::uint32_t i : t)
      if (i >= vertices.size()) throw Error(who + ": vertex index out of range");
  // Closed: every directed edge appears exactly once and so does its reverse.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> edges;
  edges.reserve(3 * triangles.size());
  for (const TriangleIndices& t : triangles)
    for (std::size_t k = 0; k < 3; ++k) edges.emplace_back(t[k], t[(k + 1) % 3]);
  std::sort(edges.begin(), edges.end());
  bool closed = std::adjacent_find(edges.begin(), edges.end()) == edges.end();
  for (std::size_t i = 0; closed && i < edges.size(); ++i)
    closed = std::binary_search(edges.begin(), edges.end(), std::make_pair(edges[i].second, edges[i].first));
  d->closed = closed;
  d->vertices = std::move(vertices);
  d->triangles = std::move(triangles);
  d->name = std::move(name);
  data_ = std::move(d);
  margin_ = margin;
}

TriangleMesh TriangleMesh::with_margin(double margin) const {
  if (!std::isfinite(margin) || margin < 0.0) throw Error("triangle mesh: margin must be finite and >= 0");
  TriangleMesh m = *this;
  m.margin_ = margin;
  return m;
}

Aabb TriangleMesh::local_aabb() const { return data_->bounds.inflated(margin_); }

std::optional<MassProperties> TriangleMesh::mass_properties() const { return std::nullopt; }

}  // namespace proxima
