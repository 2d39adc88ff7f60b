// SPDX-License-Identifier: BSD-3-Clause
// A shipped robot's folder as the bench programs read it: one URDF, its
// SRDF, and scenes/.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace proxima::bench {

/// The one file of `dir` ending in `ext`; throws std::runtime_error when
/// there is none or more than one.
inline std::filesystem::path only_file(const std::filesystem::path& dir, const std::string& ext) {
  std::vector<std::filesystem::path> found;
  if (std::filesystem::is_directory(dir))
    for (const auto& e : std::filesystem::directory_iterator(dir))
      if (e.is_regular_file() && e.path().extension() == ext) found.push_back(e.path());
  if (found.size() != 1)
    throw std::runtime_error(dir.string() + ": expected one " + ext + " file, found " + std::to_string(found.size()));
  return found.front();
}

}  // namespace proxima::bench
