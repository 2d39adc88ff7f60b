// SPDX-License-Identifier: BSD-3-Clause
#include "bvh_progress_line.hpp"

#include <chrono>

#include "progress.hpp"

namespace proxima::apps {

Bvh build_bvh_with_progress_line(TriangleMesh mesh, const BvhOptions& options, const std::string& label,
                                 bool enabled) {
  Progress line = Progress::on_terminal(label, 1.0, enabled);
  if (!line.active()) return Bvh(std::move(mesh), options);
  const auto start = std::chrono::steady_clock::now();
  Bvh bvh(std::move(mesh), options, [&](double fraction) {
    // Quiet for the first second: most meshes are built by then.
    if (std::chrono::steady_clock::now() - start >= std::chrono::seconds(1)) line.update(fraction);
  });
  line.finish();
  return bvh;
}

}  // namespace proxima::apps
