// SPDX-License-Identifier: BSD-3-Clause
// MuJoCo (PyPI mujoco-core, its C library linked directly) as a distance and
// penetration-depth peer. Built only when CMake finds it in the project's
// virtual environment (PROXIMA_HAVE_MUJOCO).
//
// Per workload one model is compiled from an MJCF string (through a VFS):
// shape A and shape B are the geoms of two free bodies, so a pose is the
// body's qpos (position, then the (w, x, y, z) quaternion) and any frame
// MuJoCo puts between body and geom (a mesh geom sits at the mesh's centre
// of mass and principal axes) is its own business. Per pose, untimed, as
// for every peer: both qpos written, then mj_kinematics and mj_comPos
// (world poses of bodies and geoms). What is timed per query:
//  * distance and signed rows: mj_geomDistance(A, B, distmax) alone;
//  * collision row: mj_collision alone (broad phase, mid phase and the
//    pair's narrow-phase collider through mjData, contacts written to
//    d->contact).
// Convex pairs without a dedicated collider (meshes, cylinders, ellipsoids)
// go through MuJoCo's native GJK/EPA, run with the iteration cap and
// tolerance below so that it converges. With MuJoCo's defaults (35, 1e-6)
// depth on the polytope(N)-capsule workloads is up to 0.002-0.04 m off,
// with a cap of 100 still 4.3e-3 m on polytope(2000); at 1000 and 1e-10 the
// worst is 2.7e-8 m, and no query took measurably longer than with the
// defaults (2026-11-28, 300 poses).
#include <array>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <mujoco/mujoco.h>

#include "convert.hpp"
#include "labels.hpp"
#include "peers.hpp"
#include "timing.hpp"

namespace proxima::bench {
namespace {

constexpr int ccd_iterations = 1000;
constexpr double ccd_tolerance = 1e-10;
// mj_geomDistance looks for contacts up to distmax and returns distmax when
// it finds none; the workloads' distances are a few metres at most.
constexpr double distmax = 100.0;

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

// The <geom> attributes of one shape (MuJoCo sizes are radii and half
// lengths); a mesh shape also adds its <mesh> asset. Empty: unsupported.
std::string geom_attributes(const ShapeSpec& s, const std::string& name, std::string& assets) {
  switch (s.kind) {
    case Kind::sphere: return "type=\"sphere\" size=\"" + num(s.radius) + "\"";
    case Kind::capsule: return "type=\"capsule\" size=\"" + num(s.radius) + " " + num(0.5 * s.length) + "\"";
    case Kind::cylinder: return "type=\"cylinder\" size=\"" + num(s.radius) + " " + num(0.5 * s.length) + "\"";
    case Kind::box:
      return "type=\"box\" size=\"" + num(0.5 * s.size[0]) + " " + num(0.5 * s.size[1]) + " " + num(0.5 * s.size[2]) +
             "\"";
    case Kind::ellipsoid:
      return "type=\"ellipsoid\" size=\"" + num(s.radii[0]) + " " + num(s.radii[1]) + " " + num(s.radii[2]) + "\"";
    case Kind::convex: {
      // MuJoCo collides a mesh geom as the convex hull of its vertices.
      std::string vertices;
      for (const auto& p : s.points) vertices += num(p[0]) + " " + num(p[1]) + " " + num(p[2]) + " ";
      assets += "<mesh name=\"" + name + "\" vertex=\"" + vertices + "\"/>\n";
      return "type=\"mesh\" mesh=\"" + name + "\"";
    }
    case Kind::halfspace: return {};  // halfspace workloads are ODE's alone
  }
  return {};
}

struct Model {
  mjModel* m = nullptr;
  mjData* d = nullptr;
  int ga = -1, gb = -1;
  Model() = default;
  Model(const Model&) = delete;
  Model& operator=(const Model&) = delete;
  ~Model() {
    if (d) mj_deleteData(d);
    if (m) mj_deleteModel(m);
  }
  void place(const Pose& a, const Pose& b) {
    const auto qa = detail::unit_wxyz(a), qb = detail::unit_wxyz(b);
    mjtNum* q = d->qpos;
    for (int k = 0; k < 3; ++k) q[k] = a.p[k], q[7 + k] = b.p[k];
    for (int k = 0; k < 4; ++k) q[3 + k] = qa[k], q[10 + k] = qb[k];
    mj_kinematics(m, d);
    mj_comPos(m, d);
  }
};

// Compiles the workload's model; an empty string, or why MuJoCo cannot.
std::string build(const Workload& work, Model& out) {
  std::string assets;
  const std::string a = geom_attributes(work.a, "shape_a", assets);
  const std::string b = geom_attributes(work.b, "shape_b", assets);
  if (a.empty() || b.empty()) return "no halfspace here (halfspace workloads keep ODE's plane)";
  const std::string xml = "<mujoco model=\"pair\">\n<option ccd_iterations=\"" + std::to_string(ccd_iterations) +
                          "\" ccd_tolerance=\"" + num(ccd_tolerance) + "\"/>\n<asset>\n" + assets +
                          "</asset>\n<worldbody>\n<body name=\"a\"><freejoint/><geom name=\"a\" " + a +
                          "/></body>\n<body name=\"b\"><freejoint/><geom name=\"b\" " + b +
                          "/></body>\n</worldbody>\n</mujoco>\n";
  mjVFS vfs;
  mj_defaultVFS(&vfs);
  mj_addBufferVFS(&vfs, "pair.xml", xml.data(), static_cast<int>(xml.size()));
  char error[1000] = "";
  out.m = mj_loadXML("pair.xml", &vfs, error, sizeof error);
  mj_deleteVFS(&vfs);
  if (!out.m) return std::string("model compilation failed: ") + error;
  out.d = mj_makeData(out.m);
  out.ga = mj_name2id(out.m, mjOBJ_GEOM, "a");
  out.gb = mj_name2id(out.m, mjOBJ_GEOM, "b");
  if (!out.d || out.ga < 0 || out.gb < 0 || out.m->nq != 14) return "unexpected model layout";
  return {};
}

PeerCell start_cell(const char* solver) {
  PeerCell cell;
  cell.library = detail::mujoco_library();
  cell.solver = solver;
  return cell;
}

// mj_geomDistance with its fromto segment (from on A, to on B; to - from
// is distance * MuJoCo's normal, which points from geom 1 to geom 2), so
// (from - to) / distance is the B-to-A normal whatever the sign.
template <bool with_normal>
PeerCell run_geom_distance(const Workload& work, int repeats, const char* solver) {
  PeerCell cell = start_cell(solver);
  Model model;
  cell.note = build(work, model);
  if (!cell.note.empty()) {
    cell.supported = false;
    return cell;
  }
  int at_distmax = 0;
  std::array<mjtNum, 6> fromto{};
  const auto query = [&] {
    const double dist = mj_geomDistance(model.m, model.d, model.ga, model.gb, distmax, fromto.data());
    detail::Depth out;
    if (dist >= distmax) return out;
    out.distance = dist;
    if constexpr (with_normal) {
      const std::array<double, 3> n{(fromto[0] - fromto[3]) / dist, (fromto[1] - fromto[4]) / dist,
                                    (fromto[2] - fromto[5]) / dist};
      const double len = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
      if (std::isfinite(len) && std::abs(len - 1.0) < 1e-6) out.normal = n;
    }
    return out;
  };
  detail::measure(
      work, repeats, cell,
      [&](std::size_t i) {
        model.place(work.pose_a[i], work.pose_b[i]);
        at_distmax += !std::isfinite(query().distance);
      },
      [&] {
        if constexpr (with_normal)
          return query();
        else
          return query().distance;
      });
  if (at_distmax > 0)
    detail::append_note(cell, std::to_string(at_distmax) + " poses returned distmax (NaN, counted as failures)");
  if constexpr (with_normal) {
    std::size_t no_normal = 0;
    for (std::size_t i = 0; i < cell.distances.size(); ++i)
      no_normal += std::isfinite(cell.distances[i]) && !std::isfinite(cell.normals[i][0]);
    if (no_normal > 0)
      detail::append_note(cell, "fromto not |distance| long on " + std::to_string(no_normal) + " of " +
                                    std::to_string(cell.distances.size()) + " poses (normal NaN)");
  }
  return cell;
}

}  // namespace

std::string detail::mujoco_library() { return std::string("MuJoCo ") + mj_versionString(); }

PeerCell run_mujoco_distance(const Workload& work, int repeats) {
  return run_geom_distance<false>(work, repeats, detail::mujoco_distance_solver);
}

PeerCell run_mujoco_signed(const Workload& work, int repeats) {
  return run_geom_distance<true>(work, repeats, detail::mujoco_signed_solver);
}

// mj_collision's contacts (geom margins 0: penetrating pairs only); the
// deepest one's dist (negative = -depth) and normal. MuJoCo's normal points
// from contact.geom[0] to contact.geom[1], and MuJoCo may order the pair
// either way, so B-to-A is its negative when geom[0] is A, else itself.
PeerCell run_mujoco_collision(const Workload& work, int repeats) {
  PeerCell cell = start_cell(detail::mujoco_collision_solver);
  Model model;
  cell.note = build(work, model);
  if (!cell.note.empty()) {
    cell.supported = false;
    return cell;
  }
  int no_contact = 0;
  const auto query = [&](bool inspect) {
    mj_collision(model.m, model.d);
    detail::Depth out;
    const mjData& d = *model.d;
    if (d.ncon <= 0) {
      if (inspect) ++no_contact;
      return out;
    }
    const mjContact* best = &d.contact[0];
    for (int k = 1; k < d.ncon; ++k)
      if (d.contact[k].dist < best->dist) best = &d.contact[k];
    const double sign = best->geom[0] == model.ga ? -1.0 : 1.0;
    out.distance = best->dist;
    out.normal = {sign * best->frame[0], sign * best->frame[1], sign * best->frame[2]};
    return out;
  };
  detail::measure(
      work, repeats, cell,
      [&](std::size_t i) {
        model.place(work.pose_a[i], work.pose_b[i]);
        query(true);
      },
      [&] { return query(false); });
  if (no_contact > 0)
    detail::append_note(cell, std::to_string(no_contact) + " of " + std::to_string(cell.distances.size()) +
                                  " poses gave no contact (NaN, counted as failures)");
  return cell;
}

}  // namespace proxima::bench
