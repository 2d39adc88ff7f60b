// SPDX-License-Identifier: BSD-3-Clause
// The OBJ, STL and PLY readers on arbitrary bytes (the first byte picks the
// reader and the options). The promise (io/mesh_io.hpp): a mesh, or a
// proxima::Error naming the file; never another exception, a crash or a
// hang. A mesh that loads must hold finite vertices and valid indices, and
// its BVH and a distance query on it must keep the query promise (no NaN).
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>

#include <proxima/core/error.hpp>
#include <proxima/mesh/bvh.hpp>
#include <proxima/mesh/mesh_queries.hpp>
#include <proxima/shape/sphere.hpp>

#include "fuzz_input.hpp"
#include "io/mesh_source.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace proxima;
  fuzz::Input in(data, size);
  const unsigned kind = in.below(3);
  MeshReadOptions options;
  if (in.byte() >= 200) options.scale = in.number();
  if (in.byte() >= 200) options.margin = in.number();
  const std::string bytes = in.rest();
  std::optional<TriangleMesh> mesh;
  try {
    switch (kind) {
      case 0: mesh.emplace(io_detail::parse_obj(bytes, "fuzz.obj", options)); break;
      case 1: mesh.emplace(io_detail::parse_stl(bytes, "fuzz.stl", options)); break;
      default: mesh.emplace(io_detail::parse_ply(bytes, "fuzz.ply", options)); break;
    }
  } catch (const Error& e) {
    if (std::string(e.what()).find("fuzz.") == std::string::npos) fuzz::broken("error does not name the file:", e.what());
    return 0;
  }
  const auto& v = mesh->vertices();
  for (const Vec3& p : v)
    if (!p.allFinite()) fuzz::broken("non-finite vertex");
  for (const auto& t : mesh->triangles())
    for (int k = 0; k < 3; ++k)
      if (static_cast<std::size_t>(t[k]) >= v.size()) fuzz::broken("index out of range");
  if (mesh->triangle_count() == 0) fuzz::broken("a mesh without triangles loaded");
  const Bvh bvh(*mesh);
  const Sphere probe(0.1);
  const Transform at = Transform::from_translation(Vec3(0.3, -0.2, 0.5));
  const MeshDistanceResult r = distance(bvh, Transform::identity(), Shape(probe), at);
  if (r.status == Status::ok && !(r.distance >= 0.0 && std::isfinite(r.distance)))
    fuzz::broken("mesh–sphere distance", std::to_string(r.distance));
  return 0;
}
