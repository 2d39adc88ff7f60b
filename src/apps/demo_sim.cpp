// SPDX-License-Identifier: BSD-3-Clause
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <ostream>
#include <sstream>

#include <proxima/core/error.hpp>

#include "data_dirs.hpp"
#include "demo_sim.hpp"
#include "html_replay.hpp"
#include "replay_page.hpp"
#include "robot_scene_metrics.hpp"
#include "scene.hpp"

namespace proxima::apps {
namespace {

// The body a scene's metrics are about (drift first, then any), with the
// time its displacement is counted from.
std::pair<int, double> tracked_body(const Scene& s) {
  for (const sim::MetricSpec& m : s.metrics)
    if (m.kind == "drift") return {s.world.find(m.body), m.from};
  for (const sim::MetricSpec& m : s.metrics)
    if (!m.body.empty()) return {s.world.find(m.body), 0.0};
  const auto& bodies = s.world.bodies();
  for (std::size_t i = 0; i < bodies.size(); ++i)
    if (!bodies[i].infinite_mass()) return {static_cast<int>(i), 0.0};
  return {-1, 0.0};
}

}  // namespace

const std::vector<DemoScene>& demo_scenes() {
  static const std::vector<DemoScene> scenes = {
      {"cube_stack.json", 3.0},           {"resting_box.json", 1.0},
      {"incline.json", 0.5},              {"incline_stuck.json", 1.0},
      {"spinning_sphere_face_50.json", 0.5}, {"spinning_sphere_face_100.json", 0.5},
      {"spinning_sphere_face_200.json", 0.5}, {"spinning_sphere_vertex_50.json", 0.5},
      {"spinning_sphere_vertex_100.json", 0.5}, {"spinning_sphere_vertex_200.json", 0.5},
      {"rolling_spheres.json", 1.0},
      {"mesh_cube_stack.json", 3.0},  // the 10 triangulated cubes of BLEM §4.4
      {"conveyor_belt.json", 0.5},    {"pusher.json", 1.0},
      {"bouncing_ball.json", 1.2},
      // The whole grasp: most of its steps are spent with the mug on the
      // table (docs/dynamics.md, "A grasp").
      {"panda_mug_grasp.json", 2.1},
      // A quadruped standing on a noisy terrain mesh (docs/dynamics.md).
      {"quadruped_terrain.json", 2.0},
      // The UR5's gripper pushes a box along a table (docs/dynamics.md).
      {"ur5_push_box.json", 4.0},
  };
  return scenes;
}

std::string default_examples_dir() { return examples_dir(); }

std::vector<SceneReport> run_demo_scenes(const std::string& examples_dir, double time_scale, std::ostream& log,
                                         const std::string& replay_dir) {
  std::vector<SceneReport> out;
  bool pages = !replay_dir.empty();
  for (const DemoScene& d : demo_scenes()) {
    const std::string path = (std::filesystem::path(examples_dir) / d.file).string();
    Scene scene;
    try {
      scene = load_scene(path);
    } catch (const Error& e) {
      log << "skipped " << path << ": " << e.what() << "\n";
      continue;
    }
    SceneReport r;
    r.file = d.file;
    r.name = scene.name;
    r.solver = sim::to_string(scene.world.options.solver);
    r.duration = d.seconds * time_scale;
    // Plain locals, not a structured binding: the lambda below captures
    // them, which clang before 16 does not allow for bindings.
    const std::pair<int, double> tracked = tracked_body(scene);
    const int body = tracked.first;
    const double from = tracked.second;
    if (body >= 0) r.tracked_body = scene.world.bodies()[static_cast<std::size_t>(body)].name;
    const bool robot = !scene.robots.empty();
    // With a robot the energy is the robot's and the bodies' (run_scene's
    // robot observer sets e0 at step 0).
    double e0 = scene.world.kinetic_energy() + scene.world.potential_energy();
    Vec3 body_start = Vec3::Zero(), body_end = Vec3::Zero();
    // Without a free body, a robot scene follows the robot's centre of mass.
    Vec3 com_start = Vec3::Zero(), com_end = Vec3::Zero();
    const auto robot_com = [&](const robot::RobotWorld& rw) {
      const robot::RobotModel& m = rw.robot().dynamics().model();
      Vec3 sum = Vec3::Zero();
      double mass = 0.0;
      for (std::size_t l = 0; l < m.links().size(); ++l) {
        const robot::Inertial& in = m.links()[l].inertial;
        sum += in.mass * rw.link_poses()[l].apply(in.origin.p);
        mass += in.mass;
      }
      return mass > 0.0 ? Vec3(sum / mass) : Vec3::Zero();
    };
    Vec3 x_ref = Vec3::Zero();
    bool have_ref = false;
    RobotSceneMetrics robot_metrics(body, 0.75 * r.duration);
    // The page file is opened first: without three.js there are no pages.
    std::optional<ReplayPageFile> page;
    std::optional<SimReplay> replay;
    if (pages) {
      const std::string name = "replay_" + std::filesystem::path(d.file).stem().string() + ".html";
      try {
        page.emplace((std::filesystem::path(replay_dir) / name).string(), "replay page");
        // A robot's replay starts from its robot world (step 0 below).
        if (!robot)
          replay.emplace(scene.world, scene.name, static_cast<int>(std::llround(r.duration / scene.world.options.dt)));
        r.replay_page = name;
      } catch (const Error& e) {
        log << "no 3-D replay pages: " << e.what() << "\n";
        pages = false;
      }
    }
    const auto on_robot = [&](const robot::RobotWorld& rw, int step) {
      const double e = rw.kinetic_energy() + rw.potential_energy();
      if (step == 0) {
        e0 = e;
        if (body >= 0) body_start = rw.world().bodies()[static_cast<std::size_t>(body)].com_position();
        com_start = robot_com(rw);
        if (page)
          replay.emplace(rw, *scene.robots.front().geometry, scene.name,
                         static_cast<int>(std::llround(r.duration / rw.world().options.dt)));
        return;
      }
      if (replay) replay->observe(rw);
      robot_metrics.observe(rw);
      r.energy_j.x.push_back(rw.time());
      r.energy_j.y.push_back(e - e0);
      if (body >= 0) body_end = rw.world().bodies()[static_cast<std::size_t>(body)].com_position();
      com_end = robot_com(rw);
    };
    const SimRunResult run = run_scene(scene, r.duration, nullptr, [&](const sim::World& w, const sim::StepStats& st) {
      if (replay && !robot) replay->observe(w);
      const double t = w.time();
      double drift = 0.0;
      if (body >= 0 && t >= from) {
        const Vec3 x = w.bodies()[static_cast<std::size_t>(body)].com_position();
        if (!have_ref) {
          x_ref = x;
          have_ref = true;
        }
        drift = 1e3 * (x - x_ref).norm();
      }
      r.drift_mm.x.push_back(t);
      r.drift_mm.y.push_back(drift);
      if (!robot) {
        r.energy_j.x.push_back(t);
        r.energy_j.y.push_back(w.kinetic_energy() + w.potential_energy() - e0);
      }
      r.contacts.x.push_back(t);
      r.contacts.y.push_back(st.contacts);
      r.ms_per_step.x.push_back(t);
      r.ms_per_step.y.push_back(st.ms_total());
    }, on_robot);
    r.metrics = run.metrics;
    // A scene with a robot has no scene metrics; what it does to its first
    // free body (the mug the Panda lifts, the box the UR5 pushes) is how far
    // it moved up and sideways.
    if (robot && body >= 0) {
      const Vec3 moved = body_end - body_start;
      char text[200];
      std::snprintf(text, sizeof text, "%s: height change %+.4f m, moved %.4f m sideways (centre of mass, end over start)",
                    r.tracked_body.c_str(), moved.z(), std::hypot(moved.x(), moved.y()));
      r.metrics.push_back({"lift", moved.z(), text});
    } else if (robot) {
      const Vec3 moved = com_end - com_start;
      char text[160];
      std::snprintf(text, sizeof text, "robot: centre of mass moved %+.4f m down, %.4f m sideways (end over start)",
                    -moved.z(), std::hypot(moved.x(), moved.y()));
      r.metrics.push_back({"settle", moved.norm(), text});
    }
    if (robot) {
      const sim::TimingSummary& t = run.timing;
      const double ms_step = t.steps > 0 ? (t.broadphase + t.contacts + t.build + t.solve) / t.steps : 0.0;
      for (sim::MetricResult& m : robot_metrics.results(scene.world.options.dt, ms_step)) r.metrics.push_back(std::move(m));
    }
    r.timing = run.timing;
    if (page) {
      try {
        page->write(replay->data());
      } catch (const Error& e) {
        log << e.what() << "\n";
        r.replay_page.clear();
      }
    }
    log << "  " << r.name << " (" << r.duration << " s): " << run.timing.text() << "\n" << std::flush;
    out.push_back(std::move(r));
  }
  return out;
}

namespace {

std::string metrics_text(const SceneReport& r, const char* separator) {
  std::string s;
  for (const sim::MetricResult& m : r.metrics)
    if (!m.text.empty()) s += (s.empty() ? "" : separator) + m.text;
  return s;
}

std::string ms(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4f", v);
  return buf;
}

double mean_ms(const sim::TimingSummary& t) {
  return t.steps > 0 ? (t.broadphase + t.contacts + t.build + t.solve) / t.steps : 0.0;
}

}  // namespace

void sim_markdown(const std::vector<SceneReport>& reports, std::ostream& out) {
  // A '|' inside a cell (|error|) would end it.
  const auto cell = [](const std::string& s) {
    std::string o;
    for (const char c : s) {
      if (c == '|') o += '\\';
      o += c;
    }
    return o;
  };
  out << "| scene | solver | simulated, s | metrics | ms/step | fallbacks |\n|---|---|---|---|---|---|\n";
  for (const SceneReport& r : reports)
    out << "| " << r.name << " | " << r.solver << " | " << r.duration << " | " << cell(metrics_text(r, "<br>")) << " | "
        << ms(mean_ms(r.timing)) << " | " << r.timing.fallbacks << " |\n";
}

namespace {

// Read by its median: a few slow steps (a page fault, the first contact) do not move it.
std::string time_per_step_plot(const PlotSeries& ms) {
  return svg_plot({ms}, {.title = "time per step", .y_label = "ms", .median = true});
}

}  // namespace

std::string sim_html(const std::vector<SceneReport>& reports, const std::string& command, const std::string& date,
                     const ReportLinks& links) {
  std::ostringstream o;
  o << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Proxima simulator report</title>\n"
       "<style>body{font-family:sans-serif;margin:1.5em;max-width:1500px}"
       "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:3px 6px;font-size:13px;vertical-align:top}"
       "section{display:flex;flex-wrap:wrap;gap:12px;margin:1em 0;border-top:1px solid #ddd;padding-top:.5em}"
       ".plots{display:grid;grid-template-columns:repeat(2,auto);gap:4px}.info{min-width:340px;max-width:440px}"
       "h2{font-size:17px;margin:.2em 0}</style></head><body>\n";
  o << "<h1>Proxima simulator report</h1>\n<p>" << html_escape(date) << " — <code>" << html_escape(command)
    << "</code>. Short runs of the scenes in <code>examples/</code>; the metric texts are those of "
       "<code>proxima sim</code> (docs/scene-format.md), except a robot scene's height change of its first free "
       "body; its energy is the robot's and the bodies'. Times are wall clock on this machine.</p>\n";
  if (!links.query_page.empty()) {
    o << "<p>Queries: <a href=\"" << html_escape(links.query_page)
      << "\">the report's example queries and contact manifolds in 3-D</a> (witness points, distance "
         "segments, contact points with their normals)"
      << (links.mug_page.empty() ? std::string()
                                 : ", and <a href=\"" + html_escape(links.mug_page) +
                                       "\">the scanned mug's boundary-layer contacts with its plates</a>")
      << ".</p>\n";
  }
  if (!links.watch_page.empty()) {
    o << "<p>Robot watchdog: <a href=\"" << html_escape(links.watch_page)
      << "\">3-D replay of the Panda's watched jog</a>, its links coloured by clearance, with its clearance, "
         "level and speed factor over time.</p>\n";
  }
  if (!links.peg_page.empty()) {
    o << "<p>Polyhedral Exact Geometry: <a href=\"" << html_escape(links.peg_page)
      << "\">the sawtooth and the hills, PEG beside Stewart–Trinkle</a> (trajectories, problem size, solve time "
         "and energy per step, and the sawtooth at four step sizes).</p>\n";
  }
  // Summary table first.
  o << "<table><tr><th>scene</th><th>solver</th><th>simulated, s</th><th>metrics</th><th>ms/step</th>"
       "<th>fallbacks</th></tr>\n";
  for (const SceneReport& r : reports)
    o << "<tr><td><a href=\"#" << html_escape(r.name) << "\">" << html_escape(r.name) << "</a>"
      << (r.replay_page.empty() ? "" : " (<a href=\"" + html_escape(r.replay_page) + "\">3-D</a>)") << "</td><td>"
      << html_escape(r.solver) << "</td><td>" << r.duration << "</td><td>" << html_escape(metrics_text(r, "\n"))
      << "</td><td>" << ms(mean_ms(r.timing)) << "</td><td>" << r.timing.fallbacks << "</td></tr>\n";
  o << "</table>\n";
  // Per scene: metrics beside the four plots.
  for (const SceneReport& r : reports) {
    o << "<section id=\"" << html_escape(r.name) << "\"><div class=\"info\"><h2>" << html_escape(r.name) << "</h2>"
      << (r.replay_page.empty() ? ""
                                : "<p><a href=\"" + html_escape(r.replay_page) + "\">3-D replay of this run</a></p>")
      << "<table><tr><th>metric</th><th>value</th></tr>";
    for (const sim::MetricResult& m : r.metrics)
      if (!m.text.empty()) o << "<tr><td>" << html_escape(m.name) << "</td><td>" << html_escape(m.text) << "</td></tr>";
    o << "<tr><td>timing</td><td>" << html_escape(r.timing.text()) << "</td></tr></table></div><div class=\"plots\">"
      << svg_line_plot(r.drift_mm, "drift of " + r.tracked_body, "mm")
      << svg_line_plot(r.energy_j, "energy change (kinetic + potential)", "J")
      << svg_line_plot(r.contacts, "contacts per step", "points")
      << time_per_step_plot(r.ms_per_step) << "</div></section>\n";
  }
  o << "</body></html>\n";
  return o.str();
}

}  // namespace proxima::apps
