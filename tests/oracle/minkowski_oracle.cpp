// SPDX-License-Identifier: BSD-3-Clause
#include "minkowski_oracle.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>

extern "C" {
#include <libqhull_r/qhull_ra.h>
}

#include "oracle_geometry.hpp"

namespace proxima::oracle {
namespace {

using Eigen::Vector3d;

constexpr double kEps = std::numeric_limits<double>::epsilon();

// Exact support value of the set in direction n (n unit), or empty.
using SupportValue = std::function<double(const Vector3d&)>;

struct Triangle {
  Vector3d v[3];
  Vector3d normal;  // unit outward normal reported by qhull
};

// ---------------------------------------------------------------------------
// qhull wrapper: triangulated facets of conv(points).  Returns false (and the
// qhull message in *error) if qhull fails.
// ---------------------------------------------------------------------------
bool qhull_triangles(const std::vector<Vector3d>& points, std::vector<Triangle>* out,
                     std::string* error) {
  std::vector<coordT> coords(points.size() * 3);
  for (std::size_t i = 0; i < points.size(); ++i) {
    coords[3 * i + 0] = points[i].x();
    coords[3 * i + 1] = points[i].y();
    coords[3 * i + 2] = points[i].z();
  }
  // Capture qhull's messages (errors and precision warnings) in memory.
  char* errbuf = nullptr;
  std::size_t errlen = 0;
  FILE* errfile = open_memstream(&errbuf, &errlen);
  if (errfile == nullptr) errfile = std::fopen("/dev/null", "w");

  qhT qh_storage;
  qhT* qh = &qh_storage;
  qh_zero(qh, errfile);
  char flags[] = "qhull Qt";
  const int exitcode = qh_new_qhull(qh, 3, static_cast<int>(points.size()), coords.data(),
                                    False, flags, nullptr, errfile);
  bool ok = (exitcode == 0);
  if (ok) {
    out->clear();
    facetT* facet;
    FORALLfacets {
      Triangle tri;
      int k = 0;
      vertexT* vertex;
      vertexT** vertexp;
      FOREACHvertex_(facet->vertices) {
        if (k < 3) tri.v[k] = Vector3d(vertex->point[0], vertex->point[1], vertex->point[2]);
        ++k;
      }
      if (k != 3) {  // cannot happen with 'Qt' for 3-d input
        ok = false;
        if (error) *error = "qhull returned a non-triangular facet";
        break;
      }
      tri.normal = Vector3d(facet->normal[0], facet->normal[1], facet->normal[2]);
      const double nn = tri.normal.norm();
      if (nn > 0.0) tri.normal /= nn;
      out->push_back(tri);
    }
  }
  qh_freeqhull(qh, !qh_ALL);
  int curlong = 0, totlong = 0;
  qh_memfreeshort(qh, &curlong, &totlong);
  std::fclose(errfile);
  if (exitcode != 0 && error) {
    *error = "qhull failed (exit code " + std::to_string(exitcode) + ")";
    if (errbuf != nullptr && errlen > 0) *error += ": " + std::string(errbuf, errlen);
  }
  std::free(errbuf);
  if (ok && out->empty()) {
    ok = false;
    if (error) *error = "qhull returned no facets";
  }
  return ok;
}

// ---------------------------------------------------------------------------
// Flat / lower-dimensional sets.
// ---------------------------------------------------------------------------
double cross2(const Eigen::Vector2d& o, const Eigen::Vector2d& a, const Eigen::Vector2d& b) {
  return (a.x() - o.x()) * (b.y() - o.y()) - (a.y() - o.y()) * (b.x() - o.x());
}

// Indices of the 2-D convex hull (Andrew's monotone chain, counter-clockwise,
// collinear points dropped).
std::vector<std::size_t> hull2d(const std::vector<Eigen::Vector2d>& pts) {
  std::vector<std::size_t> idx(pts.size());
  std::iota(idx.begin(), idx.end(), std::size_t{0});
  std::sort(idx.begin(), idx.end(), [&](std::size_t i, std::size_t j) {
    return pts[i].x() < pts[j].x() || (pts[i].x() == pts[j].x() && pts[i].y() < pts[j].y());
  });
  if (idx.size() < 3) return idx;
  std::vector<std::size_t> h(2 * idx.size());
  std::size_t k = 0;
  for (std::size_t i = 0; i < idx.size(); ++i) {  // lower hull
    while (k >= 2 && cross2(pts[h[k - 2]], pts[h[k - 1]], pts[idx[i]]) <= 0.0) --k;
    h[k++] = idx[i];
  }
  for (std::size_t i = idx.size() - 1, t = k + 1; i-- > 0;) {  // upper hull
    while (k >= t && cross2(pts[h[k - 2]], pts[h[k - 1]], pts[idx[i]]) <= 0.0) --k;
    h[k++] = idx[i];
  }
  h.resize(k - 1);
  return h;
}

struct Pca {
  Vector3d centroid;
  Eigen::Matrix3d axes;  // columns: ascending variance
  Vector3d extent;       // max |(p - c).axis_k|
  double max_abs = 0.0;  // max |coordinate|
};

Pca principal_axes(const std::vector<Vector3d>& pts) {
  Pca r;
  r.centroid.setZero();
  for (const auto& p : pts) r.centroid += p;
  r.centroid /= static_cast<double>(pts.size());
  Eigen::Matrix3d cov = Eigen::Matrix3d::Zero();
  for (const auto& p : pts) {
    const Vector3d q = p - r.centroid;
    cov += q * q.transpose();
    r.max_abs = std::max(r.max_abs, p.cwiseAbs().maxCoeff());
  }
  Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> es(cov);
  r.axes = es.eigenvectors();
  r.extent.setZero();
  for (const auto& p : pts) {
    const Vector3d q = r.axes.transpose() * (p - r.centroid);
    r.extent = r.extent.cwiseMax(q.cwiseAbs());
  }
  return r;
}

// Distance from the origin to a set of rank <= 2 (flat polygon, segment or
// point).  Always >= 0: a flat set has no interior.
double flat_distance(const std::vector<Vector3d>& pts, const Pca& pca, double tol,
                     Vector3d* closest) {
  const Vector3d u = pca.axes.col(2);
  const Vector3d v = pca.axes.col(1);
  auto finish = [&](const Vector3d& q) {
    if (closest) *closest = q;
    return q.norm();
  };
  if (pca.extent(2) <= tol) return finish(pts.front());  // a point
  auto segment = [&]() {
    std::size_t imin = 0, imax = 0;
    double smin = std::numeric_limits<double>::infinity(), smax = -smin;
    for (std::size_t i = 0; i < pts.size(); ++i) {
      const double s = (pts[i] - pca.centroid).dot(u);
      if (s < smin) smin = s, imin = i;
      if (s > smax) smax = s, imax = i;
    }
    return finish(closest_point_on_segment(Vector3d::Zero(), pts[imin], pts[imax]));
  };
  if (pca.extent(1) <= tol) return segment();
  std::vector<Eigen::Vector2d> p2(pts.size());
  for (std::size_t i = 0; i < pts.size(); ++i) {
    const Vector3d q = pts[i] - pca.centroid;
    p2[i] = Eigen::Vector2d(q.dot(u), q.dot(v));
  }
  const std::vector<std::size_t> h = hull2d(p2);
  if (h.size() < 3) return segment();
  Vector3d best = pts[h[0]];
  double best2 = best.squaredNorm();
  for (std::size_t i = 1; i + 1 < h.size(); ++i) {
    const Vector3d q = closest_point_on_triangle(Vector3d::Zero(), pts[h[0]], pts[h[i]], pts[h[i + 1]]);
    if (q.squaredNorm() < best2) best2 = q.squaredNorm(), best = q;
  }
  return finish(best);
}

// Signed distance from the origin to conv(pts).  `support` (optional) gives
// exact support values of the set; otherwise the facet vertices are used.
double signed_distance_to_origin(const std::vector<Vector3d>& pts, const SupportValue& support,
                                 Vector3d* closest) {
  if (pts.empty()) throw std::invalid_argument("oracle: empty point set");
  for (const auto& p : pts) {
    if (!p.allFinite()) throw std::invalid_argument("oracle: non-finite coordinate");
  }
  const Pca pca = principal_axes(pts);
  // Absolute rounding level of the coordinates, and relative flatness level.
  const double round_tol = 64.0 * kEps * std::max(pca.max_abs, 1e-300);
  const double flat_tol = round_tol + 1e-12 * pca.extent(2);
  if (pts.size() < 4 || pca.extent(0) <= flat_tol) {
    return flat_distance(pts, pca, flat_tol, closest);
  }

  std::vector<Triangle> tris;
  std::string err;
  if (!qhull_triangles(pts, &tris, &err)) {
    // qhull refuses nearly flat inputs; accept the flat model if the
    // thickness is negligible, otherwise report the failure.
    if (pca.extent(0) <= round_tol + 1e-9 * pca.extent(2)) {
      return flat_distance(pts, pca, pca.extent(0) * 2.0, closest);
    }
    throw std::runtime_error("proxima::oracle: " + err);
  }

  // Plane offsets h_f (plane n_f . x = h_f, outward unit normal n_f).
  double min_h = std::numeric_limits<double>::infinity();
  std::size_t min_f = 0;
  for (std::size_t f = 0; f < tris.size(); ++f) {
    const Triangle& t = tris[f];
    double h;
    if (support) {
      h = support(t.normal);
    } else {
      h = std::max({t.normal.dot(t.v[0]), t.normal.dot(t.v[1]), t.normal.dot(t.v[2])});
    }
    if (h < min_h) min_h = h, min_f = f;
  }

  if (min_h >= 0.0) {
    // Origin inside (or on) C: distance to the boundary is the distance to
    // the nearest facet plane; its foot point lies on that facet.
    if (closest) *closest = min_h * tris[min_f].normal;
    return min_h > 0.0 ? -min_h : 0.0;
  }

  // Origin outside: exact distance = min over boundary triangles.
  Vector3d best = Vector3d::Zero();
  double best2 = std::numeric_limits<double>::infinity();
  for (const Triangle& t : tris) {
    const Vector3d q = closest_point_on_triangle(Vector3d::Zero(), t.v[0], t.v[1], t.v[2]);
    const double d2 = q.squaredNorm();
    if (d2 < best2) best2 = d2, best = q;
  }
  if (closest) *closest = best;
  return std::sqrt(best2);
}

}  // namespace

double minkowski_signed_distance(const std::vector<Eigen::Vector3d>& a_world_vertices,
                                 const std::vector<Eigen::Vector3d>& b_world_vertices,
                                 Eigen::Vector3d* closest) {
  if (a_world_vertices.empty() || b_world_vertices.empty()) {
    throw std::invalid_argument("proxima::oracle::minkowski_signed_distance: empty vertex set");
  }
  std::vector<Vector3d> diff;
  diff.reserve(a_world_vertices.size() * b_world_vertices.size());
  for (const auto& a : a_world_vertices) {
    for (const auto& b : b_world_vertices) diff.push_back(a - b);
  }
  // Exact support value of C = A - B: h_C(n) = max_i a_i.n - min_j b_j.n.
  const SupportValue support = [&](const Vector3d& n) {
    double ha = -std::numeric_limits<double>::infinity();
    double lb = std::numeric_limits<double>::infinity();
    for (const auto& a : a_world_vertices) ha = std::max(ha, a.dot(n));
    for (const auto& b : b_world_vertices) lb = std::min(lb, b.dot(n));
    return ha - lb;
  };
  return signed_distance_to_origin(diff, support, closest);
}

double hull_signed_distance(const std::vector<Eigen::Vector3d>& points,
                            const Eigen::Vector3d& query, Eigen::Vector3d* closest) {
  std::vector<Vector3d> shifted;
  shifted.reserve(points.size());
  for (const auto& p : points) shifted.push_back(p - query);
  const SupportValue support = [&](const Vector3d& n) {
    double h = -std::numeric_limits<double>::infinity();
    for (const auto& p : shifted) h = std::max(h, p.dot(n));
    return h;
  };
  // Exact support values cost O(|points|) per facet; only use them when cheap.
  const bool exact = points.size() <= 4096;
  const double d = signed_distance_to_origin(shifted, exact ? support : SupportValue{}, closest);
  if (closest) *closest += query;
  return d;
}

double hull_ray_exit(const std::vector<Vector3d>& points, const Vector3d& d) {
  if (points.size() < 4) throw std::invalid_argument("hull_ray_exit: a 3-D hull needs at least 4 points");
  std::vector<Triangle> facets;
  std::string error;
  if (!qhull_triangles(points, &facets, &error)) throw std::runtime_error("hull_ray_exit: " + error);
  double best = std::numeric_limits<double>::infinity();
  for (const Triangle& f : facets) {
    const double nd = f.normal.dot(d);
    // The offset from the facet's own vertices (the plane through them).
    if (nd > 1e-15) best = std::min(best, f.normal.dot(f.v[0]) / nd);
  }
  return best;
}

}  // namespace proxima::oracle
