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

/// The largest distance from a shape's origin to a point of it, margin
/// included; infinity for a halfspace.
double bounding_radius(const Shape& s);

/// Request checks shared by every time_of_impact: clearance finite and ≥ 0,
/// accuracy finite and > 0, at least one iteration.
bool is_valid(const TimeOfImpactRequest& request);

/// How fast, per unit t, the separation along `n` (unit, B→A) of A and B can
/// shrink: n·(v_B − v_A) + |n × ω_A| r_A + |n × ω_B| r_B. Valid for convex
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
/// |v_B − v_A| + |ω_A| r_A + |ω_B| r_B.
inline double closing_speed(const RigidMotion& a, double ra, const RigidMotion& b, double rb) {
  double mu = (b.velocity - a.velocity).norm();
  if (a.rotates()) mu += a.angular_velocity.norm() * ra;
  if (b.rotates()) mu += b.angular_velocity.norm() * rb;
  return mu;
}

/// The bound for A against a B that turns about its origin, in B's frame
/// (where B stands still: the way to advance against a turning halfspace,
/// whose radius is infinite). A point x of A sits at y = R_B(t)ᵀ(x − p_B(t))
/// and moves at most |v_A − v_B| + |ω_A| r_A + |ω_B| (r_A + lever), lever the
/// largest |p_A − p_B| over the motion (a linear function of t, so its
/// largest length is at an end).
inline double closing_speed_in_frame_of_b(const RigidMotion& a, double ra, const RigidMotion& b,
                                          const Transform& a_end, const Transform& b_end) {
  const double lever = std::max((a.start.p - b.start.p).norm(), (a_end.p - b_end.p).norm());
  double mu = (a.velocity - b.velocity).norm();
  if (a.rotates()) mu += a.angular_velocity.norm() * ra;
  if (b.rotates()) mu += b.angular_velocity.norm() * (ra + lever);
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
