// SPDX-License-Identifier: BSD-3-Clause
// Mesh files: OBJ, STL (ASCII and binary) and PLY (ASCII, binary little and
// big endian) read into a TriangleMesh; COLLADA (.dae) through assimp.
//
// OBJ, STL and PLY are our own small readers rather than assimp or
// tinyobjloader: they know exactly where they are in the file, so every
// rejection names the file and the line (text) or byte offset (binary) and
// the reason, which a general importer does not report. COLLADA is a scene
// graph (units, up axis, node transforms), for which assimp (docs/design.md) is
// used; its errors name the file and carry assimp's message.
//
// What each reader keeps:
//  * vertices as given (no welding), except for STL, which has no shared
//    vertices at all: exactly equal coordinates (+0 and -0 alike) become one
//    vertex so that the mesh has the shared edges is_closed() looks for;
//  * every triangle, including zero-area and duplicate ones, in file order;
//  * polygons with more than 3 corners (OBJ, PLY) split into a fan from their
//    first corner when they are planar and convex; a polygon that is not is
//    rejected. Planar means every corner within 1e-6 × the polygon's largest
//    bounding-box extent of its mean plane (Newell normal); convex means no
//    corner turns against the polygon's normal (sine of the turn ≥ -1e-9)
//    and the corners go round once.
#pragma once

#include <filesystem>

#include <proxima/shape/triangle_mesh.hpp>

namespace proxima {

/// How to load a mesh file.
struct MeshReadOptions {
  /// Every coordinate is multiplied by this on load (e.g. 0.001 for a file in
  /// millimetres); must be finite and > 0.
  double scale = 1.0;
  /// Margin of the resulting TriangleMesh; must be finite and ≥ 0.
  double margin = 0.0;
};

/// Reads an OBJ, STL, PLY, COLLADA or glTF/GLB file, chosen by the extension
/// (case-insensitive) or, for another extension, by the content. The mesh is named after the
/// path. Throws proxima::Error naming the file, the line or byte offset and
/// the reason when the file is missing, unreadable, empty, truncated or
/// malformed, or holds no triangle.
TriangleMesh read_mesh(const std::filesystem::path& path, const MeshReadOptions& options = {});

/// Wavefront OBJ: `v x y z` and `f` records (indices `v`, `v/vt`, `v//vn`,
/// `v/vt/vn`, negative = relative to the last vertex so far); other records
/// (vt, vn, g, o, usemtl, l, ...) are ignored.
TriangleMesh read_obj(const std::filesystem::path& path, const MeshReadOptions& options = {});

/// STL, binary or ASCII. Binary is recognised by its size, 84 + 50·n bytes
/// for the n triangles its header declares, not by a leading "solid", which
/// many binary files carry in their free-form header. Facet normals are
/// ignored: the corner order defines the orientation.
TriangleMesh read_stl(const std::filesystem::path& path, const MeshReadOptions& options = {});

/// PLY, ascii or binary_little_endian / binary_big_endian 1.0: vertex x, y, z
/// of any scalar type, face `vertex_indices` (or `vertex_index`) lists of any
/// count and index types; other properties and elements are skipped.
TriangleMesh read_ply(const std::filesystem::path& path, const MeshReadOptions& options = {});

/// COLLADA 1.4/1.5 through assimp: every mesh of the scene, placed by its
/// nodes' transforms and scaled by the file's <unit meter> (then by
/// options.scale), in the file's own axes: the <up_axis> is not applied,
/// as ROS's mesh loaders do not (a URDF's collision DAE is drawn in the
/// link frame as written). Polygons are triangulated (assimp's ear
/// clipping), identical vertices welded; points and lines are dropped.
/// assimp keeps coordinates in single precision (~1e-7 relative).
TriangleMesh read_dae(const std::filesystem::path& path, const MeshReadOptions& options = {});

/// glTF 2.0 (.gltf with its buffers, embedded or beside it; .glb) through
/// assimp: every mesh, placed by its nodes' transforms (a glTF is Y-up by
/// its specification; the coordinates are taken as written, as for COLLADA),
/// then scaled by options.scale. Triangulated and welded as read_dae.
TriangleMesh read_gltf(const std::filesystem::path& path, const MeshReadOptions& options = {});

}  // namespace proxima
