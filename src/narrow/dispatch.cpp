// Pair dispatch. Closed forms are exact (also when overlapping) and cheap;
// every other bounded pair goes through GJK on the cores. Halfspaces are
// unbounded and only ever closed form.
#include <proxima/narrow/closed_form.hpp>
#include <proxima/narrow/dispatch.hpp>
#include <proxima/narrow/epa.hpp>
#include <proxima/narrow/incremental_depth.hpp>
#include <proxima/narrow/mpr.hpp>
#include <proxima/narrow/sat.hpp>

namespace proxima::narrow {
namespace {

// Turns an exact signed-distance result into the answer for `mode`.
DistanceResult finish_exact(DistanceResult r, const DistanceRequest& req, Mode mode) {
  if (r.status == Status::not_implemented) {
    // Unbounded overlap (two non-opposed halfspaces): it collides, depth infinite.
    if (mode != Mode::signed_distance) r.status = Status::ok;
    return r;
  }
  if (mode != Mode::signed_distance && r.distance <= 0.0) {
    // Overlap: distance 0 at a common point. The midpoint of the deepest
    // points lies in both convex sets.
    r.distance = 0.0;
    r.point_a = r.point_b = 0.5 * (r.point_a + r.point_b);
  }
  r.bound_exceeded = r.distance > req.bound;
  return r;
}

template <class A, class B, DistanceResult (*F)(const A&, const Transform&, const B&, const Transform&)>
DistanceResult analytic(const Shape& a, const Transform& ta, const Shape& b, const Transform& tb,
                        const DistanceRequest& req, Mode mode) {
  return finish_exact(F(a.as<A>(), ta, b.as<B>(), tb), req, mode);
}

// The reversed pair through the same closed form: swap the roles, flip the normal.
template <class A, class B, DistanceResult (*F)(const B&, const Transform&, const A&, const Transform&)>
DistanceResult flipped(const Shape& a, const Transform& ta, const Shape& b, const Transform& tb,
                       const DistanceRequest& req, Mode mode) {
  DistanceResult r = F(b.as<B>(), tb, a.as<A>(), ta);
  r.normal = -r.normal;
  std::swap(r.point_a, r.point_b);
  return finish_exact(r, req, mode);
}

template <class S>
inline constexpr bool kPolyhedral = std::is_same_v<S, Box> || std::is_same_v<S, ConvexPolytope>;

// Exact SAT for a pair of boxes and polytopes (paper 001, Alg. 1–2).
template <class A, class B>
DistanceResult sat_pair(const A& a, const Transform& ta, const B& b, const Transform& tb) {
  if constexpr (std::is_same_v<A, Box> && std::is_same_v<B, Box>) return sat_box_box(a, ta, b, tb);
  else if constexpr (std::is_same_v<A, Box>) return sat_box_polytope(a, ta, b, tb);
  else if constexpr (std::is_same_v<B, Box>) return sat_polytope_box(a, ta, b, tb);
  else return sat_polytope_polytope(a, ta, b, tb);
}

// Penetration of two shapes whose cores overlap (GJK's final simplex given),
// by the method the request names.
template <class A, class B>
DistanceResult overlap_depth(const A& a, const Transform& ta, const B& b, const Transform& tb,
                             const detail::Simplex& simplex, const DistanceRequest& req) {
  const double ra = a.core_inflation(), rb = b.core_inflation();
  switch (req.method) {
    case Method::sat:
      if constexpr (kPolyhedral<A> && kPolyhedral<B>) return sat_pair(a, ta, b, tb);
      break;
    case Method::incremental: {
      const Vec3 guess = req.cache ? req.cache->direction : Vec3(Vec3::Zero());
      return incremental_penetration(a, ta, b, tb, guess);
    }
    case Method::mpr: {
      // Ray from the origin of A ⊖ B towards B's centre minus A's: the side
      // A leaves through when pushed away from B along the centre line.
      Vec3 dir = tb.p - ta.p;
      if (!(dir.squaredNorm() > 0.0)) dir = Vec3::UnitZ();
      const MprRayResult m = mpr_ray(a, ta, b, tb, dir);
      DistanceResult r;
      r.status = m.status;
      r.iterations = m.iterations;
      r.normal = -m.normal;
      r.distance = -std::max(0.0, m.support_value);
      r.point_a = ta.apply(a.core_support(ta.rotate_inverse(-r.normal))) - ra * r.normal;
      r.point_b = r.point_a - r.distance * r.normal;
      return r;
    }
    case Method::automatic:
      if constexpr (std::is_same_v<A, Box> && std::is_same_v<B, Box>) return sat_box_box(a, ta, b, tb);
      [[fallthrough]];
    case Method::gjk: {
      // EPA on the cores, plus the radii around them.
      const EpaResult e = epa(a, ta, b, tb, simplex);
      DistanceResult r;
      r.status = e.status;
      r.iterations = e.iterations;
      r.normal = e.normal;
      r.distance = -(e.depth + ra + rb);
      r.point_a = e.point_a - ra * e.normal;
      r.point_b = e.point_b + rb * e.normal;
      return r;
    }
    case Method::analytic:
      break;
  }
  DistanceResult r;
  r.status = Status::not_implemented;
  return r;
}

template <class A, class B>
DistanceResult gjk_pair(const Shape& sa, const Transform& ta, const Shape& sb, const Transform& tb,
                        const DistanceRequest& req, Mode mode) {
  const A& a = sa.as<A>();
  const B& b = sb.as<B>();
  const double ra = a.core_inflation(), rb = b.core_inflation(), radii = ra + rb;
  // Box–box depth: SAT's 15 axes answer an overlap exactly without GJK.
  if constexpr (std::is_same_v<A, Box> && std::is_same_v<B, Box>) {
    if (mode == Mode::signed_distance && req.method == Method::automatic) {
      const DistanceResult s = sat_box_box(a, ta, b, tb);
      if (s.status == Status::ok && s.distance < 0.0) return s;
    }
  }
  GjkOptions opt;
  opt.tol_abs = req.tol_abs;
  opt.tol_rel = req.tol_rel;
  opt.max_iterations = req.max_iterations;
  opt.stop_above = (mode == Mode::collide ? 0.0 : req.bound) + radii;
  opt.stop_below = mode == Mode::signed_distance ? -1.0 : radii;
  detail::Simplex simplex;
  const GjkResult g = gjk(a, ta, b, tb, opt, req.cache, mode == Mode::signed_distance ? &simplex : nullptr);

  DistanceResult r;
  r.status = g.status;
  r.iterations = g.iterations;
  if (g.status == Status::invalid_input) return r;
  if (g.overlap) {
    r.point_a = r.point_b = g.point_a;
    if (mode == Mode::signed_distance) {
      DistanceResult d = overlap_depth(a, ta, b, tb, simplex, req);
      d.iterations += r.iterations;
      return d;
    }
    return r;
  }
  const Vec3 n = g.direction;
  r.normal = n;
  r.point_a = g.point_a - ra * n;
  r.point_b = g.point_b + rb * n;
  if (g.stopped_above) {
    r.distance = g.lower_bound - radii;
    r.bound_exceeded = true;
    return r;
  }
  r.distance = g.distance - radii;
  if (mode != Mode::signed_distance && (g.stopped_below || r.distance <= 0.0)) {
    r.distance = 0.0;
    r.point_a = r.point_b = 0.5 * (r.point_a + r.point_b);
  }
  return r;
}

using S = Sphere;
using Ca = Capsule;
using Cy = Cylinder;
using Co = Cone;
using Bx = Box;
using El = Ellipsoid;
using Hs = Halfspace;
using Cv = ConvexPolytope;
namespace cf = closed_form;

// clang-format off
constexpr PairFn kAnalytic[kShapeTypeCount][kShapeTypeCount] = {
  //            sphere                                  capsule                                  cylinder  cone     box                                ellipsoid halfspace                                         convex
  /*sphere*/   {analytic<S, S, cf::sphere_sphere>,      analytic<S, Ca, cf::sphere_capsule>,     nullptr,  nullptr, analytic<S, Bx, cf::sphere_box>,   nullptr,  analytic<S, Hs, cf::shape_halfspace<S>>,   nullptr},
  /*capsule*/  {flipped<Ca, S, cf::sphere_capsule>,     analytic<Ca, Ca, cf::capsule_capsule>,   nullptr,  nullptr, nullptr,                           nullptr,  analytic<Ca, Hs, cf::shape_halfspace<Ca>>, nullptr},
  /*cylinder*/ {nullptr,                                nullptr,                                 nullptr,  nullptr, nullptr,                           nullptr,  analytic<Cy, Hs, cf::shape_halfspace<Cy>>, nullptr},
  /*cone*/     {nullptr,                                nullptr,                                 nullptr,  nullptr, nullptr,                           nullptr,  analytic<Co, Hs, cf::shape_halfspace<Co>>, nullptr},
  /*box*/      {flipped<Bx, S, cf::sphere_box>,         nullptr,                                 nullptr,  nullptr, nullptr,                           nullptr,  analytic<Bx, Hs, cf::shape_halfspace<Bx>>, nullptr},
  /*ellipsoid*/{nullptr,                                nullptr,                                 nullptr,  nullptr, nullptr,                           nullptr,  analytic<El, Hs, cf::shape_halfspace<El>>, nullptr},
  /*halfspace*/{flipped<Hs, S, cf::shape_halfspace<S>>, flipped<Hs, Ca, cf::shape_halfspace<Ca>>, flipped<Hs, Cy, cf::shape_halfspace<Cy>>, flipped<Hs, Co, cf::shape_halfspace<Co>>, flipped<Hs, Bx, cf::shape_halfspace<Bx>>, flipped<Hs, El, cf::shape_halfspace<El>>, analytic<Hs, Hs, cf::halfspace_halfspace>, flipped<Hs, Cv, cf::shape_halfspace<Cv>>},
  /*convex*/   {nullptr,                                nullptr,                                 nullptr,  nullptr, nullptr,                           nullptr,  analytic<Cv, Hs, cf::shape_halfspace<Cv>>, nullptr},
};

constexpr PairFn kGjk[kShapeTypeCount][kShapeTypeCount] = {
  //            sphere            capsule            cylinder           cone               box                ellipsoid          halfspace convex
  /*sphere*/   {gjk_pair<S, S>,  gjk_pair<S, Ca>,  gjk_pair<S, Cy>,  gjk_pair<S, Co>,  gjk_pair<S, Bx>,  gjk_pair<S, El>,  nullptr,  gjk_pair<S, Cv>},
  /*capsule*/  {gjk_pair<Ca, S>, gjk_pair<Ca, Ca>, gjk_pair<Ca, Cy>, gjk_pair<Ca, Co>, gjk_pair<Ca, Bx>, gjk_pair<Ca, El>, nullptr,  gjk_pair<Ca, Cv>},
  /*cylinder*/ {gjk_pair<Cy, S>, gjk_pair<Cy, Ca>, gjk_pair<Cy, Cy>, gjk_pair<Cy, Co>, gjk_pair<Cy, Bx>, gjk_pair<Cy, El>, nullptr,  gjk_pair<Cy, Cv>},
  /*cone*/     {gjk_pair<Co, S>, gjk_pair<Co, Ca>, gjk_pair<Co, Cy>, gjk_pair<Co, Co>, gjk_pair<Co, Bx>, gjk_pair<Co, El>, nullptr,  gjk_pair<Co, Cv>},
  /*box*/      {gjk_pair<Bx, S>, gjk_pair<Bx, Ca>, gjk_pair<Bx, Cy>, gjk_pair<Bx, Co>, gjk_pair<Bx, Bx>, gjk_pair<Bx, El>, nullptr,  gjk_pair<Bx, Cv>},
  /*ellipsoid*/{gjk_pair<El, S>, gjk_pair<El, Ca>, gjk_pair<El, Cy>, gjk_pair<El, Co>, gjk_pair<El, Bx>, gjk_pair<El, El>, nullptr,  gjk_pair<El, Cv>},
  /*halfspace*/{nullptr,         nullptr,          nullptr,          nullptr,          nullptr,          nullptr,          nullptr,  nullptr},
  /*convex*/   {gjk_pair<Cv, S>, gjk_pair<Cv, Ca>, gjk_pair<Cv, Cy>, gjk_pair<Cv, Co>, gjk_pair<Cv, Bx>, gjk_pair<Cv, El>, nullptr,  gjk_pair<Cv, Cv>},
};
// clang-format on

int idx(ShapeType t) { return static_cast<int>(t); }

}  // namespace

PairFn analytic_fn(ShapeType a, ShapeType b) { return kAnalytic[idx(a)][idx(b)]; }
PairFn gjk_fn(ShapeType a, ShapeType b) { return kGjk[idx(a)][idx(b)]; }

PairFn select(ShapeType a, ShapeType b, Method method) {
  switch (method) {
    case Method::analytic: return analytic_fn(a, b);
    case Method::automatic: break;
    default: return gjk_fn(a, b);  // GJK first; the method decides the overlap
  }
  PairFn f = analytic_fn(a, b);
  return f ? f : gjk_fn(a, b);
}

}  // namespace proxima::narrow
