// SPDX-License-Identifier: BSD-3-Clause
// Triangle meshes: read a mesh file, build its bounding volume hierarchy once,
// then ask for the distance between two copies and for boundary-layer
// contacts of one cube resting on another.
// Run from the repository root: build-examples/mesh_distance [examples/meshes/cube_0.1.obj]
#include <algorithm>
#include <cstdio>
#include <string>

#include <proxima/io/mesh_io.hpp>
#include <proxima/mesh/mesh_contacts.hpp>
#include <proxima/mesh/mesh_queries.hpp>

int main(int argc, char** argv) {
  using namespace proxima;
  const std::string file = argc > 1 ? argv[1] : "examples/meshes/cube_0.1.obj";  // a 0.1 m cube

  // Distance: two cubes side by side, centres 0.3 m apart along x.
  const Bvh cube(read_mesh(file));
  const MeshDistanceResult d =
      distance(cube, Transform::identity(), cube, Transform::from_translation(Vec3(0.3, 0.0, 0.0)));
  std::printf("mesh-mesh distance %.12g normal %.12g %.12g %.12g status %s\n", d.distance, d.normal.x(),
              d.normal.y(), d.normal.z(), to_string(d.status));

  // Contacts for a simulator: each cube with a 2.5 mm boundary layer, the
  // upper one 1 mm above the lower one, so the layers overlap by 4 mm.
  const Bvh layered(read_mesh(file, {.scale = 1.0, .margin = 0.0025}));
  ContactSet set;  // reuse it across steps: no allocation once it has grown
  mesh_contacts(layered, Transform::from_translation(Vec3(0.0, 0.0, 0.101)), layered, Transform::identity(),
                MeshContactOptions{}, set);
  double min_depth = 1.0, max_depth = -1.0;
  for (const Contact& c : set.points) {
    min_depth = std::min(min_depth, c.depth);
    max_depth = std::max(max_depth, c.depth);
  }
  std::printf("mesh contacts %zu depth %.12g to %.12g status %s\n", set.points.size(), min_depth, max_depth,
              to_string(set.status));
  return d.status == Status::ok && set.status == Status::ok ? 0 : 1;
}
