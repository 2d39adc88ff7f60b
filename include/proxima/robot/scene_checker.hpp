// SPDX-License-Identifier: BSD-3-Clause
// Scene checker: for a robot at a joint vector, which links collide with
// each other or with the environment, how close they come, and whether
// anything is within a tolerance — the clash / distance / tolerance queries
// of the watchdog paper for one configuration.
//
// Each query walks the link pairs (self: pairs of links with geometry that
// the allowed-collision matrix does not allow; environment: every link with
// geometry against every object but those it may touch), skips pairs whose
// world AABBs are too far apart to matter (for the environment, through the
// box hierarchy of a PreparedEnvironment, or by looking at every object of
// a plain Environment), and asks the narrow phase (query.hpp, mesh_queries.hpp)
// about each pair of their shapes. Distances are the narrow phase's
// `distance` between the shapes with their margins (a link's safety margin
// shrinks every distance it takes part in by that margin): 0 for touching or
// overlapping pairs, no penetration depth.
//
// check_motion asks the same of a straight joint-space segment at every
// point of it, not at samples (conservative advancement,
// src/robot/motion_check.cpp).
//
// Nothing here throws once the checker is built: a bad joint vector, base
// pose, environment pose or tolerance gives Status::invalid_input with a
// message; a narrow-phase status other than ok is passed on (the first one
// met) while the remaining pairs are still checked. No result holds a NaN.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <proxima/core/error.hpp>
#include <proxima/robot/collision_matrix.hpp>
#include <proxima/robot/environment.hpp>
#include <proxima/robot/link_geometry.hpp>
#include <proxima/robot/prepared_environment.hpp>

namespace proxima::robot {

namespace detail {
struct SweepGeometry;
struct KnownPair;
struct BatchWalk;
}

class SpherePrefilter;
enum class BatchAnswer : std::uint8_t;  // robot/batch_check.hpp

/// The robot placed at one joint vector: link poses and world bounds.
struct RobotState {
  Status status = Status::ok;
  std::string message;                 ///< why, when status is not ok
  std::vector<Transform> link_poses;   ///< per link, world frame
  std::vector<Aabb> link_boxes;        ///< per link: union of its shapes' world AABBs (empty: no geometry)
  /// World pose and AABB of each shape, link by link: link i's shapes are
  /// [shape_begin[i], shape_begin[i + 1]).
  std::vector<std::size_t> shape_begin;
  std::vector<Transform> shape_poses;
  std::vector<Aabb> shape_boxes;
};

/// A link and what it meets: another link (self queries) or an environment
/// object (environment queries).
struct PairId {
  int link = -1;
  int other = -1;  ///< link index (self) or object index (environment)
  std::string link_name;
  std::string other_name;
};

struct CollisionReport {
  Status status = Status::ok;
  std::string message;
  /// Every colliding pair, in pair order (self: link indices ascending).
  std::vector<PairId> pairs;
  bool collide() const { return !pairs.empty(); }
};

struct DistanceReport {
  Status status = Status::ok;
  std::string message;
  /// False when there was no pair to measure (a robot without two checked
  /// links, an empty environment); distance is then +infinity.
  bool found = false;
  double distance = std::numeric_limits<double>::infinity();  ///< ≥ 0, 0 when touching or overlapping
  PairId pair;
  Vec3 point_link = Vec3::Zero();   ///< world witness point on pair.link
  Vec3 point_other = Vec3::Zero();  ///< world witness point on the other link or object
};

struct ToleranceReport {
  Status status = Status::ok;
  std::string message;
  /// Some pair is at distance ≤ tolerance (early exit at the first one).
  bool within = false;
  bool self = false;  ///< the pair found is a link pair (else link–object)
  PairId pair;
};

struct MotionCheckOptions {
  /// The motion collides where some checked pair comes within `clearance`
  /// (m, ≥ 0; link margins count as in the discrete queries).
  double clearance = 0.0;
  /// The reported s has some pair at a distance in [clearance, clearance +
  /// accuracy] (m, > 0). Smaller costs iterations, each closing a fraction
  /// of the remaining gap.
  double accuracy = 1e-4;
  /// Configurations examined at most (> 0).
  int max_iterations = 1000;
  /// Check the self pairs as well as the link–object pairs.
  bool self = true;
};

/// The straight joint-space segment q(s) = q0 + s (q1 − q0), s ∈ [0, 1],
/// checked continuously.
struct MotionCheck {
  Status status = Status::ok;
  std::string message;
  /// Some pair comes within clearance on the segment. Also true when the
  /// iteration cap (status not_converged) or a narrow-phase distance whose
  /// status is not ok (not_converged: an upper bound only; that status)
  /// ended the search: s is then a proven lower bound and contact after it
  /// is not ruled out.
  bool collide = false;
  /// collide: every pair is farther than clearance on [0, s), and `pair` is
  /// within clearance + accuracy at s (or at s = 0 already within
  /// clearance: the start collides). Not colliding: 1.
  double s = 1.0;
  /// collide: the pair at s (not_converged: the pair that held the last
  /// step back), its distance and world witness points.
  bool self = false;  ///< the pair is a link pair (else link–object)
  PairId pair;
  double distance = std::numeric_limits<double>::infinity();
  Vec3 point_link = Vec3::Zero();
  Vec3 point_other = Vec3::Zero();
  int iterations = 0;        ///< configurations examined
  int distance_queries = 0;  ///< narrow-phase shape-pair distance queries
};

/// Immutable once built: its queries may run from many threads at once
/// (each call allocates its own scratch).
class SceneChecker {
 public:
  /// Throws proxima::Error when the matrix is not sized for the model.
  SceneChecker(RobotGeometry geometry, AllowedCollisionMatrix acm);

  const RobotGeometry& geometry() const { return geometry_; }
  const RobotModel& model() const { return geometry_.model(); }
  const AllowedCollisionMatrix& allowed() const { return acm_; }
  /// The link pairs self queries check: (a, b), a < b, both with geometry,
  /// not allowed to collide.
  const std::vector<std::pair<int, int>>& self_pairs() const { return self_pairs_; }

  /// Forward kinematics and bounds; invalid_input for a bad q or base.
  RobotState state(std::span<const double> q, const Transform& base = Transform::identity()) const;
  /// As above, refilling `out` (no allocation once its vectors have grown:
  /// keep one per thread for a planner's millions of checks).
  void state(std::span<const double> q, const Transform& base, RobotState& out) const;
  /// state(q, base, out) for the links of the bit mask `links` alone (bit
  /// i: link i): their poses, boxes and shapes' poses and boxes, bit for
  /// bit what state() makes, from the forward kinematics of the joints on
  /// their chains only; the other links' entries are left as they were.
  /// Refuses a bad q or base as state() does, and a shape pose out of range
  /// among these links only (state() looks at every link). A robot of more
  /// than 64 links gets the whole state. Throws proxima::Error for a bit
  /// that names no link.
  void state_of(std::span<const double> q, const Transform& base, std::uint64_t links, RobotState& out) const;

  CollisionReport self_collision(const RobotState& s) const;
  CollisionReport environment_collision(const RobotState& s, const Environment& env) const;
  DistanceReport self_distance(const RobotState& s) const;
  DistanceReport environment_distance(const RobotState& s, const Environment& env) const;
  /// Is any checked link pair or link–object pair within `tolerance` (≥ 0)?
  ToleranceReport tolerance(const RobotState& s, const Environment& env, double tolerance) const;

  /// The same three against a PreparedEnvironment: the objects near each
  /// link come from its hierarchy, and the poses were checked once, when it
  /// was made. The answers are the Environment overloads' (the same pairs
  /// in the same order, the same distances); only the work differs.
  CollisionReport environment_collision(const RobotState& s, const PreparedEnvironment& env) const;
  DistanceReport environment_distance(const RobotState& s, const PreparedEnvironment& env) const;
  ToleranceReport tolerance(const RobotState& s, const PreparedEnvironment& env, double tolerance) const;
  /// The tolerances tolerance() accepts: finite, in [0, kMaxLength] m.
  static bool valid_tolerance(double tolerance);

  /// Continuous check of the joint-space segment q0 → q1 (the robot's root
  /// at `base` throughout) against itself and `env`: conservative
  /// advancement for articulated bodies (Zhang, Redon, Lee, Manocha 2006),
  /// which never steps over a contact however thin the obstacle or long
  /// the segment. invalid_input with a message for a bad q0, q1, base,
  /// environment pose or option.
  MotionCheck check_motion(std::span<const double> q0, std::span<const double> q1, const Environment& env,
                           const MotionCheckOptions& options = {},
                           const Transform& base = Transform::identity()) const;
  /// The same against a PreparedEnvironment: only the objects a link can
  /// reach during the motion are tracked, found through the hierarchy.
  MotionCheck check_motion(std::span<const double> q0, std::span<const double> q1, const PreparedEnvironment& env,
                           const MotionCheckOptions& options = {},
                           const Transform& base = Transform::identity()) const;

  /// Why an object's touch links cannot be used with this robot (a name
  /// that is no link of it), or nullopt: what every environment query
  /// checks first, for a caller who wants to refuse a scene up front.
  std::optional<std::string> touch_error(const Environment& env) const;
  /// Only the objects with touch links, which the prepared scene lists.
  std::optional<std::string> touch_error(const PreparedEnvironment& env) const;

  /// The spheres of check_configurations' prefilter (sphere_prefilter.hpp),
  /// fitted on first use (from any thread) and shared by copies.
  const SpherePrefilter& sphere_prefilter() const;

 private:
  std::optional<std::string> touch_error(const EnvironmentObject& object) const;
  /// Link `link` may touch `object`: the pair is not checked.
  bool touch_allowed(std::size_t link, const EnvironmentObject& object) const;

  /// A lower bound on the distance between shape k of a state and another
  /// robot shape or an object from their oriented boxes (broad/obb.hpp;
  /// −inf when one has none): a link's world AABB is loose once the link
  /// turns off the world axes.
  double shapes_gap(const RobotState& s, std::size_t k, std::size_t other) const;
  double shape_gap(const RobotState& s, std::size_t k, const EnvironmentObject& object) const;

  // The environment queries proper, on the objects and their index: a
  // PreparedEnvironment's, or a flat one made for the call.
  CollisionReport collision_near(const RobotState& s, const std::vector<EnvironmentObject>& objects,
                                 const broad::BoxTree& index) const;
  DistanceReport distance_near(const RobotState& s, const std::vector<EnvironmentObject>& objects,
                               const broad::BoxTree& index) const;
  ToleranceReport tolerance_near(const RobotState& s, const std::vector<EnvironmentObject>& objects,
                                 const broad::BoxTree& index, double tolerance) const;
  /// tolerance_near's pair tests: self pair k, and link l against object o
  /// (their boxes within the tolerance). True, with the pair's indices in
  /// `r` (name_pair adds its names), when within; every narrow-phase status
  /// is noted in r.status.
  bool self_pair_within(const RobotState& s, std::size_t k, double tolerance, ToleranceReport& r) const;
  bool object_pair_within(const RobotState& s, std::size_t l, std::size_t o,
                          const std::vector<EnvironmentObject>& objects, const broad::BoxTree& index,
                          double tolerance, ToleranceReport& r) const;
  /// The names of the pair a report within holds (r.pair's link and other).
  void name_pair(ToleranceReport& r, const std::vector<EnvironmentObject>& objects) const;
  /// tolerance(state(q, base), env, tolerance) for a valid q, base,
  /// tolerance and env, given the pairs not proven apart (`known`, in the
  /// walk's order, src/robot/pair_verdicts.hpp): the state (into `s`) and
  /// the narrow phase only for the open ones.
  /// `in_range`: the prefilter placed every link origin of q within its
  /// working range, so no shape pose of q is out of range (is_valid) and
  /// the state may be made for the open pairs' links alone (state_of).
  /// `any_pair`: a pair proven within answers at once, wherever it is in
  /// `known` (the row is within; the pair named may not be the walk's first).
  /// `names`: the pair within is named; without, it has its indices alone
  /// (labels that drop the pair need no strings made).
  ToleranceReport tolerance_known(std::span<const double> q, const Transform& base, const PreparedEnvironment& env,
                                  double tolerance, std::span<const detail::KnownPair> known, bool in_range,
                                  bool any_pair, bool names, RobotState& s) const;
  /// Shape k's world pose and box in s from its link's pose, its box added
  /// to the link's: state()'s and state_of's one arithmetic. False when the
  /// pose is out of range.
  bool place_shape(std::size_t k, RobotState& s) const;
  /// The batch queries' walk (src/robot/batch_check.cpp).
  friend struct detail::BatchWalk;
  MotionCheck motion_near(std::span<const double> q0, std::span<const double> q1,
                          const std::vector<EnvironmentObject>& objects, const broad::BoxTree& index,
                          const MotionCheckOptions& options, const Transform& base) const;

  RobotGeometry geometry_;
  AllowedCollisionMatrix acm_;
  std::vector<std::pair<int, int>> self_pairs_;
  /// Per-link reach about the joints that move it, for check_motion.
  std::shared_ptr<const detail::SweepGeometry> sweep_;
  /// Each shape's link, origin and local box, link by link as in RobotState.
  struct Placement {
    std::size_t link = 0;
    bool at_link_origin = false;  ///< origin is exactly the identity
    bool bounded = false;         ///< local_box is non-empty and finite
    Transform origin;
    Aabb local_box;
    Vec3 center, half;  ///< of local_box
  };
  std::vector<Placement> placements_;
  std::vector<std::size_t> shape_begin_;
  /// Per link, the forward-kinematics steps on its chain from the root (bit
  /// k: RobotModel::fk_steps()[k]); empty for a robot of more than 64
  /// links, whose checks always make the whole state.
  std::vector<std::uint64_t> link_steps_;
  /// sphere_prefilter(), made once: fitting costs milliseconds that a
  /// checker used only for single queries should not pay.
  struct PrefilterSlot {
    std::once_flag once;
    std::unique_ptr<const SpherePrefilter> value;
    PrefilterSlot();
    ~PrefilterSlot();
  };
  std::shared_ptr<PrefilterSlot> prefilter_;
};

}  // namespace proxima::robot
