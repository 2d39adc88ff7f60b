// SPDX-License-Identifier: BSD-3-Clause
// Contact clustering: known groups come back, the merge rule holds, the
// hierarchical path agrees with a brute-force average linkage and the k-means
// path with plain Lloyd iterations, and a clustered face still pushes where
// the whole face did.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <climits>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

#include <proxima/contact/cluster.hpp>

#include <proxima/core/transform.hpp>

#include "../support/random.hpp"

namespace proxima {
namespace {

Contact make_contact(const Vec3& p, const Vec3& n, double depth, int feature = -1) {
  Contact c;
  c.point = p;
  c.normal = n;
  c.depth = depth;
  c.feature_a = feature;
  c.feature_b = feature < 0 ? -1 : 1000 + feature;
  return c;
}

bool same_bits(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }

// Bit-for-bit equality (NaN equals itself), for "untouched" and determinism.
bool identical(const std::vector<Contact>& a, const std::vector<Contact>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    for (int j = 0; j < 3; ++j)
      if (!same_bits(a[i].point[j], b[i].point[j]) || !same_bits(a[i].normal[j], b[i].normal[j])) return false;
    if (!same_bits(a[i].depth, b[i].depth) || a[i].feature_a != b[i].feature_a ||
        a[i].feature_b != b[i].feature_b || a[i].intersecting != b[i].intersecting)
      return false;
  }
  return true;
}

bool close(const Contact& a, const Contact& b, double tol) {
  return (a.point - b.point).norm() <= tol && (a.normal - b.normal).norm() <= tol &&
         std::abs(a.depth - b.depth) <= tol;
}

using Feature = Eigen::Matrix<double, 7, 1>;

Feature feature(const Contact& x, const ClusterOptions& o) {
  Feature f;
  f << o.point_weight * x.point, o.normal_weight * x.normal, o.depth_weight * x.depth;
  return f;
}

// The header's tie tolerance: 1e-4 of the diagonal of the weighted features'
// bounding box.
double tie_tolerance(const std::vector<Contact>& c, const ClusterOptions& o) {
  Feature lo = Feature::Constant(std::numeric_limits<double>::infinity()), hi = -lo;
  for (const Contact& x : c) {
    lo = lo.cwiseMin(feature(x, o));
    hi = hi.cwiseMax(feature(x, o));
  }
  return 1e-4 * (hi - lo).norm();
}

// The header's canonical first of some contacts: lexicographic on the
// weighted features, coordinates within tol equal, then the lowest index.
int canonical_first(const std::vector<Contact>& all, std::vector<int> cand, const ClusterOptions& o, double tol) {
  for (int j = 0; j < 7 && cand.size() > 1; ++j) {
    double m = std::numeric_limits<double>::infinity();
    for (int i : cand) m = std::min(m, feature(all[i], o)[j]);
    std::erase_if(cand, [&](int i) { return feature(all[i], o)[j] > m + tol; });
  }
  return *std::min_element(cand.begin(), cand.end());
}

// The representative the header promises for a set of members, computed
// here from the definition: the ids (and fallback normal) of the canonical
// first member whose weighted depth is within tol of the deepest's.
Contact expected_representative(const std::vector<Contact>& all, const std::vector<int>& members,
                                const ClusterOptions& o, double tol) {
  Vec3 p = Vec3::Zero(), n = Vec3::Zero();
  double deepest = -std::numeric_limits<double>::infinity();
  bool any = false;
  for (int i : members) {
    p += all[i].point;
    n += all[i].normal;
    deepest = std::max(deepest, all[i].depth);
    any = any || all[i].intersecting;
  }
  std::vector<int> deep;
  for (int i : members)
    if (o.depth_weight * all[i].depth >= o.depth_weight * deepest - tol) deep.push_back(i);
  Contact c = all[canonical_first(all, deep, o, tol)];
  c.depth = deepest;
  c.point = p / static_cast<double>(members.size());
  if (n.norm() > 1e-9 * static_cast<double>(members.size())) c.normal = n.normalized();
  c.intersecting = any;
  return c;
}

// Representatives of a partition, ordered by each cluster's smallest member.
std::vector<Contact> expected_output(const std::vector<Contact>& all, std::vector<std::vector<int>> clusters,
                                     const ClusterOptions& o = {}) {
  for (auto& m : clusters) std::sort(m.begin(), m.end());
  std::sort(clusters.begin(), clusters.end(), [](const auto& a, const auto& b) { return a.front() < b.front(); });
  const double tol = tie_tolerance(all, o);
  std::vector<Contact> out;
  for (const auto& m : clusters) out.push_back(expected_representative(all, m, o, tol));
  return out;
}

::testing::AssertionResult same_output(const std::vector<Contact>& got, const std::vector<Contact>& want,
                                       double tol) {
  if (got.size() != want.size())
    return ::testing::AssertionFailure() << "size " << got.size() << " != " << want.size();
  for (std::size_t i = 0; i < got.size(); ++i)
    if (!close(got[i], want[i], tol) || got[i].feature_a != want[i].feature_a ||
        got[i].feature_b != want[i].feature_b || got[i].intersecting != want[i].intersecting)
      return ::testing::AssertionFailure()
             << "representative " << i << ": point " << got[i].point.transpose() << " want "
             << want[i].point.transpose() << ", depth " << got[i].depth << " want " << want[i].depth;
  return ::testing::AssertionSuccess();
}

// Weighted 7-D distance, written out from the header's metric.
double metric(const Contact& a, const Contact& b, const ClusterOptions& o) {
  const double dp = (a.point - b.point).norm(), dn = (a.normal - b.normal).norm(), dd = a.depth - b.depth;
  return std::sqrt(o.point_weight * o.point_weight * dp * dp + o.normal_weight * o.normal_weight * dn * dn +
                   o.depth_weight * o.depth_weight * dd * dd);
}

// Greedy average linkage by definition: merge the two clusters with the
// smallest mean pairwise distance until k remain (O(N³)). `near_tie` is set
// when a step's best and second-best candidates are within `tol`: there the
// implementation decides by index, not by the exact value, and may differ.
std::vector<std::vector<int>> brute_force_average_linkage(const std::vector<Contact>& c, int k,
                                                          const ClusterOptions& o, double tol = 0.0,
                                                          bool* near_tie = nullptr) {
  const int n = static_cast<int>(c.size());
  std::vector<std::vector<double>> d(n, std::vector<double>(n));
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) d[i][j] = metric(c[i], c[j], o);
  std::vector<std::vector<int>> clusters;
  for (int i = 0; i < n; ++i) clusters.push_back({i});
  while (static_cast<int>(clusters.size()) > k) {
    double best = std::numeric_limits<double>::infinity(), second = best;
    std::size_t ba = 0, bb = 0;
    for (std::size_t a = 0; a < clusters.size(); ++a)
      for (std::size_t b = a + 1; b < clusters.size(); ++b) {
        double s = 0.0;
        for (int i : clusters[a])
          for (int j : clusters[b]) s += d[i][j];
        s /= static_cast<double>(clusters[a].size() * clusters[b].size());
        if (s < best) {
          second = best;
          best = s;
          ba = a;
          bb = b;
        } else if (s < second) {
          second = s;
        }
      }
    if (near_tie != nullptr && second - best <= tol) *near_tie = true;
    clusters[ba].insert(clusters[ba].end(), clusters[bb].begin(), clusters[bb].end());
    clusters.erase(clusters.begin() + static_cast<std::ptrdiff_t>(bb));
  }
  return clusters;
}

// Plain k-means as the header specifies it, with its tie rules (tol = 1e-4
// of the extent): the first seed is the canonical first (lexicographic
// features, coordinates within tol equal) of the contacts within tol of the
// deepest; a contact joins a new seed only when nearer than its centre by
// more than tol; the next seed is the canonical first of the contacts within
// tol of the farthest; seeding stops when all are within tol of a centre.
// Then at most k Lloyd iterations from the seeding's partition, each contact
// going to the lowest-index centre within tol of its nearest, empty clusters
// dropped. No acceleration.
std::vector<std::vector<int>> plain_kmeans(const std::vector<Contact>& c, int k, const ClusterOptions& o) {
  const int n = static_cast<int>(c.size());
  const double tol = tie_tolerance(c, o);
  std::vector<Feature> f;
  for (const Contact& x : c) f.push_back(feature(x, o));
  auto canonical_first = [&](std::vector<int> cand) {
    for (int j = 0; j < 7 && cand.size() > 1; ++j) {
      double m = std::numeric_limits<double>::infinity();
      for (int i : cand) m = std::min(m, f[i][j]);
      std::erase_if(cand, [&](int i) { return f[i][j] > m + tol; });
    }
    return *std::min_element(cand.begin(), cand.end());
  };
  double deepest = -std::numeric_limits<double>::infinity();
  for (int i = 0; i < n; ++i) deepest = std::max(deepest, f[i][6]);
  std::vector<int> cand;
  for (int i = 0; i < n; ++i)
    if (f[i][6] >= deepest - tol) cand.push_back(i);
  int seed = canonical_first(cand);
  std::vector<Feature> centres;
  std::vector<double> near(n, std::numeric_limits<double>::infinity());  // to the own centre
  std::vector<int> label(n, -1);
  while (static_cast<int>(centres.size()) < k) {
    centres.push_back(f[seed]);
    double far = 0.0;
    for (int i = 0; i < n; ++i) {
      const double d = (f[i] - centres.back()).norm();
      if (d < near[i] - tol) {
        near[i] = d;
        label[i] = static_cast<int>(centres.size()) - 1;
      }
      far = std::max(far, near[i]);
    }
    if (far <= tol) break;
    cand.clear();
    for (int i = 0; i < n; ++i)
      if (near[i] >= far - tol) cand.push_back(i);
    seed = canonical_first(cand);
  }
  auto assign = [&](std::vector<int>& lab) {
    bool changed = false;
    for (int i = 0; i < n; ++i) {
      double bd = std::numeric_limits<double>::infinity();
      for (const Feature& z : centres) bd = std::min(bd, (f[i] - z).norm());
      int best = 0;
      while ((f[i] - centres[best]).norm() > bd + tol) ++best;
      changed = changed || best != lab[i];
      lab[i] = best;
    }
    return changed;
  };
  for (int iter = 0; iter < k; ++iter) {
    std::vector<Feature> sum(centres.size(), Feature::Zero());
    std::vector<int> count(centres.size(), 0), renumber(centres.size(), -1);
    for (int i = 0; i < n; ++i) {
      sum[label[i]] += f[i];
      ++count[label[i]];
    }
    std::vector<Feature> kept;
    for (std::size_t z = 0; z < centres.size(); ++z)
      if (count[z] > 0) {
        renumber[z] = static_cast<int>(kept.size());
        kept.push_back(sum[z] / static_cast<double>(count[z]));
      }
    for (int& l : label) l = renumber[l];
    centres = kept;
    if (!assign(label)) break;
  }
  std::vector<std::vector<int>> clusters(centres.size());
  for (int i = 0; i < n; ++i) clusters[label[i]].push_back(i);
  std::erase_if(clusters, [](const auto& m) { return m.empty(); });
  return clusters;
}

std::vector<Contact> random_contacts(testing::Rng& rng, int n, double spread) {
  std::vector<Contact> c;
  for (int i = 0; i < n; ++i) {
    const Vec3 p = rng.uniform_vec(0, spread), normal = rng.unit_vector();
    c.push_back(make_contact(p, normal, rng.uniform(0, 0.003), i));
  }
  return c;
}

// Convex hull area of 2-D points (monotone chain).
double hull_area(std::vector<Eigen::Vector2d> p) {
  std::sort(p.begin(), p.end(), [](const auto& a, const auto& b) { return a.x() < b.x() || (a.x() == b.x() && a.y() < b.y()); });
  auto turn = [](const Eigen::Vector2d& o, const Eigen::Vector2d& a, const Eigen::Vector2d& b) {
    return (a.x() - o.x()) * (b.y() - o.y()) - (a.y() - o.y()) * (b.x() - o.x());
  };
  std::vector<Eigen::Vector2d> h(2 * p.size());
  std::size_t m = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    while (m >= 2 && turn(h[m - 2], h[m - 1], p[i]) <= 0) --m;
    h[m++] = p[i];
  }
  for (std::size_t i = p.size() - 1, lower = m + 1; i-- > 0;) {
    while (m >= lower && turn(h[m - 2], h[m - 1], p[i]) <= 0) --m;
    h[m++] = p[i];
  }
  double a = 0.0;
  for (std::size_t i = 0; i + 1 < m; ++i) a += h[i].x() * h[i + 1].y() - h[i + 1].x() * h[i].y();
  return 0.5 * std::abs(a);
}

// Both paths: hierarchical (limit 256) and k-means forced (limit 0).
class BothPaths : public ::testing::TestWithParam<int> {
 protected:
  ClusterOptions options(int k) const {
    ClusterOptions o;
    o.max_contacts = k;
    o.hierarchical_limit = GetParam();
    return o;
  }
};

TEST_P(BothPaths, RecoversWellSeparatedGroups) {
  testing::Rng rng(11);
  for (int trial = 0; trial < 20; ++trial) {
    // k groups 1 m apart, each within 1 cm, interleaved in the input order.
    const int k = 2 + trial % 7;
    std::vector<Vec3> centre;
    for (int g = 0; g < k; ++g) centre.push_back(Vec3(g % 3, g / 3, 0.5 * (g % 2)));
    std::vector<Contact> c;
    std::vector<std::vector<int>> groups(k);
    const int n = 150 + trial;
    for (int i = 0; i < n; ++i) {
      const int g = static_cast<int>(rng.uniform(0, k)) % k;
      const Vec3 p = centre[g] + rng.uniform_vec(0, 0.01);
      const Contact x = make_contact(p, Vec3::UnitZ(), rng.uniform(0, 0.002), i);
      // No two within 1 mm: coincident contacts (1e-4 of the extent) would
      // be merged first and count once in their cluster's mean.
      if (std::any_of(c.begin(), c.end(), [&](const Contact& y) { return (y.point - x.point).norm() < 1e-3; })) {
        --i;
        continue;
      }
      groups[g].push_back(i);
      c.push_back(x);
    }
    std::erase_if(groups, [](const auto& m) { return m.empty(); });
    const std::vector<Contact> want = expected_output(c, groups);
    std::vector<Contact> got = c;
    ASSERT_EQ(cluster_contacts(got, options(static_cast<int>(groups.size()))), Status::ok);
    EXPECT_TRUE(same_output(got, want, 1e-12)) << "trial " << trial;
  }
}

TEST_P(BothPaths, MergeRuleOnAHandBuiltCluster) {
  std::vector<Contact> c = {make_contact(Vec3(0, 0, 0), Vec3(0, 0, 1), 0.1, 10),
                            make_contact(Vec3(1, 0, 0), Vec3(1, 0, 0), 0.3, 11),
                            make_contact(Vec3(0, 2, 0), Vec3(0, 1, 0), 0.2, 12)};
  c[2].intersecting = true;
  ASSERT_EQ(cluster_contacts(c, options(1)), Status::ok);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_NEAR((c[0].point - Vec3(1.0 / 3, 2.0 / 3, 0)).norm(), 0.0, 1e-15);
  EXPECT_NEAR((c[0].normal - Vec3(1, 1, 1) / std::sqrt(3.0)).norm(), 0.0, 1e-15);
  EXPECT_EQ(c[0].depth, 0.3);
  EXPECT_EQ(c[0].feature_a, 11);  // the deepest member's
  EXPECT_EQ(c[0].feature_b, 1011);
  EXPECT_TRUE(c[0].intersecting);

  // Equally deep members: the first one's feature ids.
  std::vector<Contact> tie = {make_contact(Vec3(0, 0, 0), Vec3(0, 0, 1), 0.2, 5),
                              make_contact(Vec3(0, 0, 0.001), Vec3(0, 0, 1), 0.2, 6)};
  ASSERT_EQ(cluster_contacts(tie, options(1)), Status::ok);
  ASSERT_EQ(tie.size(), 1u);
  EXPECT_EQ(tie[0].feature_a, 5);
  EXPECT_FALSE(tie[0].intersecting);
}

TEST_P(BothPaths, NormalWeightSeparatesOppositeNormalsAtOnePoint) {
  // Both sides of a thin plate: at P and at Q (1 cm away) one contact
  // pushing up and one pushing down.
  const Vec3 p(0.2, 0.1, 0.0), q(0.21, 0.1, 0.0);
  const std::vector<Contact> c = {make_contact(p, Vec3::UnitZ(), 0.001, 0), make_contact(p, -Vec3::UnitZ(), 0.002, 1),
                                  make_contact(q, Vec3::UnitZ(), 0.001, 2), make_contact(q, -Vec3::UnitZ(), 0.002, 3)};
  // Default weight 0.05: opposite normals are 0.1 apart, farther than the
  // points, so the two sides stay apart.
  std::vector<Contact> sides = c;
  ASSERT_EQ(cluster_contacts(sides, options(2)), Status::ok);
  ASSERT_EQ(sides.size(), 2u);
  EXPECT_NEAR((sides[0].point - 0.5 * (p + q)).norm(), 0.0, 1e-15);
  EXPECT_EQ(sides[0].normal, Vec3::UnitZ());
  EXPECT_NEAR((sides[1].point - 0.5 * (p + q)).norm(), 0.0, 1e-15);
  EXPECT_EQ(sides[1].normal, -Vec3::UnitZ());
  EXPECT_EQ(sides[1].depth, 0.002);

  // Without the normal axes the points group instead; each pair's normals
  // cancel, so the deepest member's normal is kept.
  ClusterOptions o = options(2);
  o.normal_weight = 0.0;
  std::vector<Contact> points = c;
  ASSERT_EQ(cluster_contacts(points, o), Status::ok);
  ASSERT_EQ(points.size(), 2u);
  EXPECT_EQ(points[0].point, p);
  EXPECT_EQ(points[1].point, q);
  for (const Contact& x : points) {
    EXPECT_EQ(x.normal, -Vec3::UnitZ());
    EXPECT_EQ(x.depth, 0.002);
  }
}

TEST_P(BothPaths, DeterministicAndIndependentOfInputOrder) {
  testing::Rng rng(5);
  for (int n : {60, 200, 1500}) {
    const std::vector<Contact> c = random_contacts(rng, n, 0.1);
    std::vector<Contact> a = c, b = c;
    ASSERT_EQ(cluster_contacts(a, options(20)), Status::ok);
    ASSERT_EQ(cluster_contacts(b, options(20)), Status::ok);
    EXPECT_TRUE(identical(a, b)) << n;

    std::vector<Contact> shuffled = c;
    std::shuffle(shuffled.begin(), shuffled.end(), rng.engine());
    ASSERT_EQ(cluster_contacts(shuffled, options(20)), Status::ok);
    ASSERT_EQ(shuffled.size(), a.size());
    // The same representatives, up to order (sums in another order differ
    // in the last bits).
    std::vector<bool> used(a.size(), false);
    for (const Contact& x : shuffled) {
      bool found = false;
      for (std::size_t i = 0; i < a.size() && !found; ++i)
        if (!used[i] && close(x, a[i], 1e-12) && x.feature_a == a[i].feature_a) found = used[i] = true;
      EXPECT_TRUE(found) << "n " << n << ": no match for " << x.point.transpose();
    }
  }
}

TEST_P(BothPaths, GridOnASquareFaceKeepsItsCentreOfPressure) {
  // 1,000 contacts on a 40 × 25 grid over a 0.1 m square face at z = 0,
  // all 1 mm deep: the face pushes straight up through its centre.
  const double side = 0.1;
  const Vec3 centre(0.3, -0.2, 0.0);
  std::vector<Contact> c;
  for (int i = 0; i < 40; ++i)
    for (int j = 0; j < 25; ++j)
      c.push_back(make_contact(centre + Vec3(side * ((i + 0.5) / 40 - 0.5), side * ((j + 0.5) / 25 - 0.5), 0),
                               Vec3::UnitZ(), 0.001));
  ClusterOptions o = options(20);
  if (o.hierarchical_limit > 0) o.hierarchical_limit = 1000;  // N² = 8 MB: fine once
  ASSERT_EQ(cluster_contacts(c, o), Status::ok);
  ASSERT_EQ(c.size(), 20u);

  std::vector<Eigen::Vector2d> hull;
  for (const Contact& x : c) {
    EXPECT_LE(std::abs(x.point.x() - centre.x()), side / 2);
    EXPECT_LE(std::abs(x.point.y() - centre.y()), side / 2);
    EXPECT_EQ(x.point.z(), 0.0);
    hull.emplace_back(x.point.x(), x.point.y());
  }
  // Centre of pressure from the wrench about the face centre: the force is
  // vertical, so the torque (r × f) gives the lever arm r = (−τy, τx)/fz.
  const Wrench w = penalty_wrench(c, centre);
  ASSERT_NEAR(w.force.z(), 20 * 0.001, 1e-15);
  const Eigen::Vector2d cop(-w.torque.y() / w.force.z(), w.torque.x() / w.force.z());
  // Bounds: the centre of pressure within 7 % of the side of the true
  // centre, and the representatives' hull at least half the face. The
  // representatives are not weighted by their cluster's size (each pushes
  // with its deepest member's depth), so unequal clusters move the centre of
  // pressure: 6.5 % hierarchical, 2.8 % k-means here. On this exact grid
  // every choice is a tie, decided by the canonical order (lexicographic, so
  // from the −x side); when rounding noise decided them instead it was 4.1 %
  // and 1.9 %, but a different partition after any tiny perturbation. The means of 20
  // clusters sit about half a cluster inside the edges, which leaves roughly
  // (1 − 2 · 0.11)² ≈ 0.6 of the face (0.61 and 0.64 here).
  EXPECT_LE(cop.norm(), 0.07 * side) << cop.transpose();
  EXPECT_GE(hull_area(hull), 0.5 * side * side);
}

TEST_P(BothPaths, SetsNoLargerThanKAreLeftAlone) {
  testing::Rng rng(2);
  const std::vector<Contact> c = random_contacts(rng, 7, 0.1);
  for (int k : {7, 8, 1000, INT_MAX}) {
    std::vector<Contact> same = c;
    ASSERT_EQ(cluster_contacts(same, options(k)), Status::ok);
    EXPECT_TRUE(identical(same, c)) << k;
  }
  std::vector<Contact> none;
  EXPECT_EQ(cluster_contacts(none, options(1)), Status::ok);
  EXPECT_TRUE(none.empty());
}

TEST_P(BothPaths, KJustBelowNMergesOnlyTheClosestPair) {
  testing::Rng rng(8);
  std::vector<Contact> c = random_contacts(rng, 120, 0.1);
  // The closest pair by the metric, by brute force.
  const ClusterOptions o = options(119);
  int a = 0, b = 1;
  for (int i = 0; i < 120; ++i)
    for (int j = i + 1; j < 120; ++j)
      if (metric(c[i], c[j], o) < metric(c[a], c[b], o)) {
        a = i;
        b = j;
      }
  std::vector<std::vector<int>> want;
  for (int i = 0; i < 120; ++i)
    if (i == a)
      want.push_back({a, b});
    else if (i != b)
      want.push_back({i});
  std::vector<Contact> got = c;
  ASSERT_EQ(cluster_contacts(got, o), Status::ok);
  EXPECT_TRUE(same_output(got, expected_output(c, want, o), 1e-15));
}

TEST_P(BothPaths, RepeatedContactsGiveNoNaN) {
  // 3 distinct contacts, each repeated 60 times: the copies are merged
  // before clustering, so both paths give the 3, exactly.
  std::vector<Contact> distinct = {make_contact(Vec3(0, 0, 0), Vec3::UnitZ(), 0.001, 0),
                                   make_contact(Vec3(0.1, 0, 0), Vec3::UnitX(), 0.002, 1),
                                   make_contact(Vec3(0, 0.1, 0), Vec3::UnitY(), 0.003, 2)};
  std::vector<Contact> c;
  for (int r = 0; r < 60; ++r) c.insert(c.end(), distinct.begin(), distinct.end());
  ASSERT_EQ(cluster_contacts(c, options(20)), Status::ok);
  ASSERT_EQ(c.size(), 3u);
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(close(c[i], distinct[i], 1e-15) && c[i].feature_a == i) << i;
}

TEST_P(BothPaths, EqualDepthGridIsStableUnderRigidPerturbations) {
  // A 16 × 16 grid over a 0.1 m square, all 1 mm deep up to rounding-sized
  // noise (1e-12), like a face resting in a mesh's layer: every seed,
  // nearest neighbour and assignment is a tie. Moved rigidly by 1e-6 m and
  // 1e-6 rad, the partition must not change: each representative moves with
  // its members, by about 1e-6. Bound: 1e-5 (a partition change moves one
  // by a grid step, 6 mm).
  testing::Rng rng(71);
  std::vector<Contact> base;
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j)
      base.push_back(make_contact(Vec3(0.1 * i / 15, 0.1 * j / 15, 0.02), Vec3::UnitZ(),
                                  0.001 + 1e-12 * rng.uniform(-1, 1), 16 * i + j));
  std::vector<Contact> ref = base;
  ASSERT_EQ(cluster_contacts(ref, options(20)), Status::ok);
  ASSERT_EQ(ref.size(), 20u);
  double worst = 0.0;
  for (int trial = 0; trial < 20; ++trial) {
    const Vec3 axis = rng.unit_vector(), shift = 1e-6 * rng.unit_vector();
    const Transform t = Transform::from_axis_angle(axis, 1e-6, shift);
    std::vector<Contact> moved = base;
    for (Contact& c : moved) {
      c.point = t.apply(c.point);
      c.normal = t.R * c.normal;
      c.depth = 0.001 + 1e-12 * rng.uniform(-1, 1);
    }
    ASSERT_EQ(cluster_contacts(moved, options(20)), Status::ok);
    ASSERT_EQ(moved.size(), ref.size()) << trial;
    for (std::size_t r = 0; r < ref.size(); ++r) {
      worst = std::max(worst, (moved[r].point - ref[r].point).norm());
      EXPECT_EQ(moved[r].feature_a, ref[r].feature_a) << trial;
    }
  }
  EXPECT_LE(worst, 1e-5);
}

TEST_P(BothPaths, CoincidentContactsAreMergedFirst) {
  // 4 contacts, each given 3 to 6 times (exact copies, copies moved by
  // 1e-9 m and copies 1e-9 deeper with other ids: all well within 1e-4 of
  // the 0.1 m extent), shuffled: with k = 20 the 4 come back, each merged by
  // the cluster rule (mean point, largest depth, the canonical first deep
  // copy's ids, any intersecting) and ordered by first appearance. Two contacts at one point with perpendicular normals (an
  // edge's two faces) stay apart, and so do two 1e-3 of the extent apart.
  const std::vector<Contact> distinct = {make_contact(Vec3(0, 0, 0), Vec3::UnitZ(), 0.001, 0),
                                         make_contact(Vec3(0, 0, 0), Vec3::UnitX(), 0.001, 1),
                                         make_contact(Vec3(0.1, 0, 0), Vec3::UnitZ(), 0.002, 2),
                                         make_contact(Vec3(0.1, 1e-4, 0), Vec3::UnitZ(), 0.002, 3)};
  testing::Rng rng(9);
  std::vector<Contact> c;
  for (int d = 0; d < 4; ++d)
    for (int r = 0; r < 3 + d; ++r) {
      Contact x = distinct[d];
      if (r % 2 == 1) x.point += 1e-9 * rng.unit_vector();
      if (r == 2) {
        x.depth += 1e-9;
        x.feature_a = 10 + d;
      }
      x.intersecting = d == 3 && r == 1;
      c.push_back(x);
    }
  std::shuffle(c.begin(), c.end(), rng.engine());
  std::vector<std::vector<int>> groups(4);
  for (int i = 0; i < static_cast<int>(c.size()); ++i)
    for (int d = 0; d < 4; ++d)
      if ((c[i].point - distinct[d].point).norm() < 1e-6 && c[i].normal == distinct[d].normal) groups[d].push_back(i);
  for (const auto& g : groups) ASSERT_FALSE(g.empty());
  const std::vector<Contact> want = expected_output(c, groups);
  std::vector<Contact> got = c;
  ASSERT_EQ(cluster_contacts(got, options(20)), Status::ok);
  EXPECT_TRUE(same_output(got, want, 1e-15));
  // With k below the distinct count the copies count once: k = 3 merges
  // the two contacts 1e-4 m apart, whatever their copies' numbers.
  got = c;
  ASSERT_EQ(cluster_contacts(got, options(3)), Status::ok);
  ASSERT_EQ(got.size(), 3u);
  const Contact* merged = nullptr;
  for (const Contact& x : got)
    if (x.point.x() > 0.05) merged = &x;
  ASSERT_NE(merged, nullptr);
  EXPECT_NEAR(merged->point.y(), 0.5e-4, 2e-9);
}

INSTANTIATE_TEST_SUITE_P(ClusterContacts, BothPaths, ::testing::Values(256, 0),
                         [](const auto& info) { return info.param == 0 ? "KMeans" : "Hierarchical"; });

TEST(ClusterContacts, HierarchicalMatchesBruteForceAverageLinkage) {
  testing::Rng rng(17);
  int differ = 0;
  for (int trial = 0; trial < 150; ++trial) {
    const int n = 8 + trial % 53;
    const int k = 1 + static_cast<int>(rng.uniform(0, n - 1));
    std::vector<Contact> c = random_contacts(rng, n, trial % 2 ? 0.1 : 0.01);
    c[trial % n].intersecting = true;
    ClusterOptions o;
    o.max_contacts = k;
    o.normal_weight = trial % 3 == 0 ? 0.0 : 0.05;
    o.depth_weight = trial % 5 == 0 ? 10.0 : 1.0;
    bool near_tie = false;
    const std::vector<Contact> want =
        expected_output(c, brute_force_average_linkage(c, k, o, tie_tolerance(c, o), &near_tie), o);
    ASSERT_EQ(cluster_contacts(c, o), Status::ok);
    // Where the greedy order has a near-tie the implementation decides it by
    // its canonical order (the header's tie rule): only there may they differ.
    if (same_output(c, want, 1e-12)) continue;
    EXPECT_TRUE(near_tie) << "trial " << trial << " n " << n << " k " << k;
    ++differ;
  }
  EXPECT_LE(differ, 3);
}

TEST(ClusterContacts, KMeansMatchesPlainLloyd) {
  testing::Rng rng(23);
  for (int trial = 0; trial < 30; ++trial) {
    const int n = 300 + 37 * trial;
    const int k = 2 + trial * 3 % 50;
    // Half the contacts on a face, the rest on a perpendicular face: the
    // shape of a box edge resting in a mesh.
    std::vector<Contact> c;
    for (int i = 0; i < n; ++i) {
      const bool face = i % 2 == 0;
      const double s = rng.uniform(0, 0.2), t = rng.uniform(0, face ? 0.2 : 0.05);
      const Vec3 p = face ? Vec3(s, t, 0) : Vec3(0.2, s, t);
      c.push_back(make_contact(p, face ? Vec3::UnitZ() : Vec3::UnitX(), rng.uniform(0, 0.0025), i));
    }
    ClusterOptions o;
    o.max_contacts = k;
    o.hierarchical_limit = 0;
    const std::vector<Contact> want = expected_output(c, plain_kmeans(c, k, o));
    ASSERT_EQ(cluster_contacts(c, o), Status::ok);
    EXPECT_TRUE(same_output(c, want, 1e-12)) << "trial " << trial << " n " << n << " k " << k;
  }
}

TEST(ClusterContacts, KMeansWithManyCentresMatchesPlainLloyd) {
  // More centres than the k-means keeps a centre-distance table for (512):
  // the plain scan.
  testing::Rng rng(29);
  std::vector<Contact> c = random_contacts(rng, 1500, 0.1);
  ClusterOptions o;
  o.max_contacts = 600;
  const std::vector<Contact> want = expected_output(c, plain_kmeans(c, 600, o));
  ASSERT_EQ(cluster_contacts(c, o), Status::ok);
  EXPECT_TRUE(same_output(c, want, 1e-12));
}

TEST(ClusterContacts, RejectsBadInputAndLeavesItAlone) {
  testing::Rng rng(4);
  const std::vector<Contact> good = random_contacts(rng, 30, 0.1);
  auto rejected = [&](const std::vector<Contact>& input, const ClusterOptions& o) {
    std::vector<Contact> c = input;
    return cluster_contacts(c, o) == Status::invalid_input && identical(c, input);
  };
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  ClusterOptions o;
  o.max_contacts = 0;
  EXPECT_TRUE(rejected(good, o));
  o.max_contacts = -3;
  EXPECT_TRUE(rejected(good, o));
  // Even a set that would be left as it is.
  EXPECT_TRUE(rejected({good.begin(), good.begin() + 2}, o));
  for (double bad : {-1.0, nan, inf}) {
    ClusterOptions w;
    w.point_weight = bad;
    EXPECT_TRUE(rejected(good, w)) << bad;
    w = ClusterOptions();
    w.normal_weight = bad;
    EXPECT_TRUE(rejected(good, w)) << bad;
    w = ClusterOptions();
    w.depth_weight = bad;
    EXPECT_TRUE(rejected(good, w)) << bad;
  }
  ClusterOptions lim;
  lim.hierarchical_limit = -1;
  EXPECT_TRUE(rejected(good, lim));
  for (int field = 0; field < 7; ++field)
    for (double bad : {nan, inf}) {
      std::vector<Contact> c = good;
      Contact& x = c[13];
      if (field < 3) x.point[field] = bad;
      else if (field < 6) x.normal[field - 3] = bad;
      else x.depth = bad;
      EXPECT_TRUE(rejected(c, ClusterOptions())) << field;
    }
  // Weighted coordinates that would overflow a squared distance.
  std::vector<Contact> huge = good;
  huge[3].point.x() = 1e200;
  EXPECT_TRUE(rejected(huge, ClusterOptions()));
}

TEST(PenaltyWrench, MatchesAHandComputation) {
  const std::vector<Contact> c = {make_contact(Vec3(1, 0, 0), Vec3(0, 0, 1), 0.5),
                                  make_contact(Vec3(0, 2, 0), Vec3(1, 0, 0), 0.25),
                                  make_contact(Vec3(5, 5, 5), Vec3(0, 1, 0), -1.0)};  // a gap pushes nothing
  const Wrench w = penalty_wrench(c, Vec3(0, 0, 1));
  // f1 = (0, 0, 0.5) at r1 = (1, 0, −1): r1 × f1 = (0, −0.5, 0).
  // f2 = (0.25, 0, 0) at r2 = (0, 2, −1): r2 × f2 = (0, −0.25, −0.5).
  EXPECT_EQ(w.force, Vec3(0.25, 0, 0.5));
  EXPECT_EQ(w.torque, Vec3(0, -0.75, -0.5));
  const Wrench none = penalty_wrench({}, Vec3(1, 2, 3));
  EXPECT_EQ(none.force, Vec3::Zero());
  EXPECT_EQ(none.torque, Vec3::Zero());
}

}  // namespace
}  // namespace proxima
