// SPDX-License-Identifier: BSD-3-Clause
// Contact-manifold results (the manifold benchmark): plain data, so peer
// adapters compile against their own library and this header alone.
//
// Convention every adapter converts to (Proxima's): one unit normal per pose
// pointing from B to A (translating A along it separates the pair); each
// point carries its own depth, positive = overlap along that normal. Point
// positions are converted to midway between the two surfaces where the
// library's convention says on which body its point lies; where it does not
// (ODE box-box puts the point on whichever box carries the clipped incident
// face), the position is kept and the adapter says so. Comparisons therefore
// use the points' projections onto the contact plane, which all of these
// conventions share: they differ only by an offset along the normal.
#pragma once

#include <algorithm>
#include <array>
#include <chrono>
#include <cstddef>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "peers.hpp"
#include "timing.hpp"
#include "workload.hpp"

namespace proxima::bench {

struct ManifoldPoint {
  std::array<double, 3> position{};
  double depth = 0.0;  ///< overlap along the normal (m), positive = overlap
};

/// One pose's manifold. No points = no contact reported (or the query failed).
struct Manifold {
  std::array<double, 3> normal{std::numeric_limits<double>::quiet_NaN(),
                               std::numeric_limits<double>::quiet_NaN(),
                               std::numeric_limits<double>::quiet_NaN()};  ///< unit, B to A
  std::vector<ManifoldPoint> points;
};

/// What one solver produced on one workload.
struct ManifoldCell {
  std::string library;
  std::string solver;
  bool supported = true;   ///< false: the peer has no such shape pair
  std::string note;        ///< why unsupported, or what went wrong
  double median_ns = 0.0;  ///< median over poses of the mean time of one manifold query
  int failures = 0;        ///< poses with no manifold (no contact, threw, crashed)
  std::vector<Manifold> manifolds;  ///< one per pose
};

/// Manifold adapters. Each builds its shapes once, then for every pose sets
/// the transforms (untimed), makes one query whose manifold is converted and
/// reported (untimed), and times `repeats` further identical queries (the
/// library call only, into the library's own output storage).

/// btBoxBoxDetector::getClosestPoints (Bullet's port of ODE's dBoxBox, which
/// keeps at most 4 points) with a Result collecting every addContactPoint.
/// Box pairs only.
ManifoldCell run_bullet_box_box_manifold(const Workload& work, int repeats);
/// btGjkPairDetector + btGjkEpaPenetrationDepthSolver: one point per pose.
ManifoldCell run_bullet_gjk_manifold(const Workload& work, int repeats);
/// fcl::collide with enable_contact and num_max_contacts = 16 (GST_LIBCCD):
/// box-box goes to FCL 0.7's boxBox2 primitive (at most 4 points), other
/// pairs to GJK/EPA (one point).
ManifoldCell run_fcl_manifold(const Workload& work, int repeats);
#ifdef PROXIMA_HAVE_ODE
/// dCollide with up to 16 contacts: dBoxBox for boxes, dCollideConvexBox for
/// a convex against a box (when this build has that collider, probed).
ManifoldCell run_ode_manifold(const Workload& work, int repeats);
#endif

struct ManifoldPeer {
  std::string library;
  std::string solver;
  ManifoldCell (*run)(const Workload&, int repeats);
};

/// Every manifold adapter above, in a stable order.
const std::vector<ManifoldPeer>& all_manifold_peers();

/// As run_peer_isolated: the peer runs in a forked child; a crash re-runs the
/// poses one per child, so a crashing pose costs only itself.
ManifoldCell run_manifold_peer_isolated(const ManifoldPeer& peer, const Workload& work, int repeats,
                                        std::chrono::seconds timeout = default_peer_timeout);

namespace detail {

inline void append_note(ManifoldCell& cell, const std::string& text) {
  if (!cell.note.empty()) cell.note += "; ";
  cell.note += text;
}

/// For pose i: `prepare(i)` untimed; one `run()` then `convert(manifold)`
/// (untimed: it turns the library's output into the common convention and
/// returns false for no contact); then `repeats` timed `run()` calls. A pose
/// without contact is a failure and contributes no time.
template <class Prepare, class Run, class Convert>
void measure_manifold(const Workload& work, int repeats, ManifoldCell& cell, Prepare&& prepare, Run&& run,
                      Convert&& convert) {
  using clock = std::chrono::steady_clock;
  const std::size_t poses = std::min(work.pose_a.size(), work.pose_b.size());
  cell.manifolds.assign(poses, Manifold{});
  cell.failures = 0;
  repeats = std::max(repeats, 1);
  std::vector<double> times;
  times.reserve(poses);
  bool noted_exception = false;
  for (std::size_t i = 0; i < poses; ++i) {
    try {
      prepare(i);
      keep(run());
      Manifold m;
      if (!convert(m) || m.points.empty()) {
        ++cell.failures;
        continue;
      }
      const auto start = clock::now();
      for (int r = 0; r < repeats; ++r) keep(run());
      const auto stop = clock::now();
      times.push_back(std::chrono::duration<double, std::nano>(stop - start).count() / repeats);
      cell.manifolds[i] = std::move(m);
    } catch (const std::exception& e) {
      ++cell.failures;
      if (!noted_exception) append_note(cell, std::string("threw: ") + e.what());
      noted_exception = true;
    } catch (...) {
      ++cell.failures;
      if (!noted_exception) append_note(cell, "threw a non-std exception");
      noted_exception = true;
    }
  }
  cell.median_ns = median(std::move(times));
}

}  // namespace detail
}  // namespace proxima::bench
