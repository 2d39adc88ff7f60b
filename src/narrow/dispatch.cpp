// SPDX-License-Identifier: BSD-3-Clause
// Pair dispatch. Closed forms are exact (also when overlapping) and cheap;
// every other bounded pair goes through GJK on the cores. Halfspaces are
// unbounded and only ever closed form.
#include <type_traits>

#include <proxima/narrow/closed_form.hpp>
#include <proxima/narrow/dispatch.hpp>
#include <proxima/narrow/gjk.hpp>

#include "closed_form_impl.hpp"
#include "gjk_pair.hpp"

namespace proxima::narrow {
namespace {

// A point inside both bodies, from an exact signed distance ≤ 0 (points on
// the surfaces, normal B→A). ca and cb are the cores' points behind them
// (a sphere's centre, a capsule's segment point), g the cores' signed
// distance. Cores apart: the point on ca–cb within r_a of ca and r_b of cb.
// Cores overlapping: a sphere's centre (then inside the other core), a
// halfspace's partner's deepest point (under the plane), crossing segments'
// common point; else GJK's point of both cores. (The midpoint of the surface
// points is not always in both: a capsule deep in a box's corner put it up
// to 1.6 cm outside the box.)
template <class A, class B>
Vec3 common_point(const DistanceResult& r, const A& a, const Transform& ta, const B& b, const Transform& tb) {
  const double ra = a.core_inflation(), rb = b.core_inflation();
  if constexpr (std::is_same_v<B, Halfspace>) {
    return r.point_a;
  } else if constexpr (std::is_same_v<A, Halfspace>) {
    return r.point_b;
  } else {
    const Vec3 ca = r.point_a + ra * r.normal, cb = r.point_b - rb * r.normal;
    const double g = r.distance + ra + rb;
    if (g >= 0.0) return ca - (ra + rb > 0.0 ? ra / (ra + rb) : 0.5) * g * r.normal;
    if constexpr (std::is_same_v<A, Sphere> || (std::is_same_v<A, Capsule> && std::is_same_v<B, Capsule>)) return ca;
    if constexpr (std::is_same_v<B, Sphere>) return cb;
    // GJK's point of the cores' overlap (its simplex's weights); cores found
    // only touching, the point within r_a of A's and r_b of B's.
    const GjkResult common = gjk(a, ta, b, tb);
    return common.point_a - (ra + rb > 0.0 ? ra / (ra + rb) : 0.5) * (common.point_a - common.point_b);
  }
}

// Turns an exact signed-distance result into the answer for `mode`, in
// place (the result is the caller's return value: no copy of it).
template <class A, class B>
inline void finish_exact(DistanceResult& r, const A& a, const Transform& ta, const B& b, const Transform& tb,
                         const DistanceRequest& req, Mode mode) {
  if (r.status == Status::not_implemented) {
    // Unbounded overlap (two non-opposed halfspaces): it collides, depth infinite.
    if (mode != Mode::signed_distance) r.status = Status::ok;
    return;
  }
  if (mode != Mode::signed_distance && r.distance <= 0.0) {
    // Overlap: distance 0 at a common point; the normal stays the depth's.
    r.point_a = r.point_b = common_point<A, B>(r, a, ta, b, tb);
    r.distance = 0.0;
  }
  r.bound_exceeded = r.distance > req.bound;
}

template <class A, class B, DistanceResult (*F)(const A&, const Transform&, const B&, const Transform&)>
DistanceResult analytic(const Shape& a, const Transform& ta, const Shape& b, const Transform& tb,
                        const DistanceRequest& req, Mode mode) {
  DistanceResult r = F(a.as<A>(), ta, b.as<B>(), tb);
  finish_exact(r, a.as<A>(), ta, b.as<B>(), tb, req, mode);
  return r;
}

// The reversed pair through the same closed form: swap the roles, flip the normal.
template <class A, class B, DistanceResult (*F)(const B&, const Transform&, const A&, const Transform&)>
DistanceResult flipped(const Shape& a, const Transform& ta, const Shape& b, const Transform& tb,
                       const DistanceRequest& req, Mode mode) {
  DistanceResult r = F(b.as<B>(), tb, a.as<A>(), ta);
  r.normal = -r.normal;
  std::swap(r.point_a, r.point_b);
  finish_exact(r, a.as<A>(), ta, b.as<B>(), tb, req, mode);
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
namespace cfi = closed_form::impl;  // unchecked (run() checked the poses); inline but for halfspace–halfspace
using detail::gjk_pair;

}  // namespace

// clang-format off
constexpr PairFn kAnalyticPairs[kShapeTypeCount][kShapeTypeCount] = {
  //            sphere                                  capsule                                  cylinder  cone     box                                ellipsoid halfspace                                         convex
  /*sphere*/   {analytic<S, S, cfi::sphere_sphere>,      analytic<S, Ca, cfi::sphere_capsule>,     analytic<S, Cy, cfi::sphere_cylinder>, analytic<S, Co, cfi::sphere_cone>, analytic<S, Bx, cfi::sphere_box>,   analytic<S, El, cfi::sphere_ellipsoid>,  analytic<S, Hs, cfi::shape_halfspace<S>>,   nullptr},
  /*capsule*/  {flipped<Ca, S, cfi::sphere_capsule>,     analytic<Ca, Ca, cfi::capsule_capsule>,   nullptr,  nullptr, analytic<Ca, Bx, cfi::capsule_box>, nullptr,  analytic<Ca, Hs, cfi::shape_halfspace<Ca>>, nullptr},
  /*cylinder*/ {flipped<Cy, S, cfi::sphere_cylinder>,   nullptr,                                 nullptr,  nullptr, nullptr,                           nullptr,  analytic<Cy, Hs, cfi::shape_halfspace<Cy>>, nullptr},
  /*cone*/     {flipped<Co, S, cfi::sphere_cone>,       nullptr,                                 nullptr,  nullptr, nullptr,                           nullptr,  analytic<Co, Hs, cfi::shape_halfspace<Co>>, nullptr},
  /*box*/      {flipped<Bx, S, cfi::sphere_box>,         flipped<Bx, Ca, cfi::capsule_box>,        nullptr,  nullptr, nullptr,                           nullptr,  analytic<Bx, Hs, cfi::shape_halfspace<Bx>>, nullptr},
  /*ellipsoid*/{flipped<El, S, cfi::sphere_ellipsoid>,  nullptr,                                 nullptr,  nullptr, nullptr,                           nullptr,  analytic<El, Hs, cfi::shape_halfspace<El>>, nullptr},
  /*halfspace*/{flipped<Hs, S, cfi::shape_halfspace<S>>, flipped<Hs, Ca, cfi::shape_halfspace<Ca>>, flipped<Hs, Cy, cfi::shape_halfspace<Cy>>, flipped<Hs, Co, cfi::shape_halfspace<Co>>, flipped<Hs, Bx, cfi::shape_halfspace<Bx>>, flipped<Hs, El, cfi::shape_halfspace<El>>, analytic<Hs, Hs, cfi::halfspace_halfspace>, flipped<Hs, Cv, cfi::shape_halfspace<Cv>>},
  /*convex*/   {nullptr,                                nullptr,                                 nullptr,  nullptr, nullptr,                           nullptr,  analytic<Cv, Hs, cfi::shape_halfspace<Cv>>, nullptr},
};

constexpr PairFn kGjkPairs[kShapeTypeCount][kShapeTypeCount] = {
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

}  // namespace proxima::narrow
