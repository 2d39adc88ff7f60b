// `proxima demo`: the shipped example queries and the side-by-side benchmark,
// printed and written to a report folder.
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
};

/// Runs the demo; returns the process exit code.
int run_demo(const DemoOptions& options, std::ostream& out);

/// Path of the `proxima-bench` program beside the running executable, or "".
std::string find_bench_program();

}  // namespace proxima::apps
