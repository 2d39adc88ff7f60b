// SPDX-License-Identifier: BSD-3-Clause
// Scene files with a robot ("robots"): the scripted target trajectory
// against its linear interpolation, a PD-held plate following it to the
// closed-form steady state, a cube dropped on the plate loading the joint
// with its weight (read back from the trajectory CSV), the PEG formulation
// resting the plate on its tip corners with the torque-balance force, and
// bad robot entries refused by name.
#include <cmath>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <proxima/core/error.hpp>
#include <proxima/robot/robot_world.hpp>

#include "scene.hpp"
#include "../support/scene_error.hpp"
#include "../support/temp_files.hpp"

namespace proxima {
namespace {

using nlohmann::json;

constexpr double kGravity = 9.81;
constexpr double kMass = 2.0, kLength = 1.0;  // the plate; centre of mass at kLength / 2

// A plate on a revolute joint about +y at the origin (positive q turns its
// x axis down), 1 m × 0.3 m × 0.04 m, uniform.
std::string plate_urdf() {
  const double w = 0.3, t = 0.04;
  const double ixx = kMass * (w * w + t * t) / 12.0, iyy = kMass * (kLength * kLength + t * t) / 12.0,
               izz = kMass * (kLength * kLength + w * w) / 12.0;
  std::ostringstream s;
  s.precision(17);
  s << "<robot name=\"arm\"><link name=\"base\"/><link name=\"plate\"><inertial><origin xyz=\"" << kLength / 2
    << " 0 0\"/><mass value=\"" << kMass << "\"/><inertia ixx=\"" << ixx << "\" iyy=\"" << iyy << "\" izz=\"" << izz
    << "\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial><collision><origin xyz=\"" << kLength / 2
    << " 0 0\"/><geometry><box size=\"" << kLength << " " << w << " " << t
    << "\"/></geometry></collision></link><joint name=\"pivot\" type=\"continuous\"><parent link=\"base\"/>"
       "<child link=\"plate\"/><axis xyz=\"0 1 0\"/></joint></robot>";
  return s.str();
}

json robot_scene(const std::string& urdf) {
  json j = json::parse(R"({"dt": 0.001, "time": 1.5, "bodies": [], "robots": [{"kp": 5000, "kd": 100,
    "targets": [{"t": 0, "q": [0]}, {"t": 0.5, "q": [0.3]}]}]})");
  j["robots"][0]["urdf"] = urdf;
  return j;
}

using Row = std::vector<std::pair<std::string, double>>;

// Every row of a CSV as numbers by column name.
std::vector<Row> rows_of(const std::string& csv) {
  std::istringstream in(csv);
  std::string header, line;
  std::getline(in, header);
  std::vector<Row> rows;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    Row out;
    std::istringstream h(header), v(line);
    std::string name, value;
    while (std::getline(h, name, ',') && std::getline(v, value, ',')) {
      char* end = nullptr;
      const double x = std::strtod(value.c_str(), &end);
      out.emplace_back(name, *end == '\0' ? x : std::nan(""));
    }
    rows.push_back(std::move(out));
  }
  return rows;
}

// The last row of a CSV as numbers by column name.
Row last_row(const std::string& csv) {
  std::vector<Row> rows = rows_of(csv);
  return rows.empty() ? Row{} : rows.back();
}

double column(const std::vector<std::pair<std::string, double>>& row, const std::string& name) {
  for (const auto& [n, x] : row)
    if (n == name) return x;
  ADD_FAILURE() << "no column " << name;
  return std::nan("");
}

TEST(SceneRobot, TargetTrajectoryIsPiecewiseLinearAndHeld) {
  const testing::TempDir dir;
  const apps::Scene s = apps::scene_from_json(robot_scene(dir.write("arm.urdf", plate_urdf()).string()));
  ASSERT_EQ(s.robots.size(), 1u);
  Eigen::VectorXd q, qd;
  s.robots[0].target_at(-1.0, q, qd);
  EXPECT_EQ(q[0], 0.0);
  EXPECT_EQ(qd[0], 0.0);
  s.robots[0].target_at(0.2, q, qd);
  EXPECT_NEAR(q[0], 0.3 * 0.2 / 0.5, 1e-15);
  EXPECT_NEAR(qd[0], 0.3 / 0.5, 1e-15);
  s.robots[0].target_at(0.7, q, qd);
  EXPECT_EQ(q[0], 0.3);
  EXPECT_EQ(qd[0], 0.0);
}

TEST(SceneRobot, PdHeldPlateSettlesWhereGainBalancesGravity) {
  // After the ramp the target holds at 0.3 rad. Gravity turns the plate
  // further down (positive q), so at rest the motor's kp (0.3 − q) holds
  // the gravity torque m g l_c cos q: kp (q − 0.3) = m g l_c cos q, a fixed
  // point solved here by bisection.
  const testing::TempDir dir;
  apps::Scene s = apps::scene_from_json(robot_scene(dir.write("arm.urdf", plate_urdf()).string()));
  std::ostringstream csv;
  const apps::SimRunResult r = apps::run_scene(s, 1.5, &csv);
  EXPECT_EQ(r.steps, 1500);
  const auto row = last_row(csv.str());
  const double kp = 5000.0, lc = 0.5 * kLength;
  double lo = 0.3, hi = 0.4;
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi);
    (kp * (mid - 0.3) < kMass * kGravity * lc * std::cos(mid) ? lo : hi) = mid;
  }
  EXPECT_NEAR(column(row, "arm.pivot.q"), lo, 1e-8);
  EXPECT_NEAR(column(row, "arm.pivot.tau"), -kMass * kGravity * lc * std::cos(lo), 1e-6);
  EXPECT_NEAR(column(row, "time"), 1.5, 1e-9);
  EXPECT_EQ(column(row, "contacts"), 0.0);
}

TEST(SceneRobot, CubeOnThePlateLoadsTheJointWithItsWeight) {
  const testing::TempDir dir;
  json j = robot_scene(dir.write("arm.urdf", plate_urdf()).string());
  j["robots"][0]["targets"] = json::parse(R"([{"t": 0, "q": [0]}])");
  j["bodies"] = json::parse(R"([{"name": "cube", "shape": {"shape": "box", "size": [0.1, 0.1, 0.1]},
    "density": 1000, "pose": {"p": [0.6, 0, 0.1]}}])");
  j["friction"] = {{"default", 0.6}};
  apps::Scene s = apps::scene_from_json(j);
  std::ostringstream csv;
  apps::run_scene(s, 1.5, &csv);
  const auto row = last_row(csv.str());
  const double q = column(row, "arm.pivot.q"), x = column(row, "cube.x");
  EXPECT_NEAR(x, 0.6, 1e-3);
  EXPECT_GT(column(row, "contacts"), 0.0);
  const double gravity_torque = kMass * kGravity * 0.5 * kLength * std::cos(q) + 1.0 * kGravity * x;
  // The CSV keeps 10 significant digits.
  EXPECT_NEAR(-column(row, "arm.pivot.tau"), gravity_torque, 1e-6 * gravity_torque);
  // The bodies are handed back to the scene's world, at the run's time.
  EXPECT_NEAR(s.world.bodies()[0].pose.p.x(), x, 1e-9);
  EXPECT_NEAR(s.world.time(), 1.5, 1e-9);
}

TEST(SceneRobot, ShippedExampleEndsWithTheCubesWeightOnTheJoint) {
  // examples/robot_arm_cube.json: the plate raised and lowered along its
  // target trajectory with a cube on it, back at its target 0 from 1.5 s
  // (the PD's transient, ζ ≈ 0.44 at ω ≈ 44 rad/s, has died out by 3 s).
  // At 3 s the motor carries the gravity torque of plate and cube.
  apps::Scene s = apps::load_scene(std::string(PROXIMA_EXAMPLES_DIR) + "/robot_arm_cube.json");
  std::ostringstream csv;
  const apps::SimRunResult r = apps::run_scene(s, s.time, &csv);
  EXPECT_EQ(r.steps, 3000);
  const auto row = last_row(csv.str());
  const double q = column(row, "plate_arm.pivot.q"), x = column(row, "cube.x");
  EXPECT_NEAR(x, 0.6, 1e-2);  // the cube rode the plate up and down
  EXPECT_GT(column(row, "contacts"), 0.0);
  const double gravity_torque = kMass * kGravity * 0.5 * kLength * std::cos(q) + 1.0 * kGravity * x;
  EXPECT_NEAR(-column(row, "plate_arm.pivot.tau"), gravity_torque, 1e-6 * gravity_torque);
  EXPECT_NEAR(q, gravity_torque / 2000.0, 1e-8);
}

TEST(SceneRobot, ShippedUr5PushesTheBoxAlongTheTable) {
  // examples/ur5_push_box.json: the UR5's gripper, its lowest point held 3 cm
  // above the table by its PD targets, sweeps the shoulder from 0.5 to
  // -0.4 rad between 0.5 and 3 s and pushes a 8 cm box lying in its path.
  // No link touches the table; the box stays put until the gripper reaches
  // it, slides along the table top without tipping, lifting or sinking (its
  // centre at half its size above the top), and rests once the arm has
  // stopped. So under PEG (the box's corners on the table as vertex–facet
  // rows; the gripper and the box, both moving, keep their manifold).
  for (const sim::Formulation formulation : {sim::Formulation::stewart_trinkle, sim::Formulation::peg}) {
    SCOPED_TRACE(sim::to_string(formulation));
    apps::Scene s = apps::load_scene(std::string(PROXIMA_EXAMPLES_DIR) + "/ur5_push_box.json");
    s.world.options.formulation = formulation;
    const int table = s.world.find("table"), box = s.world.find("box");
    ASSERT_GE(table, 0);
    ASSERT_GE(box, 0);
    const auto half_height = [&](int b) {
      const Shape* shape = s.world.bodies()[static_cast<std::size_t>(b)].geometry->convex();
      EXPECT_TRUE(shape && shape->type() == ShapeType::box);
      return shape && shape->type() == ShapeType::box ? shape->as<Box>().half_extents().z() : 0.0;
    };
    const double rest = s.world.bodies()[static_cast<std::size_t>(table)].pose.p.z() + half_height(table) +
                        half_height(box);
    std::ostringstream csv;
    double table_load = 0.0;  // the largest normal impulse of a link on the table
    int fallbacks = 0;        // steps whose Lemke run failed and PGS answered
    const apps::SimRunResult r = apps::run_scene(s, s.time, &csv, {}, [&](const robot::RobotWorld& rw, int step) {
      if (step == 0) return;
      fallbacks += rw.last_stats().fallbacks;
      for (const robot::RobotContact& c : rw.last_contacts())
        if (c.link >= 0 && c.body_b == table) table_load = std::max(table_load, c.normal_impulse);
    });
    EXPECT_EQ(r.steps, 4000);
    EXPECT_EQ(table_load, 0.0);
    // Two fingers on a box resting on four corners: degenerate problems that
    // Lemke's ratio test must still solve nearly always (a tie rule relative
    // to the ratio left 186 of 4,000 steps to PGS; 19 are left with the
    // manifolds, 43 with PEG's corner rows).
    EXPECT_LE(fallbacks, formulation == sim::Formulation::peg ? 60 : 40);
    const std::vector<Row> rows = rows_of(csv.str());
    ASSERT_EQ(rows.size(), 4000u);  // one row a step, after it
    const double x0 = column(rows.front(), "box.x"), y0 = column(rows.front(), "box.y");
    double lowest = 1e9, highest = -1e9, moved_early = 0.0;
    for (const Row& row : rows) {
      const double t = column(row, "time"), z = column(row, "box.z");
      lowest = std::min(lowest, z);
      highest = std::max(highest, z);
      if (t < 0.8) moved_early = std::max(moved_early, std::hypot(column(row, "box.x") - x0, column(row, "box.y") - y0));
    }
    EXPECT_LT(moved_early, 1e-6);
    EXPECT_GT(lowest, rest - 1e-3);
    EXPECT_LT(highest, rest + 1e-3);
    const Row& end = rows.back();
    const Row& before = rows[rows.size() - 101];  // 0.1 s earlier, the arm long stopped
    EXPECT_GT(std::hypot(column(end, "box.x") - x0, column(end, "box.y") - y0), 0.15);
    EXPECT_LT(std::hypot(column(end, "box.x") - column(before, "box.x"), column(end, "box.y") - column(before, "box.y")),
              1e-5);
    // Tilting would show in the orientation: the box slides flat.
    const double tilt = std::hypot(column(end, "box.qx"), column(end, "box.qy"));
    EXPECT_LT(tilt, 1e-3);
  }
}

TEST(SceneRobot, PegSceneRestsThePlateOnItsTipCornersWithTheTorqueBalance) {
  // "formulation": "peg" with a robot: the plate, without motor, falls
  // 1 cm onto a static block whose top is at its underside for q = 0 and
  // which reaches past its tip (x ∈ [0.8, 1.2], |y| ≤ 0.5). PEG's rows are
  // the plate's two bottom tip corners on the block's top (the block's
  // corners lie outside the plate), so the frictionless force balances the
  // gravity torque about the pivot: N len = m g l_c. Stewart–Trinkle's
  // manifold is the four corners of the overlap patch. Both solvers.
  const testing::TempDir dir;
  const std::string urdf = dir.write("arm.urdf", plate_urdf()).string();
  for (const char* solver : {"lemke", "pgs"})
    for (const char* formulation : {"peg", "stewart_trinkle"}) {
      SCOPED_TRACE(std::string(solver) + ", " + formulation);
      json j = robot_scene(urdf);
      for (const char* key : {"kp", "kd", "targets"}) j["robots"][0].erase(key);
      j["robots"][0]["q"] = {-0.01};
      j["solver"] = {{"kind", solver}, {"formulation", formulation}};
      j["friction"] = {{"default", 0.0}};
      j["bodies"] = json::parse(R"([{"name": "block", "static": true, "shape": {"shape": "box",
        "size": [0.4, 1.0, 0.2]}, "pose": {"p": [1.0, 0, -0.12]}}])");
      apps::Scene s = apps::scene_from_json(j);
      double q = 1.0, normal = 0.0;
      std::size_t contacts = 0;
      apps::run_scene(s, 0.5, nullptr, {}, [&](const robot::RobotWorld& rw, int) {
        q = rw.robot().state().q[0];
        contacts = rw.last_contacts().size();
        normal = 0.0;
        for (const robot::RobotContact& c : rw.last_contacts()) normal += c.normal_impulse / rw.world().options.dt;
      });
      EXPECT_NEAR(q, 0.0, 1e-7);
      const bool peg = std::string(formulation) == "peg";
      EXPECT_EQ(contacts, peg ? 2u : 4u);
      if (peg) {
        EXPECT_NEAR(normal, kMass * kGravity * 0.5, 1e-6 * kMass * kGravity);
      }
    }
}

// A lone 2 kg box, its centre of mass off its origin, as a robot without
// joints: with "floating_base" it is a free body.
std::string brick_urdf() {
  return "<robot name=\"brick\"><link name=\"brick\"><inertial><origin xyz=\"0.1 0 0.05\"/><mass value=\"2\"/>"
         "<inertia ixx=\"0.01\" iyy=\"0.02\" izz=\"0.025\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial>"
         "<collision><geometry><box size=\"0.3 0.2 0.1\"/></geometry></collision></link></robot>";
}

TEST(SceneRobot, FloatingBaseFallsOnTheDiscreteParabolaInTheCsv) {
  // Semi-implicit Euler from rest at z0 with the base's initial twist
  // (v = (1, 0, 0) in a base turned 90° about z: world velocity (0, 1, 0)):
  // y = t, z = z0 − ½ g t (t + dt) at step k, t = k dt.
  const testing::TempDir dir;
  json j = json::parse(R"({"dt": 0.001, "time": 0.2, "bodies": [], "robots": [{"floating_base": true,
    "base": {"p": [0, 0, 1], "q": [0.7071067811865476, 0, 0, 0.7071067811865476]},
    "base_twist": [1, 0, 0, 0, 0, 0]}]})");
  j["robots"][0]["urdf"] = dir.write("brick.urdf", brick_urdf()).string();
  apps::Scene s = apps::scene_from_json(j);
  ASSERT_EQ(s.robots.front().kind, robot::BaseKind::floating);
  std::ostringstream csv;
  apps::run_scene(s, 0.2, &csv);
  const std::vector<Row> rows = rows_of(csv.str());
  ASSERT_EQ(rows.size(), 200u);  // steps 1 … 200
  for (std::size_t k = 0; k < rows.size(); k += 49) {
    const double t = column(rows[k], "time");
    EXPECT_NEAR(t, 1e-3 * static_cast<double>(k + 1), 1e-12);
    EXPECT_NEAR(column(rows[k], "brick.base.x"), 0.0, 1e-9);
    EXPECT_NEAR(column(rows[k], "brick.base.y"), t, 1e-9);
    EXPECT_NEAR(column(rows[k], "brick.base.z"), 1.0 - 0.5 * kGravity * t * (t + 1e-3), 1e-9);
    EXPECT_NEAR(column(rows[k], "brick.base.qw"), std::sqrt(0.5), 1e-9);
    EXPECT_NEAR(column(rows[k], "brick.base.qz"), std::sqrt(0.5), 1e-9);
  }
}

TEST(SceneRobot, BadFloatingBaseEntriesAreRefusedByName) {
  const testing::TempDir dir;
  const std::string urdf = dir.write("brick.urdf", brick_urdf()).string();
  const auto expect = [&](const std::function<void(json&)>& edit, const std::string& part) {
    json j = json::parse(R"({"dt": 0.001, "time": 0.1, "bodies": [], "robots": [{"floating_base": true}]})");
    j["robots"][0]["urdf"] = urdf;
    edit(j);
    const std::string e = testing::scene_error(j);
    EXPECT_NE(e.find(part), std::string::npos) << "'" << part << "' not in: " << e;
  };
  expect([](json& j) { j["robots"][0]["floating_base"] = "yes"; }, "robots[0].floating_base");
  expect([](json& j) { j["robots"][0]["floating"] = true; }, "robots[0].floating: unknown key");
  expect([](json& j) { j["robots"][0]["base_twist"] = {1, 2, 3}; }, "robots[0].base_twist: has 3 values, expected 6");
  expect([](json& j) { j["robots"][0]["base_twist"] = {0, 0, 0, 0, 0, 1e7}; }, "robots[0].base_twist[5]");
  expect([](json& j) { j["robots"][0]["base_twist"] = {0, 0, "up", 0, 0, 0}; }, "robots[0].base_twist[2]");
  expect([](json& j) {
    j["robots"][0]["floating_base"] = false;
    j["robots"][0]["base_twist"] = {0, 0, 0, 0, 0, 0};
  }, "robots[0].base_twist: only a floating base moves");
  json ok = json::parse(R"({"dt": 0.001, "time": 0.1, "bodies": [], "robots": [{"floating_base": true,
    "base_twist": [0, 0, 0, 0, 0, 0]}]})");
  ok["robots"][0]["urdf"] = urdf;
  EXPECT_EQ(testing::scene_error(ok), "");
}

TEST(SceneRobot, BadRobotEntriesAreRefusedByName) {
  const testing::TempDir dir;
  const std::string urdf = dir.write("arm.urdf", plate_urdf()).string();
  const auto error_with = [&](const std::function<void(json&)>& edit) {
    json j = robot_scene(urdf);
    edit(j);
    return testing::scene_error(j);
  };
  const auto expect = [&](const std::function<void(json&)>& edit, const std::string& part) {
    const std::string e = error_with(edit);
    EXPECT_NE(e.find(part), std::string::npos) << "'" << part << "' not in: " << e;
  };
  expect([](json& j) { j["robots"][0]["kpp"] = 1; }, "robots[0].kpp: unknown key");
  expect([](json& j) { j["robots"][0]["q"] = {0.0, 1.0}; }, "robots[0].q: has 2 values, expected 1");
  expect([](json& j) { j["robots"][0]["qd"] = {"fast"}; }, "robots[0].qd[0]");
  expect([](json& j) { j["robots"][0]["kp"] = -1; }, "robots[0].kp");
  expect([](json& j) { j["robots"][0]["kd"] = {1.0, 2.0}; }, "robots[0].kd: has 2 values, expected 1");
  expect([](json& j) { j["robots"][0].erase("targets"); }, "robots[0]: missing \"targets\"");
  expect([](json& j) { j["robots"][0].erase("kp"); }, "robots[0]: missing \"kp\"");
  expect([](json& j) { j["robots"][0]["targets"][1]["t"] = 0.0; }, "robots[0].targets[1].t: must be later");
  expect([](json& j) { j["robots"][0]["targets"][1]["q"] = {std::nan("")}; }, "robots[0].targets[1].q[0]");
  expect([](json& j) { j["robots"][0]["targets"] = json::array(); }, "robots[0].targets");
  expect([](json& j) { j["robots"][0]["urdf"] = "/nonexistent/arm.urdf"; }, "robots[0].urdf");
  expect([](json& j) { j["robots"][0]["mesh_mode"] = "hull"; }, "robots[0].mesh_mode: unknown mesh mode");
  expect([](json& j) { j["robots"][0]["margin"] = -1; }, "robots[0].margin");
  expect([](json& j) { j["robots"][0]["self_collision"] = 1; },
         "robots[0].self_collision: must be true, false or the path of an SRDF file");
  expect([](json& j) { j["robots"][0]["self_collision"] = "/nonexistent/arm.srdf"; }, "robots[0].self_collision");
  const std::string bad_srdf =
      dir.write("bad.srdf", "<robot name=\"arm\"><disable_collisions link1=\"base\" link2=\"elbow\" reason=\"x\"/>"
                            "</robot>").string();
  expect([&](json& j) { j["robots"][0]["self_collision"] = bad_srdf; }, "elbow");
  EXPECT_EQ(error_with([](json& j) { j["robots"][0]["self_collision"] = true; }), "");
  EXPECT_EQ(error_with([](json& j) { j["robots"][0]["self_collision"] = false; }), "");
  expect([](json& j) { j["robots"][0]["base"] = {{"p", {0, 0}}}; }, "robots[0].base");
  expect([](json& j) { j["robots"][0]["friction"] = {{{"link", "elbow"}, {"mu", 1.0}}}; },
         "robots[0].friction[0].link: no link named \"elbow\"");
  expect([](json& j) { j["robots"][0]["friction"] = {{{"link", "plate"}, {"body", "mug"}, {"mu", 1.0}}}; },
         "robots[0].friction[0].body: no body named \"mug\"");
  expect([](json& j) { j["robots"][0]["friction"] = {{{"link", "plate"}, {"mu", -1.0}}}; }, "robots[0].friction[0].mu");
  expect([](json& j) { j["robots"][0]["friction"] = {{{"link", "plate"}, {"mu", 1.0}, {"m", 1}}}; },
         "robots[0].friction[0].m: unknown key");
  expect([](json& j) { j["robots"][0]["friction"] = {{{"link", "plate"}}}; }, "robots[0].friction[0]");
  expect([](json& j) { j["robots"][0]["friction"] = 0.5; }, "robots[0].friction");
  EXPECT_EQ(error_with([](json& j) { j["robots"][0]["friction"] = {{{"link", "plate"}, {"mu", 1.0}}}; }), "");
  expect([](json& j) { j["robots"].push_back(j["robots"][0]); }, "robots: has 2 robots; a scene holds at most one");
  expect([](json& j) { j["robots"] = json::object(); }, "robots");
  expect([](json& j) { j["metrics"] = json::parse(R"([{"kind": "energy"}])"); },
         "metrics: not supported in a scene with robots");
  EXPECT_EQ(error_with([](json&) {}), "");
}

TEST(SceneRobot, CommandDrawsRobotsButRefusesTheirContactsFile) {
  const testing::TempDir dir;
  const std::string urdf = dir.write("arm.urdf", plate_urdf()).string();
  const std::string scene = dir.write("scene.json", robot_scene(urdf).dump()).string();
  {
    apps::SimCommandOptions o;
    o.progress = false;
    o.contacts_path = (dir.path() / "contacts.jsonl").string();
    std::ostringstream out, err;
    EXPECT_EQ(apps::run_sim_command(scene, o, out, err), 1);
    EXPECT_NE(err.str().find("--contacts: not written for a scene with robots"), std::string::npos) << err.str();
  }
  apps::SimCommandOptions o;
  o.progress = false;
  o.time = 0.01;
  std::ostringstream out, err;
  EXPECT_EQ(apps::run_sim_command(scene, o, out, err), 0) << err.str();
  // --html draws the robot's links as moving bodies (html_replay_test checks
  // their poses).
  o.html_path = (dir.path() / "page.html").string();
  std::ostringstream out2, err2;
  ASSERT_EQ(apps::run_sim_command(scene, o, out2, err2), 0) << err2.str();
  std::ifstream f(*o.html_path);
  const std::string page((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  EXPECT_NE(page.find("\"arm/plate\""), std::string::npos);
}

}  // namespace
}  // namespace proxima
