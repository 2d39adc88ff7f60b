// SPDX-License-Identifier: BSD-3-Clause
// proxima-batch-bench: check_configurations with and without its sphere
// prefilter, on a shipped robot (or a folder holding one URDF and its SRDF)
// in one of its MotionBenchMaker scenes — a motion planner's validity checks
// in bulk. Two batches: joint vectors uniform within the limits, and the
// free ones among them alone (what a planner's checks mostly are once it
// samples around a solution). Each batch is checked both ways, the answers
// compared row by row (a difference is an error, exit status 1), and timed
// best of --repeats; the table gives rows per second, the share of rows
// the prefilter proved free without the exact check, and what the
// prefilter's lane groups cost alone (one pass, scene made beforehand).
// A third run answers validity only (check_validity: a pair proven within
// ends its row, and only the labels are kept, what a planner needs); its
// rows must agree with the exact check on whether they are within.
// Where FCL is found (bench/fcl_robot.hpp) and the tolerance is 0, a
// second table sets the validity rate beside FCL's on the same rows: our
// forward kinematics, the FCL objects placed, then collision self pair by
// self pair and link object by link object against the scene's manager,
// stopping at the first hit, as MoveIt's FCL plugin answers validity.
//
// Usage: proxima-batch-bench [--robot DIR|panda|ur5] [--scene NAME] [--configs N]
//                            [--tolerance T] [--threads K] [--repeats R] [--seed S] [--markdown]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <proxima/robot/batch_check.hpp>
#include <proxima/robot/collision_matrix.hpp>
#include <proxima/robot/planning_scene.hpp>
#include <proxima/robot/prepared_environment.hpp>
#include <proxima/robot/scene_checker.hpp>
#include <proxima/robot/sphere_prefilter.hpp>
#include <proxima/robot/urdf.hpp>

#include "arguments.hpp"
#include "robot_folder.hpp"
#include "data_dirs.hpp"
#include "report.hpp"
#if PROXIMA_BATCH_FCL
#include <proxima/robot/kinematics.hpp>

#include "fcl_robot.hpp"
#endif

namespace fs = std::filesystem;
using namespace proxima;
using namespace proxima::robot;

namespace {

const char* const kUsage =
    "usage: proxima-batch-bench [--robot DIR|panda|ur5] [--scene NAME] [--configs N] [--tolerance T]\n"
    "                           [--threads K] [--repeats R] [--seed S] [--markdown]\n"
    "  --robot      a shipped robot or a folder with one URDF, its SRDF and scenes/ (default panda)\n"
    "  --scene      a scene of the robot's scenes/ folder, without .yaml (default table_pick_scene0001)\n"
    "  --configs    random joint vectors, 1 to 10000000 (default 100000)\n"
    "  --tolerance  the check's tolerance in m, 0 to 1 (default 0)\n"
    "  --threads    1 to 256 (default 1)\n"
    "  --repeats    timed runs per row, the best kept, 1 to 1000 (default 5)\n"
    "  --seed       of the joint vectors (default 1)\n";

struct Options {
  fs::path robot = "panda";
  std::string scene = "table_pick_scene0001";
  long long configs = 100000;
  double tolerance = 0.0;
  int threads = 1;
  int repeats = 5;
  unsigned seed = 1;
  bool markdown = false;
};

Options parse_args(int argc, char** argv) {
  Options o;
  try {
    bench::Arguments args(argc, argv);
    while (args.next()) {
      if (args.is("--robot")) o.robot = args.text();
      else if (args.is("--scene")) o.scene = args.text();
      else if (args.is("--configs")) o.configs = args.integer(1, 10000000);
      else if (args.is("--tolerance")) o.tolerance = args.number(0.0, 1.0);
      else if (args.is("--threads")) o.threads = static_cast<int>(args.integer(1, 256));
      else if (args.is("--repeats")) o.repeats = static_cast<int>(args.integer(1, 1000));
      else if (args.is("--seed")) o.seed = static_cast<unsigned>(args.integer(0, 4294967295LL));
      else if (args.is("--markdown")) o.markdown = true;
      else if (args.is("--help") || args.is("-h")) {
        std::cout << kUsage;
        std::exit(0);
      } else {
        args.unknown();
      }
    }
  } catch (const bench::BadArgument& e) {
    std::exit(bench::refuse("proxima-batch-bench", e, kUsage));
  }
  if (!fs::is_directory(o.robot)) o.robot = fs::path(apps::robots_dir()) / o.robot;
  return o;
}


std::string fixed(double x, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, x);
  return buf;
}

bool same(const ToleranceReport& a, const ToleranceReport& b) {
  return a.status == b.status && a.message == b.message && a.within == b.within && a.self == b.self &&
         a.pair.link == b.pair.link && a.pair.other == b.pair.other && a.pair.link_name == b.pair.link_name &&
         a.pair.other_name == b.pair.other_name;
}

// A batch's validity-only run: its rows, best time and labels.
struct ValidityRun {
  std::string label;
  const std::vector<double>* qs;
  double seconds;
  std::vector<unsigned char> within;
};

#if PROXIMA_BATCH_FCL
// Validity per configuration beside FCL on the same rows, FCL on one
// thread, best of --repeats; at tolerance 0 both answer "does any checked
// pair touch or overlap", so the labels are compared row by row (FCL's
// libccd GJK stops at its own tolerance: a difference is reported, not an
// error, and the exact check's row is the one the tests stand behind).
void print_beside_fcl(const SceneChecker& checker, const Environment& scene, const std::vector<ValidityRun>& runs,
                      const Options& opt) {
  const RobotModel& model = checker.model();
  const std::size_t dof = model.variable_count();
  // A robot or scene holding what FCL is not handed here (a capsule, a
  // mesh kept raw, a halfspace) is not compared; the table above stands.
  std::unique_ptr<bench::FclRobot> robot_ptr;
  std::unique_ptr<bench::FclScene> scene_ptr;
  try {
    robot_ptr = std::make_unique<bench::FclRobot>(checker);
    scene_ptr = std::make_unique<bench::FclScene>(scene);
  } catch (const std::exception& e) {
    std::cout << "\nValidity beside FCL: not compared (" << e.what() << ")\n";
    return;
  }
  bench::FclRobot& robot = *robot_ptr;
  bench::FclScene& fscene = *scene_ptr;
  const bench::FclQueries fq(robot, fscene, fcl::GJKSolverType::GST_LIBCCD);
  std::vector<Transform> poses;
  std::vector<std::vector<std::string>> table = {{"batch", "rows", "Proxima, rows/s", "FCL, rows/s", "Proxima, us/row",
                                                  "FCL, us/row", "FCL / Proxima", "labels as FCL's"}};
  for (const ValidityRun& run : runs) {
    const std::size_t rows = run.qs->size() / dof;
    std::vector<unsigned char> valid(rows, 0);
    double best = 1e300;
    for (int rep = 0; rep < opt.repeats; ++rep) {
      const auto t0 = std::chrono::steady_clock::now();
      for (std::size_t r = 0; r < rows; ++r) {
        forward_kinematics(model, std::span<const double>(*run.qs).subspan(r * dof, dof), Transform::identity(), poses);
        robot.update(poses);
        valid[r] = fq.valid() ? 1 : 0;
      }
      best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    std::size_t agree = 0;
    for (std::size_t r = 0; r < rows; ++r) agree += (valid[r] != 0) == (run.within[r] == 0);
    const double n = static_cast<double>(rows);
    table.push_back({run.label, std::to_string(rows), fixed(n / run.seconds, 0), fixed(n / best, 0),
                     fixed(1e6 * run.seconds / n, 3), fixed(1e6 * best / n, 3), fixed(best / run.seconds, 1) + "x",
                     std::to_string(agree) + " of " + std::to_string(rows)});
  }
  std::cout << "\nValidity beside FCL " << FCL_VERSION << " (GJK of libccd; our forward kinematics, objects placed, "
            << "first hit; one thread; Proxima: check_validity on " << opt.threads << " thread(s))\n\n";
  bench::print_table(table, opt.markdown, std::cout, {false, true, true, true, true, true, true, false});
}
#endif

int run(const Options& opt) {
  const RobotModel model = load_urdf(bench::only_file(opt.robot, ".urdf"));
  AllowedCollisionMatrix acm = AllowedCollisionMatrix::adjacent(model);
  apply_srdf(model, bench::only_file(opt.robot, ".srdf"), acm);
  GeometryOptions gopt;
  gopt.mesh_mode = MeshMode::convex_hull;
  const SceneChecker checker(RobotGeometry(model, gopt), acm);
  const Environment scene_objects = read_planning_scene(opt.robot / "scenes" / (opt.scene + ".yaml")).environment;
  const PreparedEnvironment env(scene_objects);
  const std::size_t dof = model.variable_count();

  std::mt19937_64 rng(opt.seed);
  std::vector<double> random;
  for (long long r = 0; r < opt.configs; ++r)
    for (std::size_t j = 0; j < dof; ++j) {
      const Joint& jt = model.joint(model.variable_joint(j));
      random.push_back(std::uniform_real_distribution<double>(jt.lower, jt.upper)(rng));
    }
  const auto t_fit = std::chrono::steady_clock::now();
  const SpherePrefilter& filter = checker.sphere_prefilter();
  const double fit_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t_fit).count();
  // The self pairs' tables, which the first scene measures (all threads).
  const auto t_tables = std::chrono::steady_clock::now();
  filter.scene(checker, env, Transform::identity(), opt.tolerance);
  const double tables_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t_tables).count();
  std::size_t spheres = 0;
  for (std::size_t l = 0; l < model.links().size(); ++l) spheres += filter.link_spheres(l).size();

  // The free rows of the random batch, by the exact check.
  const std::vector<ToleranceReport> labels =
      check_configurations(checker, env, random, opt.tolerance, Transform::identity(), 1, false);
  std::vector<double> free_rows;
  for (std::size_t r = 0; r < labels.size(); ++r)
    if (labels[r].status == Status::ok && !labels[r].within)
      free_rows.insert(free_rows.end(), random.begin() + static_cast<std::ptrdiff_t>(r * dof),
                       random.begin() + static_cast<std::ptrdiff_t>((r + 1) * dof));

  std::vector<std::vector<std::string>> table = {
      {"batch", "rows", "proven free", "exact, rows/s", "prefilter, rows/s", "exact, us/row", "prefilter, us/row",
       "speed-up", "validity only, us/row", "its speed-up", "spheres alone, us/row"}};
  std::vector<ValidityRun> validity_runs;
  int differ = 0;
  for (const auto& [label, qs] : {std::pair<std::string, const std::vector<double>*>{"uniform within limits", &random},
                                  std::pair<std::string, const std::vector<double>*>{"free rows only", &free_rows}}) {
    const std::size_t rows = qs->size() / dof;
    if (rows == 0) continue;
    // The share the prefilter proves, asked lane group by lane group.
    const auto scene = filter.scene(checker, env, Transform::identity(), opt.tolerance);
    const auto scratch = filter.scratch();
    std::size_t proven = 0;
    const auto t_lanes = std::chrono::steady_clock::now();
    for (std::size_t r = 0; r < rows; r += kPrefilterLanes) {
      const std::size_t n = std::min(kPrefilterLanes, rows - r);
      bool p[kPrefilterLanes];
      filter.prove_free(std::span<const double>(*qs).subspan(r * dof, n * dof), n, Transform::identity(),
                        opt.tolerance, *scene, *scratch, p);
      for (std::size_t k = 0; k < n; ++k) proven += p[k];
    }
    const double lanes = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_lanes).count();
    // 0: exact; 1: prefilter; 2: prefilter, validity only.
    double best[3] = {1e300, 1e300, 1e300};
    std::vector<ToleranceReport> answers[2];
    BatchValidity validity;
    for (int rep = 0; rep < opt.repeats; ++rep)
      for (int with = 0; with < 3; ++with) {
        const auto t0 = std::chrono::steady_clock::now();
        if (with < 2)
          answers[with] =
              check_configurations(checker, env, *qs, opt.tolerance, Transform::identity(), opt.threads, with > 0);
        else
          validity = check_validity(checker, env, *qs, opt.tolerance, Transform::identity(), opt.threads, true);
        best[with] = std::min(best[with], std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
      }
    for (std::size_t r = 0; r < rows; ++r)
      differ += !same(answers[0][r], answers[1][r]) || answers[0][r].within != (validity.within[r] != 0);
    validity_runs.push_back({label, qs, best[2], validity.within});
    const double n = static_cast<double>(rows);
    table.push_back({label, std::to_string(rows), fixed(100.0 * static_cast<double>(proven) / n, 1) + "%",
                     fixed(n / best[0], 0), fixed(n / best[1], 0), fixed(1e6 * best[0] / n, 3),
                     fixed(1e6 * best[1] / n, 3), fixed(best[0] / best[1], 1) + "x", fixed(1e6 * best[2] / n, 3),
                     fixed(best[0] / best[2], 1) + "x", fixed(1e6 * lanes / n, 3)});
  }
  std::cout << model.name() << " in " << opt.scene << " (" << env.objects().size() << " objects), tolerance "
            << opt.tolerance << ", " << opt.threads << " thread(s), best of " << opt.repeats << "; " << spheres
            << " spheres fitted in " << fixed(fit_ms, 1) << " ms, pair tables and scene in " << fixed(tables_ms, 1)
            << " ms; " << bench::machine_name() << "\n\n";
  bench::print_table(table, opt.markdown, std::cout, {false, true, true, true, true, true, true, true, true, true, true});
#if PROXIMA_BATCH_FCL
  if (opt.tolerance == 0.0) print_beside_fcl(checker, scene_objects, validity_runs, opt);
#endif
  if (differ > 0) {
    std::cerr << "proxima-batch-bench: " << differ << " rows answered differently with the prefilter\n";
    return 1;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const Options opt = parse_args(argc, argv);
  try {
    return run(opt);
  } catch (const std::exception& e) {
    std::cerr << "proxima-batch-bench: " << e.what() << "\n";
    return 1;
  }
}
