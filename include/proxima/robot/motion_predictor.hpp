// SPDX-License-Identifier: BSD-3-Clause
// Motion prediction from recent joint samples (Dumitrache et al.,
// "Collision and proximity avoidance for robust behaviour of real-time robot
// applications", §III-A): a jogged or programmed robot moves either
// joint-interpolated, J(t) = J(t0) + s(t)·δj (eq. 1), or Cartesian, the tool
// on a line with its orientation turning about one fixed axis, both driven by
// the same s(t) (eq. 2). Both models are fitted to the last samples and the
// one with the lower residual is extrapolated over the horizon.
#pragma once

#include <cstddef>
#include <deque>
#include <functional>
#include <span>
#include <vector>

#include <proxima/core/transform.hpp>

namespace proxima::robot {

/// One reading of the robot's joints.
struct MotionSample {
  double time = 0.0;      ///< seconds; strictly increasing from sample to sample
  std::vector<double> q;  ///< joint positions (rad or m), the model's joint order
};

/// The tool (end-effector) pose for a joint vector: forward kinematics.
using ToolKinematics = std::function<Transform(std::span<const double> q)>;

enum class MotionModel {
  stationary,  ///< too few samples or no motion beyond the noise
  joint,       ///< eq. 1: a straight line in joint space
  cartesian,   ///< eq. 2: a line in tool position, a fixed rotation axis
};
const char* to_string(MotionModel m);

struct PredictorOptions {
  /// The most recent samples fitted (the paper's "recent samples"): ≥ 2.
  int window = 10;
  /// Of those, the most recent ones whose parameter s(t) gives the speed:
  /// ≥ 2 (fewer follow an acceleration sooner, more average the noise).
  int speed_window = 4;
  /// Metres per radian when a tool rotation is weighed against a
  /// translation (a point this far from the axis moves that far): > 0.
  double length_scale = 0.1;
  /// Below this speed the robot is stationary: in tool metres per second
  /// when tool kinematics are given, else in joint units per second: ≥ 0.
  double still_speed = 1e-3;
  /// Damped least squares steps per predicted point of a Cartesian path
  /// (its joints come from tracking the tool pose from the last sample).
  int ik_iterations = 6;
};

/// The fitted motion and its extrapolation.
struct Prediction {
  MotionModel model = MotionModel::stationary;
  /// RMS residuals of the two fits, in tool metres (rotation weighed by
  /// length_scale) when tool kinematics are given, else the joint fit's in
  /// joint units (and the Cartesian fit is not tried: +inf).
  double joint_residual = 0.0;
  double cartesian_residual = 0.0;
  double time = 0.0;                 ///< the last sample's time
  std::vector<double> q;             ///< the last sample's joints
  std::vector<double> joint_direction;  ///< joint model: unit δj
  double joint_speed = 0.0;          ///< joint model: ds/dt along joint_direction
  Vec3 linear_direction = Vec3::Zero();  ///< Cartesian model: unit tool translation direction…
  double linear_speed = 0.0;             ///< …and its speed (m/s)
  Vec3 rotation_axis = Vec3::UnitZ();    ///< Cartesian model: the fixed axis (world frame)…
  double angular_speed = 0.0;            ///< …and the rate about it (rad/s)
  Transform tool;                        ///< the last sample's tool pose (identity without kinematics)
};

class MotionPredictor {
 public:
  /// `dof` joints; without `kinematics` only the joint model is fitted.
  /// Throws proxima::Error for dof 0 or options out of range.
  explicit MotionPredictor(std::size_t dof, PredictorOptions options = {}, ToolKinematics kinematics = {});

  /// Throws proxima::Error, naming the reason, for a joint vector of the
  /// wrong size, a non-finite value or a time not after the last sample's.
  void add(const MotionSample& sample);
  void clear() { samples_.clear(); }
  std::size_t size() const { return samples_.size(); }
  std::size_t dof() const { return dof_; }
  const PredictorOptions& options() const { return options_; }

  /// The fit of the samples held (stationary with fewer than two).
  Prediction predict() const;

  /// Joint vectors at times t0 + horizon·k/steps, k = 1…steps, t0 the last
  /// sample's time, along `p`: the joint line, or for a Cartesian motion the
  /// tool pose on its line tracked by damped least squares from the last
  /// sample's joints. Stationary: the last joints repeated.
  std::vector<std::vector<double>> path(const Prediction& p, double horizon, int steps) const;

 private:
  std::size_t dof_;
  PredictorOptions options_;
  ToolKinematics kinematics_;
  std::deque<MotionSample> samples_;
};

}  // namespace proxima::robot
