// SPDX-License-Identifier: BSD-3-Clause
// proxima-stack-bench: the mesh cube stack (BLEM paper §4.4) in
// Proxima's simulator and in ODE with its trimesh collider, same geometry,
// same Δt, same failure test, same run.
//
//   10 cubes of 12 triangles (0.1 m, 1 kg), dropped with 1 cm gaps onto a
//   static 12-triangle box; Δt 1 ms; μ 0.5.
//   Proxima: examples/mesh_cube_stack.json (r = 2.5 mm layers, PGS), and
//   for contrast examples/mesh_cube_stack_r0.json (r = 0: BLEM §4.4's
//   intersection-only contacts).
//   ODE: dWorldStep (its exact LCP) and dWorldQuickStep (SOR, 20
//   iterations), contacts from dCollide between the trimeshes (up to 32 per
//   pair, dContactApprox1 friction), world ERP 0.2 and CFM 1e-5 (ODE's
//   defaults): the set-up an ODE user would start from.
//
// Failure: a non-finite pose, a cube's centre leaving its column by more
// than half a cube (5 cm) or the top cube 5 cm below its resting height
// (a cube fell or the stack sank), or any cube faster than 10 m/s after the
// first second (a blow-up). Drift: how far the top cube moves from t = 2 s
// to the end.
//
// Usage: proxima-stack-bench [--time T] [--scene examples/mesh_cube_stack.json] [--markdown] [--quiet]
// Exit status 1 when the layered Proxima stack (the first row) fails.
#include <ode/ode.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <proxima/core/error.hpp>

#include "../src/apps/data_dirs.hpp"
#include "../src/apps/progress.hpp"
#include "../src/apps/scene.hpp"
#include "arguments.hpp"

namespace {

using proxima::Vec3;

constexpr double kSize = 0.1, kGap = 0.01, kDt = 0.001, kMu = 0.5;
constexpr int kCubes = 10;

// The stack's state as each engine sees it, one entry per cube (bottom up).
struct StackState {
  std::vector<Vec3> position, velocity;
};

struct Outcome {
  std::string engine;
  double simulated = 0.0;             // s actually run (stops at failure)
  std::optional<double> failed_at;    // s
  std::string failure;
  double drift = std::numeric_limits<double>::quiet_NaN();  // top cube, 2 s → end, m
  double ms_per_step = 0.0;           // wall
};

// Watches a run: the first failure, the top cube at 2 s.
class Monitor {
 public:
  Monitor(const StackState& start, double top_rest_z) : start_(start), top_rest_z_(top_rest_z) {}

  // False once the stack has failed.
  bool observe(double t, const StackState& s) {
    const Vec3& top = s.position.back();
    for (std::size_t i = 0; i < s.position.size(); ++i) {
      const Vec3& p = s.position[i];
      const Vec3& v = s.velocity[i];
      if (!p.allFinite() || !v.allFinite()) return fail(t, "non-finite pose or velocity (cube " + std::to_string(i) + ")");
      if ((p - start_.position[i]).head<2>().norm() > 0.5 * kSize)
        return fail(t, "cube " + std::to_string(i) + " left its column (fell)");
      if (t > 1.0 && v.norm() > 10.0) return fail(t, "cube " + std::to_string(i) + " at " + fmt(v.norm()) + " m/s (blew up)");
    }
    if (top.z() < top_rest_z_ - 0.5 * kSize) return fail(t, "top cube 5 cm below its resting height (sank or fell)");
    if (!at_two_ && t >= 2.0) {
      at_two_ = true;
      top_at_two_ = top;
    }
    last_top_ = top;
    return true;
  }

  void finish(Outcome& o) const {
    o.failed_at = failed_at_;
    o.failure = failure_;
    if (!failed_at_ && at_two_) o.drift = (last_top_ - top_at_two_).norm();
  }

  static std::string fmt(double x) {
    char b[32];
    std::snprintf(b, sizeof b, "%.3g", x);
    return b;
  }

 private:
  bool fail(double t, const std::string& why) {
    failed_at_ = t;
    failure_ = why;
    return false;
  }
  StackState start_;
  double top_rest_z_;
  std::optional<double> failed_at_;
  std::string failure_;
  bool at_two_ = false;
  Vec3 top_at_two_ = Vec3::Zero(), last_top_ = Vec3::Zero();
};

// A run's wall time, measured in stretches of kStretch steps: the progress
// line (simulated seconds of all four runs) is redrawn between two
// stretches, so its drawing stays out of ms/step.
class StepClock {
 public:
  static constexpr int kStretch = 100;
  // `offset`: the simulated seconds of the runs before this one.
  StepClock(proxima::apps::Progress& line, double offset, std::string note)
      : line_(line), offset_(offset), note_(std::move(note)), start_(Clock::now()) {}
  void start() { start_ = Clock::now(); }
  // After step k, at simulated time t.
  void after(int k, double t) {
    if (k % kStretch != 0) return;
    spent_ += Clock::now() - start_;
    line_.update(offset_ + t, note_);
    start_ = Clock::now();
  }
  // Milliseconds per step over `steps` steps, the stretches only.
  double ms_per_step(int steps) {
    spent_ += Clock::now() - start_;
    start_ = Clock::now();
    return std::chrono::duration<double, std::milli>(spent_).count() / std::max(steps, 1);
  }

 private:
  using Clock = std::chrono::steady_clock;
  proxima::apps::Progress& line_;
  double offset_;
  std::string note_;
  Clock::time_point start_;
  Clock::duration spent_{};
};

// ------------------------------------------------------------------ Proxima

// `margin`: the cubes' layer r (the ground has none), for the resting height.
Outcome run_proxima(const std::string& scene_path, double margin, const std::string& label, double duration,
                    StepClock&& clock) {
  Outcome o;
  o.engine = label;
  proxima::apps::Scene scene = proxima::apps::load_scene(scene_path);
  std::vector<std::size_t> cubes;
  for (std::size_t i = 0; i < scene.world.bodies().size(); ++i)
    if (!scene.world.bodies()[i].is_static) cubes.push_back(i);
  auto state = [&] {
    StackState s;
    for (std::size_t i : cubes) {
      s.position.push_back(scene.world.bodies()[i].com_position());
      s.velocity.push_back(scene.world.bodies()[i].linear_velocity);
    }
    return s;
  };
  // At rest every cube floats on its layers: r over the ground, 2 r between
  // cubes.
  const double top_rest = 0.5 * kSize + margin + static_cast<double>(cubes.size() - 1) * (kSize + 2 * margin);
  Monitor m(state(), top_rest);
  const int steps = static_cast<int>(std::llround(duration / scene.world.options.dt));
  int done = 0;
  clock.start();  // after the scene's loading, as the steps begin
  for (int k = 1; k <= steps; ++k) {
    scene.world.step();
    done = k;
    if (!m.observe(k * scene.world.options.dt, state())) break;
    clock.after(k, k * scene.world.options.dt);
  }
  o.ms_per_step = clock.ms_per_step(done);
  o.simulated = done * scene.world.options.dt;
  m.finish(o);
  return o;
}

// ---------------------------------------------------------------------- ODE

// A 12-triangle box mesh centred at the origin, outward faces.
struct BoxMesh {
  std::vector<double> vertices;
  std::vector<dTriIndex> indices;
  explicit BoxMesh(const Vec3& size) {
    for (int i = 0; i < 8; ++i) {
      vertices.push_back((i & 1 ? 0.5 : -0.5) * size.x());
      vertices.push_back((i & 2 ? 0.5 : -0.5) * size.y());
      vertices.push_back((i & 4 ? 0.5 : -0.5) * size.z());
    }
    const int t[12][3] = {{0, 2, 1}, {1, 2, 3}, {4, 5, 6}, {5, 7, 6}, {0, 1, 4}, {1, 5, 4},
                          {2, 6, 3}, {3, 6, 7}, {0, 4, 2}, {2, 4, 6}, {1, 3, 5}, {3, 7, 5}};
    for (const auto& tri : t)
      for (int k = 0; k < 3; ++k) indices.push_back(static_cast<dTriIndex>(tri[k]));
  }
};

struct OdeContext {
  dWorldID world;
  dJointGroupID contacts;
};

void near_callback(void* data, dGeomID a, dGeomID b) {
  auto* ctx = static_cast<OdeContext*>(data);
  dBodyID ba = dGeomGetBody(a), bb = dGeomGetBody(b);
  if (!ba && !bb) return;
  constexpr int kMax = 32;
  dContact c[kMax];
  std::memset(c, 0, sizeof c);
  const int n = dCollide(a, b, kMax, &c[0].geom, sizeof(dContact));
  for (int i = 0; i < n; ++i) {
    c[i].surface.mode = dContactApprox1;
    c[i].surface.mu = kMu;
    dJointID j = dJointCreateContact(ctx->world, ctx->contacts, &c[i]);
    dJointAttach(j, ba, bb);
  }
}

Outcome run_ode(bool quick, double duration, StepClock&& clock) {
  Outcome o;
  o.engine = std::string("ODE ") + (quick ? "dWorldQuickStep (20 iterations)" : "dWorldStep") + ", trimesh";
  OdeContext ctx{dWorldCreate(), dJointGroupCreate(0)};
  dWorldSetGravity(ctx.world, 0, 0, -9.81);
  dWorldSetQuickStepNumIterations(ctx.world, 20);
  dSpaceID space = dSimpleSpaceCreate(nullptr);
  const BoxMesh cube(Vec3::Constant(kSize)), ground(Vec3(1.0, 1.0, 0.1));
  auto mesh_data = [](const BoxMesh& m) {
    dTriMeshDataID d = dGeomTriMeshDataCreate();
    dGeomTriMeshDataBuildDouble(d, m.vertices.data(), 3 * sizeof(double), static_cast<int>(m.vertices.size() / 3),
                                m.indices.data(), static_cast<int>(m.indices.size()), 3 * sizeof(dTriIndex));
    return d;
  };
  dTriMeshDataID cube_data = mesh_data(cube), ground_data = mesh_data(ground);
  dGeomID ground_geom = dCreateTriMesh(space, ground_data, nullptr, nullptr, nullptr);
  dGeomSetPosition(ground_geom, 0, 0, -0.05);  // top face at z = 0
  std::vector<dBodyID> bodies;
  for (int i = 0; i < kCubes; ++i) {
    dBodyID b = dBodyCreate(ctx.world);
    dMass m;
    dMassSetBoxTotal(&m, 1.0, kSize, kSize, kSize);
    dBodySetMass(b, &m);
    dGeomID g = dCreateTriMesh(space, cube_data, nullptr, nullptr, nullptr);
    dGeomSetBody(g, b);
    dBodySetPosition(b, 0, 0, kGap + 0.5 * kSize + i * (kSize + kGap));
    bodies.push_back(b);
  }
  auto state = [&] {
    StackState s;
    for (dBodyID b : bodies) {
      const dReal* p = dBodyGetPosition(b);
      const dReal* v = dBodyGetLinearVel(b);
      s.position.emplace_back(p[0], p[1], p[2]);
      s.velocity.emplace_back(v[0], v[1], v[2]);
    }
    return s;
  };
  Monitor m(state(), 0.5 * kSize + (kCubes - 1) * kSize);
  const int steps = static_cast<int>(std::llround(duration / kDt));
  int done = 0;
  clock.start();  // after the set-up, as the steps begin
  for (int k = 1; k <= steps; ++k) {
    dSpaceCollide(space, &ctx, &near_callback);
    if (quick) {
      dWorldQuickStep(ctx.world, kDt);
    } else {
      dWorldStep(ctx.world, kDt);
    }
    dJointGroupEmpty(ctx.contacts);
    done = k;
    if (!m.observe(k * kDt, state())) break;
    clock.after(k, k * kDt);
  }
  o.ms_per_step = clock.ms_per_step(done);
  o.simulated = done * kDt;
  m.finish(o);
  dJointGroupDestroy(ctx.contacts);
  dSpaceDestroy(space);
  dGeomTriMeshDataDestroy(cube_data);
  dGeomTriMeshDataDestroy(ground_data);
  dWorldDestroy(ctx.world);
  return o;
}

void print(const std::vector<Outcome>& rows, double duration, bool markdown) {
  const char* head[] = {"engine", "simulated s", "outcome", "top-cube drift 2 s → end", "ms/step (wall)"};
  auto outcome = [](const Outcome& o) {
    return o.failed_at ? "fails at " + Monitor::fmt(*o.failed_at) + " s: " + o.failure : std::string("holds");
  };
  auto drift = [](const Outcome& o) {
    return std::isnan(o.drift) ? std::string("–") : Monitor::fmt(o.drift * 1e3) + " mm";
  };
  if (markdown) {
    std::printf("| %s | %s | %s | %s | %s |\n|---|---:|---|---:|---:|\n", head[0], head[1], head[2], head[3], head[4]);
    for (const Outcome& o : rows)
      std::printf("| %s | %.3f | %s | %s | %.3f |\n", o.engine.c_str(), o.simulated, outcome(o).c_str(),
                  drift(o).c_str(), o.ms_per_step);
  } else {
    for (const Outcome& o : rows)
      std::printf("  %-42s %8.3f s  %-60s drift %-12s %.3f ms/step\n", o.engine.c_str(), o.simulated,
                  outcome(o).c_str(), drift(o).c_str(), o.ms_per_step);
  }
  std::printf("\n10 cubes of 12 triangles (0.1 m, 1 kg) dropped with 1 cm gaps, dt 1 ms, mu 0.5, %g s asked. "
              "ODE build configuration: %s.\n",
              duration, dGetConfiguration());
}

constexpr const char* kUsage =
    "usage: proxima-stack-bench [--time T] [--scene FILE] [--markdown] [--quiet]\n"
    "  --time T      simulated seconds of each run, 0.001 to 86400 (default 10)\n"
    "  --scene FILE  the layered Proxima stack (default: examples/mesh_cube_stack.json)\n"
    "  --quiet       no progress line on stderr (drawn only when stderr is a terminal)\n";

}  // namespace

int main(int argc, char** argv) {
  double duration = 10.0;
  bool markdown = false, show_progress = true;
  const std::string examples = proxima::apps::examples_dir();
  std::string scene = examples + "/mesh_cube_stack.json";
  try {
    proxima::bench::Arguments args(argc, argv);
    while (args.next()) {
      // At least one 1 ms step, at most a simulated day (the step count is an int).
      if (args.is("--time")) duration = args.number(1e-3, 86400.0);
      else if (args.is("--scene")) {
        scene = args.text();
        if (scene.empty()) throw proxima::bench::BadArgument("--scene needs a file name");
      } else if (args.is("--markdown")) {
        markdown = true;
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
    return proxima::bench::refuse("proxima-stack-bench", e, kUsage);
  }
  dInitODE2(0);
  std::vector<Outcome> rows;
  // Over the four runs' simulated time (a run that fails ends early: the line jumps).
  proxima::apps::Progress progress =
      proxima::apps::Progress::on_terminal("proxima-stack-bench", 4 * duration, show_progress);
  try {
    rows.push_back(run_proxima(scene, 0.0025, "Proxima (BLEM r = 2.5 mm, PGS)", duration,
                               StepClock(progress, 0.0, "Proxima, r = 2.5 mm")));
    // The paper's contrast: no layers, contacts only where triangles cross.
    rows.push_back(run_proxima(examples + "/mesh_cube_stack_r0.json", 0.0, "Proxima, r = 0 (no layers)", duration,
                               StepClock(progress, duration, "Proxima, r = 0")));
  } catch (const proxima::Error& e) {
    progress.finish();
    std::fprintf(stderr, "proxima-stack-bench: %s\n", e.what());
    return 1;
  }
  rows.push_back(run_ode(false, duration, StepClock(progress, 2 * duration, "ODE dWorldStep")));
  rows.push_back(run_ode(true, duration, StepClock(progress, 3 * duration, "ODE dWorldQuickStep")));
  progress.finish();
  print(rows, duration, markdown);
  dCloseODE();
  return rows.front().failed_at ? 1 : 0;
}
