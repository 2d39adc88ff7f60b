// SPDX-License-Identifier: BSD-3-Clause
// Per-contact forces of a step as a JSON line (sim_contacts.hpp).
#include <ostream>

#include <nlohmann/json.hpp>

#include "sim_contacts.hpp"

namespace proxima::apps {
namespace {

nlohmann::json vec(const Vec3& v) { return nlohmann::json::array({v.x(), v.y(), v.z()}); }

}  // namespace

void write_contacts_line(const sim::World& w, int step, std::ostream& out) {
  // Forces are the step's impulses over Δt: the mean force of the step.
  const double inv_dt = 1.0 / w.options.dt;
  nlohmann::json contacts = nlohmann::json::array();
  for (const sim::ContactImpulse& c : w.last_contacts()) {
    contacts.push_back({{"a", w.bodies()[static_cast<std::size_t>(c.body_a)].name},
                        {"b", w.bodies()[static_cast<std::size_t>(c.body_b)].name},
                        {"point", vec(c.point)},
                        {"normal", vec(c.normal)},
                        {"depth", c.depth},
                        {"normal_force", c.normal_impulse * inv_dt},
                        {"friction_force", vec(c.friction_impulse * inv_dt)}});
  }
  const nlohmann::json line = {{"step", step}, {"time", w.time()}, {"contacts", std::move(contacts)}};
  out << line.dump() << '\n';
}

}  // namespace proxima::apps
