// SPDX-License-Identifier: BSD-3-Clause
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include <Eigen/Dense>

#include <proxima/core/error.hpp>
#include <proxima/robot/motion_predictor.hpp>

namespace proxima::robot {
namespace {

using VecX = Eigen::VectorXd;
using MatX = Eigen::MatrixXd;

// The total-least-squares line through the rows of X: the model of eq. 1
// (or eq. 2 in (x, y, z, L·θ)) with s free per sample, whose minimiser
// over δ is the principal axis of the samples, so no iteration is needed.
struct LineFit {
  VecX centre, direction;  // unit direction
  VecX s;                  // each row's parameter along the line
  double residual2 = 0.0;  // mean squared orthogonal distance
};

LineFit fit_line(const MatX& X) {
  LineFit f;
  f.centre = X.colwise().mean().transpose();
  const MatX D = X.rowwise() - f.centre.transpose();
  const Eigen::SelfAdjointEigenSolver<MatX> eig(D.transpose() * D);
  f.direction = eig.eigenvectors().col(X.cols() - 1);  // eigenvalues ascending
  f.s = D * f.direction;
  f.residual2 = std::max(0.0, (D.squaredNorm() - f.s.squaredNorm()) / static_cast<double>(X.rows()));
  return f;
}

// ds/dt over the last m samples (least squares), with the line's direction
// flipped so that the speed is ≥ 0.
double speed_along(LineFit& f, std::span<const double> t, int m) {
  const auto n = static_cast<Eigen::Index>(t.size());
  const Eigen::Index first = std::max<Eigen::Index>(0, n - m);
  double mt = 0.0, ms = 0.0;
  for (Eigen::Index k = first; k < n; ++k) {
    mt += t[static_cast<std::size_t>(k)];
    ms += f.s(k);
  }
  const auto count = static_cast<double>(n - first);
  mt /= count;
  ms /= count;
  double num = 0.0, den = 0.0;
  for (Eigen::Index k = first; k < n; ++k) {
    const double dt = t[static_cast<std::size_t>(k)] - mt;
    num += dt * (f.s(k) - ms);
    den += dt * dt;
  }
  double v = den > 0.0 ? num / den : 0.0;
  if (v < 0.0) {
    v = -v;
    f.direction = -f.direction;
    f.s = -f.s;
  }
  return v;
}

// Rotation vector of R (axis · angle, angle in [0, π]).
Vec3 rotation_vector(const Mat3& R) {
  const Eigen::AngleAxisd aa(R);
  return aa.axis() * aa.angle();
}

// Tool-space error of pose a against b, rotation weighed by L: squared.
double pose_error2(const Transform& a, const Transform& b, double L) {
  const double angle = rotation_vector(a.R.transpose() * b.R).norm();
  return (a.p - b.p).squaredNorm() + L * L * angle * angle;
}

VecX to_vec(const std::vector<double>& q) { return Eigen::Map<const VecX>(q.data(), static_cast<Eigen::Index>(q.size())); }
std::vector<double> to_std(const VecX& v) { return {v.data(), v.data() + v.size()}; }

}  // namespace

const char* to_string(MotionModel m) {
  switch (m) {
    case MotionModel::stationary: return "stationary";
    case MotionModel::joint: return "joint";
    case MotionModel::cartesian: return "cartesian";
  }
  return "?";
}

MotionPredictor::MotionPredictor(std::size_t dof, PredictorOptions options, ToolKinematics kinematics)
    : dof_(dof), options_(options), kinematics_(std::move(kinematics)) {
  if (dof == 0) throw Error("MotionPredictor: a robot needs at least one joint");
  if (options.window < 2) throw Error("MotionPredictor: window " + std::to_string(options.window) + " must be ≥ 2");
  if (options.speed_window < 2) {
    throw Error("MotionPredictor: speed_window " + std::to_string(options.speed_window) + " must be ≥ 2");
  }
  if (!(options.length_scale > 0.0) || !std::isfinite(options.length_scale)) {
    throw Error("MotionPredictor: length_scale " + std::to_string(options.length_scale) + " must be positive");
  }
  if (!(options.still_speed >= 0.0) || !std::isfinite(options.still_speed)) {
    throw Error("MotionPredictor: still_speed " + std::to_string(options.still_speed) + " must be ≥ 0");
  }
  if (options.ik_iterations < 1) {
    throw Error("MotionPredictor: ik_iterations " + std::to_string(options.ik_iterations) + " must be ≥ 1");
  }
}

void MotionPredictor::add(const MotionSample& sample) {
  if (sample.q.size() != dof_) {
    throw Error("MotionPredictor: sample has " + std::to_string(sample.q.size()) + " joint values, the robot " +
                std::to_string(dof_));
  }
  if (!std::isfinite(sample.time)) throw Error("MotionPredictor: sample time is not finite");
  for (std::size_t i = 0; i < dof_; ++i) {
    if (!std::isfinite(sample.q[i])) throw Error("MotionPredictor: joint " + std::to_string(i) + " is not finite");
  }
  if (!samples_.empty() && !(sample.time > samples_.back().time)) {
    throw Error("MotionPredictor: sample time " + std::to_string(sample.time) + " is not after the last one (" +
                std::to_string(samples_.back().time) + ")");
  }
  samples_.push_back(sample);
  while (samples_.size() > static_cast<std::size_t>(options_.window)) samples_.pop_front();
}

Prediction MotionPredictor::predict() const {
  Prediction p;
  if (samples_.empty()) return p;
  const MotionSample& last = samples_.back();
  p.time = last.time;
  p.q = last.q;
  if (kinematics_) p.tool = kinematics_(last.q);
  const auto n = static_cast<Eigen::Index>(samples_.size());
  if (n < 2) return p;

  std::vector<double> t(samples_.size());
  MatX Q(n, static_cast<Eigen::Index>(dof_));
  for (Eigen::Index k = 0; k < n; ++k) {
    const MotionSample& s = samples_[static_cast<std::size_t>(k)];
    t[static_cast<std::size_t>(k)] = s.time;
    Q.row(k) = to_vec(s.q).transpose();
  }
  const double L = options_.length_scale;

  // Stationary: the recent displacement rate is below the noise floor.
  const Eigen::Index first = std::max<Eigen::Index>(0, n - options_.speed_window);
  const MotionSample& early = samples_[static_cast<std::size_t>(first)];
  const double span_t = last.time - early.time;
  std::vector<Transform> tools;
  double rate;
  if (kinematics_) {
    for (const MotionSample& s : samples_) tools.push_back(kinematics_(s.q));
    rate = std::sqrt(pose_error2(tools.back(), tools[static_cast<std::size_t>(first)], L)) / span_t;
  } else {
    rate = (to_vec(last.q) - to_vec(early.q)).norm() / span_t;
  }
  if (!(rate > options_.still_speed)) return p;

  LineFit joint = fit_line(Q);
  p.joint_speed = speed_along(joint, t, options_.speed_window);
  p.joint_direction = to_std(joint.direction);
  p.model = MotionModel::joint;
  if (!kinematics_) {
    p.joint_residual = std::sqrt(joint.residual2);
    p.cartesian_residual = std::numeric_limits<double>::infinity();
    return p;
  }
  // Both residuals in tool space: the joint line's points through the kinematics.
  double e2 = 0.0;
  for (Eigen::Index k = 0; k < n; ++k) {
    const VecX on_line = joint.centre + joint.s(k) * joint.direction;
    e2 += pose_error2(kinematics_(to_std(on_line)), tools[static_cast<std::size_t>(k)], L);
  }
  p.joint_residual = std::sqrt(e2 / static_cast<double>(n));

  // Eq. 2: rotations R_k R_0ᵀ about one axis; the axis is the principal
  // direction of their rotation vectors, θ_k their components along it.
  std::vector<Vec3> w(samples_.size());
  Mat3 W = Mat3::Zero();
  for (std::size_t k = 0; k < w.size(); ++k) {
    w[k] = rotation_vector(tools[k].R * tools[0].R.transpose());
    W += w[k] * w[k].transpose();
  }
  const Eigen::SelfAdjointEigenSolver<Mat3> weig(W);
  Vec3 axis = weig.eigenvalues()(2) > 0.0 ? Vec3(weig.eigenvectors().col(2)) : Vec3(Vec3::UnitZ());
  MatX Y(n, 4);
  for (Eigen::Index k = 0; k < n; ++k) {
    Y.row(k).head<3>() = tools[static_cast<std::size_t>(k)].p.transpose();
    Y(k, 3) = L * axis.dot(w[static_cast<std::size_t>(k)]);
  }
  LineFit cart = fit_line(Y);
  double off2 = 0.0;  // orientation off the fixed-axis model
  for (Eigen::Index k = 0; k < n; ++k) {
    const double theta = Y(k, 3) / L;
    const Mat3 model_R = Eigen::AngleAxisd(theta, axis).toRotationMatrix() * tools[0].R;
    const double a = rotation_vector(model_R.transpose() * tools[static_cast<std::size_t>(k)].R).norm();
    off2 += L * L * a * a;
  }
  p.cartesian_residual = std::sqrt(cart.residual2 + off2 / static_cast<double>(n));
  if (!(p.cartesian_residual < p.joint_residual)) return p;

  const double v = speed_along(cart, t, options_.speed_window);
  p.model = MotionModel::cartesian;
  const Vec3 lin = cart.direction.head<3>();
  const double lin_norm = lin.norm();
  p.linear_direction = lin_norm > 0.0 ? Vec3(lin / lin_norm) : Vec3(Vec3::Zero());
  p.linear_speed = lin_norm * v;
  p.rotation_axis = axis;
  p.angular_speed = cart.direction(3) * v / L;
  return p;
}

std::vector<std::vector<double>> MotionPredictor::path(const Prediction& p, double horizon, int steps) const {
  if (!(horizon > 0.0) || !std::isfinite(horizon)) {
    throw Error("MotionPredictor::path: horizon " + std::to_string(horizon) + " must be positive");
  }
  if (steps < 1) throw Error("MotionPredictor::path: steps " + std::to_string(steps) + " must be ≥ 1");
  std::vector<std::vector<double>> out;
  out.reserve(static_cast<std::size_t>(steps));
  if (p.q.size() != dof_) {
    throw Error("MotionPredictor::path: the prediction has " + std::to_string(p.q.size()) + " joints, the robot " +
                std::to_string(dof_));
  }
  const VecX q0 = to_vec(p.q);
  if (p.model != MotionModel::cartesian || !kinematics_) {
    const VecX dir = p.model == MotionModel::joint ? to_vec(p.joint_direction) : VecX::Zero(q0.size());
    for (int k = 1; k <= steps; ++k) {
      const double tau = horizon * k / steps;
      out.push_back(to_std(q0 + p.joint_speed * tau * dir));
    }
    return out;
  }
  // The tool pose on eq. 2's path, tracked from the previous point's joints
  // by damped least squares on a central-difference Jacobian (rotation rows
  // scaled by L, so both halves are metres).
  const double L = options_.length_scale;
  const auto m = static_cast<Eigen::Index>(dof_);
  VecX q = q0;
  const double h = 1e-6, lambda2 = 1e-6;
  auto error = [&](const Transform& target, const Transform& at) {
    Eigen::Matrix<double, 6, 1> e;
    e.head<3>() = target.p - at.p;
    e.tail<3>() = L * rotation_vector(target.R * at.R.transpose());
    return e;
  };
  for (int k = 1; k <= steps; ++k) {
    const double tau = horizon * k / steps;
    Transform target;
    target.p = p.tool.p + p.linear_speed * tau * p.linear_direction;
    target.R = Eigen::AngleAxisd(p.angular_speed * tau, p.rotation_axis).toRotationMatrix() * p.tool.R;
    for (int it = 0; it < options_.ik_iterations; ++it) {
      const Transform at = kinematics_(to_std(q));
      Eigen::Matrix<double, 6, Eigen::Dynamic> J(6, m);
      for (Eigen::Index j = 0; j < m; ++j) {
        VecX qp = q, qm = q;
        qp(j) += h;
        qm(j) -= h;
        const Transform tp = kinematics_(to_std(qp)), tm = kinematics_(to_std(qm));
        // d(pose)/dq_j as the error of tp against tm: translation and rotation rates.
        J.col(j) = error(tp, tm) / (2.0 * h);
      }
      const Eigen::Matrix<double, 6, 6> A = J * J.transpose() + lambda2 * Eigen::Matrix<double, 6, 6>::Identity();
      q += J.transpose() * A.ldlt().solve(error(target, at));
    }
    out.push_back(to_std(q));
  }
  return out;
}

}  // namespace proxima::robot
