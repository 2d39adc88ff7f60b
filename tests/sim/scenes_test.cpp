// Short versions of the example scenes with their metric bounds.
#include <gtest/gtest.h>

#include "../support/test_shapes.hpp"
#include "scene.hpp"

namespace proxima {
namespace {

double metric(const apps::SimRunResult& r, const std::string& name) {
  for (const sim::MetricResult& m : r.metrics)
    if (m.name == name) return m.value;
  ADD_FAILURE() << "no metric " << name;
  return 0.0;
}

apps::SimRunResult run(const std::string& file, double seconds) {
  apps::Scene s = apps::load_scene(std::string(PROXIMA_EXAMPLES_DIR) + "/" + file);
  apps::SimRunResult r = apps::run_scene(s, seconds, nullptr);
  for (const sim::MetricResult& m : r.metrics)
    if (!m.text.empty()) std::printf("  %s: %s\n", file.c_str(), m.text.c_str());
  std::printf("  %s: %s\n", file.c_str(), r.timing.text().c_str());
  return r;
}

TEST(Scenes, RestingBoxCarriesItsWeight) {
  const apps::SimRunResult r = run("resting_box.json", 1.0);
  EXPECT_NEAR(metric(r, "support_over_weight"), 1.0, 1e-9);
  EXPECT_LE(metric(r, "support_max_error"), 1e-6);
}

}  // namespace
}  // namespace proxima
