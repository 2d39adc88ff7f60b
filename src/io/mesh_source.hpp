// SPDX-License-Identifier: BSD-3-Clause
// What the mesh readers share: the file's bytes, errors that name the file
// and the position, text lines and tokens, numbers, and the mesh being built.
#pragma once

#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <proxima/io/mesh_io.hpp>

namespace proxima::io_detail {

/// A place in a file: a 1-based line of a text file or a 0-based byte offset
/// of a binary one.
struct Position {
  enum class Kind { line, byte, none } kind = Kind::none;
  std::size_t value = 0;
  static Position line(std::size_t n) { return {Kind::line, n}; }
  static Position byte(std::size_t n) { return {Kind::byte, n}; }
};

/// Throws proxima::Error "<file>: line 7: <reason>" (or "byte 96", or no
/// position).
[[noreturn]] void fail(const std::filesystem::path& file, Position where, const std::string& reason);

/// The whole file; throws naming the file when it is missing, not a regular
/// file, unreadable or empty.
std::string read_file_bytes(const std::filesystem::path& file);

/// Throws naming the file unless the scale is finite and > 0.
void check_options(const std::filesystem::path& file, const MeshReadOptions& options);

/// Walks a text one line at a time ('\n' or "\r\n"), counting from 1.
class LineReader {
 public:
  explicit LineReader(std::string_view text, std::size_t first_line = 1)
      : text_(text), next_line_(first_line) {}
  /// False at the end of the text.
  bool next(std::string_view& line);
  /// Number of the line `next` returned last.
  std::size_t number() const { return next_line_ - 1; }
  /// Offset just past the line `next` returned last.
  std::size_t offset() const { return pos_; }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
  std::size_t next_line_;
};

/// The whitespace-separated tokens of a line.
std::vector<std::string_view> split(std::string_view line);

/// Whole-token parses (a leading '+' allowed); false on anything else.
/// `parse_double` accepts "nan" and "inf" so that the caller can say the
/// coordinate is not finite rather than "not a number".
bool parse_double(std::string_view token, double& out);
bool parse_int(std::string_view token, std::int64_t& out);

/// ASCII case-insensitive equality (keywords of STL and PLY).
bool keyword_is(std::string_view token, std::string_view keyword);

/// Quoted token for messages, shortened when long.
std::string quote(std::string_view token);

/// Why raw·scale is not a usable coordinate (empty when it is).
std::string coordinate_problem_text(double raw, double scale);
/// Empty when raw·scale is a usable coordinate, else why not. Every
/// coordinate of a file is asked: a good one costs two comparisons.
inline std::string coordinate_problem(double raw, double scale) {
  if (std::isfinite(raw) && std::isfinite(raw * scale)) return {};
  return coordinate_problem_text(raw, scale);
}

/// Appends the triangles of a polygon (indices into `vertices`) to `out`:
/// a triangle as it is, a planar convex polygon as a fan from its first
/// corner. Returns an empty string on success, else why the polygon was
/// rejected (see mesh_io.hpp for the tolerances).
std::string triangulate_polygon(const std::vector<Vec3>& vertices, const std::uint32_t* corners,
                                std::size_t count, std::vector<TriangleIndices>& out);

/// Builds the TriangleMesh named after the file; an empty triangle list is
/// rejected with `where` as the position.
TriangleMesh finish_mesh(const std::filesystem::path& file, Position where, std::vector<Vec3> vertices,
                         std::vector<TriangleIndices> triangles, const MeshReadOptions& options);

/// Loads a T stored with the given byte order from unaligned memory.
template <class T>
T load(const unsigned char* p, bool big_endian) {
  unsigned char b[sizeof(T)];
  std::memcpy(b, p, sizeof(T));
  const bool host_big = std::endian::native == std::endian::big;
  if (big_endian != host_big) {
    for (std::size_t i = 0; i < sizeof(T) / 2; ++i) std::swap(b[i], b[sizeof(T) - 1 - i]);
  }
  T v;
  std::memcpy(&v, b, sizeof(T));
  return v;
}

// Parsers of a file already in memory; `file` names it in messages.
TriangleMesh parse_obj(const std::string& bytes, const std::filesystem::path& file, const MeshReadOptions& options);
TriangleMesh parse_stl(const std::string& bytes, const std::filesystem::path& file, const MeshReadOptions& options);
TriangleMesh parse_ply(const std::string& bytes, const std::filesystem::path& file, const MeshReadOptions& options);
TriangleMesh parse_dae(const std::string& bytes, const std::filesystem::path& file, const MeshReadOptions& options);
// glTF reads from the file itself (its buffers are other files beside it).
TriangleMesh read_gltf(const std::filesystem::path& file, const MeshReadOptions& options);

}  // namespace proxima::io_detail
