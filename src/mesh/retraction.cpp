// SPDX-License-Identifier: BSD-3-Clause
#include "retraction.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace proxima::mesh::detail {

// For closed, oriented meshes the triangles are pieces of solids'
// boundaries, and only directions that move A out of B through b (no
// component against b's outward normal) and off a (none along a's outward
// normal) are candidates: the plain two-triangle depth would otherwise push
// A sideways past a small triangle, deeper into B. Directions within 0.01
// rad of a face's plane count as along it: a side face tilted by a
// nano-radian must not forbid lifting A straight off the face it has sunk
// into (the next allowed axis can be half a metre long).
void triangle_retraction(const Triangle& a, const Triangle& b, int orient_a, int orient_b,
                         std::span<const TrianglePair> neighbours, Vec3& dir, double& depth) {
  constexpr double kSlack = 1e-2;  // sin of the angle a direction may point into a face
  auto extent = [](const Triangle& t) {
    return std::max({t[0].cwiseAbs().maxCoeff(), t[1].cwiseAbs().maxCoeff(), t[2].cwiseAbs().maxCoeff()});
  };
  const double scale = std::max({extent(a), extent(b), 1e-300});
  const Vec3 ea[3] = {a[1] - a[0], a[2] - a[1], a[0] - a[2]};
  const Vec3 eb[3] = {b[1] - b[0], b[2] - b[1], b[0] - b[2]};
  auto outward = [](const Vec3& n, int orient) {
    const double len = n.norm();
    return orient != 0 && len > 0.0 ? Vec3(orient * n / len) : Vec3(Vec3::Zero());
  };
  const Vec3 out_a = outward(ea[0].cross(ea[1]), orient_a), out_b = outward(eb[0].cross(eb[1]), orient_b);
  double free_depth = std::numeric_limits<double>::infinity();
  Vec3 free_dir = Vec3::UnitZ();
  depth = std::numeric_limits<double>::infinity();
  dir = Vec3::UnitZ();
  auto consider = [&](const Vec3& u, double d) {
    if (d < free_depth) {
      free_depth = d;
      free_dir = u;
    }
    if (u.dot(out_b) >= -kSlack && u.dot(out_a) <= kSlack && d < depth) {
      depth = d;
      dir = u;
    }
  };
  // How far A's triangle x must move along +u to clear y's span, and along −u.
  auto spans = [](const Vec3& u, const Triangle& x, const Triangle& y, double& up, double& down) {
    double x_lo = u.dot(x[0]), x_hi = x_lo, y_lo = u.dot(y[0]), y_hi = y_lo;
    for (int k = 1; k < 3; ++k) {
      x_lo = std::min(x_lo, u.dot(x[k]));
      x_hi = std::max(x_hi, u.dot(x[k]));
      y_lo = std::min(y_lo, u.dot(y[k]));
      y_hi = std::max(y_hi, u.dot(y[k]));
    }
    up = std::max(0.0, y_hi - x_lo);
    down = std::max(0.0, x_hi - y_lo);
  };
  // Axes already tested (either sign): a neighbourhood on a flat or boxy
  // stretch repeats the same few normals many times.
  constexpr int kRemembered = 32;
  Vec3 tested[kRemembered];
  int n_tested = 0;
  auto test = [&](Vec3 u) {
    const double len = u.norm();
    if (!(len > 1e-12 * scale * scale)) return;
    u /= len;
    for (int k = 0; k < n_tested; ++k)
      if (std::abs(u.dot(tested[k])) >= 1.0 - 1e-12) return;
    if (n_tested < kRemembered) tested[n_tested++] = u;
    double up, down;
    spans(u, a, b, up, down);
    // Once both ways cost more than the best allowed axis so far, the rest
    // of the neighbourhood cannot make this one better.
    for (const TrianglePair& p : neighbours) {
      if (up > depth && down > depth) break;
      double up_n, down_n;
      spans(u, *p.a, *p.b, up_n, down_n);
      up = std::max(up, up_n);
      down = std::max(down, down_n);
    }
    consider(u, up);
    consider(-u, down);
  };
  // Face normals first: they are the likely answers, and a good one found
  // early cuts the other axes' scans short.
  const Vec3 na = ea[0].cross(ea[1]), nb = eb[0].cross(eb[1]);
  test(na);
  test(nb);
  for (const TrianglePair& p : neighbours) {
    const Triangle &x = *p.a, &y = *p.b;
    test((x[1] - x[0]).cross(x[2] - x[0]));
    test((y[1] - y[0]).cross(y[2] - y[0]));
  }
  for (const Vec3& x : ea)
    for (const Vec3& y : eb) test(x.cross(y));
  // In-plane edge normals: the axes that separate coplanar triangles (two
  // flush faces overlapping along a band), where every other axis is the
  // common normal. Only then: for crossing triangles they are not
  // separating axes of the pair, and one would slide A's triangle off b
  // across an edge b shares with its neighbour. Faces of closed meshes
  // side by side (outward normals the same way) count as coplanar within
  // the slack of the outward-normal test: two side faces of stacked cubes,
  // one twisted by 0.7 mrad and tilted by 7 µrad, overlap in a band 1 µm
  // high; without these axes the only short ones were the crossings of
  // their nearly parallel edges, whose direction (set by the tiny twist and
  // tilt) leant 0.01 out of the faces' plane, so the short way down was
  // refused and A was pushed up through B by 0.2 m (the 10-cube mesh stack
  // without layers exploded after 45 s so).
  const double crossed = na.cross(nb).squaredNorm(), normals = na.squaredNorm() * nb.squaredNorm();
  if (crossed <= 1e-12 * normals || (out_a.dot(out_b) > 0.0 && crossed <= kSlack * kSlack * normals)) {
    for (const Vec3& x : ea) test(na.cross(x));
    for (const Vec3& y : eb) test(nb.cross(y));
  }
  if (!std::isfinite(depth)) {
    depth = free_depth;
    dir = free_dir;
  }
  if (!std::isfinite(depth)) depth = 0.0;  // two coincident points: no axis at all
}

double advance_to_clear(const Triangle& a, const Triangle& b, const Vec3& u) {
  double a_lo = u.dot(a[0]), b_hi = u.dot(b[0]);
  for (int k = 1; k < 3; ++k) {
    a_lo = std::min(a_lo, u.dot(a[k]));
    b_hi = std::max(b_hi, u.dot(b[k]));
  }
  return std::max(0.0, b_hi - a_lo);
}

int crossing_points(const Triangle& a, const Triangle& b, Vec3 (&out)[6]) {
  int n = 0;
  // Where the edges of `t` pierce `face`'s triangle: each edge whose ends
  // lie on opposite sides of its plane, at the crossing, if inside.
  auto pierce = [&](const Triangle& t, const Triangle& face) {
    const Vec3 normal = (face[1] - face[0]).cross(face[2] - face[0]);
    const double nn = normal.squaredNorm();
    if (!(nn > 0.0)) return;
    double h[3];
    for (int k = 0; k < 3; ++k) h[k] = normal.dot(t[k] - face[0]);
    for (int k = 0; k < 3; ++k) {
      const int j = (k + 1) % 3;
      if ((h[k] > 0.0 && h[j] > 0.0) || (h[k] < 0.0 && h[j] < 0.0) || h[k] == h[j]) continue;
      const Vec3 x = t[k] + (t[j] - t[k]) * (h[k] / (h[k] - h[j]));
      // Inside: on the inner side of each edge of `face`, within a relative
      // 1e-12 (a crossing on a shared edge belongs to both neighbours).
      bool inside = true;
      for (int e = 0; e < 3 && inside; ++e) {
        const Vec3& p = face[e];
        const Vec3& q = face[(e + 1) % 3];
        inside = normal.dot((q - p).cross(x - p)) >= -1e-12 * nn;
      }
      if (inside && n < 6) out[n++] = x;
    }
  };
  pierce(a, b);
  pierce(b, a);
  return n;
}

bool convex_neighbours(const Triangle& t, const Vec3& out_t, const Triangle& u, const Vec3& out_u, double tol) {
  auto behind = [tol](const Triangle& face, const Vec3& out, const Triangle& other) {
    for (const Vec3& v : other)
      if (out.dot(v - face[0]) > tol) return false;
    return true;
  };
  return behind(t, out_t, u) && behind(u, out_u, t);
}

}  // namespace proxima::mesh::detail
