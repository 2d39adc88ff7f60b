// SPDX-License-Identifier: BSD-3-Clause
// The closed list of shape types; the pair dispatch tables are indexed by it.
#pragma once

namespace proxima {

enum class ShapeType : int { sphere, capsule, cylinder, cone, box, ellipsoid, halfspace, convex, count };

inline constexpr int kShapeTypeCount = static_cast<int>(ShapeType::count);

/// Lower-case name as used in JSON ("sphere", "convex", ...).
const char* to_string(ShapeType t);

}  // namespace proxima
