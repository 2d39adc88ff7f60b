// SPDX-License-Identifier: BSD-3-Clause
// Inline SVG line plots for the HTML report (no script, no library).
#pragma once

#include <string>
#include <vector>

namespace proxima::apps {

struct PlotSeries {
  std::vector<double> x, y;
};

/// An SVG element (width × height px) plotting y against x as a polyline,
/// with the title, the y label, and the x and y ranges written on the
/// axes. Long series are thinned to one min and one max per pixel column,
/// so spikes stay visible. Non-finite points are skipped; an empty or flat
/// series still draws its frame.
std::string svg_line_plot(const PlotSeries& s, const std::string& title, const std::string& y_label, int width = 360,
                          int height = 180);

/// Escapes &, <, > and " for HTML text and attributes.
std::string html_escape(const std::string& text);

}  // namespace proxima::apps
