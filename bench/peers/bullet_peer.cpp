// SPDX-License-Identifier: BSD-3-Clause
#include <array>
#include <limits>
#include <memory>
#include <string>

#include <BulletCollision/CollisionDispatch/btBoxBoxDetector.h>
#include <BulletCollision/CollisionShapes/btBoxShape.h>
#include <BulletCollision/CollisionShapes/btCapsuleShape.h>
#include <BulletCollision/CollisionShapes/btConvexHullShape.h>
#include <BulletCollision/CollisionShapes/btCylinderShape.h>
#include <BulletCollision/CollisionShapes/btMultiSphereShape.h>
#include <BulletCollision/CollisionShapes/btSphereShape.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkEpa2.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkEpaPenetrationDepthSolver.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkPairDetector.h>
#include <BulletCollision/NarrowPhaseCollision/btPointCollector.h>
#include <BulletCollision/NarrowPhaseCollision/btVoronoiSimplexSolver.h>
#include <LinearMath/btScalar.h>

#include "convert.hpp"
#include "labels.hpp"
#include "manifold.hpp"
#include "peers.hpp"
#include "timing.hpp"

namespace proxima::bench {
namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

// Ellipsoids are left out: Bullet has no ellipsoid, and a scaled
// btMultiSphereShape returns radii*u for direction u, which lies on the
// ellipsoid but is not its support point, so GJK converges to a wrong answer
// whenever the closest direction is off the principal axes.
std::unique_ptr<btConvexShape> make_shape(const ShapeSpec& s) {
  std::unique_ptr<btConvexShape> shape;
  switch (s.kind) {
    // Sphere and capsule are stored as point/segment plus a margin equal to
    // the radius, which is exact; zeroing that margin would shrink them.
    case Kind::sphere: return std::make_unique<btSphereShape>(s.radius);
    case Kind::capsule: return std::make_unique<btCapsuleShapeZ>(s.radius, s.length);
    // The rest would keep the default 0.04 margin: it inflates a hull, and
    // rounds the edges of a box or cylinder (Bullet keeps their outer size).
    case Kind::cylinder:
      shape = std::make_unique<btCylinderShapeZ>(btVector3(s.radius, s.radius, 0.5 * s.length));
      break;
    case Kind::box:
      shape = std::make_unique<btBoxShape>(btVector3(0.5 * s.size[0], 0.5 * s.size[1], 0.5 * s.size[2]));
      break;
    case Kind::ellipsoid: return nullptr;
    case Kind::halfspace: return nullptr;  // not convex: not a GJK shape
    case Kind::convex: {
      auto hull = std::make_unique<btConvexHullShape>();
      for (const auto& p : s.points) hull->addPoint(btVector3(p[0], p[1], p[2]), false);
      hull->recalcLocalAabb();
      shape = std::move(hull);
      break;
    }
  }
  if (shape) shape->setMargin(0.0);
  return shape;
}

btTransform to_bullet(const Pose& pose) {
  const auto [w, x, y, z] = detail::unit_wxyz(pose);
  // btQuaternion takes (x, y, z, w).
  return btTransform(btQuaternion(x, y, z, w), btVector3(pose.p[0], pose.p[1], pose.p[2]));
}

struct Shapes {
  std::unique_ptr<btConvexShape> a;
  std::unique_ptr<btConvexShape> b;
};

// Returns false (and marks the cell unsupported) when either shape has no
// faithful Bullet counterpart.
bool build(const Workload& work, PeerCell& cell, Shapes& out) {
  out.a = make_shape(work.a);
  out.b = make_shape(work.b);
  if (out.a && out.b) return true;
  cell.supported = false;
  cell.note = "no exact Bullet ellipsoid (scaled btMultiSphereShape has a wrong support map)";
  return false;
}

// Collects every addContactPoint of one query without allocating.
// Bullet's convention (btDiscreteCollisionDetectorInterface::Result):
// normalOnBInWorld points from B to A, pointInWorld lies on B's surface, and
// depth is a signed distance (negative = overlap), so the point on A is
// pointInWorld + normalOnBInWorld * depth.
struct CollectAll final : btDiscreteCollisionDetectorInterface::Result {
  struct Raw {
    btVector3 normal;
    btVector3 point;
    btScalar depth;
  };
  static constexpr int capacity = 16;
  std::array<Raw, capacity> raw{};
  int count = 0;
  int dropped = 0;
  void setShapeIdentifiersA(int, int) override {}
  void setShapeIdentifiersB(int, int) override {}
  void addContactPoint(const btVector3& normal, const btVector3& point, btScalar depth) override {
    if (count < capacity)
      raw[static_cast<std::size_t>(count++)] = {normal, point, depth};
    else
      ++dropped;
  }
};

// Bullet to the common convention: depth = -Bullet's depth; the point moves
// from B's surface to midway, pointInWorld + normal * depth / 2 (depth being
// Bullet's negative one); the normal (B to A) is kept. Every point of one
// query carries the same normal; the first is the manifold's.
bool to_manifold(const CollectAll& c, Manifold& m) {
  m.points.clear();
  for (int k = 0; k < c.count; ++k) {
    const CollectAll::Raw& r = c.raw[static_cast<std::size_t>(k)];
    const btVector3 mid = r.point + r.normal * (0.5 * r.depth);
    m.points.push_back({{mid.x(), mid.y(), mid.z()}, -static_cast<double>(r.depth)});
  }
  if (c.count > 0) m.normal = {c.raw[0].normal.x(), c.raw[0].normal.y(), c.raw[0].normal.z()};
  return c.count > 0;
}

}  // namespace

std::string detail::bullet_library() {
  const int v = btGetVersion();
  std::string label = "Bullet " + std::to_string(v / 100) + "." + std::to_string(v % 100);
  label += sizeof(btScalar) == sizeof(double) ? " (double)" : " (float)";
  return label;
}

PeerCell run_bullet_gjk_pair(const Workload& work, int repeats) {
  PeerCell cell;
  cell.library = detail::bullet_library();
  cell.solver = detail::bullet_gjk_solver;
  Shapes shapes;
  if (!build(work, cell, shapes)) return cell;
  btVoronoiSimplexSolver simplex;
  btGjkEpaPenetrationDepthSolver depth_solver;
  btGjkPairDetector::ClosestPointInput input;
  detail::measure(
      work, repeats, cell,
      [&](std::size_t i) {
        input.m_transformA = to_bullet(work.pose_a[i]);
        input.m_transformB = to_bullet(work.pose_b[i]);
      },
      [&] {
        // A fresh detector per query: it caches the last separating axis, and
        // the benchmark measures cold queries for every peer.
        btGjkPairDetector detector(shapes.a.get(), shapes.b.get(), &simplex, &depth_solver);
        btPointCollector output;
        detector.getClosestPoints(input, output, nullptr);
        return output.m_hasResult ? static_cast<double>(output.m_distance) : nan;
      });
  return cell;
}

PeerCell run_bullet_epa_distance(const Workload& work, int repeats) {
  PeerCell cell;
  cell.library = detail::bullet_library();
  cell.solver = detail::bullet_epa_solver;
  Shapes shapes;
  if (!build(work, cell, shapes)) return cell;
  // Distance() runs on the margin-free cores, so the margins (the radius of a
  // sphere or capsule, zero elsewhere) come off afterwards.
  const double margins = shapes.a->getMargin() + shapes.b->getMargin();
  btTransform ta;
  btTransform tb;
  detail::measure(
      work, repeats, cell,
      [&](std::size_t i) {
        ta = to_bullet(work.pose_a[i]);
        tb = to_bullet(work.pose_b[i]);
      },
      [&] {
        btGjkEpaSolver2::sResults result;
        const btVector3 guess(1, 0, 0);
        if (btGjkEpaSolver2::Distance(shapes.a.get(), ta, shapes.b.get(), tb, guess, result))
          return static_cast<double>(result.distance) - margins;
        if (btGjkEpaSolver2::Penetration(shapes.a.get(), ta, shapes.b.get(), tb, guess, result))
          return static_cast<double>(result.distance);
        return nan;
      });
  return cell;
}

PeerCell run_bullet_epa_depth(const Workload& work, int repeats) {
  PeerCell cell;
  cell.library = detail::bullet_library();
  cell.solver = detail::bullet_epa_depth_solver;
  Shapes shapes;
  if (!build(work, cell, shapes)) return cell;
  btTransform ta;
  btTransform tb;
  int not_penetrating = 0;
  detail::measure(
      work, repeats, cell,
      [&](std::size_t i) {
        ta = to_bullet(work.pose_a[i]);
        tb = to_bullet(work.pose_b[i]);
      },
      [&] {
        btGjkEpaSolver2::sResults result;
        const btVector3 guess(1, 0, 0);
        detail::Depth out;
        // With margins (the default): a sphere or capsule is its point or
        // segment plus the radius.
        if (!btGjkEpaSolver2::Penetration(shapes.a.get(), ta, shapes.b.get(), tb, guess, result)) {
          ++not_penetrating;
          return out;
        }
        // results.distance is already -depth and results.normal points from
        // B to A, but in A's local frame: EPA runs there, and only the
        // witnesses are mapped to world (checked on a rotated A).
        out.distance = result.distance;
        const btVector3 n = ta.getBasis() * result.normal;
        out.normal = {n.x(), n.y(), n.z()};
        return out;
      });
  if (not_penetrating > 0)
    detail::append_note(cell, std::to_string(not_penetrating) + " of " + std::to_string(cell.distances.size()) +
                                  " poses: Penetration returned false (NaN, counted as failures)");
  return cell;
}

PeerCell run_bullet_pair_depth(const Workload& work, int repeats) {
  PeerCell cell;
  cell.library = detail::bullet_library();
  cell.solver = detail::bullet_pair_depth_solver;
  Shapes shapes;
  if (!build(work, cell, shapes)) return cell;
  btVoronoiSimplexSolver simplex;
  btGjkEpaPenetrationDepthSolver depth_solver;
  btGjkPairDetector::ClosestPointInput input;
  detail::measure(
      work, repeats, cell,
      [&](std::size_t i) {
        input.m_transformA = to_bullet(work.pose_a[i]);
        input.m_transformB = to_bullet(work.pose_b[i]);
      },
      [&] {
        btGjkPairDetector detector(shapes.a.get(), shapes.b.get(), &simplex, &depth_solver);
        btPointCollector output;
        detector.getClosestPoints(input, output, nullptr);
        detail::Depth out;
        if (!output.m_hasResult) return out;
        // m_normalOnBInWorld points from B to A, as PeerCell::normals does.
        const btVector3& n = output.m_normalOnBInWorld;
        out.distance = output.m_distance;
        out.normal = {n.x(), n.y(), n.z()};
        return out;
      });
  return cell;
}

ManifoldCell run_bullet_box_box_manifold(const Workload& work, int repeats) {
  ManifoldCell cell;
  cell.library = detail::bullet_library();
  cell.solver = detail::bullet_box_box_manifold_solver;
  if (work.a.kind != Kind::box || work.b.kind != Kind::box) {
    cell.supported = false;
    cell.note = "btBoxBoxDetector takes two boxes";
    return cell;
  }
  PeerCell unused;
  Shapes shapes;
  if (!build(work, unused, shapes)) return cell;
  const auto* box_a = static_cast<const btBoxShape*>(shapes.a.get());
  const auto* box_b = static_cast<const btBoxShape*>(shapes.b.get());
  btDiscreteCollisionDetectorInterface::ClosestPointInput input;
  CollectAll collect;
  int overflow = 0;
  detail::measure_manifold(
      work, repeats, cell,
      [&](std::size_t i) {
        input.m_transformA = to_bullet(work.pose_a[i]);
        input.m_transformB = to_bullet(work.pose_b[i]);
      },
      [&] {
        collect.count = 0;
        collect.dropped = 0;
        btBoxBoxDetector detector(box_a, box_b);
        detector.getClosestPoints(input, collect, nullptr);
        return collect.count;
      },
      [&](Manifold& m) {
        overflow += collect.dropped > 0;
        return to_manifold(collect, m);
      });
  if (overflow > 0)
    detail::append_note(cell, "more than 16 points on " + std::to_string(overflow) + " poses (rest dropped)");
  return cell;
}

ManifoldCell run_bullet_gjk_manifold(const Workload& work, int repeats) {
  ManifoldCell cell;
  cell.library = detail::bullet_library();
  cell.solver = detail::bullet_gjk_manifold_solver;
  PeerCell unsupported;
  Shapes shapes;
  if (!build(work, unsupported, shapes)) {
    cell.supported = false;
    cell.note = unsupported.note;
    return cell;
  }
  btVoronoiSimplexSolver simplex;
  btGjkEpaPenetrationDepthSolver depth_solver;
  btGjkPairDetector::ClosestPointInput input;
  btPointCollector output;
  detail::measure_manifold(
      work, repeats, cell,
      [&](std::size_t i) {
        input.m_transformA = to_bullet(work.pose_a[i]);
        input.m_transformB = to_bullet(work.pose_b[i]);
      },
      [&] {
        // A fresh detector per query, as in the distance adapters (cold queries).
        btGjkPairDetector detector(shapes.a.get(), shapes.b.get(), &simplex, &depth_solver);
        output = btPointCollector();
        detector.getClosestPoints(input, output, nullptr);
        return output.m_distance;
      },
      [&](Manifold& m) {
        // btPointCollector keeps Bullet's Result convention (see CollectAll):
        // point on B, normal B to A, m_distance < 0 on overlap. A separated
        // pair is no contact.
        if (!output.m_hasResult || output.m_distance > 0.0) return false;
        const btVector3& n = output.m_normalOnBInWorld;
        const btVector3 mid = output.m_pointInWorld + n * (0.5 * output.m_distance);
        m.normal = {n.x(), n.y(), n.z()};
        m.points = {{{mid.x(), mid.y(), mid.z()}, -static_cast<double>(output.m_distance)}};
        return true;
      });
  return cell;
}

}  // namespace proxima::bench
