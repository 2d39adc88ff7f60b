// SPDX-License-Identifier: BSD-3-Clause
// Mesh queries on two triangle soups built from arbitrary numbers (or a
// soup against a convex shape), at arbitrary poses: collide, distance,
// tolerance, BLEM contacts and time of impact, over every BVH volume and
// node test. The promises (mesh/mesh_queries.hpp, mesh_contacts.hpp): a
// mesh or a proxima::Error; queries that never throw or return NaN and
// agree with each other (collide exactly when the distance is 0, tolerance
// with the distance) and with an oracle that shares no code with them: the
// distance is at most that of any vertex to any triangle of the other soup
// (tests/oracle's closest point on a triangle), less the margins.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include <proxima/core/error.hpp>
#include <proxima/mesh/bvh.hpp>
#include <proxima/mesh/mesh_contacts.hpp>
#include <proxima/mesh/mesh_queries.hpp>
#include <proxima/mesh/mesh_time_of_impact.hpp>
#include <proxima/shape/box.hpp>
#include <proxima/shape/capsule.hpp>
#include <proxima/shape/sphere.hpp>

#include "fuzz_input.hpp"
#include "oracle_geometry.hpp"

namespace {

using namespace proxima;
using fuzz::broken;

std::optional<TriangleMesh> make_mesh(fuzz::Input& in) {
  std::vector<Vec3> v(3 + in.below(10));
  for (Vec3& p : v) {
    const double x = in.number(), y = in.number(), z = in.number();
    p = Vec3(x, y, z);
  }
  std::vector<TriangleIndices> t(1 + in.below(12));
  const auto n = static_cast<unsigned>(v.size());
  for (TriangleIndices& f : t) f = {in.below(n), in.below(n), in.below(n)};
  const double margin = in.byte() < 160 ? 0.0 : in.size();
  try {
    return TriangleMesh(std::move(v), std::move(t), margin);
  } catch (const Error&) {
    return std::nullopt;
  }
}

Transform make_pose(fuzz::Input& in) {
  const double w = in.number(), x = in.number(), y = in.number(), z = in.number(), px = in.number(),
               py = in.number(), pz = in.number();
  try {
    return Transform::from_quaternion(w, x, y, z, Vec3(px, py, pz));
  } catch (const Error&) {
    return Transform::identity();
  }
}

std::vector<Vec3> placed(const TriangleMesh& m, const Transform& t) {
  std::vector<Vec3> out;
  for (const Vec3& p : m.vertices()) out.push_back(t.apply(p));
  return out;
}

// Smallest distance from a corner of a triangle of one soup to a triangle
// of the other (vertices no triangle uses are not part of the surface): an
// upper bound on the soups' distance.
double vertex_triangle_bound(const TriangleMesh& a, const std::vector<Vec3>& wa, const TriangleMesh& b,
                             const std::vector<Vec3>& wb) {
  double best = std::numeric_limits<double>::infinity();
  auto sweep = [&](const TriangleMesh& m, const std::vector<Vec3>& wm, const TriangleMesh& other,
                   const std::vector<Vec3>& wo) {
    for (const auto& f : m.triangles())
      for (const auto& g : other.triangles())
        for (int k = 0; k < 3; ++k) {
          const Vec3& p = wo[g[k]];
          best = std::min(best, (oracle::closest_point_on_triangle(p, wm[f[0]], wm[f[1]], wm[f[2]]) - p).norm());
        }
  };
  sweep(b, wb, a, wa);
  sweep(a, wa, b, wb);
  return best;
}

// PROXIMA_FUZZ_VERBOSE=1: what the input decoded to, for triage.
void describe(const char* name, const TriangleMesh& m, const Transform& t) {
  if (!std::getenv("PROXIMA_FUZZ_VERBOSE")) return;
  std::fprintf(stderr, "%s: margin %.17g, p %.17g %.17g %.17g\n", name, m.margin(), t.p.x(), t.p.y(), t.p.z());
  for (int r = 0; r < 3; ++r) std::fprintf(stderr, "  R %.17g %.17g %.17g\n", t.R(r, 0), t.R(r, 1), t.R(r, 2));
  for (const Vec3& v : m.vertices()) std::fprintf(stderr, "  v %.17g %.17g %.17g\n", v.x(), v.y(), v.z());
  for (const auto& f : m.triangles()) std::fprintf(stderr, "  f %u %u %u\n", f[0], f[1], f[2]);
}

double extent(const TriangleMesh& m) {
  const Aabb box = m.local_aabb();
  return (box.max - box.min).maxCoeff();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Input in(data, size);
  const std::optional<TriangleMesh> ma = make_mesh(in);
  if (!ma) return 0;
  BvhOptions bo;
  bo.volume = static_cast<BvhVolume>(in.below(3));
  bo.leaf_size = 1 + static_cast<int>(in.below(8));
  const Bvh a(*ma, bo);
  const Transform ta = make_pose(in), ta_end = make_pose(in);
  MeshRequest req;
  req.node_test = in.byte() < 128 ? NodeTest::obb : NodeTest::aabb;
  MeshContactOptions copt;
  copt.cluster = in.byte() < 128;
  copt.margin = in.byte() < 200 ? 0.0 : in.size();
  ContactSet contacts;

  if (in.byte() < 64) {  // against a convex shape
    std::optional<Shape> b;
    try {
      switch (in.below(3)) {
        case 0: b.emplace(Sphere(in.size())); break;
        case 1: { const double r = in.size(), l = in.size(); b.emplace(Capsule(r, l)); break; }
        default: { const double x = in.size(), y = in.size(), z = in.size(); b.emplace(Box(x, y, z)); break; }
      }
    } catch (const Error&) {
      return 0;
    }
    const Transform tb = make_pose(in);
    const MeshDistanceResult d = distance(a, ta, *b, tb, req);
    const MeshCollideResult c = collide(a, ta, *b, tb, req);
    if (d.status == Status::ok && !(d.distance >= 0.0 && std::isfinite(d.distance))) broken("mesh–convex distance");
    if (d.status == Status::ok && c.status == Status::ok && c.collide != (d.distance <= 0.0)) {
      const double slack = 1e-9 * (1.0 + ta.p.norm() + tb.p.norm() + extent(*ma));
      if (d.distance > slack) broken("mesh–convex collide against distance", std::to_string(d.distance));
    }
    mesh_contacts(a, ta, *b, tb, copt, contacts);
    for (const Contact& k : contacts.points)
      if (!k.point.allFinite() || !k.normal.allFinite() || !std::isfinite(k.depth)) broken("mesh–convex contact");
    return 0;
  }

  const std::optional<TriangleMesh> mb = make_mesh(in);
  if (!mb) return 0;
  const Bvh b(*mb, bo);
  const Transform tb = make_pose(in), tb_end = make_pose(in);
  describe("A", *ma, ta);
  describe("B", *mb, tb);
  const MeshDistanceResult d = distance(a, ta, b, tb, req);
  const MeshCollideResult c = collide(a, ta, b, tb, req);
  if (std::getenv("PROXIMA_FUZZ_VERBOSE"))
    std::fprintf(stderr, "volume %d leaf %d node test %d: distance %.17g (tri %lld %lld) collide %d\n", int(bo.volume),
                 bo.leaf_size, int(req.node_test), d.distance, static_cast<long long>(d.triangle_a),
                 static_cast<long long>(d.triangle_b), int(c.collide));
  const MeshToleranceResult tol = tolerance(a, ta, b, tb, 0.01, req);
  if (d.status != Status::ok) return 0;
  if (!(d.distance >= 0.0 && std::isfinite(d.distance)) || !d.point_a.allFinite() || !d.point_b.allFinite())
    broken("mesh distance", std::to_string(d.distance));
  const double radii = ma->margin() + mb->margin();
  const double scale = 1.0 + ta.p.norm() + tb.p.norm() + extent(*ma) + extent(*mb) + radii;
  const double slack = 1e-9 * scale;
  const std::vector<Vec3> wa = placed(*ma, ta), wb = placed(*mb, tb);
  const double bound = std::max(0.0, vertex_triangle_bound(*ma, wa, *mb, wb) - radii);
  if (d.distance > bound + slack)
    broken("mesh distance above a vertex–triangle distance", std::to_string(d.distance) + " > " + std::to_string(bound));
  if (c.status == Status::ok && c.collide != (d.distance <= 0.0) && d.distance > slack)
    broken("mesh collide against distance", std::to_string(d.distance));
  if (tol.status == Status::ok && tol.within != (d.distance <= 0.01) && std::abs(d.distance - 0.01) > slack)
    broken("mesh tolerance against distance", std::to_string(d.distance));

  mesh_contacts(a, ta, b, tb, copt, contacts);
  if (contacts.status == Status::ok) {
    for (const Contact& k : contacts.points)
      if (!k.point.allFinite() || !k.normal.allFinite() || !std::isfinite(k.depth)) broken("mesh contact");
    // Contacts exist exactly when some pair is within the layers (+ margin).
    if (!contacts.points.empty() && d.distance > copt.margin + slack)
      broken("mesh contacts for a pair apart", std::to_string(d.distance));
  }

  TimeOfImpactRequest treq;
  treq.max_iterations = 100;
  const MeshTimeOfImpactResult t = time_of_impact(a, ta, ta_end, b, tb, tb_end, treq);
  if (t.status == Status::ok && !(t.time >= 0.0 && t.time <= 1.0)) broken("mesh time of impact", std::to_string(t.time));
  if (t.status == Status::ok && d.distance <= 0.0 && !(t.collide && t.time == 0.0))
    broken("mesh time of impact misses an overlap at t = 0");
  return 0;
}
