// SPDX-License-Identifier: BSD-3-Clause
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

#include "svg_plot.hpp"

namespace proxima::apps {
namespace {

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

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

std::string svg_line_plot(const PlotSeries& s, const std::string& title, const std::string& y_label, int width,
                          int height) {
  // Plot area inside margins for the labels.
  const double left = 58, right = 8, top = 20, bottom = 30;
  const double pw = width - left - right, ph = height - top - bottom;
  double x0 = std::numeric_limits<double>::infinity(), x1 = -x0, y0 = x0, y1 = -x0;
  const std::size_t n = std::min(s.x.size(), s.y.size());
  for (std::size_t i = 0; i < n; ++i) {
    if (!std::isfinite(s.x[i]) || !std::isfinite(s.y[i])) continue;
    x0 = std::min(x0, s.x[i]);
    x1 = std::max(x1, s.x[i]);
    y0 = std::min(y0, s.y[i]);
    y1 = std::max(y1, s.y[i]);
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
  o << "<text x=\"" << left << "\" y=\"13\" font-size=\"11\" font-weight=\"bold\">" << html_escape(title) << "</text>";
  o << "<rect x=\"" << left << "\" y=\"" << top << "\" width=\"" << pw << "\" height=\"" << ph
    << "\" fill=\"none\" stroke=\"#999\"/>";
  // Axis ranges and labels.
  o << "<text x=\"" << left - 3 << "\" y=\"" << top + 8 << "\" text-anchor=\"end\">" << number(y1) << "</text>";
  o << "<text x=\"" << left - 3 << "\" y=\"" << top + ph << "\" text-anchor=\"end\">" << number(y0) << "</text>";
  o << "<text x=\"" << left - 3 << "\" y=\"" << top + ph / 2 + 3 << "\" text-anchor=\"end\">" << html_escape(y_label)
    << "</text>";
  o << "<text x=\"" << left << "\" y=\"" << height - 16 << "\">" << number(x0) << "</text>";
  o << "<text x=\"" << left + pw << "\" y=\"" << height - 16 << "\" text-anchor=\"end\">" << number(x1) << "</text>";
  o << "<text x=\"" << left + pw / 2 << "\" y=\"" << height - 4 << "\" text-anchor=\"middle\">time, s</text>";
  if (!empty) {
    // One min and one max per pixel column, in time order.
    o << "<polyline fill=\"none\" stroke=\"#1f6fb4\" stroke-width=\"1.2\" points=\"";
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
  o << "</svg>";
  return o.str();
}

}  // namespace proxima::apps
