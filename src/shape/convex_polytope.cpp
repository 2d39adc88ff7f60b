// SPDX-License-Identifier: BSD-3-Clause
// Convex hull construction (qhull for solids, a 2-D monotone chain for flat
// cores), adjacency for hill climbing, and mass properties by divergence.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <numeric>
#include <sstream>
#include <string>
#include <utility>

extern "C" {
#include <libqhull_r/qhull_ra.h>
}

#include <proxima/core/tolerance.hpp>
#include <proxima/shape/convex_polytope.hpp>

#include "validate.hpp"

namespace proxima {
namespace {

constexpr const char* kName = "convex";
constexpr double kFlatRelative = 1e-9;
// Direction cells per hull vertex on each face of the cube map: 12 in all
// leave 2 to 3 support candidates a cell on round hulls. (A sixth of that
// left about 6, and polytope–polytope GJK ran 18 % more instructions; three
// times as many saved 5 % at three times the memory.)
constexpr double kCellsPerVertex = 2.0;

// Index of the point farthest from the affine set spanned so far, measured
// by `dist`; returns (index, distance).
template <class F>
std::pair<std::size_t, double> farthest(const std::vector<Vec3>& pts, F dist) {
  std::size_t best = 0;
  double best_d = -1.0;
  for (std::size_t i = 0; i < pts.size(); ++i) {
    const double d = dist(pts[i]);
    if (d > best_d) { best_d = d; best = i; }
  }
  return {best, best_d};
}

// Affine dimension of the point set (0..3) with a tolerance relative to its
// extent, and the plane normal when it is 2.
int affine_dimension(const std::vector<Vec3>& pts, Vec3& plane_normal) {
  Aabb box;
  for (const Vec3& p : pts) box.extend(p);
  const double scale = (box.max - box.min).norm();
  const double eps = kFlatRelative * std::max(scale, 1e-300);
  if (scale <= 0.0) return 0;
  const Vec3 p0 = pts[0];
  const auto [i1, d1] = farthest(pts, [&](const Vec3& p) { return (p - p0).norm(); });
  if (d1 <= eps) return 0;
  const Vec3 axis = (pts[i1] - p0) / d1;
  const auto [i2, d2] = farthest(pts, [&](const Vec3& p) { return (p - p0).cross(axis).norm(); });
  if (d2 <= eps) return 1;
  plane_normal = axis.cross(pts[i2] - p0).normalized();
  const auto [i3, d3] = farthest(pts, [&](const Vec3& p) { return std::abs((p - p0).dot(plane_normal)); });
  (void)i3;
  return d3 <= eps ? 2 : 3;
}

// Hull vertices of coplanar points, as indices into `pts`, counter-clockwise
// about `n` (Andrew's monotone chain on in-plane coordinates, collinear
// points dropped).
std::vector<std::size_t> planar_hull(const std::vector<Vec3>& pts, const Vec3& n) {
  const Vec3 u = n.unitOrthogonal();
  const Vec3 w = n.cross(u);
  std::vector<std::pair<Eigen::Vector2d, std::size_t>> q;
  q.reserve(pts.size());
  for (std::size_t i = 0; i < pts.size(); ++i) q.push_back({{pts[i].dot(u), pts[i].dot(w)}, i});
  std::sort(q.begin(), q.end(), [](const auto& a, const auto& b) {
    return a.first.x() < b.first.x() || (a.first.x() == b.first.x() && a.first.y() < b.first.y());
  });
  auto cross = [](const Eigen::Vector2d& o, const Eigen::Vector2d& a, const Eigen::Vector2d& b) {
    return (a - o).x() * (b - o).y() - (a - o).y() * (b - o).x();
  };
  std::vector<std::size_t> hull(2 * q.size());
  std::size_t k = 0;
  for (std::size_t i = 0; i < q.size(); ++i) {
    while (k >= 2 && cross(q[hull[k - 2]].first, q[hull[k - 1]].first, q[i].first) <= 0.0) --k;
    hull[k++] = i;
  }
  for (std::size_t i = q.size() - 1, t = k + 1; i > 0; --i) {
    while (k >= t && cross(q[hull[k - 2]].first, q[hull[k - 1]].first, q[i - 1].first) <= 0.0) --k;
    hull[k++] = i - 1;
  }
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i + 1 < k; ++i) out.push_back(q[hull[i]].second);
  return out;
}

// Solid hull through qhull: vertices, and each facet's vertex ids.
struct QhullOutput {
  std::vector<Vec3> vertices;
  std::vector<std::vector<int>> facets;
  std::vector<Vec3> normals;
  std::vector<double> offsets;
  std::string error;
};

QhullOutput run_qhull(const std::vector<Vec3>& pts) {
  QhullOutput out;
  std::vector<coordT> coords;
  coords.reserve(3 * pts.size());
  for (const Vec3& p : pts) coords.insert(coords.end(), {p.x(), p.y(), p.z()});

  char* err_buf = nullptr;
  std::size_t err_len = 0;
  FILE* err = open_memstream(&err_buf, &err_len);
  qhT qh_storage;
  qhT* qh = &qh_storage;
  qh_zero(qh, err);
  char cmd[] = "qhull";
  const int code = qh_new_qhull(qh, 3, static_cast<int>(pts.size()), coords.data(), False, cmd,
                                nullptr, err);
  if (code == 0) {
    // Vertices in the order of the input points (qhull's own order is an
    // artefact of its insertion history and version).
    std::vector<int> remap(pts.size(), -1);
    vertexT* vertex;
    FORALLvertices { remap[static_cast<std::size_t>(qh_pointid(qh, vertex->point))] = 0; }
    for (std::size_t id = 0; id < pts.size(); ++id) {
      if (remap[id] < 0) continue;
      remap[id] = static_cast<int>(out.vertices.size());
      out.vertices.push_back(pts[id]);
    }
    facetT* facet;
    FORALLfacets {
      std::vector<int> ids;
      vertexT** vertexp;
      FOREACHvertex_(facet->vertices) {
        ids.push_back(remap[static_cast<std::size_t>(qh_pointid(qh, vertex->point))]);
      }
      (void)vertexp;
      out.facets.push_back(std::move(ids));
      out.normals.emplace_back(facet->normal[0], facet->normal[1], facet->normal[2]);
      out.offsets.push_back(-facet->offset);
    }
  }
  qh_freeqhull(qh, !qh_ALL);
  int curlong = 0, totlong = 0;
  qh_memfreeshort(qh, &curlong, &totlong);
  std::fclose(err);
  if (code != 0) {
    std::string msg = err_buf ? std::string(err_buf, err_len) : std::string();
    const auto cut = msg.find('\n');
    out.error = "qhull failed (code " + std::to_string(code) + ")" +
                (msg.empty() ? "" : ": " + msg.substr(0, cut));
  }
  std::free(err_buf);
  return out;
}

// Orders a facet's vertices counter-clockwise about its outward normal,
// starting at its lowest vertex index.
void order_ccw(std::vector<int>& ids, const std::vector<Vec3>& v, const Vec3& n) {
  Vec3 c = Vec3::Zero();
  for (int i : ids) c += v[static_cast<std::size_t>(i)];
  c /= static_cast<double>(ids.size());
  const Vec3 u = (v[static_cast<std::size_t>(ids[0])] - c).normalized();
  const Vec3 w = n.cross(u);
  std::vector<std::pair<double, int>> a;
  for (int i : ids) {
    const Vec3 r = v[static_cast<std::size_t>(i)] - c;
    a.push_back({std::atan2(r.dot(w), r.dot(u)), i});
  }
  std::sort(a.begin(), a.end());
  for (std::size_t k = 0; k < ids.size(); ++k) ids[k] = a[k].second;
  std::rotate(ids.begin(), std::min_element(ids.begin(), ids.end()), ids.end());
}

// Edges, adjacency, seeds and bounds from vertices and faces.
void finish_polytope(PolytopeData& d) {
  const std::size_t n = d.vertices.size();
  for (const auto& f : d.faces) {
    for (std::size_t k = 0; k < f.size(); ++k) {
      const int a = f[k], b = f[(k + 1) % f.size()];
      d.edges.push_back({std::min(a, b), std::max(a, b)});
    }
  }
  if (d.dimension == 1) d.edges.push_back({0, 1});
  std::sort(d.edges.begin(), d.edges.end());
  d.edges.erase(std::unique(d.edges.begin(), d.edges.end()), d.edges.end());

  // Faces of each edge, by the direction the face's CCW loop runs it.
  d.edge_faces.assign(d.edges.size(), {-1, -1});
  for (std::size_t f = 0; f < d.faces.size(); ++f) {
    const auto& loop = d.faces[f];
    for (std::size_t k = 0; k < loop.size(); ++k) {
      const int a = loop[k], b = loop[(k + 1) % loop.size()];
      const std::array<int, 2> key{std::min(a, b), std::max(a, b)};
      const auto it = std::lower_bound(d.edges.begin(), d.edges.end(), key);
      const auto e = static_cast<std::size_t>(it - d.edges.begin());
      d.edge_faces[e][a < b ? 0 : 1] = static_cast<int>(f);
    }
  }

  std::vector<int> degree(n, 0);
  for (const auto& e : d.edges) { ++degree[static_cast<std::size_t>(e[0])]; ++degree[static_cast<std::size_t>(e[1])]; }
  d.neighbor_offsets.assign(n + 1, 0);
  for (std::size_t i = 0; i < n; ++i) d.neighbor_offsets[i + 1] = d.neighbor_offsets[i] + degree[i];
  d.neighbors.assign(static_cast<std::size_t>(d.neighbor_offsets[n]), 0);
  std::vector<int> fill(d.neighbor_offsets.begin(), d.neighbor_offsets.end() - 1);
  for (const auto& e : d.edges) {
    d.neighbors[static_cast<std::size_t>(fill[static_cast<std::size_t>(e[0])]++)] = e[1];
    d.neighbors[static_cast<std::size_t>(fill[static_cast<std::size_t>(e[1])]++)] = e[0];
  }

  for (int axis = 0; axis < 3; ++axis) {
    std::size_t lo = 0, hi = 0;
    for (std::size_t i = 1; i < n; ++i) {
      if (d.vertices[i][axis] < d.vertices[lo][axis]) lo = i;
      if (d.vertices[i][axis] > d.vertices[hi][axis]) hi = i;
    }
    d.seeds[static_cast<std::size_t>(2 * axis)] = static_cast<int>(hi);
    d.seeds[static_cast<std::size_t>(2 * axis + 1)] = static_cast<int>(lo);
  }
  for (const Vec3& v : d.vertices) d.bounds.extend(v);
}

// Bounding-cone hierarchy over the Gauss map (see NormalCone). Faces are
// split at the median of the coordinate along which their normals spread
// most, so that each subtree covers a compact patch of the sphere and its
// cone stays narrow. Leaves hold up to 8 faces: evaluating a face costs
// less than bounding a cone, and the traversal's branches cost more than
// either (callgrind on the bench poses: 8 beat 2, 3, 4 and 6 at N = 200 and
// 2000).
// The levels node() makes for n faces: the median split hands the larger
// half, ⌈n/2⌉, to the right child.
constexpr int cone_levels(long long n) { return n <= 8 ? 1 : 1 + cone_levels((n + 1) / 2); }

class ConeBuilder {
 public:
  static constexpr int kLeafFaces = 8;
  static_assert(kLeafFaces <= NormalCone::kMaxLeafFaces);
  static_assert(kLeafFaces == 8, "cone_levels assumes leaves of 8 faces");
  // Every face count an int holds fits the walks' stacks (NormalCone::kMaxDepth).
  static_assert(cone_levels(std::numeric_limits<int>::max()) <= NormalCone::kMaxDepth);

  explicit ConeBuilder(PolytopeData& d) : d_(d), owned_(d.faces.size()) {
    for (std::size_t e = 0; e < d.edges.size(); ++e) {
      const auto& f = d.edge_faces[e];
      if (f[0] >= 0 && f[1] >= 0) owned_[static_cast<std::size_t>(f[0])].push_back(static_cast<int>(e));
    }
  }

  void build() {
    std::vector<int> order(d_.faces.size());
    std::iota(order.begin(), order.end(), 0);
    d_.cones.reserve(2 * order.size() / kLeafFaces + 2);
    d_.cone_depth = node(order, 0, static_cast<int>(order.size()));
    // The static_assert above covers this; checked all the same, as a walk
    // whose stack filled would drop nodes and answer wrongly without a word.
    if (d_.cone_depth > NormalCone::kMaxDepth)
      throw Error("convex polytope: cone hierarchy of " + std::to_string(d_.cone_depth) + " levels over " +
                  std::to_string(order.size()) + " faces exceeds the walks' " +
                  std::to_string(NormalCone::kMaxDepth));
    d_.cone_pairs.assign(d_.cones.size(), ConePair{});
    for (std::size_t k = 0; k < d_.cones.size(); ++k) {
      if (d_.cones[k].right < 0) continue;
      ConePair& p = d_.cone_pairs[k];
      const NormalCone* kids[2] = {&d_.cones[k + 1], &d_.cones[static_cast<std::size_t>(d_.cones[k].right)]};
      for (int l = 0; l < 2; ++l) {
        p.axis_x[l] = kids[l]->axis.x();
        p.axis_y[l] = kids[l]->axis.y();
        p.axis_z[l] = kids[l]->axis.z();
        p.cos_angle[l] = kids[l]->cos_angle;
        p.sin_angle[l] = kids[l]->sin_angle;
        p.side[l] = kids[l]->side;
        p.min_offset[l] = kids[l]->min_offset;
      }
    }
  }

 private:
  const Vec3& normal(int f) const { return d_.face_normals[static_cast<std::size_t>(f)]; }
  double offset(int f) const { return d_.face_offsets[static_cast<std::size_t>(f)]; }
  int other_face(int e) const { return d_.edge_faces[static_cast<std::size_t>(e)][1]; }

  // A lower bound on h_P over the arc of edge e (faces f0, f1, endpoint q):
  // at u = (λ0·n0 + λ1·n1)/|λ0·n0 + λ1·n1| (λ ≥ 0) h_P(u) = u·q =
  // (λ0·c0 + λ1·c1)/|λ0·n0 + λ1·n1| ≥ min(c0, c1) when that is ≥ 0, as the
  // denominator is at most λ0 + λ1; otherwise −|q| (Cauchy–Schwarz).
  double arc_floor(int e) const {
    const auto& f = d_.edge_faces[static_cast<std::size_t>(e)];
    const double c = std::min(offset(f[0]), offset(f[1]));
    if (c >= 0.0) return c;
    return -d_.vertices[static_cast<std::size_t>(d_.edges[static_cast<std::size_t>(e)][0])].norm();
  }

  // Bounds the faces order[lo, hi) and their owned arcs: an arc lies in
  // every cap narrower than a hemisphere that holds both its ends (caps are
  // spherically convex), so the cone is fitted to the normals alone.
  NormalCone cone_of(const std::vector<int>& order, int lo, int hi) const {
    Vec3 sum = Vec3::Zero();
    double min_offset = std::numeric_limits<double>::infinity();
    for (int k = lo; k < hi; ++k) {
      const int f = order[static_cast<std::size_t>(k)];
      sum += normal(f);
      min_offset = std::min(min_offset, offset(f));
      for (int e : owned_[static_cast<std::size_t>(f)]) {
        sum += normal(other_face(e));
        min_offset = std::min(min_offset, arc_floor(e));
      }
    }
    NormalCone c;
    c.min_offset = min_offset;
    const double len = sum.norm();
    if (!(len > 0.0)) return c;  // spans the sphere: bounds nothing
    c.axis = sum / len;
    double min_cos = 1.0;
    for (int k = lo; k < hi; ++k) {
      const int f = order[static_cast<std::size_t>(k)];
      min_cos = std::min(min_cos, c.axis.dot(normal(f)));
      for (int e : owned_[static_cast<std::size_t>(f)]) min_cos = std::min(min_cos, c.axis.dot(normal(other_face(e))));
    }
    // Widened by 1e-9 rad, far above the rounding of the normals and of
    // the query's bounds, so that rounding never prunes a face it should
    // not.
    const double angle = std::acos(std::clamp(min_cos, -1.0, 1.0)) + 1e-9;
    if (angle >= 0.5 * M_PI) return c;  // wider than a hemisphere
    c.cos_angle = std::cos(angle);
    c.sin_angle = std::sin(angle);
    c.side = c.sin_angle;
    return c;
  }

  // Builds the subtree of order[lo, hi); returns its levels.
  int node(std::vector<int>& order, int lo, int hi) {
    const auto self = d_.cones.size();
    d_.cones.push_back(cone_of(order, lo, hi));
    if (hi - lo <= kLeafFaces) {
      NormalCone& c = d_.cones[self];
      c.face_begin = static_cast<int>(d_.cone_faces.size());
      c.edge_begin = static_cast<int>(d_.cone_edges.size());
      for (int k = lo; k < hi; ++k) {
        const int f = order[static_cast<std::size_t>(k)];
        d_.cone_faces.push_back({normal(f), offset(f)});
        d_.cone_face_ids.push_back(f);
        for (int e : owned_[static_cast<std::size_t>(f)]) {
          const auto& ev = d_.edges[static_cast<std::size_t>(e)];
          const Vec3& q0 = d_.vertices[static_cast<std::size_t>(ev[0])];
          const Vec3& q1 = d_.vertices[static_cast<std::size_t>(ev[1])];
          d_.cone_edges.push_back({q0, q1 - q0, normal(other_face(e)), k - lo});
        }
      }
      c.face_end = static_cast<int>(d_.cone_faces.size());
      c.edge_end = static_cast<int>(d_.cone_edges.size());
      return 1;
    }
    Vec3 lo_c = Vec3::Constant(std::numeric_limits<double>::infinity()), hi_c = -lo_c;
    for (int k = lo; k < hi; ++k) {
      lo_c = lo_c.cwiseMin(normal(order[static_cast<std::size_t>(k)]));
      hi_c = hi_c.cwiseMax(normal(order[static_cast<std::size_t>(k)]));
    }
    int axis = 0;
    (hi_c - lo_c).maxCoeff(&axis);
    const int mid = lo + (hi - lo) / 2;
    std::nth_element(order.begin() + lo, order.begin() + mid, order.begin() + hi,
                     [&](int a, int b) { return normal(a)[axis] < normal(b)[axis]; });
    const int left = node(order, lo, mid);
    d_.cones[self].right = static_cast<int>(d_.cones.size());
    return 1 + std::max(left, node(order, mid, hi));
  }

  PolytopeData& d_;
  std::vector<std::vector<int>> owned_;
};

// Ascent on the vertex graph from v (d·v = best): a vertex with no better
// neighbour is a global maximum on a convex polytope.
int climb_vertex_graph(const PolytopeData& p, const Vec3& d, int v, double best) {
  const int* nb = p.neighbors.data();
  const int* offsets = p.neighbor_offsets.data();
  const Vec3* vertex = p.vertices.data();
  const double dx = d.x(), dy = d.y(), dz = d.z();
  int k = offsets[v], end = offsets[v + 1];
  while (k < end) {
    const int u = nb[k++];
    const double x = dx * vertex[u].x() + dy * vertex[u].y() + dz * vertex[u].z();
    if (x > best) {
      // First improvement: move at once and scan the new vertex's neighbours.
      best = x;
      v = u;
      k = offsets[v];
      end = offsets[v + 1];
    }
  }
  return v;
}

// The best of the six axis seeds along d, as a start for the climb.
int best_axis_seed(const PolytopeData& p, const Vec3& d, double& best) {
  int v = p.seeds[0];
  best = d.dot(p.vertices[static_cast<std::size_t>(v)]);
  for (int s : p.seeds) {
    const double x = d.dot(p.vertices[static_cast<std::size_t>(s)]);
    if (x > best) { best = x; v = s; }
  }
  return v;
}

// Whether u is worse than c along every direction of the cone spanned by
// the four corner directions k[0..3], by a margin: (u − c)·k < −margin·|k|
// for each corner. A direction d = Σ λ_i k_i (λ ≥ 0) then has
// (u − c)·d < −margin·|d|, so the computed d·u − d·c, whose rounding error
// is about 1e−15·R·|d| for vertices within R of the origin, has the sign of
// the exact one. A margin of 1e−12·R also covers a direction rounded into
// the cell from just outside it.
bool worse_over_cell(const Vec3& u, const Vec3& c, const Vec3 (&k)[4], const double (&k_norm)[4], double margin) {
  const Vec3 e = u - c;
  for (int i = 0; i < 4; ++i)
    if (!(e.dot(k[i]) < -margin * k_norm[i])) return false;
  return true;
}

// The support candidates of one cell, grown from the support v of its
// centre: any neighbour of a candidate not worse than it over the whole
// cell joins. When nothing more joins, the best candidate along a direction
// of the cell beats its neighbours outside the set (they are worse than it)
// and inside (it is the best), so it is a local maximum of the vertex
// graph: on a convex hull, the support. Returns false past `cap` candidates.
bool cell_candidates(const PolytopeData& p, int v, const Vec3 (&k)[4], double margin, int cap, std::vector<int>& out) {
  double k_norm[4];
  for (int i = 0; i < 4; ++i) k_norm[i] = k[i].norm();
  out.assign(1, v);
  for (std::size_t next = 0; next < out.size(); ++next) {
    const int c = out[next];
    const Vec3& x = p.vertices[static_cast<std::size_t>(c)];
    for (int e = p.neighbor_offsets[static_cast<std::size_t>(c)]; e < p.neighbor_offsets[static_cast<std::size_t>(c) + 1];
         ++e) {
      const int u = p.neighbors[static_cast<std::size_t>(e)];
      if (std::find(out.begin(), out.end(), u) != out.end()) continue;
      if (worse_over_cell(p.vertices[static_cast<std::size_t>(u)], x, k, k_norm, margin)) continue;
      if (static_cast<int>(out.size()) == cap) return false;
      out.push_back(u);
    }
  }
  return true;
}

// The direction map: kCellsPerVertex cells for every vertex on each face
// (4 to 64 cells a side), each cell's centre support climbed to from its
// neighbour's, then grown to the cell's candidates.
void build_direction_seeds(PolytopeData& p) {
  const int n = std::clamp(static_cast<int>(std::lround(std::sqrt(kCellsPerVertex * static_cast<double>(p.vertices.size())))), 4, 64);
  double radius = 0.0;
  for (const Vec3& x : p.vertices) radius = std::max(radius, x.norm());
  const double margin = 1e-12 * radius;
  const auto at = [n](int axis, double sign, double i, double j) {
    Vec3 d;
    d[axis] = sign;
    d[(axis + 1) % 3] = -1.0 + i * 2.0 / n;
    d[(axis + 2) % 3] = -1.0 + j * 2.0 / n;
    return d;
  };
  p.direction_offsets.assign(1, 0);
  p.direction_offsets.reserve(static_cast<std::size_t>(6 * n * n + 1));
  p.direction_candidates.clear();
  std::vector<int> set;
  for (int face = 0; face < 6; ++face) {
    const int axis = face / 2;
    const double sign = face % 2 == 0 ? 1.0 : -1.0;
    int v = -1;
    double best = 0.0;
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) {
        const Vec3 d = at(axis, sign, i + 0.5, j + 0.5);
        if (v < 0) v = best_axis_seed(p, d, best);
        else best = d.dot(p.vertices[static_cast<std::size_t>(v)]);
        v = climb_vertex_graph(p, d, v, best);
        const Vec3 corners[4] = {at(axis, sign, i, j), at(axis, sign, i + 1, j), at(axis, sign, i, j + 1),
                                 at(axis, sign, i + 1, j + 1)};
        if (cell_candidates(p, v, corners, margin, ConvexPolytope::kMaxDirectionCandidates, set))
          p.direction_candidates.insert(p.direction_candidates.end(), set.begin(), set.end());
        else
          p.direction_candidates.push_back(~v);
        p.direction_offsets.push_back(static_cast<int>(p.direction_candidates.size()));
      }
    }
  }
  p.direction_cells = n;
}

// The largest face-plane value n·q − c by a scan of every face, four
// running maxima so that the maxima do not form one dependency chain; stops
// early (with a value above `enough`) once a block of faces exceeds it.
double plane_scan(const PolytopeData& d, const Vec3& q, double enough) {
  const std::size_t n = d.face_normals.size();
  const Vec3* normal = d.face_normals.data();
  const double* offset = d.face_offsets.data();
  const double qx = q.x(), qy = q.y(), qz = q.z();
  const auto plane = [&](std::size_t f) {
    return normal[f].x() * qx + normal[f].y() * qy + normal[f].z() * qz - offset[f];
  };
  double m0 = -std::numeric_limits<double>::infinity(), m1 = m0, m2 = m0, m3 = m0;
  std::size_t f = 0;
  for (; f + 4 <= n; f += 4) {
    m0 = std::max(m0, plane(f));
    m1 = std::max(m1, plane(f + 1));
    m2 = std::max(m2, plane(f + 2));
    m3 = std::max(m3, plane(f + 3));
    if ((f & 63) == 60 && std::max(std::max(m0, m1), std::max(m2, m3)) > enough) break;
  }
  if (f + 4 > n)
    for (; f < n; ++f) m0 = std::max(m0, plane(f));
  return std::max(std::max(m0, m1), std::max(m2, m3));
}

}  // namespace

ConvexPolytope::ConvexPolytope(const std::vector<Vec3>& points, double margin) : margin_(margin) {
  detail::require_margin(kName, margin);
  if (points.empty()) detail::reject(kName, "the point set is empty");
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (!points[i].allFinite()) {
      detail::reject(kName, "point " + std::to_string(i) + " is not finite");
    }
    if (!in_range(points[i])) {
      const std::string what = "point " + std::to_string(i) + " coordinate";
      detail::reject(kName, detail::beyond_range(what.c_str(), points[i].cwiseAbs().maxCoeff()));
    }
  }

  auto d = std::make_shared<PolytopeData>();
  Vec3 plane_normal = Vec3::UnitZ();
  int dim = affine_dimension(points, plane_normal);
  if (dim == 3) {
    QhullOutput q = run_qhull(points);
    if (!q.error.empty()) {
      if (margin <= 0.0) detail::reject(kName, "degenerate hull: " + q.error);
      dim = 2;  // nearly flat beyond qhull's precision: the margin gives it volume
    } else {
      d->vertices = std::move(q.vertices);
      for (std::size_t f = 0; f < q.facets.size(); ++f) order_ccw(q.facets[f], d->vertices, q.normals[f]);
      // Faces in the lexicographic order of their loops: with the vertices
      // in input order, the whole hull, and so every query's path through
      // it, depends on the input alone.
      std::vector<std::size_t> by_loop(q.facets.size());
      std::iota(by_loop.begin(), by_loop.end(), std::size_t{0});
      std::sort(by_loop.begin(), by_loop.end(),
                [&](std::size_t x, std::size_t y) { return q.facets[x] < q.facets[y]; });
      for (const std::size_t f : by_loop) {
        d->faces.push_back(std::move(q.facets[f]));
        d->face_normals.push_back(q.normals[f]);
        d->face_offsets.push_back(q.offsets[f]);
      }
    }
  }
  if (dim < 3) {
    static const char* const kWhat[] = {"all points coincide", "all points are collinear",
                                        "all points are coplanar (flat)"};
    if (margin <= 0.0) {
      detail::reject(kName, std::string(kWhat[dim]) +
                                "; a hull needs 4 non-coplanar points, or give a margin > 0 "
                                "to use the flat set as the core");
    }
    if (dim == 0) {
      d->vertices = {points[0]};
    } else if (dim == 1) {
      const Vec3 p0 = points[0];
      const auto [i1, d1] = farthest(points, [&](const Vec3& p) { return (p - p0).norm(); });
      (void)d1;
      const Vec3 a = points[i1];
      const auto [i2, d2] = farthest(points, [&](const Vec3& p) { return (p - a).norm(); });
      (void)d2;
      // In input order, as a solid hull's vertices are.
      d->vertices = {points[std::min(i1, i2)], points[std::max(i1, i2)]};
    } else {
      // Vertices in input order and the plane's normal from them alone, as
      // for a solid hull: the polytope of its own vertices (a copy, an
      // unpickled one) is then this one, vertex order, faces and normals.
      const std::vector<std::size_t> loop = planar_hull(points, plane_normal);
      std::vector<std::size_t> by_input = loop;
      std::sort(by_input.begin(), by_input.end());
      for (const std::size_t i : by_input) d->vertices.push_back(points[i]);
      std::vector<int> up;
      for (const std::size_t i : loop) {
        up.push_back(static_cast<int>(std::lower_bound(by_input.begin(), by_input.end(), i) - by_input.begin()));
      }
      Vec3 n = plane_normal;
      affine_dimension(d->vertices, n);
      if (n.dot(plane_normal) < 0.0) std::reverse(up.begin(), up.end());
      plane_normal = n;
      std::rotate(up.begin(), std::min_element(up.begin(), up.end()), up.end());
      std::vector<int> down(up.size());
      std::reverse_copy(up.begin(), up.end(), down.begin());
      const double c = plane_normal.dot(d->vertices[0]);
      d->faces = {up, down};
      d->face_normals = {plane_normal, -plane_normal};
      d->face_offsets = {c, -c};
    }
  }
  d->dimension = dim;
  finish_polytope(*d);
  if (dim == 3) ConeBuilder(*d).build();
  if (static_cast<int>(d->vertices.size()) > kHillClimbThreshold) build_direction_seeds(*d);
  data_ = std::move(d);
}

double ConvexPolytope::largest_plane_value(const Vec3& q, double enough) const {
  const PolytopeData& d = *data_;
  double best = -std::numeric_limits<double>::infinity();
  // Up to a few hundred faces a straight scan wins: the search's branches
  // mispredict where the scan's do not (cachegrind's branch simulation on
  // polytope–capsule depth queries: the two cost about the same at 400
  // faces, the search a third of the scan at 800 and less beyond).
  if (d.cones.empty() || d.face_normals.size() <= kScanFaces) return plane_scan(d, q, enough);
  // Branch and bound: a cone's faces have n·q ≤ cap_max and offsets ≥
  // min_offset, so no face under it exceeds their difference. Depth-first,
  // the larger bound first; the stack holds at most cone_depth ≤ kMaxDepth
  // entries (NormalCone::kMaxDepth).
  const double len = q.norm();
  const auto bound = [&](int k) {
    const NormalCone& c = d.cones[static_cast<std::size_t>(k)];
    return c.cap_max(c.axis.dot(q), len) - c.min_offset;
  };
  struct Entry {
    int node;
    double bound;
  };
  Entry stack[NormalCone::kMaxDepth];
  int top = 0;
  stack[top++] = {0, std::numeric_limits<double>::infinity()};
  while (top > 0) {
    const Entry e = stack[--top];
    if (!(e.bound > best)) continue;
    const NormalCone& c = d.cones[static_cast<std::size_t>(e.node)];
    if (c.right < 0) {
      for (int f = c.face_begin; f < c.face_end; ++f) {
        const ConeFace& face = d.cone_faces[static_cast<std::size_t>(f)];
        best = std::max(best, face.normal.dot(q) - face.offset);
      }
      if (best > enough) return best;
      continue;
    }
    Entry near{e.node + 1, bound(e.node + 1)}, far{c.right, bound(c.right)};
    if (far.bound > near.bound) std::swap(near, far);
    if (far.bound > best) stack[top++] = far;
    if (near.bound > best) stack[top++] = near;
  }
  return best;
}

int ConvexPolytope::hill_climb(const Vec3& d, int start, int seed) const {
  // support_index has already taken a cell's candidates where it holds
  // them; what reaches here is a cell that holds a vertex to climb from
  // (seed), a direction without a cell, or a hull without a map.
  const PolytopeData& p = *data_;
  int v = seed;
  double best = v >= 0 ? d.dot(p.vertices[static_cast<std::size_t>(v)]) : 0.0;
  if (start >= 0 && start < static_cast<int>(p.vertices.size())) {
    const double x = d.dot(p.vertices[static_cast<std::size_t>(start)]);
    if (v < 0 || x > best) {
      v = start;
      best = x;
    }
  }
  if (v < 0) v = best_axis_seed(p, d, best);
  return climb_vertex_graph(p, d, v, best);
}

MassProperties ConvexPolytope::mass_properties() const {
  const PolytopeData& p = *data_;
  MassProperties m;
  if (p.dimension < 3) {
    m.centroid = p.bounds.center();
    return m;
  }
  // Tetrahedra from a reference point to each fan triangle of each face; the
  // reference near the middle keeps the moments well conditioned.
  Vec3 ref = Vec3::Zero();
  for (const Vec3& v : p.vertices) ref += v;
  ref /= static_cast<double>(p.vertices.size());
  double volume = 0.0;
  Vec3 first = Vec3::Zero();
  Mat3 second = Mat3::Zero();
  for (const auto& f : p.faces) {
    const Vec3 a = p.vertices[static_cast<std::size_t>(f[0])] - ref;
    for (std::size_t k = 1; k + 1 < f.size(); ++k) {
      const Vec3 b = p.vertices[static_cast<std::size_t>(f[k])] - ref;
      const Vec3 c = p.vertices[static_cast<std::size_t>(f[k + 1])] - ref;
      const double v = a.dot(b.cross(c)) / 6.0;
      const Vec3 s = a + b + c;
      volume += v;
      first += v * s / 4.0;
      second += v / 20.0 * (a * a.transpose() + b * b.transpose() + c * c.transpose() + s * s.transpose());
    }
  }
  const Vec3 c = first / volume;
  const Mat3 cov = second - volume * c * c.transpose();
  m.volume = volume;
  m.centroid = c + ref;
  m.inertia = cov.trace() * Mat3::Identity() - cov;
  return m;
}

}  // namespace proxima
