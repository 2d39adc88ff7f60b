#include <proxima/robot/prepared_environment.hpp>

#include <proxima/core/error.hpp>

#include "pair_query.hpp"

namespace proxima::robot {

PreparedEnvironment::PreparedEnvironment() : data_(std::make_shared<const Data>()) {}

PreparedEnvironment::PreparedEnvironment(Environment environment) {
  if (auto err = detail::environment_error(environment)) throw Error(*err);
  std::vector<Aabb> boxes = detail::object_boxes(environment);
  data_ = std::make_shared<const Data>(Data{std::move(environment), broad::BoxTree(std::move(boxes))});
}

}  // namespace proxima::robot
