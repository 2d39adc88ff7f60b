// SPDX-License-Identifier: BSD-3-Clause
// The formats read through assimp, not parsed here: COLLADA (a scene graph of
// XML with units, axes and node transforms) and glTF 2.0 / GLB (JSON or
// binary with external or embedded buffers). assimp's messages have no line
// numbers; ours add the file's name.
#include <assimp/config.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <assimp/Importer.hpp>

#include "mesh_source.hpp"

namespace proxima {
namespace io_detail {
namespace {

struct Collector {
  const std::filesystem::path& file;
  double scale;
  std::vector<Vec3> vertices;
  std::vector<TriangleIndices> triangles;

  void node(const aiScene& scene, const aiNode& n, const aiMatrix4x4& parent) {
    const aiMatrix4x4 m = parent * n.mTransformation;
    for (unsigned i = 0; i < n.mNumMeshes; ++i) mesh(*scene.mMeshes[n.mMeshes[i]], m);
    for (unsigned c = 0; c < n.mNumChildren; ++c) node(scene, *n.mChildren[c], m);
  }

  void mesh(const aiMesh& mesh, const aiMatrix4x4& m) {
    const auto first = static_cast<std::uint32_t>(vertices.size());
    for (unsigned v = 0; v < mesh.mNumVertices; ++v) {
      const aiVector3D p = m * mesh.mVertices[v];
      Vec3 x(p.x, p.y, p.z);
      for (int k = 0; k < 3; ++k) {
        const std::string problem = coordinate_problem(x[k], scale);
        if (!problem.empty()) {
          fail(file, {}, "mesh '" + std::string(mesh.mName.C_Str()) + "' vertex " + std::to_string(v) + ": " + problem);
        }
      }
      vertices.push_back(scale * x);
    }
    // Points and lines have no area; the importer was asked to drop them.
    for (unsigned f = 0; f < mesh.mNumFaces; ++f) {
      const aiFace& face = mesh.mFaces[f];
      if (face.mNumIndices != 3) continue;
      triangles.push_back({first + face.mIndices[0], first + face.mIndices[1], first + face.mIndices[2]});
    }
  }
};

}  // namespace

TriangleMesh parse_dae(const std::string& bytes, const std::filesystem::path& file, const MeshReadOptions& options) {
  check_options(file, options);
  Assimp::Importer importer;
  // Coordinates as the file gives them, like ROS's mesh loaders: assimp
  // would otherwise turn a Z_UP file to Y up. Units (<unit meter>) and the
  // nodes' transforms are applied.
  importer.SetPropertyBool(AI_CONFIG_IMPORT_COLLADA_IGNORE_UP_DIRECTION, true);
  importer.SetPropertyInteger(AI_CONFIG_PP_SBP_REMOVE, aiPrimitiveType_POINT | aiPrimitiveType_LINE);
  const aiScene* scene = importer.ReadFileFromMemory(
      bytes.data(), bytes.size(), aiProcess_Triangulate | aiProcess_JoinIdenticalVertices | aiProcess_SortByPType,
      "dae");
  if (scene == nullptr || scene->mRootNode == nullptr) {
    fail(file, {}, std::string("COLLADA: ") + importer.GetErrorString());
  }
  Collector c{file, options.scale, {}, {}};
  c.node(*scene, *scene->mRootNode, aiMatrix4x4());
  return finish_mesh(file, {}, std::move(c.vertices), std::move(c.triangles), options);
}

TriangleMesh read_gltf(const std::filesystem::path& file, const MeshReadOptions& options) {
  check_options(file, options);
  // Read from the file, not from memory: a .gltf names its buffers by paths
  // relative to itself. The bytes are checked first, for our messages
  // (missing, empty, a directory, not a regular file).
  read_file_bytes(file);
  Assimp::Importer importer;
  importer.SetPropertyInteger(AI_CONFIG_PP_SBP_REMOVE, aiPrimitiveType_POINT | aiPrimitiveType_LINE);
  const aiScene* scene = importer.ReadFile(
      file.string(), aiProcess_Triangulate | aiProcess_JoinIdenticalVertices | aiProcess_SortByPType);
  if (scene == nullptr || scene->mRootNode == nullptr) {
    fail(file, {}, std::string("glTF: ") + importer.GetErrorString());
  }
  Collector c{file, options.scale, {}, {}};
  c.node(*scene, *scene->mRootNode, aiMatrix4x4());
  return finish_mesh(file, {}, std::move(c.vertices), std::move(c.triangles), options);
}

}  // namespace io_detail

TriangleMesh read_dae(const std::filesystem::path& path, const MeshReadOptions& options) {
  return io_detail::parse_dae(io_detail::read_file_bytes(path), path, options);
}

TriangleMesh read_gltf(const std::filesystem::path& path, const MeshReadOptions& options) {
  return io_detail::read_gltf(path, options);
}

}  // namespace proxima
