#include <limits>
#include <memory>
#include <string>

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

}  // namespace proxima::bench
