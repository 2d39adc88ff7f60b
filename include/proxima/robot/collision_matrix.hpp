// SPDX-License-Identifier: BSD-3-Clause
// Allowed-collision matrix: which link pairs the self-collision check skips.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <proxima/robot/robot_model.hpp>

namespace proxima::robot {

/// A symmetric link × link table; a pair that is allowed to collide is not
/// checked. The diagonal is always allowed.
class AllowedCollisionMatrix {
 public:
  explicit AllowedCollisionMatrix(std::size_t link_count = 0);
  /// Every parent–child pair of `model` allowed: a joint's two links touch
  /// by construction.
  static AllowedCollisionMatrix adjacent(const RobotModel& model);

  std::size_t size() const { return n_; }
  /// Throws proxima::Error for an index out of range.
  void set_allowed(int a, int b, bool allowed = true);
  bool allowed(int a, int b) const {
    return a == b || m_[static_cast<std::size_t>(a) * n_ + static_cast<std::size_t>(b)] != 0;
  }
  /// Allowed pairs with a < b.
  std::size_t allowed_pair_count() const;

 private:
  std::size_t n_;
  std::vector<unsigned char> m_;
};

/// Adds every SRDF `<disable_collisions link1= link2= reason=/>` of the file
/// to `acm` (sized for `model`); other SRDF elements are ignored. Throws
/// proxima::Error naming the file, line and link for malformed XML, a
/// missing <robot>, a missing attribute or a link the model does not have.
void apply_srdf(const RobotModel& model, const std::filesystem::path& srdf, AllowedCollisionMatrix& acm);
/// As apply_srdf, from text; `source_name` names it in messages.
void apply_srdf_text(const RobotModel& model, std::string_view xml, AllowedCollisionMatrix& acm,
                     const std::string& source_name = "");

}  // namespace proxima::robot
