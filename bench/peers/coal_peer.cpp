// SPDX-License-Identifier: BSD-3-Clause
// Coal (the successor of hpp-fcl, PyPI libcoal) as a distance and
// penetration-depth peer. Built only when CMake finds Coal in the project's
// virtual environment (PROXIMA_HAVE_COAL), into a library of its own.
//
// Coal at its best for repeated queries on one shape pair: a
// coal::ComputeDistance / coal::ComputeCollision functor is built once per
// workload (it resolves the pair's function and keeps its GJK solver), and
// every query calls it with the two transforms. Its GJK/EPA runs with the
// default GJK settings and the EPA iteration cap raised from 64 to 128
// (detail::coal_epa_iterations): at 64, EPA stops early on the polytope(2000)
// depth workload, up to 5.7e-3 m and 63° off (300 poses, seed 2027); at 128
// its worst is 2.6e-7 m, as at 256 and 512, where EPA's tolerance (1e-6,
// the default) rules. A larger cap costs time on every EPA call (Coal's EPA
// readies a face list the size of the cap): box–box depth took 2.6 µs at
// 64 and 5.3 µs at 1000.
#include <array>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <coal/collision.h>
#include <coal/config.hh>
#include <coal/distance.h>
#include <coal/shape/convex.h>
#include <coal/shape/geometric_shapes.h>

#include "coal_api.hpp"
#include "convert.hpp"
#include "labels.hpp"
#include "peers.hpp"
#include "timing.hpp"

namespace proxima::bench {
namespace {

constexpr std::size_t epa_iterations = detail::coal_epa_iterations;

std::shared_ptr<coal::CollisionGeometry> make_geometry(const ShapeSpec& s) {
  switch (s.kind) {
    case Kind::sphere: return std::make_shared<coal::Sphere>(s.radius);
    // Coal's capsule and cylinder take the full length along z, as ours.
    case Kind::capsule: return std::make_shared<coal::Capsule>(s.radius, s.length);
    case Kind::cylinder: return std::make_shared<coal::Cylinder>(s.radius, s.length);
    case Kind::box: return std::make_shared<coal::Box>(s.size[0], s.size[1], s.size[2]);
    case Kind::ellipsoid: return std::make_shared<coal::Ellipsoid>(s.radii[0], s.radii[1], s.radii[2]);
    case Kind::convex: {
      // Coal's own hull (its qhull), triangles kept: Coal builds the vertex
      // neighbours its hill-climbing support uses from them.
      auto points = std::make_shared<std::vector<coal::Vec3s>>();
      for (const auto& v : s.points) points->emplace_back(v[0], v[1], v[2]);
      return std::shared_ptr<coal::CollisionGeometry>(
          coal::ConvexBase::convexHull(points, static_cast<unsigned>(points->size()), /*keepTriangles=*/true));
    }
    case Kind::halfspace: break;  // not given to this adapter (ODE alone takes halfspaces)
  }
  throw std::invalid_argument("unsupported shape kind");
}

coal::Transform3s to_coal(const Pose& pose) {
  const auto [w, x, y, z] = detail::unit_wxyz(pose);
  return coal::Transform3s(coal::Quatf(w, x, y, z), coal::Vec3s(pose.p[0], pose.p[1], pose.p[2]));
}

struct Geometries {
  std::shared_ptr<coal::CollisionGeometry> a, b;
};

bool build(const Workload& work, PeerCell& cell, Geometries& out) {
  try {
    out.a = make_geometry(work.a);
    out.b = make_geometry(work.b);
  } catch (const std::exception& e) {
    cell.supported = false;
    cell.note = std::string("shape construction failed: ") + e.what();
    return false;
  }
  return true;
}

PeerCell start_cell(const char* solver) {
  PeerCell cell;
  cell.library = detail::coal_library();
  cell.solver = solver;
  return cell;
}

// One ComputeDistance per workload; a query is the functor's call with the
// two transforms (set untimed, as for every peer) and a fresh result.
template <class Answer>
PeerCell run_distance(const Workload& work, int repeats, const char* solver, Answer&& answer) {
  PeerCell cell = start_cell(solver);
  Geometries g;
  if (!build(work, cell, g)) return cell;
  const coal::ComputeDistance compute(g.a.get(), g.b.get());
  coal::DistanceRequest request;  // signed distance and nearest points on
  request.epa_max_iterations = epa_iterations;
  coal::Transform3s ta, tb;
  detail::measure(
      work, repeats, cell,
      [&](std::size_t i) {
        ta = to_coal(work.pose_a[i]);
        tb = to_coal(work.pose_b[i]);
      },
      [&] {
        coal::DistanceResult result;
        compute(ta, tb, request, result);
        return answer(result);
      });
  return cell;
}

}  // namespace

PeerCell coal_side::distance(const Workload& work, int repeats) {
  return run_distance(work, repeats, detail::coal_distance_solver,
                      [](const coal::DistanceResult& r) { return r.min_distance; });
}

// Coal's DistanceResult::normal points from o1 (A) to o2 (B): B-to-A is its
// negative; min_distance is already signed (negative = -depth).
PeerCell coal_side::signed_distance(const Workload& work, int repeats) {
  return run_distance(work, repeats, detail::coal_signed_solver, [](const coal::DistanceResult& r) {
    detail::Depth out;
    out.distance = r.min_distance;
    out.normal = {-r.normal[0], -r.normal[1], -r.normal[2]};
    return out;
  });
}

// One ComputeCollision per workload, one contact requested. Coal 3's
// Contact::penetration_depth is the signed distance d (negative on overlap;
// translating A by d * normal separates), kept as is; its normal points
// from o1 (A) to o2 (B), so B-to-A is its negative.
PeerCell coal_side::contact(const Workload& work, int repeats) {
  PeerCell cell = start_cell(detail::coal_contact_solver);
  Geometries g;
  if (!build(work, cell, g)) return cell;
  const coal::ComputeCollision compute(g.a.get(), g.b.get());
  coal::CollisionRequest request(coal::CONTACT, /*num_max_contacts=*/1);
  request.epa_max_iterations = epa_iterations;
  coal::Transform3s ta, tb;
  int no_contact = 0;
  const auto query = [&](bool inspect) {
    coal::CollisionResult result;
    compute(ta, tb, request, result);
    detail::Depth out;
    if (!result.isCollision()) {
      if (inspect) ++no_contact;
      return out;
    }
    const coal::Contact& c = result.getContact(0);
    out.distance = c.penetration_depth;
    out.normal = {-c.normal[0], -c.normal[1], -c.normal[2]};
    return out;
  };
  detail::measure(
      work, repeats, cell,
      [&](std::size_t i) {
        ta = to_coal(work.pose_a[i]);
        tb = to_coal(work.pose_b[i]);
        query(true);
      },
      [&] { return query(false); });
  if (no_contact > 0)
    detail::append_note(cell, std::to_string(no_contact) + " of " + std::to_string(cell.distances.size()) +
                                  " poses gave no contact (NaN, counted as failures)");
  return cell;
}

}  // namespace proxima::bench

extern "C" const proxima::bench::CoalApi* proxima_bench_coal_api() {
  using namespace proxima::bench;
  static const CoalApi api{coal_side::distance, coal_side::signed_distance, coal_side::contact,
                           make_coal_mesh_pair};
  return &api;
}
