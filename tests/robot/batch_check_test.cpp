// SPDX-License-Identifier: BSD-3-Clause
// check_configurations: the Panda over a table and clutter, a few hundred
// configurations (free, touching, beyond a limit, non-finite) on 1–4
// threads; each row must be the single query's answer, field for field.
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <proxima/robot/batch_check.hpp>
#include <proxima/robot/prepared_environment.hpp>
#include <proxima/robot/scene_checker.hpp>

#include "robot_test_support.hpp"
#include "support/random.hpp"
#include "support/test_shapes.hpp"

namespace proxima::robot {
namespace {

using testing::Rng;

// A table and twenty small spheres over it.
PreparedEnvironment batch_test_clutter(Rng& rng) {
  Environment env;
  env.add("table", Box(0.6, 1.0, 0.1), testing::at(0.55, 0.0, 0.25));
  for (int i = 0; i < 20; ++i) {
    char name[16];  // (gcc 12 sees a false overflow in "o" + std::to_string(i))
    std::snprintf(name, sizeof name, "o%d", i);
    const double r = rng.uniform(0.01, 0.05);
    const double x = rng.uniform(-0.6, 0.6), y = rng.uniform(-0.6, 0.6), z = rng.uniform(0.1, 1.0);
    env.add(name, Sphere(r), testing::at(x, y, z));
  }
  return PreparedEnvironment(env);
}

// Rows uniform within the limits, a few with a value that is not a number
// or beyond a limit.
std::vector<double> batch_test_rows(const SceneChecker& c, Rng& rng, int rows) {
  const std::size_t dof = c.model().variable_count();
  std::vector<double> qs;
  for (int r = 0; r < rows; ++r)
    for (std::size_t j = 0; j < dof; ++j) {
      const Joint& jt = c.model().joint(c.model().variable_joint(j));
      double v = rng.uniform(jt.lower, jt.upper);
      if (r % 97 == 5 && j == 2) v = std::numeric_limits<double>::quiet_NaN();
      if (r % 89 == 3 && j == 0) v = jt.upper + 1.0;
      qs.push_back(v);
    }
  return qs;
}

// Each row's single query, the ground truth of the batches.
std::vector<ToleranceReport> batch_test_single(const SceneChecker& c, const PreparedEnvironment& env,
                                               const std::vector<double>& qs, double tolerance) {
  const std::size_t dof = c.model().variable_count();
  std::vector<ToleranceReport> out;
  for (std::size_t r = 0; r * dof < qs.size(); ++r)
    out.push_back(c.tolerance(c.state(std::span<const double>(qs).subspan(r * dof, dof)), env, tolerance));
  return out;
}

TEST(BatchCheck, RowsAreTheSingleQueriesOnAnyNumberOfThreads) {
  const SceneChecker c = robot_test::panda_checker(MeshMode::convex_hull);
  Rng rng(7);
  const PreparedEnvironment prepared = batch_test_clutter(rng);
  const std::vector<double> qs = batch_test_rows(c, rng, 400);
  int within = 0, free = 0, invalid = 0;
  const std::vector<ToleranceReport> single = batch_test_single(c, prepared, qs, 0.01);
  for (const ToleranceReport& t : single) {
    invalid += t.status == Status::invalid_input;
    within += t.status == Status::ok && t.within;
    free += t.status == Status::ok && !t.within;
  }
  // The sample holds every kind of answer.
  EXPECT_EQ(invalid, 5);  // the non-finite rows (beyond a limit is answered, as by state())
  EXPECT_GE(within, 20);
  EXPECT_GE(free, 20);
  // Without and with the sphere prefilter (sphere_prefilter_test.cpp has
  // its own cases).
  for (const bool prefilter : {false, true}) {
    for (const int threads : {1, 2, 4}) {
      const std::vector<ToleranceReport> batch =
          check_configurations(c, prepared, qs, 0.01, Transform::identity(), threads, prefilter);
      ASSERT_EQ(batch.size(), single.size());
      int differ = 0;
      for (std::size_t r = 0; r < batch.size(); ++r) {
        const ToleranceReport &a = batch[r], &b = single[r];
        const bool same = a.status == b.status && a.message == b.message && a.within == b.within && a.self == b.self &&
                          a.pair.link == b.pair.link && a.pair.other == b.pair.other;
        differ += !same;
        if (!same) ADD_FAILURE() << "row " << r << " threads " << threads << " prefilter " << prefilter;
      }
      EXPECT_EQ(differ, 0);
    }
  }
}

// check_validity keeps of each row what check_configurations answers with
// BatchAnswer::any_pair, with and without the prefilter, on 1 and 2
// threads; and whether a row is within is the single query's.
TEST(BatchCheck, ValidityLabelsAreTheAnyPairAnswers) {
  const SceneChecker c = robot_test::panda_checker(MeshMode::convex_hull);
  Rng rng(19);
  const PreparedEnvironment prepared = batch_test_clutter(rng);
  const std::vector<double> qs = batch_test_rows(c, rng, 600);
  int within = 0, invalid = 0;
  const std::vector<ToleranceReport> single = batch_test_single(c, prepared, qs, 0.0);
  for (const ToleranceReport& t : single) {
    within += t.within;
    invalid += t.status == Status::invalid_input;
  }
  EXPECT_GE(within, 50);
  EXPECT_GE(invalid, 5);
  for (const bool prefilter : {false, true})
    for (const int threads : {1, 2}) {
      const BatchValidity labels = check_validity(c, prepared, qs, 0.0, Transform::identity(), threads, prefilter);
      const std::vector<ToleranceReport> reports = check_configurations(
          c, prepared, qs, 0.0, Transform::identity(), threads, prefilter, BatchAnswer::any_pair);
      ASSERT_EQ(labels.within.size(), single.size());
      ASSERT_EQ(labels.status.size(), single.size());
      int differ = 0;
      for (std::size_t r = 0; r < single.size(); ++r) {
        const bool same = (labels.within[r] == 1) == reports[r].within && labels.within[r] <= 1 &&
                          labels.status[r] == reports[r].status && reports[r].within == single[r].within &&
                          (single[r].status != Status::invalid_input || labels.status[r] == Status::invalid_input);
        differ += !same;
        if (!same) ADD_FAILURE() << "row " << r << " threads " << threads << " prefilter " << prefilter;
      }
      EXPECT_EQ(differ, 0);
    }
  // Refused as check_configurations refuses.
  EXPECT_THROW(check_validity(c, prepared, std::vector<double>(6, 0.0)), Error);
  EXPECT_THROW(check_validity(c, prepared, std::vector<double>(7, 0.0), 0.0, Transform::identity(), -1), Error);
  EXPECT_TRUE(check_validity(c, prepared, {}).within.empty());
}

TEST(BatchCheck, RefusesPartialRowsAndNegativeThreads) {
  const SceneChecker c = robot_test::panda_checker(MeshMode::convex_hull);
  const PreparedEnvironment env{Environment{}};
  const std::vector<double> six(6, 0.0);
  try {
    check_configurations(c, env, six);
    ADD_FAILURE() << "6 values accepted as rows of 7";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("qs"), std::string::npos) << e.what();
  }
  const std::vector<double> seven(7, 0.0);
  EXPECT_THROW(check_configurations(c, env, seven, 0.0, Transform::identity(), -1), Error);
  EXPECT_EQ(check_configurations(c, env, {}).size(), 0u);
  EXPECT_EQ(check_configurations(c, env, seven, 0.0, Transform::identity(), 3).size(), 1u);
}

}  // namespace
}  // namespace proxima::robot
