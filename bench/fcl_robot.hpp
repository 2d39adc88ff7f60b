// SPDX-License-Identifier: BSD-3-Clause
// A robot and a planning scene handed to FCL 0.7, as the bench programs
// set them beside the scene checker: each link shape (a convex hull, box,
// cylinder or sphere, no margin) as the same FCL primitive or an
// fcl::Convex with our hull's vertices and faces; the scene's objects in a
// DynamicAABBTreeCollisionManager asked per link object, as MoveIt's FCL
// plugin asks it; self pairs per pair over the checker's self_pairs(),
// skipped when the link objects' AABBs do not overlap (collision) or are
// farther apart than the best distance so far (distance).
#pragma once

#include <cstddef>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include <fcl/config.h>
#include <fcl/fcl.h>

#include <proxima/robot/planning_scene.hpp>
#include <proxima/robot/scene_checker.hpp>
#include <proxima/shape/box.hpp>
#include <proxima/shape/convex_polytope.hpp>
#include <proxima/shape/cylinder.hpp>
#include <proxima/shape/sphere.hpp>

#include "fcl_convex.hpp"

namespace proxima::bench {

using robot::Environment;
using robot::LinkShape;
using robot::RobotGeometry;
using robot::SceneChecker;

// What an FCL object stands for: robot shape `index` (flat, in RobotState
// order) or scene object `index`.
struct Tag {
  bool link = false;
  int index = 0;
};

inline std::shared_ptr<fcl::CollisionGeometryd> fcl_geometry(const proxima::Shape& s, const std::string& what) {
  using proxima::ShapeType;
  if (s.margin() != 0.0) throw std::runtime_error(what + ": shapes with a margin are not mapped to FCL");
  switch (s.type()) {
    case ShapeType::convex: return fcl_convex(s.as<proxima::ConvexPolytope>());
    case ShapeType::box: {
      const Vec3 size = s.as<proxima::Box>().size();
      return std::make_shared<fcl::Boxd>(size.x(), size.y(), size.z());
    }
    case ShapeType::cylinder: {
      const auto& c = s.as<proxima::Cylinder>();
      return std::make_shared<fcl::Cylinderd>(c.radius(), c.length());
    }
    case ShapeType::sphere: return std::make_shared<fcl::Sphered>(s.as<proxima::Sphere>().radius());
    default: throw std::runtime_error(what + ": a " + std::string(s.name()) + " is not mapped to FCL");
  }
}

struct FclRobot {
  std::vector<std::unique_ptr<fcl::CollisionObjectd>> shapes;  ///< flat, RobotState order
  std::vector<std::size_t> shape_begin;                         ///< per link, plus the end
  std::vector<int> shape_link;
  std::vector<Transform> origins;
  std::vector<Tag> tags;
  std::vector<std::pair<int, int>> self_pairs;

  explicit FclRobot(const SceneChecker& checker) : self_pairs(checker.self_pairs()) {
    const RobotGeometry& g = checker.geometry();
    for (std::size_t l = 0; l < g.links().size(); ++l) {
      shape_begin.push_back(shapes.size());
      for (const LinkShape& ls : g.links()[l].shapes) {
        if (!ls.shape()) throw std::runtime_error("link " + g.model().links()[l].name + " has a triangle mesh");
        shapes.push_back(std::make_unique<fcl::CollisionObjectd>(fcl_geometry(*ls.shape(), g.model().links()[l].name)));
        shape_link.push_back(static_cast<int>(l));
        origins.push_back(ls.origin);
      }
    }
    shape_begin.push_back(shapes.size());
    tags.resize(shapes.size());
    for (std::size_t i = 0; i < shapes.size(); ++i) {
      tags[i] = {true, static_cast<int>(i)};
      shapes[i]->setUserData(&tags[i]);
    }
  }

  // Places every link object from our forward kinematics; the AABBs are
  // what the pair culling and the world manager read.
  void update(const std::vector<Transform>& link_poses) {
    for (std::size_t i = 0; i < shapes.size(); ++i) {
      const Transform t = link_poses[static_cast<std::size_t>(shape_link[i])] * origins[i];
      shapes[i]->setTransform(t.R, t.p);
      shapes[i]->computeAABB();
    }
  }
};

struct FclScene {
  std::vector<std::unique_ptr<fcl::CollisionObjectd>> objects;
  std::vector<Tag> tags;
  fcl::DynamicAABBTreeCollisionManagerd manager;

  explicit FclScene(const Environment& env) {
    tags.resize(env.objects.size());
    for (std::size_t o = 0; o < env.objects.size(); ++o) {
      const auto* shape = std::get_if<proxima::Shape>(&env.objects[o].geometry);
      if (!shape) throw std::runtime_error(env.objects[o].name + ": a triangle mesh is not mapped to FCL");
      auto obj = std::make_unique<fcl::CollisionObjectd>(fcl_geometry(*shape, env.objects[o].name));
      obj->setTransform(env.objects[o].pose.R, env.objects[o].pose.p);
      obj->computeAABB();
      tags[o] = {false, static_cast<int>(o)};
      obj->setUserData(&tags[o]);
      manager.registerObject(obj.get());
      objects.push_back(std::move(obj));
    }
    manager.setup();
  }
};

using PairSet = std::vector<std::pair<int, int>>;  // (link, link) or (link, object)

struct FclQueries {
  FclRobot& robot;
  FclScene& scene;
  fcl::CollisionRequestd collide_req;
  fcl::DistanceRequestd dist_req;

  FclQueries(FclRobot& r, FclScene& s, fcl::GJKSolverType solver) : robot(r), scene(s) {
    collide_req.gjk_solver_type = solver;
    dist_req.enable_nearest_points = true;
    dist_req.gjk_solver_type = solver;
  }

  // Colliding self pairs (all of them, or the first when stop_first).
  bool self_collision(PairSet* pairs, bool stop_first) const {
    bool any = false;
    for (const auto& [a, b] : robot.self_pairs) {
      bool hit = false;
      for (std::size_t i = robot.shape_begin[static_cast<std::size_t>(a)]; i < robot.shape_begin[static_cast<std::size_t>(a) + 1] && !hit; ++i)
        for (std::size_t j = robot.shape_begin[static_cast<std::size_t>(b)]; j < robot.shape_begin[static_cast<std::size_t>(b) + 1] && !hit; ++j) {
          if (!robot.shapes[i]->getAABB().overlap(robot.shapes[j]->getAABB())) continue;
          fcl::CollisionResultd res;
          fcl::collide(robot.shapes[i].get(), robot.shapes[j].get(), collide_req, res);
          hit = res.isCollision();
        }
      if (hit) {
        any = true;
        if (pairs) pairs->emplace_back(a, b);
        if (stop_first) return true;
      }
    }
    return any;
  }

  struct CollideData {
    const FclQueries* q;
    std::vector<char> hit;  // link × object, so a link's second shape does not count a pair twice
    bool stop_first = false;
    bool any = false;
  };

  static bool collide_cb(fcl::CollisionObjectd* o1, fcl::CollisionObjectd* o2, void* p) {
    auto& data = *static_cast<CollideData*>(p);
    const Tag* t1 = static_cast<const Tag*>(o1->getUserData());
    const Tag* t2 = static_cast<const Tag*>(o2->getUserData());
    const Tag* link = t1->link ? t1 : t2;
    const Tag* obj = t1->link ? t2 : t1;
    const std::size_t cell = static_cast<std::size_t>(data.q->robot.shape_link[static_cast<std::size_t>(link->index)]) *
                                 data.q->scene.objects.size() + static_cast<std::size_t>(obj->index);
    if (data.hit[cell]) return false;
    fcl::CollisionResultd res;
    fcl::collide(o1, o2, data.q->collide_req, res);
    if (!res.isCollision()) return false;
    data.hit[cell] = 1;
    data.any = true;
    return data.stop_first;
  }

  bool environment_collision(PairSet* pairs, bool stop_first) const {
    CollideData data{this, {}, stop_first, false};
    const std::size_t nobj = scene.objects.size();
    const std::size_t nlinks = robot.shape_begin.size() - 1;
    data.hit.assign(nlinks * nobj, 0);
    for (const auto& s : robot.shapes) {
      scene.manager.collide(s.get(), &data, collide_cb);
      if (stop_first && data.any) break;
    }
    if (pairs)
      for (std::size_t c = 0; c < data.hit.size(); ++c)
        if (data.hit[c]) pairs->emplace_back(static_cast<int>(c / nobj), static_cast<int>(c % nobj));
    return data.any;
  }

  bool valid() const { return !self_collision(nullptr, true) && !environment_collision(nullptr, true); }

  struct Best {
    double distance = std::numeric_limits<double>::infinity();
    int link = -1, other = -1;
  };

  // FCL reports −1 for an overlapping pair when signed distance is off; the
  // checker reports 0, so overlaps are compared as 0.
  static double clamp0(double d) { return d < 0.0 ? 0.0 : d; }

  Best self_distance() const {
    Best best;
    for (const auto& [a, b] : robot.self_pairs)
      for (std::size_t i = robot.shape_begin[static_cast<std::size_t>(a)]; i < robot.shape_begin[static_cast<std::size_t>(a) + 1]; ++i)
        for (std::size_t j = robot.shape_begin[static_cast<std::size_t>(b)]; j < robot.shape_begin[static_cast<std::size_t>(b) + 1]; ++j) {
          if (best.distance < std::numeric_limits<double>::infinity() && robot.shapes[i]->getAABB().distance(robot.shapes[j]->getAABB()) >= best.distance)
            continue;
          fcl::DistanceResultd res;
          fcl::distance(robot.shapes[i].get(), robot.shapes[j].get(), dist_req, res);
          const double d = clamp0(res.min_distance);
          if (d < best.distance) best = {d, a, b};
        }
    return best;
  }

  struct DistanceData {
    const FclQueries* q;
    Best best;
  };

  static bool distance_cb(fcl::CollisionObjectd* o1, fcl::CollisionObjectd* o2, void* p, double& dist) {
    auto& data = *static_cast<DistanceData*>(p);
    const Tag* t1 = static_cast<const Tag*>(o1->getUserData());
    const Tag* t2 = static_cast<const Tag*>(o2->getUserData());
    const Tag* link = t1->link ? t1 : t2;
    const Tag* obj = t1->link ? t2 : t1;
    fcl::DistanceResultd res;
    fcl::distance(o1, o2, data.q->dist_req, res);
    const double d = clamp0(res.min_distance);
    if (d < data.best.distance)
      data.best = {d, data.q->robot.shape_link[static_cast<std::size_t>(link->index)], obj->index};
    dist = data.best.distance;
    return data.best.distance <= 0.0;  // nothing can be nearer than touching
  }

  Best environment_distance() const {
    DistanceData data{this, {}};
    for (const auto& s : robot.shapes) {
      scene.manager.distance(s.get(), &data, distance_cb);
      if (data.best.distance <= 0.0) break;
    }
    return data.best;
  }
};

}  // namespace proxima::bench
