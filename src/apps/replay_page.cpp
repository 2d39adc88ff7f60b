// SPDX-License-Identifier: BSD-3-Clause
#include "replay_page.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <type_traits>

#include <proxima/core/error.hpp>
#include <proxima/sim/body.hpp>

#include "svg_plot.hpp"
#include "viewer_assets.hpp"

namespace proxima::apps {

using nlohmann::json;

double round_significant(double x, int digits, double quantum) {
  if (!std::isfinite(x)) return 0.0;
  x = std::nearbyint(x / quantum) * quantum;
  if (x == 0.0) return 0.0;  // no "-0.0"
  // Through the decimal text, so that the JSON writer's shortest
  // round-trip form is the short one.
  char text[32];
  std::snprintf(text, sizeof text, "%.*g", digits, x);
  return std::strtod(text, nullptr);
}

json vec_array(const Vec3& v, int digits, double quantum) {
  return json::array({round_significant(v.x(), digits, quantum), round_significant(v.y(), digits, quantum),
                      round_significant(v.z(), digits, quantum)});
}

json pose_array(const Transform& pose) {
  Quat q(pose.R);
  if (q.w() < 0.0) q.coeffs() = -q.coeffs();  // one sign per rotation: shorter text, steady replay
  constexpr double p = kPositionQuantum, r = kRotationQuantum;
  return json::array({round_significant(pose.p.x(), 6, p), round_significant(pose.p.y(), 6, p),
                      round_significant(pose.p.z(), 6, p), round_significant(q.w(), 6, r),
                      round_significant(q.x(), 6, r), round_significant(q.y(), 6, r), round_significant(q.z(), 6, r)});
}

json contact_row(const Vec3& point, const Vec3& normal, double depth) {
  json row = vec_array(point);
  for (const json& x : vec_array(normal, 4, kNormalQuantum)) row.push_back(x);
  row.push_back(round_significant(depth, 4, 1e-7));
  return row;
}

bool drawn_status(const std::string& status) {
  return status == "ok" || status == "not_converged" || status == "upper_bound";
}

json segment_row(const Vec3& a, const Vec3& b) {
  json row = vec_array(a);
  for (const json& x : vec_array(b)) row.push_back(x);
  return row;
}

json shape_json(const Shape& s) {
  json j = std::visit(
      [](const auto& x) -> json {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, Sphere>) {
          return {{"kind", "sphere"}, {"radius", round_significant(x.radius())}};
        } else if constexpr (std::is_same_v<T, Capsule>) {
          return {{"kind", "capsule"}, {"radius", round_significant(x.radius())},
                  {"length", round_significant(x.length())}};
        } else if constexpr (std::is_same_v<T, Cylinder>) {
          return {{"kind", "cylinder"}, {"radius", round_significant(x.radius())},
                  {"length", round_significant(x.length())}};
        } else if constexpr (std::is_same_v<T, Cone>) {
          return {{"kind", "cone"}, {"radius", round_significant(x.radius())},
                  {"length", round_significant(x.length())}};
        } else if constexpr (std::is_same_v<T, Box>) {
          return {{"kind", "box"}, {"size", vec_array(x.size())}};
        } else if constexpr (std::is_same_v<T, Ellipsoid>) {
          return {{"kind", "ellipsoid"}, {"radii", vec_array(x.radii())}};
        } else if constexpr (std::is_same_v<T, Halfspace>) {
          return {{"kind", "halfspace"}, {"normal", vec_array(x.normal())}, {"offset", round_significant(x.offset())}};
        } else {
          static_assert(std::is_same_v<T, ConvexPolytope>);
          json v = json::array();
          for (const Vec3& p : x.vertices())
            for (int k = 0; k < 3; ++k) v.push_back(round_significant(p[k]));
          return {{"kind", "convex"}, {"vertices", v}, {"faces", x.data().faces}};
        }
      },
      s.variant());
  if (s.margin() > 0.0) j["margin"] = round_significant(s.margin());
  return j;
}

json mesh_json(const TriangleMesh& m) {
  json v = json::array();
  for (const Vec3& p : m.vertices())
    for (int k = 0; k < 3; ++k) v.push_back(round_significant(p[k]));
  json t = json::array();
  for (const TriangleIndices& tri : m.triangles())
    for (std::uint32_t i : tri) t.push_back(i);
  json j{{"kind", "mesh"}, {"vertices", v}, {"triangles", t}};
  if (m.margin() > 0.0) j["margin"] = round_significant(m.margin());
  return j;
}

json geometry_json(const sim::Geometry& g) {
  if (const Shape* s = g.convex()) return shape_json(*s);
  if (const Bvh* b = g.mesh()) return mesh_json(b->mesh());
  throw Error("replay page: a body's geometry is neither a convex shape nor a mesh");
}

int ShapeTable::add(json shape) {
  std::string key = shape.dump();
  const auto it = index_.find(key);
  if (it != index_.end()) return it->second;
  const int i = static_cast<int>(shapes_.size());
  shapes_.push_back(std::move(shape));
  index_.emplace(std::move(key), i);
  return i;
}

namespace {

// The template with each {{name}} replaced by its text; the texts are not
// scanned again (three.js could hold anything), and every marker must be known.
std::string expand(const std::string& tpl, const std::map<std::string, std::string>& texts) {
  std::string out;
  std::size_t from = 0;
  for (std::size_t at = tpl.find("{{"); at != std::string::npos; at = tpl.find("{{", from)) {
    const std::size_t end = tpl.find("}}", at);
    if (end == std::string::npos) throw Error("replay page template: an unclosed {{");
    const auto it = texts.find(tpl.substr(at + 2, end - at - 2));
    if (it == texts.end()) throw Error("replay page template: unknown " + tpl.substr(at, end + 2 - at));
    out.append(tpl, from, at - from).append(it->second);
    from = end + 2;
  }
  return out.append(tpl, from, std::string::npos);
}

// An HTML comment ends at the first "--" pair of some parsers: none may be in it.
std::string comment_safe(std::string text) {
  for (std::size_t at = text.find("--"); at != std::string::npos; at = text.find("--", at)) text.replace(at, 2, "- -");
  return text;
}

// Script text ends at "</script" whatever the quoting, and "<!--" changes how
// it is read: JSON has "<" only inside strings, where "\u003c" means the same.
std::string script_safe(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c == '<') out.append("\\u003c");
    else out.push_back(c);
  }
  return out;
}

}  // namespace

std::string replay_page_html(const json& data, const ThreeJs& three) {
  // Inlined as they are: text that would end the script element, or make
  // the parser look for a nested one, is refused rather than mangled.
  for (const std::string* js : {&three.library, &three.controls}) {
    std::string lower = *js;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
    if (lower.find("</script") != std::string::npos || lower.find("<!--") != std::string::npos)
      throw Error("three.js text holds </script or <!-- and cannot be inlined");
  }
  const std::string title = data.contains("title") ? data["title"].get<std::string>() : std::string("Proxima replay");
  return expand(kReplayHtml, {{"title", html_escape(title)},
                              {"three_licence", comment_safe(three.licence)},
                              {"three", three.library},
                              {"orbit_controls", three.controls},
                              {"viewer", kReplayJs},
                              {"data", script_safe(data.dump())}});
}

ReplayPageFile::ReplayPageFile(const std::string& path, const std::string& flag) : path_(path), flag_(flag) {
  if (path.empty()) throw Error(flag + ": needs a file name");
  try {
    three_ = load_three_js();
  } catch (const Error& e) {
    throw Error(flag + ": " + e.what());
  }
  out_.open(path, std::ios::binary);
  if (!out_) throw Error(flag + ": " + path + ": cannot write the page");
}

void ReplayPageFile::write(const json& data) {
  out_ << replay_page_html(data, three_);
  out_.close();
  if (!out_) throw Error(flag_ + ": " + path_ + ": writing the page failed");
}

}  // namespace proxima::apps
