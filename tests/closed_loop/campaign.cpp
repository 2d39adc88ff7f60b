// SPDX-License-Identifier: BSD-3-Clause
#include "campaign.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <mutex>
#include <numbers>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <thread>

#include <Eigen/Dense>

#include <proxima/robot/kinematics.hpp>
#include <proxima/robot/planning_scene.hpp>
#include <proxima/robot/scene_watchdog.hpp>
#include <proxima/robot/urdf.hpp>
#include <proxima/shape/box.hpp>
#include <proxima/shape/cylinder.hpp>

#include "closed_loop.hpp"

namespace proxima::robot::closed_loop {

const char* to_string(JogKind k) {
  switch (k) {
    case JogKind::one_joint:
      return "one joint";
    case JogKind::joint_direction:
      return "joint direction";
    case JogKind::cartesian:
      return "Cartesian";
  }
  return "?";
}

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

/// A robot of tests/data/robots: its checker (immutable, shared by the
/// threads), its geometry as the judge sees it, the jogged joints and the
/// tool link.
struct RobotCell {
  std::string name, tool;
  int tool_link = -1;
  std::unique_ptr<SceneChecker> checker;
  std::unique_ptr<IndependentRobot> judge;
  std::vector<std::size_t> arm;  ///< the variables a jog moves
  std::vector<double> lower, upper;
};

struct SceneCell {
  std::string name;
  Environment env;
  std::vector<Obstacle> obstacles;
};

struct Setup {
  std::vector<RobotCell> robots;
  std::vector<std::vector<SceneCell>> scenes;  ///< per robot
};

RobotCell load_robot(const fs::path& robots_dir, const std::string& name, const std::vector<std::string>& arm,
                     const std::string& tool) {
  const fs::path dir = robots_dir / name;
  const RobotModel m = load_urdf(dir / (name + ".urdf"));
  AllowedCollisionMatrix acm = AllowedCollisionMatrix::adjacent(m);
  apply_srdf(m, dir / (name + ".srdf"), acm);
  GeometryOptions g;
  g.mesh_mode = MeshMode::convex_hull;
  RobotCell c;
  c.name = name;
  c.tool = tool;
  c.checker = std::make_unique<SceneChecker>(RobotGeometry(m, g), acm);
  c.judge = std::make_unique<IndependentRobot>(*c.checker);
  const RobotModel& model = c.checker->model();
  c.tool_link = model.link_index(tool);
  if (c.tool_link < 0) throw std::runtime_error(name + ": no link " + tool);
  const std::vector<std::string> names = model.variable_names();
  for (const std::string& a : arm) {
    const auto at = std::find(names.begin(), names.end(), a);
    if (at == names.end()) throw std::runtime_error(name + ": no joint variable " + a);
    const auto v = static_cast<std::size_t>(at - names.begin());
    const Joint& j = model.joint(model.variable_joint(v));
    if (j.type != JointType::revolute || !std::isfinite(j.lower) || !std::isfinite(j.upper))
      throw std::runtime_error(name + ": " + a + " is not a revolute joint with finite limits");
    if (!c.judge->moves(v, c.tool_link)) throw std::runtime_error(name + ": " + a + " does not move " + tool);
    c.arm.push_back(v);
  }
  for (std::size_t v = 0; v < model.variable_count(); ++v) {
    const Joint& j = model.joint(model.variable_joint(v));
    c.lower.push_back(j.lower);
    c.upper.push_back(j.upper);
  }
  return c;
}

// The judge takes boxes and cylinders (the shipped scenes' primitives).
Environment scene_environment(const fs::path& file) {
  Environment env = read_planning_scene(file).environment;
  for (const EnvironmentObject& o : env.objects) {
    const auto* s = std::get_if<Shape>(&o.geometry);
    if (!s || (s->type() != ShapeType::box && s->type() != ShapeType::cylinder))
      throw std::runtime_error(file.string() + ": " + o.name + " is not a box or a cylinder (the judge takes those)");
  }
  return env;
}

std::vector<SceneCell> load_scenes(const fs::path& dir) {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string stem = e.path().stem().string();
    if (e.path().extension() == ".yaml" && stem.find("_scene") != std::string::npos) files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  if (files.empty()) throw std::runtime_error(dir.string() + ": no *_scene*.yaml");
  std::vector<SceneCell> out;
  for (const fs::path& f : files) {
    SceneCell s;
    s.name = f.stem().string();
    s.env = scene_environment(f);
    s.obstacles = obstacles_of(s.env);
    out.push_back(std::move(s));
  }
  return out;
}

Setup load_setup(const fs::path& robots_dir) {
  Setup s;
  s.robots.push_back(load_robot(robots_dir, "panda",
                                {"panda_joint1", "panda_joint2", "panda_joint3", "panda_joint4", "panda_joint5",
                                 "panda_joint6", "panda_joint7"},
                                "panda_hand"));
  s.robots.push_back(load_robot(robots_dir, "ur5",
                                {"shoulder_pan_joint", "shoulder_lift_joint", "elbow_joint", "wrist_1_joint",
                                 "wrist_2_joint", "wrist_3_joint"},
                                "tool0"));
  for (const RobotCell& r : s.robots) s.scenes.push_back(load_scenes(robots_dir / r.name / "scenes"));
  return s;
}

// Run k's generator: the campaign seed and k mixed (splitmix64), so that
// neighbouring runs and seeds draw unrelated streams.
unsigned run_seed(unsigned long seed, int index) {
  std::uint64_t z = static_cast<std::uint64_t>(seed) * 0x9E3779B97F4A7C15ull + static_cast<std::uint64_t>(index);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return static_cast<unsigned>((z ^ (z >> 31)) & 0xFFFFFFFFu);
}

std::size_t pick(testing::Rng& rng, std::size_t n) {
  return std::min(n - 1, static_cast<std::size_t>(rng.uniform(0.0, static_cast<double>(n))));
}

// Scales the arm's entries of v so that the fastest moves at `speed`.
void scale_to(std::vector<double>& v, const std::vector<std::size_t>& arm, double speed) {
  double top = 0.0;
  for (const std::size_t a : arm) top = std::max(top, std::abs(v[a]));
  if (top > 0.0)
    for (const std::size_t a : arm) v[a] *= speed / top;
}

// The Cartesian jog: the tool frame's origin along `direction` with its
// orientation held, by damped least squares on the geometric Jacobian of
// the arm's (revolute) joints at q.
Jog cartesian_jog(const RobotCell& robot, const Vec3& direction, double speed) {
  return [&robot, direction, speed](std::span<const double> q, std::span<double> velocity) {
    const RobotModel& m = robot.checker->model();
    const std::vector<Transform> links = forward_kinematics(m, q);
    const Vec3 tool = links[static_cast<std::size_t>(robot.tool_link)].p;
    const auto n = static_cast<Eigen::Index>(robot.arm.size());
    Eigen::MatrixXd jac(6, n);
    for (Eigen::Index k = 0; k < n; ++k) {
      const Joint& j = m.joint(m.variable_joint(robot.arm[static_cast<std::size_t>(k)]));
      const Transform& frame = links[static_cast<std::size_t>(j.child_link)];
      const Vec3 w = (frame.R * j.axis).normalized();
      jac.block<3, 1>(0, k) = w.cross(tool - frame.p);
      jac.block<3, 1>(3, k) = w;
    }
    Eigen::Matrix<double, 6, 1> twist;
    twist << direction, Vec3::Zero();
    constexpr double damping = 0.05;
    const Eigen::Matrix<double, 6, 6> jjt = jac * jac.transpose() + damping * damping * Eigen::Matrix<double, 6, 6>::Identity();
    const Eigen::VectorXd qd = jac.transpose() * jjt.ldlt().solve(twist);
    // The line leaves the arm's reach (or a singularity holds it) when the
    // tool would move at under a tenth of the speed asked or over 25° off
    // the line: the jog ends there instead of thrashing at full joint speed.
    const Vec3 moved = jac.topRows<3>() * qd;
    if (moved.dot(direction) < 0.1 || moved.dot(direction) < 0.9 * moved.norm()) return false;
    std::vector<double> v(velocity.size(), 0.0);
    for (Eigen::Index k = 0; k < n; ++k) v[robot.arm[static_cast<std::size_t>(k)]] = qd[k];
    scale_to(v, robot.arm, speed);
    std::copy(v.begin(), v.end(), velocity.begin());
    return true;
  };
}

/// A worker's own state: the watchdog's clearance channels per robot and
/// scene, made on first use (they hold prepared environments and scratch).
struct Worker {
  std::vector<std::vector<std::optional<SceneClearances>>> channels;
};

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

RunRecord one_run(const Setup& setup, Worker& worker, const CampaignOptions& o, int index) {
  const Clock::time_point start = Clock::now();
  RunRecord rec;
  rec.index = index;
  testing::Rng rng(run_seed(o.seed, index));
  // Robot and jog kind in turn, so that any stretch of runs covers all six.
  const std::size_t ri = static_cast<std::size_t>(index) % setup.robots.size();
  rec.jog = static_cast<JogKind>((index / static_cast<int>(setup.robots.size())) % kJogKinds);
  const RobotCell& robot = setup.robots[ri];
  rec.robot = robot.name;
  try {
    const std::size_t si = pick(rng, setup.scenes[ri].size());
    const SceneCell& scene = setup.scenes[ri][si];
    rec.scene = scene.name;
    const bool with_tool = rng.uniform(0.0, 1.0) < 0.5;
    rec.tool = with_tool ? robot.tool : "";
    // Uniform in 0.05–2 rad/s: the fast end is where the bound is widest
    // apart from stop_distance and the slow end where a run takes longest
    // (a log-uniform draw would spend most of the campaign's time crawling).
    rec.speed = rng.uniform(0.05, 2.0);
    rec.delay = rng.uniform(0.0, 1.0) < 0.5 ? 0 : 1;
    rec.period = rng.uniform(0.004, 0.032);
    rec.drop = rng.uniform(0.0, 1.0) < 0.25 ? rng.uniform(0.02, 0.1) : 0.0;

    const SceneChecker& checker = *robot.checker;
    const std::size_t dof = checker.model().variable_count();
    const double stop = o.watchdog.stop_distance;
    std::vector<double> q(dof);
    for (;;) {
      if (++rec.start_draws > 100000) throw std::runtime_error("no clear start in 100000 draws");
      for (std::size_t j = 0; j < dof; ++j) q[j] = rng.uniform(robot.lower[j], robot.upper[j]);
      if (checker.self_collision(checker.state(q)).collide()) continue;
      if (robot.judge->clearance(q, scene.obstacles, stop + o.start_margin) >= stop + o.start_margin) break;
    }

    Jog jog;
    std::vector<double> velocity(dof, 0.0);
    if (rec.jog == JogKind::one_joint) {
      const std::size_t j = robot.arm[pick(rng, robot.arm.size())];
      const double sign = rng.uniform(0.0, 1.0) < 0.5 ? -1.0 : 1.0;
      velocity[j] = sign * rec.speed;
      rec.jog_detail = checker.model().variable_names()[j] + (sign > 0 ? " +" : " -");
    } else if (rec.jog == JogKind::joint_direction) {
      for (const std::size_t a : robot.arm) velocity[a] = rng.normal();
      scale_to(velocity, robot.arm, rec.speed);
      rec.jog_detail = "random direction";
    }
    if (rec.jog == JogKind::cartesian) {
      const Vec3 d = rng.unit_vector();
      jog = cartesian_jog(robot, d, rec.speed);
      rec.jog_detail = "tool along (" + fmt("%.3f", d.x()) + " " + fmt("%.3f", d.y()) + " " + fmt("%.3f", d.z()) + ")";
    } else {
      jog = [velocity](std::span<const double>, std::span<double> out) {
        std::copy(velocity.begin(), velocity.end(), out.begin());
        return true;
      };
    }

    auto& slot = worker.channels[ri][si];
    if (!slot) slot = scene_clearances(checker, scene.env, {.exact_within = largest_warn_distance(o.watchdog, {})});
    const SceneClearances& channels = *slot;
    // As `proxima watch` sets it up: pairs of links resting close. The feed
    // is not checked against the URDF's velocity limits: the campaign's
    // jogs go to 2 rad/s, beyond the shipped UR5's 0.5 rad/s.
    WatchdogOptions options = o.watchdog;
    options.channels = scene_thresholds(channels, options);
    Watchdog dog(dof, channels.channels, channels.fn, options, {},
                 with_tool ? link_kinematics(checker.model(), robot.tool) : ToolKinematics{});
    Controller ctl;
    ctl.period = rec.period;
    ctl.jitter = 0.25;
    ctl.drop = rec.drop;
    ctl.delay = rec.delay;
    ctl.give_up = o.give_up;
    // Exact (the oracle) below the stop distance: the bound lies below it,
    // so a lower bound at or above it settles both checks.
    const RunResult r = run(dog, q, jog, robot.lower, robot.upper, ctl, rng, *robot.judge, scene.obstacles, stop, stop);
    rec.stopped = r.stopped;
    rec.at_limit = r.at_limit;
    rec.jog_ended = r.jog_ended;
    rec.gave_up = r.gave_up;
    rec.held = r.held;
    rec.time = r.time;
    rec.samples = r.samples;
    rec.dropped = r.dropped;
    rec.first_stop = r.first.level == WatchdogLevel::stop;
    rec.first_channel = channels.names[static_cast<std::size_t>(r.first.channel)];
    rec.stop_channel = channels.names[static_cast<std::size_t>(r.last.channel)];
    rec.last_factor = r.last.speed_factor;
    rec.last_level = r.last.level;
    rec.start_clearance = r.start_clearance;
    rec.lowest = r.lowest;
    rec.lowest_between = r.lowest_between;
    if (r.lowest_obstacle >= 0) {
      const Obstacle& near = scene.obstacles[static_cast<std::size_t>(r.lowest_obstacle)];
      rec.lowest_obstacle = near.name;
      rec.lowest_excess = near.excess;
    }
    // The final clearance exactly up to 5 cm (stop clearances reported).
    rec.final_clearance = robot.judge->clearance(r.q, scene.obstacles, 0.05);
    rec.speed_bound = r.speed_bound;
    rec.longest_interval = r.longest_interval;
    rec.bound = stop - (1 + rec.delay) * r.speed_bound * r.longest_interval;
  } catch (const std::exception& e) {
    rec.error = e.what();
  }
  rec.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return rec;
}

}  // namespace

CampaignResult run_campaign(const CampaignOptions& o) {
  if (o.runs < 1) throw std::invalid_argument("runs must be at least 1");
  if (o.threads < 1) throw std::invalid_argument("threads must be at least 1");
  if (!(o.give_up > 0.0)) throw std::invalid_argument("give_up must be positive");
  if (!(o.start_margin >= 0.0)) throw std::invalid_argument("start_margin must be >= 0");
  if (!(o.wall_limit >= 0.0)) throw std::invalid_argument("wall_limit must be >= 0");
  const Clock::time_point start = Clock::now();
  const Setup setup = load_setup(o.robots_dir);
  CampaignResult result;
  result.runs.resize(static_cast<std::size_t>(o.runs));
  std::mutex taking;
  int next = 0;
  // The next run's index, or −1 when the campaign is done or out of time
  // (taken under a lock, so the runs taken are always 0 … next−1).
  auto take = [&]() {
    const std::lock_guard<std::mutex> lock(taking);
    const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    if (next >= o.runs || (o.wall_limit > 0.0 && elapsed > o.wall_limit)) return -1;
    return next++;
  };
  auto work = [&]() {
    Worker w;
    for (const auto& scenes : setup.scenes) w.channels.emplace_back(scenes.size());
    for (int k = take(); k >= 0; k = take()) result.runs[static_cast<std::size_t>(k)] = one_run(setup, w, o, k);
  };
  const int threads = std::min(o.threads, o.runs);
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
  result.runs.resize(static_cast<std::size_t>(next));
  result.wall_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return result;
}

}  // namespace proxima::robot::closed_loop
