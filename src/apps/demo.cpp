// SPDX-License-Identifier: BSD-3-Clause
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <functional>
#include <fstream>
#include <iomanip>
#include <ostream>
#include <sstream>
#include <vector>

#include <nlohmann/json.hpp>

#include <proxima/core/aabb.hpp>
#include <proxima/core/error.hpp>

#include "data_dirs.hpp"
#include "demo.hpp"
#include "demo_mesh.hpp"
#include "demo_peg.hpp"
#include "demo_robot.hpp"
#include "demo_sim.hpp"
#include "json_mesh.hpp"
#include "progress.hpp"
#include "query_page.hpp"
#include "query_protocol.hpp"
#include "replay_page.hpp"

namespace proxima::apps {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct Example {
  const char* label;
  const char* request;
};

// Labelled configurations whose answers a reader can check by hand.
const Example kExamples[] = {
    {"unit spheres 3 m apart (expect 1)",
     R"({"query":"distance","a":{"shape":"sphere","radius":1},"b":{"shape":"sphere","radius":1},"pose_a":{"p":[3,0,0]}})"},
    {"2x2x2 boxes, faces 1 m apart (expect 1)",
     R"({"query":"distance","a":{"shape":"box","size":[2,2,2]},"b":{"shape":"box","size":[2,2,2]},"pose_a":{"p":[3,0,0]}})"},
    {"box rotated 45 deg about z, corner 1 m from face (expect 1)",
     R"({"query":"distance","a":{"shape":"box","size":[2,2,2]},"pose_a":{"p":[3.414213562373095,0,0],"q":[0.9238795325112867,0,0,0.3826834323650898]},"b":{"shape":"box","size":[2,2,2]}})"},
    {"capsules crossing at 90 deg, axes 1 m apart (expect 0.5)",
     R"({"query":"distance","a":{"shape":"capsule","radius":0.25,"length":2},"pose_a":{"p":[0,0,1],"q":[0.7071067811865476,0.7071067811865476,0,0]},"b":{"shape":"capsule","radius":0.25,"length":2},"pose_b":{"q":[0.7071067811865476,0,0.7071067811865476,0]}})"},
    {"sphere r 0.5 sunk 0.2 into a halfspace (expect -0.2)",
     R"({"query":"signed_distance","a":{"shape":"sphere","radius":0.5},"pose_a":{"p":[0,0,0.3]},"b":{"shape":"halfspace","normal":[0,0,1],"offset":0}})"},
    {"cylinder r 0.5 standing 0.25 m beside a box (expect 0.25)",
     R"({"query":"distance","a":{"shape":"cylinder","radius":0.5,"length":1},"pose_a":{"p":[1.75,0,0]},"b":{"shape":"box","size":[2,2,2]}})"},
    {"ellipsoid (0.5,0.3,0.2) 0.3 m above a sphere r 0.5 (expect 0.3)",
     R"({"query":"distance","a":{"shape":"ellipsoid","radii":[0.5,0.3,0.2]},"pose_a":{"p":[0,0,1.0]},"b":{"shape":"sphere","radius":0.5}})"},
    {"cone apex 0.1 m below a box face (expect 0.1)",
     R"({"query":"distance","a":{"shape":"cone","radius":0.3,"length":0.6},"pose_a":{"p":[0,0,-1.4]},"b":{"shape":"box","size":[2,2,2]}})"},
    {"boxes with 5 mm margins, 8 mm apart (expect collide)",
     R"({"query":"collide","a":{"shape":"box","size":[1,1,1],"margin":0.005},"pose_a":{"p":[1.008,0,0]},"b":{"shape":"box","size":[1,1,1],"margin":0.005}})"},
    {"tetrahedron vs box (convex hull of 4 points)",
     R"({"query":"distance","a":{"shape":"convex","points":[[0,0,0],[1,0,0],[0,1,0],[0,0,1]]},"pose_a":{"p":[1.5,0,0]},"b":{"shape":"box","size":[2,2,2]}})"},
    {"2x2x2 boxes overlapping 0.5 m along x (expect -0.5)",
     R"({"query":"signed_distance","a":{"shape":"box","size":[2,2,2]},"pose_a":{"p":[1.5,0.2,0]},"b":{"shape":"box","size":[2,2,2]}})"},
    {"bad input: negative radius",
     R"({"query":"distance","a":{"shape":"sphere","radius":-1},"b":{"shape":"sphere","radius":1}})"},
};

// Resting and touching configurations whose manifolds are known by hand.
const Example kManifolds[] = {
    {"unit box resting 1 cm deep on a 2x2 slab (expect its 4 bottom corners)",
     R"({"query":"contacts","a":{"shape":"box","size":[1,1,1]},"pose_a":{"p":[0,0,0.99]},"b":{"shape":"box","size":[2,2,1]}})"},
    {"unit box turned 45 deg on a unit box (expect the octagon, 8 points)",
     R"({"query":"contacts","a":{"shape":"box","size":[1,1,1]},"pose_a":{"p":[0,0,0.99],"q":[0.9238795325112867,0,0,0.3826834323650898]},"b":{"shape":"box","size":[1,1,1]}})"},
    {"box on its edge (expect the 2 edge ends)",
     R"({"query":"contacts","a":{"shape":"box","size":[1,1,1]},"pose_a":{"p":[0,0,1.197106781186548],"q":[0.9238795325112867,0.3826834323650898,0,0]},"b":{"shape":"box","size":[4,4,1]}})"},
    {"capsule lying across a unit box (expect 2 points clipped at x = +-0.5)",
     R"({"query":"contacts","a":{"shape":"capsule","radius":0.1,"length":3},"pose_a":{"p":[0,0,0.59],"q":[0.7071067811865476,0,0.7071067811865476,0]},"b":{"shape":"box","size":[1,1,1]}})"},
    {"cylinder standing on a box, 8 rim points (expect 8)",
     R"({"query":"contacts","a":{"shape":"cylinder","radius":0.3,"length":1},"pose_a":{"p":[0,0,0.99]},"b":{"shape":"box","size":[1,1,1]},"disc_points":8})"},
    {"sphere on a halfspace (expect 1)",
     R"({"query":"contacts","a":{"shape":"sphere","radius":0.5},"pose_a":{"p":[0,0,0.49]},"b":{"shape":"halfspace","normal":[0,0,1],"offset":0}})"},
    {"box 2 cm above a halfspace, contact margin 5 cm (expect 4 gaps of 0.02)",
     R"({"query":"contacts","a":{"shape":"box","size":[1,1,1]},"pose_a":{"p":[0,0,0.52]},"b":{"shape":"halfspace","normal":[0,0,1],"offset":0},"margin":0.05})"},
};

std::string fmt(const json& v) {
  if (v.is_number_float()) {
    std::ostringstream s;
    s << std::setprecision(12) << v.get<double>();
    return s.str();
  }
  return v.dump();
}

void example_table(std::ostream& out) {
  out << "| configuration | query | status | result |\n|---|---|---|---|\n";
  for (const Example& e : kExamples) {
    const json req = json::parse(e.request);
    const json a = answer(req);
    std::string result;
    if (a.contains("distance")) result = "distance " + fmt(a["distance"]);
    if (a.contains("collide")) result += (result.empty() ? "" : ", ") + std::string("collide ") + fmt(a["collide"]);
    if (a.contains("message")) result += a["message"].get<std::string>();
    out << "| " << e.label << " | " << req["query"].get<std::string>() << " | "
        << a["status"].get<std::string>() << " | " << result << " |\n";
  }
}

std::string fmt_point(const json& p) {
  std::ostringstream s;
  s << std::setprecision(6) << "(" << p[0].get<double>() << ", " << p[1].get<double>() << ", "
    << p[2].get<double>() << ")";
  return s.str();
}

void manifold_table(std::ostream& out) {
  out << "| configuration | normal (B to A) | points (depth) |\n|---|---|---|\n";
  for (const Example& e : kManifolds) {
    const json a = answer(json::parse(e.request));
    std::string pts;
    if (a["status"] != "ok") pts = a["status"].get<std::string>();
    for (const json& c : a.value("contacts", json::array())) {
      std::ostringstream d;
      d << std::setprecision(6) << c["depth"].get<double>();
      pts += (pts.empty() ? "" : "<br>") + fmt_point(c["point"]) + " (" + d.str() + ")";
    }
    out << "| " << e.label << " | " << (a.contains("normal") ? fmt_point(a["normal"]) : "") << " | "
        << pts << " |\n";
  }
}

}  // namespace

int write_query_gallery(const std::string& path) {
  ReplayPageFile page(path, "query gallery");
  QueryReplay gallery;
  MeshFiles files;
  const auto add = [&](const Example& e) {
    const json request = json::parse(e.request);
    gallery.add(request, answer(request, files), files, e.label);
  };
  for (const Example& e : kExamples) add(e);
  for (const Example& e : kManifolds) add(e);
  json data = gallery.data();
  data["title"] = "proxima demo: the report's example queries and contact manifolds";
  page.write(data);
  return gallery.frames();
}

int write_mug_contacts_page(const std::string& path, const std::string& mug_path) {
  const std::string mug = mug_path.empty() ? default_mug_path() : mug_path;
  std::error_code ec;
  if (!std::filesystem::exists(mug, ec)) return 0;
  ReplayPageFile page(path, "mug contacts page");
  QueryReplay gallery;
  MeshFiles files;
  const json mesh{{"shape", "mesh"}, {"file", mug}, {"scale", 0.01}, {"margin", 0.001}};
  Aabb box;
  for (const Vec3& v : files.load(mug, 0.01, 0.001)->mesh().vertices()) box.extend(v);
  const Vec3 c = 0.5 * (box.min + box.max);
  const double plate = 0.02, gap = 0.0005;
  for (const double z : {box.max.z() + gap + plate / 2, box.min.z() - gap - plate / 2}) {
    const json request{{"query", "contacts"},
                       {"a", mesh},
                       {"b", {{"shape", "box"}, {"size", {0.15, 0.1, plate}}}},
                       {"pose_b", {{"p", {c.x(), c.y(), z}}}}};
    gallery.add(request, answer(request, files), files,
                std::string("scanned mug, boundary-layer contacts with the plate ") + (z > c.z() ? "above" : "below"));
  }
  json data = gallery.data();
  data["title"] = "proxima demo: the scanned mug's boundary-layer contacts with the plates";
  page.write(data);
  return gallery.frames();
}

std::string find_bench_program(const std::string& name) {
  std::error_code ec;
  const fs::path dir = program_directory();
  if (dir.empty()) return {};
  for (const fs::path& p : {dir / name, dir / "../bench" / name}) {
    if (fs::exists(p, ec)) return fs::weakly_canonical(p, ec).string();
  }
  return {};
}

namespace {

// Runs a benchmark program found beside this one and appends its markdown
// to the report; false when it is missing or fails. `shown` redraws the
// progress line after the command's own line.
bool append_bench(const std::string& name, const std::string& args, std::ostream& report, std::ostream& out,
                  const std::function<void()>& shown) {
  const std::string bench = find_bench_program(name);
  if (bench.empty()) {
    report << "The benchmark program `" << name << "` was not found beside this executable.\n";
    return true;
  }
  const std::string cmd = "'" + bench + "' " + args;
  out << "running: " << cmd << "\n" << std::flush;
  shown();
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) {
    report << "Could not start `" << cmd << "`.\n";
    return false;
  }
  char buf[4096];
  while (std::fgets(buf, sizeof buf, p)) report << buf;
  const int status = pclose(p);
  if (status != 0) {
    report << "\n`" << cmd << "` exited with status " << status << ".\n";
    return false;
  }
  return true;
}

}  // namespace

int run_demo(const DemoOptions& options, std::ostream& out) {
  // Stages: queries, manifolds, mesh contacts, the robot, the scenes, and
  // the six benchmark runs.
  const int stages = 4 + (options.sim ? 2 : 0) + (options.bench ? 6 : 0);
  int stage = 0;
  Progress progress = Progress::on_terminal("proxima demo", stages, options.progress, 0.0);
  // The stage's line goes up first, so that what the stage prints is not
  // drawn over; a benchmark run redraws it after its own line.
  std::string current;
  auto next = [&](const char* what) {
    progress.clear();
    current = what;
    progress.update(stage++, current);
  };
  auto bench_shown = [&] { progress.update(stage - 1, current); };
  std::ostringstream report;
  report << "# Proxima demo report\n\n## Example queries\n\n";
  next("example queries");
  example_table(report);
  report << "\n## Contact manifolds\n\n";
  next("contact manifolds");
  manifold_table(report);
  // The example queries and manifolds above, drawn in 3-D.
  ReportLinks links;
  std::error_code ec;
  fs::create_directories(options.report_dir, ec);
  try {
    links.query_page = "queries.html";
    const int frames = write_query_gallery((fs::path(options.report_dir) / links.query_page).string());
    report << "\n3-D views of the example queries and manifolds above (" << frames
           << " requests): [" << links.query_page << "](" << links.query_page << ")\n";
  } catch (const Error& e) {
    out << "no query gallery: " << e.what() << "\n";
    links.query_page.clear();
  }
  try {
    links.mug_page = "mug_contacts.html";
    if (write_mug_contacts_page((fs::path(options.report_dir) / links.mug_page).string()) == 0) links.mug_page.clear();
  } catch (const Error& e) {
    out << "no mug contacts page: " << e.what() << "\n";
    links.mug_page.clear();
  }
  report << "\n## Mesh contacts (BLEM)\n\n";
  next("mesh contacts");
  mesh_contact_markdown(run_mesh_contact_demo(), report);
  report << "\n## Robot watchdog\n\n";
  const std::string robots = default_robots_dir();
  progress.clear();
  out << "running the Panda watchdog from " << robots << "\n" << std::flush;
  next("the Panda's watchdog");
  const RobotDemo robot = run_robot_demo(robots);
  int code = 0;
  // The watched jog's plots beside the report, linked from it.
  std::vector<std::string> plots;
  if (robot.error.empty()) {
    const std::vector<std::string> svg = robot_plots(robot);
    for (std::size_t i = 0; i < svg.size(); ++i) {
      const std::string name = i == 0 ? "watchdog_table_distance.svg" : "watchdog_speed_factor.svg";
      std::ofstream f(fs::path(options.report_dir) / name);
      f << svg[i];
      if (f) plots.push_back(name);
    }
  }
  // The watched jog's replay page beside the report (no page without libjs-three: said, not fatal).
  std::string& watch_page = links.watch_page;
  if (!robot.watch_page.is_null()) {
    const std::string name = "watchdog_replay.html";
    try {
      ReplayPageFile page((fs::path(options.report_dir) / name).string(), "watchdog replay page");
      page.write(robot.watch_page);
      watch_page = name;
    } catch (const Error& e) {
      progress.clear();
      out << e.what() << "\n";
    }
  }
  robot_markdown(robot, report, plots, watch_page);
  if (options.sim) {
    // Short runs of the example scenes: a table here, plots in index.html.
    const std::string examples = options.examples_dir.empty() ? default_examples_dir() : options.examples_dir;
    next("example scenes");
    // Each scene prints its line as it ends: that is the progress here.
    progress.clear();
    out << "running the example scenes from " << examples << "\n" << std::flush;
    const std::vector<SceneReport> scenes = run_demo_scenes(examples, options.sim_time_scale, out, options.report_dir);
    char date[64];
    const std::time_t now = std::time(nullptr);
    std::strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", std::gmtime(&now));
    std::ostringstream command;
    command << "proxima demo --report " << options.report_dir << " --sim-scale " << options.sim_time_scale;
    report << "\n## Simulator scenes (" << date << ", plots in index.html)\n\n";
    sim_markdown(scenes, report);
    // The Polyhedral Exact Geometry benchmarks, PEG beside Stewart–Trinkle,
    // on a page of their own (the paper's figures).
    next("PEG beside Stewart–Trinkle");
    progress.clear();
    const std::vector<PegScene> peg = run_demo_peg(examples, 1.0, out);
    std::string& peg_page = links.peg_page;
    peg_page = "peg.html";
    {
      std::ofstream p(fs::path(options.report_dir) / peg_page);
      if (p) p << peg_html(peg, command.str(), date);
      if (!p) {
        out << "could not write " << (fs::path(options.report_dir) / peg_page).string() << "\n";
        peg_page.clear();
        code = 1;
      }
    }
    if (peg.size() != 2) code = 1;
    report << "\n## Polyhedral Exact Geometry beside Stewart–Trinkle (plots in " << peg_page << ")\n\n";
    peg_markdown(peg, report);
    const fs::path html = fs::path(options.report_dir) / "index.html";
    std::ofstream h(html);
    if (h) h << sim_html(scenes, command.str(), date, links);
    progress.clear();
    if (!h) {
      out << "could not write " << html.string() << "\n";
      code = 1;
    } else {
      out << "scene plots written to " << html.string() << "\n";
    }
    if (scenes.size() != demo_scenes().size()) code = 1;
  }
  if (options.bench) {
    report << "\n## Convex distance benchmark\n\n";
    next("convex distance benchmark");
    const std::string poses = "--poses " + std::to_string(options.bench_poses) + " --markdown";
    if (!append_bench("proxima-bench", poses, report, out, bench_shown)) code = 1;
    // Mesh contacts beside FCL and Bullet GImpact on the same poses.
    report << "\n## Mesh contacts benchmark\n\n";
    next("mesh contacts benchmark");
    if (!append_bench("proxima-blem-bench", "--poses 40 --repeats 3 --markdown", report, out, bench_shown)) code = 1;
    // The 10-cube mesh stack beside ODE's trimesh collider.
    report << "\n## Mesh cube stack beside ODE\n\n";
    next("mesh stack beside ODE");
    if (!append_bench("proxima-stack-bench", "--time 5 --markdown", report, out, bench_shown)) code = 1;
    // The scene checker beside FCL on MotionBenchMaker scenes, the Panda
    // and the UR5, a quick setting (the bench's default is 2,000
    // configurations per scene).
    report << "\n## Robot scene checker benchmark: Panda\n\n";
    next("robot benchmark: Panda");
    const char* panda = "--robot panda --configs 300 --markdown";
    if (!append_bench("proxima-robot-bench", panda, report, out, bench_shown)) code = 1;
    report << "\n## Robot scene checker benchmark: UR5\n\n";
    next("robot benchmark: UR5");
    const char* ur5 = "--robot ur5 --configs 300 --markdown";
    if (!append_bench("proxima-robot-bench", ur5, report, out, bench_shown)) code = 1;
    // time_of_impact beside FCL's continuousCollide and Bullet's convex
    // casts on the same motions (the bench's default is 1,000 per workload).
    report << "\n## Time of impact benchmark\n\n";
    next("time of impact benchmark");
    if (!append_bench("proxima-toi-bench", "--poses 200 --markdown", report, out, bench_shown)) code = 1;
  }

  progress.finish();
  out << report.str();
  const fs::path file = fs::path(options.report_dir) / "report.md";
  std::ofstream f(file);
  if (!f) {
    out << "\ncould not write " << file << "\n";
    return 1;
  }
  f << report.str();
  out << "\nreport written to " << file.string() << "\n";
  return code;
}

}  // namespace proxima::apps
