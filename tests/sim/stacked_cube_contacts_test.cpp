// SPDX-License-Identifier: BSD-3-Clause
// Contacts between two stacked cube meshes without layers (r = 0), as the
// simulator sees them at rest: the upper cube sunk into the lower by a
// fraction of a micrometre, twisted and tilted by rounding-level amounts.
// The way out is down for the lower cube (normal B→A has n_z < 0) and no
// deeper than the true overlap: the vertical sink plus what the tilt lowers
// a corner, bounded here from the poses alone.
#include <cmath>
#include <cstdio>

#include <gtest/gtest.h>

#include <proxima/mesh/mesh_contacts.hpp>


namespace proxima {
namespace {

Bvh cube_mesh(double s) {
  const double h = 0.5 * s;
  std::vector<Vec3> v;
  for (int z : {-1, 1})
    for (auto [x, y] : {std::pair{-1, -1}, {1, -1}, {1, 1}, {-1, 1}}) v.emplace_back(x * h, y * h, z * h);
  std::vector<TriangleIndices> t = {{0, 2, 1}, {0, 3, 2}, {4, 5, 6}, {4, 6, 7}, {0, 1, 5}, {0, 5, 4},
                                    {1, 2, 6}, {1, 6, 5}, {2, 3, 7}, {2, 7, 6}, {3, 0, 4}, {3, 4, 7}};
  return Bvh(TriangleMesh(std::move(v), std::move(t)));
}

// Largest overlap of the two cubes' vertical extents at any corner: the
// lower cube's highest corner minus the upper cube's lowest, plus nothing
// else a stack at rest can have (the cubes are 0.1 m and barely turned).
double vertical_overlap(const Transform& lower, const Transform& upper, double s) {
  double top = -1e300, bottom = 1e300;
  for (int i = 0; i < 8; ++i) {
    const Vec3 c(i & 1 ? s / 2 : -s / 2, i & 2 ? s / 2 : -s / 2, i & 4 ? s / 2 : -s / 2);
    top = std::max(top, lower.apply(c).z());
    bottom = std::min(bottom, upper.apply(c).z());
  }
  return top - bottom;
}

void check_pair(const Bvh& cube, const Transform& lower, const Transform& upper, int& checked) {
  MeshContactOptions o;
  o.margin = 0.005;  // the simulator's contact margin
  o.clustering.max_contacts = 20;
  ContactSet out;
  mesh_contacts(cube, lower, cube, upper, o, out);
  ASSERT_EQ(out.status, Status::ok);
  const double bound = std::max(0.0, vertical_overlap(lower, upper, 0.1)) + 1e-9;
  for (const Contact& c : out.points) {
    EXPECT_LT(c.normal.z(), 0.0) << "normal " << c.normal.transpose() << " depth " << c.depth;
    EXPECT_LE(c.depth, bound) << "normal " << c.normal.transpose();
    ++checked;
  }
}

// The poses of cubes 8 and 9 of examples/mesh_cube_stack_r0.json one step
// before it blew up at t = 45.439 s: the pair gave one contact pushing the
// lower cube 0.2 m up through the upper one.
TEST(StackedCubeContacts, TheStepBeforeTheR0StackExploded) {
  const Bvh cube = cube_mesh(0.1);
  const Transform lower =
      Transform::from_quaternion(0.999999869, 2.280715049e-05, -1.707235126e-07, -0.0005113875075,
                                 Vec3(6.645141776e-05, -6.695899714e-05, 0.8499627239));
  const Transform upper =
      Transform::from_quaternion(0.9999996222, 1.92305883e-05, 2.414833025e-07, -0.0008690601819,
                                 Vec3(9.437227654e-05, -0.0001076848485, 0.949962329));
  int checked = 0;
  check_pair(cube, lower, upper, checked);
  EXPECT_GE(checked, 4);
}

}  // namespace
}  // namespace proxima
