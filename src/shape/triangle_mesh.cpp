// Validation, closedness and divergence-theorem mass properties of a
// triangle soup.
#include <algorithm>
#include <cmath>
#include <sstream>
#include <utility>

#include <proxima/core/error.hpp>
#include <proxima/shape/triangle_mesh.hpp>

namespace proxima {

namespace {

[[noreturn]] void reject(const std::string& name, const std::string& reason) {
  std::string what = "triangle mesh";
  if (!name.empty()) what += " '" + name + "'";
  throw Error(what + ": " + reason);
}

void require_margin(const std::string& name, double margin) {
  if (!std::isfinite(margin) || margin < 0.0) {
    std::ostringstream m;
    m << "margin must be finite and >= 0 (got " << margin << ")";
    reject(name, m.str());
  }
}

// Every undirected edge must be met exactly twice, once in each direction.
// Sorting (edge, direction) pairs keeps this allocation-light and
// deterministic for million-triangle soups, where a hash map would not be.
bool closed_and_oriented(const std::vector<TriangleIndices>& triangles) {
  std::vector<std::pair<std::uint64_t, bool>> edges;
  edges.reserve(3 * triangles.size());
  for (const TriangleIndices& t : triangles) {
    for (int k = 0; k < 3; ++k) {
      const std::uint32_t a = t[static_cast<std::size_t>(k)];
      const std::uint32_t b = t[static_cast<std::size_t>((k + 1) % 3)];
      const std::uint64_t lo = std::min(a, b), hi = std::max(a, b);
      edges.emplace_back((lo << 32) | hi, a < b);
    }
  }
  std::sort(edges.begin(), edges.end());
  for (std::size_t i = 0; i < edges.size(); i += 2) {
    if (i + 1 >= edges.size()) return false;
    const auto& e = edges[i];
    const auto& f = edges[i + 1];
    // A repeated index (a, a) is an edge no second triangle can oppose.
    if (e.first != f.first || e.second == f.second || (e.first >> 32) == (e.first & 0xffffffffu)) {
      return false;
    }
    if (i + 2 < edges.size() && edges[i + 2].first == e.first) return false;
  }
  return true;
}

}  // namespace

TriangleMesh::TriangleMesh(std::vector<Vec3> vertices, std::vector<TriangleIndices> triangles,
                           double margin, std::string name)
    : margin_(margin) {
  require_margin(name, margin);
  if (triangles.empty()) reject(name, "no triangles");
  for (std::size_t i = 0; i < vertices.size(); ++i) {
    if (!vertices[i].allFinite()) {
      std::ostringstream m;
      m << "vertex " << i << " has a non-finite coordinate (" << vertices[i].x() << ", "
        << vertices[i].y() << ", " << vertices[i].z() << ")";
      reject(name, m.str());
    }
  }
  for (std::size_t t = 0; t < triangles.size(); ++t) {
    for (std::uint32_t v : triangles[t]) {
      if (v >= vertices.size()) {
        std::ostringstream m;
        m << "triangle " << t << " uses vertex index " << v << ", out of range (there are "
          << vertices.size() << " vertices)";
        reject(name, m.str());
      }
    }
  }
  auto data = std::make_shared<Data>();
  // Bounds over the vertices the triangles use: an unused stray vertex is
  // not part of the geometry and must not widen the box.
  for (const TriangleIndices& t : triangles) {
    for (std::uint32_t v : t) data->bounds.extend(vertices[v]);
  }
  data->closed = closed_and_oriented(triangles);
  data->vertices = std::move(vertices);
  data->triangles = std::move(triangles);
  data->name = std::move(name);
  data_ = std::move(data);
}

TriangleMesh TriangleMesh::with_margin(double margin) const {
  require_margin(data_->name, margin);
  TriangleMesh m = *this;
  m.margin_ = margin;
  return m;
}

Aabb TriangleMesh::local_aabb() const { return data_->bounds.inflated(margin_); }

std::optional<MassProperties> TriangleMesh::mass_properties() const {
  if (!data_->closed) return std::nullopt;
  const Data& d = *data_;
  // Signed tetrahedra from a reference point inside the bounds to each
  // triangle (divergence theorem); a reference near the middle keeps the
  // moments well conditioned for meshes far from the origin.
  const Vec3 ref = d.bounds.center();
  double volume = 0.0;
  Vec3 first = Vec3::Zero();
  Mat3 second = Mat3::Zero();
  for (const TriangleIndices& t : d.triangles) {
    const Vec3 a = d.vertices[t[0]] - ref;
    const Vec3 b = d.vertices[t[1]] - ref;
    const Vec3 c = d.vertices[t[2]] - ref;
    const double v = a.dot(b.cross(c)) / 6.0;
    const Vec3 s = a + b + c;
    volume += v;
    first += v * s / 4.0;
    second += v / 20.0 * (a * a.transpose() + b * b.transpose() + c * c.transpose() + s * s.transpose());
  }
  // A closed but flat mesh (e.g. a triangle and its reverse) encloses
  // nothing; dividing by its rounding-noise volume would give garbage.
  const double extent = (d.bounds.max - d.bounds.min).norm();
  MassProperties m;
  if (std::abs(volume) <= 1e-12 * extent * extent * extent) {
    m.centroid = d.bounds.center();
    return m;
  }
  // An inward-oriented mesh gives the same solid with every moment negated.
  // The sign is global on purpose: a shell whose inner surface faces inward
  // then gets the volume of the shell.
  if (volume < 0.0) {
    volume = -volume;
    first = -first;
    second = -second;
  }
  const Vec3 c = first / volume;
  const Mat3 cov = second - volume * c * c.transpose();
  m.volume = volume;
  m.centroid = c + ref;
  m.inertia = cov.trace() * Mat3::Identity() - cov;
  return m;
}

}  // namespace proxima
