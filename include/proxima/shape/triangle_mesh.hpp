// SPDX-License-Identifier: BSD-3-Clause
// Triangle mesh as it comes: a soup of triangles, not necessarily closed,
// manifold or consistently oriented. Immutable once built; copies share data.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <proxima/core/aabb.hpp>
#include <proxima/core/mass_properties.hpp>

namespace proxima {

using TriangleIndices = std::array<std::uint32_t, 3>;

/// The geometry is the union of the triangles ⊕ ball(margin). Zero-area
/// triangles are kept (they are segments or points) so that ids stay those of
/// the input; queries treat them as the segment or point they are.
class TriangleMesh {
 public:
  /// Throws proxima::Error (naming `name` when given) when a coordinate is not
  /// finite, an index is out of range, there are no triangles, or the margin is
  /// negative or not finite.
  TriangleMesh(std::vector<Vec3> vertices, std::vector<TriangleIndices> triangles,
               double margin = 0.0, std::string name = {});

  const std::vector<Vec3>& vertices() const { return data_->vertices; }
  const std::vector<TriangleIndices>& triangles() const { return data_->triangles; }
  std::size_t triangle_count() const { return data_->triangles.size(); }
  /// Corner k (0..2) of triangle t.
  const Vec3& corner(std::size_t t, int k) const {
    return data_->vertices[data_->triangles[t][static_cast<std::size_t>(k)]];
  }
  double margin() const { return margin_; }
  /// Same geometry (shared), other margin.
  TriangleMesh with_margin(double margin) const;
  const std::string& name() const { return data_->name; }
  /// Bounds of the vertices the triangles use, inflated by the margin.
  Aabb local_aabb() const;
  /// True when every edge is shared by exactly two triangles with opposite
  /// orientation (a closed, consistently oriented 2-manifold).
  bool is_closed() const { return data_->closed; }
  /// +1: closed, and each triangle's normal (b − a) × (c − a) points out of
  /// the enclosed solid; −1: closed and inward; 0: open, or closed around no
  /// volume. Mesh contacts use it to retract intersecting triangles the
  /// right way out.
  int orientation() const { return data_->orientation; }
  /// Mass properties of the enclosed solid (divergence theorem, unit density);
  /// nullopt when the mesh is not closed, since an open surface encloses no
  /// volume. An inward-oriented closed mesh gives the same (positive) result
  /// as its outward twin; a closed mesh enclosing no volume (flat) gives
  /// volume 0, zero inertia and the centre of its bounds.
  std::optional<MassProperties> mass_properties() const;

 private:
  struct Data {
    std::vector<Vec3> vertices;
    std::vector<TriangleIndices> triangles;
    std::string name;
    Aabb bounds;
    bool closed = false;
    int orientation = 0;
  };
  std::shared_ptr<const Data> data_;
  double margin_ = 0.0;
};

}  // namespace proxima
