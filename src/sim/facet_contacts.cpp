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

const Shape* convex_of(const FacetSide& b) { return b.geometry ? b.geometry->convex() : nullptr; }

const TriangleMesh* mesh_of(const FacetSide& b) {
  const Bvh* bvh = b.geometry ? b.geometry->mesh() : nullptr;
  return bvh ? &bvh->mesh() : nullptr;
}

bool has_facets(const FacetSide& b) {
  if (mesh_of(b) != nullptr) return true;
  const Shape* s = convex_of(b);
  if (s == nullptr) return false;
  if (s->type() == ShapeType::box) return true;
  return s->type() == ShapeType::convex && s->as<ConvexPolytope>().data().dimension == 3;
}

// A sphere (one rounded vertex) or a polyhedron: a box, a solid polytope or
// a mesh (its corners, the margin their radius).
bool has_vertices(const FacetSide& b) {
  const Shape* s = convex_of(b);
  return has_facets(b) || (s != nullptr && s->type() == ShapeType::sphere);
}

// World vertices of a mesh, box or polytope into `out`; its margin returned.
double corners(const FacetSide& b, std::vector<Vec3>& out) {
  out.clear();
  if (const TriangleMesh* m = mesh_of(b)) {
    for (const Vec3& v : m->vertices()) out.push_back(b.pose.apply(v));
    return m->margin();
  }
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
double facets(const FacetSide& b, FacetScratch& s) {
  const double margin = corners(b, s.vertices);
  s.normals.clear();
  s.offsets.clear();
  s.loop_begin.assign(1, 0);
  s.loop.clear();
  if (const TriangleMesh* m = mesh_of(b)) {
    // Outward normals: (b − a) × (c − a), turned for an inward mesh; an
    // open mesh (a floor) is taken as given. Degenerate triangles have no
    // plane and are skipped (their neighbours cover them).
    const double sign = m->orientation() < 0 ? -1.0 : 1.0;
    for (const TriangleIndices& t : m->triangles()) {
      const Vec3& p0 = s.vertices[static_cast<std::size_t>(t[0])];
      const Vec3 n = sign * (s.vertices[static_cast<std::size_t>(t[1])] - p0).cross(s.vertices[static_cast<std::size_t>(t[2])] - p0);
      const double len = n.norm();
      if (!(len > 0.0)) continue;
      s.normals.push_back(n / len);
      s.offsets.push_back(s.normals.back().dot(p0));
      for (int k = 0; k < 3; ++k) s.loop.push_back(static_cast<int>(t[static_cast<std::size_t>(k)]));
      s.loop_begin.push_back(static_cast<int>(s.loop.size()));
    }
    return margin;
  }
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
void vertex_facet_rows(const FacetSide& v, const FacetSide& f, double eps, double sign, FacetScratch& s) {
  const double facet_margin = facets(f, s);
  // The vertex side: one rounded vertex (a sphere: its centre and radius)
  // or its corners (with the margin as radius).
  double radius = 0.0;
  const Shape* vs = convex_of(v);
  if (vs != nullptr && vs->type() == ShapeType::sphere) {
    radius = vs->as<Sphere>().radius() + vs->as<Sphere>().margin();
    s.own.assign(1, v.pose.p);
  } else {
    radius = corners(v, s.own);
  }
  const int faces = static_cast<int>(s.normals.size());
  const bool mesh = mesh_of(f) != nullptr;
  for (const Vec3& p : s.own) {
    // Facets within eps of this vertex.
    s.near.clear();
    for (int k = 0; k < faces; ++k) {
      const Vec3& n = s.normals[static_cast<std::size_t>(k)];
      const int begin = s.loop_begin[static_cast<std::size_t>(k)];
      const int size = s.loop_begin[static_cast<std::size_t>(k) + 1] - begin;
      if (polygon_distance(p, n, s.vertices, s.loop.data() + begin, size) - radius - facet_margin <= eps)
        s.near.push_back(k);
    }
    if (s.near.empty()) continue;
    // Groups: a convex body's facets are one piece. A mesh's are split into
    // the pieces its concave edges bound: two near triangles sharing an
    // edge belong together when the edge is convex or flat seen from the
    // solid (the second's far corner not in front of the first's plane),
    // i.e. when they bound one region the vertex may be outside of through
    // either. A valley (concave edge) keeps its two sides apart, each a
    // constraint of its own.
    s.label.assign(s.near.size(), 0);
    for (std::size_t i = 0; i < s.near.size(); ++i) s.label[i] = static_cast<int>(i);
    if (mesh) {
      const auto find = [&](int i) {
        while (s.label[static_cast<std::size_t>(i)] != i) i = s.label[static_cast<std::size_t>(i)];
        return i;
      };
      for (std::size_t i = 0; i < s.near.size(); ++i)
        for (std::size_t j = i + 1; j < s.near.size(); ++j) {
          const int* ti = s.loop.data() + s.loop_begin[static_cast<std::size_t>(s.near[i])];
          const int* tj = s.loop.data() + s.loop_begin[static_cast<std::size_t>(s.near[j])];
          int shared = 0, far = -1;
          for (int a = 0; a < 3; ++a) {
            const bool in = tj[a] == ti[0] || tj[a] == ti[1] || tj[a] == ti[2];
            shared += in ? 1 : 0;
            if (!in) far = tj[a];
          }
          if (shared != 2) continue;
          const Vec3& n = s.normals[static_cast<std::size_t>(s.near[i])];
          const Vec3& on = s.vertices[static_cast<std::size_t>(ti[0])];
          const Vec3& w = s.vertices[static_cast<std::size_t>(far)];
          const double scale = (w - on).norm();
          if (n.dot(w - on) <= 1e-9 * scale) s.label[static_cast<std::size_t>(find(static_cast<int>(j)))] = find(static_cast<int>(i));
        }
      for (std::size_t i = 0; i < s.near.size(); ++i) s.label[i] = find(static_cast<int>(i));
    } else {
      s.label.assign(s.near.size(), 0);
    }
    // Rows group by group (labels are the group's first member).
    for (std::size_t g = 0; g < s.near.size(); ++g) {
      if (s.label[g] != static_cast<int>(g)) continue;
      for (std::size_t i = g; i < s.near.size(); ++i) {
        if (s.label[i] != static_cast<int>(g)) continue;
        const int k = s.near[i];
        const Vec3& n = s.normals[static_cast<std::size_t>(k)];
        FacetRow& r = s.rows.emplace_back();
        r.point = p - radius * n;
        r.normal = sign * n;
        r.psi = n.dot(p) - s.offsets[static_cast<std::size_t>(k)] - radius - facet_margin;
      }
      s.group_begin.push_back(static_cast<int>(s.rows.size()));
      s.group_partial.push_back(mesh ? 1 : 0);
    }
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

// PEG's rows are a vertex (the paper's particle, a sphere, a body's
// corners) against the facets of an obstacle. Between two moving polyhedra
// they miss the edge–edge contacts: a pusher's edge across a box's edge has
// no vertex of either inside the other's face, and the pusher went through
// the box; stacked boxes and mesh cubes, twisted or offset, fell through
// each other. Such pairs keep their closest-feature manifolds, which are
// exact for them; a pair with a static side or a sphere takes PEG's rows.
bool peg_pair(const FacetSide& a, bool a_static, const FacetSide& b, bool b_static) {
  const auto sphere = [](const FacetSide& x) {
    const Shape* s = convex_of(x);
    return s != nullptr && s->type() == ShapeType::sphere;
  };
  return a_static || b_static || sphere(a) || sphere(b);
}

PegGroup peg_group(const FacetScratch& s, std::size_t g, double contact_margin) {
  // The max runs over the facets the vertex is in front of at the step's
  // start (ψ ≥ −slop, the slop being the contact margin, so that a vertex
  // resting on coplanar tile tops, ψ = −1e−12 by rounding, still counts as
  // in front of the next tile's top): through those it can leave the
  // piece's neighbourhood without crossing the piece. A facet well behind
  // the vertex (the vertical face of a sawtooth tooth seen from its ramp)
  // constrains nothing until the vertex is near its front, so the extended
  // half-space never pushes; and a vertex moving farther in a step than the
  // piece is thick cannot satisfy the max through the far side's facet
  // (with every facet in the max it did: the particle left a hill through
  // its bottom at Δt = 0.1 s). A vertex deeper than the slop behind every
  // facet is pushed out through the shallowest.
  const std::vector<FacetRow>& rows = s.rows;
  const std::size_t begin = static_cast<std::size_t>(s.group_begin[g]);
  const std::size_t end = static_cast<std::size_t>(s.group_begin[g + 1]);
  PegGroup out;
  double top = -std::numeric_limits<double>::infinity();
  for (std::size_t k = begin; k < end; ++k) top = std::max(top, rows[k].psi);
  const double slop = std::max(contact_margin, 1e-9);
  // A mesh's group is only the triangles near the vertex, not a whole
  // piece: behind all of them (the bottom of a sawtooth mesh seen from
  // above, within ε) is not inside the solid, and they constrain nothing.
  if (s.group_partial[g] != 0 && top < -slop) return out;
  out.keep = top < -slop ? top : -slop;
  // One facet pushes (the paper's G_n): the closest one to the vertex
  // (least |ψ| of those kept: a touching facet before one ahead). The
  // others only decide, through their slacks, when the max has moved to
  // them. (Two other choices were tried and dropped: the facet with the
  // largest ψ at the end of an unconstrained step picks, for a fast
  // vertex, a facet it never meets; the facet whose plane it would cross
  // last picks the side face of the next tile for a box vertex sliding
  // along coplanar tile tops, and its push tipped the box.)
  std::size_t active = end;
  for (std::size_t k = begin; k < end; ++k)
    if (rows[k].psi >= out.keep && (active == end || std::abs(rows[k].psi) < std::abs(rows[active].psi))) active = k;
  out.active = static_cast<int>(active);
  return out;
}

bool facet_rows(const FacetSide& a, const FacetSide& b, double eps, FacetScratch& s) {
  s.rows.clear();
  s.group_begin.assign(1, 0);
  s.group_partial.clear();
  const bool b_faces = has_facets(b) && has_vertices(a);
  const bool a_faces = has_facets(a) && has_vertices(b);
  if (!a_faces && !b_faces) return false;
  // Normals B→A: a facet of B points from B to A as it is; one of A turns.
  if (b_faces) vertex_facet_rows(a, b, eps, 1.0, s);
  if (a_faces) vertex_facet_rows(b, a, eps, -1.0, s);
  return true;
}

}  // namespace proxima::sim::detail
