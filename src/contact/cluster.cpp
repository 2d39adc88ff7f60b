// Contact clustering (BLEM paper §3.4): each contact is a weighted 7-D vector
// (point, normal, depth); small sets are agglomerated with average linkage,
// large ones go through k-means. Both paths only produce a label per contact;
// one shared pass turns labels into representatives.
#include <proxima/contact/cluster.hpp>

#include <algorithm>
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

// The diagonal of the weighted features' bounding box.
double extent(const std::vector<double>& x, std::size_t n) {
  double lo[kDim], hi[kDim];
  std::fill_n(lo, kDim, kInf);
  std::fill_n(hi, kDim, -kInf);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < kDim; ++j) {
      lo[j] = std::min(lo[j], x[kDim * i + j]);
      hi[j] = std::max(hi[j], x[kDim * i + j]);
    }
  double s = 0.0;
  for (std::size_t j = 0; j < kDim; ++j) s += (hi[j] - lo[j]) * (hi[j] - lo[j]);
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
// linkage, so the result does not depend on the input order). Sweeps along
// the feature axis of largest spread. label[i] = the smallest member index of
// i's component; returns the number of components.
std::size_t coincident(const std::vector<double>& x, std::size_t n, double tol, std::vector<int>& label) {
  std::size_t axis = 0;
  {
    double best = -1.0;
    for (std::size_t j = 0; j < kDim; ++j) {
      double lo = kInf, hi = -kInf;
      for (std::size_t i = 0; i < n; ++i) {
        lo = std::min(lo, x[kDim * i + j]);
        hi = std::max(hi, x[kDim * i + j]);
      }
      if (hi - lo > best) {
        best = hi - lo;
        axis = j;
      }
    }
  }
  std::vector<std::pair<double, int>> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = {x[kDim * i + axis], static_cast<int>(i)};
  std::sort(order.begin(), order.end());
  label.resize(n);
  std::iota(label.begin(), label.end(), 0);
  const double tol2 = tol * tol;
  for (std::size_t s = 0; s < n; ++s) {
    const auto i = static_cast<std::size_t>(order[s].second);
    for (std::size_t t = s + 1; t < n && order[t].first - order[s].first <= tol; ++t) {
      const auto j = static_cast<std::size_t>(order[t].second);
      if (dist2(&x[kDim * i], &x[kDim * j]) > tol2) continue;
      const int ri = find_root(label, static_cast<int>(i)), rj = find_root(label, static_cast<int>(j));
      if (ri != rj) label[std::max(ri, rj)] = std::min(ri, rj);
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
  std::vector<std::pair<double, int>> by(n);
  for (std::size_t j = 0; j + 1 < kDim; ++j) {
    for (std::size_t i = 0; i < n; ++i) by[i] = {x[kDim * i + j], static_cast<int>(i)};
    std::sort(by.begin(), by.end());
    int g = 0;
    for (std::size_t s = 0; s < n; ++s) {
      if (s > 0 && by[s].first - by[s - 1].first > tol) ++g;
      group[static_cast<std::size_t>(by[s].second) * (kDim - 1) + j] = g;
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
  std::vector<double> d(un * un, 0.0);
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
    double best_d = kInf;
    for (int j : live)
      if (j != a && row[j] < best_d) {
        best = j;
        best_d = row[j];
      }
    const double near = best_d + tol;
    if (prev >= 0 && row[prev] <= near) {
      best = prev;
    } else {
      for (int j : live) {
        if (j == best) break;
        if (j != a && row[j] <= near) {
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

// k-means. Farthest-point start from the deepest contact (lowest index on
// ties), so the result is deterministic and every well-separated group gets
// a seed; then at most k Lloyd iterations, accelerated with Hamerly's bounds
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
    std::size_t far = n;
    double far_d = 0.0;
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
      if (upper[i] > far_d) {
        far_d = upper[i];
        far = i;
      }
    }
    // Every contact within tol of a centre: fewer distinct ones than k.
    if (far == n || far_d <= tol) break;
    cand.clear();
    for (std::size_t i = 0; i < n; ++i)
      if (upper[i] >= far_d - tol) cand.push_back(i);
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
  std::vector<std::pair<std::size_t, double>> considered;  // (centre, squared distance)
  considered.reserve(m);
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
      double b1 = e_a, skipped = kInf;
      considered.clear();
      considered.push_back({a, e_a});
      auto consider = [&](std::size_t c) {
        const double e = dist2(xi, &centre[kDim * c]);
        considered.push_back({c, e});
        b1 = std::min(b1, e);
      };
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
          consider(c);
        }
      } else {
        for (std::size_t c = 0; c < m; ++c)
          if (c != a) consider(c);
      }
      const double near = (std::sqrt(b1) + tol) * (std::sqrt(b1) + tol);
      std::size_t best = m;
      double e_best = kInf, b2 = kInf;
      for (const auto& [c, e] : considered)
        if (e <= near && c < best) best = c;
      for (const auto& [c, e] : considered)
        if (c == best) e_best = e;
        else b2 = std::min(b2, e);
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
  const Contact* deepest = nullptr;
  Contact deepest_copy;
  bool intersecting = false;
};

// Replaces the contacts by one representative per label, ordered by each
// cluster's smallest member index. Labels lie in [0, contacts.size()).
void merge_clusters(std::vector<Contact>& contacts, const std::vector<int>& label) {
  const std::size_t n = contacts.size();
  std::vector<int> slot(n, -1);
  std::vector<Summary> out;
  for (std::size_t i = 0; i < n; ++i) {
    int& s = slot[static_cast<std::size_t>(label[i])];
    if (s < 0) {
      s = static_cast<int>(out.size());
      out.emplace_back();
    }
    Summary& q = out[static_cast<std::size_t>(s)];
    const Contact& c = contacts[i];
    q.point_sum += c.point;
    q.normal_sum += c.normal;
    ++q.count;
    // Strict: the lowest index wins among equally deep members.
    if (q.deepest == nullptr || c.depth > q.deepest->depth) q.deepest = &c;
    q.intersecting = q.intersecting || c.intersecting;
  }
  for (Summary& q : out) q.deepest_copy = *q.deepest;

  contacts.resize(out.size());
  for (std::size_t s = 0; s < out.size(); ++s) {
    const Summary& q = out[s];
    Contact& c = contacts[s];
    c = q.deepest_copy;  // depth, feature ids and the fallback normal
    c.point = q.point_sum / static_cast<double>(q.count);
    // Opposite normals may cancel (two faces of a thin plate); the mean then
    // has no direction, and the deepest member's normal is the best guess.
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
  const double tol = kCoincident * extent(x, contacts.size());
  // Coincident contacts first (the four copies of an edge–edge contact,
  // patch vertices shared by neighbouring triangle pairs, and the near
  // copies a tiny pose change splits them into): each becomes one contact,
  // so that the clusters below count distinct contacts, not copies.
  std::vector<int> label;
  const std::size_t n = coincident(x, contacts.size(), tol, label);
  if (n < contacts.size()) {
    merge_clusters(contacts, label);
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
  merge_clusters(contacts, label);
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
