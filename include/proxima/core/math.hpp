// Linear-algebra vocabulary of Proxima: doubles, Eigen fixed-size types.
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>

namespace proxima {

using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;
using Quat = Eigen::Quaterniond;

/// True when all three components are finite.
inline bool is_finite(const Vec3& v) { return v.allFinite(); }

}  // namespace proxima
