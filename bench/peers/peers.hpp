// SPDX-License-Identifier: BSD-3-Clause
// Adapters that run one Workload through other collision libraries, so the
// benchmark can put their distances and timings next to Proxima's.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "workload.hpp"

namespace proxima::bench {

/// Each run_* builds the peer's shapes once, then for every pose sets the
/// transforms (untimed), makes one untimed query whose result is reported,
/// and times `repeats` further identical queries. `median_ns` is the median
/// over poses of the per-query mean. Separated shapes give positive
/// distances; where a peer can also report penetration, overlap gives the
/// negated depth.

/// fcl::distance with nearest points. Separated poses use FCL's default
/// unsigned request (with its closed-form pair shortcuts); overlapping poses
/// switch to enable_signed_distance, noted in the cell.
PeerCell run_fcl_libccd(const Workload& work, int repeats);
PeerCell run_fcl_indep(const Workload& work, int repeats);
/// libccd has no separation-distance query: overlapping poses give -depth
/// from ccdGJKPenetration, separated poses are NaN (see the cell's note).
PeerCell run_libccd(const Workload& work, int repeats);
/// Bullet with zero margins (sphere and capsule keep theirs: it is their
/// radius). Ellipsoids are unsupported: Bullet has no exact one.
PeerCell run_bullet_gjk_pair(const Workload& work, int repeats);
/// btGjkEpaSolver2::Distance, falling back to Penetration when the cores overlap.
PeerCell run_bullet_epa_distance(const Workload& work, int repeats);

/// Penetration-depth adapters, for workloads whose poses overlap. Each reports
/// per pose the signed distance (negative = -depth) in `distances` and, where
/// the API yields a direction, the unit normal from B to A in `normals`
/// (translating A by depth * normal separates the shapes); every library's
/// own convention is converted to that one. A pose the peer finds separated
/// or not in contact is NaN and counted as a failure, with a note.

/// ccdGJKPenetration (GJK + EPA) and ccdMPRPenetration; the normal is minus
/// libccd's `dir` (the direction in which B, obj2, moves out).
PeerCell run_ccd_gjk_depth(const Workload& work, int repeats);
PeerCell run_ccd_mpr_depth(const Workload& work, int repeats);
/// fcl::distance with enable_signed_distance on every pose; FCL gives no
/// normal, so it is derived from the nearest points as (p_a - p_b) / distance.
PeerCell run_fcl_libccd_signed(const Workload& work, int repeats);
PeerCell run_fcl_indep_signed(const Workload& work, int repeats);
/// fcl::collide with enable_contact: minus the first contact's
/// penetration_depth and minus its normal (FCL's points from o1 to o2, as
/// documented). Reported as FCL gives them: where FCL 0.7's GST_INDEP EPA
/// path stores a negative depth (and a normal in A's local frame), the cell
/// shows a positive distance and says so in its note.
PeerCell run_fcl_libccd_contact(const Workload& work, int repeats);
PeerCell run_fcl_indep_contact(const Workload& work, int repeats);
/// btGjkEpaSolver2::Penetration (results.normal points from B to A but is
/// expressed in A's local frame, so it is rotated by A's pose) and
/// btGjkPairDetector with btGjkEpaPenetrationDepthSolver
/// (btPointCollector::m_normalOnBInWorld: world, B to A, taken as is). Same
/// shapes and margins as the distance adapters; no ellipsoid.
PeerCell run_bullet_epa_depth(const Workload& work, int repeats);
PeerCell run_bullet_pair_depth(const Workload& work, int repeats);
#ifdef PROXIMA_HAVE_ODE
/// ODE dCollide(A, B) with up to 16 contacts: the deepest contact's depth and
/// normal (ODE's normal already points from B to A: moving o1 along it by
/// depth separates). No ellipsoid; a pair this ODE build has no collider for
/// (found by a probe at a surely overlapping pose) is unsupported. Convex
/// shapes go in as dCreateConvex with the hull's coplanar triangles merged.
PeerCell run_ode(const Workload& work, int repeats);

/// Proxima and ODE timed alternately, pose by pose, in this process: rows
/// measured minutes apart on a shared machine differ by up to 2× on 20 ns
/// queries, pairs of batches a microsecond apart do not. Per round, every
/// pose runs `repeats` of `ours(pose)`'s queries, then `repeats` dCollide
/// calls on geoms placed once (contact buffer kept), then `repeats` of
/// dGeomSetPosition + dGeomSetRotation on both geoms and dCollide: a query
/// at a new pose, which is what one `signed_distance` call is (ODE keeps
/// poses in its geoms; the rotation goes in as the matrix our Transform
/// holds, so ODE converts nothing). The result is the median over `rounds`
/// of each side's mean ns per query, and of the ratios.
struct Duel {
  bool supported = false;
  std::string note;
  double proxima_ns = 0.0, ode_ns = 0.0, ode_placed_ns = 0.0;
  double ratio = 0.0, ratio_lo = 0.0, ratio_hi = 0.0;  ///< Proxima / ODE's dCollide: median, min, max over rounds
  double placed_ratio = 0.0, placed_lo = 0.0, placed_hi = 0.0;  ///< Proxima / ODE's pose setting + dCollide
};
/// `ours(i, repeats)` runs Proxima's query on pose i `repeats` times.
Duel duel_ode(const Workload& work, int repeats, int rounds, void (*ours)(void* ctx, std::size_t i, int repeats),
              void* ctx);
#endif

#ifdef PROXIMA_HAVE_COAL
/// Coal (coal_peer.cpp): a coal::ComputeDistance functor built once per
/// workload, called per query with the two transforms; EPA's iteration cap
/// raised to detail::coal_epa_iterations. Distance: min_distance. Depth:
/// the signed min_distance and minus Coal's normal (o1 to o2), and the same
/// through coal::ComputeCollision with one contact.
PeerCell run_coal_distance(const Workload& work, int repeats);
PeerCell run_coal_signed(const Workload& work, int repeats);
PeerCell run_coal_contact(const Workload& work, int repeats);
#endif
#ifdef PROXIMA_HAVE_MUJOCO
/// MuJoCo (mujoco_peer.cpp): a model compiled once per workload with the two
/// shapes as geoms of two free bodies; per pose (untimed) qpos is set and
/// mj_kinematics run. Distance: mj_geomDistance alone (distmax 100; a
/// result at distmax is a failure). Depth: mj_geomDistance's negative
/// result with the normal from its fromto segment, and mj_collision (broad
/// and narrow phase through mjData) with the deepest contact. No halfspace.
PeerCell run_mujoco_distance(const Workload& work, int repeats);
PeerCell run_mujoco_signed(const Workload& work, int repeats);
PeerCell run_mujoco_collision(const Workload& work, int repeats);
#endif

/// One peer solver with the labels its cells carry, so a crashed run can
/// still be attributed.
struct Peer {
  std::string library;
  std::string solver;
  PeerCell (*run)(const Workload&, int repeats);
};

/// Every distance adapter above, in a stable order.
const std::vector<Peer>& all_peers();
/// Every penetration-depth adapter above, in a stable order.
const std::vector<Peer>& all_depth_peers();

inline constexpr std::chrono::seconds default_peer_timeout{120};

/// Runs `fn` in a forked child and returns its cell. If the child dies by a
/// signal, exits non-zero, sends garbage or outlives `timeout` (then it is
/// killed), the result has `poses` NaN distances, failures = poses and a note
/// such as "crashed: signal 6 (SIGABRT)"; library and solver are left empty.
PeerCell run_isolated(const std::function<PeerCell()>& fn, std::size_t poses,
                      std::chrono::seconds timeout = default_peer_timeout);

/// run_isolated for one peer on one workload, labelled with the peer's names.
/// If the child dies by a signal, every pose is re-run in its own child so
/// that one aborting pose costs only itself; the note then reads e.g.
/// "crashed: signal 6 (SIGABRT) on 3 of 200 poses (...)". A timeout is not
/// retried pose by pose.
PeerCell run_peer_isolated(const Peer& peer, const Workload& work, int repeats,
                           std::chrono::seconds timeout = default_peer_timeout);

}  // namespace proxima::bench
