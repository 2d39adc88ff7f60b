// SPDX-License-Identifier: BSD-3-Clause
// Mass properties of a solid of unit density.
#pragma once

#include <proxima/core/math.hpp>

namespace proxima {

/// Volume, centroid (local frame) and inertia tensor about the centroid in
/// local axes, for unit density: multiply `inertia` by the density for kg·m².
/// Margins are a contact layer, not matter: mass properties are those of the
/// core shape without its margin (docs/design.md, BLEM boundary layer).
struct MassProperties {
  double volume = 0.0;
  Vec3 centroid = Vec3::Zero();
  Mat3 inertia = Mat3::Zero();
};

}  // namespace proxima
