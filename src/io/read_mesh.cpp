// SPDX-License-Identifier: BSD-3-Clause
// read_mesh: one entry point that picks the reader by extension, or by
// content when the extension says nothing (temporary files, ".mesh", ...).
#include <algorithm>
#include <cctype>

#include "mesh_source.hpp"

namespace proxima {

namespace {

std::string lower_extension(const std::filesystem::path& path) {
  std::string ext = path.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext;
}

// True when some line of the text starts with "v " or "f " (OBJ records).
bool looks_like_obj(const std::string& bytes) {
  io_detail::LineReader lines(bytes);
  std::string_view line;
  while (lines.next(line)) {
    const std::vector<std::string_view> t = io_detail::split(line);
    if (!t.empty() && (t[0] == "v" || t[0] == "f")) return true;
  }
  return false;
}

}  // namespace

TriangleMesh read_mesh(const std::filesystem::path& path, const MeshReadOptions& options) {
  const std::string bytes = io_detail::read_file_bytes(path);
  const std::string ext = lower_extension(path);
  if (ext == ".obj") return io_detail::parse_obj(bytes, path, options);
  if (ext == ".stl") return io_detail::parse_stl(bytes, path, options);
  if (ext == ".ply") return io_detail::parse_ply(bytes, path, options);
  if (ext == ".dae") return io_detail::parse_dae(bytes, path, options);
  if (ext == ".gltf" || ext == ".glb") return io_detail::read_gltf(path, options);

  // Unknown extension: PLY and STL announce themselves; OBJ has records.
  if (bytes.rfind("ply\n", 0) == 0 || bytes.rfind("ply\r\n", 0) == 0) return io_detail::parse_ply(bytes, path, options);
  const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
  const bool binary_stl_size =
      bytes.size() >= 84 && bytes.size() == 84 + 50 * std::size_t{io_detail::load<std::uint32_t>(data + 80, false)};
  if (binary_stl_size || bytes.find_first_not_of(" \t\r\n") == bytes.find("solid")) {
    return io_detail::parse_stl(bytes, path, options);
  }
  if (bytes.find('\0') == std::string::npos && looks_like_obj(bytes)) return io_detail::parse_obj(bytes, path, options);
  if (bytes.find("<COLLADA") != std::string::npos) return io_detail::parse_dae(bytes, path, options);
  if (bytes.rfind("glTF", 0) == 0) return io_detail::read_gltf(path, options);  // GLB's magic
  io_detail::fail(path, {}, "unknown mesh format (extension " + io_detail::quote(ext) +
                                "; not PLY, STL, OBJ, COLLADA or GLB by content either)");
}

}  // namespace proxima
