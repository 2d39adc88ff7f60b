// SPDX-License-Identifier: BSD-3-Clause
// A robot under the ε facet rows and Polyhedral Exact Geometry
// (robot_world.hpp, Formulations), against closed forms: a box link on a
// vertical slider (as a box, as the hull of a cube mesh, as the raw mesh)
// resting flat on a block carries its weight, and so does a free box
// under it with its own; a plate arm resting flat on
// a block under its tip carries m g l_c / len at its two tip corners (the
// only vertex–facet rows: a manifold's face patch would leave the split
// undetermined); a box link on a floating base lands as the free box
// does; a link folding onto another moving link rests on its two
// corners with no moment about its hinge; a sphere link on two prismatic joints, the paper's
// particle, on the sawtooth and in the cusp between two hills (a concave
// corner of two convex pieces) follows the true surface (written in
// closed form) without gaining energy under PEG, and gains energy or is
// trapped above the surface with the ε rows, as the paper says; the same
// particle as a free body of a World runs the same trajectory.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <proxima/core/error.hpp>
#include <proxima/robot/collision_matrix.hpp>
#include <proxima/robot/robot_world.hpp>
#include <proxima/robot/urdf.hpp>

#include "../support/peg_profiles.hpp"
#include "../support/test_shapes.hpp"
#include "robot_test_support.hpp"

namespace proxima::robot {
namespace {

using Eigen::Vector2d;
using Eigen::VectorXd;
using robot_test::exact;

constexpr double kG = 9.81;

const char* name(sim::SolverKind s) { return sim::to_string(s); }

// How contacts become rows in one run: PEG, the ε rows, or manifolds.
struct Rows {
  const char* label;
  sim::Formulation formulation;
  double epsilon;
};
constexpr Rows kPeg{"peg", sim::Formulation::peg, 0.0};
constexpr Rows kEpsilon{"epsilon", sim::Formulation::stewart_trinkle, 0.02};
constexpr Rows kManifold{"manifold", sim::Formulation::stewart_trinkle, 0.0};

void use(sim::World& w, const Rows& r, sim::SolverKind solver) {
  w.options.formulation = r.formulation;
  w.options.epsilon = r.epsilon;
  w.options.solver = solver;
}

std::string inertial(double m, double i) {
  return "<inertial><mass value=\"" + exact(m) + "\"/><inertia ixx=\"" + exact(i) + "\" iyy=\"" + exact(i) +
         "\" izz=\"" + exact(i) + "\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial>";
}

// A closed 0.2 × 0.2 × 0.1 m box mesh centred at the origin, outward
// triangles (corner c at ±half by its bits x, y, z).
void write_box_obj(const std::string& path) {
  std::ofstream f(path);
  for (int c = 0; c < 8; ++c)
    f << "v " << ((c & 1) ? 0.1 : -0.1) << " " << ((c & 2) ? 0.1 : -0.1) << " " << ((c & 4) ? 0.05 : -0.05) << "\n";
  const int tris[12][3] = {{0, 2, 3}, {0, 3, 1}, {4, 5, 7}, {4, 7, 6}, {0, 1, 5}, {0, 5, 4},
                           {2, 6, 7}, {2, 7, 3}, {0, 4, 6}, {0, 6, 2}, {1, 3, 7}, {1, 7, 5}};
  for (const auto& t : tris) f << "f " << t[0] + 1 << " " << t[1] + 1 << " " << t[2] + 1 << "\n";
}

class RobotWorldPeg : public ::testing::TestWithParam<sim::SolverKind> {};

TEST_P(RobotWorldPeg, BoxLinkOnASliderRestsFlatOnABlockCarryingItsWeight) {
  // A 3 kg link, 0.2 × 0.2 × 0.1 m, on a vertical prismatic joint, dropped
  // 1 cm onto a static 0.4 m block whose top is at the link's bottom for
  // q = 0. At rest: q = 0, and the four bottom corners (vertex–facet rows
  // against the block's top) carry m g between them, the joint having no
  // other support. The link as a box, as the hull of a box mesh and as the
  // raw mesh; PEG, the ε rows and manifolds alike.
  const double m = 3.0;
  robot_test::TempDir dir;
  write_box_obj((dir.path() / "box.obj").string());
  const auto urdf = [&](const std::string& geometry) {
    return "<robot name=\"slider\"><link name=\"base\"/><link name=\"block\">" + inertial(m, 0.02) +
           "<collision><geometry>" + geometry + "</geometry></collision></link>"
           "<joint name=\"lift\" type=\"prismatic\"><parent link=\"base\"/><child link=\"block\"/>"
           "<axis xyz=\"0 0 1\"/><limit lower=\"-1\" upper=\"1\" effort=\"100\" velocity=\"10\"/></joint></robot>";
  };
  struct Link {
    const char* label;
    std::string geometry;
    MeshMode mode;
  };
  const Link links[] = {{"box", "<box size=\"0.2 0.2 0.1\"/>", MeshMode::convex_hull},
                        {"hull", "<mesh filename=\"box.obj\"/>", MeshMode::convex_hull},
                        {"mesh", "<mesh filename=\"box.obj\"/>", MeshMode::triangle_mesh}};
  int checked = 0;
  for (const Link& link : links)
    for (const Rows& rows : {kPeg, kEpsilon, kManifold}) {
      SCOPED_TRACE(std::string(link.label) + ", " + rows.label + ", " + name(GetParam()));
      const RobotGeometry geometry(parse_urdf(urdf(link.geometry), dir.path()), robot_test::options(link.mode));
      sim::World w;
      use(w, rows, GetParam());
      w.add(sim::make_body("pedestal", Box(0.4, 0.4, 0.2), 0.0, Transform::from_translation(Vec3(0, 0, -0.15)), true));
      RobotWorld rw(geometry, Transform::identity(), {VectorXd::Constant(1, 0.01), VectorXd::Zero(1)}, std::move(w));
      double deepest = -std::numeric_limits<double>::infinity();
      for (int i = 0; i < 300; ++i) {
        rw.step();
        for (const RobotContact& c : rw.last_contacts()) deepest = std::max(deepest, c.depth);
      }
      EXPECT_EQ(rw.last_stats().status, sim::LcpStatus::ok);
      EXPECT_EQ(rw.last_stats().fallbacks, 0);
      EXPECT_EQ(rw.last_stats().aux, 0);  // a corner mid-face sees one facet
      EXPECT_NEAR(rw.robot().state().q[0], 0.0, 1e-7);
      EXPECT_NEAR(rw.robot().state().qd[0], 0.0, 1e-9);
      EXPECT_LE(deepest, 1e-9);
      double normal = 0.0;
      for (const RobotContact& c : rw.last_contacts()) {
        EXPECT_EQ(c.link, 1);
        EXPECT_EQ(c.body_b, 0);
        EXPECT_NEAR(c.normal.z(), 1.0, 1e-12);
        normal += c.normal_impulse / rw.world().options.dt;
      }
      if (rows.formulation == sim::Formulation::peg || rows.epsilon > 0.0) {
        ASSERT_EQ(rw.last_contacts().size(), 4u);
        for (const RobotContact& c : rw.last_contacts())
          EXPECT_NEAR(std::abs(c.point.x()) + std::abs(c.point.y()), 0.2, 1e-9);  // a corner
      }
      EXPECT_NEAR(normal, m * kG, 1e-6 * m * kG);
      ++checked;
    }
  EXPECT_EQ(checked, 9);
}

TEST_P(RobotWorldPeg, BoxLinkOnABoxOnABlockLoadsEachPairWithTheWeightAbove) {
  // The slider's 3 kg box link rests on a free 9 kg box (0.3 × 0.3 × 0.1 m)
  // which rests on the static block: the link–box pair carries the link's
  // weight, the box–block pair both weights. Under PEG the link–box pair
  // (two moving polyhedra) keeps its manifold and the box–block pair takes
  // the box's corners as vertex–facet rows; with the ε rows both pairs take
  // corners; with manifolds neither.
  const double m = 3.0;
  const std::string urdf =
      "<robot name=\"slider\"><link name=\"base\"/><link name=\"block\">" + inertial(m, 0.02) +
      "<collision><geometry><box size=\"0.2 0.2 0.1\"/></geometry></collision></link>"
      "<joint name=\"lift\" type=\"prismatic\"><parent link=\"base\"/><child link=\"block\"/>"
      "<axis xyz=\"0 0 1\"/><limit lower=\"-1\" upper=\"1\" effort=\"100\" velocity=\"10\"/></joint></robot>";
  const RobotGeometry geometry(parse_urdf(urdf, "."));
  int checked = 0;
  for (const Rows& rows : {kPeg, kEpsilon, kManifold}) {
    SCOPED_TRACE(std::string(rows.label) + ", " + name(GetParam()));
    sim::World w;
    use(w, rows, GetParam());
    w.add(sim::make_body("pedestal", Box(0.4, 0.4, 0.2), 0.0, Transform::from_translation(Vec3(0, 0, -0.25)), true));
    const int box = w.add(sim::make_body("box", Box(0.3, 0.3, 0.1), 1000.0, Transform::from_translation(Vec3(0, 0, -0.1))));
    const double m_box = w.bodies()[static_cast<std::size_t>(box)].mass.mass;
    ASSERT_NEAR(m_box, 9.0, 1e-12);
    RobotWorld rw(geometry, Transform::identity(), {VectorXd::Constant(1, 0.005), VectorXd::Zero(1)}, std::move(w));
    for (int i = 0; i < 300; ++i) rw.step();
    EXPECT_EQ(rw.last_stats().status, sim::LcpStatus::ok);
    EXPECT_EQ(rw.last_stats().fallbacks, 0);
    EXPECT_NEAR(rw.robot().state().q[0], 0.0, 1e-7);
    EXPECT_NEAR(rw.world().bodies()[static_cast<std::size_t>(box)].pose.p.z(), -0.1, 1e-7);
    double on_box = 0.0, on_block = 0.0;
    for (const RobotContact& c : rw.last_contacts()) {
      const double f = c.normal_impulse / rw.world().options.dt * c.normal.z();
      if (c.link == 1) on_box += f;            // link (A) on the box (B)
      else if (c.body_b == 0) on_block += f;   // the box (A) on the pedestal (B)
      else if (c.body_a == 0) on_block -= f;   // the pedestal (A) under the box (B)
    }
    EXPECT_NEAR(on_box, m * kG, 1e-6 * m * kG);
    EXPECT_NEAR(on_block, (m + m_box) * kG, 1e-6 * (m + m_box) * kG);
    ++checked;
  }
  EXPECT_EQ(checked, 3);
}

TEST_P(RobotWorldPeg, FloatingBoxLinkLandsAsTheFreeBoxDoes) {
  // A robot of one 3 kg box link on a floating base is a free body: dropped
  // 1 cm flat onto the static block under PEG, its four bottom corners
  // take the block's top as vertex–facet rows (with the base's Jacobian
  // columns), it rests where its bottom meets the top carrying m g, and
  // (Lemke) its height follows the free box of a World step for step.
  const double m = 3.0;
  const std::string urdf = "<robot name=\"brick\"><link name=\"brick\">" + inertial(m, 0.02) +
                           "<collision><geometry><box size=\"0.2 0.2 0.1\"/></geometry></collision></link></robot>";
  const RobotGeometry geometry(parse_urdf(urdf, "."));
  const auto world = [&] {
    sim::World w;
    use(w, kPeg, GetParam());
    w.options.speculative = false;  // the robot has no speculative rows
    w.add(sim::make_body("pedestal", Box(0.4, 0.4, 0.2), 0.0, Transform::from_translation(Vec3(0, 0, -0.15)), true));
    return w;
  };
  const Transform start = Transform::from_translation(Vec3(0, 0, 0.01));
  RobotWorld rw(geometry, start, {VectorXd::Zero(0), VectorXd::Zero(6)}, world(), BaseKind::floating);
  sim::World free = world();
  sim::Body box = sim::make_body("box", Box(0.2, 0.2, 0.1), 1.0, start);
  box.mass.mass = m;
  box.mass.inertia = Mat3::Identity() * 0.02;
  const int id = free.add(std::move(box));
  double apart = 0.0;
  for (int i = 0; i < 300; ++i) {
    rw.step();
    free.step();
    apart = std::max(apart, std::abs(rw.robot().state().base.p.z() - free.bodies()[static_cast<std::size_t>(id)].pose.p.z()));
  }
  EXPECT_EQ(rw.last_stats().status, sim::LcpStatus::ok);
  EXPECT_EQ(rw.last_stats().fallbacks, 0);
  EXPECT_NEAR(rw.robot().state().base.p.z(), 0.0, 1e-7);
  EXPECT_LT(rw.robot().state().qd.norm(), 1e-9);
  ASSERT_EQ(rw.last_contacts().size(), 4u);
  double normal = 0.0;
  for (const RobotContact& c : rw.last_contacts()) {
    EXPECT_NEAR(std::abs(c.point.x()) + std::abs(c.point.y()), 0.2, 1e-9);  // a corner
    normal += c.normal_impulse / rw.world().options.dt;
  }
  EXPECT_NEAR(normal, m * kG, 1e-6 * m * kG);
  if (GetParam() == sim::SolverKind::lemke) {
    EXPECT_LT(apart, 1e-9);
  }
}

TEST_P(RobotWorldPeg, PlateArmRestingFlatOnABlockCarriesTheTorqueBalanceAtItsTip) {
  // A uniform plate, len × w × t on a revolute joint about +y, rests level
  // (q = 0) on a static block whose top is at −t/2 for x ∈ [0.8, 1.2] and
  // |y| ≤ 0.2. Under PEG its rows are the plate's two bottom tip corners
  // against the block's top (the block's corners are 0.15 m aside of the
  // plate), so torque balance about the pivot gives the force exactly:
  // N len = m g l_c. Frictionless.
  const double m = 2.0, len = 1.0, w = 0.1, t = 0.04;
  std::string urdf = "<robot name=\"arm\"><link name=\"base\"/><link name=\"plate\">";
  urdf += "<inertial><origin xyz=\"" + exact(0.5 * len) + " 0 0\"/><mass value=\"" + exact(m) + "\"/><inertia ixx=\"" +
          exact(m * (w * w + t * t) / 12.0) + "\" iyy=\"" + exact(m * (len * len + t * t) / 12.0) + "\" izz=\"" +
          exact(m * (len * len + w * w) / 12.0) + "\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial>";
  urdf += "<collision><origin xyz=\"" + exact(0.5 * len) + " 0 0\"/><geometry><box size=\"" + exact(len) + " " +
          exact(w) + " " + exact(t) + "\"/></geometry></collision></link>"
          "<joint name=\"pivot\" type=\"continuous\"><parent link=\"base\"/><child link=\"plate\"/>"
          "<axis xyz=\"0 1 0\"/></joint></robot>";
  const RobotGeometry geometry(parse_urdf(urdf, "."));
  sim::World world;
  use(world, kPeg, GetParam());
  world.friction.default_mu = 0.0;
  world.add(sim::make_body("block", Box(0.4, 0.4, 0.2), 0.0, Transform::from_translation(Vec3(1.0, 0, -0.1 - 0.5 * t)),
                           true));
  // Tip 1 cm up (positive q turns the plate's x axis down).
  RobotWorld rw(geometry, Transform::identity(), {VectorXd::Constant(1, -0.01), VectorXd::Zero(1)}, std::move(world));
  for (int i = 0; i < 400; ++i) rw.step();
  EXPECT_EQ(rw.last_stats().status, sim::LcpStatus::ok);
  EXPECT_EQ(rw.last_stats().fallbacks, 0);
  EXPECT_NEAR(rw.robot().state().q[0], 0.0, 1e-7);
  EXPECT_NEAR(rw.robot().state().qd[0], 0.0, 1e-9);
  ASSERT_EQ(rw.last_contacts().size(), 2u);
  double normal = 0.0;
  for (const RobotContact& c : rw.last_contacts()) {
    EXPECT_NEAR(c.point.x(), len, 1e-6);
    EXPECT_NEAR(std::abs(c.point.y()), 0.5 * w, 1e-9);
    normal += c.normal_impulse / rw.world().options.dt;
  }
  const double expected = m * kG * 0.5 * len / len;
  EXPECT_NEAR(normal, expected, 1e-6 * expected);
}

TEST_P(RobotWorldPeg, FoldingLinkRestsOnAnotherMovingLinkOnItsCornersWithTheEpsilonRows) {
  // Self-collision under the ε rows: link1 on a PD-held pivot, a post at
  // its tip and link3 hinged on the post, pointing back over link1, falls
  // onto link1 (robot_world_test.cpp's folding link). Its two free-end
  // bottom corners take link1's top face as rows of their own. Statics are
  // the ground truth: the contact forces on link3 and its weight have no
  // moment about its hinge, and it does not sink.
  // link3 is narrower than link1 (0.06 against 0.1 m): its corners lie
  // 2 cm inside link1's top face, farther than ε = 1 cm from its sides.
  // (As wide as link1, each corner would sit on the planes of link1's side
  // faces too, whose rows ε > 0 imposes as well.)
  const double m1 = 2.0, m3 = 0.5, l1 = 0.6, l3 = 0.4, t = 0.04, post = 0.12;
  const std::string urdf = robot_test::folding_urdf(m1, l1, 0.1, m3, l3, 0.06, t, post);
  const RobotGeometry geometry(parse_urdf(urdf, "."));
  const RobotModel& model = geometry.model();
  sim::World world;
  use(world, Rows{"epsilon", sim::Formulation::stewart_trinkle, 0.01}, GetParam());
  world.friction.default_mu = 0.5;
  RobotWorld rw(geometry, Transform::identity(), {VectorXd::Zero(2), VectorXd::Zero(2)}, std::move(world));
  rw.set_self_collision(AllowedCollisionMatrix::adjacent(model));
  ASSERT_EQ(rw.self_pairs().size(), 1u);
  rw.robot().set_pd(Eigen::Vector2d(5000.0, 0.0), Eigen::Vector2d(100.0, 0.0), VectorXd::Zero(2), VectorXd::Zero(2));
  double deepest = -std::numeric_limits<double>::infinity();
  for (int i = 0; i < 2000; ++i) {
    rw.step();
    for (const RobotContact& c : rw.last_contacts()) deepest = std::max(deepest, c.depth);
  }
  // PGS may end a step at its sweep cap (the PD-held chain under a
  // frictional pair converges slowly); the statics below bound its error.
  if (GetParam() == sim::SolverKind::lemke) {
    EXPECT_EQ(rw.last_stats().status, sim::LcpStatus::ok);
  }
  EXPECT_LT(rw.robot().state().qd.cwiseAbs().maxCoeff(), 1e-6);
  EXPECT_LE(deepest, 1e-6);
  EXPECT_GT(std::abs(rw.robot().state().q[1]), 0.15);  // turned onto link1
  const int link3 = model.link_index("link3");
  const Transform& pose3 = rw.link_poses()[static_cast<std::size_t>(link3)];
  const Vec3 hinge = pose3.p, axis = pose3.R * Vec3::UnitY();
  const double h = rw.world().options.dt;
  double moment = (pose3.apply(Vec3(-0.5 * l3, 0.0, 0.0)) - hinge).cross(Vec3(0.0, 0.0, -m3 * kG)).dot(axis);
  const double weight_moment = std::abs(moment);
  ASSERT_EQ(rw.last_contacts().size(), 2u);
  for (const RobotContact& c : rw.last_contacts()) {
    EXPECT_EQ(c.link, model.link_index("link1"));
    EXPECT_EQ(c.link_b, link3);
    // link3's free-end bottom corners: l3 from the hinge along the link, t/2 below it, w/2 aside.
    const Vec3 local = pose3.inverse().apply(c.point);
    EXPECT_NEAR(local.x(), -l3, 1e-6);
    EXPECT_NEAR(local.z(), -0.5 * t, 1e-6);
    EXPECT_NEAR(std::abs(local.y()), 0.03, 1e-9);
    const Vec3 force = -(c.normal * c.normal_impulse + c.friction_impulse) / h;  // on B, link3
    moment += (c.point - hinge).cross(force).dot(axis);
  }
  EXPECT_NEAR(moment, 0.0, 1e-6 * weight_moment);
}

// The paper's particle (examples/peg_sawtooth.json, peg_hills.json: a 5 kg
// sphere of radius 0.02 m in the x–y plane, gravity −y, frictionless,
// ψ/Δt stabilization 1) as a robot: a massless carriage on a prismatic
// joint along x carries the sphere's link on one along y, so the mass
// matrix is m I and q is the sphere's centre, exactly a free particle
// whose rows see no rotation (a sphere's normals pass through its centre).
// The obstacles are the scenes' static convex pieces, built here.
struct Particle {
  double m = 5.0, radius = 0.02;
  RobotGeometry geometry() const {
    const std::string limit = "<limit lower=\"-100\" upper=\"100\" effort=\"1000\" velocity=\"1000\"/>";
    const std::string urdf =
        "<robot name=\"particle\"><link name=\"base\"/><link name=\"carriage\"/><link name=\"ball\">" +
        inertial(m, 1e-3) + "<collision><geometry><sphere radius=\"" + exact(radius) +
        "\"/></geometry></collision></link>"
        "<joint name=\"x\" type=\"prismatic\"><parent link=\"base\"/><child link=\"carriage\"/><axis xyz=\"1 0 0\"/>" +
        limit + "</joint><joint name=\"y\" type=\"prismatic\"><parent link=\"carriage\"/><child link=\"ball\"/>"
        "<axis xyz=\"0 1 0\"/>" + limit + "</joint></robot>";
    return RobotGeometry(parse_urdf(urdf, "."));
  }
};

// Prisms 2 m deep (z ∈ [−1, 1]) over the x–y polygons of the scenes.
Shape prism(const std::vector<Vector2d>& polygon) {
  std::vector<Vec3> points;
  for (const Vector2d& p : polygon)
    for (const double z : {-1.0, 1.0}) points.emplace_back(p.x(), p.y(), z);
  return ConvexPolytope(points);
}

std::vector<Shape> sawtooth_teeth() {
  std::vector<Shape> teeth;
  for (int k = 0; k < 8; ++k)
    teeth.push_back(prism({{-0.5 + k, 0.0}, {0.5 + k, 0.1}, {0.5 + k, -0.5}, {-0.5 + k, -0.5}}));
  return teeth;
}

std::vector<Shape> hills() {
  const std::vector<Vector2d> profile = testing::hills_profile();
  std::vector<Shape> out;
  // Each hill's arc over a base reaching down to y = −0.5.
  for (std::size_t j = 0; j < 8; ++j) {
    std::vector<Vector2d> hill(profile.begin() + static_cast<long>(11 * j), profile.begin() + static_cast<long>(11 * j + 11));
    hill.emplace_back(hill.back().x(), -0.5);
    hill.emplace_back(hill.front().x(), -0.5);
    out.push_back(prism(hill));
  }
  return out;
}

struct Scenario {
  std::vector<Shape> obstacles;
  std::vector<Vector2d> profile;
  Vector2d x0, v0;
  double force = 0.0;  // N along +x
  double dt = 1e-3, seconds = 3.0, epsilon = 0.25;
};

Scenario sawtooth() {
  Scenario s;
  s.obstacles = sawtooth_teeth();
  s.profile = testing::sawtooth_profile();
  s.x0 = {0.0, 0.75};
  s.v0 = {2.0, 1.8};
  return s;
}

Scenario cusp() {
  Scenario s;
  s.obstacles = hills();
  s.profile = testing::hills_profile();
  s.x0 = {0.0, 2.0};
  s.v0 = {0.0, 0.0};
  s.force = 12.0;
  s.dt = 1e-2;
  s.seconds = 4.0;
  s.epsilon = 0.5;
  return s;
}

sim::World obstacle_world(const Scenario& s, sim::Formulation f, sim::SolverKind solver) {
  sim::World w;
  w.gravity = Vec3(0.0, -kG, 0.0);
  w.friction.default_mu = 0.0;
  w.options.dt = s.dt;
  w.options.formulation = f;
  w.options.epsilon = s.epsilon;
  w.options.solver = solver;
  w.options.stabilization = 1.0;
  // The robot has no speculative rows; the free-body comparison neither.
  w.options.speculative = false;
  for (std::size_t k = 0; k < s.obstacles.size(); ++k)
    w.add(sim::make_body("piece" + std::to_string(k), s.obstacles[k], 0.0, Transform::identity(), true));
  return w;
}

struct Trace {
  double max_gain = 0.0;  // largest rise of ½ m v² + m g y − F x above its running minimum, J
  double min_clearance = std::numeric_limits<double>::infinity();
  double max_x = -std::numeric_limits<double>::infinity();
  Vector2d end = Vector2d::Zero();
  double end_speed = 0.0, end_clearance = 0.0;
  int fallbacks = 0;
  std::vector<Vector2d> path;
};

// Steps the scenario, reading the particle's centre and velocity from
// `state` after each step.
template <class Step, class State>
Trace run(const Scenario& s, double m, double radius, Step step, State state) {
  Trace t;
  const auto energy = [&](const Vector2d& x, const Vector2d& v) { return 0.5 * m * v.squaredNorm() + m * kG * x.y() - s.force * x.x(); };
  double lowest = energy(s.x0, s.v0);
  const int steps = static_cast<int>(std::llround(s.seconds / s.dt));
  for (int i = 0; i < steps; ++i) {
    t.fallbacks += step();
    Vector2d x, v;
    state(x, v);
    const double e = energy(x, v);
    lowest = std::min(lowest, e);
    t.max_gain = std::max(t.max_gain, e - lowest);
    t.min_clearance = std::min(t.min_clearance, testing::profile_clearance(s.profile, x, radius));
    t.max_x = std::max(t.max_x, x.x());
    t.end = x;
    t.end_speed = v.norm();
    t.path.push_back(x);
  }
  t.end_clearance = testing::profile_clearance(s.profile, t.end, radius);
  return t;
}

Trace run_robot(const Scenario& s, sim::Formulation f, sim::SolverKind solver) {
  const Particle p;
  RobotWorld rw(p.geometry(), Transform::identity(), {s.x0, s.v0}, obstacle_world(s, f, solver));
  rw.robot().set_torque(Eigen::Vector2d(s.force, 0.0));
  return run(
      s, p.m, p.radius,
      [&] {
        rw.step();
        return rw.last_stats().fallbacks;
      },
      [&](Vector2d& x, Vector2d& v) {
        x = rw.robot().state().q;
        v = rw.robot().state().qd;
      });
}

Trace run_free_body(const Scenario& s, sim::Formulation f, sim::SolverKind solver) {
  const Particle p;
  sim::World w = obstacle_world(s, f, solver);
  sim::Body b = sim::make_body("particle", Sphere(p.radius), 1.0, Transform::from_translation(Vec3(s.x0.x(), s.x0.y(), 0)));
  b.mass.mass = p.m;
  b.mass.inertia = Mat3::Identity() * 1e-3;
  b.linear_velocity = Vec3(s.v0.x(), s.v0.y(), 0.0);
  b.force = Vec3(s.force, 0.0, 0.0);
  const int id = w.add(std::move(b));
  return run(
      s, p.m, p.radius, [&] { return w.step().fallbacks; },
      [&](Vector2d& x, Vector2d& v) {
        const sim::Body& body = w.bodies()[static_cast<std::size_t>(id)];
        x = body.pose.p.head<2>();
        v = body.linear_velocity.head<2>();
      });
}

void print(const char* what, const Trace& t) {
  std::printf("  %s: gain %.3g J, min clearance %.3g m, max x %.3f, end (%.4f, %.4f) speed %.3g clearance %.3g, %d fallbacks\n",
              what, t.max_gain, t.min_clearance, t.max_x, t.end.x(), t.end.y(), t.end_speed, t.end_clearance,
              t.fallbacks);
}

TEST_P(RobotWorldPeg, ParticleLinkFollowsTheSawtoothWithoutGainingEnergy) {
  // PEG, frictionless: energy never rises (inelastic landings only take it
  // away), the particle never enters a tooth, passes the first two peaks
  // (x = 0.5, 1.5 m) and is not held above the surface; the free body of a
  // World runs the same path (Lemke: the same LCP to rounding). Tolerances
  // as the sim layer's PEG scene test: PGS stops at a residual, Lemke not.
  const bool exact_solver = GetParam() == sim::SolverKind::lemke;
  const Scenario s = sawtooth();
  const Trace robot = run_robot(s, sim::Formulation::peg, GetParam());
  const Trace body = run_free_body(s, sim::Formulation::peg, GetParam());
  print("robot", robot);
  print("free body", body);
  EXPECT_LE(robot.max_gain, exact_solver ? 1e-6 : 0.03);
  EXPECT_GE(robot.min_clearance, exact_solver ? -1e-6 : -2.5e-3);
  EXPECT_GT(robot.max_x, 1.6);
  EXPECT_LT(robot.end_clearance, 1e-3);
  EXPECT_EQ(robot.fallbacks, 0);
  ASSERT_EQ(robot.path.size(), body.path.size());
  double apart = 0.0;
  for (std::size_t i = 0; i < robot.path.size(); ++i) apart = std::max(apart, (robot.path[i] - body.path[i]).norm());
  EXPECT_LE(apart, exact_solver ? 1e-6 : 5e-3);
}

TEST_P(RobotWorldPeg, ParticleLinkRestsInTheCuspBetweenTwoHills) {
  // PEG with the constant (12, 0) N at Δt = 10 ms: the particle lands on
  // the second hill, is pushed into the cusp at x = 0.5 m (a concave
  // corner of two convex pieces: the max of each hill's facets, both
  // groups imposed) and stays there touching both, neither sinking nor
  // gaining energy; the free body does the same.
  const bool exact_solver = GetParam() == sim::SolverKind::lemke;
  const Scenario s = cusp();
  const Trace robot = run_robot(s, sim::Formulation::peg, GetParam());
  const Trace body = run_free_body(s, sim::Formulation::peg, GetParam());
  print("robot", robot);
  print("free body", body);
  EXPECT_LE(robot.max_gain, exact_solver ? 1e-6 : 0.1);
  EXPECT_GE(robot.min_clearance, exact_solver ? -1e-6 : -2.5e-3);
  EXPECT_NEAR(robot.end.x(), 0.5, 1e-3);
  EXPECT_LT(robot.end_speed, 1e-3);
  EXPECT_LT(std::abs(robot.end_clearance), 1e-3);
  EXPECT_EQ(robot.fallbacks, 0);
  EXPECT_LE((robot.end - body.end).norm(), exact_solver ? 1e-6 : 1e-3);
}

INSTANTIATE_TEST_SUITE_P(Solvers, RobotWorldPeg, ::testing::Values(sim::SolverKind::lemke, sim::SolverKind::pgs),
                         [](const auto& info) { return std::string(sim::to_string(info.param)); });

TEST(RobotWorldPegFailure, EpsilonRowsGainEnergyOnTheSawtoothAndTrapAboveTheHills) {
  // The paper's failures of Stewart–Trinkle with the ε broad phase, which
  // PEG removes (Lemke): on the sawtooth near a peak the vertical face's
  // extended half-space is violated by up to ε and its row pushes the
  // particle out with energy it never had (> 100 J); over the hills it
  // gains energy entering an extended half-space from the side and ends at
  // rest in mid-air, held where two hills' extended half-spaces cross more
  // than 0.1 m above the true surface (the paper's Fig. 11). The free body
  // is held at the same point.
  const Trace saw = run_robot(sawtooth(), sim::Formulation::stewart_trinkle, sim::SolverKind::lemke);
  const Trace hill = run_robot(cusp(), sim::Formulation::stewart_trinkle, sim::SolverKind::lemke);
  const Trace hill_body = run_free_body(cusp(), sim::Formulation::stewart_trinkle, sim::SolverKind::lemke);
  print("sawtooth", saw);
  print("hills", hill);
  print("hills, free body", hill_body);
  EXPECT_GT(saw.max_gain, 100.0);
  EXPECT_GT(hill.max_gain, 1.0);
  EXPECT_LT(hill.end_speed, 1e-3);
  EXPECT_GT(hill.end_clearance, 0.1);
  EXPECT_LT((hill.end - hill_body.end).norm(), 1e-6);
}

TEST(RobotWorldPegFailure, RefusesAnEpsilonThatIsNotFiniteAndNonNegative) {
  const Particle p;
  for (const double eps : {-1e-3, std::nan(""), std::numeric_limits<double>::infinity()}) {
    RobotWorld rw(p.geometry(), Transform::identity(), {Eigen::Vector2d(0, 1), Eigen::Vector2d::Zero()},
                  obstacle_world(sawtooth(), sim::Formulation::peg, sim::SolverKind::lemke));
    rw.world().options.epsilon = eps;
    robot_test::expect_error([&] { rw.step(); }, {"options.epsilon", "finite and >= 0"});
    EXPECT_EQ(rw.time(), 0.0);
  }
}

}  // namespace
}  // namespace proxima::robot
