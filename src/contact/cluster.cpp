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

struct Merge {
  int a, b;  // the two clusters, each named by its smallest member index
  double height;
};

int find_root(std::vector<int>& parent, int i) {
  while (parent[i] != i) {
    parent[i] = parent[parent[i]];  // path halving
    i = parent[i];
  }
  return i;
}

// Average-linkage (UPGMA) agglomeration by the nearest-neighbour chain:
// follow nearest neighbours until two clusters are each other's nearest and
// merge them. Average linkage is reducible (a merge never brings the new
// cluster closer to a third one than the nearer of its parts was), so a
// reciprocal pair is one the greedy algorithm merges too, the rest of the
// chain stays valid, and the whole dendrogram costs O(N²). The chain does not
// merge in height order, so the dendrogram is built completely and cut at k
// clusters by applying its N − k lowest merges: average-linkage heights never
// decrease along the greedy order, so those are the greedy algorithm's first
// N − k merges. label[i] = the smallest member index of i's cluster.
void hierarchical(const std::vector<double>& x, int n, int k, std::vector<int>& label) {
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
    // Nearest live neighbour of a: on a tie the chain's previous element wins
    // (so the chain cannot cycle), otherwise the lowest index.
    int best = prev;
    double best_d = prev >= 0 ? row[prev] : kInf;
    for (int j : live)
      if (j != a && row[j] < best_d) {
        best = j;
        best_d = row[j];
      }
    if (best != prev) {
      chain.push_back(best);
      continue;
    }
    chain.resize(chain.size() - 2);
    const int lo = std::min(a, prev), hi = std::max(a, prev);
    // Heights never decrease in exact arithmetic; rounding in the updates
    // below could put a merge a hair under one it contains (equal distances
    // on a grid), so the cut could apply the outer merge without the inner.
    height[lo] = std::max({best_d, height[lo], height[hi]});
    merges.push_back({lo, hi, height[lo]});
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

  // Cut: the N − k lowest merges (stable, so equal heights keep chain order).
  std::stable_sort(merges.begin(), merges.end(),
                   [](const Merge& p, const Merge& q) { return p.height < q.height; });
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
void kmeans(const std::vector<double>& x, const std::vector<Contact>& contacts, int k, std::vector<int>& label) {
  const std::size_t n = contacts.size();
  auto row = [&x](std::size_t i) { return &x[kDim * i]; };
  std::size_t seed = 0;
  for (std::size_t i = 1; i < n; ++i)
    if (contacts[i].depth > contacts[seed].depth) seed = i;

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
      if (g >= 2.0 * upper[i]) {
        lower[i] = std::min(lower[i], g - upper[i]);
      } else {
        const double d = std::sqrt(dist2(row(i), cc));
        if (d < upper[i]) {
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
    if (far == n) break;  // every contact sits on a centre: fewer distinct ones than k
    seed = far;
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
      const double bound = std::max(half_gap[a], lower[i]);
      if (upper[i] < bound) continue;
      const double e_a = dist2(xi, &centre[kDim * a]);
      upper[i] = std::sqrt(e_a);
      if (upper[i] < bound) continue;
      // Scan the other centres, nearest to the own centre first. One at
      // least twice as far from the own centre as the point is cannot be
      // nearer (Elkan's test), nor can any after it; the first of them bounds
      // the distance to all of them. Ties go to the lowest index.
      const double d_a = upper[i];
      double b1 = e_a, b2 = kInf, skipped = kInf;
      std::size_t best = a;
      auto consider = [&](std::size_t c) {
        const double e = dist2(xi, &centre[kDim * c]);
        if (e < b1 || (e == b1 && c < best)) {
          b2 = b1;
          b1 = e;
          best = c;
        } else if (e < b2) {
          b2 = e;
        }
      };
      if (keep_gaps) {
        const int* by_gap = &order[a * m];
        const double* gap_a = &gap[a * m];
        for (std::size_t j = 0; j < m; ++j) {
          const auto c = static_cast<std::size_t>(by_gap[j]);
          if (c == a) continue;
          if (gap_a[c] > 2.0 * d_a) {
            skipped = gap_a[c] - d_a;
            break;
          }
          consider(c);
        }
      } else {
        for (std::size_t c = 0; c < m; ++c)
          if (c != a) consider(c);
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
      upper[i] = std::sqrt(b1);
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
  const std::size_t n = contacts.size();
  const int k = options.max_contacts;
  if (n <= static_cast<std::size_t>(k)) return Status::ok;
  if (n > static_cast<std::size_t>(std::numeric_limits<int>::max())) return Status::invalid_input;

  std::vector<double> x;
  build_features(contacts, options, x);
  std::vector<int> label;
  if (n <= static_cast<std::size_t>(options.hierarchical_limit))
    hierarchical(x, static_cast<int>(n), k, label);
  else
    kmeans(x, contacts, k, label);
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
