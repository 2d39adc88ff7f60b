// SPDX-License-Identifier: BSD-3-Clause
// The demo's Polyhedral Exact Geometry page: the paper's two benchmarks with
// each formulation. PEG keeps the particle on or above the true surface
// without energy gain at every step size; Stewart–Trinkle shows the failures
// the paper shows (energy gained at some step size, the hills' particle
// trapped above the cusp); the plotted surface is the scene file's geometry.
#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "demo_peg.hpp"
#include "demo_sim.hpp"

namespace proxima {
namespace {

// The sawtooth's first tooth in examples/peg_sawtooth.json rises from
// (−0.5, 0) to (0.5, 0.1); the particle is a sphere of radius 0.02 m.
constexpr double kParticleRadius = 0.02;

std::size_t peg_count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(DemoPeg, PegFollowsTheSurfaceAndStewartTrinkleShowsThePapersFailures) {
  std::ostringstream log;
  const std::vector<apps::PegScene> scenes = apps::run_demo_peg(apps::default_examples_dir(), 1.0, log);
  ASSERT_EQ(scenes.size(), 2u) << log.str();
  const apps::PegScene& saw = scenes[0];
  const apps::PegScene& hills = scenes[1];
  ASSERT_EQ(saw.runs.size(), 8u);  // PEG and S–T at the scene's dt (1e-3 s), then each at the other three
  ASSERT_EQ(hills.runs.size(), 2u);

  // The surface is the tooth's top edge: y = 0.05 (x + 0.5) on the first tooth.
  int surface_checked = 0;
  for (std::size_t i = 0; i < saw.surface.x.size(); ++i) {
    const double x = saw.surface.x[i];
    if (x < -0.49 || x > 0.49) continue;
    EXPECT_NEAR(saw.surface.y[i], 0.1 * (x + 0.5), 1e-12) << x;
    ++surface_checked;
  }
  EXPECT_GE(surface_checked, 50);

  int peg_runs = 0;
  double st_gain = 0.0;
  for (const apps::PegScene* s : {&saw, &hills})
    for (const apps::PegRun& r : s->runs) {
      ASSERT_GT(r.steps, 0);
      ASSERT_EQ(r.trajectory.x.size(), static_cast<std::size_t>(r.steps));
      if (r.formulation == "peg") {
        ++peg_runs;
        // 5 kg from 0.75 m (sawtooth) or 2 m (hills): 1 mJ is far below any
        // gain the half-spaces give.
        EXPECT_LE(r.max_gain, 1e-3) << s->name << " dt " << r.dt;
        // Never below the lowest point of the surface (y = 0) by more than
        // the sphere's radius: it did not fall through.
        EXPECT_GE(r.lowest, -kParticleRadius) << s->name << " dt " << r.dt;
      } else {
        st_gain = std::max(st_gain, r.max_gain);
      }
    }
  EXPECT_EQ(peg_runs, 5);
  EXPECT_GT(st_gain, 1.0) << "Stewart–Trinkle gained no energy at any step size";
  // The hills: PEG's particle settles in a cusp on the surface, Stewart–
  // Trinkle's is held up by the extended half-spaces of the hills' facets.
  const double peg_end = hills.runs[0].trajectory.y.back(), st_end = hills.runs[1].trajectory.y.back();
  EXPECT_GT(st_end, peg_end + 0.1);

  const std::string html = apps::peg_html(scenes, "proxima demo", "today");
  // Sawtooth: trajectories, rows, solve time, energy and one plot per
  // formulation over the step sizes; hills: the first four.
  EXPECT_EQ(peg_count(html, "<svg"), 10u);
  EXPECT_GE(peg_count(html, ">stewart_trinkle<"), 4u);
  EXPECT_GE(peg_count(html, ">true surface<"), 3u);
  std::ostringstream md;
  apps::peg_markdown(scenes, md);
  EXPECT_EQ(peg_count(md.str(), "\n"), 2u + 10u);
}

}  // namespace
}  // namespace proxima
