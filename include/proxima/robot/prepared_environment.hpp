// SPDX-License-Identifier: BSD-3-Clause
// An Environment made ready for many queries: every pose checked once, every
// object's world box computed once, and a bounding-volume hierarchy over the
// boxes (broad/box_tree.hpp), so that a query looks only at the objects near
// the robot instead of at all of them. For scenes that do not change between
// queries: a planning scene of thousands of boxes from a voxelised point
// cloud, or a few objects asked about millions of times by a planner.
//
// Immutable and cheap to copy (its data is shared); safe to query from any
// number of threads. An Environment passed straight to the scene checker is
// checked and boxed again on every call, which is right for a scene that
// changes as often as it is asked about.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <proxima/broad/box_tree.hpp>
#include <proxima/robot/environment.hpp>

namespace proxima::robot {

class PreparedEnvironment {
 public:
  /// An empty environment.
  PreparedEnvironment();
  /// Throws proxima::Error naming the first object whose pose is not finite
  /// (or beyond the range of lengths).
  explicit PreparedEnvironment(Environment environment);

  const Environment& environment() const { return data_->environment; }
  const std::vector<EnvironmentObject>& objects() const { return data_->environment.objects; }
  /// Object i's world box is index().box(i).
  const broad::BoxTree& index() const { return data_->index; }
  /// The objects with touch links (EnvironmentObject::touch_links), so that
  /// checking their names against a robot does not visit every object.
  const std::vector<std::uint32_t>& with_touch_links() const { return data_->with_touch_links; }

 private:
  struct Data {
    Environment environment;
    broad::BoxTree index;
    std::vector<std::uint32_t> with_touch_links;
  };
  std::shared_ptr<const Data> data_;
};

}  // namespace proxima::robot
