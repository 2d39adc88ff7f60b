// SPDX-License-Identifier: BSD-3-Clause
// proxima-mesh-bench: the mesh workloads, same meshes and poses
// for every library, median ns per query.
//
//  1. A 1,000,000-triangle noisy fractal terrain with holes: BVH build time
//     and bytes per triangle (SAH vs median split), then distance and
//     tolerance from a 1k-triangle foot mesh at random poses near the surface.
//  2. The Stanford bunny (69,666 triangles, Debian glmark2-data's
//     /usr/share/glmark2/models/bunny.obj, or the mesh file given) scaled to
//     0.2 m; without it (or given "blob"), a sphere-like 70k-triangle noisy
//     blob ~0.2 m across. Against itself and against a box at 10^3
//     random poses, half of them colliding: collide, distance, tolerance
//     (5 mm) for Proxima, collide and distance for FCL BVHModel<OBBRSS> and
//     BVHModel<RSS> (FCL has no tolerance query) and for Coal's
//     BVHModel<OBBRSS> (its ComputeCollision / ComputeDistance functors,
//     built once). "distance-sep" rows time the separated half alone.
//
// Usage: proxima-mesh-bench [--poses N] [--repeats R] [--blob-noise X] [--mesh FILE|blob] [--quiet]
// (defaults: 1000 poses, 3 repeats, noise 0.03, the bunny when installed).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include <sys/utsname.h>

#include <proxima/core/parallel.hpp>
#include <proxima/io/mesh_io.hpp>
#include <proxima/mesh/mesh_queries.hpp>

#include "arguments.hpp"
#include "draws.hpp"
#include "mesh_gen.hpp"
#include "progress.hpp"

#ifdef PROXIMA_HAVE_FCL
#include <fcl/fcl.h>
#endif
#ifdef PROXIMA_HAVE_COAL
#include "peers/coal_api.hpp"
#include "peers/labels.hpp"
#endif

namespace {

using proxima::Bvh;
using proxima::Quat;
using proxima::bench::draw_quat;
using proxima::bench::draw_vec3;
using proxima::Transform;
using proxima::TriangleIndices;
using proxima::TriangleMesh;
using proxima::Vec3;
using clock_type = std::chrono::steady_clock;
using proxima::bench::blob_mesh;
using proxima::bench::Terrain;
using proxima::bench::TerrainGrid;

// The progress line (stderr on a terminal, without --quiet): one step per
// timed row (time_queries) and per BVH build line, advanced between the
// poses' timed batches, and erased before anything goes to stdout.
struct Steps {
  proxima::apps::Progress* line = nullptr;
  double done = 0.0;
  std::string part;  // the note: which table is being measured
  void at(double share) const {
    if (line) line->update(done + share, part);
  }
  void next() {
    at(0.0);
    done += 1.0;
  }
  void clear() const {
    if (line) line->clear();
  }
};
Steps steps;

template <class T>
inline void keep(const T& value) {
  asm volatile("" : : "g"(&value) : "memory");
}

double median(std::vector<double> v) {
  if (v.empty()) return std::nan("");
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
  return v[v.size() / 2];
}

// Median over poses of the mean time of `repeats` calls of query(i), in ns.
// Poses are visited alternately from the two halves of the list (the
// balanced pose lists put the colliding half first), so a truncated run
// stays balanced. A query slower than 20 ms is timed once, not repeated;
// when a row has spent 20 s (FCL's RSS collide takes ~0.3 s per pose), it
// stops after at least 10 poses and `note` says so. (It used to stop at the
// first slow pose after 10 poses, which silently timed the distance rows on
// the colliding half only.)
double time_queries(std::size_t poses, int repeats, const std::function<void(std::size_t)>& query,
                    std::string* note = nullptr) {
  std::vector<double> t;
  t.reserve(poses);
  const std::size_t half = (poses + 1) / 2;
  double spent = 0.0;
  for (std::size_t k = 0; k < poses; ++k) {
    steps.at(static_cast<double>(k) / static_cast<double>(poses));  // outside the timed calls
    const std::size_t i = k % 2 == 0 ? k / 2 : half + k / 2;
    auto start = clock_type::now();
    query(i);  // warm
    const double first = std::chrono::duration<double, std::nano>(clock_type::now() - start).count();
    spent += first;
    if (first > 2e7) {
      t.push_back(first);
    } else {
      start = clock_type::now();
      for (int r = 0; r < repeats; ++r) query(i);
      const double all = std::chrono::duration<double, std::nano>(clock_type::now() - start).count();
      spent += all;
      t.push_back(all / repeats);
    }
    if (spent > 2e10 && t.size() >= 10 && k + 1 < poses) {
      const std::string msg = "slow: timed on " + std::to_string(t.size()) + " poses (20 s budget)";
      if (note) {
        *note += msg;
      } else {
        steps.clear();
        std::printf("  (%s)\n", msg.c_str());
      }
      break;
    }
  }
  steps.done += 1.0;
  return median(std::move(t));
}

// ---------------------------------------------------------------- meshes

Transform random_pose(std::mt19937& g, const Vec3& centre, double radius_lo, double radius_hi) {
  std::normal_distribution<double> n;
  std::uniform_real_distribution<double> u(radius_lo, radius_hi);
  const Vec3 dir = draw_vec3(n, g).normalized();
  const Quat q = draw_quat(n, g);
  return Transform::from_quaternion(q, centre + u(g) * dir);
}

// ---------------------------------------------------------------- FCL

#ifdef PROXIMA_HAVE_FCL
template <class BV>
std::shared_ptr<fcl::BVHModel<BV>> fcl_model(const TriangleMesh& m) {
  auto model = std::make_shared<fcl::BVHModel<BV>>();
  std::vector<fcl::Vector3d> pts(m.vertices().begin(), m.vertices().end());
  std::vector<fcl::Triangle> tris;
  tris.reserve(m.triangle_count());
  for (const TriangleIndices& t : m.triangles()) tris.emplace_back(t[0], t[1], t[2]);
  model->beginModel();
  model->addSubModel(pts, tris);
  model->endModel();
  return model;
}

fcl::Transform3d to_fcl(const Transform& t) {
  fcl::Transform3d f = fcl::Transform3d::Identity();
  f.linear() = t.R;
  f.translation() = t.p;
  return f;
}
#endif

struct Row {
  std::string library, query;
  double ns = std::nan("");
  std::string note = {};
  Row(std::string l, std::string q, double t, std::string n = {})
      : library(std::move(l)), query(std::move(q)), ns(t), note(std::move(n)) {}
};

void print_rows(const std::vector<Row>& rows, const std::string& title) {
  steps.clear();
  std::printf("\n%s\n", title.c_str());
  std::printf("  %-22s %-12s %12s %10s  %s\n", "library", "query", "median ns", "vs ours", "note");
  for (const Row& r : rows) {
    double ours = std::nan("");
    for (const Row& o : rows)
      if (o.library == "proxima" && o.query == r.query) ours = o.ns;
    std::printf("  %-22s %-12s %12.0f %9.2fx  %s\n", r.library.c_str(), r.query.c_str(), r.ns, r.ns / ours,
                r.note.c_str());
  }
}

// Poses of B around A: half colliding, half apart (by our own collide).
template <class Collides>
std::vector<Transform> balanced_poses(std::size_t n, double lo, double hi, unsigned seed, Collides&& collides) {
  std::mt19937 g(seed);
  std::vector<Transform> in, out;
  while (in.size() < n / 2 || out.size() < n - n / 2) {
    const Transform t = random_pose(g, Vec3::Zero(), lo, hi);
    if (collides(t)) {
      if (in.size() < n / 2) in.push_back(t);
    } else if (out.size() < n - n / 2) {
      out.push_back(t);
    }
  }
  in.insert(in.end(), out.begin(), out.end());
  return in;
}

}  // namespace

// The mesh moved so its bounding box is centred at the origin and scaled so
// its largest extent is `size`.
TriangleMesh centred_and_scaled(const TriangleMesh& m, double size) {
  const proxima::Aabb box = m.local_aabb();
  const Vec3 c = box.center();
  const double s = size / (box.max - box.min).maxCoeff();
  std::vector<Vec3> v;
  v.reserve(m.vertices().size());
  for (const Vec3& x : m.vertices()) v.push_back(s * (x - c));
  return TriangleMesh(std::move(v), m.triangles(), m.margin(), m.name());
}

constexpr const char* kUsage =
    "usage: proxima-mesh-bench [--poses N] [--repeats R] [--blob-noise X] [--mesh FILE|blob] [--quiet]\n"
    "  --poses N       random poses per workload, 2 to 10000000 (default 1000)\n"
    "  --repeats R     timed repeats of each pose, 1 to 1000000 (default 3)\n"
    "  --blob-noise X  the blob's relative radial noise, 0 to 0.5 (default 0.03)\n"
    "  --mesh FILE     the mesh of part 2 (default: the Stanford bunny of glmark2-data when installed,\n"
    "                  else \"blob\", a noisy 70k-triangle sphere)\n"
    "  --quiet         no progress line on stderr (drawn only when stderr is a terminal)\n"
    "  PROXIMA_MESH_BENCH_QUICK=1: skip the terrain and the variant rows of part 2\n";

// The timed rows and build lines main() steps through, for the progress
// line's share: part 1's 4 build lines and 5 × 3 rows, then per pair of part
// 2 four rows per node variant, the cached row and the peers' rows.
double step_count(bool quick) {
  double n = quick ? 0.0 : 4.0 + 15.0;
  for (int pair = 0; pair < 2; ++pair) {
    const int variants = pair == 0 ? (quick ? 2 : 4) : (quick ? 1 : 2);
    n += 4.0 * variants + 1.0;
#ifdef PROXIMA_HAVE_FCL
    n += 6.0;
#endif
#ifdef PROXIMA_HAVE_COAL
    n += 3.0;
#endif
  }
  return n;
}

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // rows visible as they come when piped
  std::size_t poses = 1000;
  int repeats = 3;
  double blob_noise = 0.03;
  std::string mesh_option;  // empty: the bunny when installed, else the blob
  bool show_progress = true;
  try {
    proxima::bench::Arguments args(argc, argv);
    while (args.next()) {
      // Two poses at least: the balanced pose lists need a colliding and a separated one.
      if (args.is("--poses")) poses = static_cast<std::size_t>(args.integer(2, 10000000));
      else if (args.is("--repeats")) repeats = static_cast<int>(args.integer(1, 1000000));
      else if (args.is("--blob-noise")) blob_noise = args.number(0.0, 0.5);
      else if (args.is("--mesh")) {
        mesh_option = args.text();
        if (mesh_option.empty()) throw proxima::bench::BadArgument("--mesh needs a file name or blob");
      } else if (args.is("--quiet")) {
        show_progress = false;
      } else if (args.is("--help") || args.is("-h")) {
        std::fputs(kUsage, stdout);
        return 0;
      } else {
        args.unknown();
      }
    }
  } catch (const proxima::bench::BadArgument& e) {
    return proxima::bench::refuse("proxima-mesh-bench", e, kUsage);
  }
  utsname un{};
  uname(&un);
  const std::time_t now = std::time(nullptr);
  char date[32];
  std::strftime(date, sizeof date, "%Y-%m-%d %H:%M", std::localtime(&now));
  std::printf("proxima-mesh-bench  %s  %s %s  poses=%zu repeats=%d\n", date, un.sysname, un.machine, poses, repeats);

  // ---- 1. terrain (PROXIMA_MESH_BENCH_QUICK=1 skips it and the variant rows
  // of part 2, for quick iterations on the bunny; the default runs all)
  const bool quick = std::getenv("PROXIMA_MESH_BENCH_QUICK") != nullptr;
  proxima::apps::Progress progress =
      proxima::apps::Progress::on_terminal("proxima-mesh-bench", step_count(quick), show_progress);
  steps.line = &progress;
  if (!quick) {
    steps.part = "terrain";
    steps.at(0.0);
    const Terrain terrain(7);
    std::mt19937 g(8);
    const auto t0 = clock_type::now();
    const TriangleMesh mesh = proxima::bench::terrain_mesh(terrain, TerrainGrid{}, g);
    const double mesh_s = std::chrono::duration<double>(clock_type::now() - t0).count();
    steps.clear();
    std::printf("\n1. terrain: %zu triangles, %zu vertices (mesh generation + TriangleMesh %.2f s)\n",
                mesh.triangle_count(), mesh.vertices().size(), mesh_s);
    struct Config {
      const char* label;
      proxima::BvhOptions options;
      proxima::NodeTest test;
    };
    const std::vector<Config> configs = {
        {"proxima", {proxima::BvhSplit::sah, 4, proxima::BvhVolume::rss}, proxima::NodeTest::obb},
        {"proxima/obb-nodes", {proxima::BvhSplit::sah, 4, proxima::BvhVolume::obb}, proxima::NodeTest::obb},
        {"proxima/aabb-nodes", {proxima::BvhSplit::sah, 4, proxima::BvhVolume::aabb}, proxima::NodeTest::obb},
        {"proxima/aabb-rebox", {proxima::BvhSplit::sah, 4, proxima::BvhVolume::aabb}, proxima::NodeTest::aabb},
        {"proxima/median-split", {proxima::BvhSplit::median, 4, proxima::BvhVolume::aabb}, proxima::NodeTest::obb},
    };
    for (const Config& c : configs) {
      if (c.test == proxima::NodeTest::aabb) continue;
      steps.next();
      const Bvh bvh(mesh, c.options);
      steps.clear();
      std::printf("  BVH %-22s build %.3f s, %zu nodes, depth %d, %.1f B/triangle BVH, %.1f B/triangle with mesh\n",
                  c.label, bvh.build_seconds(), bvh.nodes().size(), bvh.depth(),
                  double(bvh.bvh_bytes()) / mesh.triangle_count(), double(bvh.total_bytes()) / mesh.triangle_count());
    }
    {
      // The default build again on the calling thread alone: what the
      // build's threads above buy (the hierarchy is the same).
      proxima::BvhOptions one;
      one.threads = 1;
      const Bvh single(mesh, one);
      std::printf("  BVH %-22s build %.3f s (the rows above: %d threads)\n", "proxima, one thread",
                  single.build_seconds(), proxima::thread_count(0));
    }
    const Bvh bvh(mesh);
    const Bvh foot(blob_mesh(21, 25, 0.1, 0.02, 9, Vec3(1.0, 0.5, 0.4)));
    steps.clear();
    std::printf("  foot: %zu triangles; poses within ~0.1 m of the surface\n", foot.mesh().triangle_count());
    std::vector<Transform> tp;
    std::uniform_real_distribution<double> x(5, 720 * 0.15 - 5), dz(-0.05, 0.12);
    std::normal_distribution<double> n;
    for (std::size_t i = 0; i < poses; ++i) {
      const double px = x(g), py = x(g);
      const Quat q = draw_quat(n, g);
      tp.push_back(Transform::from_quaternion(q, Vec3(px, py, terrain.height(px, py) + dz(g))));
    }
    std::vector<Row> rows;
    for (const Config& c : configs) {
      const Bvh b(mesh, c.options);
      const Bvh f(foot.mesh(), c.options);
      proxima::MeshRequest req;
      req.node_test = c.test;
      rows.push_back({c.label, "collide", time_queries(poses, repeats, [&](std::size_t i) {
                        keep(proxima::collide(f, tp[i], b, Transform::identity(), req));
                      })});
      rows.push_back({c.label, "distance", time_queries(poses, repeats, [&](std::size_t i) {
                        keep(proxima::distance(f, tp[i], b, Transform::identity(), req));
                      })});
      rows.push_back({c.label, "tolerance", time_queries(poses, repeats, [&](std::size_t i) {
                        keep(proxima::tolerance(f, tp[i], b, Transform::identity(), 0.005, req));
                      })});
    }
    print_rows(rows, "  foot vs terrain (variants: volume, node test, split)");
  }

  // ---- 2. blob vs blob, blob vs box
  {
    // The bunny from Debian's glmark2-data when installed (apt-get install glmark2-data).
    const char* bunny = "/usr/share/glmark2/models/bunny.obj";
    const std::string mesh_file = !mesh_option.empty()              ? mesh_option
                                  : std::filesystem::exists(bunny) ? bunny
                                                                   : "blob";
    steps.part = mesh_file == "blob" ? "blob" : std::filesystem::path(mesh_file).filename().string();
    steps.at(0.0);
    const bool from_file = mesh_file != "blob";
    const TriangleMesh blob = from_file ? centred_and_scaled(proxima::read_mesh(mesh_file), 0.2)
                                        : blob_mesh(186, 187, 0.1, blob_noise, 10);
    const Bvh a(blob);
    const Bvh a_obb = quick ? a : Bvh(blob, {proxima::BvhSplit::sah, 4, proxima::BvhVolume::obb});
    // The AABB-only hierarchy (the default before RSS nodes), timed in every
    // run so the RSS rows have their "before" beside them.
    const Bvh a_aabb(blob, {proxima::BvhSplit::sah, 4, proxima::BvhVolume::aabb});
    const proxima::Box box(0.15, 0.1, 0.05);
    steps.clear();
    if (from_file) {
      std::printf("\n2. %s: %zu triangles, scaled to 0.2 m; BVH build %.3f s\n", mesh_file.c_str(),
                  blob.triangle_count(), a.build_seconds());
    } else {
      std::printf("\n2. blob: %zu triangles, radius 0.1 m, radial noise ±%.1f%%; BVH build %.3f s\n",
                  blob.triangle_count(), 100 * blob_noise, a.build_seconds());
    }
    const std::vector<Transform> pm = balanced_poses(poses, 0.12, 0.26, 11, [&](const Transform& t) {
      return proxima::collide(a, Transform::identity(), a, t).collide;
    });
    const std::vector<Transform> pb = balanced_poses(poses, 0.05, 0.2, 12, [&](const Transform& t) {
      return proxima::collide(a, Transform::identity(), box, t).collide;
    });
    const Transform I = Transform::identity();
    const std::string mesh_name = steps.part;
    for (int pair = 0; pair < 2; ++pair) {
      const std::vector<Transform>& P = pair == 0 ? pm : pb;
      steps.part = mesh_name + (pair == 0 ? " vs itself" : " vs box");
      steps.at(0.0);
      std::vector<Row> rows;
      std::vector<double> ours(P.size());
      for (std::size_t i = 0; i < P.size(); ++i)
        ours[i] = pair == 0 ? proxima::distance(a, I, a, P[i]).distance : proxima::distance(a, I, box, P[i]).distance;
      if (pair == 0) {
        // The RSS bound must not change an answer: against the AABB nodes.
        double diff = 0.0;
        for (std::size_t i = 0; i < P.size(); ++i)
          diff = std::max(diff, std::abs(proxima::distance(a_aabb, I, a_aabb, P[i]).distance - ours[i]));
        steps.clear();
        std::printf("  distance, default nodes vs AABB nodes: max difference %.1e over %zu poses\n", diff, P.size());
      }
      // The poses' second half is the separated one (balanced_poses).
      const std::size_t sep = P.size() / 2, n_sep = P.size() - sep;
      for (int variant = 0; variant < 4; ++variant) {
        if (pair == 1 && variant == 2) continue;  // mesh–convex has one node test
        if (pair == 1 && variant == 3) continue;  // and no RSS: same as the default
        if (quick && (variant == 1 || variant == 2)) continue;
        proxima::MeshRequest req;
        req.node_test = variant == 2 ? proxima::NodeTest::aabb : proxima::NodeTest::obb;
        const Bvh& m = variant == 1 ? a_obb : variant == 3 ? a_aabb : a;
        const std::string lib = variant == 0   ? "proxima"
                                : variant == 1 ? "proxima/obb-nodes"
                                : variant == 2 ? "proxima/aabb-rebox"
                                               : "proxima/aabb-nodes";
        auto run = [&](const char* q, auto&& f) { rows.push_back({lib, q, time_queries(P.size(), repeats, f)}); };
        auto run_sep = [&](const char* q, auto&& f) {
          rows.push_back({lib, q, time_queries(n_sep, repeats, [&](std::size_t i) { f(sep + i); })});
        };
        if (pair == 0) {
          run("collide", [&](std::size_t i) { keep(proxima::collide(m, I, m, P[i], req)); });
          run("distance", [&](std::size_t i) { keep(proxima::distance(m, I, m, P[i], req)); });
          run_sep("distance-sep", [&](std::size_t i) { keep(proxima::distance(m, I, m, P[i], req)); });
          run("tolerance", [&](std::size_t i) { keep(proxima::tolerance(m, I, m, P[i], 0.005, req)); });
        } else {
          run("collide", [&](std::size_t i) { keep(proxima::collide(m, I, box, P[i], req)); });
          run("distance", [&](std::size_t i) { keep(proxima::distance(m, I, box, P[i], req)); });
          run_sep("distance-sep", [&](std::size_t i) { keep(proxima::distance(m, I, box, P[i], req)); });
          run("tolerance", [&](std::size_t i) { keep(proxima::tolerance(m, I, box, P[i], 0.005, req)); });
        }
      }
      {
        // Warm-started: the cache from the previous pose of a slowly moving pair.
        proxima::MeshCache cache;
        proxima::MeshRequest req;
        req.cache = &cache;
        rows.push_back({"proxima+cache(same pose)", "distance", time_queries(P.size(), repeats, [&](std::size_t i) {
                          if (pair == 0) keep(proxima::distance(a, I, a, P[i], req));
                          else keep(proxima::distance(a, I, box, P[i], req));
                        })});
      }
#ifdef PROXIMA_HAVE_FCL
      auto fcl_rows = [&](auto model, const char* name) {
        fcl::CollisionObjectd oa(model, fcl::Transform3d::Identity());
        std::shared_ptr<fcl::CollisionGeometryd> gb;
        if (pair == 0) gb = model;
        else gb = std::make_shared<fcl::Boxd>(0.15, 0.1, 0.05);
        fcl::CollisionObjectd ob(gb, fcl::Transform3d::Identity());
        fcl::CollisionRequestd creq;
        fcl::DistanceRequestd dreq(true);
        double max_err = 0.0, collide_budget = 2.0;
        int disagree = 0, checked = 0;
        for (std::size_t i = 0; i < P.size(); ++i) {
          ob.setTransform(to_fcl(P[i]));
          fcl::DistanceResultd dr;
          fcl::distance(&oa, &ob, dreq, dr);
          // Collide agreement within a 2 s budget (FCL's RSS collide can be slow).
          if (collide_budget > 0.0) {
            const auto start = clock_type::now();
            fcl::CollisionResultd cr;
            fcl::collide(&oa, &ob, creq, cr);
            collide_budget -= std::chrono::duration<double>(clock_type::now() - start).count();
            ++checked;
            if (cr.isCollision() != (ours[i] == 0.0)) ++disagree;
          }
          if (ours[i] > 0.0) max_err = std::max(max_err, std::abs(dr.min_distance - ours[i]));
        }
        char note[128];
        std::snprintf(note, sizeof note, "max |d - ours| %.1e on separated poses; collide disagrees on %d/%d",
                      max_err, disagree, checked);
        std::string slow;
        const double collide_ns = time_queries(
            P.size(), repeats,
            [&](std::size_t i) {
              ob.setTransform(to_fcl(P[i]));
              fcl::CollisionResultd cr;
              fcl::collide(&oa, &ob, creq, cr);
              keep(cr);
            },
            &slow);
        rows.push_back({name, "collide", collide_ns, slow.empty() ? std::string(note) : slow + "; " + note});
        rows.push_back({name, "distance", time_queries(P.size(), repeats, [&](std::size_t i) {
                          ob.setTransform(to_fcl(P[i]));
                          fcl::DistanceResultd dr;
                          fcl::distance(&oa, &ob, dreq, dr);
                          keep(dr);
                        })});
        rows.push_back({name, "distance-sep", time_queries(n_sep, repeats, [&](std::size_t i) {
                          ob.setTransform(to_fcl(P[sep + i]));
                          fcl::DistanceResultd dr;
                          fcl::distance(&oa, &ob, dreq, dr);
                          keep(dr);
                        })});
      };
      fcl_rows(fcl_model<fcl::OBBRSSd>(blob), "fcl BVHModel<OBBRSS>");
      fcl_rows(fcl_model<fcl::RSSd>(blob), "fcl BVHModel<RSS>");
#endif
#ifdef PROXIMA_HAVE_COAL
      {
        // As FCL's rows: B's pose is set inside each timed query.
        std::vector<std::array<double, 3>> vertices;
        for (const Vec3& v : blob.vertices()) vertices.push_back({v.x(), v.y(), v.z()});
        std::vector<std::array<int, 3>> triangles;
        for (const TriangleIndices& t : blob.triangles())
          triangles.push_back({static_cast<int>(t[0]), static_cast<int>(t[1]), static_cast<int>(t[2])});
        const auto coal = proxima::bench::coal_api().mesh_pair(
            vertices, triangles, pair == 0 ? std::vector<double>{} : std::vector<double>{0.15, 0.1, 0.05});
        proxima::bench::CoalMeshPair& c = *coal;
        const auto place = [&](const Transform& t) {
          c.set_pose_b({t.R(0, 0), t.R(0, 1), t.R(0, 2), t.R(1, 0), t.R(1, 1), t.R(1, 2), t.R(2, 0), t.R(2, 1), t.R(2, 2)},
                       {t.p.x(), t.p.y(), t.p.z()});
        };
        double max_err = 0.0;
        int disagree = 0;
        for (std::size_t i = 0; i < P.size(); ++i) {
          place(P[i]);
          if (c.collide() != (ours[i] == 0.0)) ++disagree;
          if (ours[i] > 0.0) max_err = std::max(max_err, std::abs(c.distance() - ours[i]));
        }
        char note[128];
        std::snprintf(note, sizeof note, "max |d - ours| %.1e on separated poses; collide disagrees on %d/%zu", max_err,
                      disagree, P.size());
        const std::string name = proxima::bench::detail::coal_library() + " BVHModel<OBBRSS>";
        std::string slow;
        const double collide_ns = time_queries(
            P.size(), repeats,
            [&](std::size_t i) {
              place(P[i]);
              keep(c.collide());
            },
            &slow);
        rows.push_back({name, "collide", collide_ns, slow.empty() ? std::string(note) : slow + "; " + note});
        rows.push_back({name, "distance", time_queries(P.size(), repeats, [&](std::size_t i) {
                          place(P[i]);
                          keep(c.distance());
                        })});
        rows.push_back({name, "distance-sep", time_queries(n_sep, repeats, [&](std::size_t i) {
                          place(P[sep + i]);
                          keep(c.distance());
                        })});
      }
#endif
      // Named by the mesh of this run (the bunny or the blob).
      print_rows(rows, "  " + mesh_name + (pair == 0 ? " vs itself" : " vs box 0.15x0.1x0.05") + " (half colliding)");
    }
  }
  return 0;
}
