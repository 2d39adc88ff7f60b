// SPDX-License-Identifier: BSD-3-Clause
// Validation, closedness and divergence-theorem mass properties of a
// triangle soup.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <utility>
#include <vector>

#include <proxima/core/error.hpp>
#include <proxima/shape/triangle_mesh.hpp>

#include "validate.hpp"

namespace proxima {

namespace {

// "triangle mesh 'name'": how the shapes' shared checks name this mesh.
std::string label(const std::string& name) {
  return name.empty() ? std::string("triangle mesh") : "triangle mesh '" + name + "'";
}

[[noreturn]] void reject(const std::string& name, const std::string& reason) {
  detail::reject(label(name).c_str(), reason);
}

void require_margin(const std::string& name, double margin) { detail::require_margin(label(name).c_str(), margin); }

// Every undirected edge must be met exactly twice, once in each direction:
// equivalently, the edges that run from the lower index to the higher
// ("forward") and those that run back, each as the undirected key
// (lower << 32 | higher), are the same set twice over with no key
// repeated. Two sorted arrays of 64-bit keys keep this at 24 bytes per
// triangle, deterministic for million-triangle soups (where a hash map
// would not be) and without a search per edge.
bool closed_and_oriented(const std::vector<TriangleIndices>& triangles) {
  std::vector<std::uint64_t> forward, backward;
  forward.reserve(3 * triangles.size() / 2 + 1);
  backward.reserve(3 * triangles.size() / 2 + 1);
  for (const TriangleIndices& t : triangles) {
    for (std::size_t k = 0; k < 3; ++k) {
      const std::uint64_t a = t[k], b = t[(k + 1) % 3];
      // A repeated index makes an edge of one point, its own reverse.
      if (a == b) return false;
      if (a < b) forward.push_back((a << 32) | b);
      else backward.push_back((b << 32) | a);
    }
  }
  if (forward.size() != backward.size()) return false;
  std::sort(forward.begin(), forward.end());
  std::sort(backward.begin(), backward.end());
  return forward == backward && std::adjacent_find(forward.begin(), forward.end()) == forward.end();
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
    if (!in_range(vertices[i])) {
      const std::string what = "vertex " + std::to_string(i) + " coordinate";
      reject(name, detail::beyond_range(what.c_str(), vertices[i].cwiseAbs().maxCoeff()));
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
  if (data->closed) {
    // Orientation of a closed mesh: the sign of its enclosed volume.
    const Vec3 ref = data->bounds.center();
    double volume = 0.0;
    for (const TriangleIndices& t : triangles) {
      const Vec3 a = vertices[t[0]] - ref, b = vertices[t[1]] - ref, c = vertices[t[2]] - ref;
      volume += a.dot(b.cross(c));
    }
    const double extent = (data->bounds.max - data->bounds.min).norm();
    if (std::abs(volume) > 1e-12 * extent * extent * extent) data->orientation = volume > 0.0 ? 1 : -1;
  }
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
