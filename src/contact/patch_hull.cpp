// SPDX-License-Identifier: BSD-3-Clause
// Flat contact patches reduced to their hull vertices (contact/patch_hull.hpp).
#include <proxima/contact/patch_hull.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <numeric>
#include <utility>

namespace proxima {
namespace {

constexpr double kNormalTolerance = 1e-3;  // rad

bool same_normal(const Vec3& a, const Vec3& b) { return (a - b).norm() <= kNormalTolerance; }

// Distinct contacts: copies whose points agree within `tol` and normals
// within kNormalTolerance merge into one.
void merge_duplicates(std::vector<Contact>& c, double tol, std::vector<std::size_t>& order, std::vector<char>& gone) {
  const std::size_t n = c.size();
  if (n < 2) return;
  order.resize(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t i, std::size_t j) {
    return c[i].point.x() != c[j].point.x() ? c[i].point.x() < c[j].point.x() : i < j;
  });
  gone.assign(n, 0);
  const auto same = [&](const Contact& x, const Contact& y) {
    return (x.point - y.point).cwiseAbs().maxCoeff() <= tol && same_normal(x.normal, y.normal);
  };
  for (std::size_t a = 0; a < n; ++a) {
    const std::size_t i = order[a];
    if (gone[i]) continue;
    for (std::size_t b = a + 1; b < n && c[order[b]].point.x() - c[i].point.x() <= tol; ++b) {
      const std::size_t j = order[b];
      if (gone[j] || !same(c[i], c[j])) continue;
      // Keep the lower index (input order) as the survivor.
      const std::size_t keep = std::min(i, j), drop = std::max(i, j);
      Contact& k = c[keep];
      const Contact& d = c[drop];
      if (d.depth > k.depth) {
        k.depth = d.depth;
        k.point = d.point;
        k.normal = d.normal;
      }
      if (std::make_pair(d.feature_a, d.feature_b) < std::make_pair(k.feature_a, k.feature_b)) {
        k.feature_a = d.feature_a;
        k.feature_b = d.feature_b;
      }
      k.intersecting = k.intersecting || d.intersecting;
      gone[drop] = 1;
      if (drop == i) break;
    }
  }
  std::size_t w = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (!gone[i]) c[w++] = c[i];
  c.resize(w);
}

double cross2(const Eigen::Vector2d& o, const Eigen::Vector2d& a, const Eigen::Vector2d& b) {
  return (a.x() - o.x()) * (b.y() - o.y()) - (a.y() - o.y()) * (b.x() - o.x());
}

// Keeps, of every group of contacts sharing a normal and a plane, the
// vertices of the group's convex hull in that plane (monotone chain; points
// within `tol` of a hull edge count as on it and are dropped). Contacts are
// first sorted into cells of a grid over the normal (kNormalTolerance
// wide), so grouping costs O(N log N) even for curved contact sets where
// every contact is its own group; within a cell a group is the contacts
// within `tol` along the normal of the cell's first ungrouped contact.
// Splitting a patch across cells keeps more points, never fewer: each
// group's hull still contains its dropped points.
}  // namespace

void keep_patch_hulls(std::vector<Contact>& c, double tol) {
  {
    // Copies first, so that the deepest of them is the one that stays.
    std::vector<std::size_t> order;
    std::vector<char> gone;
    merge_duplicates(c, tol, order, gone);
  }
  const std::size_t n = c.size();
  if (n < 4) return;
  using Key = std::array<long long, 3>;
  std::vector<std::pair<Key, std::size_t>> keyed(n);
  for (std::size_t i = 0; i < n; ++i) {
    const Vec3& nn = c[i].normal;
    keyed[i] = {Key{std::llround(nn.x() / kNormalTolerance), std::llround(nn.y() / kNormalTolerance),
                    std::llround(nn.z() / kNormalTolerance)},
                i};
  }
  std::sort(keyed.begin(), keyed.end());
  std::vector<char> keep(n, 1), grouped(n, 0);
  std::vector<std::size_t> members;
  std::vector<std::pair<Eigen::Vector2d, std::size_t>> pts;
  std::vector<std::size_t> hull, chain;
  std::size_t cell_end = 0;
  for (std::size_t first = 0; first < n; ++first) {
    if (first >= cell_end) {
      cell_end = first + 1;
      while (cell_end < n && keyed[cell_end].first == keyed[first].first) ++cell_end;
    }
    const std::size_t i0 = keyed[first].second;
    if (grouped[i0]) continue;
    const double h0 = c[i0].normal.dot(c[i0].point);
    members.clear();
    for (std::size_t k = first; k < cell_end; ++k) {
      const std::size_t j = keyed[k].second;
      if (grouped[j] || !same_normal(c[j].normal, c[i0].normal) ||
          std::abs(c[i0].normal.dot(c[j].point) - h0) > tol)
        continue;
      grouped[j] = 1;
      members.push_back(j);
    }
    if (members.size() < 3) continue;
    const Vec3 n0 = c[members[0]].normal;
    Vec3 t1 = n0.unitOrthogonal(), t2 = n0.cross(t1);
    pts.clear();
    for (std::size_t j : members) pts.push_back({Eigen::Vector2d(t1.dot(c[j].point), t2.dot(c[j].point)), j});
    std::sort(pts.begin(), pts.end(), [](const auto& a, const auto& b) {
      return a.first.x() != b.first.x() ? a.first.x() < b.first.x()
             : a.first.y() != b.first.y() ? a.first.y() < b.first.y()
                                          : a.second < b.second;
    });
    // The plain hull first (lower and upper chains, strict left turns):
    // with the tolerance already in the chains, a point 1e-17 left of a
    // side's column would start the chain and the true corner beside it
    // would be dropped as collinear. Then a vertex goes while it turns left
    // by no more than tol times the length of the edge that replaces it.
    hull.clear();
    const auto left_turn = [&](std::size_t o, std::size_t a, const Eigen::Vector2d& b) {
      return cross2(pts[o].first, pts[a].first, b) > 0.0;
    };
    for (int pass = 0; pass < 2; ++pass) {
      chain.clear();
      for (std::size_t k = 0; k < pts.size(); ++k) {
        const std::size_t idx = pass == 0 ? k : pts.size() - 1 - k;
        while (chain.size() >= 2 && !left_turn(chain[chain.size() - 2], chain.back(), pts[idx].first)) chain.pop_back();
        chain.push_back(idx);
      }
      chain.pop_back();  // the last point starts the other chain
      hull.insert(hull.end(), chain.begin(), chain.end());
    }
    // Flattest vertex first, so the result does not depend on where the
    // walk round the hull starts.
    while (hull.size() > 2) {
      std::size_t flattest = hull.size();
      double least = tol;
      for (std::size_t k = 0; k < hull.size(); ++k) {
        const Eigen::Vector2d& pp = pts[hull[(k + hull.size() - 1) % hull.size()]].first;
        const Eigen::Vector2d& pn = pts[hull[(k + 1) % hull.size()]].first;
        const double len = (pn - pp).norm();
        const double turn = cross2(pp, pts[hull[k]].first, pn);
        if (turn <= least * len) {
          least = len > 0.0 ? turn / len : 0.0;
          flattest = k;
        }
      }
      if (flattest == hull.size()) break;
      hull.erase(hull.begin() + static_cast<std::ptrdiff_t>(flattest));
    }
    for (std::size_t j : members) keep[j] = 0;
    for (std::size_t k : hull) keep[pts[k].second] = 1;
  }
  std::size_t w = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (keep[i]) c[w++] = c[i];
  c.resize(w);
}


}  // namespace proxima
