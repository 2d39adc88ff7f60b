// SPDX-License-Identifier: BSD-3-Clause
// Contact clustering (BLEM paper §3.4): each contact is a weighted 7-D vector
// (point, normal, depth); small sets are agglomerated with average linkage,
// large ones go through k-means. Both paths only produce a label per contact;
// one shared pass turns labels into representatives.
#include <proxima/contact/cluster.hpp>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cmath>
#include <cstddef>
#include <limits>
#include <numeric>

namespace proxima {
namespace {

// Features padded to 8 doubles: the distance loop has no remainder and the
// eighth coordinate (always 0) adds nothing.
constexpr std::size_t kDim = 8;
constexpr double kInf = std::numeric_limits<double>::infinity();
// Weighted coordinates above this could overflow a squared distance (8 terms).
constexpr double kMaxFeature = 1e150;
// k-means keeps the k × k centre distances up to this many centres (2 MB).
constexpr std::size_t kMaxGapMatrix = 512;
// Relative to the set's extent (the diagonal of the weighted features'
// bounding box): contacts closer than this are one contact, and distances,
// depths and merge heights closer than this are ties. Far above rounding and
// the splits a 1e-6 pose change causes in mesh contacts (2e-6 m on a 10 cm
// patch, 1.4e-5 relative), far below the spacing of distinct contacts.
constexpr double kCoincident = 1e-4;

double dist2(const double* a, const double* b) {
  // Two interleaved partial sums so the compiler may keep them in one vector
  // register without reassociating a single sum (no -ffast-math here).
  double s0 = 0.0, s1 = 0.0;
  for (std::size_t j = 0; j < kDim; j += 2) {
    const double d0 = a[j] - b[j];
    const double d1 = a[j + 1] - b[j + 1];
    s0 += d0 * d0;
    s1 += d1 * d1;
  }
  return s0 + s1;
}

bool valid(const std::vector<Contact>& contacts, const ClusterOptions& o) {
  if (o.max_contacts < 1 || o.hierarchical_limit < 0) return false;
  for (double w : {o.point_weight, o.normal_weight, o.depth_weight})
    if (!std::isfinite(w) || w < 0.0) return false;
  // Weighted coordinates beyond kMaxFeature could overflow a squared
  // distance to infinity, and infinities to NaN in the centre updates.
  auto fits = [](double w, double v) { return std::isfinite(v) && std::abs(w * v) <= kMaxFeature; };
  for (const Contact& c : contacts) {
    if (!fits(o.depth_weight, c.depth)) return false;
    for (int j = 0; j < 3; ++j)
      if (!fits(o.point_weight, c.point[j]) || !fits(o.normal_weight, c.normal[j])) return false;
  }
  return true;
}

// The weighted 7-D vectors, row i at x[kDim·i].
void build_features(const std::vector<Contact>& contacts, const ClusterOptions& o, std::vector<double>& x) {
  x.assign(kDim * contacts.size(), 0.0);
  for (std::size_t i = 0; i < contacts.size(); ++i) {
    const Contact& c = contacts[i];
    double* f = &x[kDim * i];
    for (int j = 0; j < 3; ++j) {
      f[j] = o.point_weight * c.point[j];
      f[3 + j] = o.normal_weight * c.normal[j];
    }
    f[6] = o.depth_weight * c.depth;
  }
}

// The weighted features' bounding box: its diagonal, and the axis of its
// largest side.
double extent(const std::vector<double>& x, std::size_t n, std::size_t& axis, double& lo_axis, double& side) {
  double lo[kDim], hi[kDim];
  std::fill_n(lo, kDim, kInf);
  std::fill_n(hi, kDim, -kInf);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < kDim; ++j) {
      lo[j] = std::min(lo[j], x[kDim * i + j]);
      hi[j] = std::max(hi[j], x[kDim * i + j]);
    }
  double s = 0.0;
  axis = 0;
  for (std::size_t j = 0; j < kDim; ++j) {
    s += (hi[j] - lo[j]) * (hi[j] - lo[j]);
    if (hi[j] - lo[j] > hi[axis] - lo[axis]) axis = j;
  }
  lo_axis = lo[axis];
  side = hi[axis] - lo[axis];
  return std::sqrt(s);
}

int find_root(std::vector<int>& parent, int i) {
  while (parent[i] != i) {
    parent[i] = parent[parent[i]];  // path halving
    i = parent[i];
  }
  return i;
}

// Coincident contacts: the connected components of "within tol" (single
// linkage, so the result does not depend on the input order). Contacts are
// bucketed along the feature axis of largest spread (buckets at least tol
// wide, about one contact each), and only neighbouring buckets are compared.
// label[i] = the smallest member index of i's component; returns the number
// of components.
std::size_t coincident(const std::vector<double>& x, std::size_t n, double tol, std::size_t axis, double lo,
                       double side, std::vector<int>& label) {
  label.resize(n);
  std::iota(label.begin(), label.end(), 0);
  const double width = std::max(tol, side / static_cast<double>(n));
  const std::size_t buckets = width > 0.0 ? std::min(n, static_cast<std::size_t>(side / width) + 1) : 1;
  std::vector<int> start(buckets + 2, 0), member(n);
  std::vector<std::size_t> bucket(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double t = width > 0.0 ? (x[kDim * i + axis] - lo) / width : 0.0;
    bucket[i] = std::min(buckets - 1, static_cast<std::size_t>(t));
    ++start[bucket[i] + 2];
  }
  for (std::size_t b = 2; b < start.size(); ++b) start[b] += start[b - 1];
  for (std::size_t i = 0; i < n; ++i) member[static_cast<std::size_t>(start[bucket[i] + 1]++)] = static_cast<int>(i);
  // Now bucket b holds member[start[b] .. start[b + 1]).
  const double tol2 = tol * tol;
  for (std::size_t b = 0; b < buckets; ++b) {
    const auto end = static_cast<std::size_t>(start[std::min(b + 2, buckets)]);
    for (auto s = static_cast<std::size_t>(start[b]); s < static_cast<std::size_t>(start[b + 1]); ++s) {
      const auto i = static_cast<std::size_t>(member[s]);
      for (std::size_t t = s + 1; t < end; ++t) {
        const auto j = static_cast<std::size_t>(member[t]);
        if (dist2(&x[kDim * i], &x[kDim * j]) > tol2) continue;
        const int ri = find_root(label, static_cast<int>(i)), rj = find_root(label, static_cast<int>(j));
        if (ri != rj) label[std::max(ri, rj)] = std::min(ri, rj);
      }
    }
  }
  std::size_t groups = 0;
  for (std::size_t i = 0; i < n; ++i) {
    label[i] = find_root(label, static_cast<int>(i));
    groups += label[i] == static_cast<int>(i);
  }
  return groups;
}

// The first candidate in the lexicographic order of the weighted features
// (point, normal, depth), coordinates within tol counting as equal; the
// lowest index among candidates equal in every coordinate. A tie-break that
// depends on where the contacts are, not on rounding noise or input order.
std::size_t canonical_first(const std::vector<double>& x, std::vector<std::size_t>& cand, double tol) {
  for (std::size_t j = 0; j < kDim - 1 && cand.size() > 1; ++j) {
    double m = kInf;
    for (std::size_t i : cand) m = std::min(m, x[kDim * i + j]);
    std::erase_if(cand, [&](std::size_t i) { return x[kDim * i + j] > m + tol; });
  }
  return *std::min_element(cand.begin(), cand.end());
}

// A canonical order of the contacts: lexicographic on the weighted features,
// values of one coordinate within tol of each other (chained) counting as
// equal; the input index last. Near-ties decided by this order depend on
// where the contacts are, not on noise or on the input order.
std::vector<int> canonical_order(const std::vector<double>& x, std::size_t n, double tol) {
  std::vector<int> group(n * (kDim - 1));
  // Sorted by a 64-bit key: the coordinate's offset from its minimum as a
  // float (ordered bits; 2⁻²⁴ of the range, far finer than tol) above the
  // index. Gaps are then measured on the doubles.
  std::vector<std::uint64_t> key(n);
  for (std::size_t j = 0; j + 1 < kDim; ++j) {
    double lo = kInf;
    for (std::size_t i = 0; i < n; ++i) lo = std::min(lo, x[kDim * i + j]);
    for (std::size_t i = 0; i < n; ++i) {
      const auto f = static_cast<float>(x[kDim * i + j] - lo);  // ≥ 0: its bits order as it does
      key[i] = static_cast<std::uint64_t>(std::bit_cast<std::uint32_t>(f)) << 32 | i;
    }
    std::sort(key.begin(), key.end());
    int g = 0;
    double last = 0.0;
    for (std::size_t s = 0; s < n; ++s) {
      const auto i = static_cast<std::size_t>(key[s] & 0xffffffffu);
      const double v = x[kDim * i + j];
      if (s > 0 && v - last > tol) ++g;
      last = s == 0 ? v : std::max(last, v);
      group[i * (kDim - 1) + j] = g;
    }
  }
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    const int* ga = &group[static_cast<std::size_t>(a) * (kDim - 1)];
    const int* gb = &group[static_cast<std::size_t>(b) * (kDim - 1)];
    for (std::size_t j = 0; j + 1 < kDim; ++j)
      if (ga[j] != gb[j]) return ga[j] < gb[j];
    return a < b;
  });
  return order;
}

struct Merge {
  int a, b;  // the two clusters, each named by its smallest member index
  double height;
  int order;  // position in the chain's merge sequence
};

// Average-linkage (UPGMA) agglomeration by the nearest-neighbour chain:
// follow nearest neighbours until two clusters are each other's nearest and
// merge them. Average linkage is reducible (a merge never brings the new
// cluster closer to a third one than the nearer of its parts was), so a
// reciprocal pair is one the greedy algorithm merges too, the rest of the
// chain stays valid, and the whole dendrogram costs O(N²). The chain does not
// merge in height order, so the dendrogram is built completely and cut at k
// clusters by applying its N − k lowest merges: average-linkage heights never
// decrease along the greedy order, so those are the greedy algorithm's first
// N − k merges. Near-ties (within tol) are decided by index, not by rounding:
// the nearest neighbour is the chain's previous element if it is within tol
// of the nearest, else the lowest index within tol; merges whose heights are
// within tol of each other (chained) are cut in the chain's order.
// label[i] = the smallest member index of i's cluster.
void hierarchical(const std::vector<double>& x, int n, int k, double tol, std::vector<int>& label) {
  const auto un = static_cast<std::size_t>(n);
  // Full symmetric matrix: row scans are contiguous; N ≤ hierarchical_limit.
  // The diagonal is infinite so that a row's minimum is never its own entry.
  std::vector<double> d(un * un, kInf);
  for (std::size_t i = 0; i < un; ++i)
    for (std::size_t j = i + 1; j < un; ++j)
      d[i * un + j] = d[j * un + i] = std::sqrt(dist2(&x[kDim * i], &x[kDim * j]));

  std::vector<int> size(un, 1);
  std::vector<double> height(un, 0.0);  // of the merge that made each cluster
  std::vector<int> live(un);  // live clusters, ascending, named by smallest member
  std::iota(live.begin(), live.end(), 0);
  std::vector<int> chain;
  chain.reserve(un);
  std::vector<Merge> merges;
  merges.reserve(un);

  while (live.size() > 1) {
    if (chain.empty()) chain.push_back(live.front());
    const int a = chain.back();
    const int prev = chain.size() >= 2 ? chain[chain.size() - 2] : -1;
    const double* row = &d[static_cast<std::size_t>(a) * un];
    // Nearest live neighbour of a, up to tol: the chain's previous element
    // if it is that near (so the chain cannot cycle: each step is shorter
    // than the last by more than tol), otherwise the lowest index that is.
    int best = -1;
    double best_d = kInf, second_d = kInf;
    for (int j : live) {
      const double v = row[j];
      if (v < best_d) {
        second_d = best_d;
        best = j;
        best_d = v;
      } else {
        second_d = std::min(second_d, v);
      }
    }
    const double near = best_d + tol;
    if (prev >= 0 && row[prev] <= near) {
      best = prev;
    } else {
      // Only a near-tie (the second nearest within tol) needs the lowest
      // index within tol; live is ascending.
      if (second_d <= near)
        for (int j : live) {
          if (j == best) break;
          if (row[j] <= near) {
            best = j;
            break;
          }
        }
      chain.push_back(best);
      continue;
    }
    chain.resize(chain.size() - 2);
    const int lo = std::min(a, prev), hi = std::max(a, prev);
    // Heights never decrease in exact arithmetic; rounding in the updates
    // below could put a merge a hair under one it contains (equal distances
    // on a grid), so the cut could apply the outer merge without the inner.
    height[lo] = std::max({row[prev], height[lo], height[hi]});
    merges.push_back({lo, hi, height[lo], static_cast<int>(merges.size())});
    // Lance–Williams for average linkage: the mean pairwise distance to the
    // union is the size-weighted mean of the distances to its parts.
    const double nl = size[lo], nh = size[hi];
    const std::size_t ulo = static_cast<std::size_t>(lo) * un, uhi = static_cast<std::size_t>(hi) * un;
    for (int j : live) {
      if (j == lo || j == hi) continue;
      const auto uj = static_cast<std::size_t>(j);
      const double v = (nl * d[ulo + uj] + nh * d[uhi + uj]) / (nl + nh);
      d[ulo + uj] = v;
      d[uj * un + lo] = v;
    }
    size[lo] += size[hi];
    live.erase(std::lower_bound(live.begin(), live.end(), hi));
  }

  // Cut: the N − k lowest merges. Heights within tol of each other (chained)
  // are one level, ordered as the chain made them, so noise in equal heights
  // (a grid) does not decide which of them fall below the cut. A merge's
  // height is at least its parts', and the chain makes parts first, so
  // every merge still comes after the merges it contains.
  std::sort(merges.begin(), merges.end(), [](const Merge& p, const Merge& q) {
    return p.height < q.height || (p.height == q.height && p.order < q.order);
  });
  for (std::size_t s = 0; s < merges.size();) {
    std::size_t e = s + 1;
    while (e < merges.size() && merges[e].height - merges[e - 1].height <= tol) ++e;
    std::sort(merges.begin() + static_cast<std::ptrdiff_t>(s), merges.begin() + static_cast<std::ptrdiff_t>(e),
              [](const Merge& p, const Merge& q) { return p.order < q.order; });
    s = e;
  }
  label.resize(un);
  std::iota(label.begin(), label.end(), 0);
  for (int m = 0; m < n - k; ++m) {
    const int ra = find_root(label, merges[m].a), rb = find_root(label, merges[m].b);
    label[std::max(ra, rb)] = std::min(ra, rb);  // roots stay smallest members
  }
  for (int i = 0; i < n; ++i) label[i] = find_root(label, i);
}

// k-means. Farthest-point start from the deepest contact (near-ties within
// tol to the canonical first, so that rounding noise on a symmetric set does
// not pick the seeds), so the result is deterministic and every
// well-separated group gets a seed; then at most k Lloyd iterations, accelerated with Hamerly's bounds
// (an upper bound on the distance to the own centre, a lower bound on the
// distance to every other one): a point is rescanned only when the bounds
// cannot prove that its centre is still the nearest, which after the first
// iterations is rare. A centre left without members is dropped.
// label[i] = index of contact i's centre.
void kmeans(const std::vector<double>& x, std::size_t n, int k, double tol, std::vector<int>& label) {
  auto row = [&x](std::size_t i) { return &x[kDim * i]; };
  // Candidates for a seed: within tol of the best, the canonical first wins.
  std::vector<std::size_t> cand;
  double deepest = -kInf;
  for (std::size_t i = 0; i < n; ++i) deepest = std::max(deepest, x[kDim * i + 6]);
  for (std::size_t i = 0; i < n; ++i)
    if (x[kDim * i + 6] >= deepest - tol) cand.push_back(i);
  std::size_t seed = canonical_first(x, cand, tol);

  std::vector<double> centre;
  centre.reserve(kDim * static_cast<std::size_t>(k));
  // Distance to the nearest centre so far and a lower bound on the distance
  // to every other one: Hamerly's bounds, built while seeding.
  std::vector<double> upper(n, kInf), lower(n, kInf);
  std::vector<double> seed_gap(static_cast<std::size_t>(k), 0.0);
  label.assign(n, 0);
  for (int c = 0; c < k; ++c) {
    centre.insert(centre.end(), row(seed), row(seed) + kDim);
    const auto uc = static_cast<std::size_t>(c);
    const double* cc = &centre[kDim * uc];
    for (std::size_t e = 0; e < uc; ++e) seed_gap[e] = std::sqrt(dist2(cc, &centre[kDim * e]));
    double far_d = 0.0;
    cand.clear();
    for (std::size_t i = 0; i < n; ++i) {
      // A new centre at least twice as far from the point's centre as the
      // point is cannot be nearer (triangle inequality): no distance needed.
      const double g = c == 0 ? 0.0 : seed_gap[static_cast<std::size_t>(label[i])];
      // A contact changes to the new centre only when it is nearer by more
      // than tol (earlier seeds win near-ties), so upper stays within tol of
      // the nearest centre's distance.
      if (g >= 2.0 * upper[i]) {
        lower[i] = std::min(lower[i], g - upper[i]);
      } else {
        const double d = std::sqrt(dist2(row(i), cc));
        if (d < upper[i] - tol) {
          lower[i] = upper[i];  // every bound in lower is ≥ upper
          upper[i] = d;
          label[i] = c;
        } else {
          lower[i] = std::min(lower[i], d);
        }
      }
      // Candidates for the next seed: within tol of the farthest so far
      // (filtered once the farthest is known).
      if (upper[i] >= far_d - tol) {
        far_d = std::max(far_d, upper[i]);
        cand.push_back(i);
      }
    }
    // Every contact within tol of a centre: fewer distinct ones than k.
    if (far_d <= tol) break;
    std::erase_if(cand, [&](std::size_t i) { return upper[i] < far_d - tol; });
    seed = canonical_first(x, cand, tol);
  }
  std::size_t m = centre.size() / kDim;

  // Member sums and counts, kept up to date as points change centre.
  std::vector<double> sum(kDim * m, 0.0), moved(m), half_gap(m);
  // Centre-to-centre distances and, per centre, the others sorted by them.
  const bool keep_gaps = m <= kMaxGapMatrix;
  std::vector<double> gap(keep_gaps ? m * m : 0);
  std::vector<int> order(gap.size());  // row c: centres by distance from c
  for (std::size_t c = 0; c < m && keep_gaps; ++c) std::iota(&order[c * m], &order[c * m] + m, 0);
  std::vector<int> count(m, 0), renumber(m);
  std::vector<std::size_t> seen_c(m);  // a rescan's centres and squared distances
  std::vector<double> seen_e(m);

  for (std::size_t i = 0; i < n; ++i) {
    const auto c = static_cast<std::size_t>(label[i]);
    ++count[c];
    for (std::size_t j = 0; j < kDim; ++j) sum[kDim * c + j] += x[kDim * i + j];
  }

  for (int iter = 0; iter < k; ++iter) {
    // Drop the centres without members, keeping the others in their order
    // (so ties still go to the centre seeded first).
    if (std::find(count.begin(), count.begin() + static_cast<std::ptrdiff_t>(m), 0) !=
        count.begin() + static_cast<std::ptrdiff_t>(m)) {
      std::size_t live = 0;
      for (std::size_t c = 0; c < m; ++c) {
        if (count[c] == 0) continue;
        renumber[c] = static_cast<int>(live);
        std::copy_n(&centre[kDim * c], kDim, &centre[kDim * live]);
        std::copy_n(&sum[kDim * c], kDim, &sum[kDim * live]);
        count[live++] = count[c];
      }
      for (int& l : label) l = renumber[static_cast<std::size_t>(l)];
      m = live;
      // Start the neighbour orders afresh (rare: a centre lost its members).
      for (std::size_t c = 0; c < m && keep_gaps; ++c) std::iota(&order[c * m], &order[c * m] + m, 0);
    }
    // Move every centre to its members' mean.
    double max_moved = 0.0, second_moved = 0.0;
    std::size_t max_c = m;
    for (std::size_t c = 0; c < m; ++c) {
      double mean[kDim];
      for (std::size_t j = 0; j < kDim; ++j) mean[j] = sum[kDim * c + j] / count[c];
      moved[c] = std::sqrt(dist2(mean, &centre[kDim * c]));
      std::copy_n(mean, kDim, &centre[kDim * c]);
      if (moved[c] > max_moved) {
        second_moved = max_moved;
        max_moved = moved[c];
        max_c = c;
      } else if (moved[c] > second_moved) {
        second_moved = moved[c];
      }
    }
    // Centre-to-centre distances (kept when there are few enough centres to
    // store them) and half the distance from each centre to its nearest
    // other: a point closer than that to its own centre cannot be nearer
    // another.
    std::fill_n(half_gap.begin(), m, kInf);
    for (std::size_t c = 0; c < m; ++c)
      for (std::size_t e = c + 1; e < m; ++e) {
        const double g = std::sqrt(dist2(&centre[kDim * c], &centre[kDim * e]));
        if (keep_gaps) gap[c * m + e] = gap[e * m + c] = g;
        half_gap[c] = std::min(half_gap[c], g);
        half_gap[e] = std::min(half_gap[e], g);
      }
    for (std::size_t c = 0; c < m; ++c) half_gap[c] *= 0.5;
    // Each centre's others by distance. Centres move less and less, so the
    // previous order is nearly sorted and insertion sort is about linear.
    if (keep_gaps)
      for (std::size_t c = 0; c < m; ++c) {
        int* by_gap = &order[c * m];
        const double* gap_c = &gap[c * m];
        gap[c * m + c] = 0.0;
        for (std::size_t j = 1; j < m; ++j) {
          const int v = by_gap[j];
          std::size_t h = j;
          for (; h > 0 && gap_c[by_gap[h - 1]] > gap_c[v]; --h) by_gap[h] = by_gap[h - 1];
          by_gap[h] = v;
        }
      }

    std::size_t changed = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const auto a = static_cast<std::size_t>(label[i]);
      const double* xi = row(i);
      upper[i] += moved[a];
      lower[i] -= a == max_c ? second_moved : max_moved;
      // The own centre stays when every other is farther by more than tol
      // (the rule below then keeps it).
      const double bound = std::max(half_gap[a], lower[i]) - tol;
      if (upper[i] < bound) continue;
      const double e_a = dist2(xi, &centre[kDim * a]);
      upper[i] = std::sqrt(e_a);
      if (upper[i] < bound) continue;
      // Scan the other centres, nearest to the own centre first. One more
      // than twice as far from the own centre as the point is (plus tol)
      // cannot be within tol of the nearest (Elkan's test), nor can any after
      // it; the first of them bounds the distance to all of them. The point
      // goes to the lowest-index centre within tol of the nearest: near-ties
      // are decided by the seeding order, not by rounding.
      const double d_a = upper[i];
      double b1 = e_a, b2 = kInf, skipped = kInf;
      std::size_t best = a;
      // Visits every centre that could be within tol of the nearest, keeping
      // the distances; sets `skipped` to a lower bound on those to the rest.
      auto scan = [&](auto&& visit) {
        if (keep_gaps) {
          const int* by_gap = &order[a * m];
          const double* gap_a = &gap[a * m];
          for (std::size_t j = 0; j < m; ++j) {
            const auto c = static_cast<std::size_t>(by_gap[j]);
            if (c == a) continue;
            if (gap_a[c] > 2.0 * d_a + tol) {
              skipped = gap_a[c] - d_a;
              break;
            }
            visit(c);
          }
        } else {
          for (std::size_t c = 0; c < m; ++c)
            if (c != a) visit(c);
        }
      };
      std::size_t seen = 0;
      scan([&](std::size_t c) {
        const double e = dist2(xi, &centre[kDim * c]);
        seen_c[seen] = c;
        seen_e[seen++] = e;
        if (e < b1 || (e == b1 && c < best)) {
          b2 = b1;
          b1 = e;
          best = c;
        } else if (e < b2) {
          b2 = e;
        }
      });
      double e_best = b1;
      const double near = (std::sqrt(b1) + tol) * (std::sqrt(b1) + tol);
      if (b2 <= near) {
        // A near-tie (rare but for symmetric sets): the lowest index within
        // tol of the nearest. The others are then no nearer than b1.
        std::size_t low = best;
        double e_low = b1;
        if (a < low && e_a <= near) {
          low = a;
          e_low = e_a;
        }
        for (std::size_t v = 0; v < seen; ++v)
          if (seen_c[v] < low && seen_e[v] <= near) {
            low = seen_c[v];
            e_low = seen_e[v];
          }
        if (low != best) {
          best = low;
          e_best = e_low;
          b2 = b1;
        }
      }
      if (best != a) {
        label[i] = static_cast<int>(best);
        --count[a];
        ++count[best];
        for (std::size_t j = 0; j < kDim; ++j) {
          sum[kDim * a + j] -= xi[j];
          sum[kDim * best + j] += xi[j];
        }
        ++changed;
      }
      upper[i] = std::sqrt(e_best);
      lower[i] = std::min(std::sqrt(b2), skipped);
    }
    if (changed == 0) break;
  }
}

// What a cluster keeps of its members while they are read, so that the
// representatives can then be written over the input in place.
struct Summary {
  Vec3 point_sum = Vec3::Zero();
  Vec3 normal_sum = Vec3::Zero();
  int count = 0;
  double depth = -kInf;  // the largest
  const Contact* first_deep = nullptr;  // gives the feature ids
  Contact first_deep_copy;
  bool intersecting = false;
};

// Replaces the contacts by one representative per label, ordered by each
// cluster's smallest member index. Labels lie in [0, contacts.size()); x
// holds the contacts' features. The member that gives the feature ids (and
// the fallback normal) is the canonical first (canonical_first) of those
// whose weighted depth is within tol of the deepest's, so that neither
// depths equal up to rounding nor the input order decide it.
void merge_clusters(std::vector<Contact>& contacts, const std::vector<int>& label, const std::vector<double>& x,
                    double tol) {
  const std::size_t n = contacts.size();
  std::vector<int> slot(n, -1);
  std::vector<Summary> out;
  std::vector<double> deepest;  // weighted
  for (std::size_t i = 0; i < n; ++i) {
    int& s = slot[static_cast<std::size_t>(label[i])];
    if (s < 0) {
      s = static_cast<int>(out.size());
      out.emplace_back();
      deepest.push_back(-kInf);
    }
    Summary& q = out[static_cast<std::size_t>(s)];
    const Contact& c = contacts[i];
    q.point_sum += c.point;
    q.normal_sum += c.normal;
    ++q.count;
    q.depth = std::max(q.depth, c.depth);
    deepest[static_cast<std::size_t>(s)] = std::max(deepest[static_cast<std::size_t>(s)], x[kDim * i + 6]);
    q.intersecting = q.intersecting || c.intersecting;
  }
  // Candidates (slot, index), by slot; usually one per slot.
  std::vector<std::pair<int, std::size_t>> cand;
  for (std::size_t i = 0; i < n; ++i) {
    const int s = slot[static_cast<std::size_t>(label[i])];
    if (x[kDim * i + 6] >= deepest[static_cast<std::size_t>(s)] - tol) cand.emplace_back(s, i);
  }
  std::stable_sort(cand.begin(), cand.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::size_t> group;
  for (std::size_t b = 0; b < cand.size();) {
    std::size_t e = b;
    group.clear();
    for (; e < cand.size() && cand[e].first == cand[b].first; ++e) group.push_back(cand[e].second);
    out[static_cast<std::size_t>(cand[b].first)].first_deep = &contacts[canonical_first(x, group, tol)];
    b = e;
  }
  for (Summary& q : out) q.first_deep_copy = *q.first_deep;

  contacts.resize(out.size());
  for (std::size_t s = 0; s < out.size(); ++s) {
    const Summary& q = out[s];
    Contact& c = contacts[s];
    c = q.first_deep_copy;  // feature ids and the fallback normal
    c.depth = q.depth;
    c.point = q.point_sum / static_cast<double>(q.count);
    // Opposite normals may cancel (two faces of a thin plate); the mean then
    // has no direction, and the deep member's normal is the best guess.
    const double len = q.normal_sum.norm();
    if (len > 1e-9 * q.count) c.normal = q.normal_sum / len;
    c.intersecting = q.intersecting;
  }
}

}  // namespace

Status cluster_contacts(std::vector<Contact>& contacts, const ClusterOptions& options) {
  if (!valid(contacts, options)) return Status::invalid_input;
  if (contacts.size() > static_cast<std::size_t>(std::numeric_limits<int>::max())) return Status::invalid_input;
  if (contacts.empty()) return Status::ok;
  const int k = options.max_contacts;

  std::vector<double> x;
  build_features(contacts, options, x);
  std::size_t axis = 0;
  double lo = 0.0, side = 0.0;
  const double tol = kCoincident * extent(x, contacts.size(), axis, lo, side);
  // Coincident contacts first (the four copies of an edge–edge contact,
  // patch vertices shared by neighbouring triangle pairs, and the near
  // copies a tiny pose change splits them into): each becomes one contact,
  // so that the clusters below count distinct contacts, not copies.
  std::vector<int> label;
  const std::size_t n = coincident(x, contacts.size(), tol, axis, lo, side, label);
  if (n < contacts.size()) {
    merge_clusters(contacts, label, x, tol);
    if (n <= static_cast<std::size_t>(k)) return Status::ok;
    build_features(contacts, options, x);
  } else if (n <= static_cast<std::size_t>(k)) {
    return Status::ok;
  }
  if (n <= static_cast<std::size_t>(options.hierarchical_limit)) {
    // In the canonical order, so that its index tie-breaks are geometric;
    // labels are mapped back to input indices (any member names a cluster).
    const std::vector<int> order = canonical_order(x, n, tol);
    std::vector<double> y(x.size());
    for (std::size_t i = 0; i < n; ++i)
      std::copy_n(&x[kDim * static_cast<std::size_t>(order[i])], kDim, &y[kDim * i]);
    std::vector<int> sorted_label;
    hierarchical(y, static_cast<int>(n), k, tol, sorted_label);
    label.resize(n);
    for (std::size_t i = 0; i < n; ++i)
      label[static_cast<std::size_t>(order[i])] = order[static_cast<std::size_t>(sorted_label[i])];
  } else {
    kmeans(x, n, k, tol, label);
  }
  merge_clusters(contacts, label, x, tol);
  return Status::ok;
}

Wrench penalty_wrench(const std::vector<Contact>& contacts, const Vec3& about) {
  Wrench w;
  for (const Contact& c : contacts) {
    const Vec3 f = std::max(c.depth, 0.0) * c.normal;
    w.force += f;
    w.torque += (c.point - about).cross(f);
  }
  return w;
}

}  // namespace proxima
