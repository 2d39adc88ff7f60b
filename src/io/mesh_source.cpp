// SPDX-License-Identifier: BSD-3-Clause
// File access, positioned errors, text tokens and numbers for the mesh readers.
#include "mesh_source.hpp"

#include <charconv>
#include <cmath>
#include <fstream>
#include <iterator>
#include <sstream>
#include <system_error>

#include <proxima/core/error.hpp>
#include <proxima/io/file.hpp>

namespace proxima::io_detail {

void fail(const std::filesystem::path& file, Position where, const std::string& reason) {
  std::ostringstream m;
  m << file.string() << ": ";
  if (where.kind == Position::Kind::line) m << "line " << where.value << ": ";
  if (where.kind == Position::Kind::byte) m << "byte " << where.value << ": ";
  m << reason;
  throw Error(m.str());
}

std::string read_file_bytes(const std::filesystem::path& file) {
  if (const std::string problem = file_problem(file); !problem.empty()) fail(file, {}, "cannot open mesh file: " + problem);
  std::ifstream in(file, std::ios::binary);
  if (!in) fail(file, {}, "cannot open mesh file: not readable");
  // In blocks: a character at a time (istreambuf_iterator) cost more than
  // parsing a binary STL.
  std::string bytes;
  std::error_code size_error;
  const std::uintmax_t size = std::filesystem::file_size(file, size_error);
  if (!size_error) bytes.reserve(static_cast<std::size_t>(size));
  char block[1 << 16];
  while (in.read(block, sizeof block) || in.gcount() > 0) bytes.append(block, static_cast<std::size_t>(in.gcount()));
  if (in.bad()) fail(file, {}, "read error");
  if (bytes.empty()) fail(file, {}, "empty file");
  return bytes;
}

void check_options(const std::filesystem::path& file, const MeshReadOptions& options) {
  if (!std::isfinite(options.scale) || options.scale <= 0.0) {
    std::ostringstream m;
    m << "scale must be finite and > 0 (got " << options.scale << ")";
    fail(file, {}, m.str());
  }
}

bool LineReader::next(std::string_view& line) {
  if (pos_ >= text_.size()) return false;
  std::size_t end = text_.find('\n', pos_);
  std::size_t after = end + 1;
  if (end == std::string_view::npos) end = after = text_.size();
  line = text_.substr(pos_, end - pos_);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  pos_ = after;
  ++next_line_;
  return true;
}

namespace {
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }
}  // namespace

std::vector<std::string_view> split(std::string_view line) {
  std::vector<std::string_view> tokens;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && is_space(line[i])) ++i;
    const std::size_t start = i;
    while (i < line.size() && !is_space(line[i])) ++i;
    if (i > start) tokens.push_back(line.substr(start, i - start));
  }
  return tokens;
}

bool parse_double(std::string_view token, double& out) {
  // from_chars takes no '+' sign but writers do emit one.
  if (!token.empty() && token.front() == '+') token.remove_prefix(1);
  if (token.empty()) return false;
  const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), out);
  // A finite literal beyond double range is reported as not finite, which
  // is what it would become.
  if (ec == std::errc::result_out_of_range) {
    out = token.front() == '-' ? -HUGE_VAL : HUGE_VAL;
    return end == token.data() + token.size();
  }
  return ec == std::errc() && end == token.data() + token.size();
}

bool parse_int(std::string_view token, std::int64_t& out) {
  if (!token.empty() && token.front() == '+') token.remove_prefix(1);
  if (token.empty()) return false;
  const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), out);
  return ec == std::errc() && end == token.data() + token.size();
}

bool keyword_is(std::string_view token, std::string_view keyword) {
  if (token.size() != keyword.size()) return false;
  for (std::size_t i = 0; i < token.size(); ++i) {
    char c = token[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != keyword[i]) return false;
  }
  return true;
}

std::string quote(std::string_view token) {
  std::string s;
  for (char c : token.substr(0, 40)) {
    const auto u = static_cast<unsigned char>(c);
    s += (u >= 0x20 && u < 0x7f) ? c : '?';
  }
  if (token.size() > 40) s += "...";
  return "'" + s + "'";
}

std::string coordinate_problem_text(double raw, double scale) {
  std::ostringstream m;
  if (!std::isfinite(raw)) {
    m << "vertex coordinate is not finite (" << raw << ")";
  } else if (!std::isfinite(raw * scale)) {
    m << "vertex coordinate " << raw << " times scale " << scale << " is not finite";
  }
  return m.str();
}

TriangleMesh finish_mesh(const std::filesystem::path& file, Position where, std::vector<Vec3> vertices,
                         std::vector<TriangleIndices> triangles, const MeshReadOptions& options) {
  if (triangles.empty()) fail(file, where, "no triangles");
  return TriangleMesh(std::move(vertices), std::move(triangles), options.margin, file.string());
}

}  // namespace proxima::io_detail
