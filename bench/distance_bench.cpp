// proxima-bench: the side-by-side convex distance benchmark of issue #2.
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
#include <string>
#include <vector>

#include <sys/utsname.h>

#include <proxima/query.hpp>

#include "peers/timing.hpp"
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
  proxima::GjkCache cache;
  proxima::DistanceRequest req;
  req.method = method;
  int bad_status = 0;
  pb::detail::measure(
      w.work, repeats, cell,
      [&](std::size_t i) {
        ta = pb::to_transform(w.work.pose_a[i]);
        tb = pb::to_transform(w.work.pose_b[i]);
        req.cache = nullptr;
        if (warm_deg >= 0.0) {
          const proxima::Vec3 n = w.truth_normal[i];
          cache.direction = Eigen::AngleAxisd(warm_deg * M_PI / 180.0, n.unitOrthogonal()) * n;
          req.cache = &cache;
        }
      },
      [&] {
        const proxima::DistanceResult r = proxima::signed_distance(a, ta, b, tb, req);
        pb::detail::Depth d;
        if (r.status != proxima::Status::ok) {
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

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

}  // namespace

int main(int argc, char** argv) {
  int poses = 1000, repeats = 50;
  bool markdown = false, peers = true, distance_table = true, depth = true;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--poses") && i + 1 < argc) poses = std::max(1, std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--repeats") && i + 1 < argc) repeats = std::max(1, std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--markdown")) markdown = true;
    else if (!std::strcmp(argv[i], "--no-peers")) peers = false;
    else if (!std::strcmp(argv[i], "--only-distance")) depth = false;
    else if (!std::strcmp(argv[i], "--only-depth")) distance_table = false;
    else {
      std::fprintf(stderr, "usage: proxima-bench [--poses N] [--repeats R] [--markdown] [--no-peers] [--only-distance | --only-depth]\n");
      return 2;
    }
  }
  (void)markdown;
  (void)peers;
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
  for (const pb::TruthWorkload& w : works) {
    std::vector<Row> rows;
    rows.push_back({"Proxima", "distance (auto)", run_proxima(w, repeats, proxima::Method::automatic)});
    const bool has_closed_form = w.work.a.kind == pb::Kind::sphere || w.work.a.kind == pb::Kind::capsule;
    if (has_closed_form) rows.push_back({"Proxima", "distance (GJK forced)", run_proxima(w, repeats, proxima::Method::gjk)});
#ifdef PROXIMA_HAVE_PEERS
    for (const pb::Peer& peer : peers ? pb::all_peers() : std::vector<pb::Peer>{}) {
      rows.push_back({peer.library, peer.solver, pb::run_peer_isolated(peer, w.work, repeats)});
    }
#endif
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
      std::printf("| %s | %s | %s | %s | %s | %s | %s | %d | %s |\n", w.work.name.c_str(), r.library.c_str(),
                  r.solver.c_str(), ns.c_str(), ratio.c_str(), maxe.c_str(), meane.c_str(), failures,
                  c.supported ? c.note.c_str() : ("unsupported: " + c.note).c_str());
      std::fflush(stdout);
    }
  }
  if (depth) {
    std::printf("\n### Penetration depth (overlapping poses)\n\n");
    std::printf("Signed distance on overlapping pairs, %d poses per workload (seed 2027); error = |signed distance − "
                "ground truth| (m), ground truth from the explicit Minkowski difference of the polyhedral cores; "
                "normal error = angle to the true normal (degrees).\n\n", poses);
    std::printf("| workload | library | method | median ns | × Proxima | max error | mean error | max normal error ° | failures | note |\n");
    std::printf("|---|---|---|---:|---:|---:|---:|---:|---:|---|\n");
    for (const pb::TruthWorkload& w : pb::make_depth_workloads(poses)) {
      std::vector<Row> rows;
      rows.push_back({"Proxima", "signed_distance (auto)", run_proxima_depth(w, repeats, proxima::Method::automatic)});
      rows.push_back({"Proxima", "GJK + EPA", run_proxima_depth(w, repeats, proxima::Method::gjk)});
      if (w.work.a.kind == pb::Kind::box) rows.push_back({"Proxima", "SAT", run_proxima_depth(w, repeats, proxima::Method::sat)});
      rows.push_back({"Proxima", "incremental, cold", run_proxima_depth(w, repeats, proxima::Method::incremental)});
      for (double deg : {0.0, 15.0, 45.0, 90.0}) {
        rows.push_back({"Proxima", "incremental, warm " + std::to_string(int(deg)) + "°",
                        run_proxima_depth(w, repeats, proxima::Method::incremental, deg)});
      }
      rows.push_back({"Proxima", "MPR (centre line)", run_proxima_depth(w, repeats, proxima::Method::mpr)});
#ifdef PROXIMA_HAVE_PEERS
      for (const pb::Peer& peer : peers ? pb::all_depth_peers() : std::vector<pb::Peer>{}) {
        rows.push_back({peer.library, peer.solver, pb::run_peer_isolated(peer, w.work, repeats)});
      }
#endif
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
        std::printf("| %s | %s | %s | %s | %s | %s | %s | %s | %d | %s |\n", w.work.name.c_str(), r.library.c_str(),
                    r.solver.c_str(), ns.c_str(), ratio.c_str(), maxe.c_str(), meane.c_str(), nerr.c_str(), failures,
                    c.supported ? c.note.c_str() : ("unsupported: " + c.note).c_str());
        std::fflush(stdout);
      }
    }
  }

  std::printf("\nGround truth: ");
  for (const pb::TruthWorkload& w : works) std::printf("%s: %s (%zu poses); ", w.work.name.c_str(), w.oracle, w.truth.size());
  std::printf("\n");
  return 0;
}
