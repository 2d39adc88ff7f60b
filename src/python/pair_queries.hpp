// SPDX-License-Identifier: BSD-3-Clause
// The queries for any pair of operands (convex shape or mesh BVH, either
// side), in plain C++ so that the batched forms can run them without the
// GIL. The mesh queries take the mesh first: a shape–mesh pair is asked
// swapped and its answer turned back (normal negated, points and triangle
// ids exchanged), so every answer is in the caller's A/B order.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include <proxima/contact/contact.hpp>
#include <proxima/mesh/bvh.hpp>
#include <proxima/mesh/mesh_contacts.hpp>
#include <proxima/query.hpp>

namespace proxima::python {

/// Exactly one of the two is set.
struct Operand {
  std::optional<Shape> shape;
  const Bvh* mesh = nullptr;
};

struct CollideAnswer {
  Status status = Status::ok;
  bool collide = false;
  int iterations = 0;
  std::int64_t triangle_a = -1;  ///< a colliding triangle of a mesh A, else −1
  std::int64_t triangle_b = -1;
};

struct DistanceAnswer {
  Status status = Status::ok;
  double distance = 0.0;
  Vec3 normal = Vec3::UnitX();
  Vec3 point_a = Vec3::Zero();
  Vec3 point_b = Vec3::Zero();
  int iterations = 0;
  bool bound_exceeded = false;
  std::int64_t triangle_a = -1;  ///< the closest triangle of a mesh A, else −1
  std::int64_t triangle_b = -1;
};

struct ContactAnswer {
  Status status = Status::ok;
  double distance = 0.0;
  Vec3 normal = Vec3::UnitZ();
  bool bound_exceeded = false;
  std::vector<Contact> points;
};

struct ToleranceAnswer {
  Status status = Status::ok;
  bool within = false;
  /// Convex pairs: the bound that decided it (≤ tolerance when within, a
  /// proven lower bound above it when not). Pairs with a mesh: not computed.
  std::optional<double> distance;
  int iterations = 0;
  std::int64_t triangle_a = -1;  ///< a triangle of a mesh A within the tolerance, else −1
  std::int64_t triangle_b = -1;
};

struct TimeOfImpactAnswer {
  Status status = Status::ok;
  bool collide = false;
  double time = 1.0;
  DistanceAnswer witness;
  double witness_time = 0.0;
  int iterations = 0;
};

CollideAnswer pair_collide(const Operand& a, const Transform& ta, const Operand& b, const Transform& tb,
                           const CollideRequest& request);
/// `signed_distance`: negative when overlapping; a pair with a mesh answers
/// not_implemented once it touches (no mesh penetration depth yet).
DistanceAnswer pair_distance(const Operand& a, const Transform& ta, const Operand& b, const Transform& tb,
                             const DistanceRequest& request, bool signed_distance);
/// Is the distance at most `tolerance`? GJK (convex) or the BVH traversal
/// (meshes) stops at the first proof.
ToleranceAnswer pair_tolerance(const Operand& a, const Transform& ta, const Operand& b, const Transform& tb,
                               double tolerance);
/// Convex pairs use `convex`, pairs with a mesh `mesh` (BLEM contacts).
ContactAnswer pair_contacts(const Operand& a, const Transform& ta, const Operand& b, const Transform& tb,
                            const ContactOptions& convex, const MeshContactOptions& mesh);
TimeOfImpactAnswer pair_time_of_impact(const Operand& a, const Transform& ta, const Transform& ta_end,
                                       const Operand& b, const Transform& tb, const Transform& tb_end,
                                       const TimeOfImpactRequest& request);

}  // namespace proxima::python
