// SPDX-License-Identifier: BSD-3-Clause
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>

#include <ccd/ccd.h>
#include <ccd/config.h>

#include "convert.hpp"
#include "labels.hpp"
#include "peers.hpp"
#include "timing.hpp"

namespace proxima::bench {
namespace {

using Vec = std::array<double, 3>;

// Shape in world placement; libccd hands support functions a world direction.
struct Placed {
  const ShapeSpec* shape = nullptr;
  detail::Mat3 rot{};
  Vec pos{};
  Vec centre{};  // local interior point, for MPR
};

double norm(const Vec& v) { return std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }
double sign(double v) { return v < 0.0 ? -1.0 : 1.0; }

Vec local_support(const ShapeSpec& s, const Vec& d) {
  const double n = norm(d);
  const Vec u = n > 0.0 ? Vec{d[0] / n, d[1] / n, d[2] / n} : Vec{1.0, 0.0, 0.0};
  switch (s.kind) {
    case Kind::sphere: return {s.radius * u[0], s.radius * u[1], s.radius * u[2]};
    case Kind::capsule:
      return {s.radius * u[0], s.radius * u[1], sign(u[2]) * 0.5 * s.length + s.radius * u[2]};
    case Kind::cylinder: {
      const double rho = std::hypot(u[0], u[1]);
      const double scale = rho > 0.0 ? s.radius / rho : 0.0;
      return {scale * u[0], scale * u[1], sign(u[2]) * 0.5 * s.length};
    }
    case Kind::box:
      return {sign(u[0]) * 0.5 * s.size[0], sign(u[1]) * 0.5 * s.size[1],
              sign(u[2]) * 0.5 * s.size[2]};
    case Kind::ellipsoid: {
      // argmax over the ellipsoid of <x, u> is R^2 u / |R u| with R = diag(radii).
      const Vec ru{s.radii[0] * u[0], s.radii[1] * u[1], s.radii[2] * u[2]};
      const double m = norm(ru);
      return {s.radii[0] * ru[0] / m, s.radii[1] * ru[1] / m, s.radii[2] * ru[2] / m};
    }
    case Kind::convex: {
      double best = -std::numeric_limits<double>::infinity();
      Vec arg{};
      for (const Vec& p : s.points) {
        const double h = p[0] * u[0] + p[1] * u[1] + p[2] * u[2];
        if (h > best) {
          best = h;
          arg = p;
        }
      }
      return arg;
    }
    case Kind::halfspace: break;  // unbounded: not given to this adapter (ODE alone takes halfspaces)
  }
  return {};
}

void support(const void* obj, const ccd_vec3_t* dir, ccd_vec3_t* out) {
  const Placed& o = *static_cast<const Placed*>(obj);
  const auto& R = o.rot;
  const ccd_real_t* d = dir->v;
  const Vec local{R[0][0] * d[0] + R[1][0] * d[1] + R[2][0] * d[2],
                  R[0][1] * d[0] + R[1][1] * d[1] + R[2][1] * d[2],
                  R[0][2] * d[0] + R[1][2] * d[1] + R[2][2] * d[2]};
  const Vec s = local_support(*o.shape, local);
  for (int k = 0; k < 3; ++k)
    out->v[k] = static_cast<ccd_real_t>(o.pos[k] + R[k][0] * s[0] + R[k][1] * s[1] + R[k][2] * s[2]);
}

// MPR starts its portal from a point inside each shape. Every kind but a
// convex is centred on its local origin; a convex takes its vertex mean.
void centre(const void* obj, ccd_vec3_t* out) {
  const Placed& o = *static_cast<const Placed*>(obj);
  const auto& R = o.rot;
  const Vec& c = o.centre;
  for (int k = 0; k < 3; ++k)
    out->v[k] = static_cast<ccd_real_t>(o.pos[k] + R[k][0] * c[0] + R[k][1] * c[1] + R[k][2] * c[2]);
}

Vec local_centre(const ShapeSpec& s) {
  Vec c{};
  if (s.kind != Kind::convex || s.points.empty()) return c;
  for (const Vec& p : s.points)
    for (int k = 0; k < 3; ++k) c[k] += p[k] / static_cast<double>(s.points.size());
  return c;
}

void place(Placed& o, const Pose& pose) {
  o.rot = detail::rotation(pose);
  o.pos = pose.p;
}

using PenetrationFn = int (*)(const void*, const void*, const ccd_t*, ccd_real_t*, ccd_vec3_t*,
                              ccd_vec3_t*);

// Both libccd penetration queries share one signature and one convention:
// translating obj2 (B) by depth * dir separates, so B-to-A is -dir.
PeerCell run_depth(const Workload& work, int repeats, PenetrationFn penetration, const char* label) {
  PeerCell cell;
  cell.library = detail::ccd_library();
  cell.solver = label;
  Placed a{&work.a, {}, {}, local_centre(work.a)};
  Placed b{&work.b, {}, {}, local_centre(work.b)};
  ccd_t ccd;
  CCD_INIT(&ccd);
  ccd.support1 = support;
  ccd.support2 = support;
  ccd.center1 = centre;
  ccd.center2 = centre;
  ccd.max_iterations = 1000;
  int separated = 0;
  detail::measure(
      work, repeats, cell,
      [&](std::size_t i) {
        place(a, work.pose_a[i]);
        place(b, work.pose_b[i]);
      },
      [&] {
        ccd_real_t depth = 0;
        ccd_vec3_t dir{};
        ccd_vec3_t pos{};
        detail::Depth out;
        if (penetration(&a, &b, &ccd, &depth, &dir, &pos) != 0) {
          ++separated;
          return out;
        }
        out.distance = -static_cast<double>(depth);
        const Vec n{-static_cast<double>(dir.v[0]), -static_cast<double>(dir.v[1]),
                    -static_cast<double>(dir.v[2])};
        const double len = norm(n);
        // libccd's dir is unit length except for touching contact (zero).
        if (len > 0.0) out.normal = {n[0] / len, n[1] / len, n[2] / len};
        return out;
      });
  // Only the untimed query of a failed pose counts: timed ones run after success.
  if (separated > 0)
    detail::append_note(cell, std::to_string(separated) + " of " + std::to_string(cell.distances.size()) +
                                  " poses reported separated by libccd (NaN, counted as failures)");
  return cell;
}

}  // namespace

// libccd exports no version; 2.1 is what Debian ships (its ccd.pc says 2.0).
std::string detail::ccd_library() {
#ifdef CCD_DOUBLE
  return "libccd 2.1 (double)";
#else
  return "libccd 2.1 (float)";
#endif
}

PeerCell run_libccd(const Workload& work, int repeats) {
  PeerCell cell;
  cell.library = detail::ccd_library();
  cell.solver = detail::ccd_solver;
  Placed a{&work.a, {}, {}, {}};
  Placed b{&work.b, {}, {}, {}};
  ccd_t ccd;
  CCD_INIT(&ccd);
  ccd.support1 = support;
  ccd.support2 = support;
  // The default is unbounded; a degenerate input must not hang the run.
  ccd.max_iterations = 1000;

  int separated = 0;
  detail::measure(
      work, repeats, cell,
      [&](std::size_t i) {
        place(a, work.pose_a[i]);
        place(b, work.pose_b[i]);
        ccd_vec3_t probe{};
        ccd_vec3_t pos{};
        ccd_real_t depth = 0;
        if (ccdGJKPenetration(&a, &b, &ccd, &depth, &probe, &pos) == -1) ++separated;
      },
      [&] {
        ccd_real_t depth = 0;
        ccd_vec3_t dir{};
        ccd_vec3_t pos{};
        const int status = ccdGJKPenetration(&a, &b, &ccd, &depth, &dir, &pos);
        return status == 0 ? -static_cast<double>(depth) : std::numeric_limits<double>::quiet_NaN();
      });
  if (separated > 0 && static_cast<std::size_t>(separated) == cell.distances.size()) {
    cell.supported = false;
    cell.failures = 0;
    cell.median_ns = 0.0;
    detail::append_note(cell, "libccd has no separation-distance query; all poses are separated");
  } else if (separated > 0) {
    detail::append_note(cell, std::to_string(separated) + " of " + std::to_string(cell.distances.size()) +
                                  " poses are separated: no libccd distance (NaN, counted as failures)");
  }
  return cell;
}

PeerCell run_ccd_gjk_depth(const Workload& work, int repeats) {
  return run_depth(work, repeats, ccdGJKPenetration, detail::ccd_gjk_depth_solver);
}

PeerCell run_ccd_mpr_depth(const Workload& work, int repeats) {
  return run_depth(work, repeats, ccdMPRPenetration, detail::ccd_mpr_depth_solver);
}

}  // namespace proxima::bench
