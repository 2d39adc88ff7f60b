// SPDX-License-Identifier: BSD-3-Clause
// Support mapping of the Minkowski difference of two shapes' cores, A ⊖ B,
// worked in A's local frame so that each support call costs one rotation of
// the direction and one of B's support point. Shared by GJK and EPA.
#pragma once

#include <proxima/core/transform.hpp>
#include <proxima/shape/convex_polytope.hpp>

namespace proxima::detail {

/// Support of one shape's core; polytopes keep a hill-climbing hint across
/// the calls of one query.
template <class S>
struct Supporter {
  const S& shape;
  explicit Supporter(const S& s, int = -1) : shape(s) {}
  Vec3 operator()(const Vec3& d) { return shape.core_support(d); }
  int hint() const { return -1; }
};
template <>
struct Supporter<ConvexPolytope> {
  const ConvexPolytope& shape;
  int h;
  explicit Supporter(const ConvexPolytope& s, int hint = -1) : shape(s), h(hint) {}
  Vec3 operator()(const Vec3& d) { return shape.core_support(d, h); }
  int hint() const { return h; }
};

/// A ⊖ B of the cores, in A's frame: x_A = R x_B + t.
template <class A, class B>
struct MinkowskiDifference {
  Supporter<A> sa;
  Supporter<B> sb;
  Mat3 R;
  Vec3 t;

  MinkowskiDifference(const A& a, const Transform& pose_a, const B& b, const Transform& pose_b,
                      int hint_a = -1, int hint_b = -1)
      : sa(a, hint_a),
        sb(b, hint_b),
        R(pose_a.R.transpose() * pose_b.R),
        t(pose_a.R.transpose() * (pose_b.p - pose_a.p)) {}

  /// Support points of A along d and of B along −d (both in A's frame); their
  /// difference is the support point of A ⊖ B along d. The hot path: the two
  /// rotations are written out and the call is inlined by force.
  PROXIMA_HOT_INLINE void support(const Vec3& d, Vec3& pa, Vec3& pb) {
    pa = sa(d);
    const Vec3 db(-(R(0, 0) * d.x() + R(1, 0) * d.y() + R(2, 0) * d.z()),
                  -(R(0, 1) * d.x() + R(1, 1) * d.y() + R(2, 1) * d.z()),
                  -(R(0, 2) * d.x() + R(1, 2) * d.y() + R(2, 2) * d.z()));
    const Vec3 q = sb(db);
    pb = Vec3(R(0, 0) * q.x() + R(0, 1) * q.y() + R(0, 2) * q.z() + t.x(),
              R(1, 0) * q.x() + R(1, 1) * q.y() + R(1, 2) * q.z() + t.y(),
              R(2, 0) * q.x() + R(2, 1) * q.y() + R(2, 2) * q.z() + t.z());
  }
};

}  // namespace proxima::detail
