// SPDX-License-Identifier: BSD-3-Clause
#include "hull.hpp"

#include <cstdio>
#include <map>
#include <stdexcept>
#include <string>

extern "C" {
#include <libqhull_r/qhull_ra.h>
}

namespace proxima::bench::detail {
namespace {

using Vec = std::array<double, 3>;

Vec sub(const Vec& a, const Vec& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
Vec cross(const Vec& a, const Vec& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
double dot(const Vec& a, const Vec& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

// qhull's own vertex order depends on facet->toporient; re-deriving the
// winding from an interior point is simpler and cannot get it backwards.
void orient_outward(TriangleHull& hull) {
  Vec centre{};
  for (const Vec& v : hull.vertices)
    for (int k = 0; k < 3; ++k) centre[k] += v[k] / static_cast<double>(hull.vertices.size());
  for (auto& t : hull.triangles) {
    const Vec& a = hull.vertices[t[0]];
    const Vec n = cross(sub(hull.vertices[t[1]], a), sub(hull.vertices[t[2]], a));
    if (dot(n, sub(a, centre)) < 0.0) std::swap(t[1], t[2]);
  }
}

}  // namespace

TriangleHull triangulate_hull(const std::vector<Vec>& points) {
  std::vector<coordT> coords;
  coords.reserve(points.size() * 3);
  for (const Vec& p : points) coords.insert(coords.end(), p.begin(), p.end());

  qhT qh_storage;
  qhT* qh = &qh_storage;
  qh_zero(qh, stderr);
  char command[] = "qhull Qt";  // qhull wants a mutable string
  const int status = qh_new_qhull(qh, 3, static_cast<int>(points.size()), coords.data(), False,
                                  command, nullptr, stderr);

  TriangleHull hull;
  if (status == 0) {
    // Compact to hull vertices only: FCL's hill-climbing support starts at
    // vertex 0 and would stall on a vertex that no face references.
    std::map<int, int> remap;
    vertexT* vertex;
    FORALLvertices {
      const int id = qh_pointid(qh, vertex->point);
      remap[id] = static_cast<int>(hull.vertices.size());
      hull.vertices.push_back(points[static_cast<std::size_t>(id)]);
    }
    facetT* facet;
    FORALLfacets {
      std::array<int, 3> tri{};
      int corner = 0;
      vertexT** vertexp;
      FOREACHvertex_(facet->vertices) {
        if (corner < 3) tri[corner] = remap.at(qh_pointid(qh, vertex->point));
        ++corner;
      }
      if (corner == 3) hull.triangles.push_back(tri);
    }
  }
  qh_freeqhull(qh, !qh_ALL);
  int curlong = 0;
  int totlong = 0;
  qh_memfreeshort(qh, &curlong, &totlong);
  if (status != 0 || hull.triangles.empty())
    throw std::runtime_error("qhull failed on a " + std::to_string(points.size()) + "-point set");
  orient_outward(hull);
  return hull;
}

}  // namespace proxima::bench::detail
