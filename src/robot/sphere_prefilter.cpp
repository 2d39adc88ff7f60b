// SPDX-License-Identifier: BSD-3-Clause
// The prefilter's lane groups. Every quantity of a lane group is an array of
// kPrefilterLanes doubles (structure of arrays), and each loop over the lanes
// is a plain counted loop that GCC vectorises: SSE2 on any x86-64, AVX2 where
// the CPU has it (target_clones picks at load time). Doubles throughout, so
// the only rounding to account for is that of double arithmetic, which the
// spheres' allowance (sphere_fit.cpp) covers.
//
// A lane's answer is the smallest "clearance" over every checked pair:
// squared centre distance minus squared reach for two balls, the same for a
// ball and a box, the signed gap for a ball and a halfspace. Only its sign
// matters (fl(a − b) has the sign of a − b), and a minimum is one vector
// instruction where a mask of booleans would be several.
#include <proxima/robot/sphere_prefilter.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <mutex>
#include <string>

#include <proxima/robot/scene_checker.hpp>

#include <proxima/query.hpp>

#include "fk_step.hpp"
#include "pair_query.hpp"

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_ADDRESS__)
#define PROXIMA_LANE_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define PROXIMA_LANE_CLONES
#endif

namespace proxima::robot {

namespace {

constexpr std::size_t W = kPrefilterLanes;
// Link origins and shape placements beyond this (m) leave a lane to the
// exact check: the rounding allowance of the spheres holds within it.
constexpr double kWorkingRange = 1e3;

using Lanes = std::array<double, W>;

std::array<double, 9> row_major(const Mat3& m) {
  std::array<double, 9> out{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) out[static_cast<std::size_t>(3 * i + j)] = m(i, j);
  return out;
}

}  // namespace

// Named (not in the anonymous namespace): SpherePrefilter::Data holds them.

// One joint of the forward kinematics with its matrices row-major.
struct PrefilterStep {
  int parent = -1, child = -1, variable = -1;
  bool revolute = false;
  double multiplier = 1.0, offset = 0.0;
  std::array<double, 9> fixed{}, cosine{}, sine{};
  std::array<double, 3> p{}, slide{};
};

// A lower bound on the distance of a self pair whose relative pose depends
// on one or two joint variables only (links near each other along the
// chain: a wrist and the hand it carries, which stay a couple of
// centimetres apart however the arm moves, closer than spheres fit):
// over a grid of those variables, the exact distance at each cell's centre
// less how far any point of the moving link can travel within the cell.
struct PrefilterPairTable {
  int count = 0;                     // variables: 1 or 2
  std::array<int, 2> variable{};     // joint-vector indices
  std::array<double, 2> lower{}, inverse_width{};
  std::array<int, 2> cells{1, 1};
  std::vector<double> bound;         // cells[0] × cells[1], row-major
};

struct SpherePrefilter::Data {
  bool available = true;
  std::size_t links = 0, variables = 0;
  int root = 0;
  std::vector<PrefilterStep> steps;
  std::vector<std::vector<BoundingSphere>> link_spheres;
  /// Flat: link l's spheres are [begin[l], begin[l + 1]) of center/radius.
  std::vector<std::size_t> begin;
  std::vector<Vec3> center;
  std::vector<double> radius;
  /// One ball per link holding all of its spheres (radius < 0: none).
  std::vector<Vec3> bound_center;
  std::vector<double> bound_radius;
  std::vector<std::pair<int, int>> self_pairs;
  /// Per self pair: its index into `tables`, or −1.
  std::vector<int> pair_table;
  std::vector<PrefilterPairTable> tables;
  /// Links with spheres, for the environment loop.
  std::vector<int> geometric;
  std::vector<std::string> link_names;
  /// Each variable at the middle of its limits (0 when unbounded).
  std::vector<double> middle;
  /// Links with spheres that no joint moves.
  std::vector<int> fixed_links;
};

/// An object as the lanes test it: an oriented box (rows of its rotation,
/// centre, half extents, margin included) or a halfspace n·x ≤ offset.
struct PrefilterObject {
  bool halfspace = false;
  std::array<double, 9> rows{};
  std::array<double, 3> center{}, half{};
  std::array<double, 3> normal{};
  double offset = 0.0;
  /// World box (a halfspace's: unbounded), for the cheapest test first.
  std::array<double, 3> box_min{}, box_max{};
};

class SpherePrefilter::Scene {
 public:
  /// Some object has no bounds the lanes can test: nothing is proven free.
  bool hopeless = false;
  std::vector<PrefilterObject> objects;
  /// skip[o * links + l]: link l may touch object o (the pair is not checked).
  std::vector<unsigned char> skip;
};

struct SpherePrefilter::Scratch {
  std::vector<double> rot, pos;       // per link: 9 and 3 rows of lanes
  std::vector<double> centers;        // per sphere: 3 rows of lanes
  std::vector<double> bound_centers;  // per link: 3 rows of lanes
  std::vector<double> link_boxes;     // per link: min xyz, max xyz over the lanes
  std::vector<double> q;              // per variable: a row of lanes
};

namespace {

// Cells per table variable at most, and the travel a cell may allow (m):
// the table then costs up to 128 × 128 narrow-phase distances, once.
constexpr int kMaxCells = 64;
constexpr double kCellTravel = 0.004;

// The step moving each link (−1: the root).
std::vector<int> moving_steps(const std::vector<PrefilterStep>& steps, std::size_t links) {
  std::vector<int> out(links, -1);
  for (std::size_t i = 0; i < steps.size(); ++i) out[static_cast<std::size_t>(steps[i].child)] = static_cast<int>(i);
  return out;
}

// The smallest distance between two links' shapes at a state (the narrow
// phase, margins included), or −inf when a pair has no usable answer.
double link_distance(const SceneChecker& c, const RobotState& s, int a, int b) {
  double best = std::numeric_limits<double>::infinity();
  const auto ua = static_cast<std::size_t>(a), ub = static_cast<std::size_t>(b);
  for (std::size_t i = s.shape_begin[ua]; i < s.shape_begin[ua + 1]; ++i)
    for (std::size_t j = s.shape_begin[ub]; j < s.shape_begin[ub + 1]; ++j) {
      const Shape* sa = c.geometry().link(a).shapes[i - s.shape_begin[ua]].shape();
      const Shape* sb = c.geometry().link(b).shapes[j - s.shape_begin[ub]].shape();
      if (!sa || !sb) return -std::numeric_limits<double>::infinity();
      const DistanceResult r = distance(*sa, s.shape_poses[i], *sb, s.shape_poses[j]);
      if (r.status != Status::ok || !std::isfinite(r.distance)) return -std::numeric_limits<double>::infinity();
      best = std::min(best, r.distance);
    }
  return best;
}

}  // namespace

void SpherePrefilter::build_tables(const SceneChecker& checker, Data& d) {
  const RobotModel& model = checker.model();
  const std::vector<int> step_of = moving_steps(d.steps, d.links);
  d.pair_table.assign(d.self_pairs.size(), -1);
  for (std::size_t k = 0; k < d.self_pairs.size(); ++k) {
    int a = d.self_pairs[k].first, b = d.self_pairs[k].second;
    // b must hang below a (else try the other way round): the chain a → b
    // is then the only motion between them.
    const auto below = [&](int top, int low) {
      for (int l = low; l >= 0;) {
        if (l == top) return true;
        const int st = step_of[static_cast<std::size_t>(l)];
        l = st < 0 ? -1 : d.steps[static_cast<std::size_t>(st)].parent;
      }
      return false;
    };
    if (!below(a, b)) {
      if (!below(b, a)) continue;
      std::swap(a, b);
    }
    // The steps from b up to a, and how far a point of b can be from each
    // step's joint: the lengths of the steps below it plus b's own reach.
    const std::vector<BoundingSphere>& spheres = d.link_spheres[static_cast<std::size_t>(b)];
    double reach = 0.0;
    for (const BoundingSphere& sp : spheres) reach = std::max(reach, sp.center.norm() + sp.radius);
    std::array<int, 2> vars{};
    std::array<double, 2> speed{};  // m per unit of the variable
    int count = 0;
    bool usable = true;
    for (int l = b; l != a && usable;) {
      const PrefilterStep& st = d.steps[static_cast<std::size_t>(step_of[static_cast<std::size_t>(l)])];
      if (st.variable >= 0) {
        if (!st.revolute) usable = false;
        int slot = -1;
        for (int v = 0; v < count; ++v)
          if (vars[static_cast<std::size_t>(v)] == st.variable) slot = v;
        if (slot < 0) {
          if (count == 2) usable = false;
          else {
            slot = count++;
            vars[static_cast<std::size_t>(slot)] = st.variable;
            speed[static_cast<std::size_t>(slot)] = 0.0;
          }
        }
        if (usable) speed[static_cast<std::size_t>(slot)] += std::abs(st.multiplier) * reach;
      }
      reach += std::sqrt(st.p[0] * st.p[0] + st.p[1] * st.p[1] + st.p[2] * st.p[2]);
      l = st.parent;
    }
    if (!usable || count == 0) continue;
    PrefilterPairTable t;
    t.count = count;
    double travel = 0.0;  // half a cell's travel, summed over the variables
    for (int v = 0; v < count; ++v) {
      const auto uv = static_cast<std::size_t>(v);
      const Joint& jt = model.joint(model.variable_joint(static_cast<std::size_t>(vars[uv])));
      const double range = jt.upper - jt.lower;
      if (!(range > 0.0) || !std::isfinite(range)) usable = false;
      if (!usable) break;
      t.variable[uv] = vars[uv];
      t.lower[uv] = jt.lower;
      t.cells[uv] = std::clamp(static_cast<int>(std::ceil(range * speed[uv] / kCellTravel)), 1, kMaxCells);
      const double width = range / t.cells[uv];
      t.inverse_width[uv] = 1.0 / width;
      travel += 0.5 * width * speed[uv];
    }
    if (!usable) continue;
    // Every other variable at the middle of its range: the pair's distance
    // does not depend on them.
    std::vector<double> q = d.middle;
    t.bound.resize(static_cast<std::size_t>(t.cells[0] * t.cells[1]));
    RobotState s;
    for (int i = 0; i < t.cells[0]; ++i)
      for (int j = 0; j < t.cells[1]; ++j) {
        q[static_cast<std::size_t>(t.variable[0])] = t.lower[0] + (i + 0.5) / t.inverse_width[0];
        if (count == 2) q[static_cast<std::size_t>(t.variable[1])] = t.lower[1] + (j + 0.5) / t.inverse_width[1];
        checker.state(q, Transform::identity(), s);
        const double dist = s.status == Status::ok ? link_distance(checker, s, a, b)
                                                   : -std::numeric_limits<double>::infinity();
        // The rounding allowance again: a pair proven by the table is that
        // far beyond the tolerance too.
        t.bound[static_cast<std::size_t>(i * t.cells[1] + j)] = dist - travel - 1e-8;
      }
    d.pair_table[k] = static_cast<int>(d.tables.size());
    d.tables.push_back(std::move(t));
  }
}

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
  for (const detail::FkStep& st : model.fk_steps()) {
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
    d.steps.push_back(s);
  }
  d.link_spheres.resize(d.links);
  d.bound_center.assign(d.links, Vec3::Zero());
  d.bound_radius.assign(d.links, -1.0);
  for (std::size_t l = 0; l < d.links; ++l) {
    d.begin.push_back(d.center.size());
    std::vector<BoundingSphere>& spheres = d.link_spheres[l];
    for (const LinkShape& shape : g.links()[l].shapes) {
      const std::vector<BoundingSphere> fit = fit_spheres(shape, 4);
      if (fit.empty() || shape.origin.p.cwiseAbs().maxCoeff() > kWorkingRange) d.available = false;
      spheres.insert(spheres.end(), fit.begin(), fit.end());
    }
    if (spheres.empty()) continue;
    Aabb box;
    for (const BoundingSphere& s : spheres) {
      box.extend(s.center);
      d.center.push_back(s.center);
      d.radius.push_back(s.radius);
    }
    double r = 0.0;
    for (const BoundingSphere& s : spheres) r = std::max(r, (s.center - box.center()).norm() + s.radius);
    d.bound_center[l] = box.center();
    d.bound_radius[l] = r * (1.0 + 1e-12);
    d.geometric.push_back(static_cast<int>(l));
  }
  d.begin.push_back(d.center.size());
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
  build_tables(checker, d);
}

bool SpherePrefilter::available() const { return d_->available; }

const std::vector<BoundingSphere>& SpherePrefilter::link_spheres(std::size_t link) const {
  return d_->link_spheres.at(link);
}

std::shared_ptr<const SpherePrefilter::Scene> SpherePrefilter::scene(const SceneChecker& checker,
                                                                    const PreparedEnvironment& env,
                                                                    const Transform& base, double tolerance) const {
  auto scene = std::make_shared<Scene>();
  const std::vector<EnvironmentObject>& objects = env.objects();
  scene->skip.assign(objects.size() * d_->links, 0);
  for (std::size_t o = 0; o < objects.size(); ++o) {
    const EnvironmentObject& obj = objects[o];
    PrefilterObject po;
    const Shape* shape = std::get_if<Shape>(&obj.geometry);
    if (shape && shape->type() == ShapeType::halfspace) {
      const Halfspace& h = shape->as<Halfspace>();
      const Vec3 n = obj.pose.rotate(h.normal());
      po.halfspace = true;
      po.normal = {n.x(), n.y(), n.z()};
      // The margin widens the halfspace; the allowance covers the rounding
      // of this offset and of n.
      po.offset = h.offset() + n.dot(obj.pose.p) + h.margin() + 1e-8;
    } else {
      const Aabb local = detail::local_box(obj.geometry);
      if (!detail::bounded(local)) {
        scene->hopeless = true;
        return scene;
      }
      const Vec3 c = obj.pose.apply(local.center());
      const Vec3 h = local.half_extents() + Vec3::Constant(1e-8);
      po.rows = row_major(obj.pose.R.transpose());
      po.center = {c.x(), c.y(), c.z()};
      po.half = {h.x(), h.y(), h.z()};
    }
    const Aabb& box = env.index().box(o);
    for (int k = 0; k < 3; ++k) {
      po.box_min[static_cast<std::size_t>(k)] = po.halfspace ? -std::numeric_limits<double>::infinity() : box.min[k];
      po.box_max[static_cast<std::size_t>(k)] = po.halfspace ? std::numeric_limits<double>::infinity() : box.max[k];
    }
    scene->objects.push_back(po);
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
  if (state.status != Status::ok) return scene;
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
  return scene;
}

void SpherePrefilter::ScratchDeleter::operator()(Scratch* s) const { delete s; }

std::unique_ptr<SpherePrefilter::Scratch, SpherePrefilter::ScratchDeleter> SpherePrefilter::scratch() const {
  std::unique_ptr<Scratch, ScratchDeleter> s(new Scratch);
  s->rot.assign(d_->links * 9 * W, 0.0);
  s->pos.assign(d_->links * 3 * W, 0.0);
  s->centers.assign(d_->center.size() * 3 * W, 0.0);
  s->bound_centers.assign(d_->links * 3 * W, 0.0);
  s->link_boxes.assign(d_->links * 6, 0.0);
  s->q.assign(std::max<std::size_t>(d_->variables, 1) * W, 0.0);
  return s;
}

namespace {

// Forward kinematics of every link, lane by lane: the recurrence of
// forward_kinematics (kinematics.cpp) on rows of lanes. Returns, per lane,
// the largest coordinate of any link origin (NaN-free: q is finite).
PROXIMA_LANE_CLONES
void lane_kinematics(const std::vector<PrefilterStep>& steps, const double* q, double* rot, double* pos) {
  for (const PrefilterStep& st : steps) {
    const double* pr = rot + static_cast<std::size_t>(st.parent) * 9 * W;
    const double* pp = pos + static_cast<std::size_t>(st.parent) * 3 * W;
    double* cr = rot + static_cast<std::size_t>(st.child) * 9 * W;
    double* cp = pos + static_cast<std::size_t>(st.child) * 3 * W;
    double v[W] = {};
    if (st.variable >= 0)
      for (std::size_t l = 0; l < W; ++l)
        v[l] = st.multiplier * q[static_cast<std::size_t>(st.variable) * W + l] + st.offset;
    double local[9][W];
    if (st.revolute) {
      double c[W], s[W];
      for (std::size_t l = 0; l < W; ++l) {
        c[l] = std::cos(v[l]);
        s[l] = std::sin(v[l]);
      }
      for (std::size_t k = 0; k < 9; ++k)
        for (std::size_t l = 0; l < W; ++l) local[k][l] = st.fixed[k] + c[l] * st.cosine[k] + s[l] * st.sine[k];
    } else {
      for (std::size_t k = 0; k < 9; ++k)
        for (std::size_t l = 0; l < W; ++l) local[k][l] = st.fixed[k];
    }
    for (std::size_t i = 0; i < 3; ++i)
      for (std::size_t j = 0; j < 3; ++j)
        for (std::size_t l = 0; l < W; ++l)
          cr[(3 * i + j) * W + l] = pr[(3 * i) * W + l] * local[j][l] + pr[(3 * i + 1) * W + l] * local[3 + j][l] +
                                    pr[(3 * i + 2) * W + l] * local[6 + j][l];
    double t[3][W];
    for (std::size_t k = 0; k < 3; ++k)
      for (std::size_t l = 0; l < W; ++l) t[k][l] = st.p[k] + v[l] * st.slide[k];
    for (std::size_t i = 0; i < 3; ++i)
      for (std::size_t l = 0; l < W; ++l)
        cp[i * W + l] = pr[(3 * i) * W + l] * t[0][l] + pr[(3 * i + 1) * W + l] * t[1][l] +
                        pr[(3 * i + 2) * W + l] * t[2][l] + pp[i * W + l];
  }
}

// World centres of `count` local points of one link: R c + p per lane.
PROXIMA_LANE_CLONES
void lane_points(const double* rot, const double* pos, const Vec3* local, std::size_t count, double* out) {
  for (std::size_t s = 0; s < count; ++s) {
    const double c[3] = {local[s].x(), local[s].y(), local[s].z()};
    for (std::size_t i = 0; i < 3; ++i)
      for (std::size_t l = 0; l < W; ++l)
        out[(3 * s + i) * W + l] =
            rot[(3 * i) * W + l] * c[0] + rot[(3 * i + 1) * W + l] * c[1] + rot[(3 * i + 2) * W + l] * c[2] +
            pos[i * W + l];
  }
}

// Smallest squared clearance between balls (a: count_a centres and radii)
// and (b: ...), each grown by `t`, folded into `clear`.
PROXIMA_LANE_CLONES
void lane_balls(const double* ca, const double* ra, std::size_t count_a, const double* cb, const double* rb,
                std::size_t count_b, double t, double* clear) {
  for (std::size_t i = 0; i < count_a; ++i)
    for (std::size_t j = 0; j < count_b; ++j) {
      const double reach = ra[i] + rb[j] + t;
      const double r2 = reach * reach;
      const double* a = ca + 3 * i * W;
      const double* b = cb + 3 * j * W;
      for (std::size_t l = 0; l < W; ++l) {
        const double dx = a[l] - b[l], dy = a[W + l] - b[W + l], dz = a[2 * W + l] - b[2 * W + l];
        clear[l] = std::min(clear[l], dx * dx + dy * dy + dz * dz - r2);
      }
    }
}

// The same for balls against an object.
PROXIMA_LANE_CLONES
void lane_object(const double* c, const double* r, std::size_t count, const PrefilterObject& o, double t,
                 double* clear) {
  if (o.halfspace) {
    for (std::size_t i = 0; i < count; ++i) {
      const double* a = c + 3 * i * W;
      const double reach = r[i] + t + o.offset;
      for (std::size_t l = 0; l < W; ++l)
        clear[l] = std::min(clear[l], o.normal[0] * a[l] + o.normal[1] * a[W + l] + o.normal[2] * a[2 * W + l] - reach);
    }
    return;
  }
  for (std::size_t i = 0; i < count; ++i) {
    const double* a = c + 3 * i * W;
    const double reach = r[i] + t;
    const double r2 = reach * reach;
    for (std::size_t l = 0; l < W; ++l) {
      const double dx = a[l] - o.center[0], dy = a[W + l] - o.center[1], dz = a[2 * W + l] - o.center[2];
      double d2 = 0.0;
      for (std::size_t k = 0; k < 3; ++k) {
        const double u = o.rows[3 * k] * dx + o.rows[3 * k + 1] * dy + o.rows[3 * k + 2] * dz;
        const double e = std::max(std::abs(u) - o.half[k], 0.0);
        d2 += e * e;
      }
      clear[l] = std::min(clear[l], d2 - r2);
    }
  }
}

bool all_blocked(const double* clear) {
  bool all = true;
  for (std::size_t l = 0; l < W; ++l) all &= clear[l] <= 0.0;
  return all;
}

}  // namespace

void SpherePrefilter::prove_free(std::span<const double> qs, std::size_t rows, const Transform& base,
                                 double tolerance, const Scene& scene, Scratch& s, bool* proven) const {
  const Data& d = *d_;
  for (std::size_t l = 0; l < rows; ++l) proven[l] = false;
  if (!d.available || scene.hopeless || rows == 0) return;
  // Lanes beyond `rows` repeat the first row: any finite values would do.
  for (std::size_t v = 0; v < d.variables; ++v)
    for (std::size_t l = 0; l < W; ++l) s.q[v * W + l] = qs[(l < rows ? l : 0) * d.variables + v];
  const Mat3& br = base.R;
  const auto root = static_cast<std::size_t>(d.root);
  for (std::size_t k = 0; k < 9; ++k)
    for (std::size_t l = 0; l < W; ++l) s.rot[(root * 9 + k) * W + l] = br(static_cast<int>(k / 3), static_cast<int>(k % 3));
  for (std::size_t k = 0; k < 3; ++k)
    for (std::size_t l = 0; l < W; ++l) s.pos[(root * 3 + k) * W + l] = base.p[static_cast<int>(k)];
  lane_kinematics(d.steps, s.q.data(), s.rot.data(), s.pos.data());

  double clear[W];
  // A link origin out of the working range: the lane is left to the exact
  // check (its poses may even be beyond what the queries accept).
  for (std::size_t l = 0; l < W; ++l) clear[l] = l < rows ? 1.0 : -1.0;
  for (std::size_t link = 0; link < d.links; ++link)
    for (std::size_t k = 0; k < 3; ++k)
      for (std::size_t l = 0; l < W; ++l)
        if (!(std::abs(s.pos[(link * 3 + k) * W + l]) <= kWorkingRange)) clear[l] = -1.0;
  if (all_blocked(clear)) return;

  for (const int link : d.geometric) {
    const auto ul = static_cast<std::size_t>(link);
    const double* rot = s.rot.data() + ul * 9 * W;
    const double* pos = s.pos.data() + ul * 3 * W;
    lane_points(rot, pos, d.center.data() + d.begin[ul], d.begin[ul + 1] - d.begin[ul],
                s.centers.data() + d.begin[ul] * 3 * W);
    lane_points(rot, pos, &d.bound_center[ul], 1, s.bound_centers.data() + ul * 3 * W);
  }
  // A pair whose link balls are apart in every lane needs no more; else
  // every sphere against every sphere.
  double coarse[W];
  for (std::size_t k = 0; k < d.self_pairs.size(); ++k) {
    const auto ua = static_cast<std::size_t>(d.self_pairs[k].first), ub = static_cast<std::size_t>(d.self_pairs[k].second);
    // Lanes the pair's table proves apart need no spheres: +inf there.
    double cleared[W];
    bool all_proven = d.pair_table[k] >= 0;
    for (std::size_t l = 0; l < W; ++l) cleared[l] = 0.0;
    if (d.pair_table[k] >= 0) {
      const PrefilterPairTable& t = d.tables[static_cast<std::size_t>(d.pair_table[k])];
      for (std::size_t l = 0; l < W; ++l) {
        int cell[2] = {0, 0};
        bool inside = true;
        for (int v = 0; v < t.count; ++v) {
          const double x = (s.q[static_cast<std::size_t>(t.variable[static_cast<std::size_t>(v)]) * W + l] -
                            t.lower[static_cast<std::size_t>(v)]) *
                           t.inverse_width[static_cast<std::size_t>(v)];
          inside &= x >= 0.0 && x < t.cells[static_cast<std::size_t>(v)];
          cell[v] = inside ? static_cast<int>(x) : 0;
        }
        const bool far = inside && t.bound[static_cast<std::size_t>(cell[0] * t.cells[1] + cell[1])] > tolerance;
        cleared[l] = far ? std::numeric_limits<double>::infinity() : 0.0;
        all_proven &= far;
      }
    }
    if (all_proven) continue;
    for (std::size_t l = 0; l < W; ++l) coarse[l] = std::numeric_limits<double>::infinity();
    lane_balls(s.bound_centers.data() + ua * 3 * W, &d.bound_radius[ua], 1, s.bound_centers.data() + ub * 3 * W,
               &d.bound_radius[ub], 1, tolerance, coarse);
    bool apart = true;
    for (std::size_t l = 0; l < W; ++l) apart &= coarse[l] > 0.0;
    if (apart) continue;
    double fine[W];
    for (std::size_t l = 0; l < W; ++l) fine[l] = std::numeric_limits<double>::infinity();
    lane_balls(s.centers.data() + d.begin[ua] * 3 * W, d.radius.data() + d.begin[ua], d.begin[ua + 1] - d.begin[ua],
               s.centers.data() + d.begin[ub] * 3 * W, d.radius.data() + d.begin[ub], d.begin[ub + 1] - d.begin[ub],
               tolerance, fine);
    for (std::size_t l = 0; l < W; ++l) clear[l] = std::min(clear[l], std::max(fine[l], cleared[l]));
    if (all_blocked(clear)) return;
  }
  // Each link's box over the lane group (its link ball in every lane): an
  // object whose box is farther than the tolerance from it on some axis is
  // farther from the link in every lane.
  double* link_box = s.link_boxes.data();
  for (const int link : d.geometric) {
    const auto ul = static_cast<std::size_t>(link);
    const double r = d.bound_radius[ul];
    for (std::size_t k = 0; k < 3; ++k) {
      double lo = std::numeric_limits<double>::infinity(), hi = -lo;
      for (std::size_t l = 0; l < W; ++l) {
        lo = std::min(lo, s.bound_centers[(ul * 3 + k) * W + l] - r);
        hi = std::max(hi, s.bound_centers[(ul * 3 + k) * W + l] + r);
      }
      link_box[ul * 6 + k] = lo;
      link_box[ul * 6 + 3 + k] = hi;
    }
  }
  for (std::size_t o = 0; o < scene.objects.size(); ++o) {
    const PrefilterObject& obj = scene.objects[o];
    for (const int link : d.geometric) {
      const auto ul = static_cast<std::size_t>(link);
      if (scene.skip[o * d.links + ul]) continue;
      bool boxes_apart = false;
      for (std::size_t k = 0; k < 3; ++k)
        boxes_apart |= obj.box_min[k] - link_box[ul * 6 + 3 + k] > tolerance ||
                       link_box[ul * 6 + k] - obj.box_max[k] > tolerance;
      if (boxes_apart) continue;
      for (std::size_t l = 0; l < W; ++l) coarse[l] = std::numeric_limits<double>::infinity();
      lane_object(s.bound_centers.data() + ul * 3 * W, &d.bound_radius[ul], 1, obj, tolerance, coarse);
      bool apart = true;
      for (std::size_t l = 0; l < W; ++l) apart &= coarse[l] > 0.0;
      if (apart) continue;
      lane_object(s.centers.data() + d.begin[ul] * 3 * W, d.radius.data() + d.begin[ul], d.begin[ul + 1] - d.begin[ul],
                  obj, tolerance, clear);
      if (all_blocked(clear)) return;
    }
  }
  for (std::size_t l = 0; l < rows; ++l) proven[l] = clear[l] > 0.0;
}

}  // namespace proxima::robot
