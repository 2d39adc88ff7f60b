// SPDX-License-Identifier: BSD-3-Clause
// The public face of Proxima: one entry point per question, dispatching once
// per call on the pair of shape types (see narrow/dispatch.hpp for the table).
//
// Conventions (docs/design.md): meters; the normal points from B to A, so moving A
// along +normal separates the pair; point_a lies on A and point_b on B, with
// point_b = point_a − distance · normal. Margins inflate each shape. Queries
// never throw and never return NaN: check `status`.
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include <proxima/contact/contact.hpp>
#include <proxima/core/error.hpp>
#include <proxima/core/motion.hpp>
#include <proxima/core/transform.hpp>
#include <proxima/narrow/gjk.hpp>
#include <proxima/shape/shape.hpp>

namespace proxima {

/// Algorithm choice. `automatic`: the exact closed form where one exists,
/// else GJK; overlapping cores then go to SAT for box–box and to EPA for the
/// rest. The others force one algorithm, for comparison:
/// `gjk` (GJK, then EPA when the cores overlap), `analytic` (closed forms
/// only), `sat` (box and polytope pairs; a polytope and a box, and a
/// polytope and a capsule or sphere, walk the polytope's Gauss-map cone
/// hierarchy instead of every facet pair), `incremental` (the SQP of the incremental
/// penetration depth paper over
/// MPR, warm-started from the cache's direction; where it cannot certify its
/// answer, the exact method: SAT for box and polytope pairs, and EPA for the
/// rest. A polytope against a capsule or a sphere, with overlapping cores,
/// goes straight to the SAT on the polytope's cone hierarchy with the warm
/// start's support value as its bound, and a polytope and a box to EPA: the
/// proof that certifies the SQP on those pairs costs as much as that SAT,
/// and the SQP 15–60 support calls more; see narrow/incremental_depth.hpp),
/// `mpr` (depth along the centre line, as libccd's MPR
/// penetration: an upper bound, not the minimum, answered with status
/// Status::upper_bound; the normal is the centre line, B's centre to A's, and
/// moving A by the depth along it separates the pair; a pair touching within
/// MPR's tolerance gets depth 0, the supporting plane's normal and `ok`; a
/// ray cast that does not converge leaves the answer to EPA). A
/// cache given with a polytope–capsule depth query is warm-started from and
/// receives the normal.
enum class Method { automatic, gjk, analytic, sat, incremental, mpr };

struct CollideRequest {
  Method method = Method::automatic;
  GjkCache* cache = nullptr;  ///< optional caller-owned warm start for this pair
};

struct CollideResult {
  Status status = Status::ok;
  bool collide = false;
  int iterations = 0;
};

struct PenetrationCache;
/// A cache `signed_distance` takes: a direction whose squared length is a
/// finite number, hints ≥ −1 and a valid GjkCache between the cores
/// (narrow/incremental_depth.hpp; defined in src/query.cpp).
bool penetration_cache_valid(const PenetrationCache& cache);

struct DistanceRequest {
  Method method = Method::automatic;
  GjkCache* cache = nullptr;  ///< optional caller-owned warm start for this pair
  /// Optional caller-owned coherence cache for one pair followed along a
  /// sequence of poses (a trajectory, a simulation, an optimiser's steps),
  /// for `signed_distance` with Method::automatic or Method::incremental
  /// only: any other query or method given one answers invalid_input. On a
  /// polytope against a capsule, a sphere or a box, a small motion of a pair
  /// that overlapped at the last query is answered from the cache by
  /// incremental_penetration's certified paths (narrow/incremental_depth.hpp:
  /// the coherence certificate, the cores' distance for a shallow contact),
  /// and an answer that cannot be certified so is the exact method's, as
  /// without a cache; every answer keeps the method's accuracy. Other pairs
  /// answer as without it and leave it as it was. A separated answer empties
  /// its direction, so that a pair apart pays nothing for it. One cache per
  /// pair, in the pair's order.
  PenetrationCache* penetration = nullptr;
  /// Early exit: once the distance is proven larger than this, stop and
  /// report `bound_exceeded` with `distance` a proven lower bound (> bound).
  double bound = std::numeric_limits<double>::infinity();
  /// GJK stops when its upper and lower distance bounds are within
  /// tol_abs + tol_rel · L, L the size of A − B: accuracy relative to the
  /// shapes' size at every scale (1e-10 m for metre-sized shapes).
  double tol_abs = 0.0;
  double tol_rel = 1e-10;
  int max_iterations = 128;

  /// A request the queries take: a method of the enum, tol_abs and tol_rel
  /// finite and ≥ 0 (both 0: GJK runs until it makes no progress or meets
  /// max_iterations), max_iterations ≥ 1, a bound that is a number (±∞
  /// allowed), no cache or a valid() one, no penetration cache or a valid
  /// one with Method::automatic or Method::incremental. Any other gives
  /// Status::invalid_input.
  bool valid() const {
    // Every query pays this, and a closed form costs a few nanoseconds: the
    // two tolerances take one integer comparison. The bits of a double with
    // its sign clear order as its value, +∞'s above every finite one and
    // NaN's above those; adding +0 clears the sign of −0.
    constexpr std::uint64_t kInfinityBits = 0x7ff0000000000000u;
    const std::uint64_t abs_bits = std::bit_cast<std::uint64_t>(tol_abs + 0.0);
    const std::uint64_t rel_bits = std::bit_cast<std::uint64_t>(tol_rel + 0.0);
    return std::max(abs_bits, rel_bits) < kInfinityBits &&
           static_cast<unsigned>(method) <= static_cast<unsigned>(Method::mpr) && max_iterations >= 1 &&
           !std::isnan(bound) && (cache == nullptr || cache->valid()) &&
           (penetration == nullptr || ((method == Method::automatic || method == Method::incremental) &&
                                       penetration_cache_valid(*penetration)));
  }
};

struct DistanceResult {
  Status status = Status::ok;
  /// `distance`: ≥ 0, zero when overlapping. `signed_distance`: negative
  /// when overlapping (−penetration depth).
  double distance = 0.0;
  /// Unit, from B to A, in every answer that has a status ok, not_converged
  /// or upper_bound. Separated: the direction of the closest points.
  /// Touching: the normal of a supporting plane between the two (a face
  /// contact: the face's normal; an edge or a vertex: one of the separating
  /// directions). Overlapping: the direction of least penetration (`distance`
  /// asks for it too, so that a touching pair has its plane's normal).
  Vec3 normal = Vec3::UnitX();
  /// On A's surface (margin included). Overlapping, with signed_distance: on
  /// A's support feature along −normal, over B's along +normal: the method's
  /// deepest point where it lies on both bodies, else the centroid of the
  /// vertices of the two features' overlap seen along the normal (a face on
  /// a face: the middle of the overlap patch). `distance` on an overlap: a
  /// point common to both bodies.
  Vec3 point_a = Vec3::Zero();
  Vec3 point_b = Vec3::Zero();   ///< on B's surface; point_a − point_b = distance · normal
  /// GJK iterations: 0 for closed forms, and for a pair parted past the
  /// bound at GJK's first support call.
  int iterations = 0;
  bool bound_exceeded = false;   ///< stopped early at DistanceRequest::bound
};

struct ToleranceResult {
  Status status = Status::ok;
  bool within = false;  ///< the distance (margins included) is at most the tolerance
  /// The bound that decided it: when within, an upper bound on the distance
  /// (≤ tolerance; 0 when overlapping); when not, a proven lower bound
  /// (> tolerance). Exact for closed-form pairs.
  double distance = 0.0;
  /// GJK iterations: 0 for closed forms, and for a pair parted past the
  /// tolerance at GJK's first support call.
  int iterations = 0;
};

struct TimeOfImpactRequest {
  /// The time reported is the first at which the distance (margins
  /// included) is within `clearance` (≥ 0): 0 asks for contact, 0.05 for
  /// the first moment the pair comes within 5 cm.
  double clearance = 0.0;
  /// Stop once the distance is at most clearance + accuracy (> 0, metres).
  /// Above GJK's own accuracy (1e-10 of the shapes' size) it sets the cost:
  /// each step closes a fixed fraction of the remaining gap.
  double accuracy = 1e-6;
  /// Each step closes a fraction of the gap; a pair turning and grazing, or a
  /// halfspace turning far from its origin, can take several hundred.
  int max_iterations = 1000;
};

struct TimeOfImpactResult {
  Status status = Status::ok;
  /// The pair comes within `clearance` during the motion. Also true, with
  /// status not_converged, when the iteration cap stopped the search: `time`
  /// is then a proven lower bound and contact after it is not ruled out.
  bool collide = false;
  /// collide: the first time in [0, 1] the distance is at most clearance +
  /// accuracy, and no earlier time has it below clearance. Not colliding: 1.
  double time = 1.0;
  /// The distance query at `witness_time` (the pose at impact when collide;
  /// else the last pose examined): distance, normal B→A, points.
  DistanceResult witness;
  double witness_time = 0.0;
  int iterations = 0;  ///< distance queries made
};

/// Do A and B (with margins) intersect or touch?
CollideResult collide(const Shape& a, const Transform& pose_a, const Shape& b,
                      const Transform& pose_b, const CollideRequest& request = {});

/// Distance between A and B with witness points; 0 for overlapping pairs,
/// whose points are then a common point. The normal of an overlapping pair
/// (a touching one's supporting plane) comes from the depth method the
/// request names, so an overlap costs about what signed_distance does.
DistanceResult distance(const Shape& a, const Transform& pose_a, const Shape& b,
                        const Transform& pose_b, const DistanceRequest& request = {});

/// Signed distance: as `distance` for separated pairs, −depth for
/// overlapping ones. Exact for every closed-form pair and every polyhedral
/// pair (SAT, or EPA, which is exact on polytopes); other pairs with
/// overlapping cores go through EPA (to 1e-7 relative; status
/// not_converged, with a finite upper bound on the depth, where it runs out
/// of room); Method::mpr answers its centre-line bound with status
/// upper_bound. not_implemented only where no depth exists:
/// two halfspaces that are not opposed, or a method forced on a pair it
/// does not apply to.
DistanceResult signed_distance(const Shape& a, const Transform& pose_a, const Shape& b,
                               const Transform& pose_b, const DistanceRequest& request = {});

/// Is the distance between A and B at most `tolerance` (≥ 0, metres)? The
/// safety-margin question: GJK stops as soon as either answer is proven, so
/// it costs at most what `distance` does. A negative or non-finite tolerance
/// gives Status::invalid_input. `request.bound` is ignored.
ToleranceResult tolerance(const Shape& a, const Transform& pose_a, const Shape& b, const Transform& pose_b,
                          double tolerance, const DistanceRequest& request = {});

/// Contact manifold (Contact data for convex polyhedra, §IV-E): the normal and signed distance of
/// `signed_distance`, and the vertices of the intersection of the two bodies'
/// support features on the contact plane, each with its own depth. Empty
/// when the pair is farther apart than options.margin. A box resting on a
/// box gives the corners of the overlap of the faces; a sphere one point; a
/// capsule lying on a face its two clipped segment ends; a cylinder standing
/// on a face the clipped polygon of options.disc_points rim points.
/// Guarantee (without reduction): if the relative velocity along the normal
/// is ≥ 0 at every returned point, the signed distance does not decrease.
/// An invalid pose or option (a negative or non-finite margin or feature
/// tolerance, fewer than 3 disc points, a negative max_points) gives
/// Status::invalid_input and no points.
ContactSet contacts(const Shape& a, const Transform& pose_a, const Shape& b,
                    const Transform& pose_b, const ContactOptions& options = {});
/// As above, refilling `out` (reusing its capacity: no allocation once warm).
void contacts(const Shape& a, const Transform& pose_a, const Shape& b, const Transform& pose_b,
              const ContactOptions& options, ContactSet& out);

/// Continuous collision: the first time in [0, 1] at which A, moving from
/// pose_a to pose_a_end, and B, moving from pose_b to pose_b_end, come within
/// request.clearance. Each body moves as RigidMotion::between its two poses
/// (origin on a line, constant angular velocity). Conservative advancement
/// (Mirtich 1996; Zhang et al. 2006, C²A): the distance d and normal n at the
/// current time, and a bound μ on how fast points of the pair can close along
/// n, allow a step of (d − clearance)/μ with no contact missed, however fast
/// either body turns. A rotating halfspace is advanced in the other body's
/// frame. Never misses a contact; never NaN.
TimeOfImpactResult time_of_impact(const Shape& a, const Transform& pose_a, const Transform& pose_a_end,
                                  const Shape& b, const Transform& pose_b, const Transform& pose_b_end,
                                  const TimeOfImpactRequest& request = {});

}  // namespace proxima
