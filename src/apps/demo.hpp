// SPDX-License-Identifier: BSD-3-Clause
// `proxima demo`: the shipped example queries, short runs of the example
// scenes and the side-by-side benchmark, printed and written to a report
// folder (report.md; index.html with the scenes' plots).
#pragma once

#include <iosfwd>
#include <string>

namespace proxima::apps {

struct DemoOptions {
  std::string report_dir = "proxima-report";
  /// Poses per benchmark workload: enough for stable medians while keeping
  /// scripts/run.sh to a few minutes (proxima bench defaults to 1000).
  int bench_poses = 300;
  bool bench = true;       ///< run the benchmark program when it is installed beside us
  bool sim = true;         ///< run the example scenes and write index.html
  double sim_time_scale = 1.0;  ///< multiplies each scene's demo duration
  std::string examples_dir;     ///< "" = the installed or the source tree's examples/
  bool progress = true;         ///< the stage on stderr when it is a terminal (off: --quiet)
};

/// Runs the demo; returns the process exit code.
int run_demo(const DemoOptions& options, std::ostream& out);

/// Writes the example queries and manifolds of the report as one 3-D page
/// (query_page.hpp), a frame per answered request labelled with its
/// configuration, at `path`; returns the number of frames. Throws
/// proxima::Error when the page cannot be written (or three.js is missing).
int write_query_gallery(const std::string& path);

/// Writes the scanned mug of the mesh-contact table against each of its two
/// plates (boundary-layer contacts, 0.5 mm into its 1 mm layer) as a 3-D page
/// at `path`; returns its frames (2), or 0 and writes nothing when the mug
/// (`mug_path`, "" = the Debian libmujoco-samples mug) is missing. Throws as
/// write_query_gallery.
int write_mug_contacts_page(const std::string& path, const std::string& mug_path = "");

/// Path of a benchmark program (by default `proxima-bench`) beside the
/// running executable or in ../bench, or "".
std::string find_bench_program(const std::string& name = "proxima-bench");

}  // namespace proxima::apps
