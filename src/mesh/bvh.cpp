// SPDX-License-Identifier: BSD-3-Clause
// Top-down BVH build: binned SAH (Wald, "On fast construction of SAH-based
// bounding volume hierarchies", 2007: centroids binned into K buckets per
// axis, the split cost N_L·A_L + N_R·A_R swept over bucket boundaries) or
// the object median. Duplicate triangles (equal centroids) split by count.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <future>
#include <string>
#include <system_error>

#include <Eigen/Eigenvalues>

#include <proxima/core/error.hpp>
#include <proxima/core/parallel.hpp>
#include <proxima/mesh/bvh.hpp>

#include "smooth_edges.hpp"

namespace proxima {
namespace {

constexpr int kBins = 16;
// Past this depth every split is a median split, which halves the range: the
// tree stays shallower than kMaxSahDepth + 32 whatever the input, and the
// traversal stacks are fixed arrays.
constexpr int kMaxSahDepth = 40;
// Meshes of fewer triangles are built on the calling thread: a thread's
// start (tens of microseconds) is then a fair share of the whole build.
constexpr std::size_t kParallelFrom = 8192;

// Float bounds that contain the double interval [lo, hi].
float round_down(double x) {
  float f = static_cast<float>(x);
  if (static_cast<double>(f) > x) f = std::nextafter(f, -std::numeric_limits<float>::infinity());
  return f;
}
// Nearest float, through memory: GCC 12 at -O2 forwarded the double into a
// later read of the stored float (measured: the radius was then measured
// from a centre 6e-9 off the stored one and missed a corner by that much).
float to_float(double x) {
  volatile float f = static_cast<float>(x);
  return f;
}
float round_up(double x) {
  float f = static_cast<float>(x);
  if (static_cast<double>(f) < x) f = std::nextafter(f, std::numeric_limits<float>::infinity());
  return f;
}

double half_area(const Aabb& b) {
  const Vec3 d = b.max - b.min;
  return d.x() * d.y() + d.y() * d.z() + d.z() * d.x();
}

// A node's triangles: the run order[first, second) of the final order.
using Range = std::pair<std::uint32_t, std::uint32_t>;

struct Task {
  std::uint32_t node, begin, end;
  int depth;
};

// Nodes of one part of the tree in the serial build's layout (a node's two
// children adjacent, allocated when it is split; then the left child's
// descendants; then the right's), with their per-node records. The top of
// the tree leaves its small subtrees to be built apart (`deferred`); each
// of those is built, root at 0, in a Subtree of its own.
struct Subtree {
  std::vector<BvhNode> nodes;
  std::vector<BvhObb> obbs;     // BvhVolume::obb
  std::vector<Range> range;     // BvhVolume::rss
  std::vector<char> merged;     // BvhVolume::rss: RSS from the children's (merge_rss), not from the corners
  std::vector<int> deferred;    // per node: the index of the task built apart, or −1
  std::vector<Task> tasks;      // the tasks built apart
  int depth = 0;
};

// The corners' count, mean and scatter (sum of (x − mean)(x − mean)ᵀ, its
// upper triangle xx, xy, xz, yy, yz, zz) under a node: a leaf's from its
// corners, an inner node's from its children's by the pairwise update of
// Chan, Golub and LeVeque (1979), which stays accurate where the mean is
// far from the origin and the spread small. One pass over the corners for
// the whole tree instead of one per level.
struct CornerMoments {
  double count = 0.0;
  Vec3 mean = Vec3::Zero();
  double scatter[6] = {};

  static CornerMoments combine(const CornerMoments& a, const CornerMoments& b) {
    CornerMoments m;
    m.count = a.count + b.count;
    const Vec3 delta = b.mean - a.mean;
    const double w = a.count * b.count / m.count;
    m.mean = a.mean + delta * (b.count / m.count);
    int k = 0;
    for (int i = 0; i < 3; ++i)
      for (int j = i; j < 3; ++j, ++k) m.scatter[k] = a.scatter[k] + b.scatter[k] + w * delta[i] * delta[j];
    return m;
  }
  Mat3 covariance() const {
    Mat3 c;
    int k = 0;
    for (int i = 0; i < 3; ++i)
      for (int j = i; j < 3; ++j, ++k) c(i, j) = c(j, i) = scatter[k] / count;
    return c;
  }
};

struct Builder {
  Builder(const TriangleMesh& m, const BvhOptions& o, const Vec3& centre, int thread_total, const BvhProgress& p)
      : mesh(m), opt(o), origin(centre), threads(thread_total), progress(&p) {}

  const TriangleMesh& mesh;
  BvhOptions opt;
  Vec3 origin;
  int threads = 1;               // the threads the build runs on
  std::vector<Aabb> boxes;       // per triangle, relative to origin
  std::vector<Vec3> centroids;   // of the boxes
  std::vector<std::uint32_t> order;
  std::vector<BvhNode> nodes;
  std::vector<BvhObb> obbs;
  std::vector<BvhRss> rss;
  std::vector<Range> range;      // each node's run of order (BvhVolume::rss)
  std::vector<char> merged;      // as Subtree::merged
  int depth = 0;
  std::vector<Vec3> sorted_corners{};  // every triangle's corners (minus origin) in the final order
  const BvhProgress* progress = nullptr;  // the caller's, or null
  // Triangles placed in leaves so far, by every thread: the split's share
  // of the build. Reports go out from the calling thread alone.
  std::atomic<std::size_t> in_leaves{0};
  std::size_t next_report = 0;

  void report(double fraction) const {
    if (progress != nullptr && *progress) (*progress)(fraction);
  }
  // On the calling thread (parallel_for's thread 0): a report for every
  // hundredth of the triangles placed since the last one.
  void report_leaves(int thread) {
    if (thread != 0) return;
    const std::size_t n = order.size(), placed = in_leaves.load(std::memory_order_relaxed);
    if (placed < next_report) return;
    next_report = placed + n / 100 + 1;
    report(0.8 * static_cast<double>(placed) / static_cast<double>(n));
  }

  void set_box(BvhNode& n, const Aabb& b) const {
    for (int k = 0; k < 3; ++k) {
      n.lo[k] = round_down(b.min[k]);
      n.hi[k] = round_up(b.max[k]);
    }
  }

  // Oriented box of the triangles order[begin, end): principal axes of their
  // corners (covariance eigenvectors, as in Gottschalk et al., "OBBTree",
  // 1996, but over corners rather than the hull), extents by projection.
  // Axes are rounded to float first and the extents measured along the
  // rounded axes, then padded for their ~1e-7 non-orthonormality.
  BvhObb fit_obb(std::uint32_t begin, std::uint32_t end) const {
    Vec3 mean = Vec3::Zero();
    for (std::uint32_t i = begin; i < end; ++i)
      for (int k = 0; k < 3; ++k) mean += mesh.corner(order[i], k) - origin;
    const double count = 3.0 * (end - begin);
    mean /= count;
    Mat3 cov = Mat3::Zero();
    for (std::uint32_t i = begin; i < end; ++i)
      for (int k = 0; k < 3; ++k) {
        const Vec3 d = mesh.corner(order[i], k) - origin - mean;
        cov += d * d.transpose();
      }
    const Eigen::SelfAdjointEigenSolver<Mat3> eig(cov);
    Mat3 axes = eig.eigenvectors();
    if (!axes.allFinite()) axes = Mat3::Identity();
    BvhObb o;
    Mat3 af;
    for (int k = 0; k < 3; ++k)
      for (int j = 0; j < 3; ++j) {
        o.axis[k][j] = static_cast<float>(axes(j, k));
        af(j, k) = o.axis[k][j];
      }
    Vec3 lo = Vec3::Constant(std::numeric_limits<double>::infinity()), hi = -lo;
    for (std::uint32_t i = begin; i < end; ++i)
      for (int k = 0; k < 3; ++k) {
        const Vec3 u = af.transpose() * (mesh.corner(order[i], k) - origin);
        lo = lo.cwiseMin(u);
        hi = hi.cwiseMax(u);
      }
    // Centre back through the float axes; pad by 1e-6 of the box size and
    // of the centre's magnitude for the axes' rounding.
    const Vec3 mid = 0.5 * (lo + hi), half = 0.5 * (hi - lo);
    const Vec3 c = af * mid;
    for (int k = 0; k < 3; ++k) o.center[k] = static_cast<float>(c[k]);
    const Vec3 cf(o.center[0], o.center[1], o.center[2]);
    const double pad = 1e-6 * (half.sum() + mid.cwiseAbs().sum()) + 2.0 * (c - cf).norm() + 1e-300;
    for (int k = 0; k < 3; ++k) o.half[k] = round_up(half[k] + pad);
    return o;
  }

  // The rectangle's axes: the two principal directions of largest spread of
  // a covariance, stored as floats; u, v are those floats read back and n
  // their cross product (what every later measurement uses). The closed-form
  // 3×3 solver: the axes need not be accurate (the radius is measured along
  // whatever axes come out), and it is several times cheaper than the
  // iterative one on the ~n/2 nodes of a large mesh.
  static void set_rss_axes(const Mat3& cov, BvhRss& r, Vec3& u, Vec3& v, Vec3& n) {
    Eigen::SelfAdjointEigenSolver<Mat3> eig;
    eig.computeDirect(cov);
    Mat3 axes = eig.eigenvectors();  // eigenvalues ascending: col 0 is the normal
    if (!axes.allFinite()) axes = Mat3::Identity();
    for (int j = 0; j < 3; ++j) {
      r.axis[0][j] = static_cast<float>(axes(j, 2));
      r.axis[1][j] = static_cast<float>(axes(j, 1));
    }
    u = Vec3(r.axis[0][0], r.axis[0][1], r.axis[0][2]);
    v = Vec3(r.axis[1][0], r.axis[1][1], r.axis[1][2]);
    n = u.cross(v);
  }

  // Rectangle swept sphere of the triangles order[begin, end), after the
  // idea of Larsen et al. 1999 (PQP): the rectangle spans the two principal
  // axes of the corners (the eigenvectors of their covariance `cov`, from
  // CornerMoments), the radius covers the spread along the third. The
  // rectangle's extents are then pulled in where the corners near its
  // edges lie close to its plane (they are covered by the swept sphere's
  // rounded rim), and the radius is finally measured from every corner to
  // the stored float parallelogram, so containment does not rest on the
  // axes being orthonormal or on the shrink being right. Corners are taken
  // relative to the node's box centre `ref` (small numbers), three passes
  // over the node's run of sorted_corners.
  BvhRss fit_rss(std::uint32_t begin, std::uint32_t end, const Vec3& ref, const Mat3& cov) const {
    const Vec3* first = sorted_corners.data() + 3 * std::size_t(begin);
    const Vec3* last = sorted_corners.data() + 3 * std::size_t(end);
    BvhRss r;
    Vec3 u, v, n;
    set_rss_axes(cov, r, u, v, n);
    // Coordinates along the rounded axes (relative to ref: small numbers).
    double h_lo = std::numeric_limits<double>::infinity(), h_hi = -h_lo;
    for (const Vec3* x = first; x != last; ++x) {
      const double h = n.dot(*x - ref);
      h_lo = std::min(h_lo, h);
      h_hi = std::max(h_hi, h);
    }
    const double h_mid = 0.5 * (h_lo + h_hi), r0 = 0.5 * (h_hi - h_lo);
    // A corner at height h off the mid-plane may stick out past the edge by
    // sqrt(r0² − h²) and still be within r0 of it.
    double s_lo = std::numeric_limits<double>::infinity(), s_hi = -s_lo, t_lo = s_lo, t_hi = -s_lo;
    for (const Vec3* x = first; x != last; ++x) {
      const Vec3 d = *x - ref;
      const double dh = n.dot(d) - h_mid;
      const double slack = r0 * r0 - dh * dh;
      const double give = slack > 0.0 ? std::sqrt(slack) : 0.0;
      const double s = u.dot(d), t = v.dot(d);
      s_lo = std::min(s_lo, s + give);
      s_hi = std::max(s_hi, s - give);
      t_lo = std::min(t_lo, t + give);
      t_hi = std::max(t_hi, t - give);
    }
    if (s_lo > s_hi) s_lo = s_hi = 0.5 * (s_lo + s_hi);
    if (t_lo > t_hi) t_lo = t_hi = 0.5 * (t_lo + t_hi);
    const Vec3 c = ref + 0.5 * (s_lo + s_hi) * u + 0.5 * (t_lo + t_hi) * v + h_mid * n;
    for (int j = 0; j < 3; ++j) r.center[j] = to_float(c[j]);
    r.half[0] = round_up(0.5 * (s_hi - s_lo));
    r.half[1] = round_up(0.5 * (t_hi - t_lo));
    // The radius: farthest corner from its clamped projection, a point of
    // the float parallelogram, so an upper bound on its distance to it.
    // Corner − origin − cf is taken as (corner − origin − ref) − (cf − ref):
    // the same difference up to one more rounding, covered below.
    const Vec3 cf(r.center[0], r.center[1], r.center[2]);
    const Vec3 shift = cf - ref;
    const double h0 = r.half[0], h1 = r.half[1];
    double far_sq = 0.0;
    for (const Vec3* x = first; x != last; ++x) {
      const Vec3 d = (*x - ref) - shift;
      const double s = std::clamp(u.dot(d), -h0, h0), t = std::clamp(v.dot(d), -h1, h1);
      far_sq = std::max(far_sq, (d - s * u - t * v).squaredNorm());
    }
    const double far = std::sqrt(far_sq);
    // Rounding of the projection, relative to the magnitudes involved.
    r.radius = round_up(far + 1e-14 * (far + h0 + h1 + cf.lpNorm<1>() + ref.lpNorm<1>()));
    return r;
  }

  // A node at an odd depth with more than kExactRss triangles gets the RSS
  // of its children's RSS: each child is its parallelogram's four corners
  // swept by its radius, so the parent's rectangle is fitted to the eight
  // corners and its radius covers every corner plus that child's radius.
  // Distance to a parallelogram is convex, so covering its corners covers
  // it. Looser than a fit to the triangles (by about a child's radius; its
  // children, at even depths, are fitted exactly), but O(1) a node instead
  // of four passes over its corners, which halves the RSS share of a
  // million-triangle build (measured: 2.2 s with every node fitted, the
  // AABB build alone 0.55 s). Merging every large node instead made
  // separated bunny distances 4× slower.
  static constexpr std::uint32_t kExactRss = 8;

  static BvhRss merge_rss(const BvhRss& a, const BvhRss& b) {
    Vec3 pts[8];
    double child_radius[8];
    int m = 0;
    for (const BvhRss* c : {&a, &b}) {
      const Vec3 cc(c->center[0], c->center[1], c->center[2]);
      const Vec3 cu(c->axis[0][0], c->axis[0][1], c->axis[0][2]), cv(c->axis[1][0], c->axis[1][1], c->axis[1][2]);
      for (const double su : {-1.0, 1.0})
        for (const double sv : {-1.0, 1.0}) {
          pts[m] = cc + su * double(c->half[0]) * cu + sv * double(c->half[1]) * cv;
          child_radius[m++] = c->radius;
        }
    }
    Vec3 ref = Vec3::Zero();
    for (const Vec3& q : pts) ref += q;
    ref /= 8.0;
    Mat3 cov = Mat3::Zero();
    for (const Vec3& q : pts) cov += (q - ref) * (q - ref).transpose();
    BvhRss r;
    Vec3 u, v, n;
    set_rss_axes(cov / 8.0, r, u, v, n);
    double s_lo = std::numeric_limits<double>::infinity(), s_hi = -s_lo, t_lo = s_lo, t_hi = -s_lo, h_lo = s_lo,
           h_hi = -s_lo;
    for (const Vec3& q : pts) {
      const Vec3 d = q - ref;
      s_lo = std::min(s_lo, u.dot(d));
      s_hi = std::max(s_hi, u.dot(d));
      t_lo = std::min(t_lo, v.dot(d));
      t_hi = std::max(t_hi, v.dot(d));
      h_lo = std::min(h_lo, n.dot(d));
      h_hi = std::max(h_hi, n.dot(d));
    }
    const Vec3 c = ref + 0.5 * (s_lo + s_hi) * u + 0.5 * (t_lo + t_hi) * v + 0.5 * (h_lo + h_hi) * n;
    for (int j = 0; j < 3; ++j) r.center[j] = to_float(c[j]);
    r.half[0] = round_up(0.5 * (s_hi - s_lo));
    r.half[1] = round_up(0.5 * (t_hi - t_lo));
    const Vec3 cf(r.center[0], r.center[1], r.center[2]);
    const double h0 = r.half[0], h1 = r.half[1];
    double far = 0.0, scale = 0.0;
    for (int k = 0; k < 8; ++k) {
      const Vec3 d = pts[k] - cf;
      const double s = std::clamp(u.dot(d), -h0, h0), t = std::clamp(v.dot(d), -h1, h1);
      far = std::max(far, (d - s * u - t * v).norm() + child_radius[k]);
      scale = std::max(scale, pts[k].lpNorm<1>() + child_radius[k]);
    }
    // Rounding of the corners and of the projection, relative to the
    // magnitudes involved.
    r.radius = round_up(far + 1e-14 * (far + h0 + h1 + cf.lpNorm<1>() + scale));
    return r;
  }

  // The split position in order[begin, end): SAH over the three axes, or the
  // median; always leaves both sides non-empty.
  // `cb`: the box of the run's centroids.
  std::uint32_t split(std::uint32_t begin, std::uint32_t end, int level, const Aabb& cb) {
    const Vec3 extent = cb.max - cb.min;
    int axis = 0;
    if (extent[1] > extent[axis]) axis = 1;
    if (extent[2] > extent[axis]) axis = 2;
    const std::uint32_t mid = begin + (end - begin) / 2;
    // All centroids equal (duplicates): any halving is as good as another.
    if (!(extent[axis] > 0.0)) return mid;
    if (opt.split == BvhSplit::sah && level < kMaxSahDepth) {
      double best_cost = std::numeric_limits<double>::infinity();
      int best_axis = -1, best_bin = -1;
      // One pass bins the triangles on all three axes: the scattered reads
      // of their boxes and centroids are most of a large node's cost.
      Aabb bins[3][kBins];
      std::uint32_t counts[3][kBins] = {};
      double scales[3];
      for (int a = 0; a < 3; ++a) scales[a] = extent[a] > 0.0 ? kBins / extent[a] : 0.0;
      for (std::uint32_t i = begin; i < end; ++i) {
        const std::uint32_t t = order[i];
        const Vec3& c = centroids[t];
        const Aabb& box = boxes[t];
        for (int a = 0; a < 3; ++a) {
          const int b = std::min(kBins - 1, static_cast<int>((c[a] - cb.min[a]) * scales[a]));
          bins[a][b].extend(box);
          ++counts[a][b];
        }
      }
      for (int a = 0; a < 3; ++a) {
        if (!(extent[a] > 0.0)) continue;
        const Aabb* bin_box = bins[a];
        const std::uint32_t* bin_count = counts[a];
        // Sweep from the right for the right-hand areas, then from the left.
        double right_area[kBins];
        std::uint32_t right_count[kBins];
        Aabb acc;
        std::uint32_t n = 0;
        for (int b = kBins - 1; b > 0; --b) {
          acc.extend(bin_box[b]);
          n += bin_count[b];
          right_area[b] = n ? half_area(acc) : 0.0;
          right_count[b] = n;
        }
        acc = Aabb{};
        n = 0;
        for (int b = 0; b + 1 < kBins; ++b) {
          acc.extend(bin_box[b]);
          n += bin_count[b];
          if (n == 0 || right_count[b + 1] == 0) continue;
          const double cost = n * half_area(acc) + right_count[b + 1] * right_area[b + 1];
          if (cost < best_cost) {
            best_cost = cost;
            best_axis = a;
            best_bin = b;
          }
        }
      }
      if (best_axis >= 0) {
        const double scale = kBins / extent[best_axis];
        const double lo = cb.min[best_axis];
        const int a = best_axis, last = best_bin;
        auto left = [&](std::uint32_t t) {
          return std::min(kBins - 1, static_cast<int>((centroids[t][a] - lo) * scale)) <= last;
        };
        const auto it = std::partition(order.begin() + begin, order.begin() + end, left);
        const auto pos = static_cast<std::uint32_t>(it - order.begin());
        if (pos > begin && pos < end) return pos;
      }
    }
    // Object median on the axis of largest centroid spread.
    std::nth_element(order.begin() + begin, order.begin() + mid, order.begin() + end,
                     [&](std::uint32_t x, std::uint32_t y) { return centroids[x][axis] < centroids[y][axis]; });
    return mid;
  }

  // The subtree of `root` (its node at 0 of `out`), depth first as the
  // serial build goes. With `grain` > 0, a task of at most `grain`
  // triangles is not built but recorded in out.tasks, its node marked.
  void grow(const Task& root, std::uint32_t grain, Subtree& out, int thread) {
    const bool with_obb = opt.volume == BvhVolume::obb, with_rss = opt.volume == BvhVolume::rss;
    const auto add_nodes = [&](std::size_t count) {
      out.nodes.resize(out.nodes.size() + count);
      if (with_obb) out.obbs.resize(out.nodes.size());
      if (with_rss) {
        out.range.resize(out.nodes.size());
        out.merged.resize(out.nodes.size());
      }
      if (grain > 0) out.deferred.resize(out.nodes.size(), -1);
    };
    out.nodes.clear();
    add_nodes(1);
    std::vector<Task> stack{{0, root.begin, root.end, root.depth}};
    while (!stack.empty()) {
      const Task task = stack.back();
      stack.pop_back();
      const std::uint32_t count = task.end - task.begin;
      if (grain > 0 && count <= grain) {
        out.deferred[task.node] = static_cast<int>(out.tasks.size());
        out.tasks.push_back(task);
        continue;
      }
      out.depth = std::max(out.depth, task.depth);
      // The node's box, and for a node to split its centroids' box, in
      // one pass.
      Aabb box, centroid_box;
      const bool splits = count > static_cast<std::uint32_t>(opt.leaf_size);
      for (std::uint32_t i = task.begin; i < task.end; ++i) {
        const std::uint32_t t = order[i];
        box.extend(boxes[t]);
        if (splits) centroid_box.extend(centroids[t]);
      }
      BvhNode& node = out.nodes[task.node];
      set_box(node, box);
      if (with_obb) out.obbs[task.node] = fit_obb(task.begin, task.end);
      if (with_rss) {
        out.range[task.node] = {task.begin, task.end};
        out.merged[task.node] = task.depth % 2 == 1 && count > kExactRss;
      }
      if (!splits) {
        node.index = task.begin;
        node.count = count;
        in_leaves.fetch_add(count, std::memory_order_relaxed);
        report_leaves(thread);
        continue;
      }
      const std::uint32_t mid = split(task.begin, task.end, task.depth, centroid_box);
      const auto child = static_cast<std::uint32_t>(out.nodes.size());
      node.index = child;
      node.count = 0;
      add_nodes(2);
      stack.push_back({child + 1, mid, task.end, task.depth + 1});
      stack.push_back({child, task.begin, mid, task.depth + 1});
    }
  }

  // Copies node i of `from` to slot `at` of the whole tree, its children's
  // index moved by `shift`.
  void place(const Subtree& from, std::size_t i, std::size_t at, std::int64_t shift) {
    BvhNode n = from.nodes[i];
    if (!n.leaf()) n.index = static_cast<std::uint32_t>(static_cast<std::int64_t>(n.index) + shift);
    nodes[at] = n;
    if (!from.obbs.empty()) obbs[at] = from.obbs[i];
    if (!from.range.empty()) {
      range[at] = from.range[i];
      merged[at] = from.merged[i];
    }
  }

  // Lays out the top's node `i` at slot `at` and everything below it from
  // slot `next` on, as the serial build numbers them: a split node's
  // children at the next two slots, then the left child's descendants,
  // then the right's; a subtree built apart is its own layout, shifted.
  void lay_out(const Subtree& top, const std::vector<Subtree>& parts, std::size_t i, std::size_t at,
               std::size_t& next) {
    const int k = top.deferred[i];
    if (k >= 0) {
      const Subtree& part = parts[static_cast<std::size_t>(k)];
      const auto shift = static_cast<std::int64_t>(next) - 1;  // its node j ≥ 1 goes to next + j − 1
      place(part, 0, at, shift);
      for (std::size_t j = 1; j < part.nodes.size(); ++j) place(part, j, next + j - 1, shift);
      next += part.nodes.size() - 1;
      return;
    }
    const BvhNode& n = top.nodes[i];
    if (n.leaf()) {
      place(top, i, at, 0);
      return;
    }
    const std::size_t children = next;
    next += 2;
    place(top, i, at, static_cast<std::int64_t>(children) - static_cast<std::int64_t>(n.index));
    lay_out(top, parts, n.index, children, next);
    lay_out(top, parts, n.index + 1, children + 1, next);
  }

  void run() {
    const std::size_t n = mesh.triangle_count();
    boxes.resize(n);
    centroids.resize(n);
    order.resize(n);
    parallel_for(n, threads, [&](std::size_t begin, std::size_t end, int) {
      for (std::size_t t = begin; t < end; ++t) {
        Aabb b;
        for (int k = 0; k < 3; ++k) b.extend(Vec3(mesh.corner(t, k) - origin));
        boxes[t] = b;
        centroids[t] = b.center();
        order[t] = static_cast<std::uint32_t>(t);
      }
    });
    next_report = n / 100 + 1;
    // The top of the tree on this thread, down to subtrees of at most
    // `grain` triangles (about sixteen a thread, each still worth a
    // thread's time); those on every thread. The layout is the serial
    // build's whatever the thread count (lay_out), so the hierarchy is too.
    const auto grain = static_cast<std::uint32_t>(std::max<std::size_t>(4096, n / (16 * std::size_t(threads))));
    Subtree top;
    grow({0, 0, static_cast<std::uint32_t>(n), 0}, grain, top, 0);
    std::vector<Subtree> parts(top.tasks.size());
    parallel_for(parts.size(), threads, [&](std::size_t begin, std::size_t end, int thread) {
      for (std::size_t k = begin; k < end; ++k) grow(top.tasks[k], 0, parts[k], thread);
    });
    std::size_t total = top.nodes.size() - top.tasks.size();
    depth = top.depth;
    for (const Subtree& p : parts) {
      total += p.nodes.size();
      depth = std::max(depth, p.depth);
    }
    nodes.resize(total);
    if (opt.volume == BvhVolume::obb) obbs.resize(total);
    if (opt.volume == BvhVolume::rss) {
      rss.resize(total);
      range.resize(total);
      merged.resize(total);
    }
    std::size_t next = 1;
    lay_out(top, parts, 0, 0, next);
    std::vector<Subtree>().swap(parts);
    // RSS fits once the order is final: every node's triangles are then a
    // contiguous run of it, so the corners are gathered from the mesh once
    // (not once per level: on a million triangles the scattered reads were
    // most of the build) and each fit reads its run.
    if (opt.volume == BvhVolume::rss) {
      sorted_corners.resize(3 * order.size());
      parallel_for(order.size(), threads, [&](std::size_t begin, std::size_t end, int) {
        for (std::size_t i = begin; i < end; ++i)
          for (int k = 0; k < 3; ++k) sorted_corners[3 * i + std::size_t(k)] = mesh.corner(order[i], k) - origin;
      });
      // The leaves' moments from their corners, then every inner node's from
      // its children's (they come after it in the array).
      std::vector<CornerMoments> moments(nodes.size());
      parallel_for(nodes.size(), threads, [&](std::size_t begin, std::size_t end, int) {
        for (std::size_t i = begin; i < end; ++i) {
          if (!nodes[i].leaf()) continue;
          CornerMoments& m = moments[i];
          const std::size_t lo = 3 * std::size_t(range[i].first), hi = 3 * std::size_t(range[i].second);
          m.count = double(hi - lo);
          for (std::size_t k = lo; k < hi; ++k) m.mean += sorted_corners[k];
          m.mean /= m.count;
          for (std::size_t k = lo; k < hi; ++k) {
            const Vec3 d = sorted_corners[k] - m.mean;
            int c = 0;
            for (int a = 0; a < 3; ++a)
              for (int b = a; b < 3; ++b, ++c) m.scatter[c] += d[a] * d[b];
          }
        }
      });
      for (std::size_t i = nodes.size(); i-- > 0;)
        if (!nodes[i].leaf()) moments[i] = CornerMoments::combine(moments[nodes[i].index], moments[nodes[i].index + 1]);
      parallel_for(nodes.size(), threads, [&](std::size_t begin, std::size_t end, int) {
        for (std::size_t i = begin; i < end; ++i) {
          if (merged[i]) continue;
          const BvhNode& nd = nodes[i];
          const Vec3 ref(0.5 * (double(nd.lo[0]) + nd.hi[0]), 0.5 * (double(nd.lo[1]) + nd.hi[1]),
                         0.5 * (double(nd.lo[2]) + nd.hi[2]));
          rss[i] = fit_rss(range[i].first, range[i].second, ref, moments[i].covariance());
        }
      });
      // A merged node's children sit at an even depth, fitted above.
      parallel_for(nodes.size(), threads, [&](std::size_t begin, std::size_t end, int) {
        for (std::size_t i = begin; i < end; ++i)
          if (merged[i]) rss[i] = merge_rss(rss[nodes[i].index], rss[nodes[i].index + 1]);
      });
      std::vector<Vec3>().swap(sorted_corners);
    }
    report(0.9);
  }
};

}  // namespace

Bvh::Bvh(TriangleMesh mesh, const BvhOptions& options, const BvhProgress& progress) {
  if (options.leaf_size < 1 || options.leaf_size > 8)
    throw Error("bvh: leaf_size must be in 1..8 (got " + std::to_string(options.leaf_size) + ")");
  int threads = 1;
  try {
    threads = thread_count(options.threads);
  } catch (const Error& e) {
    throw Error(std::string("bvh: ") + e.what());
  }
  const auto start = std::chrono::steady_clock::now();
  auto d = std::make_shared<Data>(Data{std::move(mesh), {}, {}, {}, {}, Vec3::Zero(), 0, 0.0, options, {}, {}});
  if (d->mesh.triangle_count() < kParallelFrom) threads = 1;
  Aabb bounds;
  for (const Vec3& v : d->mesh.vertices()) bounds.extend(v);
  d->origin = bounds.center();
  // The smooth-edge flags need the mesh alone: on a thread of their own
  // beside the hierarchy's build when there are threads to spare (the top
  // of the tree is split on one thread).
  const auto flags = [&d] { d->smooth_edges = mesh::detail::smooth_edges(d->mesh, 1e-3, &d->feature_owners); };
  std::future<void> flagged;
  if (threads > 1) {
    try {
      flagged = std::async(std::launch::async, flags);
    } catch (const std::system_error&) {
      // No thread to be had: the flags are made below, on this one.
    }
  }
  Builder b(d->mesh, options, d->origin, threads, progress);
  b.run();
  if (flagged.valid()) {
    flagged.get();
  } else {
    flags();
  }
  d->nodes = std::move(b.nodes);
  d->obbs = std::move(b.obbs);
  d->rss = std::move(b.rss);
  d->order = std::move(b.order);
  d->depth = b.depth;
  d->build_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  data_ = std::move(d);
  b.report(1.0);
}

Aabb Bvh::node_box(std::size_t i) const {
  const BvhNode& n = data_->nodes[i];
  Aabb b;
  for (int k = 0; k < 3; ++k) {
    b.min[k] = data_->origin[k] + n.lo[k];
    b.max[k] = data_->origin[k] + n.hi[k];
  }
  return b;
}

std::size_t Bvh::bvh_bytes() const {
  return data_->nodes.size() * sizeof(BvhNode) + data_->obbs.size() * sizeof(BvhObb) +
         data_->rss.size() * sizeof(BvhRss) +
         data_->order.size() * sizeof(std::uint32_t);
}

std::size_t Bvh::total_bytes() const {
  return bvh_bytes() + mesh().vertices().size() * sizeof(Vec3) +
         mesh().triangles().size() * sizeof(TriangleIndices);
}

}  // namespace proxima
