#include <memory>
#include <stdexcept>
#include <string>

#include <fcl/config.h>
#include <fcl/fcl.h>

#include "convert.hpp"
#include "hull.hpp"
#include "labels.hpp"
#include "peers.hpp"
#include "timing.hpp"

namespace proxima::bench {
namespace {

std::shared_ptr<fcl::CollisionGeometryd> make_geometry(const ShapeSpec& s) {
  switch (s.kind) {
    case Kind::sphere: return std::make_shared<fcl::Sphered>(s.radius);
    case Kind::capsule: return std::make_shared<fcl::Capsuled>(s.radius, s.length);
    case Kind::cylinder: return std::make_shared<fcl::Cylinderd>(s.radius, s.length);
    case Kind::box: return std::make_shared<fcl::Boxd>(s.size[0], s.size[1], s.size[2]);
    case Kind::ellipsoid:
      return std::make_shared<fcl::Ellipsoidd>(s.radii[0], s.radii[1], s.radii[2]);
    case Kind::convex: {
      const detail::TriangleHull hull = detail::triangulate_hull(s.points);
      auto vertices = std::make_shared<std::vector<fcl::Vector3d>>();
      for (const auto& v : hull.vertices) vertices->emplace_back(v[0], v[1], v[2]);
      auto faces = std::make_shared<std::vector<int>>();
      for (const auto& t : hull.triangles) faces->insert(faces->end(), {3, t[0], t[1], t[2]});
      return std::make_shared<fcl::Convexd>(vertices, static_cast<int>(hull.triangles.size()),
                                            faces, /*throw_if_invalid=*/true);
    }
  }
  throw std::invalid_argument("unknown shape kind");
}

fcl::Transform3d to_fcl(const Pose& pose) {
  const auto [w, x, y, z] = detail::unit_wxyz(pose);
  fcl::Transform3d tf = fcl::Transform3d::Identity();
  tf.linear() = fcl::Quaterniond(w, x, y, z).toRotationMatrix();
  tf.translation() = fcl::Vector3d(pose.p[0], pose.p[1], pose.p[2]);
  return tf;
}

PeerCell run_fcl(const Workload& work, int repeats, fcl::GJKSolverType solver, const char* label) {
  PeerCell cell;
  cell.library = detail::fcl_library();
  cell.solver = label;
  std::unique_ptr<fcl::CollisionObjectd> a;
  std::unique_ptr<fcl::CollisionObjectd> b;
  try {
    a = std::make_unique<fcl::CollisionObjectd>(make_geometry(work.a));
    b = std::make_unique<fcl::CollisionObjectd>(make_geometry(work.b));
  } catch (const std::exception& e) {
    cell.supported = false;
    cell.note = std::string("shape construction failed: ") + e.what();
    return cell;
  }
  // FCL's default (unsigned) request takes its closed-form paths for e.g.
  // sphere pairs, which the signed request bypasses, so that is what separated
  // poses use. Overlap makes the unsigned result "implementation defined
  // (mostly -1)"; such poses are re-run signed to get -depth.
  fcl::DistanceRequestd unsigned_request(/*enable_nearest_points=*/true);
  unsigned_request.gjk_solver_type = solver;
  fcl::DistanceRequestd signed_request = unsigned_request;
  signed_request.enable_signed_distance = true;
  const fcl::DistanceRequestd* request = &unsigned_request;
  auto query = [&] {
    fcl::DistanceResultd result;
    fcl::distance(a.get(), b.get(), *request, result);
    return result.min_distance;
  };
  int overlapping = 0;
  detail::measure(
      work, repeats, cell,
      [&](std::size_t i) {
        a->setTransform(to_fcl(work.pose_a[i]));
        b->setTransform(to_fcl(work.pose_b[i]));
        request = &unsigned_request;
        if (query() < 0.0) {
          request = &signed_request;
          ++overlapping;
        }
      },
      query);
  if (overlapping > 0)
    detail::append_note(cell, std::to_string(overlapping) + " of " + std::to_string(cell.distances.size()) +
                                  " poses overlap and ran with enable_signed_distance");
  return cell;
}

}  // namespace

std::string detail::fcl_library() { return std::string("FCL ") + FCL_VERSION; }

PeerCell run_fcl_libccd(const Workload& work, int repeats) {
  return run_fcl(work, repeats, fcl::GST_LIBCCD, detail::fcl_libccd_solver);
}

PeerCell run_fcl_indep(const Workload& work, int repeats) {
  return run_fcl(work, repeats, fcl::GST_INDEP, detail::fcl_indep_solver);
}

}  // namespace proxima::bench
