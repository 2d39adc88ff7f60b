// SPDX-License-Identifier: BSD-3-Clause
#include <proxima/robot/attached_object.hpp>

#include <cmath>
#include <limits>

#include <proxima/core/error.hpp>

#include "pair_query.hpp"

namespace proxima::robot {

namespace {

// A proper rotation to 1e-9 and a usable translation: attach() composes it
// into every state, where a shear would distort the object's shape.
bool rigid(const Transform& t) {
  return t.is_valid() && (t.R.transpose() * t.R - Mat3::Identity()).cwiseAbs().maxCoeff() <= 1e-9 &&
         t.R.determinant() > 0.0;
}

}  // namespace

SceneChecker attach(const SceneChecker& checker, std::span<const AttachedObject> objects) {
  const RobotModel& model = checker.model();
  std::vector<Link> links = model.links();
  std::vector<Joint> joints = model.joints();
  std::vector<LinkGeometry> geometry = checker.geometry().links();
  for (const AttachedObject& o : objects) {
    const std::string what = "robot '" + model.name() + "': attached object '" + o.name + "'";
    if (o.name.empty()) throw Error("robot '" + model.name() + "': an attached object has an empty name");
    for (const Link& l : links)
      if (l.name == o.name) throw Error(what + ": the robot already has a link of that name");
    if (model.link_index(o.link) < 0) throw Error(what + ": link '" + o.link + "' is not a link of the robot");
    for (const std::string& t : o.touch_links)
      if (model.link_index(t) < 0) throw Error(what + ": touch link '" + t + "' is not a link of the robot");
    if (!rigid(o.pose)) throw Error(what + ": pose is not finite or not a rotation");
    if (!detail::bounded(detail::local_box(o.geometry)))
      throw Error(what + ": shape is unbounded (a halfspace cannot be held)");
    Link link;
    link.name = o.name;
    links.push_back(std::move(link));
    Joint joint;
    joint.name = "attach/" + o.name;
    joint.type = JointType::fixed;
    joint.parent = o.link;
    joint.child = o.name;
    joint.origin = o.pose;
    joints.push_back(std::move(joint));
    LinkGeometry g;
    g.shapes.push_back(LinkShape{o.geometry, Transform::identity(), "attached"});
    geometry.push_back(std::move(g));
  }
  RobotModel extended(model.name(), std::move(links), std::move(joints));
  const std::size_t n = model.links().size(), m = extended.links().size();
  AllowedCollisionMatrix acm(m);
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t b = a + 1; b < n; ++b)
      if (checker.allowed().allowed(static_cast<int>(a), static_cast<int>(b)))
        acm.set_allowed(static_cast<int>(a), static_cast<int>(b));
  for (std::size_t k = 0; k < objects.size(); ++k) {
    const int self = static_cast<int>(n + k);
    acm.set_allowed(self, extended.link_index(objects[k].link));
    for (const std::string& t : objects[k].touch_links) acm.set_allowed(self, extended.link_index(t));
  }
  return SceneChecker(RobotGeometry(std::move(extended), std::move(geometry), checker.geometry().mesh_mode()),
                      std::move(acm));
}

}  // namespace proxima::robot
