// SPDX-License-Identifier: BSD-3-Clause
// Conservative advancement (Mirtich 1996; Zhang, Redon, Lee, Manocha 2006,
// "Fast continuous collision detection for articulated models" / C²A): the
// loop behind every time_of_impact, convex, mesh or robot. It only needs the
// distance at a time and a bound on how fast that distance can shrink.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include <proxima/core/motion.hpp>
#include <proxima/query.hpp>
#include <proxima/shape/shape.hpp>

namespace proxima::narrow {

/// The largest distance from a shape's origin to a point of its core (the
/// shape without its inflation: a sphere's centre, a capsule's segment, any
/// shape without its margin); infinity for a halfspace. The speed bounds use
/// it, not the full extent: a body is its core ⊕ a ball, and turning a ball
/// about its centre moves none of it, so only the core's points count (a
/// ball turning in place closes in on nothing).
double core_radius(const Shape& s);

/// Request checks shared by every time_of_impact: clearance finite and ≥ 0,
/// accuracy finite and > 0, at least one iteration.
bool is_valid(const TimeOfImpactRequest& request);

/// How fast, per unit t, the separation along `n` (unit, B→A) of A and B can
/// shrink: n·(v_B − v_A) + |n × ω_A| r_A + |n × ω_B| r_B, r the core radii. Valid for convex
/// pairs, whose separation along the closest-point normal is their distance.
/// A body that does not turn adds no term, so its radius may be infinite.
inline double closing_speed_along(const Vec3& n, const RigidMotion& a, double ra, const RigidMotion& b,
                                  double rb) {
  double mu = n.dot(b.velocity - a.velocity);
  if (a.rotates()) mu += n.cross(a.angular_velocity).norm() * ra;
  if (b.rotates()) mu += n.cross(b.angular_velocity).norm() * rb;
  return mu;
}

/// The bound for pairs with no separating direction to use (non-convex):
/// |v_B − v_A| + |ω_A| r_A + |ω_B| r_B, r the core radii.
inline double closing_speed(const RigidMotion& a, double ra, const RigidMotion& b, double rb) {
  double mu = (b.velocity - a.velocity).norm();
  if (a.rotates()) mu += a.angular_velocity.norm() * ra;
  if (b.rotates()) mu += b.angular_velocity.norm() * rb;
  return mu;
}

/// A against a halfspace B that turns about B's origin (its radius is
/// infinite, so the bounds above do not apply). The distance is the least
/// height n_w·(x − p_B) − offset over A's core points x (less the
/// inflations), convex or not, and each height closes at most at
///   n_w·(v_B − v_A) + n_w·(ω_B × (x − p_B)) − n_w·(ω_A × (x − p_A)).
/// n_w turns about ω_B, keeping its angle to ω̂_B: the first term is at most
/// (n_w·ω̂_B)(u·ω̂_B) + |n_w × ω̂_B| |u × ω̂_B| (u = v_B − v_A), the second
/// |n_w × ω_B| (r_A + lever), the third |ω_A| r_A; lever bounds |p_A − p_B|
/// from `t` to the end (linear in t: the larger of the two ends). `n` is the
/// halfspace's world normal at any time of the motion, B turning.
inline double closing_speed_to_turning_halfspace(const Vec3& n, const RigidMotion& a, double ra,
                                                 const RigidMotion& b, double t) {
  const Vec3 gap0 = a.start.p - b.start.p, rel = a.velocity - b.velocity;
  const double lever = std::max((gap0 + t * rel).norm(), (gap0 + rel).norm());
  const Vec3 w = b.angular_velocity.normalized();
  const Vec3 u = -rel;
  const double along = n.dot(w) * u.dot(w) + n.cross(w).norm() * u.cross(w).norm();
  double mu = along + n.cross(b.angular_velocity).norm() * (ra + lever);
  if (a.rotates()) mu += a.angular_velocity.norm() * ra;
  return mu;
}

/// The advancement loop. `distance_at(t)` answers the pair's DistanceResult
/// at time t (distance ≥ 0, 0 when touching or overlapping); `speed(result)`
/// bounds how fast that distance can shrink from there on. Each step moves t
/// by (d − clearance − accuracy/2)/μ, after which the distance is still at
/// least clearance + accuracy/2: no contact is stepped over.
template <class DistanceAt, class Speed>
TimeOfImpactResult advance(const TimeOfImpactRequest& req, DistanceAt&& distance_at, Speed&& speed) {
  TimeOfImpactResult out;
  const double stop = req.clearance + req.accuracy;
  const double keep = req.clearance + 0.5 * req.accuracy;
  double t = 0.0;
  for (int it = 1; it <= req.max_iterations; ++it) {
    out.witness = distance_at(t);
    out.witness_time = t;
    out.iterations = it;
    if (out.witness.status == Status::invalid_input || out.witness.status == Status::not_implemented) {
      out.status = out.witness.status;
      out.collide = false;
      return out;
    }
    if (out.witness.distance <= stop) {
      out.collide = true;
      out.time = t;
      return out;
    }
    // An unconverged distance is an upper bound: a step from it could pass
    // the contact. Stop with the safe answer instead.
    if (out.witness.status != Status::ok) break;
    const double mu = speed(out.witness);
    if (mu <= 0.0) return out;  // nothing closes in: no contact up to t = 1
    if (!(mu < std::numeric_limits<double>::infinity())) break;  // no bound: cannot rule contact out
    t += (out.witness.distance - keep) / mu;
    if (!(t < 1.0)) return out;
  }
  out.status = Status::not_converged;
  out.collide = true;  // contact after t is not ruled out: report the safe answer
  out.time = t;
  return out;
}

}  // namespace proxima::narrow
