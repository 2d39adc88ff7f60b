// Box–box SAT without the pose check, for callers that have made it
// already (contacts() checks both poses before the box–box manifold).
#pragma once

#include <proxima/narrow/sat.hpp>

namespace proxima::narrow::detail {

/// The box–box SAT's winning axis, before its deepest points: enough for
/// the normal and the distance, which is all a face-on-face manifold needs
/// (the points cost a segment–segment closest pair when an edge axis wins).
struct BoxBoxAxis {
  double h;  // h_C along u (minus the overlap of the cores)
  Vec3 u;    // outward facet normal of A ⊖ B, in A's frame
  int kind;  // 0 a face of A, 1 a face of B, 2 an edge pair
  int i, j;  // face_a: A's axis; face_b: B's axis; edges: A's and B's axes
  Mat3 R;    // B's axes in A's frame
  Vec3 t;    // B's centre in A's frame
};

BoxBoxAxis sat_box_box_axis(const Box& a, const Transform& ta, const Box& b, const Transform& tb);

/// The full result from the axis (make_result's normal and distance, and the
/// deepest points).
DistanceResult sat_box_box_finish(const BoxBoxAxis& ax, const Box& a, const Transform& ta, const Box& b);

/// sat_box_box for finite poses.
inline DistanceResult sat_box_box_finite(const Box& a, const Transform& ta, const Box& b, const Transform& tb) {
  return sat_box_box_finish(sat_box_box_axis(a, ta, b, tb), a, ta, b);
}

}  // namespace proxima::narrow::detail
