// SPDX-License-Identifier: BSD-3-Clause
// Free-body conservation laws and a body resting on the floor.
#include <memory>

#include <gtest/gtest.h>

#include <proxima/sim/world.hpp>

#include "../support/test_shapes.hpp"

namespace proxima {
namespace {

sim::World free_world() {
  sim::World w;
  w.gravity = Vec3::Zero();
  return w;
}

TEST(World, FreeBodiesConserveMomentumAndEnergy) {
  sim::World w = free_world();
  // An asymmetric box (three distinct principal moments) spinning about an
  // axis near the intermediate one — the unstable, tumbling case.
  sim::Body b = sim::make_body("brick", Box(0.3, 0.2, 0.1), 1000.0, Transform::identity());
  b.angular_velocity = Vec3(0.1, 8.0, 0.2);
  b.linear_velocity = Vec3(0.5, -0.2, 0.1);
  w.add(b);
  sim::Body c = sim::make_body("rod", Capsule(0.02, 0.4), 500.0, Transform::from_translation(Vec3(3, 0, 0)));
  c.angular_velocity = Vec3(3.0, 0.0, 1.0);
  w.add(c);
  auto momentum = [&] {
    Vec3 p = Vec3::Zero(), L = Vec3::Zero();
    for (const sim::Body& x : w.bodies()) {
      p += x.mass.mass * x.linear_velocity;
      L += x.mass.mass * x.com_position().cross(x.linear_velocity) + x.inertia_world() * x.angular_velocity;
    }
    return std::make_pair(p, L);
  };
  const auto [p0, L0] = momentum();
  const double e0 = w.kinetic_energy();
  const int steps = testing::scaled(5000);
  double max_e = 0.0;
  for (int i = 0; i < steps; ++i) {
    w.step();
    max_e = std::max(max_e, std::abs(w.kinetic_energy() - e0) / e0);
  }
  const auto [p1, L1] = momentum();
  // Linear momentum: exact up to rounding.
  EXPECT_LE((p1 - p0).norm(), 1e-12 * p0.norm());
  // Angular momentum: kept as L (integrate.cpp), so only rounding remains.
  EXPECT_LE((L1 - L0).norm(), 1e-9 * L0.norm()) << L0.transpose() << " → " << L1.transpose();
  // Energy: ½ Lᵀ I⁻¹ L, kept by the implicit-midpoint rotation (the
  // first-order quaternion step drifted 1.6 % here).
  EXPECT_LE(max_e, 1e-9);
  std::printf("  free bodies: max |dE|/E %.3g over %d steps\n", max_e, steps);
  EXPECT_EQ(w.last_stats().contacts, 0);
}

// The rotation alone against a reference: a torque-free asymmetric body
// integrated at Δt and Δt/2 — the orientation error after 1 s must fall
// by ~4× (second order), measured against Δt/64.
TEST(World, RotationIsSecondOrder) {
  auto orientation_after = [](double dt) {
    sim::World w;
    w.gravity = Vec3::Zero();
    w.options.dt = dt;
    sim::Body b = sim::make_body("brick", Box(0.3, 0.2, 0.1), 1000.0, Transform::identity());
    b.angular_velocity = Vec3(0.3, 6.0, 0.5);
    w.add(b);
    const int steps = static_cast<int>(std::llround(1.0 / dt));
    for (int i = 0; i < steps; ++i) w.step();
    return w.bodies()[0].pose.R;
  };
  const Mat3 ref = orientation_after(1e-3 / 64);
  const double e1 = (orientation_after(4e-3) - ref).norm();
  const double e2 = (orientation_after(2e-3) - ref).norm();
  EXPECT_GT(e1 / e2, 3.5) << e1 << " " << e2;
  EXPECT_LT(e1 / e2, 4.5) << e1 << " " << e2;
}

// Steps far longer than the spin's period (a scene file's "dt": 1, a
// fuzz finding): the implicit rotation's fixed point diverged once
// h|ω| > 1 and the state went NaN. Split into sub-steps, each step still
// keeps L and the energy.
TEST(World, LongStepsOfAFastSpinKeepMomentumAndEnergy) {
  for (const double dt : {0.5, 1.0, 5.0}) {
    sim::World w = free_world();
    w.options.dt = dt;
    sim::Body b = sim::make_body("brick", Box(0.3, 0.2, 0.1), 1000.0, Transform::identity());
    b.angular_velocity = Vec3(0.3, 10.0, 0.5);
    w.add(b);
    const sim::Body& x = w.bodies()[0];
    const Vec3 L0 = x.inertia_world() * x.angular_velocity;
    const double e0 = w.kinetic_energy();
    for (int i = 0; i < 20; ++i) {
      w.step();
      ASSERT_TRUE(x.pose.is_valid() && x.angular_velocity.allFinite()) << "dt " << dt << " step " << i;
    }
    const Vec3 L1 = x.inertia_world() * x.angular_velocity;
    EXPECT_LE((L1 - L0).norm(), 1e-9 * L0.norm()) << "dt " << dt;
    EXPECT_LE(std::abs(w.kinetic_energy() - e0), 1e-9 * e0) << "dt " << dt;
    EXPECT_NEAR(x.pose.R.determinant(), 1.0, 1e-12);
  }
}

class RestOnFloor : public ::testing::TestWithParam<sim::SolverKind> {};

TEST_P(RestOnFloor, StaysAtRestFor10kSteps) {
  sim::World w;
  w.options.solver = GetParam();
  w.add(sim::make_body("floor", Halfspace(Vec3::UnitZ(), 0.0), 0.0, Transform::identity(), true));
  const Transform start = Transform::from_axis_angle(Vec3::UnitZ(), 0.3, Vec3(0.1, -0.2, 0.05));
  const int box = w.add(sim::make_body("box", Box(0.2, 0.3, 0.1), 800.0, start));
  const int steps = std::max(1000, testing::scaled(10000));
  double max_v = 0.0;
  for (int i = 0; i < steps; ++i) {
    const sim::StepStats& s = w.step();
    ASSERT_EQ(s.fallbacks, 0) << "step " << i;
    const sim::Body& b = w.bodies()[box];
    max_v = std::max(max_v, b.linear_velocity.norm() + b.angular_velocity.norm() * 0.2);
  }
  const sim::Body& b = w.bodies()[box];
  EXPECT_LE((b.pose.p - start.p).norm(), 1e-6) << b.pose.p.transpose();
  EXPECT_LE((b.pose.R - start.R).norm(), 1e-6);
  EXPECT_LE(max_v, 1e-3);
  EXPECT_EQ(w.last_stats().contacts, 4);
}

INSTANTIATE_TEST_SUITE_P(Solvers, RestOnFloor, ::testing::Values(sim::SolverKind::lemke, sim::SolverKind::pgs),
                         [](const auto& info) { return std::string(sim::to_string(info.param)); });

TEST(World, BadBodiesAreRejectedByName) {
  sim::World w;
  sim::Body b = sim::make_body("box", Box(0.1, 0.1, 0.1), 1000.0, Transform::identity());
  b.mass.mass = -1.0;
  try {
    w.add(b);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("box"), std::string::npos);
  }
  EXPECT_THROW(sim::make_body("h", Halfspace(Vec3::UnitZ(), 0.0), 1000.0, Transform::identity()), Error);
}

// A geometry whose queries report a given status beside the real contacts
// of its box (as a mesh does when one triangle's GJK hits its cap).
class StatusGeometry final : public sim::Geometry {
 public:
  StatusGeometry(const Box& box, Status status) : inner_(box), status_(status) {}
  Aabb world_aabb(const Transform& pose) const override { return inner_.world_aabb(pose); }
  MassProperties mass_properties() const override { return inner_.mass_properties(); }
  void contacts(const Transform& pose, const sim::Geometry& other, const Transform& other_pose,
                const ContactOptions& options, ContactSet& out) const override {
    inner_.contacts(pose, other, other_pose, options, out);
    out.status = status_;
  }

 private:
  sim::ConvexGeometry inner_;
  Status status_;
};

// A not-converged query keeps its (finite) contacts and the box rests; a
// failed one gives none and the box falls through. Both are counted.
TEST(World, UnconvergedQueriesKeepTheirContactsFailedOnesDropThem) {
  for (const Status status : {Status::not_converged, Status::invalid_input}) {
    for (const sim::SolverKind solver : {sim::SolverKind::pgs, sim::SolverKind::lemke}) {
      sim::World w;
      w.options.solver = solver;
      w.add(sim::make_body("floor", Box(1.0, 1.0, 0.1), 1000.0, Transform::identity(), true));
      sim::Body box = sim::make_body("box", Box(0.1, 0.1, 0.1), 1000.0, Transform::from_translation(Vec3(0, 0, 0.1)));
      box.geometry = std::make_shared<StatusGeometry>(Box(0.1, 0.1, 0.1), status);
      w.add(box);
      int unconverged = 0, failed = 0;
      for (int i = 0; i < 200; ++i) {
        const sim::StepStats& st = w.step();
        unconverged += st.unconverged;
        failed += st.failed;
      }
      const double z = w.bodies()[1].pose.p.z();
      if (status == Status::not_converged) {
        EXPECT_NEAR(z, 0.1, 1e-4);
        EXPECT_EQ(unconverged, 200);
        EXPECT_EQ(failed, 0);
      } else {
        EXPECT_LT(z, 0.0);
        EXPECT_EQ(failed, 200);
        EXPECT_EQ(unconverged, 0);
      }
    }
  }
}

}  // namespace
}  // namespace proxima
