// SPDX-License-Identifier: BSD-3-Clause
// proxima-toi-bench: continuous collision — the first time in [0, 1] at which
// two convex bodies moving between two poses touch — beside FCL 0.7's
// continuousCollide and Bullet's convex casts, on the same shapes and the
// same motions, each judged against ground truth that shares no code with
// Proxima's time_of_impact.
//
// The motion, per body: origin p0 + t·dp, rotation AngleAxis(t·θ, axis)·R0
// with θ ≤ 2.5 rad < π. Proxima's RigidMotion::between(start, end) and FCL's
// InterpMotion with the body origin as reference point (a constant world
// angular velocity about it, Eigen's shorter-way axis-angle) both describe
// it; the program measures how far each library's interpolated poses stray
// from it and prints that. FCL's own continuousCollide(tf…, CCDM_LINEAR)
// does not: it leaves InterpMotion's reference point uninitialised (see
// FclMethod), so the FCL rows pass motions built with the reference point
// set. Bullet does not follow it once bodies turn:
// btContinuousConvexCollision interpolates with
// btTransformUtil::integrateTransform, which clamps the turn to π/4, and
// btGjkConvexCast / btSubsimplexConvexCast move the origins only. Bullet
// rows (and FCL's TranslationMotion, CCDM_TRANS) therefore run only where
// their swept volumes equal ours: translation-only workloads, and turning
// spheres, whose turning changes nothing they occupy. Elsewhere the row says
// "unsupported" with the measured gap.
//
// Ground truth: sphere–sphere in closed form (a quadratic in t). The other
// pairs through Proxima's exact, separately tested distance() at the poses
// of the motion as defined above (never through RigidMotion), on a
// 2,000-step grid; between two samples the distance can drop no faster than
// L = |dp_A − dp_B| + θ_A r_A + θ_B r_B per unit t (r: farthest point from
// the origin), so an interval whose samples do not rule contact out is
// halved until they do, or until the first contact is pinned to 1e-12 in t.
// No contact is missed between samples, however brief.
//
// Motions that start closer than 1 mm, and motions that miss by less than
// 1e-5 m (where "collides" depends on each library's tolerance rather than
// on its correctness), are drawn again; the count is printed.
//
// Usage: proxima-toi-bench [--poses N] [--repeats R] [--seed S] [--markdown] [--quiet]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <functional>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <proxima/query.hpp>

#include "arguments.hpp"
#include "draws.hpp"
#include "progress.hpp"
#include "report.hpp"
#include "peers/timing.hpp"

#ifdef PROXIMA_HAVE_PEERS
#include <BulletCollision/CollisionShapes/btBoxShape.h>
#include <BulletCollision/CollisionShapes/btCapsuleShape.h>
#include <BulletCollision/CollisionShapes/btConvexHullShape.h>
#include <BulletCollision/CollisionShapes/btSphereShape.h>
#include <BulletCollision/NarrowPhaseCollision/btContinuousConvexCollision.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkConvexCast.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkEpaPenetrationDepthSolver.h>
#include <BulletCollision/NarrowPhaseCollision/btSubSimplexConvexCast.h>
#include <BulletCollision/NarrowPhaseCollision/btVoronoiSimplexSolver.h>
#include <LinearMath/btTransformUtil.h>
#include <fcl/config.h>
#include <fcl/fcl.h>

#include "fcl_convex.hpp"
#include "peers/peers.hpp"
#endif

namespace {

namespace pb = proxima::bench;
using proxima::bench::machine_name;
using proxima::bench::print_table;
using proxima::Mat3;
using proxima::Shape;
using proxima::ShapeType;
using proxima::Transform;
using proxima::Vec3;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
/// A method's answer "no contact in [0, 1]"; NaN stands for a failed query.
constexpr double kNoHit = 2.0;
/// A reported time later than the true one by more than this is a miss:
/// the bodies were already touching.
constexpr double kLate = 1e-6;
constexpr double kNearMiss = 1e-5;
constexpr double kMinStartGap = 1e-3;
constexpr int kGrid = 2000;
/// Interpolated poses farther than this from the motion count as another motion.
constexpr double kSameMotion = 1e-9;

struct Options {
  int poses = 1000;
  int repeats = 5;
  unsigned seed = 20261201;
  bool markdown = false;
  bool progress = true;  ///< a progress line on stderr when it is a terminal (--quiet: none)
};

// ---------------------------------------------------------------- motions --

struct BodyMotion {
  Mat3 r0 = Mat3::Identity();
  Vec3 p0 = Vec3::Zero();
  Vec3 dp = Vec3::Zero();
  Vec3 axis = Vec3::UnitZ();
  double angle = 0.0;
  Transform at(double t) const { return {Mat3(Eigen::AngleAxisd(t * angle, axis) * r0), p0 + t * dp}; }
};

struct Motion {
  BodyMotion a, b;
};

struct Truth {
  bool hit = false;
  double time = kNoHit;
};

struct Workload {
  Workload(std::string n, Shape sa, Shape sb) : name(std::move(n)), a(std::move(sa)), b(std::move(sb)) {}
  std::string name;
  Shape a, b;
  double reach_a = 0.0, reach_b = 0.0;  ///< farthest point of each shape from its origin
  bool rotating = false;
  std::vector<Motion> motions;
  std::vector<Truth> truth;
  int redrawn = 0;
  const char* oracle = "";
  // Start and end poses, computed once so no timed loop pays for them.
  std::vector<Transform> a0, a1, b0, b1;

  bool spheres() const { return a.type() == ShapeType::sphere && b.type() == ShapeType::sphere; }
  /// Whether a motion model that keeps the start rotation sweeps other volumes.
  bool turning_matters() const { return rotating && !spheres(); }
};

// One draw per statement (bench/draws.hpp): the sequence is then the same
// under every compiler.
class Draws {
 public:
  explicit Draws(unsigned seed) : g_(seed) {}
  double uniform(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(g_); }
  Vec3 cube(double half) {
    std::uniform_real_distribution<double> d(-half, half);
    return pb::draw_vec3(d, g_);
  }
  Vec3 unit() {
    std::normal_distribution<double> n;
    for (;;) {
      const Vec3 v = pb::draw_vec3(n, g_);
      if (v.norm() > 1e-6) return v.normalized();
    }
  }
  Mat3 rotation() {
    std::normal_distribution<double> n;
    for (;;) {
      const proxima::Quat q = pb::draw_quat(n, g_);
      if (q.norm() > 1e-6) return q.normalized().toRotationMatrix();
    }
  }

 private:
  std::mt19937 g_;
};

// B wanders near the origin; A starts 1–1.6 m away and either heads for
// where B will be at t = 0.5, give or take 0.1 m per axis (at most 0.17 m,
// less than the two shapes' inscribed radii together, so it collides), or
// for a random point as far out (which may or may not collide).
Motion draw_motion(Draws& d, bool rotating, bool aimed) {
  Motion m;
  m.b.p0 = d.cube(0.2);
  m.b.dp = d.cube(0.4);
  const double start = d.uniform(1.0, 1.6);
  m.a.p0 = start * d.unit();
  if (aimed) {
    const Vec3 off = d.cube(0.1);
    const Vec3 target = m.b.p0 + 0.5 * m.b.dp + off;
    m.a.dp = 2.0 * (target - m.a.p0);
  } else {
    const double end = d.uniform(1.0, 1.6);
    m.a.dp = end * d.unit() - m.a.p0;
  }
  for (BodyMotion* body : {&m.a, &m.b}) {
    body->r0 = d.rotation();
    body->axis = d.unit();
    const double angle = d.uniform(0.0, 2.5);
    body->angle = rotating ? angle : 0.0;
  }
  return m;
}

double reach(const Shape& s) {
  switch (s.type()) {
    case ShapeType::sphere: return s.as<proxima::Sphere>().radius();
    case ShapeType::box: return s.as<proxima::Box>().half_extents().norm();
    case ShapeType::capsule: {
      const auto& c = s.as<proxima::Capsule>();
      return c.radius() + c.half_length();
    }
    case ShapeType::convex: {
      double r = 0.0;
      for (const Vec3& v : s.as<proxima::ConvexPolytope>().vertices()) r = std::max(r, v.norm());
      return r;
    }
    default: throw std::logic_error("toi bench: no reach for a " + std::string(s.name()));
  }
}

// ----------------------------------------------------------- ground truth --

double gap(const Workload& w, const Motion& m, double t) {
  const proxima::DistanceResult r = proxima::distance(w.a, m.a.at(t), w.b, m.b.at(t));
  if (r.status != proxima::Status::ok)
    throw std::runtime_error("toi bench: distance() failed on " + w.name + " (status " +
                             std::to_string(static_cast<int>(r.status)) + ")");
  return r.distance;
}

// Sphere centres move linearly whatever the spheres' turning:
// |c + t v| = R is a quadratic in t.
Truth sphere_truth(const Workload& w, const Motion& m, bool& near) {
  const double radius = w.a.as<proxima::Sphere>().radius() + w.b.as<proxima::Sphere>().radius();
  const Vec3 c = m.a.p0 - m.b.p0;
  const Vec3 v = m.a.dp - m.b.dp;
  const double qa = v.squaredNorm(), qb = c.dot(v), qc = c.squaredNorm() - radius * radius;
  const double closest = qa > 0.0 ? std::clamp(-qb / qa, 0.0, 1.0) : 0.0;
  near = (c + closest * v).norm() - radius <= kNearMiss;
  const double disc = qb * qb - qa * qc;
  if (qc <= 0.0) return {true, 0.0};
  if (qa == 0.0 || qb >= 0.0 || disc < 0.0) return {};
  const double t = qc / (-qb + std::sqrt(disc));  // the smaller root, without cancellation
  if (t > 1.0) return {};
  return {true, t};
}

class GridTruth {
 public:
  GridTruth(const Workload& w, const Motion& m)
      : w_(w), m_(m),
        lipschitz_((m.a.dp - m.b.dp).norm() + m.a.angle * w.reach_a + m.b.angle * w.reach_b) {}

  Truth find() {
    double prev = gap(w_, m_, 0.0);
    if (prev <= 0.0) return {true, 0.0};
    for (int k = 1; k <= kGrid; ++k) {
      const double lo = static_cast<double>(k - 1) / kGrid, hi = static_cast<double>(k) / kGrid;
      const double next = gap(w_, m_, hi);
      if (const std::optional<double> t = scan(lo, hi, prev, next)) return {true, *t};
      prev = next;
    }
    return {};
  }
  /// Somewhere the distance came within kNearMiss (or could not be shown not to).
  bool near() const { return near_; }

 private:
  // The first time in [lo, hi] with distance ≤ 0, given the distances at the ends.
  std::optional<double> scan(double lo, double hi, double dlo, double dhi) {
    const double h = hi - lo;
    if (dhi <= 0.0 && h < 1e-12) return hi;
    if (std::min(dlo, dhi) <= kNearMiss) near_ = true;
    const double floor = std::min({dlo, dhi, 0.5 * (dlo + dhi - lipschitz_ * h)});
    if (floor > kNearMiss || (floor > 0.0 && near_)) return std::nullopt;
    if (h < 1e-12) {
      near_ = true;  // within ~1e-12·L of touching: left to the near-miss rule
      return std::nullopt;
    }
    const double mid = lo + 0.5 * h;
    const double dmid = gap(w_, m_, mid);
    if (const std::optional<double> t = scan(lo, mid, dlo, dmid)) return t;
    return scan(mid, hi, dmid, dhi);
  }

  const Workload& w_;
  const Motion& m_;
  double lipschitz_;
  bool near_ = false;
};

Workload make_workload(std::string name, Shape a, Shape b, bool rotating, int count, unsigned seed) {
  Workload w(std::move(name), std::move(a), std::move(b));
  w.reach_a = reach(w.a);
  w.reach_b = reach(w.b);
  w.rotating = rotating;
  w.oracle = w.spheres() ? "closed form (quadratic in t)"
                         : "distance() on a 2,000-step grid, halved until the Lipschitz bound decides";
  Draws d(seed);
  while (static_cast<int>(w.motions.size()) < count) {
    const Motion m = draw_motion(d, rotating, w.motions.size() % 2 == 0);
    bool near = false;
    Truth truth;
    if (gap(w, m, 0.0) < kMinStartGap) {
      ++w.redrawn;
      continue;
    }
    if (w.spheres()) {
      truth = sphere_truth(w, m, near);
    } else {
      GridTruth g(w, m);
      truth = g.find();
      near = g.near();
    }
    if (!truth.hit && near) {
      ++w.redrawn;
      continue;
    }
    w.motions.push_back(m);
    w.truth.push_back(truth);
    w.a0.push_back(m.a.at(0.0));
    w.a1.push_back(m.a.at(1.0));
    w.b0.push_back(m.b.at(0.0));
    w.b1.push_back(m.b.at(1.0));
  }
  return w;
}

// The eight workloads (four pairs, translating and turning); `before`, when
// given, is called with each one's name before its motions and ground truth
// are made (the progress line).
constexpr std::size_t kWorkloads = 8;
std::vector<Workload> make_workloads(int count, unsigned seed,
                                     const std::function<void(const std::string&)>& before = {}) {
  // Polytope: the hull of 200 points on a sphere of radius 0.4 (all on the hull).
  Draws d(seed);
  std::vector<Vec3> points;
  for (int i = 0; i < 200; ++i) {
    const Vec3 u = d.unit();
    points.push_back(0.4 * u);
  }
  const proxima::ConvexPolytope hull(points);
  struct Pair {
    const char* name;
    Shape a, b;
  };
  const std::vector<Pair> pairs = {
      {"sphere–sphere", proxima::Sphere(0.25), proxima::Sphere(0.35)},
      {"box–box", proxima::Box(0.6, 0.4, 0.2), proxima::Box(0.5, 0.5, 0.5)},
      {"capsule–capsule", proxima::Capsule(0.1, 0.6), proxima::Capsule(0.15, 0.4)},
      {"polytope (200) – capsule", hull, proxima::Capsule(0.1, 0.5)},
  };
  std::vector<Workload> out;
  unsigned k = 1;
  for (const Pair& p : pairs) {
    for (bool rotating : {false, true}) {
      const std::string name = std::string(p.name) + (rotating ? ", turning ≤ 2.5 rad" : ", translation");
      if (before) before(name);
      out.push_back(make_workload(name, p.a, p.b, rotating, count, seed + 101 * k++));
    }
  }
  if (out.size() != kWorkloads) throw std::logic_error("toi bench: kWorkloads is not the workloads' count");
  return out;
}

// ------------------------------------------------------------ measurement --

// PeerCell carries one reported time per motion in `distances`: the time of
// first contact, kNoHit, or NaN for a failed query.
template <class Query>
pb::PeerCell measure(std::size_t count, int repeats, Query&& query) {
  using clock = std::chrono::steady_clock;
  pb::PeerCell cell;
  cell.distances.assign(count, kNaN);
  std::vector<double> times;
  for (std::size_t i = 0; i < count; ++i) {
    try {
      const double t = query(i);
      if (!std::isfinite(t)) {
        ++cell.failures;
        continue;
      }
      const auto start = clock::now();
      for (int r = 0; r < repeats; ++r) pb::detail::keep(query(i));
      times.push_back(std::chrono::duration<double, std::nano>(clock::now() - start).count() / repeats);
      cell.distances[i] = t;
    } catch (const std::exception& e) {
      ++cell.failures;
      if (cell.note.empty()) cell.note = std::string("threw: ") + e.what();
    }
  }
  cell.median_ns = pb::detail::median(std::move(times));
  return cell;
}

pb::PeerCell unsupported(std::size_t count, std::string why) {
  pb::PeerCell cell;
  cell.supported = false;
  cell.note = std::move(why);
  cell.distances.assign(count, kNaN);
  return cell;
}

pb::PeerCell run_proxima(const Workload& w, int repeats) {
  int not_converged = 0;
  pb::PeerCell cell = measure(w.motions.size(), repeats, [&](std::size_t i) {
    const proxima::TimeOfImpactResult r = proxima::time_of_impact(w.a, w.a0[i], w.a1[i], w.b, w.b0[i], w.b1[i]);
    if (r.status == proxima::Status::not_converged) {
      ++not_converged;  // collide is true and the time a lower bound: kept as the answer
    } else if (r.status != proxima::Status::ok) {
      return kNaN;
    }
    return r.collide ? r.time : kNoHit;
  });
  if (not_converged > 0) pb::detail::append_note(cell, "status not_converged on some calls");
  return cell;
}

// How far an interpolation strays from the motion: over t = 0.1, 0.2, …, 1
// and both bodies, the largest |Δp| + reach · (angle of ΔR), an upper bound
// on how far any point of the body lands from where it should be.
template <class PoseAt>
double motion_gap(const Workload& w, std::size_t i, PoseAt&& pose_at) {
  double worst = 0.0;
  for (int body = 0; body < 2; ++body) {
    const BodyMotion& m = body == 0 ? w.motions[i].a : w.motions[i].b;
    const double r = body == 0 ? w.reach_a : w.reach_b;
    for (int k = 1; k <= 10; ++k) {
      const double t = 0.1 * k;
      const Transform want = m.at(t), got = pose_at(body, t);
      const double angle = Eigen::AngleAxisd(Mat3(got.R * want.R.transpose())).angle();
      worst = std::max(worst, (got.p - want.p).norm() + r * std::abs(angle));
    }
  }
  return worst;
}

struct MotionCheck {
  double worst = 0.0;
  int differ = 0;  ///< motions farther than kSameMotion
  void add(double g) {
    worst = std::max(worst, g);
    differ += g > kSameMotion;
  }
  std::string text(std::size_t of) const {
    char buf[96];
    std::snprintf(buf, sizeof buf, "%.1e m (%d of %zu > 1e-9)", worst, differ, of);
    return buf;
  }
};

MotionCheck check_proxima_motion(const Workload& w) {
  MotionCheck c;
  for (std::size_t i = 0; i < w.motions.size(); ++i) {
    const proxima::RigidMotion ma = proxima::RigidMotion::between(w.a0[i], w.a1[i]);
    const proxima::RigidMotion mb = proxima::RigidMotion::between(w.b0[i], w.b1[i]);
    c.add(motion_gap(w, i, [&](int body, double t) { return body == 0 ? ma.at(t) : mb.at(t); }));
  }
  return c;
}

#ifdef PROXIMA_HAVE_PEERS
// ------------------------------------------------------------------- FCL --

fcl::Transform3d to_fcl(const Transform& t) {
  fcl::Transform3d x = fcl::Transform3d::Identity();
  x.linear() = t.R;
  x.translation() = t.p;
  return x;
}

Transform from_fcl(const fcl::Transform3d& x) { return {x.linear(), x.translation()}; }

std::shared_ptr<fcl::CollisionGeometryd> fcl_shape(const Shape& s) {
  switch (s.type()) {
    case ShapeType::sphere: return std::make_shared<fcl::Sphered>(s.as<proxima::Sphere>().radius());
    case ShapeType::box: {
      const Vec3 size = s.as<proxima::Box>().size();
      return std::make_shared<fcl::Boxd>(size.x(), size.y(), size.z());
    }
    case ShapeType::capsule: {
      const auto& c = s.as<proxima::Capsule>();
      return std::make_shared<fcl::Capsuled>(c.radius(), c.length());
    }
    case ShapeType::convex: return proxima::bench::fcl_convex(s.as<proxima::ConvexPolytope>());
    default: throw std::logic_error("toi bench: a " + std::string(s.name()) + " is not mapped to FCL");
  }
}

// FCL 0.7's continuousCollide(…, tf_beg, tf_end, …) with CCDM_LINEAR builds
// InterpMotion(tf1, tf2), which leaves the reference point the body turns
// about uninitialised (fcl PR #662 initialises it): the body turns about
// whatever that memory held, and the motion table shows the gap. The
// constructor that takes the reference point sets it and the velocities, so
// the InterpMotion rows build their motions with it (reference = the body
// origin, our motion) and call continuousCollide's MotionBase overload,
// which is what the tf overload does after building its motions.
struct FclMethod {
  std::string name;
  fcl::CCDSolverType solver;
  bool translation = false;  ///< TranslationMotion (CCDM_TRANS), else InterpMotion about the origin
  fcl::GJKSolverType gjk = fcl::GST_LIBCCD;
  std::size_t steps = 10;  ///< num_max_iterations: the naive solver's sample count
};

const std::vector<FclMethod>& fcl_methods() {
  static const std::vector<FclMethod> methods = {
      {"conservative advancement, GST_LIBCCD, InterpMotion", fcl::CCDC_CONSERVATIVE_ADVANCEMENT},
      {"conservative advancement, GST_INDEP, InterpMotion", fcl::CCDC_CONSERVATIVE_ADVANCEMENT, false, fcl::GST_INDEP},
      {"conservative advancement, GST_LIBCCD, TranslationMotion", fcl::CCDC_CONSERVATIVE_ADVANCEMENT, true},
      {"naive, 10 samples (default), InterpMotion", fcl::CCDC_NAIVE},
      {"naive, 100 samples, InterpMotion", fcl::CCDC_NAIVE, false, fcl::GST_LIBCCD, 100},
      {"ray shooting, TranslationMotion", fcl::CCDC_RAY_SHOOTING, true},
      {"polynomial solver, TranslationMotion", fcl::CCDC_POLYNOMIAL_SOLVER, true},
  };
  return methods;
}

fcl::InterpMotion<double> interp_about_origin(const Transform& from, const Transform& to) {
  return fcl::InterpMotion<double>(from.R, from.p, to.R, to.p, fcl::Vector3d::Zero());
}

// In a child process (pb::run_isolated): FCL's GJK can abort or hang.
pb::PeerCell run_fcl(const Workload& w, int repeats, const FclMethod& method) {
  const std::size_t n = w.motions.size();
  const std::shared_ptr<fcl::CollisionGeometryd> ga = fcl_shape(w.a), gb = fcl_shape(w.b);
  std::vector<fcl::Transform3d> a0, a1, b0, b1;
  for (std::size_t i = 0; i < n; ++i) {
    a0.push_back(to_fcl(w.a0[i]));
    a1.push_back(to_fcl(w.a1[i]));
    b0.push_back(to_fcl(w.b0[i]));
    b1.push_back(to_fcl(w.b1[i]));
  }
  // toc_err 1e-4 (FCL's default) leaves the naive solver at `steps` samples;
  // its conservative advancement for shapes ignores the request (fixed t_err
  // 1e-4). The motion type is read only by the ray-shooting and polynomial
  // branches.
  const fcl::ContinuousCollisionRequestd request(method.steps, 1e-4,
                                                 method.translation ? fcl::CCDM_TRANS : fcl::CCDM_LINEAR, method.gjk,
                                                 method.solver);
  // The motions are built per query, as the tf overload builds them: the
  // solvers leave them at the last time examined.
  auto query = [&](std::size_t i) {
    fcl::ContinuousCollisionResultd result;
    double r = 0.0;
    if (method.translation) {
      const fcl::TranslationMotion<double> ma(a0[i], a1[i]), mb(b0[i], b1[i]);
      r = fcl::continuousCollide<double>(ga.get(), &ma, gb.get(), &mb, request, result);
    } else {
      const fcl::InterpMotion<double> ma = interp_about_origin(w.a0[i], w.a1[i]);
      const fcl::InterpMotion<double> mb = interp_about_origin(w.b0[i], w.b1[i]);
      r = fcl::continuousCollide<double>(ga.get(), &ma, gb.get(), &mb, request, result);
    }
    if (r < 0.0) return kNaN;  // FCL's "not supported"
    return result.is_collide ? result.time_of_contact : kNoHit;
  };
  if (n > 0 && !std::isfinite(query(0)))
    return unsupported(n, "continuousCollide returns −1 for two primitive shapes (see notes)");
  if (method.translation && w.turning_matters())
    return unsupported(n, "TranslationMotion keeps the start rotation: not this motion");
  return measure(n, repeats, query);
}

Transform fcl_pose_at(const fcl::MotionBased& m, double t) {
  m.integrate(t);
  fcl::Transform3d x;
  m.getCurrentTransform(x);
  return from_fcl(x);
}

enum class FclMotion { tf_overload_linear, interp_about_origin, translation };

MotionCheck check_fcl_motion(const Workload& w, FclMotion kind) {
  MotionCheck c;
  for (std::size_t i = 0; i < w.motions.size(); ++i) {
    if (kind == FclMotion::interp_about_origin) {
      const fcl::InterpMotion<double> ma = interp_about_origin(w.a0[i], w.a1[i]);
      const fcl::InterpMotion<double> mb = interp_about_origin(w.b0[i], w.b1[i]);
      c.add(motion_gap(w, i, [&](int body, double t) { return fcl_pose_at(body == 0 ? ma : mb, t); }));
      continue;
    }
    // What continuousCollide(…, tf_beg, tf_end, …) builds for the motion type.
    const fcl::CCDMotionType type = kind == FclMotion::translation ? fcl::CCDM_TRANS : fcl::CCDM_LINEAR;
    const fcl::MotionBasePtr<double> ma = fcl::getMotionBase(to_fcl(w.a0[i]), to_fcl(w.a1[i]), type);
    const fcl::MotionBasePtr<double> mb = fcl::getMotionBase(to_fcl(w.b0[i]), to_fcl(w.b1[i]), type);
    c.add(motion_gap(w, i, [&](int body, double t) { return fcl_pose_at(body == 0 ? *ma : *mb, t); }));
  }
  return c;
}

// ---------------------------------------------------------------- Bullet --

btTransform to_bullet(const Transform& t) {
  const Mat3& r = t.R;
  return btTransform(btMatrix3x3(r(0, 0), r(0, 1), r(0, 2), r(1, 0), r(1, 1), r(1, 2), r(2, 0), r(2, 1), r(2, 2)),
                     btVector3(t.p.x(), t.p.y(), t.p.z()));
}

Transform from_bullet(const btTransform& x) {
  Transform t;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) t.R(r, c) = x.getBasis()[r][c];
  t.p = Vec3(x.getOrigin().x(), x.getOrigin().y(), x.getOrigin().z());
  return t;
}

// Zero margins, except sphere and capsule, whose margin is their radius.
std::unique_ptr<btConvexShape> bullet_shape(const Shape& s) {
  std::unique_ptr<btConvexShape> shape;
  switch (s.type()) {
    case ShapeType::sphere: return std::make_unique<btSphereShape>(s.as<proxima::Sphere>().radius());
    case ShapeType::capsule: {
      const auto& c = s.as<proxima::Capsule>();
      return std::make_unique<btCapsuleShapeZ>(c.radius(), c.length());
    }
    case ShapeType::box: {
      const Vec3 h = s.as<proxima::Box>().half_extents();
      shape = std::make_unique<btBoxShape>(btVector3(h.x(), h.y(), h.z()));
      break;
    }
    case ShapeType::convex: {
      auto hull = std::make_unique<btConvexHullShape>();
      for (const Vec3& v : s.as<proxima::ConvexPolytope>().vertices()) hull->addPoint(btVector3(v.x(), v.y(), v.z()), false);
      hull->recalcLocalAabb();
      shape = std::move(hull);
      break;
    }
    default: throw std::logic_error("toi bench: a " + std::string(s.name()) + " is not mapped to Bullet");
  }
  shape->setMargin(0.0);  // the default 0.04 would inflate a hull and round a box
  return shape;
}

enum class BulletCast { conservative, gjk, subsimplex };

const char* bullet_name(BulletCast c) {
  switch (c) {
    case BulletCast::conservative: return "btContinuousConvexCollision (conservative advancement)";
    case BulletCast::gjk: return "btGjkConvexCast";
    case BulletCast::subsimplex: return "btSubsimplexConvexCast";
  }
  return "?";
}

pb::PeerCell run_bullet(const Workload& w, int repeats, BulletCast kind, const MotionCheck& gap) {
  const std::size_t n = w.motions.size();
  if (w.turning_matters()) {
    return unsupported(n, kind == BulletCast::conservative
                              ? "btTransformUtil's motion is not this one: max gap " + gap.text(n)
                              : std::string("translates only (keeps the start rotation)"));
  }
  const std::unique_ptr<btConvexShape> a = bullet_shape(w.a), b = bullet_shape(w.b);
  std::vector<btTransform> a0, a1, b0, b1;
  for (std::size_t i = 0; i < n; ++i) {
    a0.push_back(to_bullet(w.a0[i]));
    a1.push_back(to_bullet(w.a1[i]));
    b0.push_back(to_bullet(w.b0[i]));
    b1.push_back(to_bullet(w.b1[i]));
  }
  btVoronoiSimplexSolver simplex;
  btGjkEpaPenetrationDepthSolver epa;
  btContinuousConvexCollision conservative(a.get(), b.get(), &simplex, &epa);
  btGjkConvexCast gjk(a.get(), b.get(), &simplex);
  btSubsimplexConvexCast subsimplex(a.get(), b.get(), &simplex);
  btConvexCast* cast = kind == BulletCast::conservative ? static_cast<btConvexCast*>(&conservative)
                       : kind == BulletCast::gjk        ? static_cast<btConvexCast*>(&gjk)
                                                        : static_cast<btConvexCast*>(&subsimplex);
  return measure(n, repeats, [&](std::size_t i) {
    btConvexCast::CastResult result;
    const bool hit = cast->calcTimeOfImpact(a0[i], a1[i], b0[i], b1[i], result);
    // A hit past the end of the motion (the subsimplex cast's last step can
    // overshoot) is no hit in [0, 1].
    return hit && result.m_fraction <= 1.0 ? static_cast<double>(result.m_fraction) : kNoHit;
  });
}

MotionCheck check_bullet_motion(const Workload& w) {
  MotionCheck c;
  for (std::size_t i = 0; i < w.motions.size(); ++i) {
    const btTransform from[2] = {to_bullet(w.a0[i]), to_bullet(w.b0[i])};
    const btTransform to[2] = {to_bullet(w.a1[i]), to_bullet(w.b1[i])};
    btVector3 lin[2], ang[2];
    for (int k = 0; k < 2; ++k) btTransformUtil::calculateVelocity(from[k], to[k], 1.0, lin[k], ang[k]);
    c.add(motion_gap(w, i, [&](int body, double t) {
      btTransform x;
      btTransformUtil::integrateTransform(from[body], lin[body], ang[body], t, x);
      return from_bullet(x);
    }));
  }
  return c;
}
#endif

// ---------------------------------------------------------------- output --

struct Row {
  std::string library, method;
  pb::PeerCell cell;
};

struct Score {
  double max_err = kNaN, median_err = kNaN;
  int no_hit = 0, late = 0, false_hit = 0, failures = 0;
};

Score score(const Workload& w, const pb::PeerCell& c) {
  Score s;
  std::vector<double> errors;
  for (std::size_t i = 0; i < w.truth.size() && i < c.distances.size(); ++i) {
    const double t = c.distances[i];
    if (!std::isfinite(t)) {
      ++s.failures;
      continue;
    }
    const bool hit = t <= 1.0;
    if (w.truth[i].hit && !hit) ++s.no_hit;
    if (!w.truth[i].hit && hit) ++s.false_hit;
    if (w.truth[i].hit && hit) {
      if (t > w.truth[i].time + kLate) ++s.late;
      errors.push_back(std::abs(t - w.truth[i].time));
    }
  }
  if (!errors.empty()) {
    s.max_err = *std::max_element(errors.begin(), errors.end());
    s.median_err = pb::detail::median(std::move(errors));
  }
  return s;
}

std::string fmt(const char* f, double v) {
  if (!std::isfinite(v)) return "–";
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}



constexpr const char* kUsage =
    "usage: proxima-toi-bench [--poses N] [--repeats R] [--seed S] [--markdown] [--quiet]\n"
    "  --poses N    motions per workload, 1 to 10000000 (default 1000)\n"
    "  --repeats R  timed repeats of each motion, 1 to 1000000 (default 5)\n"
    "  --seed S     the motions' seed, 0 to 4294967295 (default 20261201)\n"
    "  --quiet      no progress line on stderr (drawn only when stderr is a terminal)\n";

// The options; exits with status 2 on a refused command line.
Options parse_args(int argc, char** argv) {
  Options o;
  try {
    pb::Arguments args(argc, argv);
    while (args.next()) {
      if (args.is("--poses")) o.poses = static_cast<int>(args.integer(1, 10000000));
      else if (args.is("--repeats")) o.repeats = static_cast<int>(args.integer(1, 1000000));
      else if (args.is("--seed")) o.seed = static_cast<unsigned>(args.integer(0, 4294967295LL));
      else if (args.is("--markdown")) o.markdown = true;
      else if (args.is("--quiet")) o.progress = false;
      else if (args.is("--help") || args.is("-h")) {
        std::cout << kUsage;
        std::exit(0);
      } else {
        args.unknown();
      }
    }
  } catch (const pb::BadArgument& e) {
    std::exit(pb::refuse("proxima-toi-bench", e, kUsage));
  }
  return o;
}

int run(const Options& opt) {
  const auto t_start = std::chrono::steady_clock::now();
  // Over the workloads' ground truth, then their measurement: redrawn
  // between workloads and before each row's measurement (never inside one);
  // the tables are printed after the line is gone.
  proxima::apps::Progress progress =
      proxima::apps::Progress::on_terminal("proxima-toi-bench", 2.0 * static_cast<double>(kWorkloads), opt.progress);
  double made = 0.0;
  const std::vector<Workload> works = make_workloads(
      opt.poses, opt.seed, [&](const std::string& name) { progress.update(made++, "ground truth: " + name); });

  char date[64];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", std::gmtime(&now));
  progress.clear();
  std::cout << "Time of impact over t ∈ [0, 1], " << opt.poses << " motions per workload (seed " << opt.seed
            << "; every other one aimed at B's position at t = 0.5), the same motions for every library; " << date
            << ", " << machine_name() << ".";
#ifdef PROXIMA_HAVE_PEERS
  std::cout << " FCL " << FCL_VERSION << ", Bullet " << BT_BULLET_VERSION / 100 << "." << BT_BULLET_VERSION % 100
            << " (double). Peers run in child processes (a crash or a 120 s hang becomes a row of failures).";
#else
  std::cout << " FCL and Bullet were not found at configure time: Proxima alone.";
#endif
  std::cout << " Median ns per query over the motions (each motion: one answer, then the mean of " << opt.repeats
            << " timed repeats). Δt = reported − true time of first contact, over motions where both report one. "
               "Missed: the truth collides and the method says no contact, or a time more than 1e-6 late. False: "
               "the method reports a contact the truth does not have.\n\n";

  // Which libraries' interpolations follow the generator's motion.
  std::vector<std::vector<std::string>> motion_rows;
  motion_rows.push_back({"workload", "motions", "colliding (truth)", "redrawn", "ground truth",
                         "Proxima RigidMotion", "FCL continuousCollide(tf…, CCDM_LINEAR)",
                         "FCL InterpMotion about the origin (used)", "FCL TranslationMotion",
                         "Bullet integrateTransform"});
  std::vector<std::vector<std::string>> rows;
  rows.push_back({"workload", "library", "method", "median ns", "× Proxima", "max |Δt|", "median |Δt|",
                  "missed: no hit", "missed: late", "false hits", "failures", "note"});
  for (std::size_t wi = 0; wi < works.size(); ++wi) {
    const Workload& w = works[wi];
    const auto step = [&] { progress.update(static_cast<double>(kWorkloads + wi), w.name); };
    step();
    const std::size_t n = w.motions.size();
    const int colliding = static_cast<int>(std::count_if(w.truth.begin(), w.truth.end(), [](const Truth& t) { return t.hit; }));
    std::vector<std::string> mrow = {w.name, std::to_string(n), std::to_string(colliding), std::to_string(w.redrawn),
                                     w.oracle, check_proxima_motion(w).text(n)};
    std::vector<Row> out;
    out.push_back({"Proxima", "time_of_impact (accuracy 1e-6 m)", run_proxima(w, opt.repeats)});
#ifdef PROXIMA_HAVE_PEERS
    const MotionCheck bullet_gap = check_bullet_motion(w);
    mrow.push_back(check_fcl_motion(w, FclMotion::tf_overload_linear).text(n));
    mrow.push_back(check_fcl_motion(w, FclMotion::interp_about_origin).text(n));
    mrow.push_back(check_fcl_motion(w, FclMotion::translation).text(n));
    mrow.push_back(bullet_gap.text(n));
    const std::string fcl_lib = std::string("FCL ") + FCL_VERSION;
    for (const FclMethod& m : fcl_methods()) {
      step();
      out.push_back({fcl_lib, m.name,
                     pb::run_isolated([&] { return run_fcl(w, opt.repeats, m); }, n, std::chrono::seconds(120))});
    }
    for (BulletCast c : {BulletCast::conservative, BulletCast::gjk, BulletCast::subsimplex}) {
      step();
      out.push_back({"Bullet", bullet_name(c),
                     pb::run_isolated([&] { return run_bullet(w, opt.repeats, c, bullet_gap); }, n,
                                      std::chrono::seconds(120))});
    }
#else
    for (int k = 0; k < 4; ++k) mrow.push_back("–");
#endif
    motion_rows.push_back(mrow);
    const double ours = out.front().cell.median_ns;
    for (const Row& r : out) {
      const pb::PeerCell& c = r.cell;
      if (!c.supported) {
        rows.push_back({w.name, r.library, r.method, "–", "–", "–", "–", "–", "–", "–", "unsupported", c.note});
        continue;
      }
      const Score s = score(w, c);
      rows.push_back({w.name, r.library, r.method, fmt("%.0f", c.median_ns), fmt("%.2f", c.median_ns / ours),
                      fmt("%.1e", s.max_err), fmt("%.1e", s.median_err), std::to_string(s.no_hit),
                      std::to_string(s.late), std::to_string(s.false_hit), std::to_string(s.failures), c.note});
    }
  }
  progress.finish();
  print_table(rows, opt.markdown, std::cout, {false, false, false, true, true, true, true, true, true, true, true, false});

  std::cout << "\nWorkloads, ground truth, and how far each library's interpolated poses stray from the motion "
               "(largest |Δp| + reach · rotation angle over t = 0.1, …, 1, both bodies):\n\n";
  print_table(motion_rows, opt.markdown, std::cout, {false, true, true, true, false, false, false, false, false, false});

  std::cout << "\nNotes.\n\n"
               "* Shapes: spheres r 0.25 and 0.35; boxes 0.6×0.4×0.2 and 0.5³; capsules r 0.1 length 0.6 and "
               "r 0.15 length 0.4; the hull of 200 points on a sphere of radius 0.4 against a capsule r 0.1 length "
               "0.5. A starts 1–1.6 m from B and moves up to ~3 m; B moves up to 0.35 m per axis. Bullet with zero "
               "margins (sphere and capsule keep theirs: it is their radius).\n"
               "* Proxima reports the first time the distance is within accuracy (1e-6 m): early by at most "
               "1e-6 m / closing speed.\n";
#ifdef PROXIMA_HAVE_PEERS
  std::cout << "* FCL: `continuousCollide(…, tf_beg, tf_end, …)` with CCDM_LINEAR builds `InterpMotion(tf1, tf2)`, "
               "which leaves the reference point the body turns about uninitialised (fcl PR #662): the column "
               "\"continuousCollide(tf…, CCDM_LINEAR)\" above shows where that put the bodies in this run. The "
               "InterpMotion rows therefore build `InterpMotion(R1, T1, R2, T2, O = 0)`, which sets it and the "
               "velocities, and call the MotionBase overload of `continuousCollide`.\n"
               "* FCL conservative advancement on two shapes stops once its step falls below a fixed t_err = 1e-4 "
               "(the request's toc_err is not read), before the contact, and calls collide() only at t = 0. Where "
               "a step lands exactly on the contact (closed-form capsule distance 0, coincident nearest points) "
               "its direction p2 − p1 is ~0, the motion bound comes out ≤ 0 and it reports no collision: traced "
               "on this bench's capsule–capsule misses. The naive solver calls collide() at n evenly spaced "
               "times and reports the first sample in contact: late by up to 1/(n − 1), blind to contacts shorter "
               "than a step. FCL 0.7's ray shooting for two shapes under TranslationMotion is an empty branch "
               "and any other setting prints a warning; its polynomial solver takes BVH models only; both return "
               "−1 (probed on every workload).\n"
               "* Bullet's btContinuousConvexCollision and btGjkConvexCast stop once the distance is below 1 mm "
               "(a constant in their source): early by up to 1 mm / closing speed, and a pass within 1 mm is a "
               "hit. btGjkConvexCast has no penetration solver: where its step lands exactly on a polyhedral "
               "contact, btGjkPairDetector (zero margins) returns no result and the cast reports none (traced on "
               "this bench's box–box misses; Bullet's default 0.04 margins would avoid it but change the "
               "shapes). btGjkConvexCast and btSubsimplexConvexCast move the origins only; "
               "btContinuousConvexCollision turns bodies through btTransformUtil::integrateTransform, which "
               "limits the turn to π/4: turning workloads other than spheres are another motion for Bullet (see "
               "the gap column).\n";
#endif
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_start).count();
  std::cout << "\nWhole run " << fmt("%.1f", seconds) << " s.\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const Options opt = parse_args(argc, argv);
  try {
    return run(opt);
  } catch (const std::exception& e) {
    std::cerr << "proxima-toi-bench: " << e.what() << "\n";
    return 1;
  }
}
