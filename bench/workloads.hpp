// The benchmark workloads (issue #2): fixed-seed random poses of separated
// pairs, with ground truth from the test oracles (explicit Minkowski
// difference for polyhedral cores, certified direction sweep otherwise).
#pragma once

#include <vector>

#include <proxima/shape/shape.hpp>

#include "peers/workload.hpp"

namespace proxima::bench {

struct TruthWorkload {
  Workload work;
  std::vector<double> truth;  ///< ground-truth distance per pose
  const char* oracle = "";    ///< which oracle produced `truth`
};

/// The six workloads with `poses` separated poses each.
std::vector<TruthWorkload> make_workloads(int poses, unsigned seed = 2026);

Shape to_shape(const ShapeSpec& s);
Transform to_transform(const Pose& p);

}  // namespace proxima::bench
