// SPDX-License-Identifier: BSD-3-Clause
// The per-contact forces of `proxima sim --contacts` (docs/scene-format.md).
#pragma once

#include <iosfwd>

#include <proxima/sim/world.hpp>

namespace proxima::apps {

/// One JSON line for the world's last step: {"step", "time", "contacts":
/// [{"a", "b", "point", "normal", "depth", "normal_force", "friction_force"}]}
/// with the bodies by name, the normal from b to a, and the forces on a
/// (N, the step's impulses divided by Δt; the friction force in world frame).
void write_contacts_line(const sim::World& w, int step, std::ostream& out);

}  // namespace proxima::apps
