// SPDX-License-Identifier: BSD-3-Clause
// Our hull handed to FCL 0.7 as an fcl::Convex with the same vertices and
// faces, for the bench programs that set FCL beside us.
#pragma once

#include <memory>
#include <vector>

#include <fcl/fcl.h>

#include <proxima/shape/convex_polytope.hpp>

namespace proxima::bench {

inline std::shared_ptr<fcl::Convexd> fcl_convex(const ConvexPolytope& hull) {
  const PolytopeData& d = hull.data();
  auto vertices = std::make_shared<std::vector<fcl::Vector3d>>(d.vertices.begin(), d.vertices.end());
  auto faces = std::make_shared<std::vector<int>>();
  for (const auto& f : d.faces) {
    faces->push_back(static_cast<int>(f.size()));
    faces->insert(faces->end(), f.begin(), f.end());
  }
  return std::make_shared<fcl::Convexd>(vertices, static_cast<int>(d.faces.size()), faces, /*throw_if_invalid=*/true);
}

}  // namespace proxima::bench
