// SPDX-License-Identifier: BSD-3-Clause
#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>

#include <fcl/config.h>
#include <fcl/fcl.h>

#include "convert.hpp"
#include "hull.hpp"
#include "labels.hpp"
#include "manifold.hpp"
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
    case Kind::halfspace: break;  // not given to this adapter (ODE alone takes halfspaces)
  }
  throw std::invalid_argument("unsupported shape kind");
}

fcl::Transform3d to_fcl(const Pose& pose) {
  const auto [w, x, y, z] = detail::unit_wxyz(pose);
  fcl::Transform3d tf = fcl::Transform3d::Identity();
  tf.linear() = fcl::Quaterniond(w, x, y, z).toRotationMatrix();
  tf.translation() = fcl::Vector3d(pose.p[0], pose.p[1], pose.p[2]);
  return tf;
}

struct Objects {
  std::unique_ptr<fcl::CollisionObjectd> a;
  std::unique_ptr<fcl::CollisionObjectd> b;
};

bool build(const Workload& work, PeerCell& cell, Objects& out) {
  try {
    out.a = std::make_unique<fcl::CollisionObjectd>(make_geometry(work.a));
    out.b = std::make_unique<fcl::CollisionObjectd>(make_geometry(work.b));
  } catch (const std::exception& e) {
    cell.supported = false;
    cell.note = std::string("shape construction failed: ") + e.what();
    return false;
  }
  return true;
}

PeerCell run_fcl(const Workload& work, int repeats, fcl::GJKSolverType solver, const char* label) {
  PeerCell cell;
  cell.library = detail::fcl_library();
  cell.solver = label;
  Objects o;
  if (!build(work, cell, o)) return cell;
  const auto& a = o.a;
  const auto& b = o.b;
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

// Signed distance on every pose. FCL returns no normal; the nearest points
// give one: p_a - p_b points from B to A when separated and from A to B when
// overlapping (p_a is then A's deepest point inside B), so dividing by the
// signed distance yields the B-to-A direction either way.
PeerCell run_fcl_signed(const Workload& work, int repeats, fcl::GJKSolverType solver, const char* label) {
  PeerCell cell;
  cell.library = detail::fcl_library();
  cell.solver = label;
  Objects o;
  if (!build(work, cell, o)) return cell;
  fcl::DistanceRequestd request(/*enable_nearest_points=*/true);
  request.gjk_solver_type = solver;
  request.enable_signed_distance = true;
  detail::measure(
      work, repeats, cell,
      [&](std::size_t i) {
        o.a->setTransform(to_fcl(work.pose_a[i]));
        o.b->setTransform(to_fcl(work.pose_b[i]));
      },
      [&] {
        fcl::DistanceResultd result;
        fcl::distance(o.a.get(), o.b.get(), request, result);
        detail::Depth out;
        out.distance = result.min_distance;
        const fcl::Vector3d n = (result.nearest_points[0] - result.nearest_points[1]) / result.min_distance;
        if (std::isfinite(n.norm()) && std::abs(n.norm() - 1.0) < 1e-6) out.normal = {n[0], n[1], n[2]};
        return out;
      });
  detail::append_note(cell, "normal derived from the nearest points");
  std::size_t no_normal = 0;
  for (std::size_t i = 0; i < cell.distances.size(); ++i)
    no_normal += std::isfinite(cell.distances[i]) && !std::isfinite(cell.normals[i][0]);
  // GST_INDEP, overlapping: both nearest points are the one contact point.
  if (no_normal > 0)
    detail::append_note(cell, "nearest points not |distance| apart on " + std::to_string(no_normal) + " of " +
                                  std::to_string(cell.distances.size()) + " poses (normal NaN)");
  return cell;
}

// FCL documents Contact::normal as pointing from o1 to o2: B-to-A is its negative.
PeerCell run_fcl_contact(const Workload& work, int repeats, fcl::GJKSolverType solver, const char* label) {
  PeerCell cell;
  cell.library = detail::fcl_library();
  cell.solver = label;
  Objects o;
  if (!build(work, cell, o)) return cell;
  fcl::CollisionRequestd request(/*num_max_contacts=*/16, /*enable_contact=*/true);
  request.gjk_solver_type = solver;
  int no_contact = 0;
  int deeper_later = 0;
  int negative_depth = 0;
  const auto query = [&](bool inspect) {
    fcl::CollisionResultd result;
    fcl::collide(o.a.get(), o.b.get(), request, result);
    detail::Depth out;
    if (result.numContacts() == 0) {
      if (inspect) ++no_contact;
      return out;
    }
    const fcl::Contactd& first = result.getContact(0);
    out.distance = -first.penetration_depth;
    out.normal = {-first.normal[0], -first.normal[1], -first.normal[2]};
    if (inspect) {
      negative_depth += first.penetration_depth < 0.0;
      for (std::size_t k = 1; k < result.numContacts(); ++k)
        if (result.getContact(k).penetration_depth > first.penetration_depth + 1e-9) {
          ++deeper_later;
          break;
        }
    }
    return out;
  };
  detail::measure(
      work, repeats, cell,
      [&](std::size_t i) {
        o.a->setTransform(to_fcl(work.pose_a[i]));
        o.b->setTransform(to_fcl(work.pose_b[i]));
        query(true);
      },
      [&] { return query(false); });
  if (no_contact > 0)
    detail::append_note(cell, std::to_string(no_contact) + " of " + std::to_string(cell.distances.size()) +
                                  " poses gave no contact (NaN, counted as failures)");
  if (negative_depth > 0)
    detail::append_note(cell, "penetration_depth < 0 on " + std::to_string(negative_depth) + " of " +
                                  std::to_string(cell.distances.size()) + " poses (reported as given)");
  if (deeper_later > 0)
    detail::append_note(cell, "on " + std::to_string(deeper_later) +
                                  " poses a later contact is deeper than the first (first reported)");
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

PeerCell run_fcl_libccd_signed(const Workload& work, int repeats) {
  return run_fcl_signed(work, repeats, fcl::GST_LIBCCD, detail::fcl_libccd_signed_solver);
}

PeerCell run_fcl_indep_signed(const Workload& work, int repeats) {
  return run_fcl_signed(work, repeats, fcl::GST_INDEP, detail::fcl_indep_signed_solver);
}

PeerCell run_fcl_libccd_contact(const Workload& work, int repeats) {
  return run_fcl_contact(work, repeats, fcl::GST_LIBCCD, detail::fcl_libccd_contact_solver);
}

PeerCell run_fcl_indep_contact(const Workload& work, int repeats) {
  return run_fcl_contact(work, repeats, fcl::GST_INDEP, detail::fcl_indep_contact_solver);
}

// FCL's conventions: Contact::normal points from o1 (A) to o2 (B), so the
// B-to-A normal is its negative; penetration_depth is positive on overlap
// (kept); Contact::pos is already midway: FCL 0.7's boxBox2 shifts the
// clipped points by half the depth onto the mid-surface, and the GJK/EPA path
// reports libccd's pos, the mean of the two witness points. Every point of a
// box-box manifold carries the same normal; the deepest point's is used.
ManifoldCell run_fcl_manifold(const Workload& work, int repeats) {
  ManifoldCell cell;
  cell.library = detail::fcl_library();
  cell.solver = detail::fcl_manifold_solver;
  Objects o;
  PeerCell unsupported;
  if (!build(work, unsupported, o)) {
    cell.supported = false;
    cell.note = unsupported.note;
    return cell;
  }
  fcl::CollisionRequestd request(/*num_max_contacts=*/16, /*enable_contact=*/true);
  request.gjk_solver_type = fcl::GST_LIBCCD;
  fcl::CollisionResultd result;
  int negative_depth = 0;
  detail::measure_manifold(
      work, repeats, cell,
      [&](std::size_t i) {
        o.a->setTransform(to_fcl(work.pose_a[i]));
        o.b->setTransform(to_fcl(work.pose_b[i]));
      },
      [&] {
        result.clear();
        fcl::collide(o.a.get(), o.b.get(), request, result);
        return result.numContacts();
      },
      [&](Manifold& m) {
        const std::size_t n = result.numContacts();
        if (n == 0) return false;
        std::size_t deepest = 0;
        bool negative = false;
        for (std::size_t k = 0; k < n; ++k) {
          const fcl::Contactd& c = result.getContact(k);
          m.points.push_back({{c.pos[0], c.pos[1], c.pos[2]}, c.penetration_depth});
          if (c.penetration_depth > result.getContact(deepest).penetration_depth) deepest = k;
          negative = negative || c.penetration_depth < 0.0;
        }
        negative_depth += negative;
        const fcl::Vector3d& normal = result.getContact(deepest).normal;
        m.normal = {-normal[0], -normal[1], -normal[2]};
        return true;
      });
  if (negative_depth > 0)
    detail::append_note(cell, "penetration_depth < 0 on " + std::to_string(negative_depth) + " poses (kept as given)");
  return cell;
}

}  // namespace proxima::bench
