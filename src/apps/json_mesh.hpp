// SPDX-License-Identifier: BSD-3-Clause
// Meshes in the `proxima query` protocol: {"shape": "mesh", "vertices":
// [[x, y, z], …], "triangles": [[i, j, k], …]} or {"shape": "mesh", "file":
// "path", "scale": s}, either with an optional "margin".
#pragma once

#include <map>
#include <memory>
#include <string>
#include <tuple>

#include <nlohmann/json.hpp>

#include <proxima/mesh/bvh.hpp>

namespace proxima::apps {

/// Mesh files already loaded by one query stream, so that many request
/// lines naming one file read and build it once.
class MeshFiles {
 public:
  std::shared_ptr<const Bvh> load(const std::string& path, double scale, double margin);

 private:
  std::map<std::tuple<std::string, double, double>, std::shared_ptr<const Bvh>> loaded_;
};

/// True for {"shape": "mesh", …}.
bool is_mesh_json(const nlohmann::json& j);

/// The mesh and its BVH. Throws proxima::Error naming `field` (e.g. "a") and
/// the reason: a bad vertex or index, an unreadable or malformed file (the
/// reader's message names the file and line or byte), neither or both of
/// "file" and "vertices", an unknown key.
std::shared_ptr<const Bvh> mesh_from_json(const nlohmann::json& j, const std::string& field,
                                          MeshFiles& files);

class ObjectReader;
/// The same from a reader over the mesh object (which the caller finishes),
/// for formats that add keys of their own; a relative "file" is resolved
/// against `base_dir` when it is not empty.
std::shared_ptr<const Bvh> mesh_from_reader(ObjectReader& r, MeshFiles& files, const std::string& base_dir = {});

}  // namespace proxima::apps
