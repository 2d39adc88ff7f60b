// SPDX-License-Identifier: BSD-3-Clause
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <limits>
#include <sstream>

#include "svg_plot.hpp"

namespace proxima::apps {
namespace {

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v + 0.0);  // + 0.0: no "-0"
  return buf;
}

// The series' colours, the first the report's blue.
constexpr const char* kColours[] = {"#1f6fb4", "#d1603d", "#519e3e", "#8d69b8", "#c53a32", "#4eb1bc"};

}  // namespace

std::string html_escape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::vector<double> nice_ticks(double lo, double hi, int most) {
  most = std::max(2, most);
  if (!(std::isfinite(lo) && std::isfinite(hi) && lo < hi)) return {lo, hi};
  const double raw = (hi - lo) / (most - 1);
  const double decade = std::pow(10.0, std::floor(std::log10(raw)));
  std::vector<double> ticks;
  for (const double m : {1.0, 2.0, 5.0, 10.0, 20.0}) {
    const double step = m * decade;
    const double first = std::ceil(lo / step - 1e-9), last = std::floor(hi / step + 1e-9);
    if (last - first + 1 > most) continue;
    for (double k = first; k <= last; ++k) ticks.push_back(k * step);
    break;
  }
  if (ticks.size() < 2) ticks = {lo, hi};  // a range too narrow for two round values inside it
  return ticks;
}

double median_of(std::vector<double> values) {
  values.erase(std::remove_if(values.begin(), values.end(), [](double v) { return !std::isfinite(v); }),
               values.end());
  if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
  const std::size_t mid = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid), values.end());
  if (values.size() % 2 == 1) return values[mid];
  const double upper = values[mid];
  return 0.5 * (upper + *std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid)));
}

std::string svg_plot(const std::vector<PlotSeries>& series, const PlotOptions& options) {
  const int width = options.width, height = options.height;
  // Plot area inside margins for the labels.
  const double left = 58, right = 8, top = 20, bottom = 30;
  const double pw = width - left - right, ph = height - top - bottom;
  double x0 = std::numeric_limits<double>::infinity(), x1 = -x0, y0 = x0, y1 = -x0;
  for (const PlotSeries& s : series) {
    const std::size_t n = std::min(s.x.size(), s.y.size());
    for (std::size_t i = 0; i < n; ++i) {
      if (!std::isfinite(s.x[i]) || !std::isfinite(s.y[i])) continue;
      x0 = std::min(x0, s.x[i]);
      x1 = std::max(x1, s.x[i]);
      y0 = std::min(y0, s.y[i]);
      y1 = std::max(y1, s.y[i]);
    }
  }
  const bool empty = !(x0 <= x1);
  if (empty) x0 = 0, x1 = 1, y0 = 0, y1 = 1;
  if (x1 == x0) x1 = x0 + 1;
  if (y1 == y0) {
    const double pad = y0 == 0.0 ? 1.0 : 0.5 * std::abs(y0);
    y0 -= pad;
    y1 += pad;
  }
  const auto px = [&](double x) { return left + (x - x0) / (x1 - x0) * pw; };
  const auto py = [&](double y) { return top + (y1 - y) / (y1 - y0) * ph; };

  std::ostringstream o;
  o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
    << "\" font-family=\"sans-serif\" font-size=\"10\">";
  o << "<text x=\"" << left << "\" y=\"13\" font-size=\"11\" font-weight=\"bold\">" << html_escape(options.title)
    << "</text>";
  // Grid and tick labels at round values; the grid under the data.
  o << "<g class=\"grid\" stroke=\"#e6e6e6\" stroke-width=\"1\">";
  const std::vector<double> xt = nice_ticks(x0, x1), yt = nice_ticks(y0, y1);
  for (const double x : xt)
    o << "<line x1=\"" << number(px(x)) << "\" y1=\"" << top << "\" x2=\"" << number(px(x)) << "\" y2=\"" << top + ph
      << "\"/>";
  for (const double y : yt)
    o << "<line x1=\"" << left << "\" y1=\"" << number(py(y)) << "\" x2=\"" << left + pw << "\" y2=\""
      << number(py(y)) << "\"/>";
  o << "</g>";
  o << "<rect x=\"" << left << "\" y=\"" << top << "\" width=\"" << pw << "\" height=\"" << ph
    << "\" fill=\"none\" stroke=\"#999\"/>";
  for (const double x : xt)
    o << "<text class=\"x-tick\" x=\"" << number(px(x)) << "\" y=\"" << top + ph + 11
      << "\" text-anchor=\"middle\">" << number(x) << "</text>";
  for (const double y : yt)
    o << "<text class=\"y-tick\" x=\"" << left - 3 << "\" y=\"" << number(py(y) + 3) << "\" text-anchor=\"end\">"
      << number(y) << "</text>";
  o << "<text x=\"11\" y=\"" << top + ph / 2 << "\" text-anchor=\"middle\" transform=\"rotate(-90 11 " << top + ph / 2
    << ")\">" << html_escape(options.y_label) << "</text>";
  o << "<text x=\"" << left + pw / 2 << "\" y=\"" << height - 4 << "\" text-anchor=\"middle\">"
    << html_escape(options.x_label) << "</text>";
  for (std::size_t k = 0; k < series.size() && !empty; ++k) {
    const PlotSeries& s = series[k];
    const std::size_t n = std::min(s.x.size(), s.y.size());
    // One min and one max per pixel column, in time order.
    o << "<polyline fill=\"none\" stroke=\"" << kColours[k % std::size(kColours)]
      << "\" stroke-width=\"1.2\" points=\"";
    const int columns = std::max(1, static_cast<int>(pw));
    std::size_t i = 0;
    for (int c = 0; c < columns && i < n; ++c) {
      const double edge = x0 + (x1 - x0) * (c + 1) / columns;
      double lo = std::numeric_limits<double>::infinity(), hi = -lo, xlo = 0, xhi = 0;
      for (; i < n && (s.x[i] <= edge || c == columns - 1); ++i) {
        if (!std::isfinite(s.x[i]) || !std::isfinite(s.y[i])) continue;
        if (s.y[i] < lo) lo = s.y[i], xlo = s.x[i];
        if (s.y[i] > hi) hi = s.y[i], xhi = s.x[i];
      }
      if (!(lo <= hi)) continue;
      const bool lo_first = xlo <= xhi;
      o << number(px(lo_first ? xlo : xhi)) << ',' << number(py(lo_first ? lo : hi)) << ' ';
      if (lo != hi) o << number(px(lo_first ? xhi : xlo)) << ',' << number(py(lo_first ? hi : lo)) << ' ';
    }
    o << "\"/>";
  }
  if (options.median && !series.empty()) {
    const double m = median_of(series[0].y);
    if (std::isfinite(m)) {
      o << "<line class=\"median\" x1=\"" << left << "\" y1=\"" << number(py(m)) << "\" x2=\"" << left + pw
        << "\" y2=\"" << number(py(m)) << "\" stroke=\"#c00\" stroke-dasharray=\"4 3\"/>";
      o << "<text class=\"median\" x=\"" << left + pw - 2 << "\" y=\"" << number(py(m) - 3)
        << "\" text-anchor=\"end\" fill=\"#c00\">median " << number(m) << "</text>";
    }
  }
  if (series.size() > 1) {
    // The legend along the title line, right-aligned: a swatch and the name
    // per series, in one text element so that the browser lays them out
    // (no guess at the font's widths).
    o << "<text class=\"legend\" x=\"" << left + pw << "\" y=\"13\" text-anchor=\"end\">";
    for (std::size_t k = 0; k < series.size(); ++k)
      o << (k == 0 ? "" : "\u2003") << "<tspan fill=\"" << kColours[k % std::size(kColours)] << "\">\u25A0</tspan>\u2009"
        << "<tspan>" << html_escape(series[k].name) << "</tspan>";
    o << "</text>";
  }
  o << "</svg>";
  return o.str();
}

std::string svg_line_plot(const PlotSeries& s, const std::string& title, const std::string& y_label, int width,
                          int height) {
  return svg_plot({s}, {.title = title, .y_label = y_label, .width = width, .height = height});
}

}  // namespace proxima::apps
