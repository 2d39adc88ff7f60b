// SPDX-License-Identifier: BSD-3-Clause
// ODE's dCollide as a penetration-depth peer. Built only when pkg-config finds
// a double-precision ODE (PROXIMA_HAVE_ODE).
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <ode/ode.h>
#include <ode/version.h>

#include "convert.hpp"
#include "hull.hpp"
#include "labels.hpp"
#include "manifold.hpp"
#include "peers.hpp"
#include "timing.hpp"

#ifndef dDOUBLE
#error "the ODE peer expects a double-precision ODE (pkg-config variable precision=dDOUBLE)"
#endif

namespace proxima::bench {
namespace {

using Vec = std::array<double, 3>;

// dInitODE2 once per process, dCloseODE at its normal exit. A forked child
// inherits the initialised library (and _exits without closing it).
void ensure_ode() {
  struct Runtime {
    Runtime() {
      dInitODE2(0);
      dAllocateODEDataForThread(dAllocateMaskAll);
    }
    ~Runtime() { dCloseODE(); }
  };
  static const Runtime runtime;
}

Vec sub(const Vec& a, const Vec& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
Vec cross(const Vec& a, const Vec& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
double dot(const Vec& a, const Vec& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

// dCreateConvex keeps pointers to its arrays, so they live as long as the geom.
// Faces are the hull's coplanar triangles merged into one polygon each:
// ODE's convex colliders treat every polygon edge as a real edge.
struct ConvexData {
  std::vector<dReal> planes;   // (nx, ny, nz, d) with n . x = d on the face, n outward
  std::vector<dReal> points;   // x, y, z
  std::vector<unsigned> polygons;  // count, then that many indices, counter-clockwise from outside
};

ConvexData convex_data(const std::vector<Vec>& input) {
  const detail::TriangleHull hull = detail::triangulate_hull(input);
  ConvexData out;
  for (const Vec& v : hull.vertices) out.points.insert(out.points.end(), v.begin(), v.end());
  struct Face {
    Vec n;
    double d;
    std::vector<int> vertices;
  };
  std::vector<Face> faces;
  for (const auto& t : hull.triangles) {
    const Vec& p0 = hull.vertices[t[0]];
    Vec n = cross(sub(hull.vertices[t[1]], p0), sub(hull.vertices[t[2]], p0));
    const double len = std::sqrt(dot(n, n));
    for (double& c : n) c /= len;
    const double d = dot(n, p0);
    auto same = std::find_if(faces.begin(), faces.end(), [&](const Face& f) {
      return dot(f.n, n) > 1.0 - 1e-9 && std::fabs(f.d - d) < 1e-9;
    });
    if (same == faces.end()) {
      faces.push_back({n, d, {}});
      same = faces.end() - 1;
    }
    for (int k : t)
      if (std::find(same->vertices.begin(), same->vertices.end(), k) == same->vertices.end())
        same->vertices.push_back(k);
  }
  for (Face& f : faces) {
    // A convex face: order its vertices by angle about their mean, counter-
    // clockwise seen from outside (i.e. about +n).
    Vec c{};
    for (int k : f.vertices)
      for (int j = 0; j < 3; ++j) c[j] += hull.vertices[k][j] / static_cast<double>(f.vertices.size());
    const Vec e1 = sub(hull.vertices[f.vertices[0]], c);
    const Vec e2 = cross(f.n, e1);
    std::map<double, int> by_angle;
    for (int k : f.vertices) {
      const Vec r = sub(hull.vertices[k], c);
      by_angle.emplace(std::atan2(dot(r, e2), dot(r, e1)), k);
    }
    out.planes.insert(out.planes.end(), {f.n[0], f.n[1], f.n[2], f.d});
    out.polygons.push_back(static_cast<unsigned>(by_angle.size()));
    for (const auto& [angle, k] : by_angle) out.polygons.push_back(static_cast<unsigned>(k));
  }
  return out;
}

struct Geom {
  dGeomID id = nullptr;
  std::unique_ptr<ConvexData> convex;  // kept alive for the convex geom
  Vec centre{};                        // local interior point, for the support probe
  Geom() = default;
  Geom(const Geom&) = delete;
  Geom& operator=(const Geom&) = delete;
  ~Geom() {
    if (id != nullptr) dGeomDestroy(id);
  }
};

// Returns false for the ellipsoid, which ODE does not have.
bool make_geom(const ShapeSpec& s, Geom& g) {
  switch (s.kind) {
    case Kind::sphere: g.id = dCreateSphere(nullptr, s.radius); return true;
    case Kind::capsule: g.id = dCreateCapsule(nullptr, s.radius, s.length); return true;
    case Kind::cylinder: g.id = dCreateCylinder(nullptr, s.radius, s.length); return true;
    case Kind::box: g.id = dCreateBox(nullptr, s.size[0], s.size[1], s.size[2]); return true;
    case Kind::ellipsoid: return false;
    // A plane geom is not placeable: it stays {x : n·x = offset} in world
    // coordinates, which is why halfspace workloads keep B at the identity.
    case Kind::halfspace:
      g.id = dCreatePlane(nullptr, s.normal[0], s.normal[1], s.normal[2], s.offset);
      return true;
    case Kind::convex: {
      g.convex = std::make_unique<ConvexData>(convex_data(s.points));
      const ConvexData& c = *g.convex;
      g.id = dCreateConvex(nullptr, c.planes.data(), static_cast<unsigned>(c.planes.size() / 4),
                           c.points.data(), static_cast<unsigned>(c.points.size() / 3), c.polygons.data());
      for (const Vec& p : s.points)
        for (int k = 0; k < 3; ++k) g.centre[k] += p[k] / static_cast<double>(s.points.size());
      return true;
    }
  }
  return false;
}

// Both geoms of a workload; an empty string, or why ODE cannot take them.
std::string make_geoms(const Workload& work, Geom& a, Geom& b) {
  try {
    if (!make_geom(work.a, a) || !make_geom(work.b, b)) return "ODE has no ellipsoid";
  } catch (const std::exception& e) {
    return std::string("shape construction failed: ") + e.what();
  }
  return {};
}

void place(dGeomID g, const Pose& pose) {
  if (dGeomGetClass(g) == dPlaneClass) return;  // not placeable; its workloads keep it at the identity
  const auto q = detail::unit_wxyz(pose);
  const dQuaternion dq{q[0], q[1], q[2], q[3]};  // ODE's quaternion is (w, x, y, z) too
  dGeomSetPosition(g, pose.p[0], pose.p[1], pose.p[2]);
  dGeomSetQuaternion(g, dq);
}

constexpr int max_contacts = 16;

using ContactBuffer = std::array<dContactGeom, max_contacts>;

// The deepest of dCollide(A, B)'s contacts. ODE's normal points into o1:
// moving A by depth along it removes the contact, which is B-to-A already.
// The buffer is the caller's, kept across calls as an ODE user keeps it:
// zeroing its 1.5 KB per call cost as much as a sphere pair's collider and
// was charged to ODE's time until 2026-11-22.
detail::Depth deepest(dGeomID a, dGeomID b, ContactBuffer& contacts) {
  const int n = dCollide(a, b, max_contacts, contacts.data(), sizeof(dContactGeom));
  detail::Depth out;
  if (n <= 0) return out;
  const dContactGeom* best = &contacts[0];
  for (int k = 1; k < n; ++k)
    if (contacts[k].depth > best->depth) best = &contacts[k];
  out.distance = -best->depth;
  out.normal = {best->normal[0], best->normal[1], best->normal[2]};
  return out;
}

}  // namespace

std::string detail::ode_library() { return std::string("ODE ") + dODE_VERSION + " (double)"; }

PeerCell run_ode(const Workload& work, int repeats) {
  PeerCell cell;
  cell.library = detail::ode_library();
  cell.solver = detail::ode_solver;
  ensure_ode();
  Geom a;
  Geom b;
  ContactBuffer contacts{};
  cell.note = make_geoms(work, a, b);
  if (!cell.note.empty()) {
    cell.supported = false;
    return cell;
  }
  // dCollide silently returns no contact for a class pair without a collider
  // (which pairs have one depends on how ODE was built; Debian's 0.16.2 has
  // every pair here). Two shapes sharing an interior point overlap, so no
  // contact there means no collider.
  {
    place(a.id, Pose{});
    place(b.id, Pose{{a.centre[0] - b.centre[0], a.centre[1] - b.centre[1], a.centre[2] - b.centre[2]}, {1, 0, 0, 0}});
    if (!std::isfinite(deepest(a.id, b.id, contacts).distance)) {
      cell.supported = false;
      cell.note = std::string("ODE has no ") + detail::kind_name(work.a.kind) + "-" +
                  detail::kind_name(work.b.kind) + " collider in this build (dCollide gives no contact)";
      return cell;
    }
  }
  int no_contact = 0;
  detail::measure(
      work, repeats, cell,
      [&](std::size_t i) {
        place(a.id, work.pose_a[i]);
        place(b.id, work.pose_b[i]);
      },
      [&] {
        const detail::Depth out = deepest(a.id, b.id, contacts);
        if (!std::isfinite(out.distance)) ++no_contact;
        return out;
      });
  if (no_contact > 0)
    detail::append_note(cell, std::to_string(no_contact) + " of " + std::to_string(cell.distances.size()) +
                                  " poses gave no contact (NaN, counted as failures)");
  return cell;
}

// ODE's conventions (dContactGeom): normal points into o1, i.e. from B to A
// (kept); depth is positive on overlap (kept). The position is kept as ODE
// gives it: dBoxBox reports the clipped vertices of the incident face, which
// lie on the incident box's surface (B's when A's face is the reference, A's
// otherwise; checked on tilted pairs), so it is not midway and which body it
// is on varies from pose to pose. The comparison projects it onto the contact
// plane. Every point of a box-box manifold carries the same normal; the
// deepest point's is used.
ManifoldCell run_ode_manifold(const Workload& work, int repeats) {
  ManifoldCell cell;
  cell.library = detail::ode_library();
  cell.solver = detail::ode_manifold_solver;
  ensure_ode();
  Geom a;
  Geom b;
  cell.note = make_geoms(work, a, b);
  if (!cell.note.empty()) {
    cell.supported = false;
    return cell;
  }
  ContactBuffer contacts{};
  int count = 0;
  const auto collide = [&] {
    count = dCollide(a.id, b.id, max_contacts, contacts.data(), sizeof(dContactGeom));
    return count;
  };
  // A class pair without a collider silently gives no contact: probe at a
  // pose where the shapes share an interior point (see run_ode).
  place(a.id, Pose{});
  place(b.id, Pose{{a.centre[0] - b.centre[0], a.centre[1] - b.centre[1], a.centre[2] - b.centre[2]}, {1, 0, 0, 0}});
  if (collide() <= 0) {
    cell.supported = false;
    cell.note = std::string("ODE has no ") + detail::kind_name(work.a.kind) + "-" + detail::kind_name(work.b.kind) +
                " collider in this build (dCollide gives no contact)";
    return cell;
  }
  int full = 0;
  detail::measure_manifold(
      work, repeats, cell,
      [&](std::size_t i) {
        place(a.id, work.pose_a[i]);
        place(b.id, work.pose_b[i]);
      },
      collide,
      [&](Manifold& m) {
        if (count <= 0) return false;
        full += count == max_contacts;
        int deepest = 0;
        for (int k = 0; k < count; ++k) {
          const dContactGeom& c = contacts[static_cast<std::size_t>(k)];
          m.points.push_back({{c.pos[0], c.pos[1], c.pos[2]}, c.depth});
          if (c.depth > contacts[static_cast<std::size_t>(deepest)].depth) deepest = k;
        }
        const dContactGeom& d = contacts[static_cast<std::size_t>(deepest)];
        m.normal = {d.normal[0], d.normal[1], d.normal[2]};
        return true;
      });
  if (full > 0)
    detail::append_note(cell, "the 16-contact buffer was full on " + std::to_string(full) + " poses");
  return cell;
}

Duel duel_ode(const Workload& work, int repeats, int rounds, void (*ours)(void* ctx, std::size_t i, int repeats),
              void* ctx) {
  Duel duel;
  ensure_ode();
  Geom a;
  Geom b;
  ContactBuffer contacts{};
  duel.note = make_geoms(work, a, b);
  if (!duel.note.empty()) return duel;
  using clock = std::chrono::steady_clock;
  const std::size_t poses = std::min(work.pose_a.size(), work.pose_b.size());
  repeats = std::max(repeats, 1);
  // The poses as ODE's setters take them, built before any timing (as the
  // Transforms Proxima's side is given are).
  struct Placement {
    dVector3 p;
    dMatrix3 R;
  };
  auto placement = [](const Pose& pose) {
    const auto q = detail::unit_wxyz(pose);
    const dQuaternion dq{q[0], q[1], q[2], q[3]};
    Placement out{};
    dQtoR(dq, out.R);
    for (int k = 0; k < 3; ++k) out.p[k] = pose.p[static_cast<std::size_t>(k)];
    return out;
  };
  std::vector<Placement> at_a, at_b;
  for (std::size_t i = 0; i < poses; ++i) {
    at_a.push_back(placement(work.pose_a[i]));
    at_b.push_back(placement(work.pose_b[i]));
  }
  auto set = [](dGeomID g, const Placement& x) {
    if (dGeomGetClass(g) == dPlaneClass) return;  // static: nothing to set
    dGeomSetPosition(g, x.p[0], x.p[1], x.p[2]);
    dGeomSetRotation(g, x.R);
  };
  std::vector<double> mine, theirs, placed, ratios, placed_ratios;
  double sink = 0.0;
  for (int r = 0; r < std::max(rounds, 1); ++r) {
    double t_ours = 0.0, t_ode = 0.0, t_placed = 0.0;
    for (std::size_t i = 0; i < poses; ++i) {
      const auto t0 = clock::now();
      ours(ctx, i, repeats);
      const auto t1 = clock::now();
      set(a.id, at_a[i]);
      set(b.id, at_b[i]);
      const auto t2 = clock::now();
      for (int k = 0; k < repeats; ++k) sink += deepest(a.id, b.id, contacts).distance;
      const auto t3 = clock::now();
      for (int k = 0; k < repeats; ++k) {
        set(a.id, at_a[i]);
        set(b.id, at_b[i]);
        sink += deepest(a.id, b.id, contacts).distance;
      }
      const auto t4 = clock::now();
      t_ours += std::chrono::duration<double, std::nano>(t1 - t0).count();
      t_ode += std::chrono::duration<double, std::nano>(t3 - t2).count();
      t_placed += std::chrono::duration<double, std::nano>(t4 - t3).count();
    }
    const double n = static_cast<double>(poses) * repeats;
    mine.push_back(t_ours / n);
    theirs.push_back(t_ode / n);
    placed.push_back(t_placed / n);
    ratios.push_back(t_ours / t_ode);
    placed_ratios.push_back(t_ours / t_placed);
  }
  detail::keep(sink);
  duel.supported = true;
  duel.proxima_ns = detail::median(mine);
  duel.ode_ns = detail::median(theirs);
  duel.ode_placed_ns = detail::median(placed);
  duel.ratio = detail::median(ratios);
  duel.ratio_lo = *std::min_element(ratios.begin(), ratios.end());
  duel.ratio_hi = *std::max_element(ratios.begin(), ratios.end());
  duel.placed_ratio = detail::median(placed_ratios);
  duel.placed_lo = *std::min_element(placed_ratios.begin(), placed_ratios.end());
  duel.placed_hi = *std::max_element(placed_ratios.begin(), placed_ratios.end());
  return duel;
}

}  // namespace proxima::bench
