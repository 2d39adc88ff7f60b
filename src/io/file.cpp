// SPDX-License-Identifier: BSD-3-Clause
#include <proxima/io/file.hpp>

#include <fstream>
#include <iterator>

#include <proxima/core/error.hpp>

namespace proxima {

std::string file_problem(const std::filesystem::path& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  // libstdc++ reports a missing file both through the type and the error code.
  if (status.type() == fs::file_type::not_found) return "no such file";
  if (ec) return "cannot be examined: " + ec.message();
  if (fs::is_directory(status)) return "a directory, not a regular file";
  if (!fs::is_regular_file(status)) return "not a regular file (a device, pipe or socket)";
  std::ifstream in(path, std::ios::binary);
  if (!in) return "cannot be opened (permissions?)";
  return {};
}

std::string read_whole_file(const std::filesystem::path& path, std::string_view what) {
  const auto fail = [&](const std::string& reason) {
    throw Error(std::string(what).append(" '").append(path.string()).append("': ").append(reason));
  };
  if (std::string problem = file_problem(path); !problem.empty()) fail(problem);
  std::ifstream in(path, std::ios::binary);
  if (!in) fail("cannot be opened");
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) fail("read error");
  return bytes;
}

}  // namespace proxima
