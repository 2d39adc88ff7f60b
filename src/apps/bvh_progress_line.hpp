// SPDX-License-Identifier: BSD-3-Clause
// A BVH build with a progress line on the terminal once it has taken a second
// (a mesh of a few hundred thousand triangles and more): small meshes, the
// common case, draw nothing.
#pragma once

#include <string>

#include <proxima/mesh/bvh.hpp>

namespace proxima::apps {

/// Bvh(mesh, options) with a Progress line labelled `label` on stderr
/// (when `enabled` and stderr is a terminal), drawn from the first second on
/// and erased at the end.
Bvh build_bvh_with_progress_line(TriangleMesh mesh, const BvhOptions& options, const std::string& label,
                                 bool enabled = true);

}  // namespace proxima::apps
