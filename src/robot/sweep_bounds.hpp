// SPDX-License-Identifier: BSD-3-Clause
// How fast a link's points can move along a straight joint-space segment
// q(s) = q0 + s (q1 − q0): the speed bound conservative advancement for
// articulated bodies needs (Zhang, Redon, Lee, Manocha 2006).
//
// A point x of link i moves at dx/ds = Σ_j θ'_j a_j × (x − o_j) + Σ_p v'_p a_p
// over the revolute joints j and prismatic joints p on i's chain, with
// θ'_j = m_j Δq_var(j) constant along the segment (mimic joints included
// through their multiplier m_j). So |dx/ds| ≤ Σ_j |θ'_j| R_ji + Σ_p |v'_p|
// when R_ji bounds the distance from joint j's axis to every point of link
// i in every configuration of the segment. For the last moving joint above
// the link (its anchor) that distance is constant: the geometry is fixed in
// the anchor's child frame, so it is measured once. For a joint higher up,
// R_ji is the distance from its axis to the next joint's origin (constant:
// both are fixed in joint j's child link; a sliding next joint adds its
// largest |displacement| on the segment, affine in s and so largest at an
// end) plus the lengths of the hops between joint origins further down
// (constant offsets, plus the same slide term for prismatic joints) plus
// the reach of the link's geometry about its anchor's origin. Only the
// shapes' cores count: a shape is its core ⊕ a ball (margin, sphere
// radius), and its distance to anything, the core's less that radius,
// changes no faster than the core's points move. Joints that
// two links share move both rigidly and leave their distance unchanged, so
// a link pair counts only the joints below the last joint their chains
// share.
#pragma once

#include <span>
#include <vector>

#include <proxima/robot/link_geometry.hpp>

#include "pair_query.hpp"

namespace proxima::robot::detail {

/// The configuration-independent part, built once per robot.
struct SweepGeometry {
  /// Per link: the joints from the root down to its anchor, the last
  /// moving joint above it (fixed joints included, root first), stored
  /// flat: link i's are chain[chain_begin[i] .. chain_begin[i + 1]).
  std::vector<int> chain;
  std::vector<std::size_t> chain_begin;
  /// Per link: the largest distance from its anchor's child-frame origin
  /// to a point of its geometry's cores (margins and sphere radii left
  /// out: they add to every distance alike), and from the anchor's axis
  /// (through that origin); 0 for a link without geometry.
  std::vector<double> reach, axis_reach;
  /// Same indexing as chain: the first position of the run of turning
  /// joints just above this one whose axes are parallel to its own at
  /// q = 0 (its own position when there is none). Rotations about parallel
  /// axes keep them parallel in every configuration, so those joints never
  /// turn its axis: a planar arm's, or a UR arm's shoulder, elbow and first
  /// wrist joint.
  std::vector<std::size_t> parallel_from;
};

SweepGeometry sweep_geometry(const RobotGeometry& geometry);

/// Per-segment speed bounds. For chain position k (flat, as
/// SweepGeometry::chain; link i's run is k = chain_begin[i] + l, l < m_i),
/// tail[k + i] bounds the speed, per unit s, that the joints at positions
/// l, l + 1, … of link i's chain give its points; tail[chain_begin[i] + i +
/// m_i] = 0 (one entry past each link's run).
struct LinkSpeeds {
  std::vector<double> tail;
  /// Same indexing, positions l < m_i only: the joint at position l's own
  /// share of tail (|θ'_j| R_ji, or |v'_p| for a slide), and its |θ'_j|
  /// when it turns (0 otherwise).
  std::vector<double> term, spin;

  /// Bound on the speed of link i's points relative to the child frame of
  /// the first `shared` joints of its chain (0: relative to the world).
  double below(const SweepGeometry& g, int link, std::size_t shared) const;
};

/// Fills `out` (no allocation once sized) for the segment q0 → q1; both
/// must be valid joint vectors.
void link_speeds(const RobotModel& model, const SweepGeometry& g, std::span<const double> q0,
                 std::span<const double> q1, LinkSpeeds& out);

/// The directional form of the bound (C²A's, Tang, Kim, Manocha 2009, for
/// a chain). In the child frame F of the first `from` joints of a link's
/// chain (the world for from = 0; for a link pair, the joints both chains
/// share, which move the two rigidly together), fix a unit normal n. A
/// point's velocity in F is a sum of θ'_j a_j × r and v'_p a_p over the
/// joints below, whose components along n are at most |θ'_j| R_ji |n × a_j|
/// and |v'_p| |n · a_p|. Both factors are 1-Lipschitz in the angle of the
/// axis, which turns in F by at most turn_j t in a time t (the |θ'| of the
/// revolute joints between `from` and j, less those about axes locked
/// parallel to a_j: SweepGeometry::parallel_from), and at most 1; at s they are
/// frame-independent, so world axes and a world n serve. Over [s, s + h]
/// the link's points approach a plane of normal n, fixed in F, by at most
/// φ(h) = Σ_j term_j min(h, f_j h + turn_j h²/2). A joint whose axis lies
/// along n (a base turning a link above a table) adds little.
///
/// Approach holds φ's sums S = Σ term_j, F = Σ term_j f_j and T = Σ term_j turn_j over a
/// pair's links (both approach the plane, from either side). φ(h) ≤ S h and
/// φ(h) ≤ F h + T h²/2, so φ stays within a room up to the largest of the
/// roots (the third bound below included).
///
/// The extent bound. A point x moves along n, through joint j, at θ'_j w·n
/// with w = a_j × (x − o_j), and w·n = (x − o_j)·(n × a_j): the link's
/// extent along n × a_j about the axis, not its whole radius R_ji, is what
/// counts (a housing turning about its own axis beside a base has a small
/// one, though its far end moves fast). At s that extent is at most e_j,
/// the largest |(x − o_j)·(n × a_j)| over the corners of the shape's placed
/// local box.
/// Over the step w·n changes at most by R_ji per unit angle the joints from
/// `from` to j turn w (a parallel axis turns w too) and by the speed the
/// joints below j give x relative to j (LinkSpeeds::tail): rate G_j. So φ(h)
/// ≤ E h + U h²/2 with E = Σ |θ'_j| e_j and U = Σ |θ'_j| G_j (slides as in F
/// and T).
struct Approach {
  double speed = 0.0, along = 0.0, turning = 0.0;
  double extent = 0.0, extent_turning = 0.0;  ///< E and U

  /// Adds `link`'s joints from chain position `from` on, for normal n and
  /// the link poses at s; `shape` (the link's geometry, placed at
  /// `shape_pose`) gives the extents.
  void add(const RobotModel& model, const SweepGeometry& g, const LinkSpeeds& speeds, int link, std::size_t from,
           const Vec3& n, std::span<const Transform> link_poses, const Geometry& shape, const Transform& shape_pose);

  /// An h ≤ limit with φ(h) ≤ room, in closed form; never below the
  /// direction-free room / S.
  double horizon(double room, double limit) const;
};

/// How many joints the chains of links a and b share (from the root).
std::size_t shared_joints(const SweepGeometry& g, int a, int b);

}  // namespace proxima::robot::detail
