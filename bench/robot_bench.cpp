// SPDX-License-Identifier: BSD-3-Clause
// proxima-robot-bench: the scene checker beside FCL 0.7 on a real robot (the
// Panda by default; --robot ur5 for the other one in tests/data/robots, or a
// folder holding one URDF, its SRDF and scenes/) and real
// MotionBenchMaker planning scenes — what a motion planner asks millions of
// times ("is this configuration valid?") and what a safety monitor asks
// ("how far is the robot from the scene, from itself?").
//
// Same geometry on both sides: each link's convex hull (SceneChecker in
// MeshMode::convex_hull) handed to FCL as an fcl::Convex with our hull's
// vertices and faces; the scene's boxes, cylinders and spheres as FCL
// primitives. Same pairs: the checker's self_pairs() (adjacent links and the
// SRDF's disabled pairs excluded) and every link–object pair.
//
// Every timed query, on both sides, starts from the joint vector: Proxima's
// rows time state() + the query; FCL's rows time our forward_kinematics()
// + setTransform/computeAABB of every link object + the query, so the
// kinematics are the same code on both sides and the FK + pose update is
// part of what a planner pays. Rows "forward kinematics" and "state" give
// that common cost alone. Both sides refill buffers kept across queries
// (FCL its collision objects, Proxima a RobotState and the link poses).
//
// FCL is used as MoveIt's FCL plugin uses it for the world: the scene
// objects in a DynamicAABBTreeCollisionManager, asked per link object
// (collide / distance with a callback). Self pairs are per-pair calls over
// self_pairs(), skipped when the link objects' AABBs do not overlap
// (collision) or are farther apart than the best distance so far (distance),
// the pruning MoveIt gets from its self manager.
//
// The edge-check table sets the continuous check of a joint-space segment
// beside MoveIt's way of checking one, validity at a fixed resolution.
//
// Usage: proxima-robot-bench [--configs N] [--scenes DIR] [--robot DIR|panda|ur5]
//                            [--seed S] [--no-indep] [--markdown] [--quiet]
//        proxima-robot-bench closed-loop [--runs N] [--seed S] [--threads N] [--give-up S] [--csv FILE]
// The second form is the watchdog's closed-loop campaign (closed_loop_mode.cpp).
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cerrno>
#include <cstring>
#include <functional>
#include <iterator>
#include <filesystem>
#include <iostream>
#include <limits>
#include <memory>
#include <numbers>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <fcl/config.h>
#include <fcl/fcl.h>

#include <proxima/robot/kinematics.hpp>
#include <proxima/robot/planning_scene.hpp>
#include <proxima/robot/prepared_environment.hpp>
#include <proxima/robot/scene_checker.hpp>
#include <proxima/robot/urdf.hpp>
#include <proxima/shape/box.hpp>
#include <proxima/shape/convex_polytope.hpp>
#include <proxima/shape/cylinder.hpp>
#include <proxima/shape/sphere.hpp>

#include "arguments.hpp"
#include "robot_folder.hpp"
#include "closed_loop_mode.hpp"
#include "data_dirs.hpp"
#include "fcl_robot.hpp"
#include "minkowski_oracle.hpp"
#include "progress.hpp"
#include "report.hpp"

namespace {

namespace fs = std::filesystem;
using proxima::Transform;
using proxima::Vec3;
using namespace proxima::robot;
using proxima::bench::machine_name;
using proxima::bench::print_table;
using Clock = std::chrono::steady_clock;
constexpr double kInf = std::numeric_limits<double>::infinity();

template <class T>
inline void keep(const T& value) {
  asm volatile("" : : "g"(&value) : "memory");
}

double micros(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double, std::micro>(b - a).count(); }

struct Options {
  std::size_t configs = 2000;
  fs::path scenes;
  fs::path robot;
  unsigned long seed = 20261127;
  bool indep = true;
  bool markdown = false;
  bool progress = true;  ///< a progress line on stderr when it is a terminal (--quiet: none)
};

// ---------------------------------------------------------------- scenes --

struct Scene {
  std::string name;  ///< the file's stem
  Environment env;
  std::vector<std::vector<double>> configs;  ///< the request's start state first, when there is one
  bool has_start = false;
};

std::vector<fs::path> scene_files(const fs::path& dir) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (e.path().extension() == ".yaml" && name.find("scene") != std::string::npos) out.push_back(e.path());
  }
  if (ec) throw std::runtime_error(dir.string() + ": cannot list the scene folder: " + ec.message());
  std::sort(out.begin(), out.end());
  return out;
}

// The FCL side: bench/fcl_robot.hpp.
using proxima::bench::FclQueries;
using proxima::bench::FclRobot;
using proxima::bench::FclScene;
using proxima::bench::PairSet;

// --------------------------------------------------------- measurements --

enum RowId { kFk, kPose, kSelfCol, kEnvCol, kSelfDist, kSelfDistIndep, kEnvDist, kEnvDistIndep, kValidity, kRowCount };

const char* row_name(int r) {
  switch (r) {
    case kFk: return "forward kinematics alone";
    case kPose: return "pose update (Proxima state(); FCL FK + setTransform + computeAABB)";
    case kSelfCol: return "self collision (all pairs)";
    case kEnvCol: return "environment collision (all pairs)";
    case kSelfDist: return "self distance (FCL GJK libccd)";
    case kSelfDistIndep: return "self distance (FCL GJK GST_INDEP)";
    case kEnvDist: return "environment distance (FCL GJK libccd)";
    case kEnvDistIndep: return "environment distance (FCL GJK GST_INDEP)";
    case kValidity: return "validity check (self + environment, first hit)";
  }
  return "?";
}

struct ConfigResult {
  bool o_self = false, f_self = false, o_env = false, f_env = false, o_valid = true, f_valid = true;
  PairSet o_self_pairs, f_self_pairs, o_env_pairs, f_env_pairs;
  double o_sd = kInf, f_sd = kInf, i_sd = kInf, o_ed = kInf, f_ed = kInf, i_ed = kInf;
  std::pair<int, int> o_sd_pair{-1, -1}, f_sd_pair{-1, -1}, i_sd_pair{-1, -1};
  std::pair<int, int> o_ed_pair{-1, -1}, f_ed_pair{-1, -1}, i_ed_pair{-1, -1};
  bool indep_measured = false;
};

struct Times {
  std::vector<double> ours, fcl;
};

// ------------------------------------------------ GST_INDEP in a child --

// FCL's own GJK (GST_INDEP) is known to abort on some pairs, so its rows run
// in forked children: a child measures configuration after configuration and
// writes one record each; when it dies (or hangs for 20 s), the configuration
// it was on is counted as a failure and a new child resumes after it.
struct IndepRecord {
  std::uint64_t index;
  double t_self, d_self, t_env, d_env;
  int self_a, self_b, env_link, env_obj;
};

struct IndepOutcome {
  std::vector<std::string> failures;  ///< "scene config: reason"
};

template <class Measure>
IndepOutcome run_indep(std::size_t total, Measure&& measure, const std::function<void(const IndepRecord&)>& take,
                       const std::function<std::string(std::size_t)>& describe) {
  IndepOutcome out;
  std::size_t next = 0;
  while (next < total) {
    int fds[2];
    if (pipe(fds) != 0) {
      out.failures.push_back("pipe() failed: " + std::string(std::strerror(errno)));
      return out;
    }
    std::fflush(nullptr);
    const pid_t pid = fork();
    if (pid < 0) {
      out.failures.push_back("fork() failed: " + std::string(std::strerror(errno)));
      return out;
    }
    if (pid == 0) {
      close(fds[0]);
      for (std::size_t i = next; i < total; ++i) {
        const IndepRecord r = measure(i);
        if (write(fds[1], &r, sizeof r) != static_cast<ssize_t>(sizeof r)) _exit(3);
      }
      _exit(0);
    }
    close(fds[1]);
    std::string reason;
    std::size_t got = next;
    IndepRecord rec{};
    std::size_t filled = 0;
    while (true) {
      pollfd pfd{fds[0], POLLIN, 0};
      const int ready = poll(&pfd, 1, 20000);
      if (ready == 0) {
        kill(pid, SIGKILL);
        reason = "no answer for 20 s (killed)";
        break;
      }
      const ssize_t n = read(fds[0], reinterpret_cast<char*>(&rec) + filled, sizeof rec - filled);
      if (n <= 0) break;
      filled += static_cast<std::size_t>(n);
      if (filled == sizeof rec) {
        take(rec);
        got = static_cast<std::size_t>(rec.index) + 1;
        filled = 0;
      }
    }
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (reason.empty() && WIFSIGNALED(status)) reason = std::string("died: ") + strsignal(WTERMSIG(status));
    if (reason.empty() && WIFEXITED(status) && WEXITSTATUS(status) != 0)
      reason = "exited with status " + std::to_string(WEXITSTATUS(status));
    if (reason.empty() && got < total) reason = "stopped early";
    if (!reason.empty()) {
      if (got < total) out.failures.push_back(describe(got) + ": " + reason);
      next = got + 1;
      if (out.failures.size() >= 25) {
        out.failures.push_back("gave up after 25 failures; " + std::to_string(total - next) + " configurations not measured");
        return out;
      }
    } else {
      next = got;
    }
  }
  return out;
}

// ---------------------------------------------------------------- oracle --

// World vertices of a polytope standing in for a shape: exact for hulls and
// boxes; a cylinder as a 360-gon prism, inscribed (inner) or circumscribed
// (outer), which brackets the true distance.
std::vector<Eigen::Vector3d> oracle_points(const proxima::Shape& s, const Transform& pose, bool outer) {
  using proxima::ShapeType;
  std::vector<Eigen::Vector3d> pts;
  if (s.type() == ShapeType::convex) {
    for (const Vec3& v : s.as<proxima::ConvexPolytope>().vertices()) pts.push_back(pose.apply(v));
  } else if (s.type() == ShapeType::box) {
    const Vec3 h = 0.5 * s.as<proxima::Box>().size();
    for (int k = 0; k < 8; ++k)
      pts.push_back(pose.apply(Vec3(k & 1 ? h.x() : -h.x(), k & 2 ? h.y() : -h.y(), k & 4 ? h.z() : -h.z())));
  } else if (s.type() == ShapeType::cylinder) {
    const auto& c = s.as<proxima::Cylinder>();
    constexpr int n = 360;
    const double r = outer ? c.radius() / std::cos(std::numbers::pi / n) : c.radius();
    for (int k = 0; k < n; ++k) {
      const double a = 2.0 * std::numbers::pi * k / n;
      for (double z : {-0.5 * c.length(), 0.5 * c.length()}) pts.push_back(pose.apply(Vec3(r * std::cos(a), r * std::sin(a), z)));
    }
  } else {
    throw std::runtime_error(std::string("no oracle polytope for a ") + s.name());
  }
  return pts;
}

struct Interval {
  double lo = kInf, hi = kInf;
};

// Oracle distance (overlap clamped to 0) between the shapes of link `a` and
// of link `b` (self) or object `b` (environment), at state `s`.
Interval oracle_pair(const SceneChecker& checker, const RobotState& s, const Environment& env, bool self, int a, int b) {
  Interval out;
  const auto& links = checker.geometry().links();
  const auto ua = static_cast<std::size_t>(a);
  for (std::size_t i = s.shape_begin[ua]; i < s.shape_begin[ua + 1]; ++i) {
    const proxima::Shape& sa = *links[ua].shapes[i - s.shape_begin[ua]].shape();
    std::vector<std::pair<const proxima::Shape*, Transform>> others;
    if (self) {
      const auto ub = static_cast<std::size_t>(b);
      for (std::size_t j = s.shape_begin[ub]; j < s.shape_begin[ub + 1]; ++j)
        others.emplace_back(links[ub].shapes[j - s.shape_begin[ub]].shape(), s.shape_poses[j]);
    } else {
      const auto& obj = env.objects[static_cast<std::size_t>(b)];
      others.emplace_back(std::get_if<proxima::Shape>(&obj.geometry), obj.pose);
    }
    for (const auto& [sb, pb] : others) {
      const auto pa = oracle_points(sa, s.shape_poses[i], false);
      const double inner = proxima::oracle::minkowski_signed_distance(pa, oracle_points(*sb, pb, false));
      const double outer = sb->type() == proxima::ShapeType::cylinder
                               ? proxima::oracle::minkowski_signed_distance(pa, oracle_points(*sb, pb, true))
                               : inner;
      out.lo = std::min(out.lo, std::max(outer, 0.0));
      out.hi = std::min(out.hi, std::max(inner, 0.0));
    }
  }
  return out;
}

// Signed oracle distance of one pair (for collision disagreements): < 0
// overlap, > 0 apart; a cylinder's bracket is reported by its midpoint.
double oracle_signed(const SceneChecker& checker, const RobotState& s, const Environment& env, bool self, int a, int b) {
  double best = kInf;
  const auto& links = checker.geometry().links();
  const auto ua = static_cast<std::size_t>(a);
  for (std::size_t i = s.shape_begin[ua]; i < s.shape_begin[ua + 1]; ++i) {
    const proxima::Shape& sa = *links[ua].shapes[i - s.shape_begin[ua]].shape();
    const auto pa = oracle_points(sa, s.shape_poses[i], false);
    auto one = [&](const proxima::Shape& sb, const Transform& pb) {
      double d = proxima::oracle::minkowski_signed_distance(pa, oracle_points(sb, pb, false));
      if (sb.type() == proxima::ShapeType::cylinder)
        d = 0.5 * (d + proxima::oracle::minkowski_signed_distance(pa, oracle_points(sb, pb, true)));
      best = std::min(best, d);
    };
    if (self) {
      const auto ub = static_cast<std::size_t>(b);
      for (std::size_t j = s.shape_begin[ub]; j < s.shape_begin[ub + 1]; ++j)
        one(*links[ub].shapes[j - s.shape_begin[ub]].shape(), s.shape_poses[j]);
    } else {
      const auto& obj = env.objects[static_cast<std::size_t>(b)];
      one(*std::get_if<proxima::Shape>(&obj.geometry), obj.pose);
    }
  }
  return best;
}

// ---------------------------------------------------------------- output --

std::string fmt(double v, int digits = 1) {
  if (!std::isfinite(v)) return "—";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

std::string sci(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.1e", v);
  return buf;
}

double median_of(std::vector<double> v) {
  if (v.empty()) return std::nan("");
  const auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
  std::nth_element(v.begin(), mid, v.end());
  if (v.size() % 2 == 1) return *mid;
  return 0.5 * (*mid + *std::max_element(v.begin(), mid));
}

double mean_of(const std::vector<double>& v) {
  if (v.empty()) return std::nan("");
  double s = 0.0;
  for (double x : v) s += x;
  return s / static_cast<double>(v.size());
}


// ---------------------------------------------------------------- edges --

// A planner's edge check, from each valid configuration of a scene (valid
// to both sides): to the next valid one (long edges, a roadmap's
// connections), or a random step of at most kShortStep per joint (short
// edges, a tree's extensions; the end may collide). Proxima: check_motion,
// the continuous check. FCL: what MoveIt does, the validity check at
// samples at most kEdgeResolution apart in every joint, both ends
// included, the first invalid sample ending it. Both start from the joint
// vectors (FCL's time includes FK and the pose update of every sample).
constexpr double kEdgeResolution = 0.05;
constexpr double kShortStep = 0.3;

struct EdgeStats {
  Times times;
  std::size_t edges = 0, samples = 0;
  std::size_t ours_hit = 0, sampled_hit = 0;
  std::size_t missed_by_sampling = 0;  ///< ours: contact inside the edge; no sample invalid
  /// Of those, FCL's validity at 1e-3 rad finds invalid; the others come
  /// within the accuracy (1e-4 m) without touching, which the continuous
  /// check reports as contact.
  std::size_t missed_confirmed = 0;
  std::size_t missed_by_ours = 0;      ///< a sample invalid, ours clear: a bug if ever non-zero
  std::size_t later_than_sample = 0;   ///< ours' s after the first invalid sample: a bug too
  std::size_t not_converged = 0;
  std::size_t iterations = 0, distance_queries = 0;  ///< check_motion's, summed over the edges
};

/// `short_seed`: 0 for long edges, else the seed of the short steps.
EdgeStats run_edges(const SceneChecker& checker, FclRobot& frobot, const std::vector<Scene>& scenes,
                    const std::vector<std::unique_ptr<FclScene>>& fscenes,
                    const std::vector<std::vector<ConfigResult>>& results, unsigned long short_seed) {
  EdgeStats st;
  const RobotModel& model = checker.model();
  std::vector<double> q(model.variable_count()), stepped(model.variable_count());
  std::vector<Transform> poses;
  std::mt19937_64 rng(short_seed);
  std::uniform_real_distribution<double> step(-kShortStep, kShortStep);
  for (std::size_t si = 0; si < scenes.size(); ++si) {
    FclQueries fq(frobot, *fscenes[si], fcl::GJKSolverType::GST_LIBCCD);
    const std::vector<double>* prev = nullptr;
    for (std::size_t k = 0; k < scenes[si].configs.size(); ++k) {
      const ConfigResult& cr = results[si][k];
      if (!cr.o_valid || !cr.f_valid) continue;
      const std::vector<double>& valid = scenes[si].configs[k];
      if (short_seed != 0) {
        for (std::size_t j = 0; j < stepped.size(); ++j) {
          const double d = step(rng);  // one draw per statement (bench/draws.hpp)
          stepped[j] = valid[j] + d;
        }
      } else if (!prev) {
        prev = &valid;
        continue;
      }
      const std::vector<double>& q0 = short_seed != 0 ? valid : *prev;
      const std::vector<double>& q1 = short_seed != 0 ? stepped : valid;
      prev = &valid;
      ++st.edges;
      auto t0 = Clock::now();
      const MotionCheck m = checker.check_motion(q0, q1, scenes[si].env);
      auto t1 = Clock::now();
      st.times.ours.push_back(micros(t0, t1));
      if (m.status == proxima::Status::not_converged) ++st.not_converged;
      st.ours_hit += m.collide;
      st.iterations += static_cast<std::size_t>(m.iterations);
      st.distance_queries += static_cast<std::size_t>(m.distance_queries);

      // The first invalid sample at `resolution`, or 2.
      auto first_invalid_at = [&](double resolution, std::size_t& count) {
        double largest = 0.0;
        for (std::size_t j = 0; j < q.size(); ++j) largest = std::max(largest, std::abs(q1[j] - q0[j]));
        const auto steps = std::max<std::size_t>(1, static_cast<std::size_t>(std::ceil(largest / resolution)));
        for (std::size_t i = 0; i <= steps; ++i) {
          const double s = static_cast<double>(i) / static_cast<double>(steps);
          for (std::size_t j = 0; j < q.size(); ++j) q[j] = q0[j] + s * (q1[j] - q0[j]);
          forward_kinematics(model, q, Transform::identity(), poses);
          frobot.update(poses);
          ++count;
          if (!fq.valid()) return s;
        }
        return 2.0;
      };
      t0 = Clock::now();
      const double first_invalid = first_invalid_at(kEdgeResolution, st.samples);
      t1 = Clock::now();
      st.times.fcl.push_back(micros(t0, t1));
      const bool sampled = first_invalid <= 1.0;
      st.sampled_hit += sampled;
      if (m.collide && !sampled) {
        ++st.missed_by_sampling;
        std::size_t unused = 0;
        st.missed_confirmed += first_invalid_at(1e-3, unused) <= 1.0;
      }
      if (!m.collide && sampled) ++st.missed_by_ours;
      if (m.collide && sampled && m.s > first_invalid) ++st.later_than_sample;
    }
  }
  return st;
}

// ----------------------------------------------------------- clutter --

// The robot among many small boxes (a planning scene built from a voxelised
// point cloud, say): the plain Environment (checked and boxed on every call,
// every object looked at), the PreparedEnvironment (its box hierarchy) and
// FCL's DynamicAABBTreeCollisionManager. Times exclude the pose update on
// both sides (the rows above time it); the answers are compared per query.
struct ClutterRow {
  std::size_t objects = 0, configs = 0, plain_distance_configs = 0;
  double prepare_ms = 0.0, fcl_setup_ms = 0.0;
  std::vector<double> col_plain, col_prepared, col_fcl, dist_plain, dist_prepared, dist_fcl;
  std::size_t colliding = 0, col_disagree_plain = 0, col_disagree_fcl = 0;
  std::size_t dist_disagree_plain = 0, dist_fcl_beyond = 0;
  std::size_t oracle_ours = 0, oracle_fcl = 0;  ///< of the FCL disagreements, the side the oracle confirms
  double max_fcl_gap = 0.0;
};

// About `count` cubic voxels on the surfaces of a cell (a voxelised depth
// image's kind of scene): a floor just below the robot's base, two walls
// and a table top in its reach, each cube's position jittered by a tenth of
// its size so that no two scenes line up exactly. `base` is the frame of the
// robot's base link (identity for the Panda; the UR5 stands on a pedestal).
Environment clutter_environment(std::size_t count, unsigned long seed, const Transform& base) {
  struct Rect {
    Vec3 origin, u, v;  // corner and the two edge vectors
  };
  const Rect rects[] = {
      {Vec3(-1.2, -1.2, 0.0), Vec3(2.4, 0, 0), Vec3(0, 2.4, 0)},   // floor (top face at z = -0.01)
      {Vec3(1.0, -1.2, 0.0), Vec3(0, 2.4, 0), Vec3(0, 0, 1.6)},    // wall in front
      {Vec3(-1.2, 1.0, 0.0), Vec3(2.4, 0, 0), Vec3(0, 0, 1.6)},    // wall to the left
      {Vec3(0.35, -0.45, 0.3), Vec3(0.5, 0, 0), Vec3(0, 0.9, 0)},  // table top
  };
  double area = 0.0;
  for (const Rect& r : rects) area += r.u.norm() * r.v.norm();
  const double cell = std::sqrt(area / static_cast<double>(count));
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> jitter(-0.1 * cell, 0.1 * cell);
  Environment env;
  for (std::size_t ri = 0; ri < std::size(rects); ++ri) {
    const Rect& r = rects[ri];
    const auto nu = static_cast<int>(r.u.norm() / cell), nv = static_cast<int>(r.v.norm() / cell);
    const Vec3 normal = r.u.cross(r.v).normalized();
    // Floor voxels sit below z = -0.01 (jitter included), clear of the
    // base; the others on their surface.
    const Vec3 lift = ri == 0 ? Vec3(0, 0, -0.01 - 0.6 * cell) : Vec3::Zero();
    for (int i = 0; i < nu; ++i)
      for (int j = 0; j < nv; ++j) {
        const double dx = jitter(rng), dy = jitter(rng), dz = jitter(rng);  // one draw per statement
        const Vec3 c = r.origin + (i + 0.5) / nu * r.u + (j + 0.5) / nv * r.v + lift + Vec3(dx, dy, dz) +
                       (ri == 0 ? Vec3::Zero() : Vec3(0.5 * cell * normal));
        env.add("voxel" + std::to_string(env.objects.size()), proxima::Box(cell, cell, cell),
                Transform{base.R, base.apply(c)});
      }
  }
  return env;
}

ClutterRow run_clutter(const SceneChecker& checker, FclRobot& frobot, std::size_t count, std::size_t configs,
                       unsigned long seed, const Transform& base) {
  ClutterRow row;
  const Environment env = clutter_environment(count, seed, base);
  row.objects = env.objects.size();
  auto t0 = Clock::now();
  const PreparedEnvironment prepared(env);
  row.prepare_ms = micros(t0, Clock::now()) / 1000.0;
  t0 = Clock::now();
  FclScene fscene(env);
  row.fcl_setup_ms = micros(t0, Clock::now()) / 1000.0;
  FclQueries fq(frobot, fscene, fcl::GJKSolverType::GST_LIBCCD);
  // The plain distance sorts every shape–object pair: at ten thousand
  // objects a query takes tens of milliseconds, so it is timed on a few.
  row.plain_distance_configs = row.objects >= 5000 ? std::min<std::size_t>(configs, 20) : configs;
  std::mt19937_64 rng(seed + 1);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const RobotModel& model = checker.model();
  std::vector<double> q(model.variable_count());
  std::vector<Transform> poses;
  RobotState st;
  for (std::size_t k = 0; k < configs; ++k) {
    for (std::size_t j = 0; j < q.size(); ++j) {
      const Joint& jt = model.joint(model.variable_joint(j));
      const double u = unit(rng);
      q[j] = jt.lower + u * (jt.upper - jt.lower);
    }
    checker.state(q, Transform::identity(), st);
    forward_kinematics(model, q, Transform::identity(), poses);
    frobot.update(poses);
    ++row.configs;

    t0 = Clock::now();
    const CollisionReport cp = checker.environment_collision(st, env);
    auto t1 = Clock::now();
    row.col_plain.push_back(micros(t0, t1));
    t0 = Clock::now();
    const CollisionReport cq = checker.environment_collision(st, prepared);
    t1 = Clock::now();
    row.col_prepared.push_back(micros(t0, t1));
    PairSet fpairs;
    t0 = Clock::now();
    fq.environment_collision(&fpairs, false);
    t1 = Clock::now();
    row.col_fcl.push_back(micros(t0, t1));
    row.colliding += cq.collide();
    row.col_disagree_plain += cp.pairs.size() != cq.pairs.size() ||
                              !std::equal(cp.pairs.begin(), cp.pairs.end(), cq.pairs.begin(),
                                          [](const PairId& x, const PairId& y) { return x.link == y.link && x.other == y.other; });
    row.col_disagree_fcl += cq.collide() != !fpairs.empty();

    t0 = Clock::now();
    const DistanceReport dq = checker.environment_distance(st, prepared);
    t1 = Clock::now();
    row.dist_prepared.push_back(micros(t0, t1));
    if (k < row.plain_distance_configs) {
      t0 = Clock::now();
      const DistanceReport dp = checker.environment_distance(st, env);
      t1 = Clock::now();
      row.dist_plain.push_back(micros(t0, t1));
      row.dist_disagree_plain += dp.distance != dq.distance;
    }
    t0 = Clock::now();
    const FclQueries::Best fd = fq.environment_distance();
    t1 = Clock::now();
    row.dist_fcl.push_back(micros(t0, t1));
    const double diff = std::abs(fd.distance - dq.distance);
    row.max_fcl_gap = std::max(row.max_fcl_gap, diff);
    if (diff > 1e-6) {
      ++row.dist_fcl_beyond;
      // Right: the value is the oracle's for its own pair, and the other
      // side's pair is not truly nearer.
      const Interval ours = oracle_pair(checker, st, env, false, dq.pair.link, dq.pair.other);
      const Interval theirs = oracle_pair(checker, st, env, false, fd.link, fd.other);
      auto right = [](double d, const Interval& own, const Interval& other) {
        return d >= own.lo - 1e-6 && d <= own.hi + 1e-6 && d <= other.hi + 1e-6;
      };
      row.oracle_ours += right(dq.distance, ours, theirs);
      row.oracle_fcl += right(fd.distance, theirs, ours);
    }
  }
  return row;
}

constexpr const char* kUsage =
    "usage: proxima-robot-bench [--configs N] [--scenes DIR] [--robot DIR|panda|ur5] [--seed S] [--no-indep] "
    "[--markdown] [--quiet]\n       proxima-robot-bench closed-loop --help\n";

// The options; exits with status 2 on a refused command line.
Options parse_args(int argc, char** argv) {
  Options o;
  o.robot = "panda";
  try {
    proxima::bench::Arguments args(argc, argv);
    while (args.next()) {
      if (args.is("--configs")) {
        o.configs = static_cast<std::size_t>(args.integer(0, 100000000));
      } else if (args.is("--scenes")) {
        o.scenes = args.text();
      } else if (args.is("--robot")) {
        o.robot = args.text();
      } else if (args.is("--seed")) {
        o.seed = static_cast<unsigned long>(args.integer(0, 4294967295LL));
      } else if (args.is("--no-indep")) {
        o.indep = false;
      } else if (args.is("--markdown")) {
        o.markdown = true;
      } else if (args.is("--quiet")) {
        o.progress = false;
      } else if (args.is("--help") || args.is("-h")) {
        std::cout << kUsage;
        std::exit(0);
      } else {
        args.unknown();
      }
    }
  } catch (const proxima::bench::BadArgument& e) {
    std::exit(proxima::bench::refuse("proxima-robot-bench", e, kUsage));
  }
  // A robot named, not a folder: the shipped one of that name.
  if (!fs::is_directory(o.robot)) o.robot = fs::path(proxima::apps::robots_dir()) / o.robot;
  if (o.scenes.empty()) o.scenes = o.robot / "scenes";
  return o;
}



int run(const Options& opt) {
  // The robot: convex hulls, adjacent links and the SRDF's pairs allowed.
  const RobotModel model = load_urdf(proxima::bench::only_file(opt.robot, ".urdf"));
  AllowedCollisionMatrix acm = AllowedCollisionMatrix::adjacent(model);
  apply_srdf(model, proxima::bench::only_file(opt.robot, ".srdf"), acm);
  GeometryOptions gopt;
  gopt.mesh_mode = MeshMode::convex_hull;
  const SceneChecker checker(RobotGeometry(model, gopt), acm);
  FclRobot frobot(checker);
  const std::size_t dof = model.variable_count();

  // Random joint vectors, uniform within the limits, one draw per statement
  // (bench/draws.hpp: argument evaluation order differs between compilers).
  // Each scene has its own seed, so the self rows see different
  // configurations scene by scene rather than the same ones eight times.
  auto random_configs = [&](std::size_t scene_index) {
    std::mt19937_64 rng(opt.seed + scene_index);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    std::vector<std::vector<double>> out;
    for (std::size_t k = 0; k < opt.configs; ++k) {
      std::vector<double> q(dof);
      for (std::size_t j = 0; j < dof; ++j) {
        const Joint& jt = model.joint(model.variable_joint(j));
        const double u = unit(rng);
        q[j] = jt.lower + u * (jt.upper - jt.lower);
      }
      out.push_back(std::move(q));
    }
    return out;
  };

  std::vector<Scene> scenes;
  for (const fs::path& file : scene_files(opt.scenes)) {
    Scene sc;
    sc.name = file.stem().string();
    sc.env = proxima::robot::read_planning_scene(file).environment;
    std::string req = file.filename().string();
    req.replace(req.find("scene"), 5, "request");
    if (fs::exists(file.parent_path() / req)) {
      const auto start = proxima::robot::read_request_start_state(file.parent_path() / req);
      std::vector<double> q;
      for (const std::string& name : model.variable_names()) {
        const auto it = start.find(name);
        if (it == start.end()) throw std::runtime_error((file.parent_path() / req).string() + ": start state lacks joint " + name);
        q.push_back(it->second);
      }
      sc.configs.push_back(std::move(q));
      sc.has_start = true;
    }
    const auto random = random_configs(scenes.size());
    sc.configs.insert(sc.configs.end(), random.begin(), random.end());
    scenes.push_back(std::move(sc));
  }
  if (scenes.empty()) throw std::runtime_error(opt.scenes.string() + ": no *scene*.yaml files");

  std::vector<std::unique_ptr<FclScene>> fscenes;
  for (const Scene& sc : scenes) fscenes.push_back(std::make_unique<FclScene>(sc.env));

  std::vector<Times> times(kRowCount);
  std::vector<std::vector<ConfigResult>> results(scenes.size());
  std::ostream& log = std::cerr;

  RobotState reuse;
  std::vector<Transform> poses;
  // The configurations of every scene: minutes at the default count. Drawn
  // between configurations, outside the timed sections.
  std::size_t total_configs = 0, configs_done = 0;
  for (const Scene& sc : scenes) total_configs += sc.configs.size();
  proxima::apps::Progress progress =
      proxima::apps::Progress::on_terminal("proxima-robot-bench", static_cast<double>(total_configs), opt.progress);
  for (std::size_t si = 0; si < scenes.size(); ++si) {
    const Scene& sc = scenes[si];
    FclQueries fq(frobot, *fscenes[si], fcl::GJKSolverType::GST_LIBCCD);
    results[si].resize(sc.configs.size());
    const auto started = Clock::now();
    for (std::size_t k = 0; k < sc.configs.size(); ++k) {
      progress.update(static_cast<double>(configs_done++), sc.name);
      const std::vector<double>& q = sc.configs[k];
      ConfigResult& cr = results[si][k];
      // Both sides refill buffers kept across queries (FCL its objects, we
      // a RobotState and the poses), as a planner's loop would.
      auto placed = [&]() -> const RobotState& {
        checker.state(q, Transform::identity(), reuse);
        return reuse;
      };
      auto fk = [&]() -> const std::vector<Transform>& {
        forward_kinematics(model, q, Transform::identity(), poses);
        return poses;
      };
      // Proxima, then FCL, workload by workload, so that a slow phase of the
      // shared machine hits both columns alike.
      {
        auto t0 = Clock::now();
        keep(fk());
        times[kFk].ours.push_back(micros(t0, Clock::now()));
      }
      {
        auto t0 = Clock::now();
        const RobotState& s = placed();
        keep(s);
        auto t1 = Clock::now();
        if (s.status != proxima::Status::ok) throw std::runtime_error("state(): " + s.message);
        times[kPose].ours.push_back(micros(t0, t1));
        t0 = Clock::now();
        frobot.update(fk());
        times[kPose].fcl.push_back(micros(t0, Clock::now()));
      }
      {
        auto t0 = Clock::now();
        const CollisionReport r = checker.self_collision(placed());
        auto t1 = Clock::now();
        times[kSelfCol].ours.push_back(micros(t0, t1));
        cr.o_self = r.collide();
        for (const PairId& p : r.pairs) cr.o_self_pairs.emplace_back(p.link, p.other);
        t0 = Clock::now();
        frobot.update(fk());
        PairSet pairs;
        cr.f_self = fq.self_collision(&pairs, false);
        t1 = Clock::now();
        times[kSelfCol].fcl.push_back(micros(t0, t1));
        cr.f_self_pairs = std::move(pairs);
      }
      {
        auto t0 = Clock::now();
        const CollisionReport r = checker.environment_collision(placed(), sc.env);
        auto t1 = Clock::now();
        times[kEnvCol].ours.push_back(micros(t0, t1));
        cr.o_env = r.collide();
        for (const PairId& p : r.pairs) cr.o_env_pairs.emplace_back(p.link, p.other);
        t0 = Clock::now();
        frobot.update(fk());
        PairSet pairs;
        cr.f_env = fq.environment_collision(&pairs, false);
        t1 = Clock::now();
        times[kEnvCol].fcl.push_back(micros(t0, t1));
        cr.f_env_pairs = std::move(pairs);
      }
      // A distance row: ours (its time also stands in the GST_INDEP row's
      // Proxima column), then FCL's libccd GJK.
      auto distance_row = [&](int row, int indep_row, auto&& ours, auto&& theirs, double& o_d,
                              std::pair<int, int>& o_pair, double& f_d, std::pair<int, int>& f_pair) {
        auto t0 = Clock::now();
        const DistanceReport r = ours();
        auto t1 = Clock::now();
        times[static_cast<std::size_t>(row)].ours.push_back(micros(t0, t1));
        times[static_cast<std::size_t>(indep_row)].ours.push_back(micros(t0, t1));
        o_d = r.distance;
        o_pair = {r.pair.link, r.pair.other};
        t0 = Clock::now();
        frobot.update(fk());
        const FclQueries::Best b = theirs();
        t1 = Clock::now();
        times[static_cast<std::size_t>(row)].fcl.push_back(micros(t0, t1));
        f_d = b.distance;
        f_pair = {b.link, b.other};
      };
      distance_row(
          kSelfDist, kSelfDistIndep, [&] { return checker.self_distance(placed()); },
          [&] { return fq.self_distance(); }, cr.o_sd, cr.o_sd_pair, cr.f_sd, cr.f_sd_pair);
      distance_row(
          kEnvDist, kEnvDistIndep, [&] { return checker.environment_distance(placed(), sc.env); },
          [&] { return fq.environment_distance(); }, cr.o_ed, cr.o_ed_pair, cr.f_ed, cr.f_ed_pair);
      {
        auto t0 = Clock::now();
        const ToleranceReport r = checker.tolerance(placed(), sc.env, 0.0);
        auto t1 = Clock::now();
        times[kValidity].ours.push_back(micros(t0, t1));
        cr.o_valid = !r.within;
        t0 = Clock::now();
        frobot.update(fk());
        cr.f_valid = fq.valid();
        t1 = Clock::now();
        times[kValidity].fcl.push_back(micros(t0, t1));
      }
    }
    progress.clear();
    if (!opt.markdown)
      log << sc.name << ": " << sc.configs.size() << " configurations, " << fmt(std::chrono::duration<double>(Clock::now() - started).count(), 1)
          << " s\n";
  }

  progress.finish();

  // GST_INDEP distances, in children.
  std::vector<std::pair<std::size_t, std::size_t>> flat;  // (scene, config)
  for (std::size_t si = 0; si < scenes.size(); ++si)
    for (std::size_t k = 0; k < scenes[si].configs.size(); ++k) flat.emplace_back(si, k);
  IndepOutcome indep;
  if (opt.indep) {
    indep = run_indep(
        flat.size(),
        [&](std::size_t i) {
          const auto [si, k] = flat[i];
          const std::vector<double>& q = scenes[si].configs[k];
          FclQueries fq(frobot, *fscenes[si], fcl::GJKSolverType::GST_INDEP);
          IndepRecord r{};
          r.index = i;
          auto t0 = Clock::now();
          frobot.update(forward_kinematics(model, q));
          const FclQueries::Best s = fq.self_distance();
          auto t1 = Clock::now();
          r.t_self = micros(t0, t1);
          r.d_self = s.distance;
          r.self_a = s.link;
          r.self_b = s.other;
          t0 = Clock::now();
          frobot.update(forward_kinematics(model, q));
          const FclQueries::Best e = fq.environment_distance();
          t1 = Clock::now();
          r.t_env = micros(t0, t1);
          r.d_env = e.distance;
          r.env_link = e.link;
          r.env_obj = e.other;
          return r;
        },
        [&](const IndepRecord& r) {
          const auto [si, k] = flat[static_cast<std::size_t>(r.index)];
          ConfigResult& cr = results[si][k];
          cr.indep_measured = true;
          cr.i_sd = r.d_self;
          cr.i_sd_pair = {r.self_a, r.self_b};
          cr.i_ed = r.d_env;
          cr.i_ed_pair = {r.env_link, r.env_obj};
          times[kSelfDistIndep].fcl.push_back(r.t_self);
          times[kEnvDistIndep].fcl.push_back(r.t_env);
        },
        [&](std::size_t i) { return scenes[flat[i].first].name + " configuration " + std::to_string(flat[i].second); });
  }

  const EdgeStats long_edges = run_edges(checker, frobot, scenes, fscenes, results, 0);
  const EdgeStats short_edges = run_edges(checker, frobot, scenes, fscenes, results, opt.seed + 1000);

  // ---------------------------------------------------- agreement --
  struct Agreement {
    std::size_t compared = 0, differ = 0, pairs_differ = 0;
    std::vector<std::string> notes;
    std::string largest;
    // distance rows: counts of |Δ| in bands
    double max_diff = 0.0;
    std::size_t band[5] = {0, 0, 0, 0, 0};  // ≤1e-9, ≤1e-6, ≤1e-4, ≤1e-3, >1e-3
    std::size_t arb_ours = 0, arb_fcl = 0, arb_both = 0, arb_neither = 0, arbitrated = 0;
  };
  std::vector<Agreement> agree(kRowCount);
  constexpr std::size_t kMaxArbitrations = 150;
  constexpr std::size_t kMaxNotes = 8;

  auto sorted = [](PairSet p) {
    std::sort(p.begin(), p.end());
    return p;
  };

  for (std::size_t si = 0; si < scenes.size(); ++si) {
    const Scene& sc = scenes[si];
    for (std::size_t k = 0; k < sc.configs.size(); ++k) {
      const ConfigResult& cr = results[si][k];
      const std::string where = sc.name + " #" + std::to_string(k) + (sc.has_start && k == 0 ? " (start state)" : "");
      std::optional<RobotState> state;
      auto st = [&]() -> const RobotState& {
        if (!state) state = checker.state(sc.configs[k]);
        return *state;
      };
      // Collision rows: the answer, then the pair sets; each pair only one
      // side reports is judged by the oracle's signed distance.
      auto collision = [&](int row, bool o, bool f, const PairSet& op, const PairSet& fp, bool self) {
        Agreement& a = agree[static_cast<std::size_t>(row)];
        ++a.compared;
        if (o != f) ++a.differ;
        const PairSet so = sorted(op), sf = sorted(fp);
        if (so == sf) return;
        ++a.pairs_differ;
        PairSet only_o, only_f;
        std::set_difference(so.begin(), so.end(), sf.begin(), sf.end(), std::back_inserter(only_o));
        std::set_difference(sf.begin(), sf.end(), so.begin(), so.end(), std::back_inserter(only_f));
        for (int side = 0; side < 2; ++side)
          for (const auto& [l, other] : side == 0 ? only_o : only_f) {
            std::string verdict = "not judged (arbitration limit)";
            if (a.arbitrated < kMaxArbitrations) {
              ++a.arbitrated;
              const double d = oracle_signed(checker, st(), sc.env, self, l, other);
              if (std::abs(d) <= 1e-6) {
                ++a.arb_both;
                verdict = "touching within 1e-6 (oracle " + sci(d) + "): noise";
              } else if (d < 0.0) {  // overlapping: the side reporting the pair is right
                ++(side == 0 ? a.arb_ours : a.arb_fcl);
                verdict = std::string("oracle ") + sci(d) + ": overlap, " + (side == 0 ? "Proxima" : "FCL") + " right";
              } else {
                ++(side == 0 ? a.arb_fcl : a.arb_ours);
                verdict = std::string("oracle ") + sci(d) + ": apart, " + (side == 0 ? "FCL" : "Proxima") + " right";
              }
            }
            if (a.notes.size() < kMaxNotes)
              a.notes.push_back(where + ": " + model.link(l).name + "–" +
                                (self ? model.link(other).name : sc.env.objects[static_cast<std::size_t>(other)].name) +
                                " reported by " + (side == 0 ? "Proxima" : "FCL") + " only; " + verdict);
          }
      };
      collision(kSelfCol, cr.o_self, cr.f_self, cr.o_self_pairs, cr.f_self_pairs, true);
      collision(kEnvCol, cr.o_env, cr.f_env, cr.o_env_pairs, cr.f_env_pairs, false);
      {
        Agreement& a = agree[kValidity];
        ++a.compared;
        if (cr.o_valid != cr.f_valid) {
          ++a.differ;
          if (a.notes.size() < kMaxNotes)
            a.notes.push_back(where + ": Proxima says " + (cr.o_valid ? "valid" : "invalid") + ", FCL " +
                              (cr.f_valid ? "valid" : "invalid") + " (see the collision rows for the pair)");
        }
      }
      auto distance = [&](int row, double o, double f, std::pair<int, int> op, std::pair<int, int> fp, bool self,
                          bool measured) {
        Agreement& a = agree[static_cast<std::size_t>(row)];
        if (!measured) return;
        ++a.compared;
        const double diff = std::isfinite(o) && std::isfinite(f) ? std::abs(o - f) : (o == f ? 0.0 : kInf);
        // The largest difference is always judged and listed first.
        const bool largest = diff > a.max_diff;
        a.max_diff = std::max(a.max_diff, diff);
        const int band = diff <= 1e-9 ? 0 : diff <= 1e-6 ? 1 : diff <= 1e-4 ? 2 : diff <= 1e-3 ? 3 : 4;
        ++a.band[band];
        if (diff <= 1e-6) return;
        ++a.differ;
        std::string verdict = "not judged (arbitration limit)";
        const bool judge = a.arbitrated < kMaxArbitrations;
        if ((judge || largest) && op.first >= 0 && fp.first >= 0) {
          // The true minimum is at most the oracle's distance of either
          // reported pair; each side is judged against that bracket.
          const Interval io = oracle_pair(checker, st(), sc.env, self, op.first, op.second);
          const Interval jf = oracle_pair(checker, st(), sc.env, self, fp.first, fp.second);
          const Interval truth{std::min(io.lo, jf.lo), std::min(io.hi, jf.hi)};
          auto err = [&](double v) { return v < truth.lo ? truth.lo - v : v > truth.hi ? v - truth.hi : 0.0; };
          const double eo = err(o), ef = err(f);
          if (!judge) {
          } else if (eo <= 1e-6 && ef <= 1e-6) {
            ++a.arb_both;
          } else if (eo <= 1e-6) {
            ++a.arb_ours;
          } else if (ef <= 1e-6) {
            ++a.arb_fcl;
          } else {
            ++a.arb_neither;
          }
          if (judge) ++a.arbitrated;
          verdict = "oracle [" + fmt(truth.lo * 1e3, 6) + ", " + fmt(truth.hi * 1e3, 6) + "] mm, error Proxima " +
                    sci(eo) + " m, FCL " + sci(ef) + " m";
        }
        if (a.notes.size() < kMaxNotes || largest) {
          auto pair_name = [&](std::pair<int, int> p) {
            if (p.first < 0) return std::string("none");
            return model.link(p.first).name + "–" +
                   (self ? model.link(p.second).name : sc.env.objects[static_cast<std::size_t>(p.second)].name);
          };
          const std::string note = where + ": Proxima " + fmt(o * 1e3, 6) + " mm (" + pair_name(op) + "), FCL " +
                                   fmt(f * 1e3, 6) + " mm (" + pair_name(fp) + "); " + verdict;
          if (largest)
            a.largest = "largest: " + note;
          if (a.notes.size() < kMaxNotes) a.notes.push_back(note);
        }
      };
      distance(kSelfDist, cr.o_sd, cr.f_sd, cr.o_sd_pair, cr.f_sd_pair, true, true);
      distance(kEnvDist, cr.o_ed, cr.f_ed, cr.o_ed_pair, cr.f_ed_pair, false, true);
      distance(kSelfDistIndep, cr.o_sd, cr.i_sd, cr.o_sd_pair, cr.i_sd_pair, true, cr.indep_measured);
      distance(kEnvDistIndep, cr.o_ed, cr.i_ed, cr.o_ed_pair, cr.i_ed_pair, false, cr.indep_measured);
    }
  }

  // ------------------------------------------------------- report --
  std::ostream& out = std::cout;
  std::size_t total = 0;
  for (const Scene& sc : scenes) total += sc.configs.size();
  out << model.name() << " (convex hulls of its collision meshes, " << checker.self_pairs().size()
      << " self pairs after adjacent links and the SRDF) in " << scenes.size() << " MotionBenchMaker scenes, "
      << opt.configs << " random configurations per scene (uniform in the joint limits, seeds " << opt.seed << " + scene index"
      << ") plus each scene's request start state: " << total << " queries per row; " << machine_name()
      << ". Times in µs per query from the joint vector (FK included on both sides, see the first two rows); "
         "FCL " << FCL_VERSION << ", world in a DynamicAABBTreeCollisionManager asked per link, self pairs per pair.\n\n";

  std::vector<std::vector<std::string>> table;
  table.push_back({"workload", "Proxima median", "Proxima mean", "FCL median", "FCL mean", "FCL/Proxima (median)",
                   "agreement"});
  for (int r = 0; r < kRowCount; ++r) {
    const Times& t = times[static_cast<std::size_t>(r)];
    const Agreement& a = agree[static_cast<std::size_t>(r)];
    const double om = median_of(t.ours), fm = median_of(t.fcl);
    std::string ag = "—";
    if (r == kSelfCol || r == kEnvCol)
      ag = std::to_string(a.compared - a.differ) + "/" + std::to_string(a.compared) + " same answer, pair sets differ in " +
           std::to_string(a.pairs_differ);
    else if (r == kValidity)
      ag = std::to_string(a.compared - a.differ) + "/" + std::to_string(a.compared) + " same answer";
    else if (r != kFk && r != kPose)
      ag = std::to_string(a.compared - a.differ) + "/" + std::to_string(a.compared) + " within 1e-6 m, max |Δ| " +
           sci(a.max_diff) + " m";
    if ((r == kSelfDistIndep || r == kEnvDistIndep) && !opt.indep) ag = "not run (--no-indep)";
    table.push_back({row_name(r), fmt(om, 2), fmt(mean_of(t.ours), 2), r == kFk ? "—" : fmt(fm, 2),
                     r == kFk ? "—" : fmt(mean_of(t.fcl), 2), r == kFk ? "—" : fmt(fm / om, 2), ag});
  }
  print_table(table, opt.markdown, out, {false, true, true, true, true, true, false});

  out << "\nEdge checks from each valid configuration: to the next valid one of its scene (long; "
      << long_edges.edges << " edges) and a step of at most " << kShortStep << " rad per joint (short; "
      << short_edges.edges << " edges; the end may collide). Proxima: SceneChecker::check_motion, continuous "
         "(accuracy 1e-4 m); FCL: the validity check at samples at most " << kEdgeResolution
      << " rad apart in every joint, both ends included, first hit ends the edge (" << long_edges.samples << " and "
      << short_edges.samples << " samples), FK and pose update included.\n\n";
  std::vector<std::vector<std::string>> edge_table;
  edge_table.push_back({"workload", "Proxima median", "Proxima mean", "FCL median", "FCL mean", "FCL/Proxima (median)",
                        "agreement"});
  for (const auto& [name, e] : {std::pair<const char*, const EdgeStats&>{"long", long_edges}, {"short", short_edges}}) {
    const double eo = median_of(e.times.ours), ef = median_of(e.times.fcl);
    edge_table.push_back(
        {std::string("edge check, ") + name + " (continuous vs sampled at " + fmt(kEdgeResolution, 2) + " rad)",
         fmt(eo, 2), fmt(mean_of(e.times.ours), 2), fmt(ef, 2), fmt(mean_of(e.times.fcl), 2), fmt(ef / eo, 2),
         std::to_string(e.ours_hit) + " collide (continuous), " + std::to_string(e.sampled_hit) +
             " found by sampling; of the " + std::to_string(e.missed_by_sampling) + " sampling passes, " +
             std::to_string(e.missed_confirmed) + " collide (invalid at 0.001 rad) and " +
             std::to_string(e.missed_by_sampling - e.missed_confirmed) +
             " come within the accuracy only; sampled collisions the continuous check missed: " +
             std::to_string(e.missed_by_ours) + "; continuous s after the first invalid sample: " +
             std::to_string(e.later_than_sample) + "; not converged: " + std::to_string(e.not_converged) +
             "; per edge " + fmt(double(e.iterations) / double(std::max<std::size_t>(e.edges, 1)), 1) +
             " steps and " + fmt(double(e.distance_queries) / double(std::max<std::size_t>(e.edges, 1)), 1) +
             " distance queries"});
  }
  print_table(edge_table, opt.markdown, out, {false, true, true, true, true, true, false});

  out << "\nPer scene (Proxima's answers): objects, queries, configurations in self collision, in collision with the scene, valid.\n\n";
  std::vector<std::vector<std::string>> scene_table;
  scene_table.push_back({"scene", "objects", "queries", "self collision", "scene collision", "valid"});
  for (std::size_t si = 0; si < scenes.size(); ++si) {
    std::size_t s = 0, e = 0, v = 0;
    for (const ConfigResult& cr : results[si]) {
      s += cr.o_self;
      e += cr.o_env;
      v += cr.o_valid;
    }
    scene_table.push_back({scenes[si].name, std::to_string(scenes[si].env.objects.size()), std::to_string(results[si].size()),
                  std::to_string(s), std::to_string(e), std::to_string(v)});
  }
  print_table(scene_table, opt.markdown, out, {false, true, true, true, true, true});

  out << "\nDistance differences |Proxima − FCL| by band (configurations):\n\n";
  std::vector<std::vector<std::string>> bt;
  bt.push_back({"workload", "≤ 1e-9 m", "≤ 1e-6 m", "≤ 1e-4 m", "≤ 1e-3 m", "> 1e-3 m", "judged by oracle: Proxima right / FCL right / both / neither"});
  for (int r : {kSelfDist, kSelfDistIndep, kEnvDist, kEnvDistIndep}) {
    const Agreement& a = agree[static_cast<std::size_t>(r)];
    if (a.compared == 0) continue;
    bt.push_back({row_name(r), std::to_string(a.band[0]), std::to_string(a.band[1]), std::to_string(a.band[2]),
                  std::to_string(a.band[3]), std::to_string(a.band[4]),
                  std::to_string(a.arb_ours) + " / " + std::to_string(a.arb_fcl) + " / " + std::to_string(a.arb_both) +
                      " / " + std::to_string(a.arb_neither) + " of " + std::to_string(a.arbitrated)});
  }
  print_table(bt, opt.markdown, out, {false, true, true, true, true, true, false});
  out << "\nThe oracle (tests/oracle, shares no code with Proxima) is the exact distance of the hulls' and boxes' "
         "Minkowski difference; a cylinder is bracketed by inscribed and circumscribed 360-gon prisms. A side is "
         "\"right\" when its value lies within 1e-6 m of the oracle's bracket of the nearer reported pair.\n";

  bool any_note = false;
  for (int r = 0; r < kRowCount; ++r) {
    const Agreement& a = agree[static_cast<std::size_t>(r)];
    if (a.notes.empty()) continue;
    if (!any_note) out << "\nDisagreements (first " << kMaxNotes << " per workload):\n\n";
    any_note = true;
    out << "* " << row_name(r)
        << (r == kSelfCol || r == kEnvCol
                ? ": " + std::to_string(a.arb_ours) + " pairs Proxima right, " + std::to_string(a.arb_fcl) + " FCL right, " +
                      std::to_string(a.arb_both) + " touching (of " + std::to_string(a.arbitrated) + " judged)"
                : std::string(""))
        << "\n";
    if (!a.largest.empty()) out << "  * " << a.largest << "\n";
    for (const std::string& n : a.notes) out << "  * " << n << "\n";
  }
  if (!any_note) out << "\nNo disagreement beyond 1e-6 m.\n";
  if (opt.indep) {
    if (indep.failures.empty())
      out << "\nFCL GST_INDEP: no configuration aborted or hung.\n";
    else {
      out << "\nFCL GST_INDEP failures (each in a forked child; the configuration is left out of its rows):\n\n";
      for (const std::string& f : indep.failures) out << "* " << f << "\n";
    }
  }

  // ------------------------------------------------------- clutter --
  const std::size_t clutter_configs = std::min<std::size_t>(opt.configs, 300);
  // The base link: the first link with geometry (it hangs from the root by
  // fixed joints, so any joint vector places it).
  Transform base = Transform::identity();
  {
    const std::vector<Transform> at_zero = forward_kinematics(model, std::vector<double>(dof, 0.0));
    for (std::size_t i = 0; i < at_zero.size(); ++i)
      if (checker.geometry().has_geometry(static_cast<int>(i))) {
        base = at_zero[i];
        break;
      }
  }
  if (clutter_configs > 0) {
    out << "\nClutter: the robot among about N cubic voxels on a floor just below its base, two walls and a table "
           "top in its reach (a voxelised depth image's kind of scene, in the base link's frame; the cube size "
           "follows from N), "
        << clutter_configs
        << " random configurations per N (seed " << opt.seed
        << " + N). Median µs per query after the pose update (not timed on either side). Plain: `Environment` "
           "(poses checked and boxes computed on every call, every object looked at); prepared: "
           "`PreparedEnvironment` (boxes and a hierarchy made once); FCL: the objects in a "
           "DynamicAABBTreeCollisionManager, asked per link object. Set-up: building the PreparedEnvironment / "
           "registering the objects and setup() in FCL's manager, once per scene.\n\n";
    std::vector<std::vector<std::string>> ct;
    ct.push_back({"objects", "query", "plain", "prepared", "FCL", "plain / prepared", "FCL / prepared", "agreement",
                  "set-up ms (prepared / FCL)"});
    for (const std::size_t n : {std::size_t{100}, std::size_t{1000}, std::size_t{10000}}) {
      const ClutterRow r = run_clutter(checker, frobot, n, clutter_configs, opt.seed + n, base);
      const double cp = median_of(r.col_plain), cq = median_of(r.col_prepared), cf = median_of(r.col_fcl);
      const double dp = median_of(r.dist_plain), dq = median_of(r.dist_prepared), df = median_of(r.dist_fcl);
      const std::string setup = fmt(r.prepare_ms, 2) + " / " + fmt(r.fcl_setup_ms, 2);
      ct.push_back({std::to_string(r.objects), "collision", fmt(cp, 2), fmt(cq, 2), fmt(cf, 2), fmt(cp / cq, 1) + "x",
                    fmt(cf / cq, 1) + "x",
                    std::to_string(r.configs - r.col_disagree_plain) + "/" + std::to_string(r.configs) +
                        " pair sets as plain; " + std::to_string(r.configs - r.col_disagree_fcl) + "/" +
                        std::to_string(r.configs) + " answers as FCL (" + std::to_string(r.colliding) + " colliding)",
                    setup});
      const std::string plain_note =
          r.plain_distance_configs < r.configs ? " (plain timed on " + std::to_string(r.plain_distance_configs) + ")" : "";
      ct.push_back({std::to_string(r.objects), "distance", fmt(dp, 2) + plain_note, fmt(dq, 2), fmt(df, 2),
                    fmt(dp / dq, 1) + "x", fmt(df / dq, 1) + "x",
                    std::to_string(r.plain_distance_configs - r.dist_disagree_plain) + "/" +
                        std::to_string(r.plain_distance_configs) + " bit-equal to plain; " +
                        std::to_string(r.configs - r.dist_fcl_beyond) + "/" + std::to_string(r.configs) +
                        " within 1e-6 m of FCL" +
                        (r.dist_fcl_beyond > 0 ? " (max |Δ| " + sci(r.max_fcl_gap) + " m; oracle: Proxima right " +
                                                     std::to_string(r.oracle_ours) + ", FCL right " +
                                                     std::to_string(r.oracle_fcl) + ")"
                                               : std::string()),
                    setup});
    }
    print_table(ct, opt.markdown, out, {true, false, true, true, true, true, true, false, false});
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    if (argc > 1 && std::string(argv[1]) == "closed-loop") return proxima::bench::closed_loop_main(argc - 1, argv + 1);
    const Options opt = parse_args(argc, argv);
    return run(opt);
  } catch (const std::exception& e) {
    std::cerr << "proxima-robot-bench: " << e.what() << "\n";
    return 1;
  }
}
