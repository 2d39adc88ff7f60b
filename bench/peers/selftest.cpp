// SPDX-License-Identifier: BSD-3-Clause
// Checks every peer adapter against closed-form distances, and shows what a
// crashing or hanging peer looks like through run_isolated. The known faults
// of FCL, libccd, Bullet and ODE are printed, not failed; Coal and MuJoCo are
// held to every answer (exit status 1 if one is unsupported, fails or is
// off), so a broken adapter shows in CI.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "manifold.hpp"
#include "peers.hpp"

using namespace proxima::bench;

namespace {

constexpr double tolerance = 1e-6;

// Peers that must answer every case here: they support every shape pair and
// are exact on these closed forms.
bool strict(const std::string& library) { return library.rfind("Coal", 0) == 0 || library.rfind("MuJoCo", 0) == 0; }
int strict_faults = 0;

struct Case {
  Workload work;
  std::vector<double> expected;  // one per pose
};

ShapeSpec sphere(double r) { return {Kind::sphere, r, 0, {}, {}, {}}; }
ShapeSpec capsule(double r, double len) { return {Kind::capsule, r, len, {}, {}, {}}; }
ShapeSpec cylinder(double r, double h) { return {Kind::cylinder, r, h, {}, {}, {}}; }
ShapeSpec box(double x, double y, double z) { return {Kind::box, 0, 0, {x, y, z}, {}, {}}; }
ShapeSpec ellipsoid(double a, double b, double c) { return {Kind::ellipsoid, 0, 0, {}, {a, b, c}, {}}; }
ShapeSpec cube_hull(double h) {
  ShapeSpec s{Kind::convex, 0, 0, {}, {}, {}};
  for (int i = 0; i < 8; ++i)
    s.points.push_back({i & 1 ? h : -h, i & 2 ? h : -h, i & 4 ? h : -h});
  return s;
}

// A thin tetrahedron with its tip at the local origin, pointing along -g:
// placed with the tip at P and g the outward normal of a convex body at its
// closest point to P, the tip is the closest point of the spike, so the
// distance is the body's distance to P.
ShapeSpec spike(std::array<double, 3> g) {
  const double n = std::sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
  for (double& v : g) v /= n;
  std::array<double, 3> e1 = std::fabs(g[2]) < 0.9 ? std::array<double, 3>{-g[1], g[0], 0}
                                                    : std::array<double, 3>{0, -g[2], g[1]};
  const double m = std::sqrt(e1[0] * e1[0] + e1[1] * e1[1] + e1[2] * e1[2]);
  for (double& v : e1) v /= m;
  const std::array<double, 3> e2{g[1] * e1[2] - g[2] * e1[1], g[2] * e1[0] - g[0] * e1[2],
                                 g[0] * e1[1] - g[1] * e1[0]};
  ShapeSpec s{Kind::convex, 0, 0, {}, {}, {{0, 0, 0}}};
  for (double angle : {0.0, 2.1, 4.2}) {
    std::array<double, 3> p{};
    for (int k = 0; k < 3; ++k)
      p[k] = 2 * g[k] + 0.3 * (std::cos(angle) * e1[k] + std::sin(angle) * e2[k]);
    s.points.push_back(p);
  }
  return s;
}

Pose at(double x, double y, double z) { return {{x, y, z}, {1, 0, 0, 0}}; }
// Rotation by `degrees` about a coordinate axis (0 = x, 1 = y, 2 = z).
Pose turned(Pose pose, int axis, double degrees) {
  const double half = degrees * M_PI / 360.0;
  pose.q = {std::cos(half), 0, 0, 0};
  pose.q[1 + axis] = std::sin(half);
  return pose;
}

// Point-to-ellipsoid distance for an outside point, by bisection on the
// Lagrange multiplier t of the closest point x_i = a_i^2 p_i / (a_i^2 + t).
double point_ellipsoid(const std::array<double, 3>& a, const std::array<double, 3>& p) {
  auto g = [&](double t) {
    double s = 0;
    for (int i = 0; i < 3; ++i) s += std::pow(a[i] * p[i] / (a[i] * a[i] + t), 2);
    return s - 1;
  };
  double lo = 0, hi = 1e3;
  for (int k = 0; k < 200; ++k) (g(0.5 * (lo + hi)) > 0 ? lo : hi) = 0.5 * (lo + hi);
  const double t = 0.5 * (lo + hi);
  double d2 = 0;
  for (int i = 0; i < 3; ++i) d2 += std::pow(p[i] - a[i] * a[i] * p[i] / (a[i] * a[i] + t), 2);
  return std::sqrt(d2);
}

Case make(std::string name, ShapeSpec a, ShapeSpec b, std::vector<std::pair<Pose, Pose>> poses,
          std::vector<double> expected) {
  Case c{{std::move(name), std::move(a), std::move(b), {}, {}}, std::move(expected)};
  for (auto& [pa, pb] : poses) {
    c.work.pose_a.push_back(pa);
    c.work.pose_b.push_back(pb);
  }
  return c;
}

std::vector<Case> cases() {
  const double s2 = std::sqrt(2.0);
  const std::array<double, 3> radii{1, 0.5, 0.5};
  return {
      make("sphere-sphere", sphere(1), sphere(1),
           {{at(0, 0, 0), at(3, 0, 0)}, {turned(at(1, 1, 1), 0, 30), turned(at(1, 4, 1), 2, 70)},
            {at(0, 0, 0), at(1.5, 0, 0)}},
           {1, 1, -0.5}),
      make("box-box", box(2, 2, 2), box(2, 2, 2),
           {{at(0, 0, 0), at(3, 0, 0)}, {at(0, 0, 0), turned(at(3, 0, 0), 2, 45)},
            {turned(at(0, 0, 0), 1, 90), at(0, 0, -2.5)}, {at(0, 0, 0), at(1.5, 0, 0)}},
           {1, 2 - s2, 0.5, -0.5}),
      make("capsule-capsule", capsule(0.5, 2), capsule(0.5, 2),
           {{at(0, 0, 0), at(3, 0, 0)}, {at(0, 0, 0), turned(at(4, 0, 0), 1, 90)},
            {at(0, 0, 0), at(0, 0, 4)}, {at(0, 0, 0), at(0.8, 0, 0)}},
           {2, 2, 1, -0.2}),
      make("ellipsoid-sphere", ellipsoid(1, 0.5, 0.5), sphere(1),
           {{at(0, 0, 0), at(3, 0, 0)}, {turned(at(0, 0, 0), 2, 90), at(3, 0, 0)},
            {at(0, 0, 0), at(1.2, 1.5, 0)}},
           {1, 1.5, point_ellipsoid(radii, {1.2, 1.5, 0}) - 1}),
      make("cylinder-box", cylinder(1, 2), box(2, 2, 2),
           {{at(0, 0, 0), at(3, 0, 0)}, {at(0, 0, 0), at(0, 0, 3.5)},
            {turned(at(0, 0, 0), 0, 90), at(0, 3.5, 0)}, {at(0, 0, 0), at(1.7, 0, 0)}},
           {1, 1.5, 1.5, -0.3}),
      make("convex-convex", cube_hull(1), cube_hull(1),
           {{at(0, 0, 0), at(3, 0, 0)}, {at(0, 0, 0), turned(at(3, 0, 0), 2, 45)},
            {at(0, 0, 0), at(1.5, 0, 0)}},
           {1, 2 - s2, -0.5}),
      // Tip at (2, 1.5, 1.7): nearest cylinder point is the rim point (0.8, 0.6, 1).
      make("cylinder-convex", cylinder(1, 2), spike({1.2, 0.9, 0.7}),
           {{at(0, 0, 0), at(2, 1.5, 1.7)}}, {std::sqrt(1.2 * 1.2 + 0.9 * 0.9 + 0.7 * 0.7)}),
      // Tip at (0.3, 2.2, 0.4): nearest capsule point is the side at z = 0.4.
      make("capsule-convex", capsule(0.5, 2), spike({0.3, 2.2, 0}),
           {{at(0, 0, 0), at(0.3, 2.2, 0.4)}}, {std::hypot(0.3, 2.2) - 0.5}),
      // Closed forms against a face, an edge and a corner of the box.
      make("sphere-box", sphere(0.5), box(2, 2, 2),
           {{at(0, 0, 2), at(0, 0, 0)}, {at(2, 2, 0.5), at(0, 0, 0)}, {at(2, 2, 2), at(0, 0, 0)},
            {at(0, 2.5, 0), turned(at(0, 0, 0), 0, 45)}},
           {0.5, s2 - 0.5, std::sqrt(3.0) - 0.5, 2.5 - s2 - 0.5}),
      make("convex-sphere", cube_hull(1), sphere(0.5),
           {{at(0, 0, 0), at(0, 0, 3)}, {at(0, 0, 0), at(2, 2, 2)}},
           {1.5, std::sqrt(3.0) - 0.5}),
  };
}

// One line per peer; poses are listed only where the answer is NaN or off.
int check_peers() {
  int off = 0;
  for (const Case& c : cases()) {
    std::printf("\n== %s (%zu poses)\n", c.work.name.c_str(), c.expected.size());
    for (const Peer& peer : all_peers()) {
      const PeerCell cell = run_peer_isolated(peer, c.work, 10, std::chrono::seconds(30));
      std::printf("  %-21s %-52s", cell.library.c_str(), cell.solver.c_str());
      if (!cell.supported) {
        std::printf(" unsupported: %s\n", cell.note.c_str());
        strict_faults += strict(cell.library);
        continue;
      }
      double worst = 0;
      for (std::size_t i = 0; i < cell.distances.size(); ++i)
        if (std::isfinite(cell.distances[i]))
          worst = std::max(worst, std::fabs(cell.distances[i] - c.expected[i]));
      std::printf(" %8.0f ns  max|err| %.1e  failures %d%s%s\n", cell.median_ns, worst,
                  cell.failures, cell.note.empty() ? "" : "  note: ", cell.note.c_str());
      for (std::size_t i = 0; i < cell.distances.size(); ++i) {
        const double err = cell.distances[i] - c.expected[i];
        if (std::fabs(err) <= tolerance) continue;
        off += std::isfinite(err);
        strict_faults += strict(cell.library);
        std::printf("      pose %zu: got % .12f  want % .12f  err % .1e\n", i, cell.distances[i],
                    c.expected[i], err);
      }
    }
  }
  return off;
}

// Overlapping hand cases for the depth peers: expected signed distance
// (-depth) and B-to-A normal per pose.
struct DepthCase {
  Workload work;
  std::vector<double> expected;
  std::vector<std::array<double, 3>> normals;
};

DepthCase make_depth(std::string name, ShapeSpec a, ShapeSpec b,
                     std::vector<std::pair<Pose, Pose>> poses, std::vector<double> expected,
                     std::vector<std::array<double, 3>> normals) {
  DepthCase c{{std::move(name), std::move(a), std::move(b), {}, {}}, std::move(expected), std::move(normals)};
  for (auto& [pa, pb] : poses) {
    c.work.pose_a.push_back(pa);
    c.work.pose_b.push_back(pb);
  }
  return c;
}

std::vector<DepthCase> depth_cases() {
  return {
      // A 0.9 above B: moving A up by 1.1 separates.
      make_depth("box-box", box(2, 2, 2), box(2, 2, 2),
                 {{at(0, 0, 0.9), at(0, 0, 0)}, {turned(at(0, 0, 0.9), 2, 90), turned(at(0, 0, 0), 2, 30)},
                  {at(0, 0, 0), at(0, -1.6, 0)}, {at(1.6, 0, 0), at(0, 0, 0)}},
                 {-1.1, -1.1, -0.4, -0.4}, {{0, 0, 1}, {0, 0, 1}, {0, 1, 0}, {1, 0, 0}}),
      // Radii 0.5, centres 0.8 apart: depth 0.2 along the centre line.
      make_depth("sphere-sphere", sphere(0.5), sphere(0.5),
                 {{at(0.8, 0, 0), at(0, 0, 0)}, {at(0, 0, 0), at(0.48, 0, 0.64)}},
                 {-0.2, -0.2}, {{1, 0, 0}, {-0.6, 0, -0.8}}),
      // A along x at z = 0.7 over B along y: segments 0.7 apart, radii sum 1.
      make_depth("capsule-capsule", capsule(0.5, 2), capsule(0.5, 2),
                 {{turned(at(0, 0, 0.7), 1, 90), turned(at(0, 0, 0), 0, 90)},
                  {turned(at(0, 0, -0.7), 1, 90), turned(at(0, 0, 0), 0, 90)}},
                 {-0.3, -0.3}, {{0, 0, 1}, {0, 0, -1}}),
      // Sphere (A) 0.3 into the top and the +x face of a 2x2x2 box (B).
      make_depth("sphere-box", sphere(0.5), box(2, 2, 2),
                 {{at(0, 0, 1.3), at(0, 0, 0)}, {at(1.2, 0.1, 0.3), at(0, 0, 0)}},
                 {-0.2, -0.3}, {{0, 0, 1}, {1, 0, 0}}),
      // The same with the box as A: the normal flips.
      make_depth("box-sphere", box(2, 2, 2), sphere(0.5),
                 {{at(0, 0, 0), at(0, 1.2, 0)}}, {-0.3}, {{0, -1, 0}}),
      // Upright, then lying along x (a normal left in A's frame shows here).
      make_depth("cylinder-box", cylinder(1, 2), box(2, 2, 2),
                 {{at(0, 0, 1.8), at(0, 0, 0)}, {turned(at(0, 0, 1.8), 1, 90), at(0, 0, 0)}},
                 {-0.2, -0.2}, {{0, 0, 1}, {0, 0, 1}}),
      make_depth("convex-convex", cube_hull(1), cube_hull(1),
                 {{at(0, 0, 0.9), at(0, 0, 0)}, {at(1.5, 0, 0), turned(at(0, 0, 0), 2, 10)}},
                 // B turned 10 degrees reaches x = cos 10 + sin 10; A starts at 0.5.
                 {-1.1, -(std::cos(M_PI / 18) + std::sin(M_PI / 18) - 0.5)}, {{0, 0, 1}, {1, 0, 0}}),
      // The sphere's centre is 0.3 outside the ellipsoid's tip, whose radius
      // of curvature (0.25) is under 0.3: depth 0.5 - 0.3 along -x.
      make_depth("ellipsoid-sphere", ellipsoid(1, 0.5, 0.5), sphere(0.5),
                 {{at(0, 0, 0), at(1.3, 0, 0)}}, {-0.2}, {{-1, 0, 0}}),
  };
}

// One line per peer and pose: depth and normal next to the expected ones.
int check_depth_peers() {
  int off = 0;
  for (const DepthCase& c : depth_cases()) {
    std::printf("\n== depth %s (%zu poses)\n", c.work.name.c_str(), c.expected.size());
    for (std::size_t i = 0; i < c.expected.size(); ++i)
      std::printf("  pose %zu want d % .6f  n (% .4f % .4f % .4f)\n", i, c.expected[i], c.normals[i][0],
                  c.normals[i][1], c.normals[i][2]);
    for (const Peer& peer : all_depth_peers()) {
      const PeerCell cell = run_peer_isolated(peer, c.work, 10, std::chrono::seconds(30));
      std::printf("  %-22s %-50s", cell.library.c_str(), cell.solver.c_str());
      if (!cell.supported) {
        std::printf(" unsupported: %s\n", cell.note.c_str());
        strict_faults += strict(cell.library);
        continue;
      }
      std::printf(" %7.0f ns  failures %d%s%s\n", cell.median_ns, cell.failures,
                  cell.note.empty() ? "" : "  note: ", cell.note.c_str());
      for (std::size_t i = 0; i < cell.distances.size(); ++i) {
        const double d = cell.distances[i];
        const auto& want = c.normals[i];
        const bool has_normal = i < cell.normals.size() && std::isfinite(cell.normals[i][0]);
        const double depth_err = std::fabs(d - c.expected[i]);
        double angle = 0;  // degrees between the normals
        if (has_normal) {
          const auto& n = cell.normals[i];
          const double cosine = (n[0] * want[0] + n[1] * want[1] + n[2] * want[2]) /
                                std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
          angle = std::acos(std::clamp(cosine, -1.0, 1.0)) * 180.0 / M_PI;
        }
        // Exact: to 1e-6. Wrong: depth off by over 1e-3 or normal by over 1 degree.
        const bool wrong = !std::isfinite(d) || depth_err > 1e-3 || angle > 1.0;
        const bool exact = depth_err <= 1e-6 && angle <= 1e-6 * 180.0 / M_PI;
        off += std::isfinite(d) && wrong;
        // Coal and MuJoCo: exact depth and a normal within 1e-6 rad.
        strict_faults += strict(cell.library) && !(exact && has_normal);
        std::printf("      pose %zu: d % .6f (err %.1e)", i, d, depth_err);
        if (has_normal)
          std::printf("  n (% .4f % .4f % .4f) (%6.3f deg)", cell.normals[i][0], cell.normals[i][1],
                      cell.normals[i][2], angle);
        else
          std::printf("  n (none)                             ");
        std::printf("  %s\n", !std::isfinite(d) ? "FAILED" : wrong ? "WRONG" : exact ? "exact" : "inexact");
      }
    }
  }
  return off;
}

void show_isolation() {
  std::printf("\n== run_isolated\n");
  const PeerCell aborted = run_isolated([]() -> PeerCell { std::abort(); }, 3);
  std::printf("  abort():     failures %d, note \"%s\"\n", aborted.failures, aborted.note.c_str());
  const PeerCell hung = run_isolated(
      []() -> PeerCell {
        std::this_thread::sleep_for(std::chrono::seconds(30));
        return {};
      },
      3, std::chrono::seconds(1));
  std::printf("  hang:        failures %d, note \"%s\"\n", hung.failures, hung.note.c_str());
  const PeerCell threw = run_isolated([]() -> PeerCell { throw std::runtime_error("boom"); }, 3);
  std::printf("  throw:       failures %d, note \"%s\"\n", threw.failures, threw.note.c_str());
  PeerCell big;
  big.library = "roundtrip";
  big.note = "ok";
  big.median_ns = 12.5;
  big.failures = 2;
  for (int i = 0; i < 100000; ++i) big.distances.push_back(i * 0.25);
  for (int i = 0; i < 1000; ++i) big.normals.push_back({i * 1.0, -0.5, 0.125});
  const PeerCell back = run_isolated([&] { return big; }, 0);
  const bool same = back.library == big.library && back.note == big.note &&
                    back.distances == big.distances && back.failures == 2 && back.median_ns == 12.5 &&
                    back.normals == big.normals;
  std::printf("  round trip of %zu distances and %zu normals: %s\n", big.distances.size(), big.normals.size(),
              same ? "identical" : "DIFFERENT");
}

// Every manifold peer on a unit cube resting on a 2x2x1 slab, shifted by 0.2
// in x and sunk 0.01: the converted manifold must have the normal +z and
// depth 0.01 at each point, with points over the overlap's corners (or, for
// one-point peers, inside it). Shows each library's convention conversion.
int check_manifold_peers() {
  Workload work{"resting cube", box(1, 1, 1), box(2, 2, 1), {at(0.2, 0, 0.99)}, {at(0, 0, 0)}};
  int wrong = 0;
  std::printf("\nManifold peers, cube resting on a slab (normal +z, depth 0.01, corners x in {-0.3, 0.7}, y = ±0.5):\n");
  for (const ManifoldPeer& peer : all_manifold_peers()) {
    const ManifoldCell cell = run_manifold_peer_isolated(peer, work, 1);
    std::printf("  %-24s %-60s", cell.library.c_str(), cell.solver.c_str());
    if (!cell.supported || cell.manifolds.empty() || cell.manifolds[0].points.empty()) {
      std::printf(" no manifold (%s)\n", cell.note.c_str());
      ++wrong;
      continue;
    }
    const Manifold& m = cell.manifolds[0];
    bool ok = std::fabs(m.normal[2] - 1.0) < 1e-9;
    for (const ManifoldPoint& p : m.points) {
      ok = ok && std::fabs(p.depth - 0.01) < 1e-9 && p.position[0] > -0.3 - 1e-9 && p.position[0] < 0.7 + 1e-9 &&
           std::fabs(p.position[1]) < 0.5 + 1e-9;
      std::printf(" (%.3g %.3g %.4g; %.3g)", p.position[0], p.position[1], p.position[2], p.depth);
    }
    std::printf(" %s\n", ok ? "ok" : "WRONG");
    wrong += !ok;
  }
  return wrong;
}

}  // namespace

int main() {
  const int off = check_peers();
  const int depth_off = check_depth_peers();
  const int manifold_wrong = check_manifold_peers();
  show_isolation();
  std::printf("\n%d finite distances off by more than %.0e\n", off, tolerance);
  std::printf("%d finite depth answers wrong (depth off by > 1e-3 or normal by > 1 degree)\n", depth_off);
  std::printf("%d manifold peers with a wrong converted manifold\n", manifold_wrong);
  std::printf("%d Coal or MuJoCo answers unsupported, failed or off (must be 0)\n", strict_faults);
  return strict_faults == 0 ? 0 : 1;
}
