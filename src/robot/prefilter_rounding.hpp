// SPDX-License-Identifier: BSD-3-Clause
// How far the prefilter's float lanes (prefilter_lanes.cpp) can stray from
// the real numbers they stand for, and the rounding that keeps their
// verdicts conservative. The lanes work relative to the batch's origin O
// (the base's position), every link origin within ±range of it (a lane
// beyond leaves for the exact check). u = 2^-24 is float's unit roundoff
// and γ_n = n u / (1 − n u) bounds the rounding of an n-term dot product,
// fused or not (Higham, Accuracy and Stability of Numerical Algorithms,
// §3.1). Double arithmetic (the angles, their sines and cosines, the
// model's matrices) is the exact check's, whose rounding the spheres'
// allowance of 1e-8 m covers (sphere_fit.cpp); what is bounded here is
// what float adds to it.
//
// Kinematics (a link C after its parent P, L the joint's local rotation
// fixed + cos θ·cosine + sin θ·sine, t its translation): with ρ bounding
// ‖R̃ − R‖₂ and π bounding |p̃ − p| (Euclidean),
//   ‖L̃ − L‖_F ≤ λ = ‖γ_4 (|fixed| + |cosine| + |sine|) + (5u + 2^-48) (|cosine| + |sine|)‖_F
//     (each entry rounded to float, cos and sin within 4u + 1e-15 of
//     their values (lane_sin_cos), two fused adds),
//   ρ_C = ρ_P (1 + λ) + λ + 3 γ_3 (1 + ρ_P)(1 + λ)
//     (R̃_P L̃ − R_P L = (R̃_P − R_P) L̃ + R_P (L̃ − L); each entry's 3-term
//     dot product rounds by γ_3 times a row of R̃_P (≤ 1 + ρ_P) times a
//     column of L̃ (≤ 1 + λ)),
//   π_C = π_P + ρ_P |t̃| + |t̃ − t| + √3 γ_4 ((1 + ρ_P)|t̃| + range)
//     (p̃_C = R̃_P t̃ + p̃_P, a 4-term sum per coordinate, |p̃_P| ≤ range),
// with |t̃ − t| ≤ u |t| for a revolute or fixed joint and γ_4 (|p| + travel
// |slide|) for a prismatic one (its value within ±travel, else the lane
// leaves). A point c of link l, x̃ = R̃ c̃ + p̃ in float, is then within
//   δ = π_l + ρ_l |c|(1 + u) + u |c| + √3 γ_4 ((1 + ρ_l)(1 + u)|c| + range)
// of its real place: point_allowance. Outer radii grow by δ and are rounded
// up; inner radii shrink by it and are rounded down (a ball left with no
// radius is dropped).
//
// A clearance |d̃|² − reach² of two balls: each difference rounds once,
// each square once and the sum twice, so the computed |d̃|² is within a
// factor (1 ± u)^5 of the exact |x̃_a − x̃_b|². The reach (r_a + r_b + t,
// the radii already grown by their δ, t rounded up) is summed in float
// (two roundings), times 1 + 16 u (one more) and squared (one more): at
// least (1 − u)^4 (1 + 16 u)² > (1 + u)^5 times the real reach², so that a
// positive clearance means |x̃_a − x̃_b| > r_a + δ_a + r_b + δ_b + t and the
// real centres are farther than r_a + r_b + t. For a proof of "within",
// t rounded down and 1 − 16 u, the other way round (inner radii and t are
// never negative). reach_squared does the same in double for an object,
// whose reach may not be positive (then nothing is proven within). Boxes
// and halfspaces: box_allowance and halfspace_allowance.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include <proxima/core/math.hpp>

#include "prefilter_lanes.hpp"

namespace proxima::robot::detail {

inline constexpr double kUnit = 0x1p-24;

/// γ_n: the relative rounding of an n-term float dot product.
inline constexpr double float_gamma(int n) { return n * kUnit / (1.0 - n * kUnit); }

/// A float ≥ x, and one ≤ x, at most two units of rounding away: x moved
/// out by 2^-22 of itself (and 2^-140, for the subnormal floats) and then
/// rounded to nearest, which moves it back by at most 2^-24 of itself.
inline float float_up(double x) {
  if (!std::isfinite(x)) return static_cast<float>(x);
  return static_cast<float>(x + std::abs(x) * 0x1p-22 + 0x1p-140);
}
inline float float_down(double x) {
  if (!std::isfinite(x)) return static_cast<float>(x);
  return static_cast<float>(x - std::abs(x) * 0x1p-22 - 0x1p-140);
}

/// What lane_balls and lane_pairs_apart multiply a reach summed in float
/// by: 1 ± 2^-20 = 1 ± 16 u, exact in float (header comment).
inline constexpr float kReachUp = 1.0f + 0x1p-20f, kReachDown = 1.0f - 0x1p-20f;

/// The squared reach of two balls (radii r_a, r_b, floats ≥ 0, grown or
/// shrunk by their allowance already; tolerance t ≥ 0), summed and rounded
/// in float the way `proof` needs (header comment).
inline float ball_reach_squared(float ra, float rb, double t, Proof proof) {
  const bool up = proof == Proof::apart;
  const float tf = up ? float_up(t) : std::max(float_down(t), 0.0f);
  const float reach = (ra + rb + tf) * (up ? kReachUp : kReachDown);
  return reach * reach;
}

/// The float a clearance's squared reach is compared with (header comment).
inline float reach_squared(double reach, Proof proof) {
  if (proof == Proof::apart) {
    const double r = reach * (1.0 + 9.0 * kUnit);
    return float_up(r * r * (1.0 + 0x1p-50));
  }
  if (!(reach > 0.0)) return 0.0f;
  const double r = reach * (1.0 - 9.0 * kUnit);
  return float_down(r * r * (1.0 - 0x1p-50));
}

/// ρ_l and π_l of every link (header comment), for link origins within
/// ±range of the origin and prismatic values within ±travel; the root's
/// rotation is the base's, rounded to float entry by entry, its origin 0.
struct KinematicsAllowance {
  double range = 0.0, travel = 0.0;
  std::vector<double> rot, pos;
};
KinematicsAllowance kinematics_allowance(const std::vector<PrefilterStep>& steps, std::size_t links, int root,
                                         double range, double travel);

/// δ of a point `c` of link `link` (header comment).
double point_allowance(const KinematicsAllowance& a, std::size_t link, const Vec3& c);

/// What the float box test of an object (prefilter_lanes.cpp lane_object)
/// may err by, for a ball centre within `reach` of the origin (Euclidean;
/// its own δ is in its radius) and a box whose centre is `center` from the
/// origin, half extents of norm `half`: the difference d = x̃ − c̃ (c̃ rounded
/// to float: u |c|; the difference: u |d|), its local coordinates (float
/// rows within u, a 3-term product: γ_3 (1 + u)|d| each, √3 of that in
/// norm), the excess over the half extents (u (|local| + 2 half) a
/// coordinate): added to the outer box's growth, taken off the inner one's.
double box_allowance(double reach, double center, double half);
/// The same for a halfspace: n·x̃ with n rounded to float (u |x̃|) and a
/// 3-term product (γ_3 (1 + u)|x̃|).
double halfspace_allowance(double reach);

}  // namespace proxima::robot::detail
