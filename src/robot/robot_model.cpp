// SPDX-License-Identifier: BSD-3-Clause
#include <proxima/robot/robot_model.hpp>

#include <cmath>
#include <cstdio>
#include <unordered_map>

#include <Eigen/Eigenvalues>

#include <proxima/core/error.hpp>

#include "fk_step.hpp"

namespace proxima::robot {

const char* to_string(JointType t) {
  switch (t) {
    case JointType::revolute: return "revolute";
    case JointType::continuous: return "continuous";
    case JointType::prismatic: return "prismatic";
    case JointType::fixed: return "fixed";
  }
  return "unknown";
}

std::string SourceLocation::str() const {
  if (line <= 0) return file;
  if (file.empty()) return "line " + std::to_string(line);
  return file + ":" + std::to_string(line);
}

namespace {

// "joint 'elbow' (panda.urdf:12)": every message starts with what and where.
std::string describe(const char* what, const std::string& name, const SourceLocation& where) {
  std::string s = std::string(what) + " '" + name + "'";
  const std::string at = where.str();
  if (!at.empty()) s += " (" + at + ")";
  return s;
}

[[noreturn]] void fail(const std::string& model, const std::string& message) {
  throw Error("robot '" + model + "': " + message);
}

bool moving(JointType t) { return t != JointType::fixed; }

std::string number_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

// Why `in` cannot be a rigid body's mass properties, or "" when it can. The
// inertia tests are relative to its largest entry: URDF files write inertias
// rounded to a few digits, and a body whose moments meet the triangle
// inequality with equality (a rod, a plate) is written that way.
std::string inertial_problem(const Inertial& in) {
  if (!std::isfinite(in.mass)) return "mass " + number_text(in.mass) + " is not finite";
  if (in.mass < 0.0) return "mass " + number_text(in.mass) + " is negative";
  if (!in.origin.is_finite() || !in.origin.is_valid()) return "inertial origin is not finite";
  const Mat3& I = in.inertia;
  if (!I.allFinite()) return "inertia is not finite";
  const double scale = I.cwiseAbs().maxCoeff();
  const double tol = 1e-9 * scale;
  static const char* const names[3][3] = {{"ixx", "ixy", "ixz"}, {"iyx", "iyy", "iyz"}, {"izx", "izy", "izz"}};
  for (int r = 0; r < 3; ++r)
    for (int c = r + 1; c < 3; ++c)
      if (std::abs(I(r, c) - I(c, r)) > tol)
        return std::string("inertia is not symmetric: ") + names[r][c] + " = " + number_text(I(r, c)) + " but " +
               names[c][r] + " = " + number_text(I(c, r));
  const Eigen::SelfAdjointEigenSolver<Mat3> eig(0.5 * (I + I.transpose()), Eigen::EigenvaluesOnly);
  const Vec3 m = eig.eigenvalues();  // ascending
  const std::string moments =
      " (principal moments " + number_text(m(0)) + ", " + number_text(m(1)) + ", " + number_text(m(2)) + ")";
  if (m(0) < -tol) return "inertia is not positive semi-definite" + moments;
  if (m(2) > m(0) + m(1) + tol)
    return "inertia violates the triangle inequality: the largest principal moment exceeds the sum of the other two" +
           moments;
  return "";
}

}  // namespace

RobotModel::RobotModel(std::string name, std::vector<Link> links, std::vector<Joint> joints,
                       const SourceLocation& where)
    : name_(std::move(name)), links_(std::move(links)), joints_(std::move(joints)) {
  // The whole tree's errors name the model's own source.
  const std::string at = where.str();
  auto fail_tree = [&](const std::string& message) {
    throw Error("robot '" + name_ + "'" + (at.empty() ? "" : " (" + at + ")") + ": " + message);
  };
  if (links_.empty()) fail_tree("has no link");

  // Names: non-empty and unique, so that SRDF pairs and joint vectors can
  // refer to them unambiguously.
  std::unordered_map<std::string, int> link_of, joint_of;
  for (std::size_t i = 0; i < links_.size(); ++i) {
    Link& l = links_[i];
    if (l.name.empty()) fail(name_, describe("link", l.name, l.where) + ": empty name");
    if (!link_of.emplace(l.name, static_cast<int>(i)).second)
      fail(name_, describe("link", l.name, l.where) + ": duplicate link name");
    l.parent_joint = -1;
    l.child_joints.clear();
    for (const CollisionElement& c : l.collisions)
      if (!c.origin.is_finite())
        fail(name_, describe("link", l.name, c.where) + ": collision origin is not finite");
    if (const std::string why = inertial_problem(l.inertial); !why.empty())
      fail(name_, describe("link", l.name, l.inertial.where.line > 0 ? l.inertial.where : l.where) + ": " + why);
  }
  for (std::size_t j = 0; j < joints_.size(); ++j) {
    Joint& jt = joints_[j];
    const std::string what = describe("joint", jt.name, jt.where);
    if (jt.name.empty()) fail(name_, what + ": empty name");
    if (!joint_of.emplace(jt.name, static_cast<int>(j)).second) fail(name_, what + ": duplicate joint name");
    if (!jt.origin.is_finite() || !jt.origin.is_valid()) fail(name_, what + ": origin is not finite");

    // Tree edges: both ends must exist and each link has one parent.
    const auto p = link_of.find(jt.parent);
    if (p == link_of.end()) fail(name_, what + ": parent link '" + jt.parent + "' does not exist");
    const auto c = link_of.find(jt.child);
    if (c == link_of.end()) fail(name_, what + ": child link '" + jt.child + "' does not exist");
    if (p->second == c->second) fail(name_, what + ": link '" + jt.parent + "' is its own parent");
    jt.parent_link = p->second;
    jt.child_link = c->second;
    Link& child = links_[static_cast<std::size_t>(c->second)];
    if (child.parent_joint >= 0)
      fail(name_, what + ": link '" + child.name + "' already has parent joint '" +
                      joints_[static_cast<std::size_t>(child.parent_joint)].name + "' (two parents)");
    child.parent_joint = static_cast<int>(j);
    links_[static_cast<std::size_t>(p->second)].child_joints.push_back(static_cast<int>(j));

    // Motion parameters of moving joints.
    if (moving(jt.type)) {
      const double n = jt.axis.norm();
      if (!std::isfinite(n) || n < 1e-12) fail(name_, what + ": axis is zero or not finite");
      jt.axis /= n;
    }
    if (jt.type == JointType::continuous) {
      jt.lower = -std::numeric_limits<double>::infinity();
      jt.upper = std::numeric_limits<double>::infinity();
    } else if (moving(jt.type)) {
      if (!std::isfinite(jt.lower) || !std::isfinite(jt.upper) || jt.lower > jt.upper)
        fail(name_, what + ": limits [" + std::to_string(jt.lower) + ", " + std::to_string(jt.upper) +
                        "] must be finite with lower <= upper");
    }
    if (!(jt.velocity > 0.0))
      fail(name_, what + ": velocity limit " + std::to_string(jt.velocity) + " must be positive (+inf: none)");
    if (!(jt.effort > 0.0))
      fail(name_, what + ": effort limit " + number_text(jt.effort) + " must be positive (+inf: none)");
    if (!(jt.damping >= 0.0) || !std::isfinite(jt.damping))
      fail(name_, what + ": damping " + number_text(jt.damping) + " must be finite and >= 0");
    if (!(jt.friction >= 0.0) || !std::isfinite(jt.friction))
      fail(name_, what + ": friction " + number_text(jt.friction) + " must be finite and >= 0");
  }

  // One root; a tree with n links and one root has n − 1 joints, and every
  // link is reached from the root unless there is a cycle.
  std::vector<int> roots;
  for (std::size_t i = 0; i < links_.size(); ++i)
    if (links_[i].parent_joint < 0) roots.push_back(static_cast<int>(i));
  if (roots.empty()) fail_tree("has no root link (the joints form a cycle)");
  if (roots.size() > 1)
    fail_tree("has " + std::to_string(roots.size()) + " root links ('" + links_[static_cast<std::size_t>(roots[0])].name +
              "' and '" + links_[static_cast<std::size_t>(roots[1])].name +
              "' have no parent joint): the links must form one tree");
  root_ = roots[0];
  std::vector<int> stack{root_};
  std::vector<bool> seen(links_.size(), false);
  seen[static_cast<std::size_t>(root_)] = true;
  while (!stack.empty()) {
    const int l = stack.back();
    stack.pop_back();
    // Reverse so that siblings come out in document order.
    const std::vector<int>& kids = links_[static_cast<std::size_t>(l)].child_joints;
    for (auto it = kids.rbegin(); it != kids.rend(); ++it) {
      topo_.push_back(*it);
      const int child = joints_[static_cast<std::size_t>(*it)].child_link;
      seen[static_cast<std::size_t>(child)] = true;
      stack.push_back(child);
    }
  }
  for (std::size_t i = 0; i < links_.size(); ++i)
    if (!seen[i]) fail(name_, describe("link", links_[i].name, links_[i].where) + " is on a cycle of joints");

  // Variables: moving joints that mimic nothing, in document order.
  for (std::size_t j = 0; j < joints_.size(); ++j) {
    Joint& jt = joints_[j];
    if (jt.type == JointType::fixed) jt.mimic.reset();
    if (moving(jt.type) && !jt.mimic) {
      jt.variable = static_cast<int>(variable_joints_.size());
      variable_joints_.push_back(static_cast<int>(j));
    }
  }
  // Mimic chains composed down to the variable at their end.
  for (std::size_t j = 0; j < joints_.size(); ++j) {
    Joint& jt = joints_[j];
    if (!jt.mimic) continue;
    double mul = 1.0, off = 0.0;
    std::size_t cur = j;
    for (std::size_t steps = 0;; ++steps) {
      const Joint& c = joints_[cur];
      if (!c.mimic) break;
      const std::string what = describe("joint", c.name, c.where);
      if (steps > joints_.size()) fail(name_, describe("joint", jt.name, jt.where) + ": mimic joints form a cycle");
      if (!std::isfinite(c.mimic->multiplier) || !std::isfinite(c.mimic->offset))
        fail(name_, what + ": mimic multiplier or offset is not finite");
      const auto m = joint_of.find(c.mimic->joint);
      if (m == joint_of.end()) fail(name_, what + ": mimics joint '" + c.mimic->joint + "', which does not exist");
      if (!moving(joints_[static_cast<std::size_t>(m->second)].type))
        fail(name_, what + ": mimics joint '" + c.mimic->joint + "', which is fixed");
      // q_c = a q_m + b and q_m = mul' q + off' compose as written.
      off = off + mul * c.mimic->offset;
      mul = mul * c.mimic->multiplier;
      cur = static_cast<std::size_t>(m->second);
    }
    jt.variable = joints_[cur].variable;
    jt.variable_multiplier = mul;
    jt.variable_offset = off;
  }
  fk_steps_ = std::make_shared<const std::vector<detail::FkStep>>(detail::fk_steps(*this));
}

int RobotModel::link_index(std::string_view name) const {
  for (std::size_t i = 0; i < links_.size(); ++i)
    if (links_[i].name == name) return static_cast<int>(i);
  return -1;
}

int RobotModel::joint_index(std::string_view name) const {
  for (std::size_t i = 0; i < joints_.size(); ++i)
    if (joints_[i].name == name) return static_cast<int>(i);
  return -1;
}

std::vector<std::string> RobotModel::variable_names() const {
  std::vector<std::string> names;
  for (int j : variable_joints_) names.push_back(joints_[static_cast<std::size_t>(j)].name);
  return names;
}

bool RobotModel::adjacent(int link_a, int link_b) const {
  auto parent_of = [&](int l) {
    const int j = links_[static_cast<std::size_t>(l)].parent_joint;
    return j < 0 ? -1 : joints_[static_cast<std::size_t>(j)].parent_link;
  };
  return parent_of(link_a) == link_b || parent_of(link_b) == link_a;
}

}  // namespace proxima::robot
