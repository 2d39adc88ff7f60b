// SPDX-License-Identifier: BSD-3-Clause
// The sphere prefilter's lane arithmetic (sphere_prefilter.cpp): forward
// kinematics, sphere centres and clearances over kPrefilterLanes joint
// vectors at once, each quantity a row of lanes (structure of arrays).
// Doubles throughout (a multiply and an add may be fused, which rounds
// once instead of twice), so the only rounding to account for is that of
// double arithmetic, which the spheres' allowances (sphere_fit.cpp) cover.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include <proxima/core/math.hpp>
#include <proxima/robot/robot_model.hpp>
#include <proxima/robot/sphere_prefilter.hpp>

namespace proxima::robot::detail {

// One joint of the forward kinematics with its matrices row-major.
struct PrefilterStep {
  int parent = -1, child = -1, variable = -1;
  bool revolute = false;
  double multiplier = 1.0, offset = 0.0;
  std::array<double, 9> fixed{}, cosine{}, sine{};
  std::array<double, 3> p{}, slide{};
};

/// An object as the lanes test it: an oriented box (rows of its rotation,
/// centre, half extents) grown by a ball of radius `grow`, or a halfspace
/// n·x ≤ offset. The outer one holds the object, margin included; the
/// inner one (of a solid primitive) is held by it.
struct PrefilterObject {
  bool halfspace = false;
  double grow = 0.0;
  std::array<double, 9> rows{};
  std::array<double, 3> center{}, half{};
  std::array<double, 3> normal{};
  double offset = 0.0;
};

/// The model's forward-kinematics steps (RobotModel::fk_steps) as the lanes
/// take them, in the same order.
std::vector<PrefilterStep> prefilter_steps(const RobotModel& model);

/// Joint angles beyond this (rad) leave a lane to the exact check.
inline constexpr double kAngleRange = 1e4;

/// sin and cos of each of kPrefilterLanes angles (|v| ≤ kAngleRange), as
/// lane_kinematics computes them: absolute error below 1e-15.
void lane_sin_cos(const double* v, double* sn, double* cs);

/// Forward kinematics of every link over the lanes (rot: 9 rows per link,
/// pos: 3, the root's filled in); clears usable[l] (sets it to −1) for a
/// lane with an angle beyond kAngleRange, or with a coordinate of a link
/// origin (the root's aside) beyond ±range or not a number.
void lane_kinematics(const std::vector<PrefilterStep>& steps, const double* q, double range, double* rot,
                     double* pos, double* usable);
/// World centres of `count` local points of one link: R c + p per lane.
void lane_points(const double* rot, const double* pos, const Vec3* local, std::size_t count, double* out);
/// Smallest squared clearance |c_a − c_b|² − (r_a + r_b + t)² over the ball
/// pairs, folded (min) into `clear`.
void lane_balls(const double* ca, const double* ra, std::size_t count_a, const double* cb, const double* rb,
                std::size_t count_b, double t, double* clear);
/// The same for balls against an object: squared distance to its box less
/// (r + grow + t)², or for a halfspace the signed gap n·c − r − grow − t −
/// offset.
void lane_object(const double* c, const double* r, std::size_t count, const PrefilterObject& o, double t,
                 double* clear);

/// World points of `count` links, one local point each (`local[i]` on link
/// links[i]): out gets 3 rows of lanes per link index, as `pos` holds them.
void lane_link_points(const double* rot, const double* pos, const Vec3* local, const int* links, std::size_t count,
                      double* out);
/// For each pair k of `pairs` (link indices): the lanes (bit l: lane l) in
/// which the two links' balls (centres: 3 rows of lanes per link; radius
/// per link), grown by t, are apart, the clearance as lane_balls computes
/// it above zero, into apart[k].
void lane_pairs_apart(const double* centers, const double* radius, const std::pair<int, int>* pairs,
                      std::size_t count, double t, unsigned char* apart);

/// Objects whose boxes near_objects compares at once.
inline constexpr std::size_t kBoxChunk = 64;
/// For objects first .. first + count − 1 (count ≤ kBoxChunk; their boxes
/// in `bounds`: six rows of `stride` values, min xyz then max xyz, a
/// halfspace's unbounded): bit i set for object first + i unless the box of
/// a link's ball (centre: 3 rows of lanes; radius) over the lanes of
/// `lanes` (bit l: lane l; not empty) has a gap along some axis beyond t to
/// the object's box, a lower bound on their distance in each of those lanes.
std::uint64_t near_objects(const double* center, double radius, unsigned lanes, const double* bounds,
                           std::size_t stride, std::size_t first, std::size_t count, double t);

}  // namespace proxima::robot::detail
