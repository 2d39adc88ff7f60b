// SPDX-License-Identifier: BSD-3-Clause
// A rigid body of the simulator: geometry, mass, pose and velocity.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <proxima/contact/contact.hpp>
#include <proxima/core/transform.hpp>
#include <proxima/mesh/bvh.hpp>
#include <proxima/mesh/mesh_contacts.hpp>
#include <proxima/shape/shape.hpp>

namespace proxima::sim {

/// What a body collides with: a convex Shape (ConvexGeometry) or a triangle
/// mesh with a boundary layer (MeshGeometry, BLEM contacts + clustering).
class Geometry {
 public:
  virtual ~Geometry() = default;
  /// Bounding box in world frame at `pose`, margin included; may be
  /// unbounded (a halfspace), which keeps the body out of the AABB tree.
  virtual Aabb world_aabb(const Transform& pose) const = 0;
  /// Unit-density mass properties of the core (throws proxima::Error when
  /// the geometry has no finite volume, e.g. a halfspace).
  virtual MassProperties mass_properties() const = 0;
  /// Contact manifold against `other` (normal from other to this, as the
  /// `contacts` query), refilling `out`.
  virtual void contacts(const Transform& pose, const Geometry& other, const Transform& other_pose,
                        const ContactOptions& options, ContactSet& out) const = 0;
  /// The convex shape, or nullptr when the geometry is not one.
  virtual const Shape* convex() const { return nullptr; }
  /// The mesh hierarchy, or nullptr when the geometry is not a mesh.
  virtual const Bvh* mesh() const { return nullptr; }
  /// Mesh geometries: at most this many contacts per body pair after
  /// clustering (the pair uses the smaller of its two meshes' limits);
  /// 0 for convex geometry.
  virtual int max_contacts() const { return 0; }
  /// A mesh body's contacts from feature pairs (MeshContactOptions::
  /// feature_pairs): a pair uses them when either body asks.
  virtual bool feature_pairs() const { return false; }
};

/// Any convex Shape (with its margin) through proxima::contacts.
class ConvexGeometry final : public Geometry {
 public:
  explicit ConvexGeometry(Shape shape) : shape_(std::move(shape)) {}
  Aabb world_aabb(const Transform& pose) const override { return shape_.world_aabb(pose); }
  MassProperties mass_properties() const override { return shape_.mass_properties(); }
  void contacts(const Transform& pose, const Geometry& other, const Transform& other_pose,
                const ContactOptions& options, ContactSet& out) const override;
  const Shape* convex() const override { return &shape_; }

 private:
  Shape shape_;
};

/// A triangle mesh ⊕ ball(margin) (the BLEM boundary layer,
/// TriangleMesh::margin()), colliding through proxima::mesh_contacts:
/// every triangle pair (or triangle–convex / vertex–halfspace pair) whose
/// cores are within r_A + r_B + contact margin is a contact, normal B→A,
/// depth = r_A + r_B − core distance (positive once the layers overlap),
/// clustered to at most max_contacts per pair. A resting mesh therefore
/// floats with its core about r_A + r_B above its support: the layers are
/// the contact surface. Mass properties are those of the enclosed solid of
/// a closed mesh; an open mesh has none (mass_properties() throws), so it is
/// static or needs an explicit mass and inertia.
class MeshGeometry final : public Geometry {
 public:
  /// Throws proxima::Error when max_contacts < 1. `feature_pairs`: the
  /// raw contacts from feature pairs (MeshContactOptions::feature_pairs).
  explicit MeshGeometry(std::shared_ptr<const Bvh> bvh, int max_contacts = 20, bool feature_pairs = false);
  Aabb world_aabb(const Transform& pose) const override { return bvh_->mesh().local_aabb().transformed(pose); }
  MassProperties mass_properties() const override;
  void contacts(const Transform& pose, const Geometry& other, const Transform& other_pose,
                const ContactOptions& options, ContactSet& out) const override;
  const Bvh* mesh() const override { return bvh_.get(); }
  int max_contacts() const override { return max_contacts_; }
  bool feature_pairs() const override { return feature_pairs_; }

 private:
  std::shared_ptr<const Bvh> bvh_;
  int max_contacts_;
  bool feature_pairs_;
};

/// Mass and inertia about the centre of mass, in the geometry's local axes.
struct MassSpec {
  double mass = 0.0;
  Vec3 com = Vec3::Zero();        ///< centre of mass in the geometry frame
  Mat3 inertia = Mat3::Zero();    ///< about com, geometry axes
};

/// Mass properties of `g` scaled by `density` (kg/m³). Throws proxima::Error
/// for a non-positive or non-finite density or a geometry without volume.
MassSpec mass_from_density(const Geometry& g, double density);

/// One pose of a keyframed kinematic path: at time t (s, world time) the
/// geometry frame is at p with orientation q (unit, w first).
struct Keyframe {
  double t = 0.0;
  Vec3 p = Vec3::Zero();
  Quat q = Quat::Identity();
};

/// A scripted motion (Body::kinematic). Either a constant twist — the
/// geometry frame's origin moves at `velocity` and the frame turns at
/// `angular_velocity` about that origin, both world frame — or, when
/// `keyframes` is not empty, a path through the keyframes: position linear
/// and orientation slerped between consecutive keyframes, held at the first
/// keyframe before its time and at the last one after it. A keyframed path
/// has no twist of its own (both vectors zero); its velocity in a step is
/// the one that carries the pose from the path's pose at the step's start to
/// the one at its end (the segment's velocity inside a segment).
struct KinematicPath {
  Vec3 velocity = Vec3::Zero();
  Vec3 angular_velocity = Vec3::Zero();
  std::vector<Keyframe> keyframes;

  /// Throws proxima::Error (message "kinematic.<field>: reason") for a
  /// non-finite twist, a twist given with keyframes, keyframe times not
  /// finite or not strictly increasing, a quaternion whose norm is not 1
  /// within 1e-6, or a position beyond ±1e15 m.
  void validate() const;
  /// Pose of a keyframed path at time t (keyframes must not be empty).
  Transform keyframe_pose(double t) const;
  /// Pose after `dt` seconds from `pose` at time `t`: the keyframed pose at
  /// t + dt, or `pose` moved by the constant twist for dt.
  Transform advance(const Transform& pose, double t, double dt) const;
};

/// One value of a LoadSchedule: the load at time t (s, world time).
struct LoadKey {
  double t = 0.0;
  Vec3 value = Vec3::Zero();
};

/// A force or torque that varies in time (Body::force_schedule,
/// torque_schedule): piecewise linear through its keys, held at the first
/// key's value before it and at the last one's after it.
struct LoadSchedule {
  std::vector<LoadKey> keys;

  /// Throws proxima::Error ("<name>[i].t: reason") for times not finite or
  /// not strictly increasing and values not finite.
  void validate(const std::string& name) const;
  /// The load at time t (keys must not be empty).
  Vec3 at(double t) const;
  /// The exact mean over [t0, t1], t1 > t0: ∫ load dt / (t1 − t0). A step
  /// applies this mean, so the impulse over any span of steps is the exact
  /// integral of the schedule.
  Vec3 mean(double t0, double t1) const;
};

struct Body {
  std::string name;
  std::shared_ptr<const Geometry> geometry;
  /// Ignored for static and kinematic bodies (infinite mass).
  MassSpec mass;
  bool is_static = false;
  /// A kinematic body follows this path whatever touches it: infinite mass
  /// in contacts, its path's velocity in the contact constraints (a belt
  /// carries what lies on it by friction, a pusher pushes). It meets no
  /// static or kinematic body. Not combined with is_static; `mass`, `force`
  /// and `torque` are ignored. The world keeps linear_velocity and
  /// angular_velocity at the path's velocity of the current step
  /// (linear_velocity is then the geometry frame origin's).
  std::optional<KinematicPath> kinematic;
  /// Pose of the geometry frame (the shape's local origin), not of the COM.
  Transform pose;
  /// Velocity of the centre of mass and angular velocity, world frame.
  Vec3 linear_velocity = Vec3::Zero();
  Vec3 angular_velocity = Vec3::Zero();
  /// External force at the centre of mass and torque, world frame (N, N·m),
  /// applied every step on top of gravity; ignored for static and kinematic bodies.
  Vec3 force = Vec3::Zero();
  Vec3 torque = Vec3::Zero();
  /// When not empty, the force (torque) follows this schedule: each step
  /// sets `force` (`torque`) to the schedule's mean over the step.
  LoadSchedule force_schedule;
  LoadSchedule torque_schedule;

  /// Static or kinematic: no contact or force changes its motion.
  bool infinite_mass() const { return is_static || kinematic.has_value(); }
  Vec3 com_position() const { return pose.apply(mass.com); }
  /// Inverse inertia in world axes (zero for a static or kinematic body).
  Mat3 inverse_inertia_world() const;
  Mat3 inertia_world() const { return pose.R * mass.inertia * pose.R.transpose(); }
  double inverse_mass() const { return infinite_mass() ? 0.0 : 1.0 / mass.mass; }
  /// Zero for static and kinematic bodies (they have no finite mass).
  double kinetic_energy() const;
};

/// A body with convex geometry. Throws proxima::Error naming the body for a
/// bad density.
Body make_body(std::string name, Shape shape, double density, const Transform& pose, bool is_static = false);

}  // namespace proxima::sim
