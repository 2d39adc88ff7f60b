// SPDX-License-Identifier: BSD-3-Clause
#include <proxima/narrow/dispatch.hpp>
#include <proxima/narrow/incremental_depth.hpp>
#include <proxima/query.hpp>

namespace proxima {

bool penetration_cache_valid(const PenetrationCache& cache) {
  return cache.direction.squaredNorm() < std::numeric_limits<double>::infinity() && cache.hint_a >= -1 &&
         cache.hint_b >= -1 && cache.cores.valid();
}
namespace {

DistanceResult run(const Shape& a, const Transform& ta, const Shape& b, const Transform& tb,
                   const DistanceRequest& req, narrow::Mode mode) {
  // A penetration cache is signed_distance's alone (DistanceRequest::penetration).
  if (!both_valid(ta, tb) || !req.valid() || (req.penetration && mode != narrow::Mode::signed_distance)) {
    DistanceResult r;
    r.status = Status::invalid_input;
    return r;
  }
  const narrow::PairFn f = narrow::select(a.type(), b.type(), req.method);
  if (!f) {
    DistanceResult r;
    r.status = Status::not_implemented;
    return r;
  }
  return f(a, ta, b, tb, req, mode);
}

}  // namespace

CollideResult collide(const Shape& a, const Transform& pose_a, const Shape& b,
                      const Transform& pose_b, const CollideRequest& request) {
  DistanceRequest req;
  req.method = request.method;
  req.cache = request.cache;
  const DistanceResult r = run(a, pose_a, b, pose_b, req, narrow::Mode::collide);
  return {r.status, r.status == Status::ok && r.distance <= 0.0 && !r.bound_exceeded, r.iterations};
}

DistanceResult distance(const Shape& a, const Transform& pose_a, const Shape& b,
                        const Transform& pose_b, const DistanceRequest& request) {
  return run(a, pose_a, b, pose_b, request, narrow::Mode::distance);
}

ToleranceResult tolerance(const Shape& a, const Transform& pose_a, const Shape& b, const Transform& pose_b,
                          double tolerance, const DistanceRequest& request) {
  ToleranceResult out;
  if (!(tolerance >= 0.0 && tolerance <= kMaxLength)) {
    out.status = Status::invalid_input;
    return out;
  }
  DistanceRequest req = request;
  req.bound = tolerance;
  const DistanceResult r = run(a, pose_a, b, pose_b, req, narrow::Mode::tolerance);
  out.status = r.status;
  out.iterations = r.iterations;
  out.distance = r.distance;
  out.within = r.status == Status::ok && !r.bound_exceeded && r.distance <= tolerance;
  return out;
}

DistanceResult signed_distance(const Shape& a, const Transform& pose_a, const Shape& b,
                               const Transform& pose_b, const DistanceRequest& request) {
  return run(a, pose_a, b, pose_b, request, narrow::Mode::signed_distance);
}

}  // namespace proxima
