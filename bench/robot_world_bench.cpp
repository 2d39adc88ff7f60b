// SPDX-License-Identifier: BSD-3-Clause
// proxima-robot-world-bench: milliseconds per RobotWorld step of the Panda
// (link meshes as convex hulls, or raw triangle meshes with --meshes raw) pressing its hand onto a table under PD
// control, with Lemke and with PGS. The table's top is put 1 mm below the
// lowest point of the hand and fingers at the ready pose, and the PD target
// is that pose with the shoulder leaned forward, so the hand comes down and
// rests on the table; the first 20 % of the steps (the approach) are not
// timed.
//
//   proxima-robot-world-bench [--steps N] [--solver lemke|pgs|both] [--dt S] [--meshes hull|raw]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include <proxima/core/error.hpp>
#include <proxima/robot/kinematics.hpp>
#include <proxima/robot/robot_world.hpp>
#include <proxima/robot/urdf.hpp>

#include "arguments.hpp"
#include "data_dirs.hpp"
#include "robot_folder.hpp"

namespace {

using namespace proxima;
using Eigen::VectorXd;

struct Result {
  double ms_mean = 0.0, ms_median = 0.0, ms_max = 0.0;
  double contacts = 0.0;  // mean over the timed steps
  int fallbacks = 0;
  double wrist_torque = 0.0;
  std::string links;  // the links touching the table at the end
  std::string why;    // Lemke's statuses when it fell back
};

Result run(const robot::RobotGeometry& geometry, sim::SolverKind solver, int steps, double dt) {
  const robot::RobotModel& m = geometry.model();
  VectorXd q(static_cast<Eigen::Index>(m.variable_count()));
  q.setZero();
  const std::vector<double> ready{0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785};
  for (std::size_t i = 0; i < ready.size() && i < m.variable_count(); ++i) q[static_cast<Eigen::Index>(i)] = ready[i];
  // The lowest point of the links beyond the wrist at the ready pose.
  const std::vector<Transform> poses =
      robot::forward_kinematics(m, std::span<const double>(q.data(), static_cast<std::size_t>(q.size())));
  double lowest = 1e9;
  for (std::size_t l = 0; l < m.links().size(); ++l) {
    const std::string& name = m.link(static_cast<int>(l)).name;
    if (name.find("hand") == std::string::npos && name.find("finger") == std::string::npos &&
        name.find("link7") == std::string::npos)
      continue;
    for (const robot::LinkShape& s : geometry.link(static_cast<int>(l)).shapes)
      lowest = std::min(lowest, s.local_aabb().transformed(poses[l] * s.origin).min.z());
  }
  sim::World w;
  w.options.dt = dt;
  w.options.solver = solver;
  const double top = lowest - 1e-3;
  w.add(sim::make_body("table", Box(1.0, 1.0, 0.05), 0.0,
                       Transform::from_translation(Vec3(0.5, 0.0, top - 0.025)), true));
  robot::RobotWorld rw(geometry, Transform::identity(), {q, VectorXd::Zero(q.size())}, std::move(w));
  VectorXd target = q;
  target[1] += 0.15;  // the shoulder leans forward: the hand goes down onto the table
  const auto n = q.size();
  rw.robot().set_pd(VectorXd::Constant(n, 400.0), VectorXd::Constant(n, 40.0), target, VectorXd::Zero(n));
  std::vector<double> ms;
  Result r;
  const int warm = steps / 5;
  for (int i = 0; i < steps; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    rw.step();
    const double t = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (i < warm) continue;
    ms.push_back(t);
    r.contacts += rw.last_stats().contacts;
    r.fallbacks += rw.last_stats().fallbacks;
    const std::string status = sim::to_string(rw.last_stats().lemke_status);
    if (rw.last_stats().fallbacks && r.why.find(status) == std::string::npos)
      r.why += (r.why.empty() ? "" : " ") + status;
  }
  std::sort(ms.begin(), ms.end());
  for (const double t : ms) r.ms_mean += t;
  r.ms_mean /= static_cast<double>(ms.size());
  r.ms_median = ms[ms.size() / 2];
  r.ms_max = ms.back();
  r.contacts /= static_cast<double>(ms.size());
  r.wrist_torque = rw.robot().motor_torque()[1];
  for (const robot::RobotContact& c : rw.last_contacts()) {
    if (c.link < 0) continue;
    const std::string& name = m.link(c.link).name;
    if (r.links.find(name) == std::string::npos) r.links += (r.links.empty() ? "" : " ") + name;
  }
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  int steps = 2000;
  std::string solver = "both";
  double dt = 1e-3;
  std::string meshes = "hull";
  try {
    bench::Arguments args(argc, argv);
    while (args.next()) {
      if (args.is("--steps")) steps = static_cast<int>(args.integer(10, 10000000));
      else if (args.is("--solver")) {
        solver = args.text();
        if (solver != "lemke" && solver != "pgs" && solver != "both")
          throw bench::BadArgument("--solver takes lemke, pgs or both, not '" + solver + "'");
      } else if (args.is("--dt")) dt = args.number(1e-6, 0.1);
      else if (args.is("--meshes")) {
        meshes = args.text();
        if (meshes != "hull" && meshes != "raw")
          throw bench::BadArgument("--meshes takes hull or raw, not '" + meshes + "'");
      }
      else args.unknown();
    }
    const auto dir = std::filesystem::path(apps::robots_dir()) / "panda";
    robot::GeometryOptions go;
    go.mesh_mode = meshes == "raw" ? robot::MeshMode::triangle_mesh : robot::MeshMode::convex_hull;
    const robot::RobotGeometry geometry(robot::load_urdf(bench::only_file(dir, ".urdf")), go);
    std::printf("Panda hand pressed onto a table, %d steps of %g s (first %d not timed), %s meshes\n\n", steps, dt,
                steps / 5, meshes == "raw" ? "raw triangle" : "hull");
    std::printf("| solver | ms/step mean | median | max | contacts/step | Lemke fallbacks | joint 2 torque (N m) | touching |\n");
    std::printf("| --- | --- | --- | --- | --- | --- | --- | --- |\n");
    for (const sim::SolverKind k : {sim::SolverKind::lemke, sim::SolverKind::pgs}) {
      if (solver != "both" && solver != sim::to_string(k)) continue;
      const Result r = run(geometry, k, steps, dt);
      std::printf("| %s | %.4f | %.4f | %.4f | %.1f | %d%s%s%s | %.3f | %s |\n", sim::to_string(k), r.ms_mean,
                  r.ms_median, r.ms_max, r.contacts, r.fallbacks, r.why.empty() ? "" : " (", r.why.c_str(),
                  r.why.empty() ? "" : ")", r.wrist_torque, r.links.c_str());
    }
  } catch (const bench::BadArgument& e) {
    std::fprintf(stderr, "proxima-robot-world-bench: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "proxima-robot-world-bench: %s\n", e.what());
    return 1;
  }
  return 0;
}
