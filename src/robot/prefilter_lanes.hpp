// SPDX-License-Identifier: BSD-3-Clause
// The sphere prefilter's lane arithmetic (sphere_prefilter.cpp): forward
// kinematics, sphere centres and clearances over kPrefilterLanes joint
// vectors at once, each quantity a row of lanes (structure of arrays).
// Floats (eight to an AVX2 register), relative to the batch's origin; the
// joint angles and their sines and cosines in double. What float rounding
// can do is bounded in prefilter_rounding.hpp and added to the radii
// (taken off the inner balls'); a multiply and an add may be fused, which
// rounds once instead of twice and keeps every bound.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include <proxima/core/math.hpp>
#include <proxima/core/transform.hpp>
#include <proxima/robot/robot_model.hpp>
#include <proxima/robot/sphere_prefilter.hpp>

namespace proxima::robot::detail {

// One joint of the forward kinematics with its matrices row-major, in
// double (as the model has them) and rounded to float (as the lanes use
// them).
struct PrefilterStep {
  int parent = -1, child = -1, variable = -1;
  bool revolute = false;
  double multiplier = 1.0, offset = 0.0;
  std::array<double, 9> fixed{}, cosine{}, sine{};
  std::array<double, 3> p{}, slide{};
  std::array<float, 9> fixed_f{}, cosine_f{}, sine_f{};
  std::array<float, 3> p_f{}, slide_f{};
};

/// An object as the lanes test it, in the lanes' frame (world less the
/// batch's origin, prefilter_rounding.hpp): an oriented box (rows of its
/// rotation, centre, half extents) grown by `grow`, or a halfspace
/// n·x ≤ offset; the rounding of the float arithmetic is in `grow` and
/// `offset` already (outward for the outer object, which holds the object
/// with its margin; inward for the inner one, which it holds).
struct PrefilterObject {
  bool halfspace = false;
  double grow = 0.0;
  std::array<float, 9> rows{};
  std::array<float, 3> center{}, half{};
  std::array<float, 3> normal{};
  double offset = 0.0;
};

/// The model's forward-kinematics steps (RobotModel::fk_steps) as the lanes
/// take them, in the same order.
std::vector<PrefilterStep> prefilter_steps(const RobotModel& model);

/// The steps with a variable, each re-expressed from the nearest link
/// above it that such a step (or the root) places, its "frame": a link
/// whose chain from its frame has no variable is placed by a constant
/// transform, `to_frame`, so its points are that frame's points and the
/// lanes need not compute its pose (a gripper's fixed links, a flange).
struct FoldedSteps {
  std::vector<PrefilterStep> steps;
  std::vector<int> frame;           // per link
  std::vector<Transform> to_frame;  // per link: its pose in its frame's
};
FoldedSteps fold_constant_steps(const std::vector<PrefilterStep>& steps, std::size_t links, int root);

/// Joint angles beyond this (rad) leave a lane to the exact check.
inline constexpr double kAngleRange = 1e4;

/// How many doubles make one AVX2 register (half a row of lanes).
inline constexpr std::size_t kSinCosLanes = 4;

/// sin and cos of each of kPrefilterLanes angles (|v| ≤ kAngleRange, in
/// double), as lane_kinematics computes them (reduced in double, then in
/// float): each within 4 u + 1e-15 of the exact value, u = 2^-24.
void lane_sin_cos(const double* v, float* sn, float* cs);

/// Which way a float clearance is rounded: kApart proves a pair apart
/// (its reach rounded up, clearance > 0), kWithin proves it within (its
/// reach rounded down, clearance < 0).
enum class Proof { apart, within };

/// Forward kinematics of every link over the lanes in float (rot: 9 rows
/// per link, pos: 3, the root's filled in, all relative to the batch's
/// origin; q: a row of kPrefilterLanes doubles per variable); clears
/// usable[l] (sets it to −1) for a lane with an angle beyond kAngleRange,
/// a prismatic joint's value beyond ±travel, or a coordinate of a link
/// origin (the root's aside) beyond ±range or not a number. The error
/// this leaves is bounded by kinematics_allowance (prefilter_rounding.hpp).
void lane_kinematics(const std::vector<PrefilterStep>& steps, const double* q, double travel, float range,
                     float* rot, float* pos, float* usable);
/// World centres of `count` local points of one link: R c + p per lane.
void lane_points(const float* rot, const float* pos, const Vec3* local, std::size_t count, float* out);
/// Smallest clearance |c_a − c_b|² − reach² over the ball pairs, folded
/// (min) into `clear`; reach2[i · count_b + j]: the squared reach of balls
/// i and j as ball_reach_squared makes it (prefilter_rounding.hpp).
void lane_balls(const float* ca, std::size_t count_a, const float* cb, std::size_t count_b, const float* reach2,
                float* clear);
/// The same for balls against an object: squared distance to its box less
/// reach² (r + grow + t), or for a halfspace the signed gap n·c − r − grow
/// − t − offset.
void lane_object(const float* c, const float* r, std::size_t count, const PrefilterObject& o, double t, Proof proof,
                 float* clear);

/// For each object i of `objects` whose bit is set in `which`: the lanes
/// (bit l: lane l) in which one ball (centre: 3 rows of lanes; radius r)
/// is apart from it, as lane_object proves it, into apart[i].
void lane_ball_objects(const float* c, float r, const PrefilterObject* objects, std::uint64_t which, double t,
                       unsigned char* apart);

/// World points of `count` links, one local point each (`local[i]` in the
/// frame of link frames[i]): out gets 3 rows of lanes at link index
/// links[i], as `pos` holds them.
void lane_link_points(const float* rot, const float* pos, const Vec3* local, const int* links, const int* frames,
                      std::size_t count, float* out);
/// For each pair k of `pairs` (link indices): the lanes (bit l: lane l) in
/// which the two links' balls (centres: 3 rows of lanes per link; radius
/// per link), grown by t, are apart, the clearance as lane_balls computes
/// it above zero, into apart[k].
void lane_pairs_apart(const float* centers, const float* radius, const std::pair<int, int>* pairs,
                      std::size_t count, double t, unsigned char* apart);

/// Objects whose boxes near_objects compares at once.
inline constexpr std::size_t kBoxChunk = 64;
/// For objects first .. first + count − 1 (count ≤ kBoxChunk; their boxes
/// in `bounds`: six rows of `stride` floats, min xyz then max xyz, rounded
/// outward, a halfspace's unbounded): bit i set for object first + i unless
/// the box of a link's ball (centre: 3 rows of lanes; radius, its rounding
/// included) over the lanes of `lanes` (bit l: lane l; not empty) has a gap
/// along some axis beyond t to the object's box, a lower bound on their
/// distance in each of those lanes.
std::uint64_t near_objects(const float* center, float radius, unsigned lanes, const float* bounds,
                           std::size_t stride, std::size_t first, std::size_t count, double t);

}  // namespace proxima::robot::detail
