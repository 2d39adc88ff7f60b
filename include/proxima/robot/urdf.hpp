// SPDX-License-Identifier: BSD-3-Clause
// URDF reading: <robot> with its <link>s (the <collision> and <inertial>
// elements; visual data are not read) and <joint>s (origin, axis, limit with
// effort and velocity, dynamics damping and friction, mimic).
//
// Our own reader over tinyxml2 rather than urdfdom: urdfdom reports errors
// through console_bridge's log and returns a null model, so a caller cannot
// get the message, and neither names the line; its Debian package also
// drags TinyXML 1 and console_bridge into the installed CMake package. The
// reader here names the file, the line, the element and the reason in every
// proxima::Error it throws (docs/design.md: "file and line for files").
//
// Mesh filenames resolve when the URDF is read (the file must exist, unless
// UrdfOptions::require_meshes is off; it is read later, by RobotGeometry):
//   * `package://pkg/rest` → packages[pkg]/rest when the map has `pkg`; else,
//     with UrdfOptions::ros_environment, the first that exists of
//     <dir>/pkg/rest (or <dir>/rest when <dir> is named pkg) for each <dir>
//     of ROS_PACKAGE_PATH (ROS 1) and <prefix>/share/pkg/rest for each
//     <prefix> of AMENT_PREFIX_PATH (ROS 2); else <base>/pkg/rest, with
//     <base> the URDF file's folder (robot folders packaged as
//     MotionBenchMaker does write `package://meshes/...`);
//   * `file:///abs/path` → /abs/path;
//   * anything else is a path, relative ones against <base>.
// Mesh files are read by read_mesh (OBJ, STL, PLY, and COLLADA and glTF
// through assimp, in the file's own axes as ROS reads them).
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <string_view>

#include <proxima/robot/robot_model.hpp>

namespace proxima::robot {

struct UrdfOptions {
  /// package name → directory, for `package://` mesh URIs.
  std::map<std::string, std::filesystem::path> packages;
  /// Look up `package://` packages the map lacks where ROS installs them:
  /// ROS_PACKAGE_PATH and AMENT_PREFIX_PATH, read when a URI is resolved.
  bool ros_environment = true;
  /// Check that every mesh file exists while reading. Off, a model whose
  /// meshes are missing still loads (for its kinematics); building its
  /// geometry then throws for the first missing mesh.
  bool require_meshes = true;
};

/// Reads a URDF file. Throws proxima::Error naming the file, line, element
/// and reason for malformed XML, a missing <robot>, missing or invalid
/// attributes (non-finite numbers, non-positive sizes), unsupported joint
/// types (floating, planar) or geometry, an <inertial> without exactly one
/// <mass> and one <inertia> or with an unknown attribute on them, a
/// negative effort, damping or friction, an unknown <dynamics> attribute, a mesh that does not resolve to an
/// existing file (naming the link, the URI and the path tried), and every
/// tree error RobotModel's constructor checks.
RobotModel load_urdf(const std::filesystem::path& file, const UrdfOptions& options = {});

/// Reads URDF text; relative mesh paths and unmapped packages resolve
/// against `base_dir`. `source_name` names the text in messages.
RobotModel parse_urdf(std::string_view xml, const std::filesystem::path& base_dir,
                      const UrdfOptions& options = {}, const std::string& source_name = "");

/// Where a mesh URI points (the rules above), without checking the file.
/// Throws proxima::Error for an empty URI or an empty package name.
std::filesystem::path resolve_mesh_uri(const std::string& uri, const std::filesystem::path& base_dir,
                                       const UrdfOptions& options = {});

}  // namespace proxima::robot
