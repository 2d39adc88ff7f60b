// SPDX-License-Identifier: BSD-3-Clause
// Reading and driving a scene's robots (see scene_robot.hpp).
#include "scene_robot.hpp"

#include <cmath>
#include <filesystem>

#include <proxima/core/error.hpp>
#include <proxima/robot/urdf.hpp>

#include "json_reader.hpp"
#include "json_shapes.hpp"

namespace proxima::apps {
namespace {

using nlohmann::json;

// A joint vector of the robot's dof() values within ±limit, or (when
// `scalar_ok`) one number for every joint.
Eigen::VectorXd joint_vector_at(const json& j, const std::string& field, const robot::RobotModel& m, double lo,
                                double hi, bool scalar_ok) {
  const auto n = static_cast<Eigen::Index>(m.variable_count());
  const Range range{lo, hi};
  if (scalar_ok && j.is_number()) return Eigen::VectorXd::Constant(n, number_at(j, field, range));
  const json& a = array_at(j, field, scalar_ok ? "numbers (one per joint) or one number" : "numbers, one per joint");
  if (static_cast<Eigen::Index>(a.size()) != n)
    fail(field, "has " + std::to_string(a.size()) + " values, expected " + std::to_string(n) + " (the joints of '" +
                    m.name() + "')");
  Eigen::VectorXd out(n);
  for (Eigen::Index i = 0; i < n; ++i)
    out[i] = number_at(a[static_cast<std::size_t>(i)], index_path(field, static_cast<std::size_t>(i)), range);
  return out;
}

robot::MeshMode mesh_mode_at(const std::string& s, const std::string& field) {
  if (s == "convex_hull") return robot::MeshMode::convex_hull;
  if (s == "triangle_mesh") return robot::MeshMode::triangle_mesh;
  fail(field, "unknown mesh mode \"" + s + "\" (expected convex_hull or triangle_mesh)");
}

SceneRobot robot_from_json(const json& j, const std::string& field, const std::string& base_dir,
                           const sim::World& world) {
  return read_object(j, field, [&](ObjectReader& r) {
    SceneRobot s;
    std::filesystem::path urdf = r.string("urdf");
    if (urdf.is_relative() && !base_dir.empty()) urdf = std::filesystem::path(base_dir) / urdf;
    robot::GeometryOptions go;
    if (r.has("mesh_mode")) go.mesh_mode = mesh_mode_at(r.string("mesh_mode"), r.field("mesh_mode"));
    go.margin = r.number_or("margin", 0.0, kLengthRange);
    try {
      s.geometry = std::make_shared<const robot::RobotGeometry>(robot::load_urdf(urdf), go);
    } catch (const Error& e) {
      fail(r.field("urdf"), e.what());
    }
    const robot::RobotModel& m = s.geometry->model();
    const auto n = static_cast<Eigen::Index>(m.variable_count());
    if (const json* sc = r.get("self_collision")) {
      const std::string sf = r.field("self_collision");
      if (sc->is_boolean()) {
        if (sc->get<bool>()) s.self_collision = robot::AllowedCollisionMatrix::adjacent(m);
      } else if (sc->is_string()) {
        std::filesystem::path srdf = sc->get<std::string>();
        if (srdf.is_relative() && !base_dir.empty()) srdf = std::filesystem::path(base_dir) / srdf;
        robot::AllowedCollisionMatrix acm = robot::AllowedCollisionMatrix::adjacent(m);
        try {
          robot::apply_srdf(m, srdf, acm);
        } catch (const Error& e) {
          fail(sf, e.what());
        }
        s.self_collision = std::move(acm);
      } else {
        fail(sf, "must be true, false or the path of an SRDF file (its disabled pairs are not checked)");
      }
    }
    if (const json* fr = r.get("friction")) {
      const std::string ff = r.field("friction");
      array_at(*fr, ff, "{\"link\", \"body\", \"mu\"} objects (\"body\" left out: every body)");
      for (std::size_t i = 0; i < fr->size(); ++i)
        read_object((*fr)[i], index_path(ff, i), [&](ObjectReader& e) {
          SceneRobot::LinkFriction lf;
          const std::string link = e.string("link");
          lf.link = m.link_index(link);
          if (lf.link < 0) fail(e.field("link"), "no link named \"" + link + "\" in the robot");
          if (e.has("body")) {
            const std::string body = e.string("body");
            lf.body = world.find(body);
            if (lf.body < 0) fail(e.field("body"), "no body named \"" + body + "\" in the scene");
          }
          lf.mu = e.number("mu", Range{0.0, kMaxLength});
          s.friction.push_back(lf);
        });
    }
    const json* base = r.get("base");
    s.base = base ? pose_from_json(*base, r.field("base")) : Transform::identity();
    s.kind = r.boolean_or("floating_base", false) ? robot::BaseKind::floating : robot::BaseKind::fixed;
    const json* q = r.get("q");
    s.initial.q = q ? joint_vector_at(*q, r.field("q"), m, -kMaxLength, kMaxLength, false) : Eigen::VectorXd::Zero(n);
    const json* qd = r.get("qd");
    const Eigen::VectorXd rates =
        qd ? joint_vector_at(*qd, r.field("qd"), m, -kMaxRobotRate, kMaxRobotRate, false) : Eigen::VectorXd::Zero(n);
    // A floating base's twist comes first in the velocities (dynamics.hpp).
    robot::Vec6 twist = robot::Vec6::Zero();
    if (const json* bt = r.get("base_twist")) {
      const std::string tf = r.field("base_twist");
      if (s.kind != robot::BaseKind::floating) fail(tf, "only a floating base moves (set \"floating_base\": true)");
      const json& a = array_at(*bt, tf, "6 numbers: v, then w, in the root link's frame");
      if (a.size() != 6) fail(tf, "has " + std::to_string(a.size()) + " values, expected 6 (v, then w)");
      for (std::size_t i = 0; i < 6; ++i)
        twist[static_cast<Eigen::Index>(i)] = number_at(a[i], index_path(tf, i), Range{-kMaxRobotRate, kMaxRobotRate});
    }
    const Eigen::Index off = s.kind == robot::BaseKind::floating ? 6 : 0;
    s.initial.qd.resize(off + n);
    s.initial.qd.head(off) = twist.head(off);
    s.initial.qd.tail(n) = rates;
    const json* torque = r.get("torque");
    s.torque = torque ? joint_vector_at(*torque, r.field("torque"), m, -kMaxRobotTorque, kMaxRobotTorque, false)
                      : Eigen::VectorXd::Zero(n);
    const json* kp = r.get("kp");
    const json* kd = r.get("kd");
    const json* targets = r.get("targets");
    if (kp || kd || targets) {
      if (!kp) fail(field, "missing \"kp\" (PD control needs kp, kd and targets)");
      if (!kd) fail(field, "missing \"kd\" (PD control needs kp, kd and targets)");
      if (!targets) fail(field, "missing \"targets\" (PD control needs kp, kd and targets)");
      s.kp = joint_vector_at(*kp, r.field("kp"), m, 0.0, kMaxRobotGain, true);
      s.kd = joint_vector_at(*kd, r.field("kd"), m, 0.0, kMaxRobotGain, true);
      const std::string tf = r.field("targets");
      array_at(*targets, tf, "{\"t\", \"q\"} objects", true);
      for (std::size_t i = 0; i < targets->size(); ++i) {
        const std::string kf = index_path(tf, i);
        read_object((*targets)[i], kf, [&](ObjectReader& k) {
          RobotTargetKey key;
          key.t = k.number("t", Range{0.0, kMaxLength, false, false, " s"});
          if (!s.targets.empty() && !(key.t > s.targets.back().t))
            fail(k.field("t"), "must be later than the previous key's (times strictly increasing)");
          key.q = joint_vector_at(k.required("q"), k.field("q"), m, -kMaxLength, kMaxLength, false);
          s.targets.push_back(std::move(key));
        });
      }
    }
    return s;
  });
}

}  // namespace

void SceneRobot::target_at(double t, Eigen::VectorXd& q, Eigen::VectorXd& qd) const {
  qd.setZero(targets.front().q.size());
  if (t <= targets.front().t) {
    q = targets.front().q;
    return;
  }
  if (t >= targets.back().t) {
    q = targets.back().q;
    return;
  }
  std::size_t k = 1;
  while (targets[k].t < t) ++k;
  const RobotTargetKey& a = targets[k - 1];
  const RobotTargetKey& b = targets[k];
  const double span = b.t - a.t, s = (t - a.t) / span;
  q = (1.0 - s) * a.q + s * b.q;
  qd = (b.q - a.q) / span;
}

robot::RobotWorld SceneRobot::make_world(sim::World world) const {
  robot::RobotWorld rw(*geometry, base, initial, std::move(world), kind);
  if (self_collision) rw.set_self_collision(*self_collision);
  for (const LinkFriction& f : friction) rw.set_link_friction(f.link, f.body, f.mu);
  rw.robot().set_torque(torque);
  drive(rw);
  return rw;
}

void SceneRobot::drive(robot::RobotWorld& rw) const {
  if (kp.size() == 0) return;
  // target_at assigns into vectors of the right size once they have it.
  target_at(rw.time(), drive_q, drive_qd);
  rw.robot().set_pd(kp, kd, drive_q, drive_qd);
}

std::vector<SceneRobot> robots_from_json(const json& j, const std::string& field, const std::string& base_dir,
                                         const sim::World& world) {
  array_at(j, field, "robot objects {\"urdf\", ...}");
  if (j.size() > 1)
    fail(field, "has " + std::to_string(j.size()) + " robots; a scene holds at most one (robot::RobotWorld)");
  std::vector<SceneRobot> out;
  for (std::size_t i = 0; i < j.size(); ++i)
    out.push_back(robot_from_json(j[i], index_path(field, i), base_dir, world));
  return out;
}

}  // namespace proxima::apps
