// SPDX-License-Identifier: BSD-3-Clause
// The self-contained 3-D replay page (docs/viewer.md): one HTML file holding
// three.js, the viewer script and a JSON object with the data:
//   {"format": "proxima-replay", "version": 1, "title": "...",
//    "shapes": [{"kind": "box", "size": [..], "margin": m}, …],   each geometry once
//    "bodies": [{"name", "shape": i, "static": bool, "pose": [x, y, z, qw, qx, qy, qz]}],
//    "frames": [{"step", "time", "poses": [[7 numbers] or null, one per non-static body],
//                "contacts": [[px, py, pz, nx, ny, nz, depth], …], "segments": [[ax, ay, az, bx, by, bz], …]}],
//    "timelines": [{"name", "unit", "values": [one per frame]}]}
// A null pose hides the body in that frame.
#pragma once

#include <fstream>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include <proxima/core/transform.hpp>
#include <proxima/shape/shape.hpp>
#include <proxima/shape/triangle_mesh.hpp>

#include "three_js.hpp"

namespace proxima::sim {
class Geometry;
}

namespace proxima::apps {

/// `x` rounded to a multiple of `quantum`, then to `digits` significant
/// digits, so that the page's JSON writes at most that many (0 for a
/// non-finite x). The quantum keeps rounding noise such as 2e-9 in a
/// quaternion or a normal from costing a full number of text.
double round_significant(double x, int digits = 6, double quantum = 1e-9);

/// The page's precision: positions to 1 µm, rotations (quaternion
/// components) and normals to 1e-6 and 1e-4, each to at most 6 significant digits.
inline constexpr double kPositionQuantum = 1e-6;
inline constexpr double kRotationQuantum = 1e-6;
inline constexpr double kNormalQuantum = 1e-4;

/// [x, y, z, qw, qx, qy, qz] at the page's precision.
nlohmann::json pose_array(const Transform& pose);
/// [x, y, z] to `digits` significant digits and a multiple of `quantum`.
nlohmann::json vec_array(const Vec3& v, int digits = 6, double quantum = kPositionQuantum);

/// A frame's contact [px, py, pz, nx, ny, nz, depth]: the normal to 1e-4,
/// the depth to 0.1 µm.
nlohmann::json contact_row(const Vec3& point, const Vec3& normal, double depth);
/// A frame's segment [ax, ay, az, bx, by, bz].
nlohmann::json segment_row(const Vec3& a, const Vec3& b);

/// Whether a query answered with this status (its name, as in the JSON
/// lines) is drawn: ok, not_converged and upper_bound carry shapes and
/// witnesses; the others have nothing to show.
bool drawn_status(const std::string& status);

/// The page's description of a convex shape or a mesh.
nlohmann::json shape_json(const Shape& s);
nlohmann::json mesh_json(const TriangleMesh& m);
/// Either of the above for a simulator body's geometry.
nlohmann::json geometry_json(const sim::Geometry& g);

/// The shapes list of a page, each distinct description stored once.
class ShapeTable {
 public:
  /// The index of `shape` in the list, adding it if it is new.
  int add(nlohmann::json shape);
  const nlohmann::json& shapes() const { return shapes_; }

 private:
  nlohmann::json shapes_ = nlohmann::json::array();
  std::map<std::string, int> index_;
};

/// The whole page for `data`, with three.js inlined.
std::string replay_page_html(const nlohmann::json& data, const ThreeJs& three);

/// A page file to be written once the data is ready: opened (and
/// three.js read) first, so that a bad path fails before a long run.
class ReplayPageFile {
 public:
  /// Throws proxima::Error starting with `flag` (e.g. "--html") for an empty
  /// path, a file that cannot be written, or libjs-three not installed.
  ReplayPageFile(const std::string& path, const std::string& flag);
  /// Writes the page; throws proxima::Error naming the flag and file when
  /// writing fails.
  void write(const nlohmann::json& data);

 private:
  std::string path_, flag_;
  ThreeJs three_;
  std::ofstream out_;
};

}  // namespace proxima::apps
