// SPDX-License-Identifier: BSD-3-Clause
// Orientation update of a rigid body over one step at constant world
// angular momentum (the contact impulses already in it); declared with its
// derivation in proxima/sim/rigid_motion.hpp, which other steppers include.
#pragma once

#include <proxima/sim/rigid_motion.hpp>

namespace proxima::sim::detail {

using proxima::sim::rotation_step;

}  // namespace proxima::sim::detail
