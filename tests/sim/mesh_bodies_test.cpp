// SPDX-License-Identifier: BSD-3-Clause
// Triangle-mesh bodies in the simulator (BLEM contacts).
//
// Ground truth is geometric, not taken from the code: a body resting in the
// boundary-layer regime floats with its core exactly r_A + r_B above its
// support (the layers touch, depth 0), so the centre of a cube of side s on
// a ground whose core top is at z = 0 rests at
//   z_k = s/2 + r_g + r_c + k (s + 2 r_c),
// less the steady depth that PGS's documented normal-row compliance
// (0.3 α W_nn on the load, pgs_bodies.cpp; α W_nn more on the
// self-equilibrated patterns, which an even load has none of) leaves at each
// interface: at rest u_n = γ ψ/Δt must balance 0.3 α W_nn c_n, so an
// interface carrying n cubes' weight on its 4 corners (c_n = n m g Δt / 4
// each) sinks by
//   δ = 0.3 α W_nn c_n Δt / γ,
// W_nn = 1/m + |r × n|² / I per dynamic side = 1 + 0.005 · 600 = 4 for a
// corner of a 1 kg, 0.1 m cube (8 between two cubes). With α = 0.01,
// γ = 0.2, Δt = 1 ms: 0.15 µm per cube above a ground interface, 0.29 µm
// per cube above a cube–cube one.
#include <cmath>
#include <cstdio>
#include <numbers>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <proxima/mesh/mesh_contacts.hpp>
#include <proxima/sim/world.hpp>

#include "scene.hpp"
#include "../support/scene_error.hpp"

namespace proxima {
namespace {

using nlohmann::json;

constexpr double kSide = 0.1;     // cube side, m
constexpr double kLayer = 0.0025; // r of every cube (paper: 2.5 mm)

// The 12-triangle cube of side s, outward triangles.
json cube_mesh(double s, double margin) {
  const double h = 0.5 * s;
  json v = json::array();
  for (int z : {-1, 1})
    for (auto [x, y] : {std::pair{-1, -1}, {1, -1}, {1, 1}, {-1, 1}}) v.push_back({x * h, y * h, z * h});
  const json t = json::parse(
      "[[0,2,1],[0,3,2],[4,5,6],[4,6,7],[0,1,5],[0,5,4],[3,7,6],[3,6,2],[0,4,7],[0,7,3],[1,2,6],[1,6,5]]");
  return {{"shape", "mesh"}, {"vertices", v}, {"triangles", t}, {"margin", margin}};
}

// Ground: a static 1 m × 1 m × 0.1 m box mesh (12 triangles) whose top face
// is at z = 0, with layer r_g (the paper uses 0 on static geometry).
json ground(double rg) {
  json g = cube_mesh(1.0, rg);
  for (json& p : g["vertices"]) p[2] = p[2].get<double>() * 0.1;  // 1 × 1 × 0.1
  return {{"name", "ground"}, {"static", true}, {"shape", g}, {"pose", {{"p", {0, 0, -0.05}}}}};
}

double rest_height(int k, double rg) { return 0.5 * kSide + rg + kLayer + k * (kSide + 2 * kLayer); }

// Compliance depth (see the top) of the interface below cube k of an
// n-cube stack, m = 1 kg cubes, PGS defaults.
double compliance_depth(int k, int n) {
  const double alpha = 0.3 * 0.01, gamma = 0.2, dt = 1e-3, m = 1.0, g = 9.81;
  const double w = k == 0 ? 4.0 : 8.0;
  const double cn = (n - k) * m * g * dt / 4.0;
  return alpha * w * cn * dt / gamma;
}

double settled_height(int k, int n, double rg) {
  double z = rest_height(k, rg);
  for (int i = 0; i <= k; ++i) z -= compliance_depth(i, n);
  return z;
}

// n cubes at their resting heights plus `gap` (m) between neighbours.
json stack_scene(int n, double rg, double gap, const std::string& solver = "pgs") {
  json bodies = json::array({ground(rg)});
  for (int k = 0; k < n; ++k)
    bodies.push_back({{"name", "cube" + std::to_string(k)},
                      {"shape", cube_mesh(kSide, kLayer)},
                      {"density", 1000},
                      {"pose", {{"p", {0, 0, rest_height(k, rg) + (k + 1) * gap}}}}});
  return {{"name", "mesh_stack"}, {"dt", 0.001}, {"solver", {{"kind", solver}, {"pgs_iterations", 100}}},
          {"friction", {{"default", 0.5}}}, {"bodies", bodies}};
}

struct RunResult {
  double max_drift = 0.0;        // top cube COM, from the reference time, m
  double max_energy_gain = 0.0;  // E(t) − E(reference), J
  double max_speed = 0.0;        // largest body speed after the reference, m/s
  bool finite = true;
  int max_contacts = 0;
  int intersecting_steps = 0;
  double ms_per_step = 0.0;
};

RunResult run(apps::Scene& s, double settle, double total) {
  sim::World& w = s.world;
  const int top = static_cast<int>(w.bodies().size()) - 1;
  RunResult r;
  Vec3 x0 = Vec3::Zero();
  double e0 = 0.0;
  const int steps = static_cast<int>(std::llround(total / w.options.dt));
  const int settle_steps = static_cast<int>(std::llround(settle / w.options.dt));
  double ms = 0.0;
  for (int i = 1; i <= steps; ++i) {
    const sim::StepStats& st = w.step();
    ms += st.ms_total();
    const double e = w.kinetic_energy() + w.potential_energy();
    for (const sim::Body& b : w.bodies())
      if (!b.pose.is_finite() || !b.linear_velocity.allFinite() || !b.angular_velocity.allFinite()) r.finite = false;
    if (!r.finite || !std::isfinite(e)) {
      r.finite = false;
      break;
    }
    if (i == settle_steps) {
      x0 = w.bodies()[static_cast<std::size_t>(top)].com_position();
      e0 = e;
    }
    if (i > settle_steps) {
      r.max_drift = std::max(r.max_drift, (w.bodies()[static_cast<std::size_t>(top)].com_position() - x0).norm());
      r.max_energy_gain = std::max(r.max_energy_gain, e - e0);
      for (const sim::Body& b : w.bodies()) r.max_speed = std::max(r.max_speed, b.linear_velocity.norm());
    }
    r.max_contacts = std::max(r.max_contacts, st.contacts);
  }
  r.ms_per_step = ms / steps;
  return r;
}

// The paper's scene (§4.4): triangulated cubes, r = 2.5 mm, Δt = 1 ms, on a
// static mesh ground with a 0 mm layer, placed with their layers touching.
// Paper: a 10-cube stack deviates < 0.1 mm over 10 min. Here 3 cubes for
// 1.5 s (the first 0.3 s settle into the compliance depths), one duration
// for Release (0.2 s) and the ASan+UBSan build (≈ 6 s; 4 cubes for 5 s took
// 27 s there): the top cube's COM moves < 1 µm (100× tighter than the
// paper's bound), no NaN, the energy never rises above its settled value by
// more than 1e-7 J (a 10 nm lift of one cube; the 1e-6 m/s PGS stopping
// tolerance), every body slower than 1e-5 m/s, and each cube at its
// predicted height within 0.2 µm: every interface carries its load on 4
// equal corners. Scenes.MeshStackHoldsTenMinutes runs the shipped 10-cube
// stack for the paper's 10 minutes.
TEST(MeshBodies, TriangulatedCubeStackStaysStill) {
  constexpr int n = 3;
  apps::Scene s = apps::scene_from_json(stack_scene(n, 0.0, 0.0));
  const RunResult r = run(s, 0.3, 1.5);
  ASSERT_TRUE(r.finite);
  const sim::Body& topb = s.world.bodies().back();
  std::printf("  %d mesh cubes, 1.5 s: top drift %.3g mm, energy gain %.3g J, max speed %.3g m/s, "
              "top z %.9f (predicted %.9f), contacts ≤ %d, %.3f ms/step\n",
              n, 1e3 * r.max_drift, r.max_energy_gain, r.max_speed, topb.com_position().z(), settled_height(n - 1, n, 0.0),
              r.max_contacts, r.ms_per_step);
  EXPECT_LT(r.max_drift, 1e-6);
  EXPECT_LT(r.max_energy_gain, 1e-7);
  EXPECT_LT(r.max_speed, 1e-5);
  for (int k = 0; k < n; ++k) {
    const sim::Body& b = s.world.bodies()[static_cast<std::size_t>(k + 1)];
    EXPECT_NEAR(b.com_position().z(), settled_height(k, n, 0.0), 2e-7) << b.name;
    EXPECT_NEAR(b.com_position().x(), 0.0, 1e-6) << b.name;
    EXPECT_NEAR(b.com_position().y(), 0.0, 1e-6) << b.name;
  }
  // 4 contacts per interface (the face's corners), none hanging in the air,
  // cores far apart (depth ≪ r_A + r_B).
  EXPECT_EQ(s.world.last_contacts().size(), 4u * n);
  for (const sim::ContactImpulse& c : s.world.last_contacts()) {
    EXPECT_GT(c.depth, -1e-9);
    EXPECT_LT(c.depth, 1e-5);
  }
}

// A cube dropped 5 cm onto a mesh ground with its own 2.5 mm layer falls,
// stops inelastically and settles with its core 5 mm (r_cube + r_ground)
// above the ground's core, less the 0.49 µm compliance depth: the two
// layers just touch (depth ≈ 0), the boundary-layer regime, where BLEM's
// closest points are unique; the cores never come near each other.
TEST(MeshBodies, DroppedCubeRestsWithItsCoreInsideTheLayers) {
  apps::Scene s = apps::scene_from_json(stack_scene(1, kLayer, 0.05));
  const RunResult r = run(s, 1.5, 2.0);
  ASSERT_TRUE(r.finite);
  const sim::Body& cube = s.world.bodies()[1];
  const double z = cube.com_position().z();
  std::printf("  dropped cube rests at z = %.9f (layers touching: %.9f), core gap %.6f mm\n", z, rest_height(0, kLayer),
              1e3 * (z - 0.5 * kSide));
  EXPECT_NEAR(z, settled_height(0, 1, kLayer), 2e-7);
  EXPECT_LT(r.max_drift, 1e-6);
  EXPECT_LT(cube.linear_velocity.norm(), 1e-5);
  EXPECT_LT(cube.angular_velocity.norm(), 1e-4);
  // Upright: the local z axis still vertical.
  EXPECT_GT(cube.pose.R(2, 2), 1.0 - 1e-9);
  // Core gap 5 mm (inside the 5 mm of layers, not in contact).
  for (const sim::ContactImpulse& c : s.world.last_contacts()) EXPECT_FALSE(c.depth > 1e-4);
}

// Mixed pairs: a mesh cube on a convex box floor and on a halfspace, and a
// convex box on the mesh ground. The convex side's margin is its layer.
TEST(MeshBodies, MixedMeshConvexPairsRestAtTheLayerHeight) {
  for (const char* floor : {"box", "halfspace"}) {
    json j = stack_scene(1, 0.0, 0.0);
    j["bodies"][0] = floor == std::string("box")
                         ? json{{"name", "ground"}, {"static", true},
                                {"shape", {{"shape", "box"}, {"size", {1, 1, 0.1}}, {"margin", 0.001}}},
                                {"pose", {{"p", {0, 0, -0.05}}}}}
                         : json{{"name", "ground"}, {"static", true},
                                {"shape", {{"shape", "halfspace"}, {"normal", {0, 0, 1}}, {"offset", 0}, {"margin", 0.001}}}};
    // A box's margin inflates it: its core top is at z = 0, its surface at 1 mm.
    j["bodies"][1]["pose"]["p"] = {0, 0, rest_height(0, 0.001) + 0.01};
    apps::Scene s = apps::scene_from_json(j);
    const RunResult r = run(s, 1.0, 1.5);
    ASSERT_TRUE(r.finite) << floor;
    EXPECT_NEAR(s.world.bodies()[1].com_position().z(), settled_height(0, 1, 0.001), 2e-7) << floor;
    EXPECT_LT(r.max_drift, 1e-6) << floor;
  }
  // Convex box (no margin) dropped on the mesh ground with a 2.5 mm layer.
  json j = stack_scene(0, kLayer, 0.0);
  j["bodies"].push_back({{"name", "box"}, {"shape", {{"shape", "box"}, {"size", {0.1, 0.1, 0.1}}}}, {"density", 1000},
                         {"pose", {{"p", {0, 0, 0.05 + kLayer + 0.01}}}}});
  apps::Scene s = apps::scene_from_json(j);
  const RunResult r = run(s, 1.0, 1.5);
  ASSERT_TRUE(r.finite);
  EXPECT_NEAR(s.world.bodies()[1].com_position().z(), 0.05 + kLayer - compliance_depth(0, 1), 2e-7);
  EXPECT_LT(r.max_drift, 1e-6);
}

// What the solver sees of a mesh pair. Two aligned 12-triangle cubes face
// to face: mesh_contacts gives 80 raw contacts at only the 4 corners (one
// per triangle pair and patch vertex); the world gets exactly those 4
// corners, normal +z on the upper cube (B→A with A the lower index, so −z
// as stored when the lower cube is A). A cube turned 45° on another: the
// contact patch is the regular octagon where the two squares overlap,
// vertices at h·√(1 + (√2 − 1)²) = 1.0824 h from the axis; the world gets
// its 8 vertices, and the turned cube stays put. With max_contacts = 3 the
// clustering binds: 3 contacts.
TEST(MeshBodies, InterfaceContactsAreThePatchVertices) {
  {
    apps::Scene s = apps::scene_from_json(stack_scene(2, 0.0, 0.0));
    s.world.step();
    int between = 0;
    for (const sim::ContactImpulse& c : s.world.last_contacts()) {
      const Vec3 up = c.body_a < c.body_b ? Vec3(0, 0, -1) : Vec3(0, 0, 1);
      EXPECT_NEAR(c.normal.dot(up), 1.0, 1e-9) << c.body_a << "-" << c.body_b;
      if (c.body_a + c.body_b != 3) continue;  // cube0 (1) and cube1 (2)
      ++between;
      EXPECT_NEAR(std::abs(c.point.x()), 0.05, 1e-9);
      EXPECT_NEAR(std::abs(c.point.y()), 0.05, 1e-9);
    }
    EXPECT_EQ(between, 4);
  }
  {
    json j = stack_scene(2, 0.0, 0.0);
    const double a = std::numbers::pi / 8;  // 45° about z
    j["bodies"][2]["pose"]["q"] = {std::cos(a), 0, 0, std::sin(a)};
    apps::Scene s = apps::scene_from_json(j);
    const RunResult r = run(s, 0.1, 1.0);
    ASSERT_TRUE(r.finite);
    EXPECT_LT(r.max_drift, 1e-6);
    int between = 0;
    for (const sim::ContactImpulse& c : s.world.last_contacts()) {
      if (c.body_a + c.body_b != 3) continue;
      ++between;
      EXPECT_NEAR(std::hypot(c.point.x(), c.point.y()), 0.05 * std::sqrt(1 + std::pow(std::sqrt(2.0) - 1, 2)), 1e-5);
    }
    EXPECT_EQ(between, 8);
  }
  {
    json j = stack_scene(2, 0.0, 0.0);
    j["bodies"][2]["shape"]["max_contacts"] = 3;
    apps::Scene s = apps::scene_from_json(j);
    s.world.step();
    int between = 0;
    for (const sim::ContactImpulse& c : s.world.last_contacts()) between += c.body_a + c.body_b == 3;
    EXPECT_EQ(between, 3);
  }
}


// An open mesh (one square, 2 triangles) has no enclosed volume.
json open_square() {
  return {{"shape", "mesh"},
          {"vertices", {{-0.05, -0.05, 0}, {0.05, -0.05, 0}, {0.05, 0.05, 0}, {-0.05, 0.05, 0}}},
          {"triangles", {{0, 1, 2}, {0, 2, 3}}},
          {"margin", 0.0025}};
}

TEST(MeshBodies, BadMeshBodiesGiveClearErrors) {
  // Open mesh with a density: no mass properties.
  json j = stack_scene(1, 0.0, 0.0);
  j["bodies"][1]["shape"] = open_square();
  std::string e = testing::scene_error(j);
  EXPECT_NE(e.find("bodies[1].density"), std::string::npos) << e;
  EXPECT_NE(e.find("not closed"), std::string::npos) << e;
  // Open mesh with a mass but no inertia.
  j["bodies"][1].erase("density");
  j["bodies"][1]["mass"] = 1.0;
  e = testing::scene_error(j);
  EXPECT_NE(e.find("bodies[1]: missing \"inertia\""), std::string::npos) << e;
  EXPECT_NE(e.find("not closed"), std::string::npos) << e;
  // With mass and inertia (and a centre of mass) it is a valid body; static too.
  j["bodies"][1]["inertia"] = {1e-3, 1e-3, 2e-3};
  j["bodies"][1]["com"] = {0, 0, 0.01};
  EXPECT_EQ(testing::scene_error(j), "");
  j["bodies"][1] = {{"name", "sheet"}, {"static", true}, {"shape", open_square()}};
  EXPECT_EQ(testing::scene_error(j), "");
  // Non-finite vertex (not expressible in JSON text, but in a json value).
  j = stack_scene(1, 0.0, 0.0);
  j["bodies"][1]["shape"]["vertices"][3][1] = std::nan("");
  e = testing::scene_error(j);
  EXPECT_NE(e.find("bodies[1].shape.vertices[3]"), std::string::npos) << e;
  // Bad index, bad margin, bad max_contacts, missing file, neither source.
  j = stack_scene(1, 0.0, 0.0);
  j["bodies"][1]["shape"]["triangles"][0] = {0, 1, 99};
  EXPECT_NE(testing::scene_error(j).find("bodies[1].shape.triangles[0]"), std::string::npos) << testing::scene_error(j);
  j = stack_scene(1, 0.0, 0.0);
  j["bodies"][1]["shape"]["margin"] = -0.001;
  EXPECT_NE(testing::scene_error(j).find("bodies[1].shape"), std::string::npos) << testing::scene_error(j);
  j = stack_scene(1, 0.0, 0.0);
  j["bodies"][1]["shape"]["max_contacts"] = 0;
  EXPECT_NE(testing::scene_error(j).find("bodies[1].shape.max_contacts: expected an integer"), std::string::npos) << testing::scene_error(j);
  j = stack_scene(1, 0.0, 0.0);
  j["bodies"][1]["shape"] = {{"shape", "mesh"}, {"file", "/nonexistent/cube.obj"}, {"margin", 0.0025}};
  e = testing::scene_error(j);
  EXPECT_NE(e.find("bodies[1].shape"), std::string::npos) << e;
  EXPECT_NE(e.find("/nonexistent/cube.obj"), std::string::npos) << e;
  j["bodies"][1]["shape"] = {{"shape", "mesh"}, {"margin", 0.0025}};
  EXPECT_NE(testing::scene_error(j).find("bodies[1].shape: a mesh needs"), std::string::npos) << testing::scene_error(j);
  // The C++ API: a mesh body without volume refuses a density, naming the body.
  const auto sheet = std::make_shared<const Bvh>(
      TriangleMesh({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, {TriangleIndices{0, 1, 2}}, 0.001, "sheet"));
  try {
    (void)sim::mass_from_density(sim::MeshGeometry(sheet), 1000);
    ADD_FAILURE() << "no error";
  } catch (const Error& x) {
    EXPECT_NE(std::string(x.what()).find("\"sheet\" is not closed"), std::string::npos) << x.what();
  }
  EXPECT_THROW(sim::MeshGeometry(sheet, 0), Error);
}

// Scene files: a mesh "file" relative to the scene file's directory.
TEST(MeshBodies, ShippedMeshScenesLoad) {
  for (const char* f : {"mesh_cube_stack.json", "mesh_cube_stack_3.json", "mesh_cube_drop.json",
                        "mesh_cube_stack_halfspace.json", "mesh_cube_stack_obj.json"}) {
    const apps::Scene s = apps::load_scene(std::string(PROXIMA_EXAMPLES_DIR) + "/" + f);
    EXPECT_GE(s.world.bodies().size(), 2u) << f;
    EXPECT_NE(s.world.bodies()[1].geometry->mesh(), nullptr) << f;
  }
}

}  // namespace
}  // namespace proxima
