// SPDX-License-Identifier: BSD-3-Clause
// PLY 1.0 in its three encodings. The header declares elements and their
// properties; we read vertex x, y, z and the face index lists and step over
// everything else, so files with normals, colours, texture coordinates or
// extra elements load as they are.
#include <algorithm>
#include <cmath>
#include <sstream>

#include "mesh_source.hpp"

namespace proxima {

namespace io_detail {

namespace {

enum class Scalar { int8, uint8, int16, uint16, int32, uint32, float32, float64 };

bool scalar_named(std::string_view s, Scalar& out) {
  struct Name { const char* a; const char* b; Scalar t; };
  static constexpr Name kNames[] = {
      {"char", "int8", Scalar::int8},       {"uchar", "uint8", Scalar::uint8},
      {"short", "int16", Scalar::int16},    {"ushort", "uint16", Scalar::uint16},
      {"int", "int32", Scalar::int32},      {"uint", "uint32", Scalar::uint32},
      {"float", "float32", Scalar::float32}, {"double", "float64", Scalar::float64}};
  for (const Name& n : kNames) {
    if (s == n.a || s == n.b) {
      out = n.t;
      return true;
    }
  }
  return false;
}

std::size_t size_of(Scalar t) {
  switch (t) {
    case Scalar::int8: case Scalar::uint8: return 1;
    case Scalar::int16: case Scalar::uint16: return 2;
    case Scalar::int32: case Scalar::uint32: case Scalar::float32: return 4;
    case Scalar::float64: return 8;
  }
  return 1;
}

bool is_integer(Scalar t) { return t != Scalar::float32 && t != Scalar::float64; }

// Range of an integer type, for ASCII values that must fit their declared type.
void integer_range(Scalar t, std::int64_t& lo, std::int64_t& hi) {
  const unsigned bits = static_cast<unsigned>(8 * size_of(t));
  const bool is_signed = t == Scalar::int8 || t == Scalar::int16 || t == Scalar::int32;
  lo = is_signed ? -(std::int64_t{1} << (bits - 1)) : 0;
  hi = is_signed ? (std::int64_t{1} << (bits - 1)) - 1 : (std::int64_t{1} << bits) - 1;
}

struct Property {
  std::string name;
  Scalar type = Scalar::float32;  // of the value, or of a list's items
  bool list = false;
  Scalar count_type = Scalar::uint8;
};

struct Element {
  std::string name;
  std::uint64_t count = 0;
  std::vector<Property> properties;
};

enum class Encoding { ascii, little, big };

struct Header {
  Encoding encoding = Encoding::ascii;
  std::vector<Element> elements;
  std::size_t data_offset = 0;  // first byte after "end_header\n"
  std::size_t lines = 0;        // lines the header takes
};

Header parse_header(const std::string& bytes, const std::filesystem::path& file) {
  Header h;
  LineReader lines(bytes);
  std::string_view line;
  bool have_format = false;
  if (!lines.next(line) || line != "ply") fail(file, Position::line(1), "not a PLY file: the first line must be 'ply'");
  while (lines.next(line)) {
    const std::size_t n = lines.number();
    const std::vector<std::string_view> t = split(line);
    if (t.empty()) continue;
    const std::string_view key = t[0];
    if (key == "comment" || key == "obj_info") continue;
    if (key == "end_header") {
      if (!have_format) fail(file, Position::line(n), "PLY header has no 'format' line");
      h.data_offset = lines.offset();
      h.lines = n;
      return h;
    }
    if (key == "format") {
      if (t.size() != 3 || t[2] != "1.0") fail(file, Position::line(n), "expected 'format <encoding> 1.0'");
      if (t[1] == "ascii") h.encoding = Encoding::ascii;
      else if (t[1] == "binary_little_endian") h.encoding = Encoding::little;
      else if (t[1] == "binary_big_endian") h.encoding = Encoding::big;
      else fail(file, Position::line(n), "unknown PLY encoding " + quote(t[1]));
      have_format = true;
    } else if (key == "element") {
      std::int64_t count = 0;
      if (t.size() != 3 || !parse_int(t[2], count) || count < 0) {
        fail(file, Position::line(n), "expected 'element <name> <count>' with a count >= 0");
      }
      h.elements.push_back({std::string(t[1]), static_cast<std::uint64_t>(count), {}});
    } else if (key == "property") {
      if (h.elements.empty()) fail(file, Position::line(n), "'property' before any 'element'");
      Property p;
      const bool list = t.size() >= 2 && t[1] == "list";
      if (list ? t.size() != 5 : t.size() != 3) {
        fail(file, Position::line(n), "expected 'property <type> <name>' or 'property list <count type> <type> <name>'");
      }
      const std::size_t type_at = list ? 3 : 1;
      if (!scalar_named(t[type_at], p.type)) fail(file, Position::line(n), "unknown PLY type " + quote(t[type_at]));
      if (list) {
        if (!scalar_named(t[2], p.count_type) || !is_integer(p.count_type)) {
          fail(file, Position::line(n), "a list's count type must be an integer type, got " + quote(t[2]));
        }
      }
      p.list = list;
      p.name = std::string(t.back());
      h.elements.back().properties.push_back(p);
    } else {
      fail(file, Position::line(n), "unknown PLY header keyword " + quote(key));
    }
  }
  fail(file, Position::line(lines.number()), "PLY header has no 'end_header' line");
}

// Where each needed value sits among an element's properties (-1: absent).
struct Layout {
  std::size_t vertex_element = SIZE_MAX, face_element = SIZE_MAX;
  int x = -1, y = -1, z = -1, indices = -1;
};

Layout find_layout(const Header& h, const std::filesystem::path& file) {
  Layout l;
  for (std::size_t e = 0; e < h.elements.size(); ++e) {
    const Element& el = h.elements[e];
    if (el.name == "vertex") l.vertex_element = e;
    if (el.name == "face") l.face_element = e;
  }
  const Position where = Position::line(h.lines);
  if (l.vertex_element == SIZE_MAX) fail(file, where, "PLY header declares no 'vertex' element");
  if (l.face_element == SIZE_MAX) fail(file, where, "PLY header declares no 'face' element (no triangles)");
  const auto& vp = h.elements[l.vertex_element].properties;
  for (std::size_t i = 0; i < vp.size(); ++i) {
    int* slot = vp[i].name == "x" ? &l.x : vp[i].name == "y" ? &l.y : vp[i].name == "z" ? &l.z : nullptr;
    if (slot == nullptr) continue;
    if (vp[i].list) fail(file, where, "vertex property '" + vp[i].name + "' is a list");
    *slot = static_cast<int>(i);
  }
  if (l.x < 0 || l.y < 0 || l.z < 0) fail(file, where, "vertex element lacks one of the properties x, y, z");
  const auto& fp = h.elements[l.face_element].properties;
  for (std::size_t i = 0; i < fp.size(); ++i) {
    if (fp[i].name == "vertex_indices" || fp[i].name == "vertex_index") {
      if (!fp[i].list || !is_integer(fp[i].type)) {
        fail(file, where, "face property '" + fp[i].name + "' must be a list of integers");
      }
      l.indices = static_cast<int>(i);
    }
  }
  if (l.indices < 0) fail(file, where, "face element has no 'vertex_indices' list");
  if (h.elements[l.vertex_element].count > UINT32_MAX) fail(file, where, "more vertices than 32-bit indices address");
  return l;
}

// One value source for both encodings: ASCII reads the tokens of one line
// per element instance, binary reads fixed-size scalars.
class Values {
 public:
  Values(const std::string& bytes, const Header& h, const std::filesystem::path& file)
      : bytes_(bytes), file_(file), encoding_(h.encoding), pos_(h.data_offset),
        lines_(std::string_view(bytes).substr(h.data_offset), h.lines + 1) {}

  /// Starts instance `i` of `count` of element `name` (ASCII: its line).
  void begin(const std::string& name, std::uint64_t i, std::uint64_t count) {
    what_ = name + " " + std::to_string(i) + " of " + std::to_string(count);
    if (encoding_ != Encoding::ascii) {
      start_ = pos_;
      return;
    }
    std::string_view line;
    do {
      if (!lines_.next(line)) {
        fail(file_, Position::line(lines_.number()), "file ends before " + what_ + " (wrong element count?)");
      }
      tokens_ = split(line);
    } while (tokens_.empty());
    next_token_ = 0;
  }
  /// Ends the instance: no ASCII values may be left on its line.
  void end() {
    if (encoding_ == Encoding::ascii && next_token_ != tokens_.size()) {
      fail(file_, where(), "more values than the header declares for " + what_);
    }
  }
  /// Position of the value about to be read (binary) or of the line (ASCII).
  Position where() const {
    return encoding_ == Encoding::ascii ? Position::line(lines_.number()) : Position::byte(pos_);
  }
  Position instance_start() const {
    return encoding_ == Encoding::ascii ? Position::line(lines_.number()) : Position::byte(start_);
  }
  double real(Scalar t) {
    if (encoding_ == Encoding::ascii) {
      const std::string_view tok = token();
      double v = 0.0;
      if (is_integer(t)) return static_cast<double>(integer_token(tok, t));
      if (!parse_double(tok, v)) fail(file_, where(), "bad number " + quote(tok) + " in " + what_);
      return v;
    }
    const unsigned char* p = take(size_of(t));
    const bool big = encoding_ == Encoding::big;
    switch (t) {
      case Scalar::int8: return static_cast<double>(static_cast<std::int8_t>(*p));
      case Scalar::uint8: return static_cast<double>(*p);
      case Scalar::int16: return static_cast<double>(load<std::int16_t>(p, big));
      case Scalar::uint16: return static_cast<double>(load<std::uint16_t>(p, big));
      case Scalar::int32: return static_cast<double>(load<std::int32_t>(p, big));
      case Scalar::uint32: return static_cast<double>(load<std::uint32_t>(p, big));
      case Scalar::float32: return static_cast<double>(load<float>(p, big));
      case Scalar::float64: return load<double>(p, big);
    }
    return 0.0;
  }
  std::int64_t integer(Scalar t) {
    if (encoding_ == Encoding::ascii) return integer_token(token(), t);
    return static_cast<std::int64_t>(real(t));  // every integer type fits a double exactly
  }
  void skip(const Property& p) {
    const std::int64_t n = p.list ? integer(p.count_type) : 1;
    if (n < 0) fail(file_, where(), "negative list length in " + what_);
    // ASCII values we do not use are still checked: a bad token anywhere
    // means the file is not what its header says.
    for (std::int64_t k = 0; k < n; ++k) {
      if (encoding_ == Encoding::ascii) real(p.type);
      else take(size_of(p.type));
    }
  }
  /// After the last element: nothing but blank lines (ASCII) or nothing at
  /// all (binary) may follow.
  void finish() {
    if (encoding_ == Encoding::ascii) {
      std::string_view line;
      while (lines_.next(line)) {
        if (!split(line).empty()) {
          fail(file_, Position::line(lines_.number()), "data after the last element the header declares (wrong element count?)");
        }
      }
    } else if (pos_ != bytes_.size()) {
      fail(file_, Position::byte(pos_), std::to_string(bytes_.size() - pos_) +
                                            " bytes after the last element the header declares (wrong element count?)");
    }
  }

 private:
  std::string_view token() {
    if (next_token_ >= tokens_.size()) fail(file_, where(), "fewer values than the header declares for " + what_);
    return tokens_[next_token_++];
  }
  std::int64_t integer_token(std::string_view tok, Scalar t) {
    std::int64_t v = 0;
    if (!parse_int(tok, v)) fail(file_, where(), "bad integer " + quote(tok) + " in " + what_);
    std::int64_t lo = 0, hi = 0;
    integer_range(t, lo, hi);
    if (v < lo || v > hi) fail(file_, where(), "value " + quote(tok) + " does not fit its declared type in " + what_);
    return v;
  }
  const unsigned char* take(std::size_t n) {
    if (bytes_.size() - pos_ < n) {
      fail(file_, Position::byte(pos_), "truncated: the file ends inside " + what_ + " (file has " +
                                            std::to_string(bytes_.size()) + " bytes)");
    }
    const auto* p = reinterpret_cast<const unsigned char*>(bytes_.data()) + pos_;
    pos_ += n;
    return p;
  }

  const std::string& bytes_;
  const std::filesystem::path& file_;
  Encoding encoding_;
  std::size_t pos_;
  std::size_t start_ = 0;
  LineReader lines_;
  std::vector<std::string_view> tokens_;
  std::size_t next_token_ = 0;
  std::string what_;
};

}  // namespace

TriangleMesh parse_ply(const std::string& bytes, const std::filesystem::path& file, const MeshReadOptions& options) {
  check_options(file, options);
  const Header header = parse_header(bytes, file);
  const Layout layout = find_layout(header, file);
  const std::uint64_t vertex_count = header.elements[layout.vertex_element].count;

  // Faces are kept as corner lists and triangulated at the end, since the
  // face element may come before the vertices its polygons need.
  std::vector<Vec3> vertices;
  std::vector<std::uint32_t> corners;
  struct Face { std::size_t first, count; Position where; };
  std::vector<Face> faces;
  Values values(bytes, header, file);
  // Capacity bounded by what the file can hold (a vertex takes at least 3
  // bytes, a face 4) so that a lying count cannot exhaust memory.
  const auto bounded = [&](std::uint64_t n, std::size_t min_bytes) {
    return static_cast<std::size_t>(std::min<std::uint64_t>(n, bytes.size() / min_bytes));
  };
  for (std::size_t e = 0; e < header.elements.size(); ++e) {
    const Element& el = header.elements[e];
    if (e == layout.vertex_element) vertices.reserve(bounded(el.count, 3));
    if (e == layout.face_element) faces.reserve(bounded(el.count, 4));
    for (std::uint64_t i = 0; i < el.count; ++i) {
      values.begin(el.name, i, el.count);
      const Position start = values.instance_start();
      Vec3 x = Vec3::Zero();
      for (std::size_t p = 0; p < el.properties.size(); ++p) {
        const Property& prop = el.properties[p];
        const int ip = static_cast<int>(p);
        if (e == layout.vertex_element && (ip == layout.x || ip == layout.y || ip == layout.z)) {
          const Position at = values.where();
          const double raw = values.real(prop.type);
          const std::string problem = coordinate_problem(raw, options.scale);
          if (!problem.empty()) fail(file, at, problem + " (vertex " + std::to_string(i) + ")");
          x[ip == layout.x ? 0 : ip == layout.y ? 1 : 2] = raw * options.scale;
        } else if (e == layout.face_element && ip == layout.indices) {
          const std::int64_t n = values.integer(prop.count_type);
          if (n < 0) fail(file, start, "negative corner count in face " + std::to_string(i));
          faces.push_back({corners.size(), 0, start});
          for (std::int64_t k = 0; k < n; ++k) {
            const Position at = values.where();
            const std::int64_t v = values.integer(prop.type);
            if (v < 0 || static_cast<std::uint64_t>(v) >= vertex_count) {
              fail(file, at, "vertex index " + std::to_string(v) + " out of range in face " + std::to_string(i) +
                                 " (the header declares " + std::to_string(vertex_count) + " vertices)");
            }
            corners.push_back(static_cast<std::uint32_t>(v));
          }
          faces.back().count = static_cast<std::size_t>(n);
        } else {
          values.skip(prop);
        }
      }
      values.end();
      if (e == layout.vertex_element) vertices.push_back(x);
    }
  }
  values.finish();

  std::vector<TriangleIndices> triangles;
  triangles.reserve(faces.size());
  for (const Face& f : faces) {
    const std::string problem = triangulate_polygon(vertices, corners.data() + f.first, f.count, triangles);
    if (!problem.empty()) fail(file, f.where, problem);
  }
  return finish_mesh(file, Position::line(header.lines), std::move(vertices), std::move(triangles), options);
}

}  // namespace io_detail

TriangleMesh read_ply(const std::filesystem::path& path, const MeshReadOptions& options) {
  return io_detail::parse_ply(io_detail::read_file_bytes(path), path, options);
}

}  // namespace proxima
