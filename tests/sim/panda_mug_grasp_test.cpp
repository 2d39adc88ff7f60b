// SPDX-License-Identifier: BSD-3-Clause
// examples/panda_mug_grasp.json: the Panda (examples/robots/panda_hand.urdf,
// fingers prismatic) grasps the scanned mug by its rim and lifts it. The
// test runs the scene from the end of its approach (the hand at the grasp
// pose, at rest, fingers open): the same physics without the 0.4 s of
// descent, whose steps (the mug's 3840 base triangles in the table's layer)
// cost the most. Against closed forms: the mug rises as far as the hand's
// forward kinematics between the commanded grasp and lift waypoints; the
// mug's point at the finger pad does not slip in the finger's frame; each
// finger presses at least m g / (2 μ) (what friction alone needs to carry
// the weight) and the two together, along the fingers' axes, exactly what
// the saturated finger motor gives (the URDF's effort limit, 20 N), half of
// it each (the mug balances them); during the hold the mug stands still
// relative to the hand.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <proxima/robot/kinematics.hpp>
#include <proxima/robot/urdf.hpp>

#include "scene.hpp"
#include "../support/temp_files.hpp"
#include "../support/test_shapes.hpp"

namespace proxima {
namespace {

constexpr const char* kMugFile = "/usr/share/mujoco/model/mug/mug.obj";

// Times of the scene's script (scripts/panda_mug_grasp.py): the approach
// ends, the lift starts and ends, the scene ends.
constexpr double kGraspApproach = 0.4, kGraspLiftStart = 0.6, kGraspLiftEnd = 1.6, kGraspEnd = 2.1;
constexpr double kMugMass = 0.3, kFingerMu = 0.8, kGraspGravity = 9.81, kFingerEffort = 20.0;

struct SampleStats {
  double mean = 0.0, stddev = 0.0, min = 0.0, max = 0.0;
};

SampleStats sample_stats(const std::vector<double>& v) {
  SampleStats s;
  if (v.empty()) return s;
  for (double x : v) s.mean += x;
  s.mean /= static_cast<double>(v.size());
  for (double x : v) s.stddev += (x - s.mean) * (x - s.mean);
  s.stddev = std::sqrt(s.stddev / static_cast<double>(v.size()));
  s.min = *std::min_element(v.begin(), v.end());
  s.max = *std::max_element(v.begin(), v.end());
  return s;
}

TEST(PandaMugGrasp, HandOpensAsFrankasDescription) {
  // Each finger slides 0 to 40 mm along the hand's y axis, the right one
  // mirroring the left: the fingers' frames are 2 q apart, on either side of
  // the hand's centre plane, 58.4 mm out from the hand.
  const robot::RobotModel m = robot::load_urdf(std::string(PROXIMA_EXAMPLES_DIR) + "/robots/panda_hand.urdf");
  ASSERT_EQ(m.variable_count(), 8u);
  const robot::Joint& f1 = m.joint(m.joint_index("panda_finger_joint1"));
  const robot::Joint& f2 = m.joint(m.joint_index("panda_finger_joint2"));
  EXPECT_EQ(f1.type, robot::JointType::prismatic);
  EXPECT_EQ(f2.type, robot::JointType::prismatic);
  EXPECT_TRUE(f2.mimic.has_value());
  EXPECT_EQ(f1.variable, 7);
  EXPECT_EQ(f2.variable, 7);
  EXPECT_EQ(f1.lower, 0.0);
  EXPECT_EQ(f1.upper, 0.04);
  EXPECT_EQ(f1.effort, 20.0);
  EXPECT_EQ(f1.velocity, 0.2);
  const int hand = m.link_index("panda_hand"), left = m.link_index("panda_leftfinger"),
            right = m.link_index("panda_rightfinger");
  for (const double q : {0.0, 0.013, 0.04}) {
    std::vector<double> x = {0.1, -0.4, 0.2, -2.0, 0.3, 1.8, 0.5, q};
    const std::vector<Transform> poses = robot::forward_kinematics(m, x, Transform::identity());
    const Transform& h = poses[static_cast<std::size_t>(hand)];
    const Vec3 l = h.apply_inverse(poses[static_cast<std::size_t>(left)].p);
    const Vec3 r = h.apply_inverse(poses[static_cast<std::size_t>(right)].p);
    EXPECT_NEAR((l - Vec3(0, q, 0.0584)).norm(), 0.0, 1e-12) << q;
    EXPECT_NEAR((r - Vec3(0, -q, 0.0584)).norm(), 0.0, 1e-12) << q;
  }
}

TEST(PandaMugGrasp, LiftsTheScannedMugTwentyCentimetresWithoutSlip) {
  ASSERT_TRUE(std::filesystem::exists(kMugFile)) << kMugFile << " is missing: install libmujoco-samples (scripts/deps.sh)";
  // The scene from the end of the approach: keys before it dropped, times
  // shifted, the robot starting at rest at that key.
  nlohmann::json j;
  std::ifstream(std::string(PROXIMA_EXAMPLES_DIR) + "/panda_mug_grasp.json") >> j;
  nlohmann::json& robot_json = j["robots"][0];
  nlohmann::json keys = nlohmann::json::array();
  for (const nlohmann::json& k : robot_json["targets"]) {
    const double t = k["t"].get<double>() - kGraspApproach;
    if (t < -1e-9) continue;
    nlohmann::json shifted = k;
    shifted["t"] = std::max(t, 0.0);
    keys.push_back(shifted);
  }
  ASSERT_NEAR(keys.front()["t"].get<double>(), 0.0, 0.0);
  robot_json["targets"] = keys;
  robot_json["q"] = keys.front()["q"];
  robot_json["urdf"] = std::string(PROXIMA_EXAMPLES_DIR) + "/robots/panda_hand.urdf";
  const testing::TempDir dir;
  apps::Scene scene = apps::load_scene(dir.write("grasp.json", j.dump()).string());
  ASSERT_EQ(scene.robots.size(), 1u);
  const apps::SceneRobot& sr = scene.robots.front();
  const robot::RobotModel& model = sr.geometry->model();
  const int left = model.link_index("panda_leftfinger"), right = model.link_index("panda_rightfinger");
  const int hand = model.link_index("panda_hand");
  ASSERT_GE(left, 0);
  ASSERT_GE(right, 0);
  ASSERT_GE(hand, 0);
  const int mug = scene.world.find("mug");
  ASSERT_GE(mug, 0);
  EXPECT_NEAR(scene.world.friction.default_mu, kFingerMu, 0.0);
  EXPECT_NEAR(scene.world.bodies()[static_cast<std::size_t>(mug)].mass.mass, kMugMass, 0.0);

  const double lift_start = kGraspLiftStart - kGraspApproach, lift_end = kGraspLiftEnd - kGraspApproach,
               end = kGraspEnd - kGraspApproach;

  // The closed-form lift: the hand's height at the last waypoint over that
  // at the grasp waypoint, by forward kinematics of the commanded joints.
  Eigen::VectorXd q_grasp, q_lifted, qd;
  sr.target_at(lift_start, q_grasp, qd);
  sr.target_at(lift_end, q_lifted, qd);
  const auto hand_z = [&](const Eigen::VectorXd& q) {
    return robot::forward_kinematics(model, std::span<const double>(q.data(), static_cast<std::size_t>(q.size())),
                                     sr.base)[static_cast<std::size_t>(hand)]
        .p.z();
  };
  const double lift = hand_z(q_lifted) - hand_z(q_grasp);
  EXPECT_NEAR(lift, 0.20, 1e-5);  // what the script asked its inverse kinematics for (joints to 1e-6 rad)
  {
    // The grasp waypoint puts the hand where the script's layout says, by
    // this library's kinematics: over the middle of the wall nearest the
    // robot (the mug's axis at x = 0.5 m, the wall's middle 41.9 mm from
    // it), pointing down with its fingers closing along x, the fingertips
    // (112.2 mm below the hand) 32 mm below the rim (71.9 mm above the
    // mug's base, which floats 1 mm on its layer).
    const Transform h = robot::forward_kinematics(
        model, std::span<const double>(q_grasp.data(), static_cast<std::size_t>(q_grasp.size())),
        sr.base)[static_cast<std::size_t>(hand)];
    EXPECT_NEAR((h.p - Vec3(0.5 - 0.0419, 0.0, 0.001 + 0.0719 - 0.032 + 0.0584 + 0.0538)).norm(), 0.0, 1e-5);
    EXPECT_NEAR(h.R.col(2).dot(-Vec3::UnitZ()), 1.0, 1e-9);
    EXPECT_NEAR(std::abs(h.R.col(1).x()), 1.0, 1e-9);
  }

  robot::RobotWorld rw = sr.make_world(std::move(scene.world));
  const double dt = rw.world().options.dt;
  const auto mug_pose = [&] { return rw.world().bodies()[static_cast<std::size_t>(mug)].pose; };
  // The mug in the left fingertip's frame.
  const auto in_finger = [&] { return rw.link_poses()[static_cast<std::size_t>(left)].inverse() * mug_pose(); };
  // The middle of the finger's flat pad (finger.obj: z 36 to 54 mm, y = 0).
  const Vec3 pad(0.0, 0.0, 0.045);

  const double z0 = mug_pose().p.z();
  Transform grip;  // the mug in the finger's frame when the lift starts
  Vec3 grip_point = Vec3::Zero();  // the mug's point then at the pad, in the mug's frame
  double slip = 0.0, slip_angle = 0.0, hold_speed = 0.0, ms = 0.0;
  int fallbacks = 0;  // steps whose Lemke run failed and PGS answered
  std::vector<double> squeeze, weakest, left_normal, left_share;
  Vec3 previous = Vec3::Zero();
  // The sanitizer run (testing::reduced_run) stops 0.2 s into the lift: the
  // grasp, the first of the lift and every contact path under the checkers;
  // the rise and the hold are the full run's.
  const bool reduced = testing::reduced_run();
  const double run_end = reduced ? lift_start + 0.2 : end;
  const int steps = static_cast<int>(std::lround(run_end / dt));
  double energy_start = 0.0, energy_min = 1e300, energy_max = -1e300;
  for (int i = 1; i <= steps; ++i) {
    sr.drive(rw);
    rw.step();
    const robot::RobotWorldStats& st = rw.last_stats();
    ms += st.ms_contacts + st.ms_build + st.ms_solve;
    fallbacks += st.fallbacks;
    const double t = rw.time();
    const Transform rel = in_finger();
    if (std::abs(t - lift_start) < 0.5 * dt) {
      grip = rel;
      grip_point = rel.inverse().apply(pad);
    }
    if (t > lift_start) {
      slip = std::max(slip, (rel.apply(grip_point) - pad).norm());
      slip_angle = std::max(slip_angle, Eigen::AngleAxisd(grip.R.transpose() * rel.R).angle());
    }
    if (t > lift_end + 0.1) {  // the hold, after the arm's PD has settled
      hold_speed = std::max(hold_speed, (rel.p - previous).norm() / dt);
      // Normal forces of each finger on the mug, and the whole contact force
      // (normal and friction) along the fingers' closing axis (the left
      // finger's +y, the right's −y): the finger joint's share of it.
      const Vec3 axis = rw.link_poses()[static_cast<std::size_t>(left)].R.col(1);
      double f_left = 0.0, f_right = 0.0, along = 0.0, left_along = 0.0;
      for (const robot::RobotContact& c : rw.last_contacts()) {
        if (c.body_b != mug || (c.link != left && c.link != right)) continue;
        (c.link == left ? f_left : f_right) += c.normal_impulse / dt;
        const Vec3 f = (c.normal_impulse * c.normal + c.friction_impulse) / dt;
        along += (c.link == left ? 1.0 : -1.0) * f.dot(axis);
        if (c.link == left) left_along += f.dot(axis);
      }
      squeeze.push_back(along);
      left_share.push_back(left_along);
      weakest.push_back(std::min(f_left, f_right));
      left_normal.push_back(f_left);
      const double e = rw.kinetic_energy() + rw.potential_energy();
      if (energy_min > 1e299) energy_start = e;
      energy_min = std::min(energy_min, e);
      energy_max = std::max(energy_max, e);
    }
    previous = rel.p;
  }
  const double rise = mug_pose().p.z() - z0;
  const SampleStats sq = sample_stats(squeeze), weak = sample_stats(weakest), noise = sample_stats(left_normal),
                    share = sample_stats(left_share);
  std::cout << "panda_mug_grasp: rise " << rise << " m (hand FK " << lift << "), slip " << slip * 1e3 << " mm, "
            << slip_angle * 180.0 / 3.14159265358979 << " deg; hold: speed in finger frame " << hold_speed * 1e3
            << " mm/s, squeeze " << sq.mean << " N (std/mean " << sq.stddev / sq.mean << ", " << sq.min << ".."
            << sq.max << "), left finger along the axis " << share.min << ".." << share.max << " N, left finger normal " << noise.mean << " N (std/mean " << noise.stddev / noise.mean
            << "), weaker finger " << weak.min << " N; energy drift in hold " << energy_max - energy_min
            << " J from " << energy_start << "; " << ms / steps << " ms/step at dt " << dt * 1e3 << " ms; "
            << fallbacks << " Lemke fallbacks\n";

  EXPECT_LT(slip, 0.002);
  EXPECT_LE(fallbacks, steps / 100);
  if (reduced) {
    // The mug has risen with the hand, about as far as the commanded joints
    // then lift it (1.85 cm against 1.98 when this was written: the arm's PD
    // lags its targets).
    Eigen::VectorXd q_now;
    sr.target_at(run_end, q_now, qd);
    const double commanded = hand_z(q_now) - hand_z(q_grasp);
    EXPECT_GT(commanded, 0.015);
    EXPECT_NEAR(rise, commanded, 0.005);
    return;
  }
  EXPECT_NEAR(rise, lift, 0.01);
  EXPECT_LT(hold_speed, 0.001);
  // Friction alone carries the weight only if every finger presses at least
  // m g / (2 μ).
  EXPECT_GT(weak.min, kMugMass * kGraspGravity / (2.0 * kFingerMu));
  // Along the closing axis the fingers press with the saturated motor force:
  // the finger joint is at rest, its axis horizontal, so the contact forces
  // balance the motor's 20 N alone.
  EXPECT_NEAR(sq.min, kFingerEffort, 1e-3 * kFingerEffort);
  EXPECT_NEAR(sq.max, kFingerEffort, 1e-3 * kFingerEffort);
  // The mug, off the table and at rest, balances the two fingers' pushes
  // along that axis: each finger gives half.
  EXPECT_NEAR(share.min, kFingerEffort / 2, 1e-2 * kFingerEffort);
  EXPECT_NEAR(share.max, kFingerEffort / 2, 1e-2 * kFingerEffort);
  // Fingers, mug and table make degenerate problems (more contacts than
  // freedoms); Lemke's ratio test must still solve nearly all of them (a
  // tie rule relative to the ratio left 360 of 2,100 steps to PGS): checked
  // above, on the run's steps.
}

}  // namespace
}  // namespace proxima
