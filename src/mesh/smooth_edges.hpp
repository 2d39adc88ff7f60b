// SPDX-License-Identifier: BSD-3-Clause
// Which triangle edges lie inside a smooth (flat or concave) stretch of a
// mesh's surface: there a convex shape can only press on the faces, so a
// contact normal pointing off the face across such an edge is an artefact of
// the triangulation (mesh_convex_contacts.cpp).
#pragma once

#include <cstdint>
#include <vector>

#include <proxima/shape/triangle_mesh.hpp>

namespace proxima::mesh::detail {

/// Per triangle, bit k set when edge k (corner k to corner k+1) is shared with
/// exactly one other triangle that lies in the same plane (normals within
/// `flat_angle` radians, either orientation) or, when the two are oriented
/// consistently, folds concavely (the neighbour's far corner in front of the
/// triangle's face). Open, non-manifold and convex edges stay clear.
/// `owners` (when given, per triangle): bit k when the triangle has the
/// lowest id of those holding corner k's vertex, bit 3 + k when of those
/// holding edge k (Bvh::feature_owners).
std::vector<std::uint8_t> smooth_edges(const TriangleMesh& mesh, double flat_angle,
                                       std::vector<std::uint8_t>* owners = nullptr);

}  // namespace proxima::mesh::detail
