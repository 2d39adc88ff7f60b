// SPDX-License-Identifier: BSD-3-Clause
// Each link's clearance, for the robot and watch pages (robot_page.hpp):
// its distance to the nearest thing the scene checker measures it against
// (the other links it checks it with, and the environment objects it may
// not touch). The robot layer answers it: one checker per link that checks
// only that link's pairs, and an environment in which every other link may
// touch every object, so the page shows the checker's own distances.
#pragma once

#include <optional>
#include <vector>

#include <proxima/robot/environment.hpp>
#include <proxima/robot/scene_checker.hpp>

namespace proxima::apps {

struct LinkClearances {
  /// Per link of the checker's model: the smallest distance of its checked
  /// pairs (m, 0 when touching or overlapping); +inf when it has none.
  std::vector<double> per_link;
  /// The closest pair over all links (self or environment; not found when
  /// nothing is measured), with its witness points.
  robot::DistanceReport closest;
};

class LinkClearance {
 public:
  /// `checker` is held by reference and must outlive this object.
  explicit LinkClearance(const robot::SceneChecker& checker);

  const robot::SceneChecker& checker() const { return checker_; }
  /// The clearances at state `s` (a state of the checker, status ok) among
  /// `env`'s objects.
  LinkClearances at(const robot::RobotState& s, const robot::Environment& env) const;

 private:
  const robot::SceneChecker& checker_;
  // Per link: a checker whose only self pairs are that link's (none when it has no self pair).
  std::vector<std::optional<robot::SceneChecker>> self_of_;
};

}  // namespace proxima::apps
