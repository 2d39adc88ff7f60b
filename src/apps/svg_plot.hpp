// SPDX-License-Identifier: BSD-3-Clause
// Inline SVG line plots for the HTML report (no script, no library).
#pragma once

#include <string>
#include <vector>

namespace proxima::apps {

struct PlotSeries {
  std::vector<double> x = {}, y = {};
  std::string name = {};  ///< its entry in the legend (shown when a plot has more than one series)
};

struct PlotOptions {
  std::string title = {};
  std::string y_label = {};
  std::string x_label = "time, s";
  int width = 360, height = 180;  ///< px
  /// A dashed line at the median of the first series' values, labelled
  /// (what a time-per-step plot is read by: a few slow steps do not move it).
  bool median = false;
};

/// An SVG element plotting each series' y against x as a polyline, with
/// the title, tick labels along both axes at round values (nice_ticks), a
/// light grid at the ticks, the axis labels, and a legend when there is more
/// than one series. Long series are thinned to one min and one max per pixel
/// column, so spikes stay visible. Non-finite points are skipped; empty or
/// flat series still draw their frame.
std::string svg_plot(const std::vector<PlotSeries>& series, const PlotOptions& options);

/// svg_plot of one series.
std::string svg_line_plot(const PlotSeries& s, const std::string& title, const std::string& y_label, int width = 360,
                          int height = 180);

/// Round tick values within [lo, hi] (lo < hi): multiples of a step of 1, 2
/// or 5 × 10^k chosen so that there are at most `most` of them (≥ 2), and at
/// least two. Ascending.
std::vector<double> nice_ticks(double lo, double hi, int most = 6);

/// The median of the finite values (NaN when there are none).
double median_of(std::vector<double> values);

/// Escapes &, <, > and " for HTML text and attributes.
std::string html_escape(const std::string& text);

}  // namespace proxima::apps
