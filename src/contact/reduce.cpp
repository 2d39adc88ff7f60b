// SPDX-License-Identifier: BSD-3-Clause
#include <proxima/contact/reduce.hpp>

#include <algorithm>
#include <cmath>

namespace proxima {
namespace {

using Vec2 = Eigen::Vector2d;

double cross(const Vec2& o, const Vec2& a, const Vec2& b) {
  return (a - o).x() * (b - o).y() - (a - o).y() * (b - o).x();
}

// Area of the convex hull of a few points (monotone chain, then shoelace).
double hull_area(std::vector<Vec2> p) {
  if (p.size() < 3) return 0.0;
  std::sort(p.begin(), p.end(),
            [](const Vec2& a, const Vec2& b) { return a.x() < b.x() || (a.x() == b.x() && a.y() < b.y()); });
  std::vector<Vec2> h;
  for (int pass = 0; pass < 2; ++pass) {
    const std::size_t start = h.size();
    for (const Vec2& x : p) {
      while (h.size() >= start + 2 && cross(h[h.size() - 2], h.back(), x) <= 0.0) h.pop_back();
      h.push_back(x);
    }
    h.pop_back();
    std::reverse(p.begin(), p.end());
  }
  double area = 0.0;
  for (std::size_t i = 0; i < h.size(); ++i) {
    const Vec2& a = h[i];
    const Vec2& b = h[(i + 1) % h.size()];
    area += a.x() * b.y() - a.y() * b.x();
  }
  return 0.5 * std::abs(area);
}

}  // namespace

void reduce_contacts(std::vector<Contact>& points, int max_points, const Vec3& normal) {
  if (max_points < 1 || points.size() <= static_cast<std::size_t>(max_points)) return;
  const Vec3 e1 = normal.unitOrthogonal();
  const Vec3 e2 = normal.cross(e1);
  std::vector<Vec2> uv;
  uv.reserve(points.size());
  for (const Contact& c : points) uv.emplace_back(e1.dot(c.point), e2.dot(c.point));

  std::vector<std::size_t> kept;
  std::vector<bool> used(points.size(), false);
  auto keep = [&](std::size_t i) { kept.push_back(i); used[i] = true; };

  std::size_t deepest = 0;
  for (std::size_t i = 1; i < points.size(); ++i)
    if (points[i].depth > points[deepest].depth) deepest = i;
  keep(deepest);
  const auto k = static_cast<std::size_t>(max_points);
  if (k >= 2) {
    std::size_t far = 0;
    double best = -1.0;
    for (std::size_t i = 0; i < points.size(); ++i) {
      const double d = (uv[i] - uv[deepest]).squaredNorm();
      if (!used[i] && d > best) { best = d; far = i; }
    }
    keep(far);
  }
  std::vector<Vec2> trial;
  while (kept.size() < k) {
    std::size_t pick = points.size();
    double best = -1.0;
    for (std::size_t i = 0; i < points.size(); ++i) {
      if (used[i]) continue;
      trial.clear();
      for (std::size_t j : kept) trial.push_back(uv[j]);
      trial.push_back(uv[i]);
      const double a = hull_area(trial);
      if (a > best) { best = a; pick = i; }
    }
    keep(pick);
  }
  std::vector<Contact> out;
  out.reserve(k);
  for (std::size_t i : kept) out.push_back(points[i]);
  points.swap(out);
}

}  // namespace proxima
