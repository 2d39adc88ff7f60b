// SPDX-License-Identifier: BSD-3-Clause
// Distance between two separated spheres, and the signed distance of a
// sphere sinking into a box. Prints each answer with its normal (B to A).
#include <cstdio>

#include <proxima/query.hpp>

int main() {
  using namespace proxima;

  // A: radius 0.3 at the origin; B: radius 0.2 at (0.6, 0.8, 0), 1 m away.
  const Sphere a(0.3);
  const Sphere b(0.2);
  const Transform pose_a = Transform::identity();
  const Transform pose_b = Transform::from_translation(Vec3(0.6, 0.8, 0.0));
  const DistanceResult d = distance(a, pose_a, b, pose_b);
  std::printf("sphere-sphere distance %.12g normal %.12g %.12g %.12g status %s\n", d.distance, d.normal.x(),
              d.normal.y(), d.normal.z(), to_string(d.status));

  // A: a 2 m cube at the origin; B: a ball of radius 0.5 whose centre is
  // 0.25 m above the top face, so it sinks 0.25 m into the cube.
  const Box box(Vec3(2.0, 2.0, 2.0));
  const Sphere ball(0.5);
  const DistanceResult s = signed_distance(box, pose_a, ball, Transform::from_translation(Vec3(0.0, 0.0, 1.25)));
  std::printf("box-sphere signed_distance %.12g normal %.12g %.12g %.12g status %s\n", s.distance, s.normal.x(),
              s.normal.y(), s.normal.z(), to_string(s.status));
  return d.status == Status::ok && s.status == Status::ok ? 0 : 1;
}
