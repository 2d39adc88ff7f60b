// Mesh bodies: BLEM contacts (mesh/mesh_contacts.hpp) behind the Geometry
// interface of the simulator.
//
// The raw BLEM set is reduced before clustering, in two exact steps:
//
// 1. Copies. mesh_contacts gives one contact per triangle pair (patch
//    pairs: per polygon vertex), so features shared by several triangles
//    give the same contact many times: two aligned 12-triangle cubes face to
//    face give 80 raw contacts at only the 4 corners of the face, a cube on
//    a box mesh 28. Clustered directly (hierarchical, cut at exactly k) the
//    copies survive: 20 representatives of which 13 sit on one corner. The
//    LCP then has a dozen identical rows at one corner, and PGS crawls along
//    that null space (a 3-cube stack hit the 100-sweep cap on every step and
//    crept 7 µm/s with a slow twist). Contacts whose points agree within
//    1e-5 of the meshes' size and whose normals agree within 1e-3 rad merge:
//    the deepest copy, with the smallest feature ids of the copies.
//    (cluster_contacts now merges coincident contacts too, as a mean; this
//    step keeps a real contact point and the depth of the deepest copy.)
// 2. Interior points of flat patches. Two faces split along nearly
//    collinear diagonals (a resting cube yawed by 1e-6 rad on a box mesh)
//    give sliver triangle-pair patches whose vertices are the crossing point
//    of the two diagonals: an interior point that jumps by centimetres under
//    micro-radian rotations and took the largest share of the load. Contacts
//    of a pair sharing a normal (within 1e-3 rad) and a plane (within 1e-5
//    of the size along it) are reduced to the vertices of their convex hull
//    in that plane. The relative normal velocity of a rigid pair is affine
//    in the point, and on a flat patch so is the gap, so a non-negative
//    velocity condition at the hull vertices implies it inside (paper 001's
//    argument; the BLEM paper §5 suggests this very reduction). Measured
//    on the 3-cube mesh stack over 8 s: top drift 0.026 µm with this step,
//    1.3 µm with clustering alone (16 contacts instead of 12).
#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include <proxima/core/error.hpp>
#include <proxima/sim/body.hpp>

namespace proxima::sim {

MeshGeometry::MeshGeometry(std::shared_ptr<const Bvh> bvh, int max_contacts)
    : bvh_(std::move(bvh)), max_contacts_(max_contacts) {
  if (!bvh_) throw Error("mesh geometry: no mesh");
  if (max_contacts_ < 1) throw Error("max_contacts: must be ≥ 1");
}

MassProperties MeshGeometry::mass_properties() const {
  const std::optional<MassProperties> p = bvh_->mesh().mass_properties();
  if (!p)
    throw Error("the mesh" + (bvh_->mesh().name().empty() ? std::string() : " \"" + bvh_->mesh().name() + "\"") +
                " is not closed (an open surface encloses no volume): make the body static or give \"mass\" and "
                "\"inertia\"");
  return *p;
}

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
void keep_patch_hulls(std::vector<Contact>& c, double tol) {
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
    // Lower and upper chains; an edge o→a is kept turning left by more than
    // tol times its length.
    hull.clear();
    const auto turn_ok = [&](std::size_t o, std::size_t a, const Eigen::Vector2d& b) {
      const Eigen::Vector2d& po = pts[o].first;
      const Eigen::Vector2d& pa = pts[a].first;
      return cross2(po, pa, b) > tol * (b - po).norm();
    };
    for (int pass = 0; pass < 2; ++pass) {
      chain.clear();
      for (std::size_t k = 0; k < pts.size(); ++k) {
        const std::size_t idx = pass == 0 ? k : pts.size() - 1 - k;
        while (chain.size() >= 2 && !turn_ok(chain[chain.size() - 2], chain.back(), pts[idx].first)) chain.pop_back();
        chain.push_back(idx);
      }
      chain.pop_back();  // the last point starts the other chain
      hull.insert(hull.end(), chain.begin(), chain.end());
    }
    for (std::size_t j : members) keep[j] = 0;
    for (std::size_t k : hull) keep[pts[k].second] = 1;
  }
  std::size_t w = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (keep[i]) c[w++] = c[i];
  c.resize(w);
}

double size_of(const Bvh& m) {
  const Aabb b = m.mesh().local_aabb();
  return (b.max - b.min).maxCoeff();
}

}  // namespace

void MeshGeometry::contacts(const Transform& pose, const Geometry& other, const Transform& other_pose,
                            const ContactOptions& options, ContactSet& out) const {
  MeshContactOptions o;
  o.margin = options.margin;
  o.cluster = false;  // merged first, then clustered below
  ClusterOptions cluster;
  cluster.max_contacts = other.max_contacts() > 0 ? std::min(max_contacts_, other.max_contacts()) : max_contacts_;
  double size = size_of(*bvh_);
  if (const Bvh* m = other.mesh()) {
    mesh_contacts(*bvh_, pose, *m, other_pose, o, out);
    size = std::max(size, size_of(*m));
  } else if (const Shape* s = other.convex()) {
    mesh_contacts(*bvh_, pose, *s, other_pose, o, out);
  } else {
    out.points.clear();
    out.status = Status::not_implemented;
    return;
  }
  if (out.status == Status::invalid_input) return;
  thread_local std::vector<std::size_t> order;
  thread_local std::vector<char> gone;
  merge_duplicates(out.points, 1e-5 * size, order, gone);
  keep_patch_hulls(out.points, 1e-5 * size);
  const Status s = cluster_contacts(out.points, cluster);
  if (s != Status::ok) out.status = s;
}

}  // namespace proxima::sim
