// SPDX-License-Identifier: BSD-3-Clause
#include "html_replay.hpp"

#include <algorithm>
#include <numeric>

#include <proxima/core/error.hpp>

#include "replay_page.hpp"

namespace proxima::apps {

using nlohmann::json;

SimReplay::SimReplay(const sim::World& world, const std::string& title, int steps, int frame_budget,
                     int contact_budget)
    : steps_(steps) {
  start(world, title, frame_budget, contact_budget, nullptr);
  record(world);
}

SimReplay::SimReplay(const robot::RobotWorld& rw, const robot::RobotGeometry& geometry, const std::string& title,
                     int steps, int frame_budget, int contact_budget)
    : steps_(steps) {
  start(rw.world(), title, frame_budget, contact_budget, &geometry);
  record(rw);
}

void SimReplay::start(const sim::World& world, const std::string& title, int frame_budget, int contact_budget,
                      const robot::RobotGeometry* geometry) {
  if (frame_budget < 2) throw Error("replay frame budget: " + std::to_string(frame_budget) + " must be at least 2");
  if (contact_budget < 0) throw Error("replay contact budget: must be >= 0");
  contact_budget_ = contact_budget;
  // Frames 0, s, 2s, … and the last: at most budget − 1 of them after frame 0.
  stride_ = std::max(1, (steps_ + frame_budget - 2) / (frame_budget - 1));
  ShapeTable shapes;
  json bodies = json::array();
  for (const sim::Body& b : world.bodies()) {
    bodies.push_back({{"name", b.name},
                      {"shape", shapes.add(geometry_json(*b.geometry))},
                      {"static", b.is_static},
                      {"pose", pose_array(b.pose)}});
  }
  if (geometry) {
    // Link elements move with the robot: "static" false, so that every
    // frame carries their poses after the bodies'.
    const robot::RobotModel& m = geometry->model();
    for (std::size_t l = 0; l < m.links().size(); ++l)
      for (const robot::LinkShape& e : geometry->link(static_cast<int>(l)).shapes) {
        json shape = e.shape() ? shape_json(*e.shape()) : mesh_json(e.bvh()->mesh());
        bodies.push_back({{"name", m.name() + "/" + m.link(static_cast<int>(l)).name},
                          {"shape", shapes.add(std::move(shape))},
                          {"static", false},
                          {"pose", pose_array(Transform::identity())}});
        parts_.push_back({static_cast<int>(l), e.origin});
      }
  }
  head_ = {{"format", "proxima-replay"}, {"version", 1}, {"title", title}, {"shapes", shapes.shapes()},
           {"bodies", bodies}};
}

void SimReplay::observe(const sim::World& world) {
  ++step_;
  if (step_ % stride_ == 0 || step_ == steps_) record(world);
}

void SimReplay::observe(const robot::RobotWorld& rw) {
  ++step_;
  if (step_ % stride_ == 0 || step_ == steps_) record(rw);
}

namespace {

json body_poses(const sim::World& world) {
  json poses = json::array();
  for (const sim::Body& b : world.bodies())
    if (!b.is_static) poses.push_back(pose_array(b.pose));
  return poses;
}

}  // namespace

void SimReplay::record(const sim::World& world) {
  // Step 0 has not solved any contact yet.
  std::vector<FrameContact> all;
  if (step_ > 0)
    for (const sim::ContactImpulse& c : world.last_contacts()) all.push_back({c.point, c.normal, c.depth});
  add_frame(body_poses(world), all, world.time(), world.kinetic_energy(), world.potential_energy());
}

void SimReplay::record(const robot::RobotWorld& rw) {
  json poses = body_poses(rw.world());
  for (const LinkPart& part : parts_)
    poses.push_back(pose_array(rw.link_poses()[static_cast<std::size_t>(part.link)] * part.origin));
  std::vector<FrameContact> all;
  if (step_ > 0)
    for (const robot::RobotContact& c : rw.last_contacts()) all.push_back({c.point, c.normal, c.depth});
  add_frame(std::move(poses), all, rw.time(), rw.kinetic_energy(), rw.potential_energy());
}

void SimReplay::add_frame(json poses, const std::vector<FrameContact>& all, double time, double kinetic,
                          double potential) {
  std::vector<std::size_t> order(all.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  const std::size_t kept = std::min(order.size(), static_cast<std::size_t>(contact_budget_));
  std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(kept), order.end(),
                    [&](std::size_t a, std::size_t b) { return all[a].depth > all[b].depth; });
  json contacts = json::array();
  for (std::size_t k = 0; k < kept; ++k) {
    const FrameContact& c = all[order[k]];
    contacts.push_back(contact_row(c.point, c.normal, c.depth));
  }
  json frame{{"step", step_}, {"time", round_significant(time, 9)}, {"poses", std::move(poses)},
             {"contacts", contacts}};
  if (kept < all.size()) frame["contacts_total"] = all.size();
  frames_.push_back(std::move(frame));
  kinetic_.push_back(round_significant(kinetic, 4));
  potential_.push_back(round_significant(potential, 4));
  contacts_.push_back(static_cast<double>(all.size()));
}

json SimReplay::data() const {
  json d = head_;
  d["frames"] = frames_;
  d["timelines"] = json::array({json{{"name", "kinetic energy"}, {"unit", "J"}, {"values", kinetic_}},
                                json{{"name", "potential energy"}, {"unit", "J"}, {"values", potential_}},
                                json{{"name", "contacts"}, {"unit", ""}, {"values", contacts_}}});
  return d;
}

}  // namespace proxima::apps
