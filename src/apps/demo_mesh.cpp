// SPDX-License-Identifier: BSD-3-Clause
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <map>
#include <memory>
#include <numbers>
#include <optional>
#include <ostream>
#include <sstream>

#include <proxima/contact/cluster.hpp>
#include <proxima/io/mesh_io.hpp>
#include <proxima/mesh/mesh_contacts.hpp>
#include <proxima/shape/box.hpp>

#include "demo_mesh.hpp"

namespace proxima::apps {
namespace {

constexpr double kPerturbation = 1e-6;  // metres and radians

// A cube of edge `size` centred at the origin, each face an n × n grid of
// squares split in two (2 n² triangles per face, 12 n² in all); vertices
// along the cube's edges are shared.
TriangleMesh subdivided_cube(double size, int n, double margin) {
  std::vector<Vec3> vertices;
  std::vector<TriangleIndices> triangles;
  std::map<std::array<int, 3>, std::uint32_t> index;  // grid coordinates 0..n per axis
  const double h = size / 2;
  auto vertex = [&](const std::array<int, 3>& g) {
    const auto [it, added] = index.try_emplace(g, static_cast<std::uint32_t>(vertices.size()));
    if (added) vertices.emplace_back(-h + size * g[0] / n, -h + size * g[1] / n, -h + size * g[2] / n);
    return it->second;
  };
  for (int axis = 0; axis < 3; ++axis) {
    for (const double side : {-1.0, 1.0}) {
      // (u, v, outward) right-handed so that the triangles face outwards:
      // u is the next axis, v = normal × u is ± the one after.
      const int ua = (axis + 1) % 3, va = (axis + 2) % 3;
      const int v_sign = side > 0 ? 1 : -1;
      std::vector<std::uint32_t> grid;
      grid.reserve(static_cast<std::size_t>((n + 1) * (n + 1)));
      for (int j = 0; j <= n; ++j) {
        for (int i = 0; i <= n; ++i) {
          std::array<int, 3> g{};
          g[static_cast<std::size_t>(axis)] = side > 0 ? n : 0;
          g[static_cast<std::size_t>(ua)] = i;
          g[static_cast<std::size_t>(va)] = v_sign > 0 ? j : n - j;
          grid.push_back(vertex(g));
        }
      }
      auto at = [&](int i, int j) { return grid[static_cast<std::size_t>(j * (n + 1) + i)]; };
      for (int j = 0; j < n; ++j) {
        for (int i = 0; i < n; ++i) {
          triangles.push_back({at(i, j), at(i + 1, j), at(i + 1, j + 1)});
          triangles.push_back({at(i, j), at(i + 1, j + 1), at(i, j + 1)});
        }
      }
    }
  }
  return TriangleMesh(std::move(vertices), std::move(triangles), margin, "cube");
}

// One body pair of a scene: the moving mesh A against a mesh or a shape B.
struct Pair {
  std::shared_ptr<const Bvh> b_mesh;
  std::optional<Shape> b_shape;
  Transform pose_b;
};

struct MeshDemoScene {
  std::string name;
  std::shared_ptr<const Bvh> a;
  Transform pose_a;
  Vec3 centre_local = Vec3::Zero();  // the body's centre in its frame (wrench reference)
  double half_size = 0.0;            // L of the relative torque change
  std::vector<Pair> pairs;
  bool cube_support = false;         // check CoP / support polygon on the first pair's face (top of B)
};

std::vector<Contact> run_pair(const MeshDemoScene& s, const Pair& p, const Transform& pose_a, bool cluster,
                              std::size_t* raw = nullptr) {
  MeshContactOptions o;
  o.cluster = cluster;
  ContactSet out;
  MeshContactStats stats;
  if (p.b_mesh) {
    mesh_contacts(*s.a, pose_a, *p.b_mesh, p.pose_b, o, out, &stats);
  } else {
    mesh_contacts(*s.a, pose_a, *p.b_shape, p.pose_b, o, out, &stats);
  }
  if (raw) *raw += stats.raw_contacts;
  return out.points;
}

// Andrew's monotone chain on the (x, y) of the points, then: is q inside
// (or on) the hull? Fewer than 3 non-collinear points support nothing.
bool inside_support_polygon(std::vector<Vec3> pts, const Vec3& q) {
  std::sort(pts.begin(), pts.end(), [](const Vec3& a, const Vec3& b) {
    return a.x() < b.x() || (a.x() == b.x() && a.y() < b.y());
  });
  auto cross = [](const Vec3& o, const Vec3& a, const Vec3& b) {
    return (a.x() - o.x()) * (b.y() - o.y()) - (a.y() - o.y()) * (b.x() - o.x());
  };
  std::vector<Vec3> hull;
  for (int pass = 0; pass < 2; ++pass) {
    const std::size_t start = hull.size();
    for (const Vec3& p : pts) {
      while (hull.size() >= start + 2 && cross(hull[hull.size() - 2], hull.back(), p) <= 0.0) hull.pop_back();
      hull.push_back(p);
    }
    hull.pop_back();
    std::reverse(pts.begin(), pts.end());
  }
  if (hull.size() < 3) return false;
  for (std::size_t i = 0; i < hull.size(); ++i) {
    if (cross(hull[i], hull[(i + 1) % hull.size()], q) < -1e-12) return false;
  }
  return true;
}

struct Perturbed {
  Transform pose;
  Vec3 centre;
};

// Small rigid motions of the body about its centre: translations, rotations
// and a combination, each 1e-6 m or 1e-6 rad.
std::vector<Perturbed> perturbations(const Transform& pose, const Vec3& centre) {
  const double d = kPerturbation;
  const std::pair<Vec3, Vec3> moves[] = {
      {Vec3(d, 0, 0), Vec3::Zero()},  {Vec3(0, d, 0), Vec3::Zero()},  {Vec3(0, 0, d), Vec3::Zero()},
      {Vec3(0, 0, -d), Vec3::Zero()}, {Vec3::Zero(), Vec3(d, 0, 0)},  {Vec3::Zero(), Vec3(0, d, 0)},
      {Vec3::Zero(), Vec3(0, 0, d)},  {Vec3(d, d, d) / std::sqrt(3.0), Vec3(d, -2 * d, d) / std::sqrt(6.0)},
  };
  std::vector<Perturbed> out;
  for (const auto& [dp, rot] : moves) {
    const double angle = rot.norm();
    const Transform r = angle > 0 ? Transform::from_axis_angle(rot / angle, angle) : Transform::identity();
    Transform t;
    t.R = r.R * pose.R;
    t.p = centre + r.R * (pose.p - centre) + dp;
    out.push_back({t, centre + dp});
  }
  return out;
}

// Largest relative change of the penalty wrench of one pair over the
// perturbations: |ΔF| / |F| and |Δτ| / (|F| L).
std::pair<double, double> wrench_change(const MeshDemoScene& s, const Pair& p, bool cluster) {
  const Vec3 centre = s.pose_a.apply(s.centre_local);
  const Wrench w0 = penalty_wrench(run_pair(s, p, s.pose_a, cluster), centre);
  const double f0 = w0.force.norm();
  if (!(f0 > 0.0)) return {0.0, 0.0};
  double df = 0.0, dt = 0.0;
  for (const Perturbed& q : perturbations(s.pose_a, centre)) {
    const Wrench w = penalty_wrench(run_pair(s, p, q.pose, cluster), q.centre);
    df = std::max(df, (w.force - w0.force).norm() / f0);
    dt = std::max(dt, (w.torque - w0.torque).norm() / (f0 * s.half_size));
  }
  return {df, dt};
}

std::string mm(double x) {
  std::ostringstream o;
  o << std::fixed << std::setprecision(2) << x * 1e3;
  return o.str();
}

MeshContactDemoRow run_mesh_scene(const MeshDemoScene& s) {
  MeshContactDemoRow row;
  row.scene = s.name;
  row.triangles = s.a->mesh().triangle_count();
  std::vector<double> times;
  std::vector<std::vector<Contact>> clustered(s.pairs.size());
  for (int rep = 0; rep < 3; ++rep) {
    std::size_t raw = 0;
    const auto t0 = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < s.pairs.size(); ++i) clustered[i] = run_pair(s, s.pairs[i], s.pose_a, true, &raw);
    times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    row.raw = raw;
  }
  std::sort(times.begin(), times.end());
  row.ms = times[times.size() / 2];
  row.clustered = 0;
  std::vector<Vec3> seen;
  for (const auto& c : clustered) {
    row.clustered += c.size();
    for (const Contact& k : c) {
      if (std::none_of(seen.begin(), seen.end(), [&](const Vec3& x) { return (x - k.point).norm() <= 1e-9; })) {
        seen.push_back(k.point);
      }
    }
  }
  row.distinct = seen.size();

  if (s.cube_support) {
    const std::vector<Contact>& c = clustered.front();
    const Vec3 centre = s.pose_a.apply(s.centre_local);
    Vec3 cop = Vec3::Zero();
    double total = 0.0;
    for (const Contact& k : c) {
      const double f = std::max(k.depth, 0.0) * k.normal.z();
      cop += f * k.point;
      total += f;
    }
    const bool has_force = total > 0.0;
    if (has_force) cop /= total;
    // In the body's frame: the bottom face is [-L, L]² (the body may be turned about z).
    const Vec3 local = s.pose_a.R.transpose() * (cop - centre);
    const bool cop_inside = has_force && std::abs(local.x()) <= s.half_size && std::abs(local.y()) <= s.half_size;
    std::vector<Vec3> pts;
    for (const Contact& k : c) pts.push_back(k.point);
    const bool over_polygon = inside_support_polygon(pts, centre);
    row.supports = cop_inside && over_polygon;
    row.support_detail = has_force ? "CoP (" + mm(cop.x() - centre.x()) + ", " + mm(cop.y() - centre.y()) +
                                         ") mm from the centre; centre " +
                                         (over_polygon ? "inside" : "outside") + " the support polygon"
                                   : "no upward force";
  } else {
    std::size_t sides = 0;
    for (const auto& c : clustered) sides += c.empty() ? 0 : 1;
    row.supports = sides == s.pairs.size();
    row.support_detail = "contacts on " + std::to_string(sides) + " of " + std::to_string(s.pairs.size()) + " sides";
  }
  for (const Pair& p : s.pairs) {
    const auto [f, t] = wrench_change(s, p, true);
    const auto [rf, rt] = wrench_change(s, p, false);
    row.force_change = std::max(row.force_change, f);
    row.torque_change = std::max(row.torque_change, t);
    row.raw_force_change = std::max(row.raw_force_change, rf);
    row.raw_torque_change = std::max(row.raw_torque_change, rt);
  }
  return row;
}

std::string sci(double x) {
  std::ostringstream o;
  o << std::setprecision(2) << std::scientific << x;
  return o.str();
}

}  // namespace

std::string default_mug_path() { return "/usr/share/mujoco/model/mug/mug.obj"; }

std::vector<MeshContactDemoRow> run_mesh_contact_demo(const std::string& mug_path) {
  std::vector<MeshContactDemoRow> rows;
  const double size = 0.1, margin = 0.001;  // 10 cm cubes, 1 mm layers
  const auto coarse = std::make_shared<const Bvh>(subdivided_cube(size, 1, margin));
  // Resting 1 mm into the 2 mm of layers (cores 1 mm apart), centred.
  const Transform resting = Transform::from_translation(Vec3(0, 0, size + 0.001));

  MeshDemoScene a{"12-triangle cube (10 cm) on a 12-triangle cube, 1 mm into the 2 mm layer", coarse, resting,
          Vec3::Zero(), size / 2, {{coarse, std::nullopt, Transform::identity()}}, true};
  rows.push_back(run_mesh_scene(a));

  constexpr int n = 16;  // 512 triangles per face, 3072 in all
  MeshDemoScene b = a;
  b.a = std::make_shared<const Bvh>(subdivided_cube(size, n, margin));
  b.name = "cube subdivided " + std::to_string(n) + "x" + std::to_string(n) + " (" + std::to_string(2 * n * n) +
           " triangles per face) on a 12-triangle cube, shifted 2 cm and turned 10 deg";
  // Off-centre and turned so that the patch is not the fine cube's own grid.
  b.pose_a = Transform::from_axis_angle(Vec3::UnitZ(), 10.0 * std::numbers::pi / 180.0,
                                        Vec3(0.02, 0.01, size + 0.001));
  rows.push_back(run_mesh_scene(b));

  const std::string mug = mug_path.empty() ? default_mug_path() : mug_path;
  std::error_code ec;
  if (!std::filesystem::exists(mug, ec)) {
    MeshContactDemoRow skip;
    skip.scene = "scanned mug between two boxes";
    skip.skipped = true;
    skip.note = mug + " not found (Debian package libmujoco-samples)";
    rows.push_back(skip);
    return rows;
  }
  try {
    // The mug is in centimetres, y up, handle towards +x; its wall reaches
    // z = ±4.47 cm. Two 2 cm plates squeeze it along z, 0.5 mm into its
    // 1 mm layer.
    const auto cup = std::make_shared<const Bvh>(read_mesh(mug, {.scale = 0.01, .margin = margin}));
    Aabb box;  // of the vertices (local_aabb() includes the layer)
    for (const Vec3& v : cup->mesh().vertices()) box.extend(v);
    const Vec3 centre = 0.5 * (box.min + box.max);
    const double gap = 0.0005, plate = 0.02;
    const Shape plate_shape = Box(Vec3(0.15, 0.1, plate));
    MeshDemoScene c{"scanned mug (" + std::to_string(cup->mesh().triangle_count()) +
                " triangles, open) held between two boxes, 0.5 mm into its 1 mm layer",
            cup, Transform::identity(), centre, 0.5 * (box.max - box.min).maxCoeff(),
            {{nullptr, plate_shape, Transform::from_translation(Vec3(centre.x(), centre.y(), box.max.z() + gap + plate / 2))},
             {nullptr, plate_shape, Transform::from_translation(Vec3(centre.x(), centre.y(), box.min.z() - gap - plate / 2))}},
            false};
    rows.push_back(run_mesh_scene(c));
  } catch (const std::exception& e) {
    MeshContactDemoRow skip;
    skip.scene = "scanned mug between two boxes";
    skip.skipped = true;
    skip.note = e.what();
    rows.push_back(skip);
  }
  return rows;
}

void mesh_contact_markdown(const std::vector<MeshContactDemoRow>& rows, std::ostream& out) {
  out << "Boundary-layer contacts (`mesh_contacts`, default options: clustered to at most 20 per pair). "
         "Stability: the largest change of the clustered set's penalty wrench (force max(depth, 0) normal "
         "per point) over 8 perturbations of the resting pose by 1e-6 m and 1e-6 rad, relative to the force "
         "(|dF|/|F|, torque |dT|/(|F| L), L the body's half-size), beside the same for the raw set.\n\n";
  out << "| scene | raw contacts | clustered (distinct points) | supports | detail | dF/F clustered | dT/(F L) clustered | "
         "dF/F raw | dT/(F L) raw | ms |\n|---|---:|---:|---|---|---:|---:|---:|---:|---:|\n";
  for (const MeshContactDemoRow& r : rows) {
    if (r.skipped) {
      out << "| " << r.scene << " | – | – | – | skipped: " << r.note << " | – | – | – | – | – |\n";
      continue;
    }
    std::ostringstream ms;
    ms << std::fixed << std::setprecision(2) << r.ms;
    out << "| " << r.scene << " | " << r.raw << " | " << r.clustered << " (" << r.distinct << ") | "
        << (r.supports ? "yes" : "NO")
        << " | " << r.support_detail << " | " << sci(r.force_change) << " | " << sci(r.torque_change) << " | "
        << sci(r.raw_force_change) << " | " << sci(r.raw_torque_change) << " | " << ms.str() << " |\n";
  }
  out << "\nA perturbation of 1e-6 m changes a 1 mm layer depth by 1e-3 of itself, so a set that moves "
         "continuously with the pose changes its force by about 1e-3 (1e-6 m over a 0.5 mm layer: 2e-3); "
         "a set whose points or clusters jump changes it by far more. FCL is not linked into `proxima` "
         "(peers live only in the benchmark programs), so its raw mesh contacts are not in this table.\n";
}

}  // namespace proxima::apps
