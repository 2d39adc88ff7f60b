// SPDX-License-Identifier: BSD-3-Clause
// The HTML report of `proxima demo`: SVG plots that stay in their frame and
// keep spikes, and a page with four plots per shipped scene.
#include <string>
#include <sstream>

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

#include "../support/temp_files.hpp"

#include "demo_sim.hpp"
#include "svg_plot.hpp"

namespace proxima {
namespace {

std::vector<std::pair<double, double>> polyline(const std::string& svg) {
  // A plain search, not <regex>: GCC 12's regex trips -Wmaybe-uninitialized
  // in the -O1 sanitizer build.
  std::vector<std::pair<double, double>> out;
  const std::string key = "points=\"";
  const std::size_t start = svg.find(key);
  if (start == std::string::npos) return out;
  const std::size_t end = svg.find('"', start + key.size());
  if (end == std::string::npos) return out;
  std::istringstream in(svg.substr(start + key.size(), end - start - key.size()));
  std::string p;
  while (in >> p) {
    const auto comma = p.find(',');
    out.emplace_back(std::stod(p.substr(0, comma)), std::stod(p.substr(comma + 1)));
  }
  return out;
}

TEST(SvgPlot, ThinsLongSeriesButKeepsTheSpike) {
  apps::PlotSeries s;
  for (int i = 0; i < 100000; ++i) {
    s.x.push_back(i * 1e-3);
    s.y.push_back(i == 51234 ? 5.0 : std::sin(i * 1e-3));
  }
  const std::string svg = apps::svg_line_plot(s, "t <&> \"q\"", "mm", 360, 180);
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_NE(svg.find("t &lt;&amp;&gt; &quot;q&quot;"), std::string::npos);
  const auto pts = polyline(svg);
  ASSERT_FALSE(pts.empty());
  EXPECT_LE(pts.size(), 2u * 360u);  // at most a min and a max per pixel column
  double top = 1e9;
  for (const auto& [x, y] : pts) {
    EXPECT_GE(x, 58.0 - 1e-9);
    EXPECT_LE(x, 352.0 + 1e-9);
    EXPECT_GE(y, 20.0 - 1e-9);
    EXPECT_LE(y, 150.0 + 1e-9);
    top = std::min(top, y);
  }
  EXPECT_NEAR(top, 20.0, 1e-9);  // the single-sample spike reaches the top
}

TEST(SvgPlot, EmptyAndFlatSeriesDrawAFrame) {
  EXPECT_NE(apps::svg_line_plot({}, "none", "").find("<rect"), std::string::npos);
  apps::PlotSeries flat{{0, 1, 2}, {3, 3, 3}};
  EXPECT_EQ(polyline(apps::svg_line_plot(flat, "flat", "")).size(), 3u);
}

TEST(DemoSim, EveryShippedSceneGetsFourPlots) {
  std::ostringstream log;
  const auto reports = apps::run_demo_scenes(apps::default_examples_dir(), 0.02, log);
  ASSERT_EQ(reports.size(), apps::demo_scenes().size()) << log.str();
  const std::string html = apps::sim_html(reports, "proxima demo", "today");
  std::size_t svgs = 0;
  for (std::size_t i = 0; (i = html.find("<svg", i)) != std::string::npos; ++i) ++svgs;
  EXPECT_EQ(svgs, 4 * reports.size());
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("watchdog_replay.html"), std::string::npos) << "no watch page, no link";
  apps::ReportLinks links;
  links.watch_page = "watchdog_replay.html";
  links.peg_page = "peg.html";
  links.query_page = "queries.html";
  links.mug_page = "mug_contacts.html";
  const std::string linked = apps::sim_html(reports, "proxima demo", "today", links);
  for (const std::string& page : {links.watch_page, links.peg_page, links.query_page, links.mug_page})
    EXPECT_NE(linked.find("<a href=\"" + page + "\">"), std::string::npos) << page;
  EXPECT_EQ(html.find("peg.html"), std::string::npos);
  EXPECT_EQ(html.find("queries.html"), std::string::npos);
  // The time-per-step plots carry their median line, the others not.
  std::size_t medians = 0;
  for (std::size_t i = 0; (i = html.find("<line class=\"median\"", i)) != std::string::npos; ++i) ++medians;
  EXPECT_EQ(medians, reports.size());
  for (const auto& r : reports) {
    EXPECT_FALSE(r.metrics.empty()) << r.name;
    EXPECT_EQ(r.energy_j.y.size(), static_cast<std::size_t>(r.timing.steps)) << r.name;
  }
}

// With a report folder, every scene's run also leaves its 3-D replay page
// there, and index.html links it.
TEST(DemoSim, EachSceneRunWritesItsReplayPage) {
  const testing::TempDir dir;
  std::ostringstream log;
  const auto reports = apps::run_demo_scenes(apps::default_examples_dir(), 0.02, log, dir.path().string());
  ASSERT_EQ(reports.size(), apps::demo_scenes().size()) << log.str();
  const std::string html = apps::sim_html(reports, "proxima demo", "today");
  int pages = 0;
  for (const auto& r : reports) {
    ASSERT_FALSE(r.replay_page.empty()) << r.name << ": " << log.str();
    std::ifstream f(dir.path() / r.replay_page);
    ASSERT_TRUE(f) << r.replay_page;
    const std::string page((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    EXPECT_NE(page.find("\"format\":\"proxima-replay\""), std::string::npos) << r.replay_page;
    EXPECT_NE(page.find(r.name), std::string::npos) << r.replay_page;
    EXPECT_NE(html.find("href=\"" + r.replay_page + "\""), std::string::npos) << r.replay_page;
    // The grasp's page draws the Panda's links too.
    if (r.file == std::string("panda_mug_grasp.json")) {
      EXPECT_NE(page.find("\"panda/panda_hand\""), std::string::npos) << r.replay_page;
    }
    ++pages;
  }
  EXPECT_EQ(pages, static_cast<int>(apps::demo_scenes().size()));
}

}  // namespace
}  // namespace proxima
