// SPDX-License-Identifier: BSD-3-Clause
#include "demo_peg.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <ostream>
#include <sstream>

#include <proxima/core/error.hpp>
#include <proxima/shape/convex_polytope.hpp>

#include "scene.hpp"

namespace proxima::apps {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// The scenes and the sawtooth's step sizes (the paper's Figs. 4–11).
constexpr const char* kSawtooth = "peg_sawtooth.json";
constexpr const char* kHills = "peg_hills.json";
constexpr double kSawtoothSteps[] = {1e-4, 1e-3, 1e-2, 1e-1};

// The obstacles' top surface in the scene's plane (x, y; the scenes are
// extruded along z): the upper envelope of the static convex pieces' outlines,
// taken from their vertices, so it is the geometry's and not the simulator's.
PlotSeries top_surface(const sim::World& w, double x0, double x1, int samples = 600) {
  std::vector<std::vector<Vec3>> pieces;
  for (const sim::Body& b : w.bodies()) {
    if (!b.is_static || b.geometry == nullptr) continue;
    const Shape* s = b.geometry->convex();
    if (s == nullptr || s->type() != ShapeType::convex) continue;
    std::vector<Vec3> v;
    for (const Vec3& p : s->as<ConvexPolytope>().vertices()) v.push_back(b.pose.apply(p));
    pieces.push_back(std::move(v));
  }
  PlotSeries out;
  for (int i = 0; i <= samples; ++i) {
    const double x = x0 + (x1 - x0) * i / samples;
    double top = -kInf;
    for (const std::vector<Vec3>& v : pieces) {
      // Highest point of the piece's outline above x: over the segments
      // between any two vertices whose x-range holds x (the outline's top
      // edge is one of them and none is higher, the piece being convex).
      for (std::size_t a = 0; a < v.size(); ++a)
        for (std::size_t b = a; b < v.size(); ++b) {
          const double xa = v[a].x(), xb = v[b].x();
          if (x < std::min(xa, xb) || x > std::max(xa, xb)) continue;
          const double y =
              xa == xb ? std::max(v[a].y(), v[b].y()) : v[a].y() + (x - xa) / (xb - xa) * (v[b].y() - v[a].y());
          top = std::max(top, y);
        }
    }
    if (std::isfinite(top)) {
      out.x.push_back(x);
      out.y.push_back(top);
    }
  }
  out.name = "true surface";
  return out;
}

PegRun run_one(const std::string& path, sim::Formulation f, double dt, double time_scale) {
  Scene scene = load_scene(path);
  scene.world.options.formulation = f;
  if (dt > 0.0) scene.world.options.dt = dt;
  const int particle = scene.world.find("particle");
  if (particle < 0) throw Error(path + ": no body named \"particle\"");
  PegRun r;
  r.formulation = sim::to_string(f);
  r.dt = scene.world.options.dt;
  const double e0 = scene.world.kinetic_energy() + scene.world.potential_energy();
  double lowest_energy = 0.0;
  r.lowest = kInf;
  const auto observe = [&](const sim::World& w, const sim::StepStats& st) {
    const double t = w.time();
    const Vec3 x = w.bodies()[static_cast<std::size_t>(particle)].com_position();
    r.trajectory.x.push_back(x.x());
    r.trajectory.y.push_back(x.y());
    r.lowest = std::min(r.lowest, x.y());
    r.rows.x.push_back(t);
    r.rows.y.push_back(st.contacts + st.aux);
    r.solve_ms.x.push_back(t);
    r.solve_ms.y.push_back(st.ms_solve);
    const double e = w.kinetic_energy() + w.potential_energy() - e0;
    r.energy.x.push_back(t);
    r.energy.y.push_back(e);
    lowest_energy = std::min(lowest_energy, e);
    r.max_gain = std::max(r.max_gain, e - lowest_energy);
  };
  const SimRunResult run = run_scene(scene, scene.time * time_scale, nullptr, observe);
  r.steps = run.timing.steps;
  const sim::TimingSummary& tm = run.timing;
  r.ms_per_step = tm.steps > 0 ? (tm.broadphase + tm.contacts + tm.build + tm.solve) / tm.steps : 0.0;
  return r;
}

// Keeps the points inside [x0, x1] × [y0, y1]: a particle that falls
// through the surface leaves the plot instead of flattening it.
PlotSeries inside(const PlotSeries& s, double x0, double x1, double y0, double y1, const std::string& name) {
  PlotSeries o;
  o.name = name;
  for (std::size_t i = 0; i < s.x.size(); ++i)
    if (s.x[i] >= x0 && s.x[i] <= x1 && s.y[i] >= y0 && s.y[i] <= y1) {
      o.x.push_back(s.x[i]);
      o.y.push_back(s.y[i]);
    }
  return o;
}

// Values clamped to [lo, hi]: a Stewart–Trinkle energy of 1e9 J would
// otherwise flatten PEG's line to zero.
PlotSeries clamped(const PlotSeries& s, double lo, double hi, const std::string& name) {
  PlotSeries o = s;
  o.name = name;
  for (double& y : o.y) y = std::clamp(y, lo, hi);
  return o;
}

PlotSeries named(PlotSeries s, const std::string& name) {
  s.name = name;
  return s;
}

std::string dt_text(double dt) {
  char b[32];
  std::snprintf(b, sizeof b, "%g", dt);
  return b;
}

}  // namespace

std::vector<PegScene> run_demo_peg(const std::string& examples_dir, double time_scale, std::ostream& log) {
  std::vector<PegScene> out;
  for (const char* file : {kSawtooth, kHills}) {
    const std::string path = (std::filesystem::path(examples_dir) / file).string();
    try {
      PegScene s;
      s.file = file;
      const Scene scene = load_scene(path);
      s.name = scene.name;
      for (sim::Formulation f : {sim::Formulation::peg, sim::Formulation::stewart_trinkle})
        s.runs.push_back(run_one(path, f, 0.0, time_scale));
      if (std::string(file) == kSawtooth)
        for (sim::Formulation f : {sim::Formulation::peg, sim::Formulation::stewart_trinkle})
          for (double dt : kSawtoothSteps)
            if (std::abs(dt - scene.world.options.dt) > 1e-12 * dt) s.runs.push_back(run_one(path, f, dt, time_scale));
      double x0 = kInf, x1 = -kInf;
      for (const sim::Body& b : scene.world.bodies())
        if (b.is_static && b.geometry != nullptr) {
          const Aabb box = b.geometry->world_aabb(b.pose);
          x0 = std::min(x0, box.min.x());
          x1 = std::max(x1, box.max.x());
        }
      if (x0 < x1) s.surface = top_surface(scene.world, x0, x1);
      log << "  " << s.name << ": " << s.runs.size() << " runs\n" << std::flush;
      out.push_back(std::move(s));
    } catch (const Error& e) {
      log << "skipped " << path << ": " << e.what() << "\n";
    }
  }
  return out;
}

void peg_markdown(const std::vector<PegScene>& scenes, std::ostream& out) {
  out << "| scene | formulation | dt, s | steps | max energy gain, J | lowest y, m | ms/step |\n"
         "|---|---|---:|---:|---:|---:|---:|\n";
  char line[256];
  for (const PegScene& s : scenes)
    for (const PegRun& r : s.runs) {
      std::snprintf(line, sizeof line, "| %s | %s | %g | %d | %.3g | %.4g | %.4f |\n", s.name.c_str(),
                    r.formulation.c_str(), r.dt, r.steps, r.max_gain, r.lowest, r.ms_per_step);
      out << line;
    }
}

std::string peg_html(const std::vector<PegScene>& scenes, const std::string& command, const std::string& date) {
  std::ostringstream o;
  o << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Proxima: Polyhedral Exact Geometry"
       "</title>\n<style>body{font-family:sans-serif;margin:1.5em;max-width:1500px}"
       "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:3px 6px;font-size:13px}"
       "section{display:flex;flex-wrap:wrap;gap:8px;margin:1em 0;border-top:1px solid #ddd;padding-top:.5em}"
       "h2{font-size:17px;width:100%;margin:.2em 0}</style></head><body>\n";
  o << "<h1>Polyhedral Exact Geometry beside Stewart–Trinkle</h1>\n<p>" << html_escape(date) << " — <code>"
    << html_escape(command)
    << "</code>. The particle of <code>examples/peg_sawtooth.json</code> and <code>examples/peg_hills.json</code> "
       "with each formulation (Lemke), as the paper's figures show them: PEG follows the true surface; "
       "Stewart–Trinkle, which imposes every facet's extended half-space, gains energy, is trapped above the "
       "surface or falls through it.</p>\n<table><tr><th>scene</th><th>formulation</th><th>dt, s</th><th>steps</th>"
       "<th>max energy gain, J</th><th>lowest y, m</th><th>ms/step</th></tr>\n";
  char cell[64];
  for (const PegScene& s : scenes)
    for (const PegRun& r : s.runs) {
      o << "<tr><td>" << html_escape(s.name) << "</td><td>" << r.formulation << "</td><td>" << dt_text(r.dt)
        << "</td><td>" << r.steps << "</td>";
      std::snprintf(cell, sizeof cell, "<td>%.3g</td><td>%.4g</td><td>%.4f</td></tr>\n", r.max_gain, r.lowest,
                    r.ms_per_step);
      o << cell;
    }
  o << "</table>\n";
  for (const PegScene& s : scenes) {
    if (s.runs.size() < 2) continue;
    const double x0 = s.surface.x.empty() ? -kInf : s.surface.x.front();
    const double x1 = s.surface.x.empty() ? kInf : s.surface.x.back();
    double top = 0.0;
    for (double y : s.surface.y) top = std::max(top, y);
    // The frame of the trajectory plots: the obstacles' span, from a little
    // below the surface to the start height and some.
    const double y0 = -0.3, y1 = std::max(top, s.runs[0].trajectory.y.empty() ? 1.0 : s.runs[0].trajectory.y[0]) + 0.4;
    const PegRun& peg = s.runs[0];
    const PegRun& st = s.runs[1];
    PlotOptions wide;
    wide.width = 720;
    wide.height = 260;
    wide.x_label = "x, m";
    wide.y_label = "y, m";
    wide.title = "trajectories";
    o << "<section><h2>" << html_escape(s.name) << ", dt " << dt_text(peg.dt) << " s</h2>"
      << svg_plot({s.surface, inside(peg.trajectory, x0, x1, y0, y1, "peg"),
                   inside(st.trajectory, x0, x1, y0, y1, "stewart_trinkle")},
                  wide);
    PlotOptions small;
    small.width = 480;
    small.height = 220;
    small.title = "rows per step (contacts + aux)";
    small.y_label = "rows";
    o << svg_plot({named(peg.rows, "peg"), named(st.rows, "stewart_trinkle")}, small);
    small.title = "solve time per step";
    small.y_label = "ms";
    small.median = true;
    o << svg_plot({named(peg.solve_ms, "peg"), named(st.solve_ms, "stewart_trinkle")}, small);
    small.median = false;
    small.title = "energy change (in [−20, 150])";
    small.y_label = "J";
    o << svg_plot({clamped(peg.energy, -20, 150, "peg"), clamped(st.energy, -20, 150, "stewart_trinkle")}, small);
    // The sawtooth at every step size, one plot per formulation.
    if (s.runs.size() <= 2) {
      o << "</section>\n";
      continue;
    }
    for (const char* f : {"peg", "stewart_trinkle"}) {
      std::vector<const PegRun*> runs;
      for (const PegRun& r : s.runs)
        if (r.formulation == f) runs.push_back(&r);
      std::sort(runs.begin(), runs.end(), [](const PegRun* a, const PegRun* b) { return a->dt < b->dt; });
      std::vector<PlotSeries> series{s.surface};
      for (const PegRun* r : runs) series.push_back(inside(r->trajectory, x0, x1, y0, y1, "dt " + dt_text(r->dt)));
      wide.title = std::string(f) + " at each dt";
      o << svg_plot(series, wide);
    }
    o << "</section>\n";
  }
  o << "</body></html>\n";
  return o.str();
}

}  // namespace proxima::apps
