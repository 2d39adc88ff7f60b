// SPDX-License-Identifier: BSD-3-Clause
#include "link_clearance.hpp"

#include <algorithm>
#include <limits>

namespace proxima::apps {

using namespace proxima::robot;

LinkClearance::LinkClearance(const SceneChecker& checker) : checker_(checker) {
  const std::size_t n = checker.model().links().size();
  self_of_.resize(n);
  for (std::size_t link = 0; link < n; ++link) {
    // Every pair allowed except the checked pairs of this link.
    AllowedCollisionMatrix acm(n);
    for (std::size_t a = 0; a < n; ++a)
      for (std::size_t b = a + 1; b < n; ++b) acm.set_allowed(static_cast<int>(a), static_cast<int>(b));
    bool any = false;
    for (const auto& [a, b] : checker.self_pairs()) {
      if (static_cast<std::size_t>(a) != link && static_cast<std::size_t>(b) != link) continue;
      acm.set_allowed(a, b, false);
      any = true;
    }
    if (any) self_of_[link].emplace(checker.geometry(), std::move(acm));
  }
}

LinkClearances LinkClearance::at(const RobotState& s, const Environment& env) const {
  const std::vector<Link>& links = checker_.model().links();
  LinkClearances out;
  out.per_link.assign(links.size(), std::numeric_limits<double>::infinity());
  const auto keep = [&](std::size_t link, const DistanceReport& d) {
    if (!d.found) return;
    out.per_link[link] = std::min(out.per_link[link], d.distance);
    if (!out.closest.found || d.distance < out.closest.distance) out.closest = d;
  };
  for (std::size_t link = 0; link < links.size(); ++link) {
    if (self_of_[link]) keep(link, self_of_[link]->self_distance(s));
    if (env.objects.empty() || !checker_.geometry().has_geometry(static_cast<int>(link))) continue;
    // The same objects, every other link allowed to touch them: only this link's pairs are measured.
    Environment own = env;
    for (EnvironmentObject& o : own.objects)
      for (std::size_t other = 0; other < links.size(); ++other)
        if (other != link) o.touch_links.push_back(links[other].name);
    keep(link, checker_.environment_distance(s, own));
  }
  return out;
}

}  // namespace proxima::apps
