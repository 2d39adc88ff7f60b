// SPDX-License-Identifier: BSD-3-Clause
// proxima-blem-bench: boundary-layer (BLEM) mesh contacts, the
// benchmark.
//
//  1. A robot foot (closed rounded box, ~1k triangles, margin 2.5 mm) sliding
//     over a 1,000,000-triangle noisy terrain with holes (margin 0) at a 1 mm
//     core gap: per-call time of mesh_contacts with clustering (k = 50), split
//     into BVH traversal (traverse_only), triangle tests (raw − traversal) and
//     clustering (cluster_contacts on the raw set), raw contact counts.
//  2. Cube on cube (12 triangles each) and a fingertip (~1k triangles, ~1 mm²
//     each) on a cube, beside FCL's BVHModel contacts and Bullet's GImpact on
//     the same poses: contact counts, distinct points, whether the set
//     supports the upper body, time per call.
//  3. The scanned mug of MuJoCo's samples between two boxes (a box mesh and a
//     box shape): contacts, how many push along the box face's normal.
//
// Usage: proxima-blem-bench [--markdown] [--poses N] [--repeats R] [--digest] [--feature-pairs] [--quiet]
// PROXIMA_BLEM_BENCH_QUICK=1: a ~50k-triangle terrain and a few poses (the
// ctest smoke test). Exits 1 when a check fails: a NaN anywhere in Proxima's
// output, a terrain pose without contacts or with more than k, or a Proxima
// cube-on-cube set that does not support the cube.
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <ctime>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <sys/utsname.h>

#include <proxima/contact/cluster.hpp>
#include <proxima/core/error.hpp>
#include <proxima/io/mesh_io.hpp>
#include <proxima/mesh/mesh_contacts.hpp>
#include <proxima/mesh/mesh_queries.hpp>

#include "arguments.hpp"
#include "mesh_gen.hpp"
#include "peers/timing.hpp"
#include "progress.hpp"
#ifdef PROXIMA_HAVE_PEERS
#include "peers/mesh_contacts.hpp"
#endif

namespace {

using proxima::Bvh;
using proxima::Contact;
using proxima::ContactSet;
using proxima::Mat3;
using proxima::MeshContactOptions;
using proxima::MeshContactScratch;
using proxima::MeshContactStats;
using proxima::Transform;
using proxima::TriangleMesh;
using proxima::Vec3;
using proxima::bench::Pose;
using proxima::bench::detail::keep;
using proxima::bench::detail::median;
using clock_type = std::chrono::steady_clock;

constexpr double kFootMargin = 0.0025;  // r of the moving body
constexpr double kGap = 0.001;          // core gap inside the layer
bool digest = false;                    // --digest
bool feature_pairs = false;             // --feature-pairs: MeshContactOptions::feature_pairs

// FNV-1a over the bit patterns of a contact set's numbers and features.
void fold(std::uint64_t& h, const std::vector<Contact>& points) {
  auto word = [&h](std::uint64_t w) {
    for (int k = 0; k < 8; ++k) {
      h ^= (w >> (8 * k)) & 0xffu;
      h *= 0x100000001b3ull;
    }
  };
  auto number = [&word](double x) {
    std::uint64_t w;
    std::memcpy(&w, &x, sizeof w);
    word(w);
  };
  word(points.size());
  for (const Contact& c : points) {
    for (int k = 0; k < 3; ++k) number(c.point[k]);
    for (int k = 0; k < 3; ++k) number(c.normal[k]);
    number(c.depth);
    word(static_cast<std::uint64_t>(c.feature_a) << 32 ^ static_cast<std::uint32_t>(c.feature_b));
    word(c.intersecting);
  }
}

// The progress line (stderr on a terminal, without --quiet): a step for the
// terrain's making, one for the foot's poses, one per terrain pose, then one
// per row of the pair tables; advanced between timed calls and erased before
// anything is printed.
struct Steps {
  proxima::apps::Progress* line = nullptr;
  double done = 0.0;
  void next(const std::string& note) {
    if (line) line->update(done, note);
    done += 1.0;
  }
  void clear() const {
    if (line) line->clear();
  }
};
Steps steps;

int failures = 0;
void check(bool ok, const std::string& what) {
  if (!ok) {
    steps.clear();
    ++failures;
    std::fprintf(stderr, "CHECK FAILED: %s\n", what.c_str());
  }
}

// Median ns of one call, batched as the peers' adapters time theirs.
template <class Fn>
double call_ns(Fn&& fn, int repeats) {
  return proxima::bench::detail::median_call_ns(std::forward<Fn>(fn), repeats);
}

// ---------------------------------------------------------------- tables

struct Table {
  std::string title;
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> notes;
  bool left = false;     ///< left-align every column
  int left_columns = 1;  ///< else only the first ones (the others are numbers)
};

bool markdown = false;

void print(const Table& t) {
  steps.clear();
  if (markdown) {
    std::printf("\n**%s**\n\n|", t.title.c_str());
    for (const auto& h : t.header) std::printf(" %s |", h.c_str());
    std::printf("\n|");
    for (std::size_t i = 0; i < t.header.size(); ++i) std::printf(t.left || int(i) < t.left_columns ? " --- |" : " ---: |");
    std::printf("\n");
    for (const auto& r : t.rows) {
      std::printf("|");
      for (const auto& c : r) std::printf(" %s |", c.c_str());
      std::printf("\n");
    }
    if (!t.notes.empty()) std::printf("\n");
    for (const auto& n : t.notes) std::printf("%s\n", n.c_str());
    return;
  }
  std::vector<std::size_t> w(t.header.size(), 0);
  for (std::size_t i = 0; i < t.header.size(); ++i) w[i] = t.header[i].size();
  for (const auto& r : t.rows)
    for (std::size_t i = 0; i < r.size() && i < w.size(); ++i) w[i] = std::max(w[i], r[i].size());
  std::printf("\n%s\n", t.title.c_str());
  auto line = [&](const std::vector<std::string>& r) {
    std::printf(" ");
    for (std::size_t i = 0; i < r.size(); ++i)
      std::printf(t.left || int(i) < t.left_columns ? " %-*s" : "  %*s", static_cast<int>(w[i]), r[i].c_str());
    std::printf("\n");
  };
  line(t.header);
  for (const auto& r : t.rows) line(r);
  for (const auto& n : t.notes) std::printf("  %s\n", n.c_str());
}

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

// ---------------------------------------------------------------- geometry

using P2 = std::array<double, 2>;

double cross2(const P2& o, const P2& a, const P2& b) {
  return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
}

// Counter-clockwise convex hull (Andrew's monotone chain); collinear points dropped.
std::vector<P2> hull2(std::vector<P2> p) {
  std::sort(p.begin(), p.end());
  p.erase(std::unique(p.begin(), p.end()), p.end());
  if (p.size() < 3) return p;
  std::vector<P2> h(2 * p.size());
  std::size_t k = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    while (k >= 2 && cross2(h[k - 2], h[k - 1], p[i]) <= 0) --k;
    h[k++] = p[i];
  }
  for (std::size_t i = p.size() - 1, t = k + 1; i-- > 0;) {
    while (k >= t && cross2(h[k - 2], h[k - 1], p[i]) <= 0) --k;
    h[k++] = p[i];
  }
  h.resize(k - 1);
  return h;
}

double area2(const std::vector<P2>& poly) {
  double a = 0;
  for (std::size_t i = 0; i < poly.size(); ++i) {
    const P2& p = poly[i];
    const P2& q = poly[(i + 1) % poly.size()];
    a += p[0] * q[1] - p[1] * q[0];
  }
  return 0.5 * std::abs(a);
}

// Inside a counter-clockwise convex polygon, boundary included (to `tol` m).
bool inside(const std::vector<P2>& poly, const P2& x, double tol = 1e-9) {
  if (poly.size() < 3) return false;
  for (std::size_t i = 0; i < poly.size(); ++i) {
    const P2& a = poly[i];
    const P2& b = poly[(i + 1) % poly.size()];
    const double len = std::hypot(b[0] - a[0], b[1] - a[1]);
    if (cross2(a, b, x) < -tol * len) return false;
  }
  return true;
}

// Convex polygon `subject` clipped by convex counter-clockwise `clip`.
std::vector<P2> clip_convex(std::vector<P2> subject, const std::vector<P2>& clip) {
  for (std::size_t i = 0; i < clip.size() && !subject.empty(); ++i) {
    const P2& a = clip[i];
    const P2& b = clip[(i + 1) % clip.size()];
    std::vector<P2> out;
    for (std::size_t j = 0; j < subject.size(); ++j) {
      const P2& p = subject[j];
      const P2& q = subject[(j + 1) % subject.size()];
      const double dp = cross2(a, b, p), dq = cross2(a, b, q);
      if (dp >= 0) out.push_back(p);
      if ((dp >= 0) != (dq >= 0)) {
        const double t = dp / (dp - dq);
        out.push_back({p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])});
      }
    }
    subject = std::move(out);
  }
  return subject;
}

// The rectangle of half-extents (hx, hy) at `pose`, seen from above (x, y), ccw.
std::vector<P2> face_xy(const Transform& pose, double hx, double hy) {
  std::vector<P2> p;
  for (const auto& c : {Vec3(-hx, -hy, 0), Vec3(hx, -hy, 0), Vec3(hx, hy, 0), Vec3(-hx, hy, 0)}) {
    const Vec3 w = pose.apply(c);
    p.push_back({w.x(), w.y()});
  }
  return hull2(p);
}

// A contact set reduced to what the support test needs.
struct Point {
  Vec3 position;
  double depth;
  Vec3 normal;  // B to A
};

std::size_t distinct(const std::vector<Point>& pts) {
  std::set<std::tuple<long long, long long, long long>> s;
  for (const Point& p : pts)
    s.emplace(std::llround(p.position.x() * 1e6), std::llround(p.position.y() * 1e6), std::llround(p.position.z() * 1e6));
  return s.size();
}

// The set supports the upper body (contact plane horizontal): the centre of
// pressure (depth-weighted mean, plain mean when no depth is positive) lies
// inside the resting polygon (both faces' overlap, seen from above), and the
// points' convex hull contains the upper body's centre of mass seen from above.
bool supports(const std::vector<Point>& pts, const std::vector<P2>& resting, const Vec3& com) {
  if (pts.empty()) return false;
  double w = 0;
  Vec3 cop = Vec3::Zero(), mean = Vec3::Zero();
  for (const Point& p : pts) {
    mean += p.position;
    if (std::isfinite(p.depth) && p.depth > 0) {
      cop += p.depth * p.position;
      w += p.depth;
    }
  }
  cop = w > 0 ? Vec3(cop / w) : Vec3(mean / static_cast<double>(pts.size()));
  std::vector<P2> xy;
  for (const Point& p : pts) xy.push_back({p.position.x(), p.position.y()});
  return inside(resting, {cop.x(), cop.y()}) && inside(hull2(xy), {com.x(), com.y()});
}

bool finite(const ContactSet& s) {
  if (!std::isfinite(s.distance) || !s.normal.allFinite()) return false;
  for (const Contact& c : s.points)
    if (!c.point.allFinite() || !c.normal.allFinite() || !std::isfinite(c.depth)) return false;
  return true;
}

Pose to_pose(const Transform& t) {
  const Eigen::Quaterniond q(t.R);
  return {{t.p.x(), t.p.y(), t.p.z()}, {q.w(), q.x(), q.y(), q.z()}};
}

#ifdef PROXIMA_HAVE_PEERS
proxima::bench::MeshSpec to_spec(const TriangleMesh& m) {
  proxima::bench::MeshSpec s;
  for (const Vec3& v : m.vertices()) s.vertices.push_back({v.x(), v.y(), v.z()});
  for (const auto& t : m.triangles())
    s.triangles.push_back({static_cast<int>(t[0]), static_cast<int>(t[1]), static_cast<int>(t[2])});
  return s;
}
#endif

// Rotation taking +z to the unit vector n (shortest arc).
Mat3 align_z(const Vec3& n) {
  const Eigen::Quaterniond q = Eigen::Quaterniond::FromTwoVectors(Vec3::UnitZ(), n);
  return q.toRotationMatrix();
}

// ---------------------------------------------------------------- 1. terrain

void terrain_scene(bool quick, std::size_t poses, int repeats) {
  using proxima::bench::TerrainGrid;
  // Gentle hills (a few cm over metres) with 0.5 mm per-vertex noise on a
  // 1 cm grid: a scanned floor. Holes: random disks of 5–30 cm and one placed
  // under the end of the trajectory, so the foot's toe slides over a rim.
  const proxima::bench::Terrain terrain(21, 0.08, 0.15, 5);
  TerrainGrid grid;
  grid.side = quick ? 160 : 748;  // 1,004,204 triangles after the holes
  grid.spacing = 0.01;
  grid.noise = 0.0005;
  grid.holes = quick ? 3 : 60;
  grid.hole_min = 0.05;
  grid.hole_max = 0.30;
  const double mid = 0.5 * grid.side * grid.spacing;
  const Vec3 start(mid - 0.04, mid - 0.01, 0), travel(0.08, 0.02, 0);
  grid.extra_holes.push_back({start.x() + travel.x() + 0.13, start.y() + travel.y(), 0.05});
  // The random holes keep clear of the trajectory (the foot must rest on
  // something), the placed one does not.
  grid.keep_clear.push_back({start.x() + 0.5 * travel.x(), start.y() + 0.5 * travel.y(), 0.18});
  std::mt19937 g(22);
  steps.next("terrain: mesh and BVH");
  const auto t0 = clock_type::now();
  std::vector<proxima::bench::Hole> holes;
  const TriangleMesh ground = proxima::bench::terrain_mesh(terrain, grid, g, &holes);
  const double gen_s = std::chrono::duration<double>(clock_type::now() - t0).count();
  const Bvh tb(ground);
  // Holes (random or placed) reaching under the trajectory's footprint.
  int holes_on_path = 0;
  for (const proxima::bench::Hole& h : holes) {
    const Vec3 c(h.x, h.y, 0);
    const double along = std::clamp((c - start).dot(travel) / travel.squaredNorm(), 0.0, 1.0);
    holes_on_path += (c - start - along * travel).norm() < h.radius + 0.12;
  }

  // Foot: 20 x 10 x 4 cm rounded box (1 cm radius), 18 x 9 x 4 cells: 1,080 triangles.
  const TriangleMesh foot = proxima::bench::box_mesh(Vec3(0.20, 0.10, 0.04), {18, 9, 4}, 0.01, kFootMargin, "foot");
  const Bvh fb(foot);
  const Bvh fcore(foot.with_margin(0.0));

  // Poses: slide by `travel` with yaw 0 → 0.2 rad; the sole follows the local
  // slope (height-function gradient over ±5 cm) and sits at a 1 mm core gap
  // from the terrain mesh (Proxima's mesh distance, iterated to 1e-7 m).
  steps.next("foot poses at a 1 mm gap");
  std::vector<Transform> path;
  double worst_gap = 0;
  for (std::size_t i = 0; i < poses; ++i) {
    const double s = poses > 1 ? double(i) / double(poses - 1) : 0.0;
    const Vec3 c = start + s * travel;
    const double e = 0.05;
    const double dx = (terrain.height(c.x() + e, c.y()) - terrain.height(c.x() - e, c.y())) / (2 * e);
    const double dy = (terrain.height(c.x(), c.y() + e) - terrain.height(c.x(), c.y() - e)) / (2 * e);
    const Vec3 n = Vec3(-dx, -dy, 1).normalized();
    const Mat3 R = align_z(n) * Eigen::AngleAxisd(0.2 * s, Vec3::UnitZ()).toRotationMatrix();
    Transform pose{R, Vec3(c.x(), c.y(), terrain.height(c.x(), c.y()) + 0.02 + kGap + 0.003)};
    double gap = 0;
    for (int it = 0; it < 20; ++it) {
      const auto d = proxima::distance(fcore, pose, tb, Transform::identity());
      gap = d.distance;
      if (d.distance <= 0) {  // touching: lift and retry
        pose.p.z() += 0.005;
        continue;
      }
      if (std::abs(gap - kGap) < 1e-7) break;
      pose.p.z() += (kGap - gap) / std::max(d.normal.z(), 0.2);
    }
    worst_gap = std::max(worst_gap, std::abs(gap - kGap));
    path.push_back(pose);
  }
  check(worst_gap < 1e-6, "terrain poses at a 1 mm gap (worst error " + fmt("%.2e", worst_gap) + ")");

  MeshContactOptions full;
  full.clustering.max_contacts = 50;
  full.feature_pairs = feature_pairs;
  MeshContactOptions raw = full;
  raw.cluster = false;
  MeshContactOptions trav = raw;
  trav.traverse_only = true;
  const Transform I = Transform::identity();

  std::vector<double> t_full, t_alloc, t_trav, t_raw, t_cluster, n_raw, n_out, n_tests, n_nodes, n_inter, n_within,
      n_features, n_shadowed, cover;
  ContactSet set, rawset;
  // The caller's working memory, kept along the trajectory as a simulator
  // keeps one per body pair; the overload without one allocates per call.
  MeshContactScratch scratch;
  MeshContactStats st;
  std::size_t empty_poses = 0, nan_poses = 0, too_many = 0;
  std::uint64_t hash = 0xcbf29ce484222325ull;
  for (const Transform& pose : path) {
    steps.next("foot on terrain");
    st = {};
    proxima::mesh_contacts(fb, pose, tb, I, raw, rawset, &st);
    n_raw.push_back(double(st.raw_contacts));
    n_tests.push_back(double(st.triangle_tests));
    n_nodes.push_back(double(st.node_pairs));
    n_inter.push_back(double(st.intersecting));
    n_within.push_back(double(st.pairs_within));
    n_features.push_back(double(st.feature_pairs));
    n_shadowed.push_back(double(st.shadowed));
    proxima::mesh_contacts(fb, pose, tb, I, full, set);
    fold(hash, rawset.points);
    fold(hash, set.points);
    n_out.push_back(double(set.points.size()));
    empty_poses += set.points.empty();
    nan_poses += !finite(set) || !finite(rawset) || set.status != proxima::Status::ok;
    too_many += set.points.size() > 50;
    // Patch coverage: hull area (seen along the sole's normal) of the
    // clustered set over that of the raw set.
    {
      const Mat3 Rt = pose.R.transpose();
      auto area = [&](const std::vector<Contact>& pts) {
        std::vector<P2> xy;
        for (const Contact& c : pts) {
          const Vec3 l = Rt * c.point;
          xy.push_back({l.x(), l.y()});
        }
        return area2(hull2(xy));
      };
      const double ar = area(rawset.points);
      if (ar > 0) cover.push_back(area(set.points) / ar);
    }
    t_full.push_back(
        call_ns([&] { proxima::mesh_contacts(fb, pose, tb, I, full, set, scratch); keep(set); }, repeats));
    t_alloc.push_back(call_ns([&] { proxima::mesh_contacts(fb, pose, tb, I, full, set); keep(set); }, repeats));
    t_trav.push_back(
        call_ns([&] { proxima::mesh_contacts(fb, pose, tb, I, trav, set, scratch); keep(set); }, repeats));
    t_raw.push_back(call_ns([&] { proxima::mesh_contacts(fb, pose, tb, I, raw, set, scratch); keep(set); }, repeats));
    std::vector<Contact> work;
    work.reserve(rawset.points.size());
    const double copy_ns = call_ns([&] { work = rawset.points; keep(work); }, repeats);
    const double cl_ns = call_ns(
        [&] {
          work = rawset.points;
          keep(proxima::cluster_contacts(work, full.clustering));
        },
        repeats);
    t_cluster.push_back(std::max(cl_ns - copy_ns, 0.0));
  }
  steps.clear();
  if (digest) std::printf("\nterrain contacts digest (raw and clustered, %zu poses): %016llx\n", path.size(),
                          static_cast<unsigned long long>(hash));
  check(empty_poses == 0, "every terrain pose has contacts (" + std::to_string(empty_poses) + " without)");
  check(nan_poses == 0, "terrain contacts finite and ok (" + std::to_string(nan_poses) + " bad poses)");
  check(too_many == 0, "terrain clustered sets at most k = 50");

  auto mean = [](const std::vector<double>& v) {
    double s = 0;
    for (double x : v) s += x;
    return v.empty() ? std::nan("") : s / double(v.size());
  };
  auto peak = [](const std::vector<double>& v) { return v.empty() ? std::nan("") : *std::max_element(v.begin(), v.end()); };
  std::vector<double> t_tri(t_raw.size());
  for (std::size_t i = 0; i < t_raw.size(); ++i) t_tri[i] = std::max(t_raw[i] - t_trav[i], 0.0);
  double raw_total = 0;
  for (double x : n_raw) raw_total += x;

  Table info{"1. Foot sliding on the terrain: scene", {"item", "value"}, {}, {}, true};
  info.rows.push_back({"terrain", std::to_string(ground.triangle_count()) + " triangles, " +
                                      std::to_string(grid.side) + "x" + std::to_string(grid.side) + " grid of " +
                                      fmt("%.0f", grid.spacing * 1000) + " mm, noise ±" +
                                      fmt("%.1f", grid.noise * 1000) + " mm, " + std::to_string(holes.size()) +
                                      " holes, margin 0"});
  info.rows.push_back({"terrain generation + BVH build",
                       fmt("%.2f s", gen_s) + " + " + fmt("%.2f s", tb.build_seconds())});
  info.rows.push_back({"foot", std::to_string(foot.triangle_count()) +
                                   " triangles, 200x100x40 mm rounded box (10 mm radius), closed " +
                                   (foot.is_closed() ? "yes" : "NO") + ", margin 2.5 mm"});
  info.rows.push_back({"trajectory", std::to_string(path.size()) + " poses, slides 82 mm with yaw 0 → 0.2 rad, "
                                     "sole along the local slope, 1 mm core gap (max error " +
                                         fmt("%.1e", worst_gap) + " m); " + std::to_string(holes_on_path) +
                                         " hole(s) reach under it (the toe crosses a placed hole's rim at the end)"});
  info.rows.push_back({"query", "mesh_contacts(foot, terrain), k = 50, one MeshContactScratch kept along the path, "
                                    "repeats " + std::to_string(repeats) + ", per pose the median call"});
  print(info);

  Table tab{"1. Foot on terrain: time per call (µs)", {"phase", "mean", "median", "peak", "target"}, {}, {}};
  auto row = [&](const char* name, const std::vector<double>& v, const char* target) {
    tab.rows.push_back({name, fmt("%.1f", mean(v) / 1e3), fmt("%.1f", median(v) / 1e3), fmt("%.1f", peak(v) / 1e3),
                        target});
  };
  row("mesh_contacts, clustered (k = 50)", t_full, "≤ 1000 mean, ≤ 5000 peak");
  row("  BVH traversal (traverse_only)", t_trav, "");
  row("  triangle tests (raw − traversal)", t_tri, "");
  row("  clustering (cluster_contacts on the raw set)", t_cluster, "");
  row("mesh_contacts, raw (cluster = false)", t_raw, "");
  row("mesh_contacts, clustered, no scratch (allocates per call)", t_alloc, "");
  {
    const auto worst = std::max_element(t_full.begin(), t_full.end()) - t_full.begin();
    tab.notes.push_back("Slowest pose: " + std::to_string(worst) + " of " + std::to_string(t_full.size()) + " (" +
                        fmt("%.0f", n_raw[static_cast<std::size_t>(worst)]) + " raw contacts).");
  }
  tab.notes.push_back("Peak = the slowest pose's median call. The paper's own code (Klampt) measured 6.1 ms mean, "
                      "9 ms peak, ~5 µs per raw contact on such a scene (the paper's figure, not measured here).");
  print(tab);

  Table cnt{"1. Foot on terrain: counts per call", {"quantity", "mean", "max"}, {}, {}};
  auto crow = [&](const char* name, const std::vector<double>& v, const char* f) {
    cnt.rows.push_back({name, fmt(f, mean(v)), fmt(f, peak(v))});
  };
  crow("BVH node pairs visited", n_nodes, "%.0f");
  crow("triangle pairs tested", n_tests, "%.0f");
  crow("triangle pairs within the layers", n_within, "%.1f");
  if (feature_pairs) {
    crow("feature pairs within the layers", n_features, "%.1f");
    crow("  of which not mutually nearest", n_shadowed, "%.1f");
  }
  crow("raw contacts", n_raw, "%.1f");
  crow("  of which intersecting", n_inter, "%.1f");
  crow("clustered contacts", n_out, "%.1f");
  cnt.rows.push_back({"µs per raw contact (clustered call)",
                      fmt("%.3f", raw_total > 0 ? mean(t_full) * double(t_full.size()) / raw_total / 1e3 : std::nan("")),
                      ""});
  cnt.rows.push_back({"clustered hull area / raw hull area", fmt("%.3f", mean(cover)),
                      "min " + fmt("%.3f", cover.empty() ? std::nan("") : *std::min_element(cover.begin(), cover.end()))});
  print(cnt);
}

// ---------------------------------------------------------------- 2. pairs

struct PairScene {
  std::string name;
  TriangleMesh upper, lower;  // upper = A (normals point up), lower = B
  double upper_hx, upper_hy, upper_hz, lower_hx, lower_hy, lower_hz;
  std::vector<Transform> gap, overlap;  // poses of the upper body; the lower one is at the identity
};

struct Result {
  std::string library, solver;
  std::vector<std::vector<Point>> sets;
  std::vector<double> ns;  // per pose
  double median_ns = 0;
};

void pair_scenes(bool quick, int repeats) {
  const std::size_t n = quick ? 4 : 20;
  std::mt19937 g(31);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<PairScene> scenes;
  const double overlap = 0.001;
  {
    PairScene s{"cube on cube (12 + 12 triangles, 10 cm)",
                proxima::bench::box_mesh(Vec3(0.1, 0.1, 0.1), {1, 1, 1}, 0.0, kFootMargin, "upper cube"),
                proxima::bench::box_mesh(Vec3(0.1, 0.1, 0.1), {1, 1, 1}, 0.0, 0.0, "lower cube"),
                0.05, 0.05, 0.05, 0.05, 0.05, 0.05, {}, {}};
    for (std::size_t i = 0; i < n; ++i) {
      const double x = 0.02 * u(g), y = 0.02 * u(g), yaw = i == 0 ? 0.0 : 0.4 * u(g);
      const Mat3 R = Eigen::AngleAxisd(yaw, Vec3::UnitZ()).toRotationMatrix();
      if (i == 0) {
        s.gap.push_back({R, Vec3(0, 0, 0.1 + kGap)});
        s.overlap.push_back({R, Vec3(0, 0, 0.1 - overlap)});
      } else {
        s.gap.push_back({R, Vec3(x, y, 0.1 + kGap)});
        s.overlap.push_back({R, Vec3(x, y, 0.1 - overlap)});
      }
    }
    scenes.push_back(std::move(s));
  }
  {
    // PR2-like fingertip pad: 20 x 14 x 7 mm, 14 x 10 x 5 cells of ~1.4 mm:
    // 1,040 triangles of ~1 mm².
    PairScene s{"fingertip (1,040 triangles, 20x14x7 mm) on a cube (12 triangles)",
                proxima::bench::box_mesh(Vec3(0.020, 0.014, 0.007), {14, 10, 5}, 0.0, kFootMargin, "fingertip"),
                proxima::bench::box_mesh(Vec3(0.1, 0.1, 0.1), {1, 1, 1}, 0.0, 0.0, "lower cube"),
                0.010, 0.007, 0.0035, 0.05, 0.05, 0.05, {}, {}};
    for (std::size_t i = 0; i < n; ++i) {
      const double x = 0.03 * u(g), y = 0.03 * u(g), yaw = i == 0 ? 0.0 : M_PI * u(g);
      const Mat3 R = Eigen::AngleAxisd(yaw, Vec3::UnitZ()).toRotationMatrix();
      s.gap.push_back({R, Vec3(i == 0 ? 0 : x, i == 0 ? 0 : y, 0.05 + 0.0035 + kGap)});
      s.overlap.push_back({R, Vec3(i == 0 ? 0 : x, i == 0 ? 0 : y, 0.05 + 0.0035 - overlap)});
    }
    scenes.push_back(std::move(s));
  }

  for (const PairScene& s : scenes) {
    const Bvh ua(s.upper), lb(s.lower);
    for (int kind = 0; kind < 2; ++kind) {
      const std::vector<Transform>& poses = kind == 0 ? s.gap : s.overlap;
      std::vector<Result> results;
      const std::string note = s.name.substr(0, s.name.find(" (")) + (kind == 0 ? ", gap" : ", overlap");
      auto proxima_row = [&](bool clustered) {
        steps.next(note);
        Result r{"Proxima", clustered ? "mesh_contacts, clustered k = 50" : "mesh_contacts, raw", {}, {}, 0};
        MeshContactOptions o;
        o.clustering.max_contacts = 50;
        o.cluster = clustered;
        o.feature_pairs = feature_pairs;
        ContactSet set;
        for (const Transform& p : poses) {
          proxima::mesh_contacts(ua, p, lb, Transform::identity(), o, set);
          check(finite(set), s.name + ": Proxima output finite");
          std::vector<Point> pts;
          for (const Contact& c : set.points) pts.push_back({c.point, c.depth, c.normal});
          r.sets.push_back(std::move(pts));
          r.ns.push_back(call_ns([&] { proxima::mesh_contacts(ua, p, lb, Transform::identity(), o, set); keep(set); },
                                 repeats));
        }
        r.median_ns = median(r.ns);
        results.push_back(std::move(r));
      };
      proxima_row(true);
      proxima_row(false);
#ifdef PROXIMA_HAVE_PEERS
      {
        std::vector<Pose> pa, pb;
        for (const Transform& p : poses) {
          pa.push_back(to_pose(p));
          pb.push_back(to_pose(Transform::identity()));
        }
        const auto sa = to_spec(s.upper), sb = to_spec(s.lower);
        auto add = [&](proxima::bench::MeshContactCell cell) {
          steps.next(note);  // after this cell, before the next one's run
          Result r{cell.library, cell.solver, {}, {}, cell.median_ns};
          for (const auto& set : cell.contacts) {
            std::vector<Point> pts;
            for (const auto& c : set) pts.push_back({Vec3(c.position[0], c.position[1], c.position[2]), c.depth,
                             Vec3(c.normal[0], c.normal[1], c.normal[2])});
            r.sets.push_back(std::move(pts));
          }
          results.push_back(std::move(r));
        };
        add(proxima::bench::run_fcl_mesh_contacts(sa, sb, pa, pb, repeats));
        add(proxima::bench::run_bullet_gimpact_contacts(sa, sb, pa, pb, repeats, s.upper.margin(), s.lower.margin(),
                                                        false));
        add(proxima::bench::run_bullet_gimpact_contacts(sa, sb, pa, pb, repeats, s.upper.margin(), s.lower.margin(),
                                                        true));
      }
#endif
      const double ours = results.front().median_ns;
      Table t{"2. " + s.name + (kind == 0 ? ", 1 mm core gap (inside the 2.5 mm layer)" : ", cores overlapping 1 mm"),
              {"library", "solver", "contacts mean [min, max]", "distinct points mean", "mean n·z", "supports", "median µs",
               "vs Proxima"},
              {},
              {},
              false,
              2};
      for (const Result& r : results) {
        double cm = 0, dm = 0, cmin = 1e300, cmax = 0, nz = 0, nn = 0;
        std::size_t sup = 0;
        for (std::size_t i = 0; i < r.sets.size(); ++i) {
          const auto& pts = r.sets[i];
          const double c = double(pts.size());
          cm += c;
          cmin = std::min(cmin, c);
          cmax = std::max(cmax, c);
          dm += double(distinct(pts));
          for (const Point& q : pts) {
            nz += q.normal.z();
            ++nn;
          }
          const Transform& p = poses[i];
          const std::vector<P2> resting =
              clip_convex(face_xy(p, s.upper_hx, s.upper_hy), face_xy(Transform::identity(), s.lower_hx, s.lower_hy));
          sup += supports(pts, resting, p.p);
        }
        const double k = r.sets.empty() ? 1 : double(r.sets.size());
        t.rows.push_back({r.library, r.solver,
                          fmt("%.1f", cm / k) + " [" + fmt("%.0f", cmin) + ", " + fmt("%.0f", cmax) + "]",
                          fmt("%.1f", dm / k), nn > 0 ? fmt("%.3f", nz / nn) : std::string("–"), std::to_string(sup) + "/" + std::to_string(r.sets.size()),
                          fmt("%.2f", r.median_ns / 1e3), fmt("%.2fx", r.median_ns / ours)});
        if (r.library == "Proxima" && kind == 0 && &s == &scenes.front())
          check(sup == r.sets.size(), "Proxima (" + r.solver + ") supports the cube on every gap pose (" +
                                          std::to_string(sup) + "/" + std::to_string(r.sets.size()) + ")");
      }
      if (kind == 0)
        t.notes.push_back("Poses: the lower body at the identity; the upper one (margin 2.5 mm, lower margin 0) with "
                          "its bottom face 1 mm above the lower top face, pose 0 centred, the others offset "
                          "uniformly in ±" + std::string(&s == &scenes.front() ? "20 mm, yaw ±0.4 rad" : "30 mm, yaw ±π") +
                          ". FCL reports only intersecting triangles, so it has nothing here.");
      else
        t.notes.push_back("Same (x, y, yaw) with the upper body 1 mm into the lower one (cores intersect): the pose "
                          "FCL and GImpact need. Bullet bodies carry the same margins as Proxima's.");
      t.notes.push_back("supports = the centre of pressure (depth-weighted mean) lies in the overlap of the two "
                        "faces and the points' hull contains the upper body's centre of mass (seen from above); "
                        "n·z: the contacts' normals (B to A, lower to upper) against +z, 1 for a flat rest. "
                        "Distinct points rounded to 1e-6 m. Times: per pose the median of " +
                        std::to_string(repeats) + " batches, then the median over poses.");
      print(t);
    }
  }
}

// ---------------------------------------------------------------- 3. mug

// The scanned mug of MuJoCo's samples (~1k triangles of a real scan, r =
// 2.5 mm) squeezed between two boxes 1 mm beyond its extreme vertices on
// ±y, turned and shifted a little per pose: against a 12-triangle box mesh
// (r = 0) and a box shape. A box's face is flat, so every contact there
// should push along the face's normal (±y): mean |n·y| of the raw set, and
// the contacts counted.
void mug_scene(bool quick, int repeats) {
  const char* path = "/usr/share/mujoco/model/mug/mug.obj";
  steps.next("mug");
  std::optional<Bvh> read;
  try {
    read.emplace(proxima::read_mesh(path, {.scale = 1.0, .margin = kFootMargin}));
  } catch (const proxima::Error& e) {
    std::printf("\n3. mug: skipped (%s)\n", e.what());
    return;
  }
  const Bvh& mug = *read;
  const Vec3 size(0.04, 0.02, 0.04);
  const Bvh box_bvh(proxima::bench::box_mesh(size, {1, 1, 1}, 0.0, 0.0, "box"));
  const proxima::Shape box_shape{proxima::Box(size)};
  const std::size_t n = quick ? 3 : 20;
  std::mt19937 g(41);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<Transform> poses;
  std::vector<int> side_of;
  for (int s = -1; s <= 1; s += 2) {
    Vec3 extreme = mug.mesh().vertices().front();
    for (const Vec3& v : mug.mesh().vertices())
      if (s * v.y() > s * extreme.y()) extreme = v;
    for (std::size_t i = 0; i < n; ++i) {
      const double yaw = i == 0 ? 0.0 : 0.2 * u(g), dx = i == 0 ? 0.0 : 0.005 * u(g), dz = i == 0 ? 0.0 : 0.005 * u(g);
      const Mat3 R = Eigen::AngleAxisd(yaw, Vec3::UnitY()).toRotationMatrix();
      poses.push_back({R, Vec3(extreme.x() + dx, extreme.y() + s * (kGap + 0.5 * size.y()), extreme.z() + dz)});
      side_of.push_back(s);
    }
  }
  Table t{"3. Scanned mug (" + std::to_string(mug.mesh().triangle_count()) +
              " triangles, r = 2.5 mm) between two boxes, 1 mm core gap",
          {"box", "contacts", "raw mean [min, max]", "distinct raw", "mean |n·y| raw", "clustered mean", "median µs"},
          {},
          {},
          false,
          2};
  for (int kind = 0; kind < 2; ++kind) {
    MeshContactOptions raw;
    raw.cluster = false;
    raw.feature_pairs = feature_pairs;
    MeshContactOptions full = raw;
    full.cluster = true;
    double cm = 0, cmin = 1e300, cmax = 0, dm = 0, ny = 0, nn = 0, clustered = 0;
    std::vector<double> ns;
    ContactSet set;
    for (std::size_t i = 0; i < poses.size(); ++i) {
      auto call = [&](const MeshContactOptions& o) {
        if (kind == 0)
          proxima::mesh_contacts(mug, Transform::identity(), box_bvh, poses[i], o, set);
        else
          proxima::mesh_contacts(mug, Transform::identity(), box_shape, poses[i], o, set);
      };
      call(raw);
      check(finite(set), "mug contacts finite");
      const double c = double(set.points.size());
      cm += c;
      cmin = std::min(cmin, c);
      cmax = std::max(cmax, c);
      std::vector<Point> pts;
      for (const Contact& k : set.points) {
        pts.push_back({k.point, k.depth, k.normal});
        ny += std::abs(k.normal.y());
        ++nn;
      }
      dm += double(distinct(pts));
      call(full);
      clustered += double(set.points.size());
      ns.push_back(call_ns([&] { call(full); keep(set); }, repeats));
    }
    const double k = double(poses.size());
    t.rows.push_back({kind == 0 ? "12-triangle box mesh" : "box shape", "mesh_contacts",
                      fmt("%.1f", cm / k) + " [" + fmt("%.0f", cmin) + ", " + fmt("%.0f", cmax) + "]",
                      fmt("%.1f", dm / k), nn > 0 ? fmt("%.3f", ny / nn) : std::string("–"),
                      fmt("%.1f", clustered / k), fmt("%.2f", median(ns) / 1e3)});
  }
  t.notes.push_back(std::to_string(poses.size()) + " poses (" + std::to_string(n) +
                    " per side, turned up to ±0.2 rad about y and shifted up to ±5 mm); clustered k = 20. "
                    "|n·y| = 1: the contact pushes along the box face's normal.");
  print(t);
}

constexpr const char* kUsage =
    "usage: proxima-blem-bench [--markdown] [--poses N] [--repeats R] [--digest] [--feature-pairs] [--quiet]\n"
    "  --poses N    terrain poses, 1 to 10000000 (default 200; quick: 5)\n"
    "  --repeats R  timed batches per pose, 1 to 1000000 (default 7; quick: 3)\n"
    "  --digest     also print a hash of every terrain contact (raw and clustered), bit for bit,\n"
    "               to show that a change to the contact code left its answers alone\n"
    "  --feature-pairs  Proxima's raw sets from feature pairs (MeshContactOptions::feature_pairs)\n"
    "  --quiet      no progress line on stderr (drawn only when stderr is a terminal)\n"
    "  PROXIMA_BLEM_BENCH_QUICK=1: small terrain, few poses (smoke test)\n";

}  // namespace

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  const bool quick = std::getenv("PROXIMA_BLEM_BENCH_QUICK") != nullptr &&
                     std::strcmp(std::getenv("PROXIMA_BLEM_BENCH_QUICK"), "0") != 0;
  std::size_t poses = quick ? 5 : 200;
  int repeats = quick ? 3 : 7;
  bool show_progress = true;
  try {
    proxima::bench::Arguments args(argc, argv);
    while (args.next()) {
      if (args.is("--markdown")) markdown = true;
      else if (args.is("--poses")) poses = static_cast<std::size_t>(args.integer(1, 10000000));
      else if (args.is("--repeats")) repeats = static_cast<int>(args.integer(1, 1000000));
      else if (args.is("--digest")) digest = true;
      else if (args.is("--feature-pairs")) feature_pairs = true;
      else if (args.is("--quiet")) show_progress = false;
      else if (args.is("--help") || args.is("-h")) {
        std::fputs(kUsage, stdout);
        return 0;
      } else {
        args.unknown();
      }
    }
  } catch (const proxima::bench::BadArgument& e) {
    return proxima::bench::refuse("proxima-blem-bench", e, kUsage);
  }
  utsname un{};
  uname(&un);
  const std::time_t now = std::time(nullptr);
  char date[32];
  std::strftime(date, sizeof date, "%Y-%m-%d %H:%M", std::localtime(&now));
  std::printf(markdown ? "\n### proxima-blem-bench %s, %s %s, poses=%zu repeats=%d%s\n"
                       : "proxima-blem-bench  %s  %s %s  poses=%zu repeats=%d%s\n",
              date, un.sysname, un.machine, poses, repeats,
              quick ? (feature_pairs ? " (quick, feature pairs)" : " (quick)") : (feature_pairs ? " (feature pairs)" : ""));
  // Pair tables: 2 scenes × (gap, overlap) × the rows (Proxima's two, and
  // FCL's and GImpact's two when built).
#ifdef PROXIMA_HAVE_PEERS
  constexpr double kPairRows = 2 * 2 * 5;
#else
  constexpr double kPairRows = 2 * 2 * 2;
#endif
  proxima::apps::Progress progress = proxima::apps::Progress::on_terminal(
      "proxima-blem-bench", 3.0 + static_cast<double>(poses) + kPairRows, show_progress);
  steps.line = &progress;
  terrain_scene(quick, poses, repeats);
  pair_scenes(quick, repeats);
  mug_scene(quick, repeats);
  progress.finish();
  if (failures > 0) {
    std::fprintf(stderr, "%d check(s) failed\n", failures);
    return 1;
  }
  return 0;
}
