#include <cmath>

#include <proxima/core/error.hpp>
#include <proxima/io/mesh_io.hpp>

#include "json_mesh.hpp"
#include "json_shapes.hpp"

namespace proxima::apps {
namespace {

using nlohmann::json;

[[noreturn]] void fail(const std::string& field, const std::string& reason) {
  throw Error(field + ": " + reason);
}

double optional_number(const json& j, const std::string& field, const char* key, double fallback) {
  if (!j.contains(key)) return fallback;
  if (!j[key].is_number() || !std::isfinite(j[key].get<double>())) {
    fail(field + "." + key, "expected a finite number");
  }
  return j[key].get<double>();
}

TriangleMesh inline_mesh(const json& j, const std::string& field, double margin) {
  const json& v = j["vertices"];
  if (!v.is_array()) fail(field + ".vertices", "expected an array of [x, y, z] points");
  if (!j.contains("triangles") || !j["triangles"].is_array()) {
    fail(field + ".triangles", "expected an array of [i, j, k] vertex indices");
  }
  const json& t = j["triangles"];
  std::vector<Vec3> vertices;
  vertices.reserve(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    vertices.push_back(vec3_from_json(v[i], field + ".vertices[" + std::to_string(i) + "]"));
  }
  std::vector<TriangleIndices> triangles;
  triangles.reserve(t.size());
  for (std::size_t i = 0; i < t.size(); ++i) {
    const std::string name = field + ".triangles[" + std::to_string(i) + "]";
    if (!t[i].is_array() || t[i].size() != 3) fail(name, "expected 3 vertex indices");
    TriangleIndices tri{};
    for (std::size_t k = 0; k < 3; ++k) {
      if (!t[i][k].is_number_integer() || t[i][k].get<long long>() < 0 ||
          t[i][k].get<long long>() >= static_cast<long long>(vertices.size())) {
        fail(name, "index " + t[i][k].dump() + " is not a vertex index (0.." +
                       std::to_string(vertices.size()) + ")");
      }
      tri[k] = t[i][k].get<std::uint32_t>();
    }
    triangles.push_back(tri);
  }
  return TriangleMesh(std::move(vertices), std::move(triangles), margin, field);
}

}  // namespace

std::shared_ptr<const Bvh> MeshFiles::load(const std::string& path, double scale, double margin) {
  const auto key = std::make_tuple(path, scale, margin);
  auto it = loaded_.find(key);
  if (it != loaded_.end()) return it->second;
  MeshReadOptions o;
  o.scale = scale;
  o.margin = margin;
  auto bvh = std::make_shared<const Bvh>(read_mesh(path, o));
  loaded_.emplace(key, bvh);
  return bvh;
}

bool is_mesh_json(const json& j) {
  return j.is_object() && j.contains("shape") && j["shape"].is_string() &&
         j["shape"].get<std::string>() == "mesh";
}

std::shared_ptr<const Bvh> mesh_from_json(const json& j, const std::string& field, MeshFiles& files) {
  const double margin = optional_number(j, field, "margin", 0.0);
  const bool has_file = j.contains("file"), has_vertices = j.contains("vertices");
  if (has_file == has_vertices) fail(field, "a mesh needs either \"file\" or \"vertices\" and \"triangles\"");
  try {
    if (has_file) {
      if (!j["file"].is_string()) fail(field + ".file", "expected a path string");
      return files.load(j["file"].get<std::string>(), optional_number(j, field, "scale", 1.0), margin);
    }
    return std::make_shared<const Bvh>(inline_mesh(j, field, margin));
  } catch (const Error& e) {
    const std::string what = e.what();
    if (what.rfind(field, 0) == 0) throw;
    fail(field, what);
  }
}

}  // namespace proxima::apps
