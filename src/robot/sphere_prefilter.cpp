// SPDX-License-Identifier: BSD-3-Clause
// The prefilter's set-up (spheres, pair tables, scenes) and its lane
// groups (prefilter_lanes.hpp has their arithmetic). A lane's verdict on a
// pair comes from a "clearance": squared centre distance minus squared
// reach for two balls, the same for a ball and a box, the signed gap for a
// ball and a halfspace. Only its sign matters (fl(a − b) has the sign of
// a − b): positive over the outer balls proves the pair apart, negative
// over the inner ones proves it within the tolerance.
#include <proxima/robot/sphere_prefilter.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <mutex>
#include <string>
#include <tuple>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <proxima/robot/scene_checker.hpp>

#include <proxima/query.hpp>

#include "fk_step.hpp"
#include "pair_query.hpp"
#include "pair_verdicts.hpp"
#include "prefilter_data.hpp"
#include "prefilter_lanes.hpp"
#include "prefilter_rounding.hpp"

namespace proxima::robot {

using detail::PrefilterObject;
using detail::PrefilterStep;
using detail::Proof;
using detail::lane_balls;
using detail::lane_kinematics;
using detail::lane_object;
using detail::lane_points;

namespace {

constexpr std::size_t W = kPrefilterLanes;
// Link origins and shape placements beyond this (m) leave a lane to the
// exact check: the rounding allowance of the spheres holds within it.
constexpr double kWorkingRange = 1e3;
// The float lanes' range about the base (m): the robot's reach, at most
// this; a lane with a link origin beyond it leaves for the exact check.
constexpr double kFloatRange = 100.0;
// Pieces of a shape's core the outer spheres and the inner balls come from.
constexpr int kOuterPieces = 4;
constexpr int kInnerPieces = 32;
constexpr std::size_t kInnerBalls = 4;

std::array<double, 9> row_major(const Mat3& m) {
  std::array<double, 9> out{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) out[static_cast<std::size_t>(3 * i + j)] = m(i, j);
  return out;
}

template <std::size_t N>
std::array<float, N> to_float(const std::array<double, N>& a) {
  std::array<float, N> out{};
  for (std::size_t k = 0; k < N; ++k) out[k] = static_cast<float>(a[k]);
  return out;
}

// How far any link origin can be from the root: the sum of the joints'
// translations along its chain, a prismatic joint's with its largest value
// within its limits (unbounded without them). A little more, so that
// rounding does not put a reachable origin beyond it; at most kFloatRange.
double float_range(const RobotModel& model, const std::vector<PrefilterStep>& steps) {
  std::vector<double> reach(model.links().size(), 0.0);
  double most = 0.0;
  for (const PrefilterStep& st : steps) {
    double travel = 0.0;
    if (st.variable >= 0 && !st.revolute) {
      const Joint& jt = model.joint(model.variable_joint(static_cast<std::size_t>(st.variable)));
      travel = std::max(std::abs(st.multiplier * jt.lower + st.offset), std::abs(st.multiplier * jt.upper + st.offset));
      if (!std::isfinite(travel)) travel = kFloatRange;
    }
    const Vec3 p(st.p[0], st.p[1], st.p[2]), slide(st.slide[0], st.slide[1], st.slide[2]);
    const double r = reach[static_cast<std::size_t>(st.parent)] + p.norm() + travel * slide.norm();
    reach[static_cast<std::size_t>(st.child)] = r;
    most = std::max(most, r);
  }
  return std::min(most * (1.0 + 1e-4) + 1e-4, kFloatRange);
}

}  // namespace

std::vector<detail::PrefilterStep> detail::prefilter_steps(const RobotModel& model) {
  std::vector<PrefilterStep> out;
  for (const FkStep& st : model.fk_steps()) {
    PrefilterStep s;
    s.parent = st.parent;
    s.child = st.child;
    s.variable = st.variable;
    s.revolute = st.revolute;
    s.multiplier = st.multiplier;
    s.offset = st.offset;
    s.fixed = row_major(st.fixed);
    s.cosine = row_major(st.cosine);
    s.sine = row_major(st.sine);
    s.p = {st.p.x(), st.p.y(), st.p.z()};
    s.slide = {st.slide.x(), st.slide.y(), st.slide.z()};
    s.fixed_f = to_float(s.fixed);
    s.cosine_f = to_float(s.cosine);
    s.sine_f = to_float(s.sine);
    s.p_f = to_float(s.p);
    s.slide_f = to_float(s.slide);
    out.push_back(s);
  }
  return out;
}


detail::FoldedSteps detail::fold_constant_steps(const std::vector<PrefilterStep>& steps, std::size_t links,
                                                int root) {
  FoldedSteps out;
  out.frame.assign(links, -1);
  out.to_frame.assign(links, Transform::identity());
  out.frame[static_cast<std::size_t>(root)] = root;
  const auto mat = [](const std::array<double, 9>& a) {
    Mat3 m;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) m(i, j) = a[static_cast<std::size_t>(3 * i + j)];
    return m;
  };
  const auto vec = [](const std::array<double, 3>& a) { return Vec3(a[0], a[1], a[2]); };
  for (const PrefilterStep& st : steps) {
    const auto parent = static_cast<std::size_t>(st.parent), child = static_cast<std::size_t>(st.child);
    const Transform& up = out.to_frame[parent];
    if (st.variable < 0) {
      // Its value is 0: a revolute joint's local rotation is fixed + cosine.
      const Mat3 local = st.revolute ? Mat3(mat(st.fixed) + mat(st.cosine)) : mat(st.fixed);
      out.frame[child] = out.frame[parent];
      out.to_frame[child] = Transform(up.R * local, up.R * vec(st.p) + up.p);
      continue;
    }
    PrefilterStep s = st;
    s.parent = out.frame[parent];
    s.fixed = row_major(up.R * mat(st.fixed));
    s.cosine = row_major(up.R * mat(st.cosine));
    s.sine = row_major(up.R * mat(st.sine));
    const Vec3 p = up.R * vec(st.p) + up.p, slide = up.R * vec(st.slide);
    s.p = {p.x(), p.y(), p.z()};
    s.slide = {slide.x(), slide.y(), slide.z()};
    s.fixed_f = to_float(s.fixed);
    s.cosine_f = to_float(s.cosine);
    s.sine_f = to_float(s.sine);
    s.p_f = to_float(s.p);
    s.slide_f = to_float(s.slide);
    out.frame[child] = st.child;
    out.steps.push_back(s);
  }
  return out;
}

class SpherePrefilter::Scene {
 public:
  /// Some object has no bounds the lanes can test: nothing is proven free.
  bool hopeless = false;
  /// The base's position: the lanes' coordinates are relative to it.
  Vec3 origin = Vec3::Zero();
  /// The pair tables' verdicts at the scene's tolerance (a lane group of
  /// another tolerance reads the tables' bounds).
  double tolerance = 0.0;
  std::shared_ptr<const std::vector<PrefilterVerdicts>> verdicts;
  std::vector<PrefilterObject> objects;
  /// Parallel to objects: what each holds, where has_inner says so.
  std::vector<PrefilterObject> inner;
  std::vector<unsigned char> has_inner;
  /// The objects' world boxes less the origin as six rows (min x, y, z,
  /// max x, y, z) of `stride` floats rounded outward: a halfspace's is
  /// unbounded; the rows are padded to whole lane groups with empty boxes
  /// (min +∞, max −∞), which near_objects finds far from everything.
  std::vector<float> box_bounds;
  std::size_t stride = 0;
  /// skip[o * links + l]: link l may touch object o (the pair is not checked).
  std::vector<unsigned char> skip;
  /// The same as bits: near[l * chunks + c] has bit i for object
  /// c · kBoxChunk + i unless link l skips it.
  std::size_t chunks = 0;
  std::vector<std::uint64_t> near;

  void set_near(std::size_t links) {
    const std::size_t n = objects.size();
    chunks = (n + detail::kBoxChunk - 1) / detail::kBoxChunk;
    near.assign(links * chunks, 0);
    for (std::size_t l = 0; l < links; ++l)
      for (std::size_t o = 0; o < n; ++o)
        if (!skip[o * links + l]) near[l * chunks + o / detail::kBoxChunk] |= std::uint64_t{1} << (o % detail::kBoxChunk);
  }
};


SpherePrefilter::~SpherePrefilter() = default;

SceneChecker::PrefilterSlot::PrefilterSlot() = default;
SceneChecker::PrefilterSlot::~PrefilterSlot() = default;

const SpherePrefilter& SceneChecker::sphere_prefilter() const {
  std::call_once(prefilter_->once, [this] { prefilter_->value = std::make_unique<const SpherePrefilter>(*this); });
  return *prefilter_->value;
}

SpherePrefilter::SpherePrefilter(const SceneChecker& checker) : d_(std::make_unique<Data>()) {
  const RobotGeometry& g = checker.geometry();
  const RobotModel& model = g.model();
  Data& d = *d_;
  d.links = model.links().size();
  d.variables = model.variable_count();
  d.root = model.root_link();
  d.steps = detail::prefilter_steps(model);
  d.link_spheres.resize(d.links);
  d.bound_center.assign(d.links, Vec3::Zero());
  d.bound_radius.assign(d.links, -1.0f);
  d.near_radius.assign(d.links, -1.0f);
  {
    detail::FoldedSteps folded = detail::fold_constant_steps(d.steps, d.links, d.root);
    d.lane_steps = std::move(folded.steps);
    d.frame = std::move(folded.frame);
    d.to_frame = std::move(folded.to_frame);
  }
  // The lanes check the frames' origins only: a link placed farther than
  // the working range from its frame (no robot's is) turns the prefilter
  // off, so that a row the lanes keep has every link origin within about
  // a kilometre of the base (SceneChecker::tolerance_known relies on it).
  for (const Transform& t : d.to_frame)
    if (!(t.p.cwiseAbs().maxCoeff() <= kWorkingRange)) d.available = false;
  const double range = float_range(model, d.steps);
  d.allowance = detail::kinematics_allowance(d.lane_steps, d.links, d.root, range, 4.0 * range);
  // A link's points are in its frame's coordinates (fold_constant_steps).
  for (std::size_t l = 0; l < d.links; ++l) {
    const auto frame = static_cast<std::size_t>(d.frame[l]);
    d.begin.push_back(d.center.size());
    d.inner_begin.push_back(d.inner_center.size());
    std::vector<BoundingSphere>& spheres = d.link_spheres[l];
    for (const LinkShape& shape : g.links()[l].shapes) {
      const std::vector<BoundingSphere> fit = fit_spheres(shape, kOuterPieces);
      if (fit.empty() || shape.origin.p.cwiseAbs().maxCoeff() > kWorkingRange) d.available = false;
      spheres.insert(spheres.end(), fit.begin(), fit.end());
      // The inner balls about the centres of a finer cut, each nearer the
      // middle of a thin piece; the largest kInnerBalls of them (a self
      // pair tests every ball of one link against every ball of the other).
      std::vector<BoundingSphere> inner = inner_spheres(shape, fit_spheres(shape, kInnerPieces));
      std::stable_sort(inner.begin(), inner.end(),
                       [](const BoundingSphere& x, const BoundingSphere& y) { return x.radius > y.radius; });
      if (inner.size() > kInnerBalls) inner.resize(kInnerBalls);
      for (const BoundingSphere& in : inner) {
        const Vec3 c = d.to_frame[l].apply(in.center);
        const double r = in.radius - detail::point_allowance(d.allowance, frame, c);
        if (!(r > 0.0)) continue;
        d.inner_center.push_back(c);
        d.inner_radius.push_back(detail::float_down(r));
      }
    }
    if (spheres.empty()) continue;
    Aabb box;
    for (const BoundingSphere& s : spheres) {
      box.extend(s.center);
      const Vec3 c = d.to_frame[l].apply(s.center);
      d.center.push_back(c);
      d.radius.push_back(detail::float_up(s.radius + detail::point_allowance(d.allowance, frame, c)));
    }
    double r = 0.0;
    for (const BoundingSphere& s : spheres) r = std::max(r, (s.center - box.center()).norm() + s.radius);
    r *= 1.0 + 1e-12;
    d.bound_center[l] = box.center();
    const double grown = r + detail::point_allowance(d.allowance, frame, d.to_frame[l].apply(box.center()));
    d.bound_radius[l] = detail::float_up(grown);
    d.geometric.push_back(static_cast<int>(l));
  }
  d.begin.push_back(d.center.size());
  d.inner_begin.push_back(d.inner_center.size());
  for (const int link : d.geometric) {
    const auto ul = static_cast<std::size_t>(link);
    d.geometric_bound_center.push_back(d.to_frame[ul].apply(d.bound_center[ul]));
    d.geometric_frame.push_back(d.frame[ul]);
  }
  // A ball centre in the lanes is within √3 range + |c| (1 + ρ)(1 + u) + its
  // rounding of the base (ρ, the rounding: far below 1e-3 within
  // kFloatRange): `reach` bounds that for every centre.
  double far = 0.0;
  for (const Vec3& c : d.center) far = std::max(far, c.norm());
  for (const Vec3& c : d.inner_center) far = std::max(far, c.norm());
  for (const Vec3& c : d.geometric_bound_center) far = std::max(far, c.norm());
  d.reach = std::sqrt(3.0) * range + 1.001 * far + 1e-3;
  // near_objects rounds each corner of a link ball's box once more, by at
  // most u (reach + radius).
  for (const int link : d.geometric) {
    const auto ul = static_cast<std::size_t>(link);
    d.near_radius[ul] = detail::float_up(d.bound_radius[ul] + 2.0 * detail::kUnit * (d.reach + d.bound_radius[ul] + 1.0));
  }
  d.self_pairs = checker.self_pairs();
  for (const Link& link : model.links()) d.link_names.push_back(link.name);
  for (std::size_t v = 0; v < d.variables; ++v) {
    const Joint& jt = model.joint(model.variable_joint(v));
    d.middle.push_back(std::isfinite(jt.lower + jt.upper) ? 0.5 * (jt.lower + jt.upper) : 0.0);
  }
  // A link is fixed when every step from the root to it has no variable.
  std::vector<char> moves(d.links, 0);
  for (const PrefilterStep& st : d.steps)
    moves[static_cast<std::size_t>(st.child)] = st.variable >= 0 || moves[static_cast<std::size_t>(st.parent)];
  for (const int l : d.geometric)
    if (!moves[static_cast<std::size_t>(l)]) d.fixed_links.push_back(l);
  // Where each self pair's squared reaches go in a scratch (classify).
  d.reach_begin.assign(1, 0);
  d.inner_reach_begin.assign(1, 0);
  for (const auto& [a, b] : d.self_pairs) {
    const auto ua = static_cast<std::size_t>(a), ub = static_cast<std::size_t>(b);
    d.reach_begin.push_back(d.reach_begin.back() + (d.begin[ua + 1] - d.begin[ua]) * (d.begin[ub + 1] - d.begin[ub]));
    d.inner_reach_begin.push_back(d.inner_reach_begin.back() + (d.inner_begin[ua + 1] - d.inner_begin[ua]) *
                                                                   (d.inner_begin[ub + 1] - d.inner_begin[ub]));
  }
  d.pair_table.assign(d.self_pairs.size(), -1);
  d.pair_second_table.assign(d.self_pairs.size(), -1);
}

bool SpherePrefilter::available() const { return d_->available; }

const std::vector<BoundingSphere>& SpherePrefilter::link_spheres(std::size_t link) const {
  return d_->link_spheres.at(link);
}

namespace {

// An oriented box (the rows of its rotation's transpose, its world centre
// and half extents, grown by `grow`) in the lanes' frame: less the origin,
// in float, its growth widened (a proof of apart) or narrowed (of within)
// by the rounding allowance of the float test, for ball centres within
// `reach` of the origin.
PrefilterObject lane_box(const Mat3& rows, const Vec3& center, const Vec3& half, double grow, const Vec3& origin,
                         double reach, Proof proof) {
  PrefilterObject o;
  const Vec3 c = center - origin;
  o.rows = to_float(row_major(rows));
  o.center = {static_cast<float>(c.x()), static_cast<float>(c.y()), static_cast<float>(c.z())};
  o.half = {static_cast<float>(half.x()), static_cast<float>(half.y()), static_cast<float>(half.z())};
  // 1e-15 relative: the rounding of c in double.
  const double e = detail::box_allowance(reach, c.norm(), half.norm()) + 1e-15 * (center.norm() + origin.norm());
  o.grow = proof == Proof::apart ? grow + e : grow - e;
  return o;
}

// The halfspace n·x ≤ offset (world) the same way.
PrefilterObject lane_halfspace(const Vec3& n, double offset, const Vec3& origin, double reach, Proof proof) {
  PrefilterObject o;
  o.halfspace = true;
  o.normal = {static_cast<float>(n.x()), static_cast<float>(n.y()), static_cast<float>(n.z())};
  o.offset = offset - n.dot(origin);
  const double e = detail::halfspace_allowance(reach) + 1e-15 * (std::abs(offset) + origin.norm());
  o.grow = proof == Proof::apart ? e : -e;
  return o;
}

// What an object that is a solid primitive holds, as the lanes test it: its
// core box (a point or a segment for a sphere or capsule, the inscribed
// square prism of a cylinder) grown by its inflation, less the inner
// balls' allowance. False for anything else.
bool inner_object(const Shape& shape, const Transform& pose, const Vec3& origin, double reach, PrefilterObject& out) {
  constexpr double kAllowance = 1e-6;
  const Mat3 rows = pose.R.transpose();
  return std::visit(
      [&](const auto& s) -> bool {
        using T = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<T, Box>) {
          out = lane_box(rows, pose.p, s.half_extents(), s.core_inflation() - kAllowance, origin, reach, Proof::within);
        } else if constexpr (std::is_same_v<T, Sphere>) {
          out = lane_box(rows, pose.p, Vec3::Zero(), s.core_inflation() - kAllowance, origin, reach, Proof::within);
        } else if constexpr (std::is_same_v<T, Capsule>) {
          out = lane_box(rows, pose.p, Vec3(0.0, 0.0, s.half_length()), s.core_inflation() - kAllowance, origin, reach,
                         Proof::within);
        } else if constexpr (std::is_same_v<T, Cylinder>) {
          const double side = s.radius() * std::sqrt(0.5) * (1.0 - 1e-12);
          out = lane_box(rows, pose.p, Vec3(side, side, 0.5 * s.length()), s.core_inflation() - kAllowance, origin,
                         reach, Proof::within);
        } else if constexpr (std::is_same_v<T, Halfspace>) {
          const Vec3 n = pose.rotate(s.normal());
          out = lane_halfspace(n, s.offset() + n.dot(pose.p) + s.margin() - kAllowance, origin, reach, Proof::within);
        } else {
          return false;
        }
        return true;
      },
      shape.variant());
}

}  // namespace

std::shared_ptr<const SpherePrefilter::Scene> SpherePrefilter::scene(const SceneChecker& checker,
                                                                    const PreparedEnvironment& env,
                                                                    const Transform& base, double tolerance) const {
  // The tables only when a batch first needs them: a prefilter asked for
  // its spheres alone does not pay for them.
  std::call_once(d_->tables_once, [&] { build_tables(checker, *d_); });
  auto scene = std::make_shared<Scene>();
  scene->tolerance = tolerance;
  scene->verdicts = d_->verdicts_at(tolerance);
  const std::vector<EnvironmentObject>& objects = env.objects();
  scene->skip.assign(objects.size() * d_->links, 0);
  scene->stride = (objects.size() + W - 1) / W * W;
  scene->box_bounds.assign(6 * scene->stride, 0.0f);
  for (std::size_t k = 0; k < 3; ++k)
    for (std::size_t o = objects.size(); o < scene->stride; ++o) {
      scene->box_bounds[k * scene->stride + o] = std::numeric_limits<float>::infinity();
      scene->box_bounds[(3 + k) * scene->stride + o] = -std::numeric_limits<float>::infinity();
    }
  scene->origin = base.p;
  for (std::size_t o = 0; o < objects.size(); ++o) {
    const EnvironmentObject& obj = objects[o];
    PrefilterObject po;
    const Shape* shape = std::get_if<Shape>(&obj.geometry);
    if (shape && shape->type() == ShapeType::halfspace) {
      const Halfspace& h = shape->as<Halfspace>();
      const Vec3 n = obj.pose.rotate(h.normal());
      // The margin widens the halfspace; 1e-8 covers the rounding of this
      // offset and of n in double.
      po = lane_halfspace(n, h.offset() + n.dot(obj.pose.p) + h.margin() + 1e-8, base.p, d_->reach, Proof::apart);
    } else {
      const Aabb local = detail::local_box(obj.geometry);
      if (!detail::bounded(local)) {
        scene->hopeless = true;
        return scene;
      }
      const Vec3 c = obj.pose.apply(local.center());
      const Vec3 h = local.half_extents() + Vec3::Constant(1e-8);
      po = lane_box(obj.pose.R.transpose(), c, h, 0.0, base.p, d_->reach, Proof::apart);
    }
    // The world box, for the cheapest test first (a halfspace's: unbounded).
    const Aabb& box = env.index().box(o);
    const std::size_t n = scene->stride;
    for (int k = 0; k < 3; ++k) {
      const auto uk = static_cast<std::size_t>(k);
      // Less the origin in double (within 2^-52 of the terms), then float.
      const double lo = box.min[k] - base.p[k], hi = box.max[k] - base.p[k];
      const double slack = 0x1p-50 * (std::abs(box.min[k]) + std::abs(box.max[k]) + std::abs(base.p[k]));
      scene->box_bounds[uk * n + o] = po.halfspace ? -std::numeric_limits<float>::infinity() : detail::float_down(lo - slack);
      scene->box_bounds[(3 + uk) * n + o] = po.halfspace ? std::numeric_limits<float>::infinity() : detail::float_up(hi + slack);
    }
    scene->objects.push_back(po);
    PrefilterObject inner;
    scene->has_inner.push_back(shape && inner_object(*shape, obj.pose, base.p, d_->reach, inner));
    scene->inner.push_back(inner);
    for (const std::string& name : obj.touch_links) {
      const auto at = std::find(d_->link_names.begin(), d_->link_names.end(), name);
      if (at != d_->link_names.end()) scene->skip[o * d_->links + static_cast<std::size_t>(at - d_->link_names.begin())] = 1;
    }
  }
  // The links no joint moves sit where they sit in every row (their poses
  // are the same product of fixed transforms each time): each one's pair
  // with an object is measured once at a state of the batch, and a pair
  // farther than the tolerance (by more than the allowance, well beyond the
  // narrow phase's accuracy) cannot be within it in any row.
  std::vector<double> q(d_->variables);
  for (std::size_t v = 0; v < d_->variables; ++v) q[v] = d_->middle[v];
  const RobotState state = checker.state(q, base);
  if (state.status != Status::ok) {
    scene->set_near(d_->links);
    return scene;
  }
  for (const int link : d_->fixed_links) {
    const auto ul = static_cast<std::size_t>(link);
    for (std::size_t o = 0; o < objects.size(); ++o) {
      const Shape* object = std::get_if<Shape>(&objects[o].geometry);
      if (scene->skip[o * d_->links + ul] || !object) continue;
      bool apart = true;
      for (std::size_t i = state.shape_begin[ul]; i < state.shape_begin[ul + 1] && apart; ++i) {
        const Shape* shape = checker.geometry().links()[ul].shapes[i - state.shape_begin[ul]].shape();
        if (!shape) {
          apart = false;
          break;
        }
        const DistanceResult r = distance(*shape, state.shape_poses[i], *object, objects[o].pose);
        apart = r.status == Status::ok && std::isfinite(r.distance) && r.distance > tolerance + 1e-8;
      }
      if (apart) scene->skip[o * d_->links + ul] = 1;
    }
  }
  scene->set_near(d_->links);
  return scene;
}

std::shared_ptr<const std::vector<PrefilterVerdicts>> SpherePrefilter::Data::verdicts_at(double tolerance) {
  constexpr std::size_t kKept = 4;
  const std::lock_guard<std::mutex> lock(verdicts_mutex);
  for (const auto& [t, v] : verdicts)
    if (t == tolerance) return v;
  auto made = std::make_shared<std::vector<PrefilterVerdicts>>();
  made->reserve(tables.size());
  for (const PrefilterPairTable& table : tables) made->emplace_back(table, tolerance);
  if (verdicts.size() == kKept) verdicts.erase(verdicts.begin());
  verdicts.emplace_back(tolerance, made);
  return made;
}

void SpherePrefilter::ScratchDeleter::operator()(Scratch* s) const { delete s; }

std::unique_ptr<SpherePrefilter::Scratch, SpherePrefilter::ScratchDeleter> SpherePrefilter::scratch() const {
  std::unique_ptr<Scratch, ScratchDeleter> s(new Scratch);
  s->rot.assign(d_->links * 9 * W, 0.0f);
  s->pos.assign(d_->links * 3 * W, 0.0f);
  s->centers.assign(d_->center.size() * 3 * W, 0.0f);
  s->inner_centers.assign(d_->inner_center.size() * 3 * W, 0.0f);
  s->bound_centers.assign(d_->links * 3 * W, 0.0f);
  s->placed.assign(d_->links, 0);
  s->pair_apart.assign(d_->self_pairs.size(), 0);
  s->reach2.assign(d_->reach_begin.back(), 0.0f);
  s->inner_reach2.assign(d_->inner_reach_begin.back(), 0.0f);
  s->q.assign(std::max<std::size_t>(d_->variables, 1) * W, 0.0);
  for (auto& k : s->known) k.reserve(d_->self_pairs.size() + d_->links);
  return s;
}

namespace {

// A set of lanes of one group as bits (bit l: lane l): the per-pair
// bookkeeping of classify then costs a few integer operations, not a loop
// over the lanes.
using LaneMask = unsigned;
static_assert(W <= 8 * sizeof(LaneMask));
static_assert(W <= 8, "a pair's lanes fit a byte (Scratch::pair_apart)");

void fill(float* lanes, float value) {
  for (std::size_t l = 0; l < W; ++l) lanes[l] = value;
}

// The lanes whose value is > 0 (a NaN is not): by SSE, which every x86-64
// has, four lanes at a time; lane by lane elsewhere.
LaneMask positive_lanes(const float* lanes) {
#if defined(__SSE2__)
  static_assert(W % 4 == 0);
  LaneMask m = 0;
  for (std::size_t l = 0; l < W; l += 4)
    m |= static_cast<LaneMask>(_mm_movemask_ps(_mm_cmpgt_ps(_mm_loadu_ps(lanes + l), _mm_setzero_ps()))) << l;
  return m;
#else
  LaneMask m = 0;
  for (std::size_t l = 0; l < W; ++l) m |= static_cast<LaneMask>(lanes[l] > 0.0f) << l;
  return m;
#endif
}

// The lanes whose value is < 0 (a NaN is not).
LaneMask negative_lanes(const float* lanes) {
#if defined(__SSE2__)
  LaneMask m = 0;
  for (std::size_t l = 0; l < W; l += 4)
    m |= static_cast<LaneMask>(_mm_movemask_ps(_mm_cmplt_ps(_mm_loadu_ps(lanes + l), _mm_setzero_ps()))) << l;
  return m;
#else
  LaneMask m = 0;
  for (std::size_t l = 0; l < W; ++l) m |= static_cast<LaneMask>(lanes[l] < 0.0f) << l;
  return m;
#endif
}

}  // namespace

void SpherePrefilter::classify(std::span<const double> qs, std::size_t rows, const Transform& base, double tolerance,
                               const Scene& scene, Scratch& s) const {
  const Data& d = *d_;
  for (auto& k : s.known) k.clear();
  for (bool& r : s.in_range) r = false;
  // A lane the prefilter cannot reason about lists every pair open, which
  // sends it to the plain exact check.
  const auto all_open = [&](std::size_t lane) {
    std::vector<detail::KnownPair>& k = s.known[lane];
    k.clear();
    for (std::size_t p = 0; p < d.self_pairs.size(); ++p)
      k.push_back({static_cast<std::uint32_t>(p), 0, true, detail::Verdict::open});
    for (const int link : d.geometric)
      for (std::size_t o = 0; o < scene.objects.size(); ++o)
        if (!scene.skip[o * d.links + static_cast<std::size_t>(link)])
          k.push_back({static_cast<std::uint32_t>(link), static_cast<std::uint32_t>(o), false, detail::Verdict::open});
  };
  // The scene's objects are relative to its base's position: another base
  // (never from check_configurations) is left to the exact check.
  if (!d.available || scene.hopeless || base.p != scene.origin) {
    for (std::size_t l = 0; l < rows; ++l) all_open(l);
    return;
  }
  // Lanes beyond `rows` repeat the first row: any finite values would do.
  const double* row[W];
  for (std::size_t l = 0; l < W; ++l) row[l] = qs.data() + (l < rows ? l : 0) * d.variables;
  for (std::size_t v = 0; v < d.variables; ++v) {
    double* lanes = s.q.data() + v * W;
    for (std::size_t l = 0; l < W; ++l) lanes[l] = row[l][v];
  }
  const auto root = static_cast<std::size_t>(d.root);
  // The root at the origin of the lanes' frame, its rotation rounded to
  // float (the allowance's start, prefilter_rounding.cpp).
  float* root_rot = s.rot.data() + root * 9 * W;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      const float x = static_cast<float>(base.R(i, j));
      float* lanes = root_rot + static_cast<std::size_t>(3 * i + j) * W;
      for (std::size_t l = 0; l < W; ++l) lanes[l] = x;
    }
  std::fill_n(s.pos.data() + root * 3 * W, 3 * W, 0.0f);
  // usable[l] > 0: the lane's verdicts hold. A link origin out of the
  // working range, or an angle out of lane_sincos's, leaves the lane to
  // the exact check (its poses may even be beyond what the queries accept).
  float usable[W];
  const bool root_in_range = base.p.cwiseAbs().maxCoeff() <= kWorkingRange;
  for (std::size_t l = 0; l < W; ++l) usable[l] = l < rows && root_in_range ? 1.0f : -1.0f;
  lane_kinematics(d.lane_steps, s.q.data(), d.allowance.travel, detail::float_down(d.allowance.range), s.rot.data(),
                  s.pos.data(), usable);
  // live: the lanes usable with no pair yet proven within: pairs after the
  // first within are never read (the walk ends there), so a pair is
  // measured only in the live lanes the cheaper tests left undecided.
  LaneMask live = positive_lanes(usable);
  for (std::size_t l = 0; l < rows; ++l) {
    s.in_range[l] = live >> l & 1u;
    if (!s.in_range[l]) all_open(l);
  }
  if (!live) return;

  for (const int link : d.geometric) s.placed[static_cast<std::size_t>(link)] = 0;
  detail::lane_link_points(s.rot.data(), s.pos.data(), d.geometric_bound_center.data(), d.geometric.data(),
                           d.geometric_frame.data(), d.geometric.size(), s.bound_centers.data());
  // The squared reaches of every self pair's spheres and inner balls, once
  // per scratch and tolerance.
  if (!(s.reach_tolerance == tolerance)) {
    for (std::size_t k = 0; k < d.self_pairs.size(); ++k) {
      const auto ua = static_cast<std::size_t>(d.self_pairs[k].first);
      const auto ub = static_cast<std::size_t>(d.self_pairs[k].second);
      float* out = s.reach2.data() + d.reach_begin[k];
      for (std::size_t i = d.begin[ua]; i < d.begin[ua + 1]; ++i)
        for (std::size_t j = d.begin[ub]; j < d.begin[ub + 1]; ++j)
          *out++ = detail::ball_reach_squared(d.radius[i], d.radius[j], tolerance, Proof::apart);
      out = s.inner_reach2.data() + d.inner_reach_begin[k];
      for (std::size_t i = d.inner_begin[ua]; i < d.inner_begin[ua + 1]; ++i)
        for (std::size_t j = d.inner_begin[ub]; j < d.inner_begin[ub + 1]; ++j)
          *out++ = detail::ball_reach_squared(d.inner_radius[i], d.inner_radius[j], tolerance, Proof::within);
    }
    s.reach_tolerance = tolerance;
  }
  // Every self pair's link balls at once: most pairs end there.
  detail::lane_pairs_apart(s.bound_centers.data(), d.bound_radius.data(), d.self_pairs.data(), d.self_pairs.size(),
                           tolerance, s.pair_apart.data());
  // A link's spheres, and apart from them its inner balls (a test needs
  // them far less often), once per lane group when a test first needs them.
  const auto place = [&](std::size_t ul) {
    if (s.placed[ul] & 1) return;
    s.placed[ul] |= 1;
    const auto f = static_cast<std::size_t>(d.frame[ul]);
    lane_points(s.rot.data() + f * 9 * W, s.pos.data() + f * 3 * W, d.center.data() + d.begin[ul],
                d.begin[ul + 1] - d.begin[ul], s.centers.data() + d.begin[ul] * 3 * W);
  };
  const auto place_inner = [&](std::size_t ul) {
    if (s.placed[ul] & 2) return;
    s.placed[ul] |= 2;
    const auto f = static_cast<std::size_t>(d.frame[ul]);
    lane_points(s.rot.data() + f * 9 * W, s.pos.data() + f * 3 * W, d.inner_center.data() + d.inner_begin[ul],
                d.inner_begin[ul + 1] - d.inner_begin[ul], s.inner_centers.data() + d.inner_begin[ul] * 3 * W);
  };
  // Records the verdict on one pair of each lane of `open` (live, not
  // proven apart): within for the lanes of `within`, else open.
  const auto record = [&](LaneMask open, LaneMask within, std::uint32_t first, std::uint32_t second, bool self) {
    for (; open; open &= open - 1) {
      const auto l = static_cast<std::size_t>(__builtin_ctz(open));
      const bool in = within >> l & 1u;
      s.known[l].push_back({first, second, self, in ? detail::Verdict::within : detail::Verdict::open});
    }
    live &= ~within;
  };
  float clear[W];
  // The tables' verdicts when made at this tolerance, else their bounds.
  const std::vector<PrefilterVerdicts>* verdicts = scene.tolerance == tolerance ? scene.verdicts.get() : nullptr;
  for (std::size_t k = 0; k < d.self_pairs.size(); ++k) {
    // The link balls first, then the pair's tables, then the spheres: each
    // test runs only for the lanes the ones before left open.
    LaneMask open = live & ~LaneMask{s.pair_apart[k]};
    if (!open) continue;
    const auto ua = static_cast<std::size_t>(d.self_pairs[k].first), ub = static_cast<std::size_t>(d.self_pairs[k].second);
    LaneMask within = 0;
    // The pair's table, and its second one (the pair's own beside a swept
    // first one) for what the first leaves open.
    for (const int table : {d.pair_table[k], d.pair_second_table[k]}) {
      if (table < 0) continue;
      const PrefilterPairTable& t = d.tables[static_cast<std::size_t>(table)];
      for (LaneMask m = open; m; m &= m - 1) {
        const auto l = static_cast<std::size_t>(__builtin_ctz(m));
        std::size_t cell = 0;
        int sub_cell = 0;
        if (!t.locate(s.q.data(), W, l, cell, sub_cell)) continue;
        const int verdict = verdicts ? (*verdicts)[static_cast<std::size_t>(table)].at(cell, sub_cell)
                                     : PrefilterVerdicts::verdict(t.at(cell, sub_cell), tolerance);
        if (verdict == PrefilterVerdicts::kApart) open &= ~(1u << l);
        if (verdict == PrefilterVerdicts::kWithin) within |= 1u << l;
      }
    }
    if (open & ~within) {
      place(ua);
      place(ub);
      fill(clear, std::numeric_limits<float>::infinity());
      lane_balls(s.centers.data() + d.begin[ua] * 3 * W, d.begin[ua + 1] - d.begin[ua],
                 s.centers.data() + d.begin[ub] * 3 * W, d.begin[ub + 1] - d.begin[ub], s.reach2.data() + d.reach_begin[k],
                 clear);
      open &= ~positive_lanes(clear);
      if (open & ~within) {
        place_inner(ua);
        place_inner(ub);
        fill(clear, 1.0f);
        lane_balls(s.inner_centers.data() + d.inner_begin[ua] * 3 * W, d.inner_begin[ua + 1] - d.inner_begin[ua],
                   s.inner_centers.data() + d.inner_begin[ub] * 3 * W, d.inner_begin[ub + 1] - d.inner_begin[ub],
                   s.inner_reach2.data() + d.inner_reach_begin[k], clear);
        within |= negative_lanes(clear);
      }
    }
    record(open, within & open, static_cast<std::uint32_t>(k), 0, true);
    if (!live) return;
  }
  // Each link's objects: those whose boxes are within the tolerance of
  // the box of its link ball over the live lanes on every axis (one
  // farther on some axis is farther from the link in every live lane),
  // then its link ball, spheres and inner balls in each lane.
  for (const int link : d.geometric) {
    const auto ul = static_cast<std::size_t>(link);
    for (std::size_t c = 0; c < scene.chunks; ++c) {
      std::uint64_t near = scene.near[ul * scene.chunks + c];
      if (!near) continue;
      const std::size_t first = c * detail::kBoxChunk;
      near &= detail::near_objects(s.bound_centers.data() + ul * 3 * W, d.near_radius[ul], live,
                                   scene.box_bounds.data(), scene.stride, first,
                                   std::min(detail::kBoxChunk, scene.stride - first), tolerance);
      // The link ball against each of them at once, then the rest per object.
      unsigned char ball_apart[detail::kBoxChunk];
      detail::lane_ball_objects(s.bound_centers.data() + ul * 3 * W, d.bound_radius[ul], scene.objects.data() + first,
                                near, tolerance, ball_apart);
      for (; near; near &= near - 1) {
        const auto i = static_cast<std::size_t>(__builtin_ctzll(near));
        const std::size_t o = first + i;
        const PrefilterObject& obj = scene.objects[o];
        LaneMask open = live & ~LaneMask{ball_apart[i]};
        if (!open) continue;
        place(ul);
        fill(clear, std::numeric_limits<float>::infinity());
        lane_object(s.centers.data() + d.begin[ul] * 3 * W, d.radius.data() + d.begin[ul],
                    d.begin[ul + 1] - d.begin[ul], obj, tolerance, Proof::apart, clear);
        open &= ~positive_lanes(clear);
        LaneMask within = 0;
        if (open && scene.has_inner[o]) {
          place_inner(ul);
          fill(clear, 1.0f);
          lane_object(s.inner_centers.data() + d.inner_begin[ul] * 3 * W, d.inner_radius.data() + d.inner_begin[ul],
                      d.inner_begin[ul + 1] - d.inner_begin[ul], scene.inner[o], tolerance, Proof::within, clear);
          within = negative_lanes(clear) & open;
        }
        record(open, within, static_cast<std::uint32_t>(link), static_cast<std::uint32_t>(o), false);
        if (!live) return;
      }
    }
  }
}

void SpherePrefilter::prove_free(std::span<const double> qs, std::size_t rows, const Transform& base,
                                 double tolerance, const Scene& scene, Scratch& s, bool* proven) const {
  classify(qs, rows, base, tolerance, scene, s);
  for (std::size_t l = 0; l < rows; ++l) proven[l] = s.known[l].empty();
}

}  // namespace proxima::robot
