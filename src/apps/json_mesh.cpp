// SPDX-License-Identifier: BSD-3-Clause
#include <cmath>
#include <filesystem>

#include <proxima/core/error.hpp>
#include <proxima/io/mesh_io.hpp>

#include "bvh_progress_line.hpp"
#include "json_mesh.hpp"
#include "json_reader.hpp"
#include "json_shapes.hpp"

namespace proxima::apps {
namespace {

using nlohmann::json;

TriangleMesh inline_mesh(ObjectReader& r, double margin) {
  const json& v = array_at(r.required("vertices"), r.field("vertices"), "[x, y, z] points");
  const json& t = array_at(r.required("triangles"), r.field("triangles"), "[i, j, k] vertex indices");
  std::vector<Vec3> vertices;
  vertices.reserve(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) vertices.push_back(vec3_at(v[i], index_path(r.field("vertices"), i)));
  std::vector<TriangleIndices> triangles;
  triangles.reserve(t.size());
  for (std::size_t i = 0; i < t.size(); ++i) {
    const std::string name = index_path(r.field("triangles"), i);
    if (!t[i].is_array() || t[i].size() != 3) fail(name, "expected 3 vertex indices");
    TriangleIndices tri{};
    for (std::size_t k = 0; k < 3; ++k) {
      if (!t[i][k].is_number_integer() || t[i][k].get<long long>() < 0 ||
          t[i][k].get<long long>() >= static_cast<long long>(vertices.size())) {
        fail(name, "index " + t[i][k].dump() + " is not a vertex index " +
                       (vertices.empty() ? std::string("(there are no vertices)")
                                         : "(0 to " + std::to_string(vertices.size() - 1) + ")"));
      }
      tri[k] = t[i][k].get<std::uint32_t>();
    }
    triangles.push_back(tri);
  }
  return TriangleMesh(std::move(vertices), std::move(triangles), margin, r.path());
}

}  // namespace

std::shared_ptr<const Bvh> MeshFiles::load(const std::string& path, double scale, double margin) {
  const auto key = std::make_tuple(path, scale, margin);
  auto it = loaded_.find(key);
  if (it != loaded_.end()) return it->second;
  MeshReadOptions o;
  o.scale = scale;
  o.margin = margin;
  auto bvh = std::make_shared<const Bvh>(build_bvh_with_progress_line(read_mesh(path, o), {}, "BVH of " + path));
  loaded_.emplace(key, bvh);
  return bvh;
}

bool is_mesh_json(const json& j) {
  return j.is_object() && j.contains("shape") && j["shape"].is_string() &&
         j["shape"].get<std::string>() == "mesh";
}

std::shared_ptr<const Bvh> mesh_from_json(const json& j, const std::string& field, MeshFiles& files) {
  return read_object(j, field, [&](ObjectReader& r) { return mesh_from_reader(r, files); });
}

std::shared_ptr<const Bvh> mesh_from_reader(ObjectReader& r, MeshFiles& files, const std::string& base_dir) {
  const std::string& field = r.path();
  if (r.string("shape") != "mesh") fail(r.field("shape"), "expected \"mesh\"");
  const double margin = r.number_or("margin", 0.0, kLengthRange);
  const bool has_file = r.has("file"), has_vertices = r.has("vertices");
  if (has_file == has_vertices) fail(field, "a mesh needs either \"file\" or \"vertices\" and \"triangles\"");
  try {
    if (has_file) {
      std::filesystem::path file(r.string("file"));
      if (file.is_relative() && !base_dir.empty()) file = std::filesystem::path(base_dir) / file;
      // A scale is a factor on lengths: positive, and no more than the range of lengths.
      const double scale = r.number_or("scale", 1.0, Range{0.0, kMaxLength, true, false, ""});
      return files.load(file.string(), scale, margin);
    }
    r.refuse("scale", "applies to a mesh \"file\" only");
    return std::make_shared<const Bvh>(inline_mesh(r, margin));
  } catch (const Error& e) {
    const std::string what = e.what();
    if (what.rfind(field, 0) == 0) throw;
    fail(field, what);
  }
}

}  // namespace proxima::apps
