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
    : steps_(steps), contact_budget_(contact_budget) {
  if (frame_budget < 2) throw Error("replay frame budget: " + std::to_string(frame_budget) + " must be at least 2");
  if (contact_budget < 0) throw Error("replay contact budget: must be >= 0");
  // Frames 0, s, 2s, … and the last: at most budget − 1 of them after frame 0.
  stride_ = std::max(1, (steps + frame_budget - 2) / (frame_budget - 1));
  ShapeTable shapes;
  json bodies = json::array();
  for (const sim::Body& b : world.bodies()) {
    bodies.push_back({{"name", b.name},
                      {"shape", shapes.add(geometry_json(*b.geometry))},
                      {"static", b.is_static},
                      {"pose", pose_array(b.pose)}});
  }
  head_ = {{"format", "proxima-replay"}, {"version", 1}, {"title", title}, {"shapes", shapes.shapes()},
           {"bodies", bodies}};
  record(world);
}

void SimReplay::observe(const sim::World& world) {
  ++step_;
  if (step_ % stride_ == 0 || step_ == steps_) record(world);
}

void SimReplay::record(const sim::World& world) {
  json poses = json::array();
  for (const sim::Body& b : world.bodies())
    if (!b.is_static) poses.push_back(pose_array(b.pose));
  // Step 0 has not solved any contact yet.
  const std::vector<sim::ContactImpulse> none;
  const std::vector<sim::ContactImpulse>& all = step_ == 0 ? none : world.last_contacts();
  std::vector<std::size_t> order(all.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  const std::size_t kept = std::min(order.size(), static_cast<std::size_t>(contact_budget_));
  std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(kept), order.end(),
                    [&](std::size_t a, std::size_t b) { return all[a].depth > all[b].depth; });
  json contacts = json::array();
  for (std::size_t k = 0; k < kept; ++k) {
    const sim::ContactImpulse& c = all[order[k]];
    contacts.push_back(contact_row(c.point, c.normal, c.depth));
  }
  json frame{{"step", step_}, {"time", round_significant(world.time(), 9)}, {"poses", poses}, {"contacts", contacts}};
  if (kept < all.size()) frame["contacts_total"] = all.size();
  frames_.push_back(std::move(frame));
  kinetic_.push_back(round_significant(world.kinetic_energy(), 4));
  potential_.push_back(round_significant(world.potential_energy(), 4));
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
