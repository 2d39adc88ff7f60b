// SPDX-License-Identifier: BSD-3-Clause
// Vertex–facet rows of a body pair (facet_contacts.hpp). The paper's
// particle is a vertex; a small sphere is a vertex with a radius, so its
// point of contact with facet n is the centre moved by −radius·n.
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include <proxima/mesh/triangle_distance.hpp>

#include "facet_contacts.hpp"

namespace proxima::sim::detail {

namespace {

// Corners of a box by sign bits (bit k set: +half extent on axis k) and its
// faces as loops around them.
constexpr std::array<std::array<int, 4>, 6> kBoxFaces{{{0, 2, 6, 4}, {1, 3, 7, 5}, {0, 1, 5, 4},
                                                       {2, 3, 7, 6}, {0, 1, 3, 2}, {4, 5, 7, 6}}};

const Shape* convex_of(const Body& b) { return b.geometry ? b.geometry->convex() : nullptr; }

bool has_facets(const Body& b) {
  const Shape* s = convex_of(b);
  if (s == nullptr) return false;
  if (s->type() == ShapeType::box) return true;
  return s->type() == ShapeType::convex && s->as<ConvexPolytope>().data().dimension == 3;
}

bool has_vertices(const Body& b) {
  const Shape* s = convex_of(b);
  return s != nullptr && (s->type() == ShapeType::sphere || has_facets(b));
}

// World vertices of a box or polytope into `out`; its margin returned.
double corners(const Body& b, std::vector<Vec3>& out) {
  out.clear();
  const Shape& s = *convex_of(b);
  if (s.type() == ShapeType::box) {
    const Box& box = s.as<Box>();
    const Vec3 h = box.half_extents();
    for (int i = 0; i < 8; ++i)
      out.push_back(b.pose.apply(Vec3((i & 1) ? h.x() : -h.x(), (i & 2) ? h.y() : -h.y(), (i & 4) ? h.z() : -h.z())));
    return box.margin();
  }
  const ConvexPolytope& p = s.as<ConvexPolytope>();
  for (const Vec3& v : p.vertices()) out.push_back(b.pose.apply(v));
  return p.margin();
}

// The facets of a box or polytope: world normals and core offsets (n·x on
// the face), loops into s.vertices. Returns the margin.
double facets(const Body& b, FacetScratch& s) {
  const double margin = corners(b, s.vertices);
  s.normals.clear();
  s.offsets.clear();
  s.loop_begin.assign(1, 0);
  s.loop.clear();
  const Shape& shape = *convex_of(b);
  if (shape.type() == ShapeType::box) {
    for (std::size_t f = 0; f < kBoxFaces.size(); ++f) {
      const int axis = static_cast<int>(f / 2);
      const Vec3 n = (f % 2 == 0 ? -1.0 : 1.0) * b.pose.R.col(axis);
      s.normals.push_back(n);
      s.offsets.push_back(n.dot(s.vertices[static_cast<std::size_t>(kBoxFaces[f][0])]));
      for (const int v : kBoxFaces[f]) s.loop.push_back(v);
      s.loop_begin.push_back(static_cast<int>(s.loop.size()));
    }
    return margin;
  }
  const PolytopeData& d = shape.as<ConvexPolytope>().data();
  for (std::size_t f = 0; f < d.faces.size(); ++f) {
    const Vec3 n = b.pose.R * d.face_normals[f];
    s.normals.push_back(n);
    s.offsets.push_back(n.dot(s.vertices[static_cast<std::size_t>(d.faces[f][0])]));
    for (const int v : d.faces[f]) s.loop.push_back(v);
    s.loop_begin.push_back(static_cast<int>(s.loop.size()));
  }
  return margin;
}

// Rows of the vertices of `v` against the facets of `f`, normals times `sign`.
void vertex_facet_rows(const Body& v, const Body& f, double eps, double sign, FacetScratch& s) {
  const double facet_margin = facets(f, s);
  // The vertex side: one rounded vertex (a sphere: its centre and radius)
  // or its corners (with the margin as radius).
  double radius = 0.0;
  const Shape& vs = *convex_of(v);
  if (vs.type() == ShapeType::sphere) {
    radius = vs.as<Sphere>().radius() + vs.as<Sphere>().margin();
    s.own.assign(1, v.pose.p);
  } else {
    radius = corners(v, s.own);
  }
  const int faces = static_cast<int>(s.normals.size());
  for (const Vec3& p : s.own) {
    const std::size_t before = s.rows.size();
    for (int k = 0; k < faces; ++k) {
      const Vec3& n = s.normals[static_cast<std::size_t>(k)];
      const int begin = s.loop_begin[static_cast<std::size_t>(k)];
      const int size = s.loop_begin[static_cast<std::size_t>(k) + 1] - begin;
      const double d = polygon_distance(p, n, s.vertices, s.loop.data() + begin, size) - radius - facet_margin;
      if (d > eps) continue;
      FacetRow& r = s.rows.emplace_back();
      r.point = p - radius * n;
      r.normal = sign * n;
      r.psi = n.dot(p) - s.offsets[static_cast<std::size_t>(k)] - radius - facet_margin;
    }
    if (s.rows.size() > before) s.group_begin.push_back(static_cast<int>(s.rows.size()));
  }
}

}  // namespace

double polygon_distance(const Vec3& x, const Vec3& n, const std::vector<Vec3>& vertices, const int* loop, int size) {
  // Inside the prism over the polygon when x is on the same side of every
  // edge (either orientation of the loop): the distance is the plane's.
  bool pos = true, neg = true;
  double edge = std::numeric_limits<double>::infinity();
  const Vec3& p0 = vertices[static_cast<std::size_t>(loop[0])];
  for (int i = 0; i < size; ++i) {
    const Vec3& p = vertices[static_cast<std::size_t>(loop[i])];
    const Vec3& q = vertices[static_cast<std::size_t>(loop[(i + 1) % size])];
    const double side = (q - p).cross(x - p).dot(n);
    pos = pos && side >= 0.0;
    neg = neg && side <= 0.0;
    edge = std::min(edge, (x - mesh::closest_on_segment(x, p, q)).norm());
  }
  return pos || neg ? std::abs(n.dot(x - p0)) : edge;
}

bool facet_rows(const Body& a, const Body& b, double eps, FacetScratch& s) {
  s.rows.clear();
  s.group_begin.assign(1, 0);
  const bool b_faces = has_facets(b) && has_vertices(a);
  const bool a_faces = has_facets(a) && has_vertices(b);
  if (!a_faces && !b_faces) return false;
  // Normals B→A: a facet of B points from B to A as it is; one of A turns.
  if (b_faces) vertex_facet_rows(a, b, eps, 1.0, s);
  if (a_faces) vertex_facet_rows(b, a, eps, -1.0, s);
  return true;
}

}  // namespace proxima::sim::detail
