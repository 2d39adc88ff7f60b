// SPDX-License-Identifier: BSD-3-Clause
// Reading an input file whole, with the reason when it cannot be read: a
// directory or a device given where a file belongs is named as such, not
// reported as missing.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace proxima {

/// Why `path` cannot be read as a file, or "" when it is a regular file that
/// opens: "no such file", "a directory, not a regular file", "not a regular
/// file (a device, pipe or socket)", or "cannot be opened".
std::string file_problem(const std::filesystem::path& path);

/// The bytes of the file at `path`. Throws proxima::Error
/// "<what> '<path>': <reason>" (file_problem(), or "read error").
std::string read_whole_file(const std::filesystem::path& path, std::string_view what);

}  // namespace proxima
