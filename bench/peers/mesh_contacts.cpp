// SPDX-License-Identifier: BSD-3-Clause
#include "mesh_contacts.hpp"

#include <memory>
#include <string>

#include <BulletCollision/BroadphaseCollision/btDbvtBroadphase.h>
#include <BulletCollision/CollisionDispatch/btCollisionDispatcher.h>
#include <BulletCollision/CollisionDispatch/btCollisionObject.h>
#include <BulletCollision/CollisionDispatch/btCollisionWorld.h>
#include <BulletCollision/CollisionDispatch/btDefaultCollisionConfiguration.h>
#include <BulletCollision/CollisionShapes/btTriangleIndexVertexArray.h>
#include <BulletCollision/Gimpact/btGImpactCollisionAlgorithm.h>
#include <BulletCollision/Gimpact/btGImpactShape.h>
#include <fcl/fcl.h>

#include "convert.hpp"
#include "labels.hpp"

namespace proxima::bench {
namespace {

// ---------------------------------------------------------------- FCL

std::shared_ptr<fcl::BVHModel<fcl::OBBRSSd>> fcl_model(const MeshSpec& m) {
  auto model = std::make_shared<fcl::BVHModel<fcl::OBBRSSd>>();
  std::vector<fcl::Vector3d> points;
  points.reserve(m.vertices.size());
  for (const auto& v : m.vertices) points.emplace_back(v[0], v[1], v[2]);
  std::vector<fcl::Triangle> triangles;
  triangles.reserve(m.triangles.size());
  for (const auto& t : m.triangles)
    triangles.emplace_back(static_cast<std::size_t>(t[0]), static_cast<std::size_t>(t[1]),
                           static_cast<std::size_t>(t[2]));
  model->beginModel();
  model->addSubModel(points, triangles);
  model->endModel();
  return model;
}

fcl::Transform3d fcl_pose(const Pose& pose) {
  const auto [w, x, y, z] = detail::unit_wxyz(pose);
  fcl::Transform3d tf = fcl::Transform3d::Identity();
  tf.linear() = fcl::Quaterniond(w, x, y, z).toRotationMatrix();
  tf.translation() = fcl::Vector3d(pose.p[0], pose.p[1], pose.p[2]);
  return tf;
}

// ---------------------------------------------------------------- Bullet

btTransform bullet_pose(const Pose& pose) {
  const auto [w, x, y, z] = detail::unit_wxyz(pose);
  return btTransform(btQuaternion(x, y, z, w), btVector3(pose.p[0], pose.p[1], pose.p[2]));
}

// A btGImpactMeshShape over its own copy of the mesh (Bullet keeps pointers
// into the arrays).
struct GImpactBody {
  std::vector<btScalar> vertices;
  std::vector<int> indices;
  std::unique_ptr<btTriangleIndexVertexArray> array;
  std::unique_ptr<btGImpactMeshShape> shape;
  btCollisionObject object;

  GImpactBody(const MeshSpec& m, double margin) {
    for (const auto& v : m.vertices) vertices.insert(vertices.end(), {v[0], v[1], v[2]});
    for (const auto& t : m.triangles) indices.insert(indices.end(), {t[0], t[1], t[2]});
    array = std::make_unique<btTriangleIndexVertexArray>(
        static_cast<int>(m.triangles.size()), indices.data(), static_cast<int>(3 * sizeof(int)),
        static_cast<int>(m.vertices.size()), vertices.data(), static_cast<int>(3 * sizeof(btScalar)));
    shape = std::make_unique<btGImpactMeshShape>(array.get());
    shape->setMargin(margin);
    shape->updateBound();
    object.setCollisionShape(shape.get());
  }
};

// Records every point the algorithm reports, before any manifold keeps or
// drops it. Bullet's addContactPoint gets the normal on B (B to A), the point
// on B and the signed distance (negative = overlap).
struct Recorder : btManifoldResult {
  std::vector<MeshContactPoint>* out = nullptr;
  Recorder(const btCollisionObjectWrapper* a, const btCollisionObjectWrapper* b) : btManifoldResult(a, b) {}
  void addContactPoint(const btVector3& n, const btVector3& on_b, btScalar distance) override {
    if (!out) return;
    const btVector3 p = on_b + 0.5 * distance * n;
    out->push_back({{p.x(), p.y(), p.z()}, {n.x(), n.y(), n.z()}, -distance});
  }
};

}  // namespace

MeshContactCell run_fcl_mesh_contacts(const MeshSpec& a, const MeshSpec& b, const std::vector<Pose>& pose_a,
                                      const std::vector<Pose>& pose_b, int repeats, std::size_t max_contacts) {
  MeshContactCell cell;
  cell.library = detail::fcl_library();
  cell.solver = "fcl::collide BVHModel<OBBRSS>, enable_contact";
  fcl::CollisionObjectd oa(fcl_model(a));
  fcl::CollisionObjectd ob(fcl_model(b));
  fcl::CollisionRequestd request(max_contacts, /*enable_contact=*/true);
  fcl::CollisionResultd result;
  std::vector<double> times;
  for (std::size_t i = 0; i < pose_a.size() && i < pose_b.size(); ++i) {
    oa.setTransform(fcl_pose(pose_a[i]));
    ob.setTransform(fcl_pose(pose_b[i]));
    auto run = [&] {
      result.clear();
      fcl::collide(&oa, &ob, request, result);
      detail::keep(result);
    };
    run();
    std::vector<MeshContactPoint> set;
    for (std::size_t k = 0; k < result.numContacts(); ++k) {
      const fcl::Contactd& c = result.getContact(k);
      set.push_back({{c.pos[0], c.pos[1], c.pos[2]}, {-c.normal[0], -c.normal[1], -c.normal[2]}, c.penetration_depth});
    }
    cell.contacts.push_back(std::move(set));
    times.push_back(detail::median_call_ns(run, repeats));
  }
  cell.median_ns = detail::median(std::move(times));
  return cell;
}

MeshContactCell run_bullet_gimpact_contacts(const MeshSpec& a, const MeshSpec& b, const std::vector<Pose>& pose_a,
                                            const std::vector<Pose>& pose_b, int repeats, double margin_a,
                                            double margin_b, bool persistent) {
  MeshContactCell cell;
  cell.library = detail::bullet_library();
  cell.solver = persistent ? "btGImpactCollisionAlgorithm, persistent manifold"
                           : "btGImpactCollisionAlgorithm::processCollision (every point)";
  btDefaultCollisionConfiguration configuration;
  btCollisionDispatcher dispatcher(&configuration);
  btGImpactCollisionAlgorithm::registerAlgorithm(&dispatcher);
  btDbvtBroadphase broadphase;
  btCollisionWorld world(&dispatcher, &broadphase, &configuration);
  GImpactBody ba(a, margin_a);
  GImpactBody bb(b, margin_b);
  if (persistent) {
    world.addCollisionObject(&ba.object);
    world.addCollisionObject(&bb.object);
  }
  std::vector<double> times;
  for (std::size_t i = 0; i < pose_a.size() && i < pose_b.size(); ++i) {
    ba.object.setWorldTransform(bullet_pose(pose_a[i]));
    bb.object.setWorldTransform(bullet_pose(pose_b[i]));
    std::vector<MeshContactPoint> set;
    if (persistent) {
      // A fresh manifold per pose: a Bullet simulation would carry points
      // over from the previous step, which a single pose does not have.
      auto run = [&] {
        for (int m = 0; m < dispatcher.getNumManifolds(); ++m) dispatcher.getManifoldByIndexInternal(m)->clearManifold();
        world.performDiscreteCollisionDetection();
      };
      run();
      for (int m = 0; m < dispatcher.getNumManifolds(); ++m) {
        const btPersistentManifold* manifold = dispatcher.getManifoldByIndexInternal(m);
        const double s = manifold->getBody0() == &ba.object ? 1.0 : -1.0;
        for (int k = 0; k < manifold->getNumContacts(); ++k) {
          const btManifoldPoint& cp = manifold->getContactPoint(k);
          const btVector3 p = 0.5 * (cp.m_positionWorldOnA + cp.m_positionWorldOnB);
          const btVector3& n = cp.m_normalWorldOnB;
          set.push_back({{p.x(), p.y(), p.z()}, {s * n.x(), s * n.y(), s * n.z()}, -cp.m_distance1});
        }
      }
      times.push_back(detail::median_call_ns(run, repeats));
    } else {
      const btCollisionObjectWrapper wa(nullptr, ba.shape.get(), &ba.object, ba.object.getWorldTransform(), -1, -1);
      const btCollisionObjectWrapper wb(nullptr, bb.shape.get(), &bb.object, bb.object.getWorldTransform(), -1, -1);
      btCollisionAlgorithm* algorithm = dispatcher.findAlgorithm(&wa, &wb, nullptr, BT_CONTACT_POINT_ALGORITHMS);
      Recorder recorder(&wa, &wb);
      recorder.out = &set;
      algorithm->processCollision(&wa, &wb, world.getDispatchInfo(), &recorder);
      recorder.out = nullptr;  // timed calls record nothing
      times.push_back(detail::median_call_ns(
          [&] { algorithm->processCollision(&wa, &wb, world.getDispatchInfo(), &recorder); }, repeats));
      algorithm->~btCollisionAlgorithm();
      dispatcher.freeCollisionAlgorithm(algorithm);
    }
    cell.contacts.push_back(std::move(set));
  }
  if (persistent) {
    world.removeCollisionObject(&bb.object);
    world.removeCollisionObject(&ba.object);
  }
  cell.median_ns = detail::median(std::move(times));
  return cell;
}

}  // namespace proxima::bench
