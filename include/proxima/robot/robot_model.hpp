// SPDX-License-Identifier: BSD-3-Clause
// RobotModel: the kinematic tree of a robot (links, joints, limits, mimic
// couplings) and the collision elements each link declares, as a URDF
// describes them. Geometry is only described here (sizes, mesh paths); the
// shapes and BVHs are built by link_geometry.hpp, so a model can be inspected
// and its kinematics evaluated without reading a single mesh file.
//
// Joint types: revolute, continuous, prismatic and fixed. Floating and planar
// joints are rejected when the model is built (and by the URDF reader): a
// free-flying base is what forward_kinematics' `base` pose is for, and a
// floating joint deeper in the tree is not a robot a scene checker can be
// asked about with one joint vector.
#pragma once

#include <filesystem>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <proxima/core/transform.hpp>

namespace proxima::robot {

namespace detail {
struct FkStep;
}

enum class JointType { revolute, continuous, prismatic, fixed };

/// "revolute", "continuous", "prismatic" or "fixed".
const char* to_string(JointType t);

/// Where a model element came from, for error messages: "file:line", or
/// "line N" for a URDF given as a string; empty for models built in code.
struct SourceLocation {
  std::string file;
  int line = 0;
  std::string str() const;
};

/// One collision geometry as declared (URDF `<collision><geometry>`), in the
/// link frame at `origin`. Sizes follow Proxima's conventions, which are
/// URDF's: box `size` is the full extents, a cylinder is centred on its
/// local z axis with full height `length`.
struct GeometrySpec {
  enum class Kind { box, cylinder, sphere, mesh };
  Kind kind = Kind::box;
  Vec3 size = Vec3::Zero();      ///< box
  double radius = 0.0;           ///< cylinder, sphere
  double length = 0.0;           ///< cylinder
  std::string uri;               ///< mesh: the filename attribute as written
  std::filesystem::path path;    ///< mesh: the file it resolved to
  Vec3 scale = Vec3::Ones();     ///< mesh: per-axis scale
};

struct CollisionElement {
  std::string name;  ///< the `name` attribute, often empty
  Transform origin;  ///< element frame in the link frame
  GeometrySpec geometry;
  SourceLocation where;
};

/// Mass properties of a link (URDF `<inertial>`). A link without one is
/// massless, as URDF has it: mass 0, inertia 0.
struct Inertial {
  double mass = 0.0;  ///< kg, finite and ≥ 0
  /// The centre-of-mass frame in the link frame: its origin is the centre of
  /// mass, its axes are those `inertia` is written in.
  Transform origin;
  /// Rotational inertia about the centre of mass (kg m²) in `origin`'s axes:
  /// symmetric positive semi-definite, each principal moment at most the sum
  /// of the other two (relative 1e-9), as every physical body's is.
  Mat3 inertia = Mat3::Zero();
  SourceLocation where;
};

struct Link {
  std::string name;
  std::vector<CollisionElement> collisions;
  Inertial inertial;
  SourceLocation where;
  // Filled in by RobotModel:
  int parent_joint = -1;          ///< −1 for the root
  std::vector<int> child_joints;
};

/// Joint position = multiplier · (position of `joint`) + offset.
struct Mimic {
  std::string joint;
  double multiplier = 1.0;
  double offset = 0.0;
};

struct Joint {
  std::string name;
  JointType type = JointType::fixed;
  std::string parent;  ///< link name
  std::string child;   ///< link name
  /// Child frame at q = 0, in the parent link's frame.
  Transform origin;
  /// Unit axis in the joint frame (ignored for fixed joints).
  Vec3 axis = Vec3::UnitX();
  /// Position limits (radians or metres); ±infinity for continuous joints.
  double lower = -std::numeric_limits<double>::infinity();
  double upper = std::numeric_limits<double>::infinity();
  /// Velocity limit (rad/s or m/s, > 0): the URDF's <limit velocity>;
  /// +infinity when it gives none, or 0 (which exporters write for "not
  /// given": a joint that may not move at all is a fixed joint).
  double velocity = std::numeric_limits<double>::infinity();
  /// Effort limit (N m or N, > 0): the URDF's <limit effort>; +infinity when
  /// it gives none, or 0 (read like velocity's 0: "not given").
  double effort = std::numeric_limits<double>::infinity();
  /// Viscous damping (N m s/rad or N s/m) and Coulomb friction (N m or N),
  /// both ≥ 0: the URDF's <dynamics damping friction>, 0 when absent.
  double damping = 0.0;
  double friction = 0.0;
  /// Set for a joint that follows another (e.g. the second finger of a
  /// gripper); such a joint takes no entry in the joint vector. A mimic
  /// element on a fixed joint is ignored (a fixed joint has no position; the
  /// Panda URDF this project tests with has one).
  std::optional<Mimic> mimic;
  SourceLocation where;
  // Filled in by RobotModel:
  int parent_link = -1;
  int child_link = -1;
  /// Index into the joint vector of the variable that drives this joint
  /// (for a mimic joint: of the joint it ultimately follows); −1 for fixed.
  int variable = -1;
  /// Position = variable_multiplier · q[variable] + variable_offset
  /// (1 and 0 unless the joint mimics another, chains composed).
  double variable_multiplier = 1.0;
  double variable_offset = 0.0;
};

/// An immutable kinematic tree. Copies are independent values.
class RobotModel {
 public:
  /// Checks and links the tree. Throws proxima::Error naming the element,
  /// its source location and the reason for: an empty name or duplicate
  /// link or joint name; a joint whose parent or child link does not exist;
  /// a link with two parent joints; a cycle; not exactly one root link; a
  /// non-finite origin; a zero or non-finite axis of a moving joint; limits
  /// that are not finite with lower ≤ upper for revolute and prismatic
  /// joints; a velocity limit that is not positive (+infinity: none); a
  /// mimic naming a missing or fixed joint, or a cycle of mimics; an effort
  /// limit that is not positive, a damping or friction that is negative or
  /// not finite; a link whose mass is negative or not finite, whose inertial
  /// origin is not finite, or whose inertia is not finite, not symmetric, not
  /// positive semi-definite or breaks the triangle inequality.
  /// `where` (the <robot> element) is named by the errors about the whole
  /// tree: no link, no root, several roots.
  RobotModel(std::string name, std::vector<Link> links, std::vector<Joint> joints, const SourceLocation& where = {});

  const std::string& name() const { return name_; }
  const std::vector<Link>& links() const { return links_; }
  const std::vector<Joint>& joints() const { return joints_; }
  const Link& link(int i) const { return links_[static_cast<std::size_t>(i)]; }
  const Joint& joint(int i) const { return joints_[static_cast<std::size_t>(i)]; }
  /// Index of the named link or joint, −1 when there is none.
  int link_index(std::string_view name) const;
  int joint_index(std::string_view name) const;
  int root_link() const { return root_; }

  /// The joint vector's layout: one variable per revolute, continuous or
  /// prismatic joint that does not mimic another, in the order the joints
  /// were given (URDF document order).
  std::size_t variable_count() const { return variable_joints_.size(); }
  /// The joint index of variable i.
  int variable_joint(std::size_t i) const { return variable_joints_[i]; }
  /// The joint names in joint-vector order.
  std::vector<std::string> variable_names() const;

  /// Joints ordered parents first (each joint after the joint of its parent
  /// link), the order forward kinematics walks.
  const std::vector<int>& topological_joints() const { return topo_; }

  /// True when the two links are joined by a joint (either is the other's parent).
  bool adjacent(int link_a, int link_b) const;

  /// The joints in topological order with their motion folded into their
  /// origin, as forward_kinematics evaluates them (kinematics.cpp).
  const std::vector<detail::FkStep>& fk_steps() const { return *fk_steps_; }

 private:
  std::string name_;
  std::vector<Link> links_;
  std::vector<Joint> joints_;
  std::vector<int> variable_joints_;
  std::vector<int> topo_;
  int root_ = -1;
  std::shared_ptr<const std::vector<detail::FkStep>> fk_steps_;  // immutable, so copies share it
};

}  // namespace proxima::robot
