// SPDX-License-Identifier: BSD-3-Clause
// The Polyhedral Exact Geometry benchmarks (examples/peg_sawtooth.json,
// examples/peg_hills.json) at Δt = 1e-4 … 1e-1 with both formulations, and
// speculative contacts against tunnelling. The obstacles' true surfaces are
// written in closed form (tests/support/peg_profiles.hpp, not read from
// the scene's bodies), and the energy is summed from the particle's state:
// ½ m v² + m g y − F·x.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <proxima/core/error.hpp>

#include "../support/peg_profiles.hpp"
#include "../support/test_shapes.hpp"
#include "scene.hpp"

namespace proxima {
namespace {

using Eigen::Vector2d;

constexpr double kRadius = 0.02;  // the particle's radius in both scenes

using testing::hills_profile;
using testing::sawtooth_profile;

double clearance(const std::vector<Vector2d>& p, const Vector2d& x) { return testing::profile_clearance(p, x, kRadius); }

struct Trace {
  int steps = 0;
  double max_gain = 0.0;        // largest rise of the energy above its running minimum, J
  double min_clearance = 1e9;   // m
  double max_x = -1e9;
  Vector2d end = Vector2d::Zero();
  double end_speed = 0.0;       // m/s
  double end_clearance = 0.0;   // m
  int fallbacks = 0;
};

Trace simulate(const std::string& file, sim::Formulation f, sim::SolverKind solver, double dt, double seconds) {
  apps::Scene s = apps::load_scene(std::string(PROXIMA_EXAMPLES_DIR) + "/" + file);
  sim::World& w = s.world;
  w.options.formulation = f;
  w.options.solver = solver;
  w.options.dt = dt;
  const int id = w.find("particle");
  EXPECT_GE(id, 0);
  const std::vector<Vector2d> profile = file.starts_with("peg_sawtooth") ? sawtooth_profile() : hills_profile();
  const auto energy = [&] {
    const sim::Body& b = w.bodies()[static_cast<std::size_t>(id)];
    return 0.5 * b.mass.mass * b.linear_velocity.squaredNorm() + b.mass.mass * 9.81 * b.pose.p.y() -
           b.force.x() * b.pose.p.x();
  };
  Trace t;
  double lowest = energy();
  const int steps = static_cast<int>(std::llround(seconds / dt));
  for (int i = 0; i < steps; ++i) {
    t.fallbacks += w.step().fallbacks;
    const sim::Body& b = w.bodies()[static_cast<std::size_t>(id)];
    const double e = energy();
    lowest = std::min(lowest, e);
    t.max_gain = std::max(t.max_gain, e - lowest);
    const Vector2d x(b.pose.p.x(), b.pose.p.y());
    t.min_clearance = std::min(t.min_clearance, clearance(profile, x));
    t.max_x = std::max(t.max_x, x.x());
    t.end = x;
    t.end_speed = b.linear_velocity.norm();
    ++t.steps;
  }
  t.end_clearance = clearance(profile, t.end);
  return t;
}

void print(const char* what, double dt, const Trace& t) {
  std::printf("  %s dt %g: gain %.3g J, min clearance %.3g m, end (%.3f, %.3f) speed %.3g clearance %.3g, %d fallbacks\n",
              what, dt, t.max_gain, t.min_clearance, t.end.x(), t.end.y(), t.end_speed, t.end_clearance, t.fallbacks);
}

// The paper's step sizes; the sanitizer run leaves out 0.1 ms (tens of
// thousands of steps per scene).
std::vector<double> step_sizes() {
  if (testing::reduced_run()) return {1e-3, 1e-2, 1e-1};
  return {1e-4, 1e-3, 1e-2, 1e-1};
}

// PEG on the sawtooth: frictionless, so energy never rises (inelastic
// landings only take it away); the particle never enters a tooth; it
// passes the first two peaks (x = 0.5, 1.5 m) and is not held anywhere
// above the surface. 3 s: Stewart–Trinkle's failure shows at 0.62 s, the
// PEG run reaches its third valley by 2 s. The same sawtooth as one closed
// triangle mesh (examples/peg_sawtooth_mesh.json: groups from the mesh's
// concave edges instead of convex bodies) gives the same run.
TEST(PegScenes, SawtoothPegFollowsTheTrueSurfaceAtEveryStep) {
  int checked = 0;
  for (const double dt : step_sizes()) {
    for (const sim::SolverKind solver : {sim::SolverKind::lemke, sim::SolverKind::pgs}) {
      const Trace t = simulate("peg_sawtooth.json", sim::Formulation::peg, solver, dt, 3.0);
      const Trace m = simulate("peg_sawtooth_mesh.json", sim::Formulation::peg, solver, dt, 3.0);
      print(solver == sim::SolverKind::lemke ? "PEG Lemke" : "PEG PGS", dt, t);
      print(solver == sim::SolverKind::lemke ? "PEG Lemke, mesh" : "PEG PGS, mesh", dt, m);
      // PGS stops at a velocity residual of 1e-6 m/s: a little slack in
      // energy (≤ 0.05 % of the 55 J) and depth, none with Lemke.
      const bool exact = solver == sim::SolverKind::lemke;
      for (const Trace* r : {&t, &m}) {
        EXPECT_LE(r->max_gain, exact ? 1e-6 : 0.03) << dt;
        EXPECT_GE(r->min_clearance, exact ? -1e-6 : -2.5e-3) << dt;
        EXPECT_GT(r->max_x, 1.6) << dt;
        EXPECT_LT(r->end_clearance, 1e-3) << dt;  // resting or sliding on the surface, not hanging above it
        EXPECT_EQ(r->fallbacks, 0) << dt;
      }
      if (exact) {
        EXPECT_LT((t.end - m.end).norm(), 1e-6) << dt;
      }
      ++checked;
    }
  }
  EXPECT_EQ(checked, 2 * static_cast<int>(step_sizes().size()));
}

// Stewart–Trinkle with the paper's ε = 0.25 m: near a peak the vertical
// face's extended half-space is violated by up to ε, and the ψ/Δt row
// pushes the particle out of it with energy it never had; so with the mesh.
TEST(PegScenes, SawtoothStewartTrinkleGainsEnergyAtEveryStep) {
  int checked = 0;
  for (const char* file : {"peg_sawtooth.json", "peg_sawtooth_mesh.json"})
    for (const double dt : step_sizes()) {
      const Trace t = simulate(file, sim::Formulation::stewart_trinkle, sim::SolverKind::lemke, dt, 3.0);
      print(file, dt, t);
      EXPECT_GT(t.max_gain, 100.0) << file << " " << dt;
      ++checked;
    }
  EXPECT_EQ(checked, 2 * static_cast<int>(step_sizes().size()));
}

// PEG on the hills with the constant (12, 0) N: the particle lands on the
// second hill, is pushed down its right side into the cusp at x = 0.5 m,
// and stays there touching both hills (the cusp's walls are steeper than
// the 13.8° by which the force tilts gravity, so it is a stable rest).
// 4 s: Stewart–Trinkle is trapped from 0.6 s on.
TEST(PegScenes, HillsPegRestsInTheCuspOnTheTrueSurface) {
  int checked = 0;
  for (const double dt : step_sizes()) {
    for (const sim::SolverKind solver : {sim::SolverKind::lemke, sim::SolverKind::pgs}) {
      const Trace t = simulate("peg_hills.json", sim::Formulation::peg, solver, dt, 4.0);
      print(solver == sim::SolverKind::lemke ? "PEG Lemke" : "PEG PGS", dt, t);
      // PGS: as on the sawtooth, ≤ 0.1 % of the 98 J and a few mm at Δt = 0.1 s.
      const bool exact = solver == sim::SolverKind::lemke;
      EXPECT_LE(t.max_gain, exact ? 1e-6 : 0.1) << dt;
      EXPECT_GE(t.min_clearance, exact ? -1e-6 : -2.5e-3) << dt;
      EXPECT_NEAR(t.end.x(), 0.5, 1e-3) << dt;
      EXPECT_LT(t.end_speed, 1e-3) << dt;
      EXPECT_LT(std::abs(t.end_clearance), 1e-3) << dt;
      EXPECT_EQ(t.fallbacks, 0) << dt;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 2 * static_cast<int>(step_sizes().size()));
}

// Stewart–Trinkle with ε = 0.5 m: the particle gains energy entering an
// extended half-space from the side and ends at rest in mid-air, held at
// the crossing of two hills' extended half-spaces more than 0.1 m above the
// true surface, the paper's Fig. 11.
TEST(PegScenes, HillsStewartTrinkleIsTrappedAboveTheSurface) {
  int checked = 0;
  for (const double dt : step_sizes()) {
    const Trace t = simulate("peg_hills.json", sim::Formulation::stewart_trinkle, sim::SolverKind::lemke, dt, 4.0);
    print("Stewart-Trinkle", dt, t);
    EXPECT_GT(t.max_gain, 1.0) << dt;
    EXPECT_LT(t.end_speed, 1e-3) << dt;
    EXPECT_GT(t.end_clearance, 0.1) << dt;
    ++checked;
  }
  EXPECT_EQ(checked, static_cast<int>(step_sizes().size()));
}

// Beyond the paper, in 3-D: a 0.1 m cube (1 kg) sliding at 1 m/s with μ 0.5
// over a floor of twenty 2 cm box tiles (a union of convex pieces, seams
// across its path; examples/peg_tiled_floor.json). Coulomb: it stops after
// v²/(2 μ g) = 101.94 mm (semi-implicit Euler, Δt = 1 ms, takes half a step
// of travel less: 101.44 mm) without tilting. PEG's max over each tile's
// facets lets the corners pass the seams; Stewart–Trinkle, with each
// tile's own contacts, catches on them (6.9 mm with Lemke) and tips.
// 0.5 s: the Coulomb stop is at 0.204 s.
TEST(PegScenes, BoxSlidesOverATiledFloorAsCoulombSays) {
  int checked = 0;
  for (const sim::Formulation f : {sim::Formulation::peg, sim::Formulation::stewart_trinkle})
    for (const sim::SolverKind solver : {sim::SolverKind::lemke, sim::SolverKind::pgs}) {
      apps::Scene s = apps::load_scene(std::string(PROXIMA_EXAMPLES_DIR) + "/peg_tiled_floor.json");
      s.world.options.formulation = f;
      s.world.options.solver = solver;
      const int id = s.world.find("box");
      ASSERT_GE(id, 0);
      double tilt = 0.0;
      // 0.25 s in the sanitizer run: still past the stop.
      for (int i = 0; i < (testing::reduced_run() ? 250 : 500); ++i) {
        s.world.step();
        const Mat3& R = s.world.bodies()[static_cast<std::size_t>(id)].pose.R;
        tilt = std::max(tilt, std::acos(std::clamp(R(2, 2), -1.0, 1.0)));
      }
      const sim::Body& b = s.world.bodies()[static_cast<std::size_t>(id)];
      const double slide_mm = 1e3 * b.pose.p.x(), coulomb_mm = 1e3 * 1.0 / (2 * 0.5 * 9.81);
      std::printf("  %s %s: slid %.3f mm (Coulomb %.3f), tilt %.3g rad, speed %.3g m/s\n", sim::to_string(f),
                  sim::to_string(solver), slide_mm, coulomb_mm, tilt, b.linear_velocity.norm());
      if (f == sim::Formulation::peg) {
        EXPECT_NEAR(slide_mm, coulomb_mm, 1.0);
        EXPECT_LT(tilt, 1e-3);
        EXPECT_LT(b.linear_velocity.norm(), 1e-6);
      } else {
        EXPECT_GT(std::abs(slide_mm - coulomb_mm), 50.0);
        EXPECT_GT(tilt, 0.05);
      }
      ++checked;
    }
  EXPECT_EQ(checked, 4);
}

// A 0.2 m cube, turned 45° about the groove's axis, dropped 1 cm into a
// 90° V-groove that is one closed triangle mesh (examples/peg_v_groove.json).
// The crease is a concave edge, so each flank is a constraint of its own
// (one group with both flanks would let the bottom corners through either).
// Statics: it rests with its lower edge in the crease, centre a/√2 above
// it, and, frictionless, each flank carries m g / √2 along its normal
// (with the scene's μ = 0.5 the split is indeterminate: friction can wedge).
TEST(PegScenes, CubeRestsInAMeshVGroove) {
  int checked = 0;
  for (const sim::SolverKind solver : {sim::SolverKind::lemke, sim::SolverKind::pgs}) {
    apps::Scene s = apps::load_scene(std::string(PROXIMA_EXAMPLES_DIR) + "/peg_v_groove.json");
    s.world.options.solver = solver;
    s.world.friction.default_mu = 0.0;
    const int id = s.world.find("cube");
    ASSERT_GE(id, 0);
    const Mat3 start = s.world.bodies()[static_cast<std::size_t>(id)].pose.R;
    for (int i = 0; i < 1000; ++i) s.world.step();
    const sim::Body& b = s.world.bodies()[static_cast<std::size_t>(id)];
    const double a = 0.2, weight = b.mass.mass * 9.81, h = s.world.options.dt;
    EXPECT_NEAR(b.pose.p.z(), a / std::sqrt(2.0), 1e-5);
    EXPECT_NEAR(b.pose.p.x(), 0.0, 1e-5);
    EXPECT_LT(Eigen::AngleAxisd(b.pose.R * start.transpose()).angle(), 1e-4);
    double left = 0.0, right = 0.0;
    for (const sim::ContactImpulse& c : s.world.last_contacts()) (c.normal.x() > 0 ? right : left) += c.normal_impulse / h;
    std::printf("  %s: centre %.6f m (a/√2 %.6f), flank loads %.4f, %.4f of m g/√2\n", sim::to_string(solver),
                b.pose.p.z(), a / std::sqrt(2.0), left / (weight / std::sqrt(2.0)), right / (weight / std::sqrt(2.0)));
    EXPECT_NEAR(left, weight / std::sqrt(2.0), 1e-3 * weight);
    EXPECT_NEAR(right, weight / std::sqrt(2.0), 1e-3 * weight);
    ++checked;
  }
  EXPECT_EQ(checked, 2);
}

// The same groove with the scene's friction (μ = 0.5) under Lemke: eight
// contacts with their friction directions, four per flank, make the force
// block of the LCP singular, and the pivots met rays or left a residual on
// 524 of 1000 steps with PEG (105 with Stewart–Trinkle), each falling back
// to PGS. Lemke's retry with a 1e-7 compliance (contact_lcp.cpp) solves
// them all; the cube rests in the crease either way.
TEST(PegScenes, LemkeSolvesTheFrictionalVGrooveEveryStep) {
  int checked = 0;
  for (const sim::Formulation formulation : {sim::Formulation::peg, sim::Formulation::stewart_trinkle}) {
    apps::Scene s = apps::load_scene(std::string(PROXIMA_EXAMPLES_DIR) + "/peg_v_groove.json");
    ASSERT_EQ(s.world.options.solver, sim::SolverKind::lemke);
    s.world.options.formulation = formulation;
    const int id = s.world.find("cube");
    ASSERT_GE(id, 0);
    int fallbacks = 0, solved = 0;
    for (int i = 0; i < 1000; ++i) {
      const sim::StepStats& st = s.world.step();
      fallbacks += st.fallbacks;
      solved += st.contacts > 0 && st.lemke_status == sim::LcpStatus::ok;
    }
    const sim::Body& b = s.world.bodies()[static_cast<std::size_t>(id)];
    std::printf("  %s: %d steps solved by Lemke, %d fell back; centre %.6f m\n", sim::to_string(formulation), solved,
                fallbacks, b.pose.p.z());
    EXPECT_EQ(fallbacks, 0);
    EXPECT_GT(solved, 900);
    EXPECT_NEAR(b.pose.p.z(), 0.2 / std::sqrt(2.0), 1e-4);
    ++checked;
  }
  EXPECT_EQ(checked, 2);
}

// A 1 cm sphere thrown down at 20 m/s from 0.5 m above a floor: at
// Δt = 0.1 s it would cross 2 m in its first step. With speculative contacts
// its query distance covers the step, so it lands and stays on the floor
// (a 1 cm thin box or a two-triangle mesh floor) with either formulation;
// without them it ends below the floor at Δt = 0.1 and 0.05 s.
nlohmann::json drop_scene(const std::string& floor, double dt, bool speculative, const std::string& formulation) {
  nlohmann::json floor_body;
  if (floor == "box") {
    floor_body = nlohmann::json::parse(R"({"name": "floor", "static": true,
        "shape": {"shape": "box", "size": [2, 2, 0.01]}, "pose": {"p": [0, 0, -0.005]}})");
  } else {
    floor_body = nlohmann::json::parse(R"({"name": "floor", "static": true, "shape": {"shape": "mesh",
        "vertices": [[-1, -1, 0], [1, -1, 0], [1, 1, 0], [-1, 1, 0]], "triangles": [[0, 1, 2], [0, 2, 3]],
        "margin": 0.0}})");
  }
  nlohmann::json s = {{"dt", dt},
                      {"solver", {{"kind", "lemke"}, {"formulation", formulation}, {"speculative", speculative}}},
                      {"bodies",
                       {floor_body,
                        {{"name", "ball"},
                         {"shape", {{"shape", "sphere"}, {"radius", 0.01}}},
                         {"density", 1000},
                         {"pose", {{"p", {0.1, 0.2, 0.5}}}},
                         {"velocity", {0, 0, -20}}}}}};
  return s;
}

double lowest_centre(const nlohmann::json& scene, double seconds) {
  apps::Scene s = apps::scene_from_json(scene);
  const int id = s.world.find("ball");
  double lowest = std::numeric_limits<double>::infinity();
  const int steps = static_cast<int>(std::llround(seconds / s.world.options.dt));
  for (int i = 0; i < steps; ++i) {
    s.world.step();
    lowest = std::min(lowest, s.world.bodies()[static_cast<std::size_t>(id)].pose.p.z());
  }
  return lowest;
}

TEST(PegScenes, FastSmallSphereNeverPassesThroughAFloor) {
  int checked = 0;
  for (const char* floor : {"box", "mesh"})
    for (const char* formulation : {"stewart_trinkle", "peg"})
      for (const double dt : {0.1, 0.05, 0.01}) {
        // 2 s: long enough for the ball to have fallen 20 m below the floor.
        const double z = lowest_centre(drop_scene(floor, dt, true, formulation), 2.0);
        std::printf("  %s floor, %s, dt %g: lowest centre %.6f m\n", floor, formulation, dt, z);
        // Resting depth is at most the ψ/Δt stabilization's residue.
        EXPECT_GT(z, 0.01 - 1e-3) << floor << " " << formulation << " " << dt;
        ++checked;
      }
  EXPECT_EQ(checked, 12);
  // The test bites: without speculative contacts the coarse steps tunnel.
  for (const char* floor : {"box", "mesh"})
    for (const double dt : {0.1, 0.05}) {
      EXPECT_LT(lowest_centre(drop_scene(floor, dt, false, "stewart_trinkle"), 2.0), -1.0) << floor << " " << dt;
      ++checked;
    }
  EXPECT_EQ(checked, 16);
}

// Scene keys: the formulation, ε, speculative contacts and body forces are
// strict, naming the field.
// A rod at rest spun up by a torque alone would sweep through two thin
// plates within one 0.1 s step, so the speculative query distance must count
// the turn the torque adds over the step, not only the current spin. 1 m
// rod, 0.02 m square, 1 kg (I_zz = m (L² + 0.02²)/12), torque 200 I_zz
// about z: α = 200 rad/s², 2 rad (115°) in the first step. Plates point-
// symmetric about its centre (lower face of one at y = 0.295 over x ∈ [0.2,
// 0.6], the other mirrored), so the contact forces are a couple and the
// centre stays put. A tip's corner (0.5 m out, 0.01 m half thickness) meets a
// plate where 0.5 sin θ + 0.01 cos θ = 0.295, θ ≈ 35.0°, and is held there;
// without the torque's term the first step has no contacts and the rod
// spins through both plates.
TEST(PegScenes, TorqueSpunRodDoesNotPassThroughThinPlates) {
  const double izz = (1.0 + 0.02 * 0.02) / 12.0, contact_angle = 35.0 * M_PI / 180;
  int checked = 0;
  for (const char* solver : {"lemke", "pgs"}) {
    nlohmann::json scene = nlohmann::json::parse(R"({"dt": 0.1, "gravity": [0, 0, 0], "bodies": [
        {"name": "plate", "static": true, "shape": {"shape": "box", "size": [0.4, 0.01, 0.4]}, "pose": {"p": [0.4, 0.3, 0]}},
        {"name": "mirror", "static": true, "shape": {"shape": "box", "size": [0.4, 0.01, 0.4]}, "pose": {"p": [-0.4, -0.3, 0]}},
        {"name": "rod", "shape": {"shape": "box", "size": [1.0, 0.02, 0.02]}, "mass": 1.0, "pose": {"p": [0, 0, 0]}}]})");
    scene["solver"] = {{"kind", solver}};
    scene["bodies"][2]["torque"] = {0.0, 0.0, 200.0 * izz};
    apps::Scene s = apps::scene_from_json(scene);
    const int id = s.world.find("rod");
    ASSERT_GE(id, 0);
    const sim::Body& rod = s.world.bodies()[static_cast<std::size_t>(id)];
    double highest = 0.0, lowest = 0.0, moved = 0.0;
    for (int i = 0; i < 30; ++i) {
      s.world.step();
      const double angle = std::atan2(rod.pose.R(1, 0), rod.pose.R(0, 0));
      highest = std::max(highest, angle);
      lowest = std::min(lowest, angle);
      moved = std::max(moved, rod.pose.p.norm());
    }
    const double end = std::atan2(rod.pose.R(1, 0), rod.pose.R(0, 0));
    std::printf("  %s: angle from %.2f to %.2f deg, end %.2f deg, centre moved %.3g m\n", solver, lowest * 180 / M_PI,
                highest * 180 / M_PI, end * 180 / M_PI, moved);
    EXPECT_GE(lowest, 0.0) << solver;                            // never wrapped round
    // Never into a plate: PGS's compliance on a self-equilibrated load (the
    // couple) lets the tips sink 5.6 mm (0.64°) under its 20 N.
    const bool exact = std::string(solver) == "lemke";
    EXPECT_LT(highest, contact_angle + (exact ? 1e-3 : 1.0 * M_PI / 180)) << solver;
    EXPECT_GT(end, contact_angle - 2.0 * M_PI / 180) << solver;  // pressed against them, not stopped short
    EXPECT_LT(moved, 1e-3) << solver;
    ++checked;
  }
  EXPECT_EQ(checked, 2);
}

TEST(PegScenes, FormulationAndForceKeysAreStrict) {
  const auto error = [](const std::string& text) -> std::string {
    try {
      (void)apps::scene_from_json(nlohmann::json::parse(text));
    } catch (const Error& e) {
      return e.what();
    }
    return "";
  };
  const std::string ball = R"({"name": "ball", "shape": {"shape": "sphere", "radius": 0.1}, "density": 1000)";
  const auto with = [&](const std::string& solver, const std::string& extra) {
    return R"({"solver": )" + solver + R"(, "bodies": [)" + ball + extra + "}]}";
  };
  int checked = 0;
  const auto expect = [&](const std::string& text, const std::string& part) {
    const std::string e = error(text);
    EXPECT_NE(e.find(part), std::string::npos) << "got \"" << e << "\" for " << text;
    ++checked;
  };
  expect(with(R"({"formulation": "pegg"})", ""), "solver.formulation: unknown formulation \"pegg\"");
  expect(with(R"({"formulation": 1})", ""), "solver.formulation");
  expect(with(R"({"epsilon": -0.1})", ""), "solver.epsilon");
  expect(with(R"({"epsilon": "big"})", ""), "solver.epsilon");
  expect(with(R"({"speculative": "yes"})", ""), "solver.speculative");
  expect(with(R"({"epsilon_": 0.1})", ""), "solver.epsilon_");
  expect(with("{}", R"(, "force": [1, 2])"), "bodies[0].force");
  expect(with("{}", R"(, "force": [1e13, 0, 0])"), "bodies[0].force: magnitude");
  expect(with("{}", R"(, "torque": [0, null, 0])"), "bodies[0].torque");
  expect(R"({"bodies": [{"name": "wall", "static": true, "shape": {"shape": "box", "size": [1, 1, 1]},
             "force": [1, 0, 0]}]})",
         "bodies[0].force: a static body does not move");
  EXPECT_EQ(checked, 10);
  // And the good ones are read.
  apps::Scene s = apps::scene_from_json(nlohmann::json::parse(
      with(R"({"formulation": "peg", "epsilon": 0.25, "speculative": false})", R"(, "force": [12, 0, 0], "torque": [0, 0, 1])")));
  EXPECT_EQ(s.world.options.formulation, sim::Formulation::peg);
  EXPECT_EQ(s.world.options.epsilon, 0.25);
  EXPECT_FALSE(s.world.options.speculative);
  EXPECT_EQ(s.world.bodies()[0].force, Vec3(12, 0, 0));
  EXPECT_EQ(s.world.bodies()[0].torque, Vec3(0, 0, 1));
}

// A constant force and torque on a free body in zero gravity: x = ½ (F/m) t²
// and ω = I⁻¹ τ t, in closed form for a sphere (I = 2/5 m r²).
TEST(PegScenes, ConstantForceAndTorqueAccelerateAFreeBody) {
  apps::Scene s = apps::scene_from_json(nlohmann::json::parse(R"({"dt": 0.001, "gravity": [0, 0, 0],
      "bodies": [{"name": "ball", "shape": {"shape": "sphere", "radius": 0.5}, "mass": 2,
                  "force": [4, 0, -2], "torque": [0, 0.1, 0]}]})"));
  for (int i = 0; i < 1000; ++i) s.world.step();
  const sim::Body& b = s.world.bodies()[0];
  const double t = 1.0, inertia = 0.4 * 2 * 0.25;
  // Semi-implicit Euler: x_n = a h² n(n+1)/2 = ½ a t² (1 + h/t).
  EXPECT_NEAR(b.pose.p.x(), 0.5 * 2.0 * t * t * 1.001, 1e-9);
  EXPECT_NEAR(b.pose.p.z(), -0.5 * 1.0 * t * t * 1.001, 1e-9);
  EXPECT_NEAR(b.linear_velocity.x(), 2.0 * t, 1e-9);
  EXPECT_NEAR(b.angular_velocity.y(), 0.1 / inertia * t, 1e-9);
}

}  // namespace
}  // namespace proxima
