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
  bool markdown = false, peers = true;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--poses") && i + 1 < argc) poses = std::max(1, std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--repeats") && i + 1 < argc) repeats = std::max(1, std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--markdown")) markdown = true;
    else if (!std::strcmp(argv[i], "--no-peers")) peers = false;
    else {
      std::fprintf(stderr, "usage: proxima-bench [--poses N] [--repeats R] [--markdown] [--no-peers]\n");
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
  const std::vector<pb::TruthWorkload> works = pb::make_workloads(poses);
  std::printf("| workload | library | solver | median ns | × Proxima | max error | mean error | failures | note |\n");
  std::printf("|---|---|---|---:|---:|---:|---:|---:|---|\n");
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
  std::printf("\nGround truth: ");
  for (const pb::TruthWorkload& w : works) std::printf("%s: %s (%zu poses); ", w.work.name.c_str(), w.oracle, w.truth.size());
  std::printf("\n");
  return 0;
}
