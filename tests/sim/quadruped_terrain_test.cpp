// SPDX-License-Identifier: BSD-3-Clause
// examples/quadruped_terrain.json: a four-legged robot whose trunk is free
// in space (a floating base) stands in a PD-held crouch on a raw, noisy terrain mesh. Against statics: once at
// rest, the ground carries the robot's whole weight and no net sideways
// force, every foot touches the ground and none sinks past its boundary
// layer, and the trunk no longer moves.
#include <cmath>
#include <cstdio>
#include <string>

#include <gtest/gtest.h>

#include "scene.hpp"

namespace proxima {
namespace {

TEST(QuadrupedTerrain, StandsOnTheNoisyMeshCarryingItsWeight) {
  apps::Scene scene = apps::load_scene(std::string(PROXIMA_EXAMPLES_DIR) + "/quadruped_terrain.json");
  ASSERT_EQ(scene.robots.size(), 1u);
  const apps::SceneRobot& sr = scene.robots.front();
  const robot::RobotModel& model = sr.geometry->model();
  ASSERT_EQ(model.variable_count(), 8u);
  ASSERT_EQ(sr.kind, robot::BaseKind::floating);
  double mass = 0.0;
  for (const robot::Link& l : model.links()) mass += l.inertial.mass;
  EXPECT_NEAR(mass, 6.0 + 4 * (0.5 + 0.3), 1e-12);
  const double g = -scene.world.gravity.z();
  ASSERT_GT(g, 0.0);
  robot::RobotWorld rw = sr.make_world(std::move(scene.world));
  const double dt = rw.world().options.dt;
  ASSERT_EQ(model.root_link(), model.link_index("trunk"));
  const auto trunk_at = [&] { return rw.robot().state().base.p; };

  // Falls 5 mm onto the terrain and settles within two seconds.
  for (int i = 0; i < 2000; ++i) {
    sr.drive(rw);
    rw.step();
  }
  const Vec3 settled = trunk_at();
  double deepest = -1.0, ms = 0.0;
  const int steps = 1000;
  for (int i = 0; i < steps; ++i) {
    sr.drive(rw);
    rw.step();
    const robot::RobotWorldStats& st = rw.last_stats();
    ms += st.ms_contacts + st.ms_build + st.ms_solve;
    for (const robot::RobotContact& c : rw.last_contacts()) deepest = std::max(deepest, c.depth);
  }
  // At rest: the trunk stands where it settled, its twist and joints still.
  EXPECT_LT((trunk_at() - settled).norm(), 1e-5);
  EXPECT_LT(rw.robot().state().qd.cwiseAbs().maxCoeff(), 1e-5);
  // No foot sinks past the 2 mm layer (depth is measured from the layer's
  // surface: it stays within rounding of touching).
  EXPECT_LT(deepest, 1e-6);
  // Statics: the contact forces on the robot sum to its weight, upwards,
  // with no net sideways force (the floating base has no motor).
  Vec3 total = Vec3::Zero();
  bool foot[4] = {false, false, false, false};
  const char* names[4] = {"fl_shin", "fr_shin", "hl_shin", "hr_shin"};
  for (const robot::RobotContact& c : rw.last_contacts()) {
    ASSERT_GE(c.link, 0);
    for (int k = 0; k < 4; ++k) foot[k] = foot[k] || c.link == model.link_index(names[k]);
    total += (c.normal * c.normal_impulse + c.friction_impulse) / dt;
  }
  for (int k = 0; k < 4; ++k) EXPECT_TRUE(foot[k]) << names[k] << " is off the ground";
  const double weight = mass * g;
  EXPECT_NEAR(total.z(), weight, 1e-3 * weight);
  EXPECT_LT(std::hypot(total.x(), total.y()), 1e-3 * weight);
  std::printf("quadruped_terrain: trunk at (%.6f, %.6f, %.6f), ground force %.6f N of %.6f N, deepest %.3g m, "
              "%.4f ms/step at dt %g ms\n",
              trunk_at().x(), trunk_at().y(), trunk_at().z(), total.z(), weight, deepest, ms / steps, dt * 1e3);
}

}  // namespace
}  // namespace proxima
