// SPDX-License-Identifier: BSD-3-Clause
// The report's SVG plots (svg_plot.hpp): round tick values on both axes, a
// grid, the legend of several series, the median line of a time-per-step plot.
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "svg_plot.hpp"

namespace proxima::apps {
namespace {

// The texts of the <text class="kind"> elements, in order.
std::vector<std::string> texts(const std::string& svg, const std::string& kind) {
  std::vector<std::string> out;
  const std::string key = "<text class=\"" + kind + "\"";
  for (std::size_t at = svg.find(key); at != std::string::npos; at = svg.find(key, at + 1)) {
    const std::size_t start = svg.find('>', at) + 1;
    out.push_back(svg.substr(start, svg.find("</text>", start) - start));
  }
  return out;
}

// The value of attribute `name` in the first element that starts with `element`.
double attribute(const std::string& svg, const std::string& element, const std::string& name) {
  const std::size_t at = svg.find(element);
  EXPECT_NE(at, std::string::npos) << element;
  const std::size_t start = svg.find(" " + name + "=\"", at) + name.size() + 3;
  return std::stod(svg.substr(start, svg.find('"', start) - start));
}

TEST(SvgPlot, NiceTicksAreRoundAndInside) {
  const std::vector<double> unit = nice_ticks(0.0, 1.0);
  ASSERT_EQ(unit.size(), 6u);
  for (std::size_t i = 0; i < unit.size(); ++i) EXPECT_NEAR(unit[i], 0.2 * static_cast<double>(i), 1e-12);
  EXPECT_EQ(nice_ticks(-3.7, 12.2), (std::vector<double>{0.0, 5.0, 10.0}));
  const std::vector<double> small = nice_ticks(0.001, 0.0013);
  ASSERT_EQ(small.size(), 4u);
  for (std::size_t i = 0; i < small.size(); ++i) EXPECT_NEAR(small[i], 0.001 + 1e-4 * static_cast<double>(i), 1e-15);
  EXPECT_EQ(nice_ticks(0.0, 20.0, 3), (std::vector<double>{0.0, 10.0, 20.0}));
  // A range between two round values keeps its ends.
  EXPECT_EQ(nice_ticks(1.01, 1.02, 2), (std::vector<double>{1.01, 1.02}));
}

TEST(SvgPlot, TickLabelsAlongBothAxesAndAGrid) {
  PlotSeries s;
  for (int i = 0; i <= 100; ++i) {
    s.x.push_back(0.02 * i);  // 0 to 2 s
    s.y.push_back(-5.0 + 0.3 * i);  // −5 to 25
  }
  const std::string svg = svg_line_plot(s, "ramp", "mm");
  EXPECT_EQ(texts(svg, "x-tick"), (std::vector<std::string>{"0", "0.5", "1", "1.5", "2"}));
  // Steps of 5 would give seven values, one more than the six allowed: steps of 10.
  EXPECT_EQ(texts(svg, "y-tick"), (std::vector<std::string>{"0", "10", "20"}));
  // One grid line per tick, the y = 0 one where 0 falls in the plot area (y from 20 to 150 px, 25 at the top).
  const std::size_t grid = svg.find("<g class=\"grid\"");
  ASSERT_NE(grid, std::string::npos);
  const std::string lines = svg.substr(grid, svg.find("</g>", grid) - grid);
  std::size_t count = 0;
  for (std::size_t at = lines.find("<line"); at != std::string::npos; at = lines.find("<line", at + 1)) ++count;
  EXPECT_EQ(count, 5u + 3u);
  EXPECT_NE(lines.find("y1=\"128.3\""), std::string::npos) << lines;  // 20 + 25 / 30 · 130
  EXPECT_TRUE(texts(svg, "legend").empty()) << "one series: no legend";
  EXPECT_EQ(svg.find("class=\"median\""), std::string::npos) << "not asked for";
}

TEST(SvgPlot, LegendNamesEverySeries) {
  PlotSeries a{{0, 1, 2}, {0, 1, 0}, "watched"}, b{{0, 1, 2}, {1, 2, 3}, "unwatched <jog>"};
  const std::string svg = svg_plot({a, b}, {.title = "two"});
  // One legend line: per series, in order, a swatch of its line's colour, then its name.
  const std::vector<std::string> legend = texts(svg, "legend");
  ASSERT_EQ(legend.size(), 1u);
  const std::string& l = legend[0];
  const std::size_t swatch_a = l.find("<tspan fill=\"#1f6fb4\">"), name_a = l.find("<tspan>watched</tspan>");
  const std::size_t swatch_b = l.find("<tspan fill=\"#d1603d\">"),
                    name_b = l.find("<tspan>unwatched &lt;jog&gt;</tspan>");
  ASSERT_NE(swatch_a, std::string::npos) << l;
  ASSERT_NE(name_b, std::string::npos) << l;
  EXPECT_LT(swatch_a, name_a);
  EXPECT_LT(name_a, swatch_b);
  EXPECT_LT(swatch_b, name_b);
  std::size_t polylines = 0;
  for (std::size_t at = svg.find("<polyline"); at != std::string::npos; at = svg.find("<polyline", at + 1)) ++polylines;
  EXPECT_EQ(polylines, 2u);
  // Each swatch has its series' line colour.
  EXPECT_NE(svg.find("stroke=\"#1f6fb4\""), std::string::npos);
  EXPECT_NE(svg.find("stroke=\"#d1603d\""), std::string::npos);
  EXPECT_NE(svg.find("fill=\"#d1603d\""), std::string::npos);
}

TEST(SvgPlot, MedianLineOfATimePerStepPlot) {
  EXPECT_EQ(median_of({5, 1, 3, 100, 2}), 3.0);
  EXPECT_EQ(median_of({4, 1, 3, 2}), 2.5);
  EXPECT_EQ(median_of({NAN, 7, INFINITY}), 7.0);
  EXPECT_TRUE(std::isnan(median_of({})));
  const PlotOptions o{.title = "time per step", .y_label = "ms", .median = true};
  const std::string svg = svg_plot({PlotSeries{{0, 1, 2, 3, 4}, {5, 1, 3, 100, 2}}}, o);
  EXPECT_EQ(texts(svg, "median"), (std::vector<std::string>{"median 3"}));
  // y from 1 (bottom, 150 px) to 100 (top, 20 px).
  // Written to 4 digits.
  EXPECT_NEAR(attribute(svg, "<line class=\"median\"", "y1"), 20.0 + (100.0 - 3.0) / 99.0 * 130.0, 0.06);
}

}  // namespace
}  // namespace proxima::apps
