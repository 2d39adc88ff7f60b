// SPDX-License-Identifier: BSD-3-Clause
// Whether a robot's root link is bolted to the world or free in space
// (docs/dynamics.md, "Floating base").
#pragma once

namespace proxima::robot {

/// fixed: the root link stays at its base pose; the generalized velocities
/// are the joint variables' rates. floating: the root link is a free rigid
/// body; the generalized velocities are u = [v; ω; q̇], v the velocity of the
/// root link's origin and ω its angular velocity, both in the root link's
/// own frame (6 entries first), then the variables' rates.
enum class BaseKind { fixed, floating };

}  // namespace proxima::robot
