// SPDX-License-Identifier: BSD-3-Clause
// STL, binary and ASCII. STL stores three corners per facet and no shared
// vertices; exactly equal corners are made one vertex here so that the mesh
// has shared edges (is_closed() needs them). Nothing else is welded.
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <sstream>

#include "mesh_source.hpp"

namespace proxima {

namespace io_detail {

namespace {

constexpr std::size_t kHeader = 80;
constexpr std::size_t kPreamble = 84;  // header + uint32 triangle count
constexpr std::size_t kRecord = 50;    // normal, 3 corners (float32), uint16 attribute

// Corner → vertex index, merging exactly equal coordinates. -0 and +0 are
// one vertex (they are the same point; files mix them). An open-addressing
// table of vertex indices (the key is the vertex itself, compared with ==,
// which takes -0 for +0), at most half full: no allocation per vertex, four
// bytes per slot, where a node-based map spent most of a large file's read
// in malloc.
class Welder {
 public:
  std::uint32_t index(const Vec3& x) {
    if (2 * (vertices_.size() + 1) > slots_.size()) grow();
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t at = hash(x) & mask;; at = (at + 1) & mask) {
      const std::uint32_t v = slots_[at];
      if (v == kEmpty) {
        slots_[at] = static_cast<std::uint32_t>(vertices_.size());
        vertices_.push_back(x);
        return slots_[at];
      }
      if (vertices_[v] == x) return v;
    }
  }
  std::vector<Vec3> take() { return std::move(vertices_); }

 private:
  static constexpr std::uint32_t kEmpty = 0xffffffffu;
  static std::size_t hash(const Vec3& x) {
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (int c = 0; c < 3; ++c) h = (h ^ std::bit_cast<std::uint64_t>(x[c] + 0.0)) * 0x100000001b3ull;  // + 0.0: -0 as +0
    return static_cast<std::size_t>(h ^ (h >> 29));
  }
  // Twice the slots, every vertex placed again.
  void grow() {
    slots_.assign(std::max<std::size_t>(64, 2 * slots_.size()), kEmpty);
    const std::size_t mask = slots_.size() - 1;
    for (std::uint32_t v = 0; v < vertices_.size(); ++v) {
      std::size_t at = hash(vertices_[v]) & mask;
      while (slots_[at] != kEmpty) at = (at + 1) & mask;
      slots_[at] = v;
    }
  }
  std::vector<std::uint32_t> slots_;
  std::vector<Vec3> vertices_;
};

TriangleMesh parse_binary(const std::string& bytes, const std::filesystem::path& file, const MeshReadOptions& options,
                          std::size_t count) {
  const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
  Welder welder;
  std::vector<TriangleIndices> triangles;
  triangles.reserve(count);
  for (std::size_t t = 0; t < count; ++t) {
    const std::size_t record = kPreamble + kRecord * t;
    TriangleIndices tri{};
    for (std::size_t k = 0; k < 3; ++k) {
      Vec3 x;
      for (std::size_t c = 0; c < 3; ++c) {
        const std::size_t at = record + 12 + 12 * k + 4 * c;
        const double raw = load<float>(data + at, false);
        const std::string problem = coordinate_problem(raw, options.scale);
        if (!problem.empty()) {
          fail(file, Position::byte(at), problem + " (triangle " + std::to_string(t) + ")");
        }
        x[static_cast<int>(c)] = raw * options.scale;
      }
      tri[k] = welder.index(x);
    }
    triangles.push_back(tri);
  }
  return finish_mesh(file, Position::byte(kHeader), welder.take(), std::move(triangles), options);
}

// Whitespace-separated tokens over the whole text, each with its line, since
// the grammar is keyword-driven rather than line-driven.
class Tokens {
 public:
  explicit Tokens(std::string_view text) : text_(text) {}
  /// False at the end of the text.
  bool next(std::string_view& token) {
    skip_space();
    if (pos_ >= text_.size()) return false;
    const std::size_t start = pos_;
    while (pos_ < text_.size() && !space(text_[pos_])) ++pos_;
    token = text_.substr(start, pos_ - start);
    token_line_ = line_;
    return true;
  }
  /// Line of the last token returned (or of the end of the text).
  std::size_t line() const { return token_line_; }
  /// Drops what is left of the current line (names, facet normals).
  void skip_line() {
    while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
  }
  std::size_t last_line() const { return line_; }

 private:
  static bool space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f'; }
  void skip_space() {
    while (pos_ < text_.size() && space(text_[pos_])) {
      // The line count follows the newlines actually crossed, so a text
      // ending in '\n' does not report a line past its last one.
      if (text_[pos_] == '\n' && pos_ + 1 < text_.size()) ++line_;
      ++pos_;
    }
  }
  std::string_view text_;
  std::size_t pos_ = 0;
  std::size_t line_ = 1;
  std::size_t token_line_ = 1;
};

TriangleMesh parse_ascii(const std::string& bytes, const std::filesystem::path& file, const MeshReadOptions& options) {
  Tokens tokens(bytes);
  std::string_view tok;
  auto at = [&] { return Position::line(tokens.line()); };
  auto expect = [&](std::string_view keyword, const char* context) {
    if (!tokens.next(tok)) {
      fail(file, Position::line(tokens.last_line()),
           std::string("file ends ") + context + " (expected '" + std::string(keyword) + "')");
    }
    if (!keyword_is(tok, keyword)) {
      fail(file, at(), "expected '" + std::string(keyword) + "' " + context + ", got " + quote(tok));
    }
  };

  Welder welder;
  std::vector<TriangleIndices> triangles;
  expect("solid", "at the start of an ASCII STL");
  tokens.skip_line();  // the solid's name
  for (;;) {
    if (!tokens.next(tok)) {
      // A missing endsolid is the only sign of a file cut between facets.
      fail(file, Position::line(tokens.last_line()), "file ends without 'endsolid' (truncated?)");
    }
    if (keyword_is(tok, "endsolid")) {
      tokens.skip_line();  // the name, which need not match the solid's
      if (!tokens.next(tok)) break;
      if (!keyword_is(tok, "solid")) fail(file, at(), "expected 'solid' or the end after 'endsolid', got " + quote(tok));
      tokens.skip_line();
      continue;
    }
    if (!keyword_is(tok, "facet")) fail(file, at(), "expected 'facet' or 'endsolid', got " + quote(tok));
    // The normal is not read: the corner order defines the orientation, and
    // exporters write zero, stale or missing normals.
    tokens.skip_line();
    expect("outer", "after 'facet'");
    expect("loop", "after 'outer'");
    std::array<std::uint32_t, 3> corner{};
    std::size_t corners = 0;
    for (;;) {
      if (!tokens.next(tok)) fail(file, Position::line(tokens.last_line()), "file ends inside a facet");
      if (keyword_is(tok, "endloop")) break;
      if (!keyword_is(tok, "vertex")) fail(file, at(), "expected 'vertex' or 'endloop', got " + quote(tok));
      Vec3 x;
      for (int c = 0; c < 3; ++c) {
        if (!tokens.next(tok)) fail(file, Position::line(tokens.last_line()), "file ends inside a vertex");
        double raw = 0.0;
        if (!parse_double(tok, raw)) fail(file, at(), "bad vertex coordinate " + quote(tok));
        const std::string problem = coordinate_problem(raw, options.scale);
        if (!problem.empty()) fail(file, at(), problem);
        x[c] = raw * options.scale;
      }
      if (corners < 3) corner[corners] = welder.index(x);
      ++corners;
    }
    if (corners != 3) {
      fail(file, at(), "facet has " + std::to_string(corners) + " vertices; STL facets are triangles");
    }
    triangles.push_back(corner);
    expect("endfacet", "after 'endloop'");
  }
  return finish_mesh(file, Position::line(tokens.last_line()), welder.take(), std::move(triangles), options);
}

bool starts_with_solid(const std::string& bytes) {
  const std::size_t i = bytes.find_first_not_of(" \t\r\n");
  return i != std::string::npos && keyword_is(std::string_view(bytes).substr(i, 5), "solid") &&
         (i + 5 == bytes.size() || std::string_view(" \t\r\n").find(bytes[i + 5]) != std::string_view::npos);
}

}  // namespace

TriangleMesh parse_stl(const std::string& bytes, const std::filesystem::path& file, const MeshReadOptions& options) {
  check_options(file, options);
  // Binary when the size matches the declared count, whatever the header
  // says; ASCII when it reads "solid" and is text (no NUL byte, which a
  // binary file always has in its float data or count).
  std::size_t count = 0;
  if (bytes.size() >= kPreamble) {
    count = load<std::uint32_t>(reinterpret_cast<const unsigned char*>(bytes.data()) + kHeader, false);
    if (bytes.size() == kPreamble + kRecord * count) return parse_binary(bytes, file, options, count);
  }
  if (starts_with_solid(bytes) && bytes.find('\0') == std::string::npos) return parse_ascii(bytes, file, options);
  if (bytes.size() < kPreamble) {
    fail(file, Position::byte(bytes.size()),
         "truncated binary STL: the header and triangle count need 84 bytes, the file has " +
             std::to_string(bytes.size()) + " (and it is not an ASCII STL starting with 'solid')");
  }
  std::ostringstream m;
  m << "binary STL declares " << count << " triangles, which need 84 + 50 x " << count << " = "
    << kPreamble + kRecord * count << " bytes, but the file has " << bytes.size() << " bytes ("
    << (bytes.size() < kPreamble + kRecord * count ? "truncated or wrong face count" : "wrong face count") << ")";
  fail(file, Position::byte(kHeader), m.str());
}

}  // namespace io_detail

TriangleMesh read_stl(const std::filesystem::path& path, const MeshReadOptions& options) {
  return io_detail::parse_stl(io_detail::read_file_bytes(path), path, options);
}

}  // namespace proxima
