// SPDX-License-Identifier: BSD-3-Clause
// proxima-bench: the side-by-side convex distance benchmark.
// Same shapes, same poses for every library; median ns per query, ratio to
// Proxima, and each library's distance error against the oracles' ground
// truth. Peers run in child processes so that a crash becomes a row.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include <sys/utsname.h>

#include <proxima/narrow/closed_form.hpp>
#include <proxima/narrow/incremental_depth.hpp>
#include <proxima/narrow/sat.hpp>
#include <proxima/query.hpp>

#include "arguments.hpp"
#include "peers/manifold.hpp"
#include "peers/timing.hpp"
#include "progress.hpp"
#include "workloads.hpp"
#ifdef PROXIMA_HAVE_PEERS
#include "peers/peers.hpp"
#endif

namespace pb = proxima::bench;

namespace {

struct Row {
  std::string library, solver;
  pb::PeerCell cell;
};

pb::PeerCell run_proxima(const pb::TruthWorkload& w, int repeats, proxima::Method method) {
  pb::PeerCell cell;
  const proxima::Shape a = pb::to_shape(w.work.a), b = pb::to_shape(w.work.b);
  proxima::Transform ta, tb;
  proxima::DistanceRequest req;
  req.method = method;
  int bad_status = 0;
  pb::detail::measure(
      w.work, repeats, cell,
      [&](std::size_t i) {
        ta = pb::to_transform(w.work.pose_a[i]);
        tb = pb::to_transform(w.work.pose_b[i]);
      },
      [&] {
        const proxima::DistanceResult r = proxima::distance(a, ta, b, tb, req);
        if (r.status != proxima::Status::ok) ++bad_status;
        return r.distance;
      });
  if (bad_status) cell.note = std::to_string(bad_status) + " results with status != ok";
  return cell;
}

// Proxima's signed distance on overlapping poses; `warm_deg` ≥ 0 warm-starts
// the incremental method from the true normal turned by that angle.
pb::PeerCell run_proxima_depth(const pb::TruthWorkload& w, int repeats, proxima::Method method,
                               double warm_deg = -1.0) {
  pb::PeerCell cell;
  const proxima::Shape a = pb::to_shape(w.work.a), b = pb::to_shape(w.work.b);
  proxima::Transform ta, tb;
  // The warm start of each pose; every timed repeat starts from a fresh copy,
  // since a query writes its answer back into the cache it is given.
  proxima::GjkCache start;
  proxima::DistanceRequest req;
  req.method = method;
  const bool warm = warm_deg >= 0.0;
  int bad_status = 0;
  pb::detail::measure(
      w.work, repeats, cell,
      [&](std::size_t i) {
        ta = pb::to_transform(w.work.pose_a[i]);
        tb = pb::to_transform(w.work.pose_b[i]);
        if (warm) {
          const proxima::Vec3 n = w.truth_normal[i];
          start.direction = Eigen::AngleAxisd(warm_deg * M_PI / 180.0, n.unitOrthogonal()) * n;
        }
      },
      [&] {
        proxima::GjkCache cache;
        if (warm) {
          cache = start;
          req.cache = &cache;
        }
        const proxima::DistanceResult r = proxima::signed_distance(a, ta, b, tb, req);
        pb::detail::Depth d;
        // upper_bound: MPR's centre-line depth, measured against the truth like any answer.
        if (r.status != proxima::Status::ok && r.status != proxima::Status::upper_bound) {
          ++bad_status;
          return d;
        }
        d.distance = r.distance;
        d.normal = {r.normal.x(), r.normal.y(), r.normal.z()};
        return d;
      });
  if (bad_status) cell.note = "status != ok on some poses (counted as failures)";
  return cell;
}

// The incremental method's warm starts on a polytope pair (A the polytope,
// B of type `B`), one row per start angle (the true normal turned by it, as
// run_proxima_depth does): how often the SQP certifies its answer with the
// paper's checks only (PenetrationOptions::cone_certificate off: the
// sampled check, answers not proven global report not_converged) and with
// the cone certificate, the largest error of a certified answer against
// the workload's truth (the certificate brackets the depth within
// eps = 1e-9 · the size of A ⊖ B), and the median ns of the certified
// SQP, of the same warm start in a fresh PenetrationCache (the collecting
// walk of the coherence certificate from the warm start's support value, no
// SQP; its certified share too) and of signed_distance(Method::incremental)
// warm-started alike, against `cold_ns`, the cold automatic path's.
template <class B>
void print_warm_start_rows(const pb::TruthWorkload& w, int repeats, double cold_ns) {
  const proxima::Shape sa = pb::to_shape(w.work.a), sb = pb::to_shape(w.work.b);
  const proxima::ConvexPolytope& a = sa.as<proxima::ConvexPolytope>();
  const B& b = sb.as<B>();
  const std::size_t poses = std::min(w.truth.size(), w.work.pose_a.size());
  for (double deg : {0.0, 5.0, 15.0, 30.0, 60.0}) {
    const auto guess = [&](std::size_t i) {
      const proxima::Vec3 n = w.truth_normal[i];
      return proxima::Vec3(Eigen::AngleAxisd(deg * M_PI / 180.0, n.unitOrthogonal()) * n);
    };
    proxima::PenetrationOptions paper;
    paper.cone_certificate = false;
    int paper_ok = 0, ok = 0;
    double max_err = 0.0;
    for (std::size_t i = 0; i < poses; ++i) {
      const proxima::Transform ta = pb::to_transform(w.work.pose_a[i]), tb = pb::to_transform(w.work.pose_b[i]);
      paper_ok += proxima::incremental_penetration(a, ta, b, tb, guess(i), paper).status == proxima::Status::ok;
      const proxima::DistanceResult r = proxima::incremental_penetration(a, ta, b, tb, guess(i));
      if (r.status != proxima::Status::ok) continue;
      ++ok;
      max_err = std::max(max_err, std::abs(r.distance - w.truth[i]));
    }
    pb::PeerCell sqp;
    proxima::Transform ta, tb;
    proxima::Vec3 g;
    pb::detail::measure(
        w.work, repeats, sqp,
        [&](std::size_t i) {
          ta = pb::to_transform(w.work.pose_a[i]);
          tb = pb::to_transform(w.work.pose_b[i]);
          g = guess(i);
        },
        [&] { return proxima::incremental_penetration(a, ta, b, tb, g).distance; });
    // The same warm start in a fresh PenetrationCache: the collecting walk
    // from the guess's support value instead of the SQP.
    pb::PeerCell fresh;
    int fresh_ok = 0;
    pb::detail::measure(
        w.work, repeats, fresh,
        [&](std::size_t i) {
          ta = pb::to_transform(w.work.pose_a[i]);
          tb = pb::to_transform(w.work.pose_b[i]);
          g = guess(i);
          proxima::PenetrationCache c;
          c.direction = g;
          fresh_ok += proxima::incremental_penetration(a, ta, b, tb, {}, &c).status == proxima::Status::ok;
        },
        [&] {
          proxima::PenetrationCache c;
          c.direction = g;
          return proxima::incremental_penetration(a, ta, b, tb, {}, &c).distance;
        });
    const pb::PeerCell request = run_proxima_depth(w, repeats, proxima::Method::incremental, deg);
    const double n = static_cast<double>(poses);
    std::printf("| %s | %.0f° | %.1f%% | %.1f%% | %.2g | %.0f | %.1f%% | %.0f | %.0f | %.0f |\n", w.work.name.c_str(),
                deg, 100.0 * paper_ok / n, 100.0 * ok / n, max_err, sqp.median_ns, 100.0 * fresh_ok / n,
                fresh.median_ns, request.median_ns, cold_ns);
    std::fflush(stdout);
  }
}

// The cone certificate's own cost on a polytope pair (A the polytope, B of
// type `B`), with the best bound a warm start could hand it: the walk asked
// only for facets of P ⊖ Q below the true core depth minus 1e-9 (the
// workload's truth, from the Minkowski oracle), which finds none and so
// proves the depth at least that. Whatever the warm start, a certified
// answer by this proof costs at least this; `proven` counts the poses where
// the walk found no facet below, as the truth says it must.
template <class B>
void print_proof_floor_row(const pb::TruthWorkload& w, int repeats, double cold_ns) {
  const proxima::Shape sa = pb::to_shape(w.work.a), sb = pb::to_shape(w.work.b);
  const proxima::ConvexPolytope& a = sa.as<proxima::ConvexPolytope>();
  const B& b = sb.as<B>();
  const double inflation = a.core_inflation() + b.core_inflation();
  proxima::Transform ta, tb;
  double below = 0.0;
  const auto walk = [&] {
    if constexpr (std::is_same_v<B, proxima::Box>)
      return proxima::narrow::detail::sat_polytope_box_depth(a, ta, b, tb, proxima::Vec3::Zero(), below);
    else
      return proxima::narrow::detail::sat_polytope_capsule_below(a, ta, proxima::narrow::detail::SegmentCore::of(b),
                                                                  tb, below);
  };
  int proven = 0;
  pb::PeerCell cell;
  pb::detail::measure(
      w.work, repeats, cell,
      [&](std::size_t i) {
        ta = pb::to_transform(w.work.pose_a[i]);
        tb = pb::to_transform(w.work.pose_b[i]);
        below = -w.truth[i] - inflation - 1e-9;
        proven += walk().status == proxima::Status::not_converged;
      },
      [&] { return walk().status == proxima::Status::invalid_input ? std::nan("") : 0.0; });
  std::printf("| %s | %zu | %d | %.0f | %.0f |\n", w.work.name.c_str(), w.truth.size(), proven, cell.median_ns,
              cold_ns);
  std::fflush(stdout);
}

// Pose sequences on a polytope pair (A the polytope, B of type `B`): from
// each workload pose, B moves by a fixed screw per step (1 mm along a
// direction and 0.5° about an axis drawn per pose, seed 2029) for `steps`
// steps. Each step is timed over `repeats` queries, each from a copy of the
// cache as the previous step left it: incremental_penetration with a
// PenetrationCache (the coherence certificate answers when it holds, the
// SQP and the cone walk otherwise, re-collecting it), and for comparison
// from the previous step's normal alone, and the cold automatic
// signed_distance. The moved poses have no oracle truth: |Δ| is against the
// cold automatic signed_distance. `shallow`: each start is first moved along
// its normal until the pair overlaps by half B's radius, its cores apart (a
// capsule's shallow contact; the GJK between the cores answers then).
template <class B>
void print_sequence_row(const pb::TruthWorkload& w, int repeats, int steps, bool shallow = false) {
  using clock = std::chrono::steady_clock;
  const proxima::Shape sa = pb::to_shape(w.work.a), sb = pb::to_shape(w.work.b);
  const proxima::ConvexPolytope& a = sa.as<proxima::ConvexPolytope>();
  const B& b = sb.as<B>();
  const std::size_t poses = std::min(w.truth.size(), w.work.pose_a.size());
  std::mt19937 g(2029);
  std::normal_distribution<double> N;
  std::vector<double> cached_ns, normal_ns, cold_ns, request_ns;
  double cached_sum = 0.0, request_sum = 0.0;
  int answered = 0, certified = 0, by_certificate = 0;
  double max_diff = 0.0, request_diff = 0.0, sink = 0.0;
  for (std::size_t i = 0; i < poses; ++i) {
    const proxima::Transform ta = pb::to_transform(w.work.pose_a[i]);
    proxima::Transform tb = pb::to_transform(w.work.pose_b[i]);
    if (shallow) {
      // Normal B→A: B moves along −normal, out of A, by the depth less half its radius.
      const proxima::DistanceResult start = proxima::signed_distance(sa, ta, sb, tb);
      if (start.status == proxima::Status::ok && start.distance < 0.0)
        tb.p -= (-start.distance - 0.5 * b.core_inflation()) * start.normal;
    }
    const proxima::Vec3 v = 1e-3 * proxima::Vec3(N(g), N(g), N(g)).normalized();
    const proxima::Mat3 turn =
        Eigen::AngleAxisd(0.5 * M_PI / 180.0, proxima::Vec3(N(g), N(g), N(g)).normalized()).toRotationMatrix();
    proxima::PenetrationCache cache, request_cache;
    proxima::Vec3 last_normal = proxima::Vec3::Zero();
    for (int k = 0; k < steps; ++k) {
      const proxima::DistanceResult cold = proxima::signed_distance(sa, ta, sb, tb);
      if (!(cold.status == proxima::Status::ok && cold.distance < 0.0)) break;
      proxima::DistanceResult r;
      auto start = clock::now();
      for (int rep = 0; rep < repeats; ++rep) {
        proxima::PenetrationCache c = cache;
        r = proxima::incremental_penetration(a, ta, b, tb, {}, &c);
        sink += r.distance;
      }
      cached_ns.push_back(std::chrono::duration<double, std::nano>(clock::now() - start).count() / repeats);
      cached_sum += cached_ns.back();
      start = clock::now();
      for (int rep = 0; rep < repeats; ++rep) sink += proxima::incremental_penetration(a, ta, b, tb, last_normal).distance;
      normal_ns.push_back(std::chrono::duration<double, std::nano>(clock::now() - start).count() / repeats);
      start = clock::now();
      for (int rep = 0; rep < repeats; ++rep) sink += proxima::signed_distance(sa, ta, sb, tb).distance;
      cold_ns.push_back(std::chrono::duration<double, std::nano>(clock::now() - start).count() / repeats);
      proxima::DistanceRequest req;
      start = clock::now();
      for (int rep = 0; rep < repeats; ++rep) {
        proxima::PenetrationCache c = request_cache;
        req.penetration = &c;
        sink += proxima::signed_distance(sa, ta, sb, tb, req).distance;
      }
      request_ns.push_back(std::chrono::duration<double, std::nano>(clock::now() - start).count() / repeats);
      request_sum += request_ns.back();
      req.penetration = &request_cache;
      const proxima::DistanceResult asked = proxima::signed_distance(sa, ta, sb, tb, req);
      request_diff = std::max(request_diff, asked.status == proxima::Status::ok
                                                ? std::abs(asked.distance - cold.distance)
                                                : std::numeric_limits<double>::infinity());
      ++answered;
      by_certificate += r.status == proxima::Status::ok && r.iterations == 0;
      r = proxima::incremental_penetration(a, ta, b, tb, {}, &cache);  // the step's own answer, cache carried on
      if (r.status == proxima::Status::ok) {
        ++certified;
        max_diff = std::max(max_diff, std::abs(r.distance - cold.distance));
      }
      last_normal = r.normal;
      tb = proxima::Transform{turn * tb.R, tb.p + v};
    }
  }
  const double n = std::max(answered, 1);
  const std::string label = w.work.name + (shallow ? ", shallow: cores apart" : "");
  std::printf("| %s | %d | %.1f%% | %.1f%% | %.2g | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.2g |\n", label.c_str(),
              answered, 100.0 * certified / n, 100.0 * by_certificate / n, max_diff, pb::detail::median(cached_ns),
              cached_sum / n, pb::detail::median(normal_ns), pb::detail::median(cold_ns),
              pb::detail::median(request_ns), request_sum / n, request_diff);
  if (sink == 42.0) std::printf(" ");  // keeps the timed calls
  std::fflush(stdout);
}

#ifdef PROXIMA_HAVE_ODE
// Proxima's signed distance (auto) for pb::duel_ode: the same query and the
// same use of its answer as run_proxima_depth's timed loop.
struct DuelQuery {
  proxima::Shape a, b;
  std::vector<proxima::Transform> ta, tb;
  double sink = 0.0;
  static void run(void* ctx, std::size_t i, int repeats) {
    DuelQuery& q = *static_cast<DuelQuery*>(ctx);
    for (int k = 0; k < repeats; ++k) {
      const proxima::DistanceResult r = proxima::signed_distance(q.a, q.ta[i], q.b, q.tb[i]);
      pb::detail::Depth d;
      if (r.status == proxima::Status::ok) {
        d.distance = r.distance;
        d.normal = {r.normal.x(), r.normal.y(), r.normal.z()};
      }
      q.sink += d.distance;  // as duel_ode uses ODE's answer
    }
  }
};

// The same through the typed public closed form (proxima/narrow/closed_form.hpp):
// what a caller who knows both shape types at compile time runs. The pose
// check stays; the shape-type table and the indirect call go.
template <class A, class B,
          proxima::DistanceResult (*F)(const A&, const proxima::Transform&, const B&, const proxima::Transform&)>
struct TypedDuelQuery {
  const A* a;
  const B* b;
  const std::vector<proxima::Transform>* ta;
  const std::vector<proxima::Transform>* tb;
  double sink = 0.0;
  static void run(void* ctx, std::size_t i, int repeats) {
    TypedDuelQuery& q = *static_cast<TypedDuelQuery*>(ctx);
    for (int k = 0; k < repeats; ++k) {
      const proxima::DistanceResult r = F(*q.a, (*q.ta)[i], *q.b, (*q.tb)[i]);
      pb::detail::Depth d;
      if (r.status == proxima::Status::ok) {
        d.distance = r.distance;
        d.normal = {r.normal.x(), r.normal.y(), r.normal.z()};
      }
      q.sink += d.distance;
    }
  }
  static pb::Duel duel(const pb::Workload& work, const DuelQuery& shapes, int repeats) {
    TypedDuelQuery q{&shapes.a.as<A>(), &shapes.b.as<B>(), &shapes.ta, &shapes.tb};
    return pb::duel_ode(work, repeats, 9, &TypedDuelQuery::run, &q);
  }
};

// The typed closed form for the workload's pair, if it has one.
using TypedDuel = pb::Duel (*)(const pb::Workload&, const DuelQuery&, int);
TypedDuel typed_closed_form(pb::Kind a, pb::Kind b) {
  namespace cf = proxima::closed_form;
  using proxima::Box, proxima::Capsule, proxima::Halfspace, proxima::Sphere;
  if (a == pb::Kind::sphere && b == pb::Kind::sphere) return &TypedDuelQuery<Sphere, Sphere, cf::sphere_sphere>::duel;
  if (a == pb::Kind::sphere && b == pb::Kind::capsule) return &TypedDuelQuery<Sphere, Capsule, cf::sphere_capsule>::duel;
  if (a == pb::Kind::capsule && b == pb::Kind::capsule)
    return &TypedDuelQuery<Capsule, Capsule, cf::capsule_capsule>::duel;
  if (a == pb::Kind::capsule && b == pb::Kind::box) return &TypedDuelQuery<Capsule, Box, cf::capsule_box>::duel;
  if (a == pb::Kind::sphere && b == pb::Kind::box) return &TypedDuelQuery<Sphere, Box, cf::sphere_box>::duel;
  if (b == pb::Kind::halfspace) {
    if (a == pb::Kind::sphere) return &TypedDuelQuery<Sphere, Halfspace, cf::shape_halfspace<Sphere>>::duel;
    if (a == pb::Kind::capsule) return &TypedDuelQuery<Capsule, Halfspace, cf::shape_halfspace<Capsule>>::duel;
    if (a == pb::Kind::box) return &TypedDuelQuery<Box, Halfspace, cf::shape_halfspace<Box>>::duel;
  }
  return nullptr;
}
#endif

// Proxima's manifold, one ContactSet reused across queries (no allocation
// once warm). Proxima's own convention is the common one: normal B to A,
// depth positive on overlap, points midway between the surfaces.
pb::ManifoldCell run_proxima_contacts(const pb::Workload& w, int repeats, const proxima::ContactOptions& options) {
  pb::ManifoldCell cell;
  const proxima::Shape a = pb::to_shape(w.a), b = pb::to_shape(w.b);
  proxima::Transform ta, tb;
  proxima::ContactSet set;
  int bad_status = 0;
  pb::detail::measure_manifold(
      w, repeats, cell,
      [&](std::size_t i) {
        ta = pb::to_transform(w.pose_a[i]);
        tb = pb::to_transform(w.pose_b[i]);
      },
      [&] {
        proxima::contacts(a, ta, b, tb, options, set);
        return set.points.size();
      },
      [&](pb::Manifold& m) {
        if (set.status != proxima::Status::ok) {
          ++bad_status;
          return false;
        }
        m.normal = {set.normal.x(), set.normal.y(), set.normal.z()};
        for (const proxima::Contact& c : set.points)
          m.points.push_back({{c.point.x(), c.point.y(), c.point.z()}, c.depth});
        return true;
      });
  if (bad_status) pb::detail::append_note(cell, std::to_string(bad_status) + " results with status != ok");
  return cell;
}

// A peer's manifolds against Proxima's, pose by pose. Points are compared by
// their projections onto Proxima's contact plane (normal n: p − (p·n) n),
// since libraries put the point on A, on B or midway, which differ only
// along the normal.
struct ManifoldComparison {
  double median_points = std::numeric_limits<double>::quiet_NaN();
  int compared = 0;       // poses where Proxima has a manifold
  int matched = 0;        // same count, every peer point within tol of one of ours
  int misses_ours = 0;    // some point of ours has no peer point within tol
  double max_depth_diff = std::numeric_limits<double>::quiet_NaN();  // |deepest − our deepest|
  double max_angle_deg = std::numeric_limits<double>::quiet_NaN();   // normal angle to ours
  int no_manifold = 0;    // poses where Proxima has one and the peer none
};

constexpr double point_tolerance = 1e-6;

ManifoldComparison compare_manifolds(const pb::ManifoldCell& ours, const pb::ManifoldCell& peer) {
  ManifoldComparison out;
  std::vector<double> counts;
  double depth_diff = -1.0, angle = -1.0;
  for (std::size_t i = 0; i < peer.manifolds.size(); ++i)
    if (!peer.manifolds[i].points.empty()) counts.push_back(static_cast<double>(peer.manifolds[i].points.size()));
  out.median_points = pb::detail::median(counts);
  for (std::size_t i = 0; i < ours.manifolds.size() && i < peer.manifolds.size(); ++i) {
    const pb::Manifold& o = ours.manifolds[i];
    const pb::Manifold& p = peer.manifolds[i];
    if (o.points.empty()) continue;
    ++out.compared;
    if (p.points.empty()) {
      ++out.no_manifold;
      ++out.misses_ours;
      continue;
    }
    const proxima::Vec3 n = proxima::Vec3(o.normal[0], o.normal[1], o.normal[2]).normalized();
    const auto project = [&](const pb::ManifoldPoint& q) {
      const proxima::Vec3 v(q.position[0], q.position[1], q.position[2]);
      return proxima::Vec3(v - v.dot(n) * n);
    };
    const auto near_any = [&](const pb::ManifoldPoint& q, const std::vector<pb::ManifoldPoint>& set) {
      const proxima::Vec3 x = project(q);
      return std::any_of(set.begin(), set.end(),
                         [&](const pb::ManifoldPoint& r) { return (project(r) - x).norm() <= point_tolerance; });
    };
    const bool all_peer_near = std::all_of(p.points.begin(), p.points.end(),
                                           [&](const pb::ManifoldPoint& q) { return near_any(q, o.points); });
    const bool all_ours_near = std::all_of(o.points.begin(), o.points.end(),
                                           [&](const pb::ManifoldPoint& q) { return near_any(q, p.points); });
    out.matched += p.points.size() == o.points.size() && all_peer_near;
    out.misses_ours += !all_ours_near;
    const auto deepest = [](const pb::Manifold& m) {
      double d = -std::numeric_limits<double>::infinity();
      for (const pb::ManifoldPoint& q : m.points) d = std::max(d, q.depth);
      return d;
    };
    depth_diff = std::max(depth_diff, std::abs(deepest(p) - deepest(o)));
    const proxima::Vec3 pn(p.normal[0], p.normal[1], p.normal[2]);
    if (std::isfinite(pn.norm()) && pn.norm() > 0) {
      // atan2 of |cross| and dot: accurate near 0°, where acos is not.
      const double a = std::atan2(pn.normalized().cross(n).norm(), pn.normalized().dot(n)) * 180.0 / M_PI;
      angle = std::max(angle, a);
    }
  }
  if (depth_diff >= 0) out.max_depth_diff = depth_diff;
  if (angle >= 0) out.max_angle_deg = angle;
  return out;
}

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

// Per workload, Proxima's first row beside the fastest peer that is exact on
// every pose and the fastest peer of all, for the summary tables. Every peer
// row of the same run takes part (Coal and MuJoCo too when built).
constexpr double exact_error = 1e-6;      // m
constexpr double exact_normal_deg = 0.01;  // where the peer gives normals

struct Summary {
  std::string workload;
  double proxima_ns = std::numeric_limits<double>::quiet_NaN(), proxima_error = 0.0;
  std::string exact_peer, fastest_peer;
  double exact_ns = std::numeric_limits<double>::infinity(), fastest_ns = std::numeric_limits<double>::infinity();
  double fastest_error = std::numeric_limits<double>::quiet_NaN();

  // One row's outcome: `max_error` over its finite answers, `normal_deg` its
  // worst normal (NaN: none given), `failures` poses without an answer.
  void add(const Row& r, double max_error, double normal_deg, int failures) {
    const pb::PeerCell& c = r.cell;
    if (r.library == "Proxima") {
      if (std::isnan(proxima_ns)) proxima_ns = c.median_ns, proxima_error = max_error;
      return;
    }
    if (!c.supported || !std::isfinite(c.median_ns) || c.median_ns <= 0) return;
    const std::string name = r.library + " " + r.solver;
    if (c.median_ns < fastest_ns) fastest_ns = c.median_ns, fastest_peer = name, fastest_error = max_error;
    const bool exact =
        failures == 0 && max_error <= exact_error && !(std::isfinite(normal_deg) && normal_deg > exact_normal_deg);
    if (exact && c.median_ns < exact_ns) exact_ns = c.median_ns, exact_peer = name;
  }
};

void print_summary(const std::vector<Summary>& rows, const char* what) {
  if (rows.empty()) return;
  std::printf("\n#### %s: Proxima against the fastest exact peer of this run\n\n", what);
  std::printf("Exact: every pose answered, max error ≤ %.0e m and, where the peer gives normals, every normal within "
              "%.2g° of the true one. × Proxima = peer ns / Proxima ns.\n\n", exact_error, exact_normal_deg);
  std::printf("| workload | Proxima ns | max error | fastest exact peer | its ns | × Proxima | fastest peer | its ns | "
              "its max error |\n|---|---:|---:|---|---:|---:|---|---:|---:|\n");
  for (const Summary& r : rows) {
    const bool exact = std::isfinite(r.exact_ns), any = std::isfinite(r.fastest_ns);
    std::printf("| %s | %.0f | %.2g | %s | %s | %s | %s | %s | %s |\n", r.workload.c_str(), r.proxima_ns,
                r.proxima_error, exact ? r.exact_peer.c_str() : "none", exact ? fmt("%.0f", r.exact_ns).c_str() : "–",
                exact ? fmt("%.2f", r.exact_ns / r.proxima_ns).c_str() : "–", any ? r.fastest_peer.c_str() : "none",
                any ? fmt("%.0f", r.fastest_ns).c_str() : "–", any ? fmt("%.2g", r.fastest_error).c_str() : "–");
  }
  std::fflush(stdout);
}

std::string machine() {
  std::string cpu = "unknown CPU";
  std::ifstream f("/proc/cpuinfo");
  for (std::string line; std::getline(f, line);) {
    if (line.rfind("model name", 0) == 0) {
      cpu = line.substr(line.find(':') + 2);
      break;
    }
  }
  utsname u{};
  uname(&u);
  return cpu + ", " + u.sysname + " " + u.release;
}

std::string today() {
  const std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", std::gmtime(&t));
  return buf;
}

constexpr const char* kUsage =
    "usage: proxima-bench [--poses N] [--repeats R] [--markdown] [--no-peers] "
    "[--only-distance | --only-depth | --only-contacts | --only-duel] [--workload NAME-PART] [--quiet]\n"
    "  --poses N    random poses per workload, 1 to 100000000 (default 1000)\n"
    "  --repeats R  timed repeats of each pose, 1 to 1000000 (default 50)\n"
    "  --quiet      no progress line on stderr (drawn only when stderr is a terminal)\n";

}  // namespace

int main(int argc, char** argv) {
  int poses = 1000, repeats = 50;
  bool markdown = false, peers = true, distance_table = true, depth = true, contact_table = true;
  bool depth_rows = true;  // false: of the depth section, only the interleaved ODE duel
  bool show_progress = true;
  std::string only;  // run only the workloads whose name contains this
  try {
    pb::Arguments args(argc, argv);
    while (args.next()) {
      if (args.is("--poses")) poses = static_cast<int>(args.integer(1, 100000000));  // as `proxima bench`
      else if (args.is("--repeats")) repeats = static_cast<int>(args.integer(1, 1000000));
      else if (args.is("--markdown")) markdown = true;
      else if (args.is("--no-peers")) peers = false;
      else if (args.is("--only-distance")) depth = contact_table = false;
      else if (args.is("--only-depth")) distance_table = contact_table = false;
      else if (args.is("--only-contacts")) distance_table = depth = false;
      else if (args.is("--only-duel")) distance_table = contact_table = depth_rows = false;
      else if (args.is("--workload")) only = args.text();
      else if (args.is("--quiet")) show_progress = false;
      else if (args.is("--help") || args.is("-h")) {
        std::fputs(kUsage, stdout);
        return 0;
      } else {
        args.unknown();
      }
    }
  } catch (const pb::BadArgument& e) {
    return pb::refuse("proxima-bench", e, kUsage);
  }
  (void)markdown;
  (void)peers;
  if (distance_table)
    std::printf("Distance queries on separated pairs, %d random poses per workload (seed 2026), each timed over %d repeats; "
              "median ns per query. Error = |distance − ground truth| (m).\n\n", poses, repeats);
  std::printf("Measured %s on %s.\n\n", today().c_str(), machine().c_str());
#ifndef PROXIMA_HAVE_PEERS
  std::printf("Peers not built (install libfcl-dev libccd-dev libbullet-dev and reconfigure).\n\n");
#endif
  const std::vector<pb::TruthWorkload> works = distance_table ? pb::make_workloads(poses) : std::vector<pb::TruthWorkload>{};
  if (distance_table) {
    std::printf("### Distance (separated poses)\n\n");
    std::printf("| workload | library | solver | median ns | × Proxima | max error | mean error | failures | note |\n");
    std::printf("|---|---|---|---:|---:|---:|---:|---:|---|\n");
  }
  const auto skip = [&only](const std::string& name) { return !only.empty() && name.find(only) == std::string::npos; };
  // A progress line per section, over its workloads (the note: the one
  // running). It is redrawn before each row's measurement, never inside
  // one, and erased before rows go to stdout.
  const auto progress_line = [&](const char* section, std::size_t workloads) {
    return proxima::apps::Progress::on_terminal(std::string("proxima-bench: ") + section,
                                                static_cast<double>(workloads), show_progress);
  };
  const auto kept = [&skip](const auto& list, auto&& name) {
    return static_cast<std::size_t>(
        std::count_if(list.begin(), list.end(), [&](const auto& w) { return !skip(name(w)); }));
  };
  const auto truth_name = [](const pb::TruthWorkload& w) -> const std::string& { return w.work.name; };
  std::vector<Summary> distance_summary;
  proxima::apps::Progress distance_progress = progress_line("distance", kept(works, truth_name));
  std::size_t distance_done = 0;
  for (const pb::TruthWorkload& w : works) {
    if (skip(w.work.name)) continue;
    std::vector<Row> rows;
    const auto add = [&](const std::string& library, const std::string& solver, auto&& measure) {
      distance_progress.update(static_cast<double>(distance_done), w.work.name);
      rows.push_back({library, solver, measure()});
    };
    Summary& summary = distance_summary.emplace_back();
    summary.workload = w.work.name;
    add("Proxima", "distance (auto)", [&] { return run_proxima(w, repeats, proxima::Method::automatic); });
    const bool has_closed_form = w.work.a.kind == pb::Kind::sphere || w.work.a.kind == pb::Kind::capsule;
    if (has_closed_form)
      add("Proxima", "distance (GJK forced)", [&] { return run_proxima(w, repeats, proxima::Method::gjk); });
#ifdef PROXIMA_HAVE_PEERS
    for (const pb::Peer& peer : peers ? pb::all_peers() : std::vector<pb::Peer>{}) {
      add(peer.library, peer.solver, [&] { return pb::run_peer_isolated(peer, w.work, repeats); });
    }
#endif
    distance_progress.clear();
    ++distance_done;
    const double ours = rows.front().cell.median_ns;
    for (const Row& r : rows) {
      const pb::PeerCell& c = r.cell;
      std::string ns = "–", ratio = "–", maxe = "–", meane = "–";
      if (c.supported && std::isfinite(c.median_ns) && c.median_ns > 0) {
        ns = fmt("%.0f", c.median_ns);
        ratio = fmt("%.2f", c.median_ns / ours);
      }
      double mx = 0, sum = 0;
      int n = 0, missing = 0;
      for (std::size_t i = 0; i < w.truth.size() && i < c.distances.size(); ++i) {
        if (!std::isfinite(c.distances[i])) { ++missing; continue; }
        const double e = std::abs(c.distances[i] - w.truth[i]);
        mx = std::max(mx, e);
        sum += e;
        ++n;
      }
      if (n > 0) {
        maxe = fmt("%.2g", mx);
        meane = fmt("%.2g", sum / n);
      }
      const int failures = c.supported ? std::max(c.failures, missing) : 0;
      summary.add(r, n > 0 ? mx : std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN(),
                  failures);
      std::printf("| %s | %s | %s | %s | %s | %s | %s | %d | %s |\n", w.work.name.c_str(), r.library.c_str(),
                  r.solver.c_str(), ns.c_str(), ratio.c_str(), maxe.c_str(), meane.c_str(), failures,
                  c.supported ? c.note.c_str() : ("unsupported: " + c.note).c_str());
      std::fflush(stdout);
    }
  }
  distance_progress.finish();
  print_summary(distance_summary, "Distance");
  if (depth) {
    std::printf("\n### Penetration depth (overlapping poses)\n\n");
    std::printf("Signed distance on overlapping pairs, %d poses per workload (seed 2027); error = |signed distance − "
                "ground truth| (m), ground truth from the explicit Minkowski difference of the polyhedral cores; "
                "normal error = angle to the true normal (degrees).\n\n", poses);
    std::printf("| workload | library | method | median ns | × Proxima | max error | mean error | max normal error ° | failures | note |\n");
    std::printf("|---|---|---|---:|---:|---:|---:|---:|---:|---|\n");
    const std::vector<pb::TruthWorkload> depth_works =
        depth_rows ? pb::make_depth_workloads(poses) : std::vector<pb::TruthWorkload>{};
    std::vector<Summary> depth_summary;
    proxima::apps::Progress depth_progress = progress_line("penetration depth", kept(depth_works, truth_name));
    std::size_t depth_done = 0;
    for (const pb::TruthWorkload& w : depth_works) {
      if (skip(w.work.name)) continue;
      std::vector<Row> rows;
      const auto add = [&](const std::string& library, const std::string& solver, auto&& measure) {
        depth_progress.update(static_cast<double>(depth_done), w.work.name);
        rows.push_back({library, solver, measure()});
      };
      Summary& summary = depth_summary.emplace_back();
      summary.workload = w.work.name;
      const auto ours_with = [&](proxima::Method method, double warm_deg = -1.0) {
        return [&w, &repeats, method, warm_deg] { return run_proxima_depth(w, repeats, method, warm_deg); };
      };
      add("Proxima", "signed_distance (auto)", ours_with(proxima::Method::automatic));
      // A halfspace is unbounded: its pairs have a closed form and no other
      // method, and of the peers only ODE (a plane geom) takes it.
      const bool halfspace = w.work.b.kind == pb::Kind::halfspace;
      if (!halfspace) {
        add("Proxima", "GJK + EPA", ours_with(proxima::Method::gjk));
        if (w.work.a.kind == pb::Kind::box || w.work.a.kind == pb::Kind::convex)
          add("Proxima", "SAT", ours_with(proxima::Method::sat));
        add("Proxima", "incremental, cold", ours_with(proxima::Method::incremental));
        for (double deg : {0.0, 15.0, 45.0, 90.0}) {
          add("Proxima", "incremental, warm " + std::to_string(int(deg)) + "°",
              ours_with(proxima::Method::incremental, deg));
        }
        add("Proxima", "MPR (centre line)", ours_with(proxima::Method::mpr));
      }
#ifdef PROXIMA_HAVE_PEERS
      for (const pb::Peer& peer : peers ? pb::all_depth_peers() : std::vector<pb::Peer>{}) {
        if (halfspace && peer.library.rfind("ODE", 0) != 0) continue;
        add(peer.library, peer.solver, [&] { return pb::run_peer_isolated(peer, w.work, repeats); });
      }
#endif
      depth_progress.clear();
      ++depth_done;
      const double ours = rows.front().cell.median_ns;
      for (const Row& r : rows) {
        const pb::PeerCell& c = r.cell;
        std::string ns = "–", ratio = "–", maxe = "–", meane = "–", nerr = "–";
        if (c.supported && std::isfinite(c.median_ns) && c.median_ns > 0) {
          ns = fmt("%.0f", c.median_ns);
          ratio = fmt("%.2f", c.median_ns / ours);
        }
        double mx = 0, sum = 0, nmax = 0;
        int n = 0, missing = 0, nn = 0;
        for (std::size_t i = 0; i < w.truth.size() && i < c.distances.size(); ++i) {
          if (!std::isfinite(c.distances[i])) { ++missing; continue; }
          const double e = std::abs(c.distances[i] - w.truth[i]);
          mx = std::max(mx, e);
          sum += e;
          ++n;
          if (i < c.normals.size() && std::isfinite(c.normals[i][0])) {
            const proxima::Vec3 got(c.normals[i][0], c.normals[i][1], c.normals[i][2]);
            nmax = std::max(nmax, std::acos(std::clamp(got.normalized().dot(w.truth_normal[i]), -1.0, 1.0)) * 180.0 / M_PI);
            ++nn;
          }
        }
        if (n > 0) {
          maxe = fmt("%.2g", mx);
          meane = fmt("%.2g", sum / n);
        }
        if (nn > 0) nerr = fmt("%.2g", nmax);
        const int failures = c.supported ? std::max(c.failures, missing) : 0;
        summary.add(r, n > 0 ? mx : std::numeric_limits<double>::infinity(),
                    nn > 0 ? nmax : std::numeric_limits<double>::quiet_NaN(), failures);
        std::printf("| %s | %s | %s | %s | %s | %s | %s | %s | %d | %s |\n", w.work.name.c_str(), r.library.c_str(),
                    r.solver.c_str(), ns.c_str(), ratio.c_str(), maxe.c_str(), meane.c_str(), nerr.c_str(), failures,
                    c.supported ? c.note.c_str() : ("unsupported: " + c.note).c_str());
        std::fflush(stdout);
      }
    }
    depth_progress.finish();
    print_summary(depth_summary, "Penetration depth");
    // The incremental method's warm starts on the polytope(200) pairs:
    // which of them a workload is (0: neither, or skipped).
    const auto warm_pair = [&](const pb::TruthWorkload& w) {
      if (skip(w.work.name)) return 0;
      if (w.work.name == "polytope(200)-capsule") return 1;
      return w.work.name.rfind("polytope(200)-box", 0) == 0 ? 2 : 0;
    };
    // The cold automatic path's median ns of each warm pair, measured once
    // for the warm-start rows and shown again beside the certificate's floor.
    std::map<std::string, double> warm_cold_ns;
    // Each warm pair's rows, under a header printed before the first.
    const auto warm_section = [&](const auto& header, const auto& rows) {
      bool printed = false;
      for (const pb::TruthWorkload& w : depth_works) {
        const int pair = warm_pair(w);
        if (pair == 0) continue;
        if (!printed) header();
        printed = true;
        rows(w, pair);
      }
    };
    warm_section(
        [] {
          std::printf("\n### Incremental depth: warm starts (polytope pairs)\n\n");
          std::printf("Start = the true normal turned by that angle. Certified = status ok; the paper's checks: "
                      "PenetrationOptions::cone_certificate off; max error = the largest |error| (m) of a certified "
                      "answer (the certificate's bracket: 1e-9 × the size of A ⊖ B). ns: incremental_penetration (the certified SQP), the same "
                      "with the warm start in a fresh PenetrationCache (the collecting walk from the warm start's support value, no SQP), "
                      "signed_distance(Method::incremental) with the same warm start, and the cold automatic signed_distance.\n\n");
          std::printf("| workload | start | certified, paper's checks | certified, cone certificate | max error | SQP ns | "
                      "certified, fresh cache | fresh cache ns | request ns | cold auto ns |\n");
          std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        },
        [&](const pb::TruthWorkload& w, int pair) {
          const double cold = run_proxima_depth(w, repeats, proxima::Method::automatic).median_ns;
          warm_cold_ns[w.work.name] = cold;
          if (pair == 1) print_warm_start_rows<proxima::Capsule>(w, repeats, cold);
          else print_warm_start_rows<proxima::Box>(w, repeats, cold);
        });
    // The proof's own cost, with the true depth as its bound.
    warm_section(
        [] {
          std::printf("\n### Incremental depth: the cone certificate's floor\n\n");
          std::printf("The cone walk of the certificate asked only for facets of P ⊖ Q below the true core depth "
                      "minus 1e-9 (the oracle's); proven = the poses where it finds none, which proves the depth. "
                      "No warm start can hand it a better bound, so no answer certified by this proof comes "
                      "cheaper than its median ns.\n\n");
          std::printf("| workload | poses | proven | walk ns | cold auto ns |\n");
          std::printf("|---|---:|---:|---:|---:|\n");
        },
        [&](const pb::TruthWorkload& w, int pair) {
          const double cold = warm_cold_ns.at(w.work.name);
          if (pair == 1) print_proof_floor_row<proxima::Capsule>(w, repeats, cold);
          else print_proof_floor_row<proxima::Box>(w, repeats, cold);
        });
    // The same pairs along pose sequences, a PenetrationCache carried along.
    warm_section(
        [] {
          std::printf("\n### Incremental depth: pose sequences (coherence certificate)\n\n");
          std::printf("From each pose above, B moves by a fixed screw per step (1 mm and 0.5°, direction and axis "
                      "drawn per pose), 20 steps or until the pair no longer overlaps, one PenetrationCache carried "
                      "along; a shallow row first moves each start out along its normal until only half the "
                      "capsule's radius overlaps (the cores apart: GJK between the cores answers, not counted as "
                      "from the cache). Certified = status ok; from the cache = answered by the coherence "
                      "certificate or the walk re-collecting it, without the SQP (iterations 0); |Δ| = the largest "
                      "difference to the cold "
                      "automatic signed_distance. ns per step: incremental_penetration with the cache (each timed "
                      "call from a copy of it; median and mean), warm started from the previous step's normal "
                      "alone (median), and the cold automatic signed_distance (median). Request + cache: the "
                      "automatic signed_distance given its own PenetrationCache (DistanceRequest::penetration), "
                      "carried along the same way (median, mean, and its largest |Δ| to the cold answer).\n\n");
          std::printf("| workload | steps | certified | from the cache | max |Δ| | cache ns | cache mean ns | "
                      "previous normal ns | cold auto ns | request + cache ns | request + cache mean ns | "
                      "request max |Δ| |\n");
          std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        },
        [&](const pb::TruthWorkload& w, int pair) {
          if (pair == 1) {
            print_sequence_row<proxima::Capsule>(w, repeats, 20);
            print_sequence_row<proxima::Capsule>(w, repeats, 20, true);
          } else {
            print_sequence_row<proxima::Box>(w, repeats, 20);
          }
        });
#ifdef PROXIMA_HAVE_ODE
    // The rows above are measured one after another (the peers in child
    // processes), minutes apart on a shared machine: on queries of 20 ns
    // their ratio drifts by 2× between runs. Here each pose's batch of
    // Proxima queries is followed at once by ODE's.
    if (peers) {
      std::printf("\n### Closed forms and box–box against ODE, interleaved\n\n");
      std::printf("Per pose, %d `signed_distance` calls (auto); then %d `dCollide` calls (deepest of up to 16 "
                  "contacts, buffer kept) on geoms placed once; then %d times `dGeomSetPosition` + "
                  "`dGeomSetRotation` on both geoms and `dCollide`, in one process; 9 rounds over the poses above. "
                  "ODE keeps poses in its geoms, so a query at a new pose (what one `signed_distance` call is) is "
                  "the last; the first is ODE's best case, a pose set once and queried many times. Median ns per "
                  "query; the ratios' medians and ranges over the rounds. Rows \"typed closed form\" call the pair's public "
                  "closed form (`proxima::closed_form::sphere_sphere` and so on: the same pose check, no shape-type "
                  "dispatch) instead of `signed_distance`, in a duel of their own with ODE.\n\n",
                  repeats, repeats, repeats);
      std::printf("| workload | Proxima ns | ODE dCollide ns | Proxima / dCollide | range | ODE set pose + dCollide ns "
                  "| Proxima / (set pose + dCollide) | range |\n|---|---:|---:|---:|---|---:|---:|---|\n");
      const auto primitive = [](const pb::TruthWorkload& w) {
        const pb::Kind ka = w.work.a.kind, kb = w.work.b.kind;
        return (ka == pb::Kind::sphere || ka == pb::Kind::capsule || ka == pb::Kind::box) &&
               (kb == pb::Kind::sphere || kb == pb::Kind::capsule || kb == pb::Kind::box || kb == pb::Kind::halfspace);
      };
      const std::vector<pb::TruthWorkload> duel_works = pb::make_depth_workloads(poses);
      const auto dueled = [&](const pb::TruthWorkload& w) { return primitive(w) && !skip(w.work.name); };
      proxima::apps::Progress duel_progress = progress_line(
          "ODE duel", static_cast<std::size_t>(std::count_if(duel_works.begin(), duel_works.end(), dueled)));
      std::size_t duel_done = 0;
      for (const pb::TruthWorkload& w : duel_works) {
        if (!dueled(w)) continue;
        const pb::Kind ka = w.work.a.kind, kb = w.work.b.kind;
        const double at = static_cast<double>(duel_done++);
        duel_progress.update(at, w.work.name);
        DuelQuery q{pb::to_shape(w.work.a), pb::to_shape(w.work.b), {}, {}};
        for (std::size_t i = 0; i < w.work.pose_a.size() && i < w.work.pose_b.size(); ++i) {
          q.ta.push_back(pb::to_transform(w.work.pose_a[i]));
          q.tb.push_back(pb::to_transform(w.work.pose_b[i]));
        }
        const pb::Duel d = pb::duel_ode(w.work, repeats, 9, &DuelQuery::run, &q);
        duel_progress.clear();
        if (!d.supported) {
          std::printf("| %s | – | – | – | – | – | – | %s |\n", w.work.name.c_str(), d.note.c_str());
          continue;
        }
        auto row = [](const std::string& name, const pb::Duel& x) {
          std::printf("| %s | %.1f | %.1f | %.2f | %.2f–%.2f | %.1f | %.2f | %.2f–%.2f |\n", name.c_str(),
                      x.proxima_ns, x.ode_ns, x.ratio, x.ratio_lo, x.ratio_hi, x.ode_placed_ns, x.placed_ratio,
                      x.placed_lo, x.placed_hi);
          std::fflush(stdout);
        };
        row(w.work.name, d);
        if (const TypedDuel typed = typed_closed_form(ka, kb)) {
          duel_progress.update(at, w.work.name + ", typed closed form");
          const pb::Duel t = typed(w.work, q, repeats);
          duel_progress.clear();
          row(w.work.name + ", typed closed form", t);
        }
      }
      duel_progress.finish();
    }
#endif
  }

  if (contact_table) {
    std::printf("\n### Contact manifolds (overlapping poses)\n\n");
    std::printf("proxima::contacts (default options: no reduction) beside the peers' contact generators, %d poses per "
                "workload (seed 2028), each timed over %d repeats; median ns per manifold. Every library's output is "
                "converted to Proxima's convention (normal B→A, depth > 0 = overlap). Points are compared by their "
                "projections onto Proxima's contact plane (libraries put them on A, on B or midway, which differ only "
                "along the normal): *match* = same number of points and every peer point within %.0e m of one of "
                "Proxima's; *misses ours* = some vertex of Proxima's contact polygon has no peer point within %.0e m "
                "(the peer's manifold is not a superset: what makes a resting box rock); Δ deepest = |peer's deepest "
                "depth − Proxima's|; normal ° = angle to Proxima's normal. Failures: poses where Proxima has a "
                "manifold and the peer none.\n\n",
                poses, repeats, point_tolerance, point_tolerance);
    std::printf("| workload | library | solver | median ns | × Proxima | median points | match %% | misses ours %% | "
                "max Δ deepest (m) | max normal ° | failures | note |\n");
    std::printf("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
    const std::vector<pb::Workload> contact_works = pb::make_contact_workloads(poses);
    const auto contact_name = [](const pb::Workload& w) -> const std::string& { return w.name; };
    proxima::apps::Progress contact_progress = progress_line("contacts", kept(contact_works, contact_name));
    std::size_t contact_done = 0;
    for (const pb::Workload& w : contact_works) {
      if (skip(w.name)) continue;
      struct MRow {
        std::string library, solver;
        pb::ManifoldCell cell;
      };
      std::vector<MRow> rows;
      const auto add = [&](const std::string& library, const std::string& solver, auto&& measure) {
        contact_progress.update(static_cast<double>(contact_done), w.name);
        rows.push_back({library, solver, measure()});
      };
      add("Proxima", "contacts()", [&] { return run_proxima_contacts(w, repeats, {}); });
      proxima::ContactOptions reduced;
      reduced.max_points = 4;
      add("Proxima", "contacts(), max_points 4", [&] { return run_proxima_contacts(w, repeats, reduced); });
#ifdef PROXIMA_HAVE_PEERS
      for (const pb::ManifoldPeer& peer : peers ? pb::all_manifold_peers() : std::vector<pb::ManifoldPeer>{}) {
        add(peer.library, peer.solver, [&] { return pb::run_manifold_peer_isolated(peer, w, repeats); });
      }
#endif
      contact_progress.clear();
      ++contact_done;
      const pb::ManifoldCell& ours = rows.front().cell;
      for (const MRow& r : rows) {
        const pb::ManifoldCell& c = r.cell;
        std::string ns = "–", ratio = "–", pts = "–", match = "–", miss = "–", dd = "–", ang = "–";
        int failures = 0;
        if (c.supported) {
          if (std::isfinite(c.median_ns) && c.median_ns > 0) {
            ns = fmt("%.0f", c.median_ns);
            ratio = fmt("%.2f", c.median_ns / ours.median_ns);
          }
          const ManifoldComparison m = compare_manifolds(ours, c);
          if (std::isfinite(m.median_points)) pts = fmt("%g", m.median_points);
          if (m.compared > 0) {
            match = fmt("%.1f", 100.0 * m.matched / m.compared);
            miss = fmt("%.1f", 100.0 * m.misses_ours / m.compared);
          }
          if (std::isfinite(m.max_depth_diff)) dd = fmt("%.2g", m.max_depth_diff);
          if (std::isfinite(m.max_angle_deg)) ang = fmt("%.2g", m.max_angle_deg);
          failures = std::max(c.failures, m.no_manifold);
        }
        std::printf("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %d | %s |\n", w.name.c_str(),
                    r.library.c_str(), r.solver.c_str(), ns.c_str(), ratio.c_str(), pts.c_str(), match.c_str(),
                    miss.c_str(), dd.c_str(), ang.c_str(), failures,
                    c.supported ? c.note.c_str() : ("unsupported: " + c.note).c_str());
        std::fflush(stdout);
      }
    }
  }

  if (distance_table) {
    std::printf("\nGround truth: ");
    for (const pb::TruthWorkload& w : works) std::printf("%s: %s (%zu poses); ", w.work.name.c_str(), w.oracle, w.truth.size());
    std::printf("\n");
  }
  return 0;
}
