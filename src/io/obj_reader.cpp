// SPDX-License-Identifier: BSD-3-Clause
// Wavefront OBJ: positions and faces; every other record is left alone.
#include <sstream>

#include "mesh_source.hpp"

namespace proxima {

namespace io_detail {

namespace {

// The position index of a face corner "v", "v/vt", "v//vn" or "v/vt/vn",
// resolved to 0-based; OBJ faces may only use vertices defined above them,
// and a negative index counts back from the last of those.
std::uint32_t corner_index(const std::filesystem::path& file, std::size_t line, std::string_view token,
                           std::size_t defined) {
  const std::string_view v = token.substr(0, token.find('/'));
  std::int64_t i = 0;
  if (!parse_int(v, i)) fail(file, Position::line(line), "bad face corner " + quote(token));
  const auto n = static_cast<std::int64_t>(defined);
  const std::int64_t resolved = i < 0 ? n + i : i - 1;
  if (i == 0 || resolved < 0 || resolved >= n) {
    std::ostringstream m;
    m << "vertex index " << i << " out of range (" << n << " vertices defined so far"
      << (i == 0 ? "; OBJ indices start at 1" : "") << ")";
    fail(file, Position::line(line), m.str());
  }
  return static_cast<std::uint32_t>(resolved);
}

}  // namespace

TriangleMesh parse_obj(const std::string& bytes, const std::filesystem::path& file, const MeshReadOptions& options) {
  check_options(file, options);
  std::vector<Vec3> vertices;
  std::vector<TriangleIndices> triangles;
  std::vector<std::uint32_t> corners;
  LineReader lines(bytes);
  std::string_view line;
  while (lines.next(line)) {
    const std::size_t n = lines.number();
    line = line.substr(0, line.find('#'));
    const std::vector<std::string_view> t = split(line);
    if (t.empty()) continue;

    if (t[0] == "v") {
      // x y z, optionally followed by w or by r g b, which we do not use.
      if (t.size() < 4 || t.size() > 8) {
        fail(file, Position::line(n), "vertex needs 3 coordinates (x y z [w | r g b]), got " +
                                          std::to_string(t.size() - 1) + " values");
      }
      Vec3 x;
      for (std::size_t k = 1; k < t.size(); ++k) {
        double c = 0.0;
        if (!parse_double(t[k], c)) fail(file, Position::line(n), "bad number " + quote(t[k]));
        if (k > 3) continue;
        const std::string problem = coordinate_problem(c, options.scale);
        if (!problem.empty()) fail(file, Position::line(n), problem);
        x[static_cast<int>(k - 1)] = c * options.scale;
      }
      vertices.push_back(x);
    } else if (t[0] == "f") {
      corners.clear();
      for (std::size_t k = 1; k < t.size(); ++k) corners.push_back(corner_index(file, n, t[k], vertices.size()));
      const std::string problem = triangulate_polygon(vertices, corners.data(), corners.size(), triangles);
      if (!problem.empty()) fail(file, Position::line(n), problem);
    }
  }
  return finish_mesh(file, Position::line(lines.number()), std::move(vertices), std::move(triangles), options);
}

}  // namespace io_detail

TriangleMesh read_obj(const std::filesystem::path& path, const MeshReadOptions& options) {
  return io_detail::parse_obj(io_detail::read_file_bytes(path), path, options);
}

}  // namespace proxima
