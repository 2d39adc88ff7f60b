// SPDX-License-Identifier: BSD-3-Clause
// Where the programs find the data the project ships: the example scenes
// (examples/) and the robot models (tests/data/robots/), in an installed
// layout or in the source tree they were built from.
#pragma once

#include <filesystem>
#include <string>

namespace proxima::apps {

/// The folder of the running program (/proc/self/exe), empty if unknown.
std::filesystem::path program_directory();

/// The first of: the environment variable PROXIMA_EXAMPLES_DIR; the
/// installed layout beside the program (<prefix>/bin → <prefix>/share/proxima/examples);
/// the source tree's examples/ when the program was built there.
std::string examples_dir();

/// As examples_dir(), with PROXIMA_ROBOTS_DIR and share/proxima/robots (the
/// source tree's tests/data/robots).
std::string robots_dir();

}  // namespace proxima::apps
