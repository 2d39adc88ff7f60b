// SPDX-License-Identifier: BSD-3-Clause
// `proxima sim`: run a scene, write the trajectory, report the metrics.
#include <cmath>
#include <iomanip>
#include <ostream>

#include "progress.hpp"
#include "scene.hpp"
#include "sim_contacts.hpp"

namespace proxima::apps {
namespace {

void csv_header(const Scene& s, std::ostream& out) {
  out << "step,time";
  for (const sim::Body& b : s.world.bodies()) {
    if (b.is_static) continue;
    for (const char* c : {"x", "y", "z", "qw", "qx", "qy", "qz"}) out << ',' << b.name << '.' << c;
  }
  out << ",kinetic,potential,energy,contacts,pairs,iterations,fallbacks,status,ms_broadphase,ms_contacts,ms_build,ms_solve,aux\n";
}

void csv_row(const Scene& s, int step, const sim::StepStats& st, std::ostream& out) {
  const sim::World& w = s.world;
  out << step << ',' << w.time();
  for (const sim::Body& b : w.bodies()) {
    if (b.is_static) continue;
    const Quat q(b.pose.R);
    out << ',' << b.pose.p.x() << ',' << b.pose.p.y() << ',' << b.pose.p.z() << ',' << q.w() << ',' << q.x() << ','
        << q.y() << ',' << q.z();
  }
  const double ke = w.kinetic_energy(), pe = w.potential_energy();
  out << ',' << ke << ',' << pe << ',' << ke + pe << ',' << st.contacts << ',' << st.pairs << ',' << st.iterations << ','
      << st.fallbacks << ',' << sim::to_string(st.status) << ',' << st.ms_broadphase << ',' << st.ms_contacts << ','
      << st.ms_build << ',' << st.ms_solve << ',' << st.aux << '\n';
}

// A scene with a robot: the bodies' columns, then each joint's position
// and motor torque, then the step's numbers (docs/scene-format.md).
void robot_csv_header(const robot::RobotWorld& rw, std::ostream& out) {
  out << "step,time";
  for (const sim::Body& b : rw.world().bodies()) {
    if (b.is_static) continue;
    for (const char* c : {"x", "y", "z", "qw", "qx", "qy", "qz"}) out << ',' << b.name << '.' << c;
  }
  const robot::RobotModel& m = rw.robot().dynamics().model();
  if (rw.robot().dynamics().floating())
    for (const char* c : {"x", "y", "z", "qw", "qx", "qy", "qz"}) out << ',' << m.name() << ".base." << c;
  for (const std::string& j : m.variable_names()) out << ',' << m.name() << '.' << j << ".q";
  for (const std::string& j : m.variable_names()) out << ',' << m.name() << '.' << j << ".tau";
  out << ",kinetic,potential,energy,contacts,pairs,iterations,fallbacks,status,ms_contacts,ms_build,ms_solve,"
         "ms_dynamics\n";
}

void robot_csv_row(const robot::RobotWorld& rw, int step, std::ostream& out) {
  out << step << ',' << rw.time();
  for (const sim::Body& b : rw.world().bodies()) {
    if (b.is_static) continue;
    const Quat q(b.pose.R);
    out << ',' << b.pose.p.x() << ',' << b.pose.p.y() << ',' << b.pose.p.z() << ',' << q.w() << ',' << q.x() << ','
        << q.y() << ',' << q.z();
  }
  if (rw.robot().dynamics().floating()) {
    const Transform& b = rw.robot().state().base;
    const Quat q(b.R);
    out << ',' << b.p.x() << ',' << b.p.y() << ',' << b.p.z() << ',' << q.w() << ',' << q.x() << ',' << q.y() << ','
        << q.z();
  }
  for (const double x : rw.robot().state().q) out << ',' << x;
  for (const double x : rw.robot().motor_torque()) out << ',' << x;
  const robot::RobotWorldStats& st = rw.last_stats();
  const double ke = rw.kinetic_energy(), pe = rw.potential_energy();
  out << ',' << ke << ',' << pe << ',' << ke + pe << ',' << st.contacts << ',' << st.pairs << ',' << st.iterations
      << ',' << st.fallbacks << ',' << sim::to_string(st.status) << ',' << st.ms_contacts << ',' << st.ms_build << ','
      << st.ms_solve << ',' << st.ms_dynamics << '\n';
}

// The world's per-step numbers of a robot step, for the timing summary and
// the observers.
sim::StepStats world_stats(const robot::RobotWorldStats& r) {
  sim::StepStats s;
  s.pairs = r.pairs;
  s.contacts = r.contacts;
  s.iterations = r.iterations;
  s.fallbacks = r.fallbacks;
  s.status = r.status;
  s.ms_contacts = r.ms_contacts;
  // The summary's "LCP build" of a robot scene includes the robot's
  // dynamics (M, h, their factorization and the state update), so that the
  // four parts add up to the whole step.
  s.ms_build = r.ms_build + r.ms_dynamics;
  s.ms_solve = r.ms_solve;
  return s;
}

SimRunResult run_robot_scene(Scene& scene, double duration, std::ostream* csv, const StepObserver& on_step,
                             const RobotObserver& on_robot) {
  SimRunResult r;
  check_run(scene.world.options.dt, duration, "dt", "duration");
  const SceneRobot& sr = scene.robots.front();
  robot::RobotWorld rw = sr.make_world(std::move(scene.world));
  if (csv) {
    *csv << std::setprecision(10);
    robot_csv_header(rw, *csv);
  }
  const int steps = static_cast<int>(std::llround(duration / rw.world().options.dt));
  if (on_robot) on_robot(rw, 0);
  for (int i = 1; i <= steps; ++i) {
    sr.drive(rw);
    rw.step();
    const sim::StepStats st = world_stats(rw.last_stats());
    r.timing.add(st);
    if (csv) robot_csv_row(rw, i, *csv);
    if (on_step) on_step(rw.world(), st);
    if (on_robot) on_robot(rw, i);
  }
  r.steps = steps;
  scene.world = std::move(rw.world());
  return r;
}

}  // namespace

SimRunResult run_scene(Scene& scene, double duration, std::ostream* csv, const StepObserver& on_step,
                       const RobotObserver& on_robot) {
  if (!scene.robots.empty()) return run_robot_scene(scene, duration, csv, on_step, on_robot);
  SimRunResult r;
  std::vector<std::unique_ptr<sim::Metric>> metrics;
  for (const sim::MetricSpec& m : scene.metrics) metrics.push_back(sim::make_metric(m, scene.world));
  for (auto& m : metrics) m->start(scene.world);
  if (csv) {
    *csv << std::setprecision(10);
    csv_header(scene, *csv);
  }
  check_run(scene.world.options.dt, duration, "dt", "duration");
  const int steps = static_cast<int>(std::llround(duration / scene.world.options.dt));
  for (int i = 1; i <= steps; ++i) {
    const sim::StepStats& st = scene.world.step();
    r.timing.add(st);
    for (auto& m : metrics) m->observe(scene.world, st);
    if (csv) csv_row(scene, i, st, *csv);
    if (on_step) on_step(scene.world, st);
  }
  r.steps = steps;
  for (auto& m : metrics)
    for (sim::MetricResult& x : m->results()) r.metrics.push_back(std::move(x));
  return r;
}

}  // namespace proxima::apps

#include <fstream>

#include <proxima/core/error.hpp>

#include "html_replay.hpp"
#include "replay_page.hpp"

namespace proxima::apps {

int run_sim_command(const std::string& scene_path, const SimCommandOptions& o, std::ostream& out,
                    std::ostream& err) {
  try {
    Scene scene = load_scene(scene_path);
    sim::StepOptions& so = scene.world.options;
    if (o.dt) so.dt = *o.dt;
    if (o.solver == "lemke") so.solver = sim::SolverKind::lemke;
    else if (o.solver == "pgs") so.solver = sim::SolverKind::pgs;
    else if (!o.solver.empty()) throw Error("--solver: expected lemke or pgs");
    if (o.friction_directions) {
      if (*o.friction_directions < 3 || *o.friction_directions > 64)
        throw Error("--friction-directions: " + std::to_string(*o.friction_directions) + " must be from 3 to 64");
      so.solve.friction_directions = *o.friction_directions;
    }
    if (o.friction_basis == "fixed") so.friction_basis = sim::FrictionBasis::fixed;
    else if (o.friction_basis == "sliding") so.friction_basis = sim::FrictionBasis::sliding;
    else if (!o.friction_basis.empty()) throw Error("--friction-basis: expected fixed or sliding");
    if (o.formulation == "peg") so.formulation = sim::Formulation::peg;
    else if (o.formulation == "stewart_trinkle") so.formulation = sim::Formulation::stewart_trinkle;
    else if (!o.formulation.empty()) throw Error("--formulation: expected peg or stewart_trinkle");
    if (o.time && !(*o.time > 0.0)) throw Error("--time: must be > 0 s");
    const double duration = o.time ? *o.time : scene.time;
    check_run(so.dt, duration, o.dt ? "--dt" : "dt", o.time ? "--time" : "time");
    if (!scene.robots.empty() && !o.contacts_path.empty())
      throw Error("--contacts: not written for a scene with robots yet");
    std::ofstream csv;
    if (!o.out_path.empty()) {
      csv.open(o.out_path);
      if (!csv) throw Error(o.out_path + ": cannot write the trajectory file");
    }
    std::ofstream contacts;
    if (!o.contacts_path.empty()) {
      contacts.open(o.contacts_path);
      if (!contacts) throw Error(o.contacts_path + ": cannot write the contacts file");
    }
    const std::string& out_path = o.out_path;
    // The page file is opened before the run, so that a bad path fails at once.
    std::optional<ReplayPageFile> page;
    std::optional<SimReplay> replay;
    const int steps = static_cast<int>(std::llround(duration / so.dt));
    if (o.html_path) {
      page.emplace(*o.html_path, "--html");
      // A robot's replay starts from its robot world (run_scene's step 0).
      if (scene.robots.empty()) replay.emplace(scene.world, scene.name, steps);
    }
    Progress progress = Progress::on_terminal("proxima sim " + scene.name, duration, o.progress);
    int step = 0;
    const SimRunResult r = run_scene(scene, duration, out_path.empty() ? nullptr : &csv,
                                     [&](const sim::World& w, const sim::StepStats&) {
                                       ++step;
                                       if (contacts.is_open()) write_contacts_line(w, step, contacts);
                                       if (progress.active()) progress.update(w.time());
                                       if (replay && scene.robots.empty()) replay->observe(w);
                                     },
                                     [&](const robot::RobotWorld& rw, int i) {
                                       if (!page) return;
                                       if (i == 0)
                                         replay.emplace(rw, *scene.robots.front().geometry, scene.name, steps);
                                       else
                                         replay->observe(rw);
                                     });
    progress.finish();
    if (page) page->write(replay->data());
    out << scene.name << ": " << duration << " s at dt " << scene.world.options.dt << " s, solver "
        << sim::to_string(so.solver) << ", q = " << so.solve.friction_directions << " (" << sim::to_string(so.friction_basis)
        << " cone), " << sim::to_string(so.formulation) << "\n";
    for (const sim::MetricResult& m : r.metrics)
      if (!m.text.empty()) out << "  " << m.text << "\n";
    out << "  " << r.timing.text() << "\n";
    return 0;
  } catch (const Error& e) {
    err << "proxima sim: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace proxima::apps
