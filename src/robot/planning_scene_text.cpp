// SPDX-License-Identifier: BSD-3-Clause
// MoveIt's .scene geometry text, read line by line so that each error names
// the line and what it should have held. The layout (one item per line, as
// MoveIt writes it):
//
//   scene name
//   * object id
//   x y z                 object pose (newer files only)
//   qx qy qz qw
//   shape count
//   type                  per shape: box | sphere | cylinder | cone | mesh
//   dimensions            box: x y z; sphere: r; cylinder, cone: radius length;
//                         mesh: "V T", then V lines "x y z", T lines "a b c"
//   x y z                 shape pose, relative to the object
//   qx qy qz qw
//   r g b a               colour (not read beyond being four numbers)
//   subframe count        (newer files only), then per subframe a name and a pose
//   .
//
// Older files have no object pose and no subframes; as MoveIt does, the line
// after the first object's header tells: three numbers there is a pose, one
// a shape count.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <set>
#include <sstream>

#include <proxima/core/error.hpp>
#include <proxima/mesh/bvh.hpp>
#include <proxima/shape/sphere.hpp>

#include "planning_scene_parts.hpp"

namespace proxima::robot::scene_parts {
namespace {

struct Line {
  int number = 0;  ///< 1-based
  std::string text;  ///< without surrounding blanks
};

class TextReader {
 public:
  TextReader(std::string_view text, std::string source) : source_(std::move(source)) {
    std::size_t start = 0;
    int number = 0;
    while (start <= text.size()) {
      std::size_t end = text.find('\n', start);
      if (end == std::string_view::npos) end = text.size();
      ++number;
      std::string_view raw = text.substr(start, end - start);
      const std::size_t a = raw.find_first_not_of(" \t\r");
      const std::size_t b = raw.find_last_not_of(" \t\r");
      const std::string trimmed = a == std::string_view::npos ? std::string() : std::string(raw.substr(a, b - a + 1));
      // Line 1 is the scene name, which may be empty; blank lines elsewhere carry nothing.
      if (number == 1 || !trimmed.empty()) lines_.push_back({number, trimmed});
      if (end == text.size()) break;
      start = end + 1;
    }
  }

  [[noreturn]] void fail(int line, const std::string& why) const {
    throw Error(std::string(source_).append(":").append(std::to_string(line)).append(": ").append(why));
  }

  bool done() const { return at_ >= lines_.size(); }

  // The next line; `what` says what was expected when the text has ended.
  const Line& next(const std::string& what) {
    if (done()) {
      const int last = lines_.empty() ? 1 : lines_.back().number;
      fail(last, "the text ends where " + what + " was expected (a .scene file ends with a line '.')");
    }
    return lines_[at_++];
  }

  const Line& peek() const { return lines_[at_]; }
  /// The number of the line read last.
  int last_line() const { return at_ == 0 ? 1 : lines_[at_ - 1].number; }

  static std::vector<std::string> tokens(const std::string& s) {
    std::istringstream in(s);
    std::vector<std::string> out;
    for (std::string t; in >> t;) out.push_back(t);
    return out;
  }

  // A line of exactly `count` finite numbers.
  std::vector<double> numbers(std::size_t count, const std::string& what) {
    const Line& l = next(what);
    const std::vector<std::string> t = tokens(l.text);
    if (t.size() != count)
      fail(l.number, what + ": expected " + std::to_string(count) + (count == 1 ? " number" : " numbers") + ", found '" +
                         l.text + "'");
    std::vector<double> out;
    for (const std::string& s : t) {
      double v = 0.0;
      const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
      if (ec != std::errc() || ptr != s.data() + s.size()) fail(l.number, what + ": '" + s + "' is not a number");
      if (!std::isfinite(v)) fail(l.number, what + ": '" + s + "' is not finite");
      out.push_back(v);
    }
    return out;
  }

  // A line holding one count (a non-negative integer).
  std::size_t count(const std::string& what) {
    const Line& l = next(what);
    std::size_t v = 0;
    const auto [ptr, ec] = std::from_chars(l.text.data(), l.text.data() + l.text.size(), v);
    if (l.text.empty() || ec != std::errc() || ptr != l.text.data() + l.text.size())
      fail(l.number, what + ": expected a count, found '" + l.text + "'");
    return v;
  }

  Transform pose(const std::string& what) {
    const std::vector<double> p = numbers(3, what + " position (x y z)");
    const std::vector<double> q = numbers(4, what + " orientation (x y z w)");
    if (std::string why = quaternion_problem(q[0], q[1], q[2], q[3]); !why.empty())
      fail(last_line(), what + " orientation: " + why);
    return pose_of(Vec3(p[0], p[1], p[2]), q[0], q[1], q[2], q[3]);
  }

 private:
  std::string source_;
  std::vector<Line> lines_;
  std::size_t at_ = 0;
};

std::variant<Shape, Bvh> text_mesh(TextReader& r, const std::string& what) {
  const std::vector<double> counts = r.numbers(2, what + " vertex and triangle counts");
  if (counts[0] != std::floor(counts[0]) || counts[1] != std::floor(counts[1]) || counts[0] < 0 || counts[1] < 1)
    r.fail(r.last_line(), what + ": the vertex count must be a whole number and the triangle count at least 1");
  const auto nv = static_cast<std::size_t>(counts[0]);
  const auto nt = static_cast<std::size_t>(counts[1]);
  std::vector<Vec3> vertices;
  for (std::size_t i = 0; i < nv; ++i) {
    const std::vector<double> v = r.numbers(3, what + " vertex " + std::to_string(i));
    vertices.emplace_back(v[0], v[1], v[2]);
  }
  std::vector<TriangleIndices> triangles;
  for (std::size_t i = 0; i < nt; ++i) {
    const std::string tw = what + " triangle " + std::to_string(i);
    const std::vector<double> t = r.numbers(3, tw);
    TriangleIndices tri{};
    for (std::size_t k = 0; k < 3; ++k) {
      if (t[k] < 0 || t[k] != std::floor(t[k]) || t[k] >= static_cast<double>(nv)) {
        std::ostringstream m;
        m << tw << ": vertex index " << t[k] << " is not a whole number below the vertex count " << nv;
        r.fail(r.last_line(), m.str());
      }
      tri[k] = static_cast<std::uint32_t>(t[k]);
    }
    triangles.push_back(tri);
  }
  return Bvh(TriangleMesh(std::move(vertices), std::move(triangles), 0.0, what));
}

PlacedShape shape(TextReader& r, const std::string& what) {
  const Line& type_line = r.next(what + " type");
  const std::string type = type_line.text;
  std::variant<Shape, Bvh> geometry(std::in_place_type<Shape>, Sphere(1.0));
  if (type == "mesh") {
    geometry = text_mesh(r, what);
  } else if (type == "plane") {
    r.fail(type_line.number, what + ": planes are not read (a MoveIt plane is two-sided and unbounded)");
  } else {
    Primitive kind = Primitive::box;
    if (!primitive_from_name(type, kind))
      r.fail(type_line.number, what + ": shape type '" + type + "' is not box, sphere, cylinder, cone or mesh");
    std::vector<double> d = r.numbers(dimension_count(kind), what + " " + type + " dimensions");
    const int dims_line = r.last_line();
    // The text writes cylinders and cones as "radius length", the message as [height, radius].
    if (kind == Primitive::cylinder || kind == Primitive::cone) std::swap(d[0], d[1]);
    Shape s = Sphere(1.0);
    if (std::string why = make_primitive(kind, d, s); !why.empty()) r.fail(dims_line, what + ": " + why);
    geometry = std::move(s);
  }
  const Transform pose = r.pose(what + " pose");
  r.numbers(4, what + " colour (r g b a)");
  return {std::move(geometry), pose};
}

}  // namespace

PlanningScene parse_scene_text(std::string_view text, const std::string& source) {
  TextReader r(text, source);
  PlanningScene scene;
  scene.name = r.next("the scene name").text;
  // The format: is the line after the first "* id" a pose (three numbers) or a shape count?
  bool with_poses = false;
  if (!r.done() && r.peek().text.rfind('*', 0) == 0) {
    TextReader probe = r;
    probe.next("an object");
    if (!probe.done()) with_poses = TextReader::tokens(probe.peek().text).size() == 3;
  }
  std::set<std::string> ids;
  while (true) {
    const Line& l = r.next("an object ('* id') or the end ('.')");
    if (l.text == ".") break;
    if (l.text.rfind('*', 0) != 0)
      r.fail(l.number, "expected an object ('* id') or the end ('.'), found '" + l.text + "'");
    const std::size_t a = l.text.find_first_not_of(" \t", 1);
    const std::string id = a == std::string::npos ? std::string() : l.text.substr(a);
    if (id.empty()) r.fail(l.number, "an object without an id");
    if (!ids.insert(id).second) r.fail(l.number, "object '" + id + "' appears twice");
    const std::string what = "object '" + id + "'";
    const Transform object_pose = with_poses ? r.pose(what + " pose") : Transform::identity();
    const std::size_t n = r.count(what + " shape count");
    if (n == 0) r.fail(l.number, what + " has no shapes");
    std::vector<PlacedShape> shapes;
    for (std::size_t k = 0; k < n; ++k) shapes.push_back(shape(r, what + " shape " + std::to_string(k)));
    if (with_poses) {
      const std::size_t subframes = r.count(what + " subframe count");
      for (std::size_t k = 0; k < subframes; ++k) {
        r.next(what + " subframe name");
        r.pose(what + " subframe " + std::to_string(k) + " pose");
      }
    }
    add_object(scene.environment, id, object_pose, std::move(shapes));
  }
  if (!r.done()) r.fail(r.peek().number, "text after the closing '.': '" + r.peek().text + "'");
  return scene;
}

}  // namespace proxima::robot::scene_parts
