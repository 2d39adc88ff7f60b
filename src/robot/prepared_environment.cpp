// SPDX-License-Identifier: BSD-3-Clause
#include <proxima/robot/prepared_environment.hpp>

#include <proxima/core/error.hpp>

#include "pair_query.hpp"

namespace proxima::robot {

PreparedEnvironment::PreparedEnvironment() : data_(std::make_shared<const Data>()) {}

PreparedEnvironment::PreparedEnvironment(Environment environment) {
  if (auto err = detail::environment_error(environment)) throw Error(*err);
  std::vector<Aabb> boxes = detail::object_boxes(environment);
  std::vector<std::uint32_t> touching;
  for (std::size_t i = 0; i < environment.objects.size(); ++i)
    if (!environment.objects[i].touch_links.empty()) touching.push_back(static_cast<std::uint32_t>(i));
  data_ = std::make_shared<const Data>(
      Data{std::move(environment), broad::BoxTree(std::move(boxes)), std::move(touching)});
}

}  // namespace proxima::robot
