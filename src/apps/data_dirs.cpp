// SPDX-License-Identifier: BSD-3-Clause
#include "data_dirs.hpp"

#include <cstdlib>
#include <system_error>

namespace proxima::apps {

namespace fs = std::filesystem;

fs::path program_directory() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path() : self.parent_path();
}

namespace {

// An installed program's data is under its prefix; a program in the build
// tree was given its source tree's folder at compile time. The installed
// layout wins, so that a copy installed from a build tree that still exists
// uses its own data.
std::string find(const char* variable, const char* installed, const char* source) {
  if (const char* v = std::getenv(variable); v && *v) return v;
  std::error_code ec;
  const fs::path dir = program_directory();
  if (!dir.empty()) {
    const fs::path shared = dir / ".." / "share" / "proxima" / installed;
    if (fs::is_directory(shared, ec)) return fs::weakly_canonical(shared, ec).string();
  }
  return source;
}

}  // namespace

std::string examples_dir() { return find("PROXIMA_EXAMPLES_DIR", "examples", PROXIMA_SOURCE_EXAMPLES_DIR); }

std::string robots_dir() { return find("PROXIMA_ROBOTS_DIR", "robots", PROXIMA_SOURCE_ROBOTS_DIR); }

}  // namespace proxima::apps
