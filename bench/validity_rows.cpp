// SPDX-License-Identifier: BSD-3-Clause
// proxima-validity-rows: one robot's validity labels over uniform random
// joint vectors in one of its scenes, timed per row on one thread. It is
// written against the part of the library that has not changed since the
// robot layer's first scene checker (state(), then tolerance() at 0), so
// bench/against_commit.sh builds it against an earlier commit's library as
// well as this tree's and runs the two in turn on the same rows: a speed-up
// measured side by side on one machine, not against a figure taken on
// another day.
//
// Usage: proxima-validity-rows URDF SRDF SCENE [--rows N] [--repeats R] [--seed S] [--batch]
//   --batch  check_validity with the sphere prefilter (this tree only), one
//            thread, instead of the row-by-row exact check
//
// Prints one line: rows, rows within, a hash of the labels row by row
// (FNV-1a; two builds agree on every row when their hashes match), best µs
// per row over the repeats.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <random>
#include <string>
#include <vector>

#include <proxima/robot/collision_matrix.hpp>
#include <proxima/robot/planning_scene.hpp>
#include <proxima/robot/prepared_environment.hpp>
#include <proxima/robot/scene_checker.hpp>
#include <proxima/robot/urdf.hpp>
#if __has_include(<proxima/robot/batch_check.hpp>)
#include <proxima/robot/batch_check.hpp>
#define PROXIMA_HAS_BATCH 1
#else
#define PROXIMA_HAS_BATCH 0
#endif

namespace {

constexpr const char* kUsage =
    "usage: proxima-validity-rows URDF SRDF SCENE [--rows N] [--repeats R] [--seed S] [--batch]\n";

[[noreturn]] void usage(const std::string& why) {
  std::fprintf(stderr, "proxima-validity-rows: %s\n%s", why.c_str(), kUsage);
  std::exit(2);
}

// A whole number from lo to hi, or usage() naming the option.
long long count(const char* option, const char* text, long long lo, long long hi) {
  char* end = nullptr;
  const long long v = std::strtoll(text, &end, 10);
  if (end == text || *end != '\0' || v < lo || v > hi)
    usage(std::string(option) + " takes a whole number from " + std::to_string(lo) + " to " + std::to_string(hi) +
          ", not '" + text + "'");
  return v;
}

}  // namespace

int main(int argc, char** argv) try {
  using namespace proxima;
  using namespace proxima::robot;
  std::vector<std::string> files;
  long long rows = 20000, repeats = 5, seed = 1;
  bool batch = false;
  std::vector<std::string> seen;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--help") {
      std::printf("%s", kUsage);
      return 0;
    }
    if (a.rfind("--", 0) == 0) {
      if (std::find(seen.begin(), seen.end(), a) != seen.end()) usage(a + " is given twice");
      seen.push_back(a);
    }
    const auto value = [&] {
      if (i + 1 >= argc) usage(a + " needs a value");
      return argv[++i];
    };
    if (a == "--rows") rows = count("--rows", value(), 1, 10000000);
    else if (a == "--repeats") repeats = count("--repeats", value(), 1, 1000);
    else if (a == "--seed") seed = count("--seed", value(), 0, 1LL << 62);
    else if (a == "--batch") batch = true;
    else if (a.rfind("--", 0) == 0) usage("unknown option '" + a + "'");
    else files.push_back(a);
  }
  if (files.size() != 3) usage("expected URDF, SRDF and SCENE, got " + std::to_string(files.size()) + " files");
  if (batch && !PROXIMA_HAS_BATCH) usage("--batch: this library has no batch check");

  const RobotModel model = load_urdf(files[0]);
  AllowedCollisionMatrix acm = AllowedCollisionMatrix::adjacent(model);
  apply_srdf(model, files[1], acm);
  GeometryOptions gopt;
  gopt.mesh_mode = MeshMode::convex_hull;
  const SceneChecker checker(RobotGeometry(model, gopt), acm);
  const PreparedEnvironment env(read_planning_scene(files[2]).environment);
  const std::size_t dof = model.variable_count();
  std::mt19937_64 rng(static_cast<std::uint64_t>(seed));
  std::vector<double> qs;
  qs.reserve(static_cast<std::size_t>(rows) * dof);
  for (long long r = 0; r < rows; ++r)
    for (std::size_t j = 0; j < dof; ++j) {
      const Joint& jt = model.joint(model.variable_joint(j));
      qs.push_back(std::uniform_real_distribution<double>(jt.lower, jt.upper)(rng));
    }

  const auto n = static_cast<std::size_t>(rows);
  std::vector<unsigned char> within(n, 0);
  const auto once = [&] {
#if PROXIMA_HAS_BATCH
    if (batch) {
      const BatchValidity v = check_validity(checker, env, qs, 0.0, Transform::identity(), 1, true);
      std::copy(v.within.begin(), v.within.end(), within.begin());
      return;
    }
#endif
    RobotState state;
    for (std::size_t r = 0; r < n; ++r) {
      checker.state(std::span<const double>(qs).subspan(r * dof, dof), Transform::identity(), state);
      within[r] = checker.tolerance(state, env, 0.0).within ? 1 : 0;
    }
  };
  once();  // the prefilter's tables and every lazily made structure
  double best = 1e300;
  for (long long k = 0; k < repeats; ++k) {
    const auto t0 = std::chrono::steady_clock::now();
    once();
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  std::size_t hits = 0;
  std::uint64_t hash = 14695981039346656037ull;
  for (const unsigned char w : within) {
    hits += w;
    hash = (hash ^ w) * 1099511628211ull;
  }
  std::printf("rows %zu within %zu labels %016llx us/row %.4f\n", n, hits, static_cast<unsigned long long>(hash),
              1e6 * best / static_cast<double>(n));
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "proxima-validity-rows: %s\n", e.what());
  return 1;
}
