// SPDX-License-Identifier: BSD-3-Clause
// The mesh-contact part of `proxima demo`: boundary-layer (BLEM)
// contacts on a few resting scenes, raw and clustered, whether the clustered
// set supports the body, and how much its penalty wrench moves when the pose
// is perturbed by 1e-6 m and 1e-6 rad.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <string>
#include <vector>

namespace proxima::apps {

struct MeshContactDemoRow {
  std::string scene;
  bool skipped = false;
  std::string note;              ///< why a row was skipped, or what "supports" means for it
  std::size_t triangles = 0;     ///< triangles of the moving body's mesh
  std::size_t raw = 0;           ///< raw contacts (all pairs of the scene)
  std::size_t clustered = 0;     ///< after clustering (k per pair)
  std::size_t distinct = 0;      ///< distinct points (1e-9 m apart) among the clustered ones
  bool supports = false;         ///< cubes: CoP inside the face and the centre over the support polygon; mug: contacts on both sides
  std::string support_detail;    ///< e.g. "CoP (0.0, 0.0) mm"
  /// Largest change over the perturbations of the net penalty force,
  /// |ΔF| / |F|, and torque about the body's centre, |Δτ| / (|F| L) with L
  /// the body's half-size: clustered set and raw set.
  double force_change = 0.0, torque_change = 0.0;
  double raw_force_change = 0.0, raw_torque_change = 0.0;
  double ms = 0.0;               ///< one contact generation (raw + clustering), median of a few
};

/// Runs the scenes (well under a second in all). `mug_path` "" = the Debian
/// libmujoco-samples mug; a missing file gives a skipped row with a note.
std::vector<MeshContactDemoRow> run_mesh_contact_demo(const std::string& mug_path = "");

/// The Markdown section body: one table and a few lines on what it shows.
void mesh_contact_markdown(const std::vector<MeshContactDemoRow>& rows, std::ostream& out);

/// Where the demo looks for the scanned mug.
std::string default_mug_path();

}  // namespace proxima::apps
