// SPDX-License-Identifier: BSD-3-Clause
#include <proxima/robot/collision_matrix.hpp>

#include <proxima/core/error.hpp>

namespace proxima::robot {

AllowedCollisionMatrix::AllowedCollisionMatrix(std::size_t link_count) : n_(link_count), m_(link_count * link_count, 0) {}

AllowedCollisionMatrix AllowedCollisionMatrix::adjacent(const RobotModel& model) {
  AllowedCollisionMatrix acm(model.links().size());
  for (const Joint& j : model.joints()) acm.set_allowed(j.parent_link, j.child_link);
  return acm;
}

void AllowedCollisionMatrix::set_allowed(int a, int b, bool allowed) {
  if (a < 0 || b < 0 || static_cast<std::size_t>(a) >= n_ || static_cast<std::size_t>(b) >= n_)
    throw Error("allowed-collision matrix: link pair (" + std::to_string(a) + ", " + std::to_string(b) +
                ") out of range for " + std::to_string(n_) + " links");
  const unsigned char v = allowed ? 1 : 0;
  m_[static_cast<std::size_t>(a) * n_ + static_cast<std::size_t>(b)] = v;
  m_[static_cast<std::size_t>(b) * n_ + static_cast<std::size_t>(a)] = v;
}

std::size_t AllowedCollisionMatrix::allowed_pair_count() const {
  std::size_t c = 0;
  for (std::size_t a = 0; a < n_; ++a)
    for (std::size_t b = a + 1; b < n_; ++b) c += m_[a * n_ + b];
  return c;
}

}  // namespace proxima::robot
