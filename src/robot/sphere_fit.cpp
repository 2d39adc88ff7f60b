// SPDX-License-Identifier: BSD-3-Clause
// fit_spheres: a shape's core as points and edges (a polytope's hull edges,
// a mesh's triangle edges, every pair of a primitive's few points), cut into
// slabs along its principal axis. A polytope cut by a slab is the hull of its
// vertices inside the slab and of the points where its edges cross the
// slab's two planes; a triangle's piece likewise. A ball around those points
// holds the piece (a ball is convex), and the core's inflation added to its
// radius holds the piece ⊕ ball(inflation): the union over the slabs holds
// the whole shape with its margin, whatever the points are.
#include <proxima/robot/sphere_prefilter.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <variant>

#include <Eigen/Eigenvalues>

#include <proxima/core/error.hpp>

namespace proxima::robot {

namespace {

// Added to every radius: covers the rounding of the fit itself and of two
// forward kinematics (the prefilter's and the exact check's) at coordinates
// within the prefilter's working range (1e3 m, where one rounding is below
// 1e-13 m and a chain of a few hundred operations below 1e-10 m).
constexpr double kRoundingAllowance = 1e-8;

// A convex core: points, the segments whose slab crossings the pieces need,
// and the radius every core point is inflated by.
struct Core {
  std::vector<Vec3> points;
  std::vector<std::array<int, 2>> edges;
  double inflation = 0.0;
};

// Every pair of points as an edge: a primitive's few points hold its core in
// their hull, and every hull edge is among the pairs.
void all_pairs(Core& core) {
  const int n = static_cast<int>(core.points.size());
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) core.edges.push_back({i, j});
}

void box_corners(const Vec3& lo, const Vec3& hi, Core& core) {
  for (int c = 0; c < 8; ++c)
    core.points.emplace_back((c & 1) ? hi.x() : lo.x(), (c & 2) ? hi.y() : lo.y(), (c & 4) ? hi.z() : lo.z());
  all_pairs(core);
}

// The core of a convex shape in its own frame; false for a halfspace.
bool shape_core(const Shape& shape, Core& core) {
  return std::visit(
      [&core](const auto& s) -> bool {
        using T = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<T, Halfspace>) {
          return false;
        } else if constexpr (std::is_same_v<T, Sphere>) {
          core.points.push_back(Vec3::Zero());
          core.inflation = s.core_inflation();
        } else if constexpr (std::is_same_v<T, Capsule>) {
          core.points.push_back(s.core_support(Vec3::UnitZ()));
          core.points.push_back(s.core_support(-Vec3::UnitZ()));
          all_pairs(core);
          core.inflation = s.core_inflation();
        } else if constexpr (std::is_same_v<T, Box>) {
          box_corners(-s.half_extents(), s.half_extents(), core);
          core.inflation = s.core_inflation();
        } else if constexpr (std::is_same_v<T, Cylinder>) {
          // Two regular 16-gons circumscribing the rims: their prism holds
          // the cylinder (a circumscribed polygon's vertices lie at
          // radius / cos(π / 16)).
          constexpr int kSides = 16;
          const double pi = std::acos(-1.0);
          const double r = s.radius() / std::cos(pi / kSides) * (1.0 + 1e-12);
          for (int i = 0; i < kSides; ++i) {
            const double a = 2.0 * pi * i / kSides;
            for (const double z : {-0.5 * s.length(), 0.5 * s.length()})
              core.points.emplace_back(r * std::cos(a), r * std::sin(a), z);
          }
          all_pairs(core);
          core.inflation = s.core_inflation();
        } else if constexpr (std::is_same_v<T, ConvexPolytope>) {
          core.points = s.vertices();
          core.edges = s.data().edges;
          core.inflation = s.core_inflation();
        } else {
          // Cones and ellipsoids: their bounds, margin included.
          const Aabb box = s.local_aabb();
          box_corners(box.min, box.max, core);
        }
        return true;
      },
      shape.variant());
}

void mesh_core(const TriangleMesh& mesh, Core& core) {
  core.points = mesh.vertices();
  for (const TriangleIndices& t : mesh.triangles())
    for (int e = 0; e < 3; ++e) {
      const auto a = static_cast<int>(t[static_cast<std::size_t>(e)]);
      const auto b = static_cast<int>(t[static_cast<std::size_t>((e + 1) % 3)]);
      core.edges.push_back({std::min(a, b), std::max(a, b)});
    }
  std::sort(core.edges.begin(), core.edges.end());
  core.edges.erase(std::unique(core.edges.begin(), core.edges.end()), core.edges.end());
  core.inflation = mesh.margin();
}

// The principal axis of the points (unit), or x for a single point.
Vec3 principal_axis(const std::vector<Vec3>& points) {
  Vec3 mean = Vec3::Zero();
  for (const Vec3& p : points) mean += p;
  mean /= static_cast<double>(points.size());
  Mat3 cov = Mat3::Zero();
  for (const Vec3& p : points) cov += (p - mean) * (p - mean).transpose();
  const Eigen::SelfAdjointEigenSolver<Mat3> eig(cov);
  const Vec3 axis = eig.eigenvectors().col(2);
  return axis.allFinite() && axis.norm() > 0.5 ? Vec3(axis.normalized()) : Vec3(Vec3::UnitX());
}

// The ball about the middle of the points' box holding every point.
BoundingSphere enclose(const std::vector<Vec3>& points, double inflation) {
  Aabb box;
  for (const Vec3& p : points) box.extend(p);
  const Vec3 c = box.center();
  double r2 = 0.0;
  for (const Vec3& p : points) r2 = std::max(r2, (p - c).squaredNorm());
  return {c, std::sqrt(r2) * (1.0 + 1e-12) + inflation + kRoundingAllowance};
}

}  // namespace

std::vector<BoundingSphere> fit_spheres(const LinkShape& shape, int max_pieces) {
  if (max_pieces < 1 || max_pieces > 64)
    throw Error("fit_spheres: max_pieces must be from 1 to 64, not " + std::to_string(max_pieces));
  Core core;
  if (const Shape* s = shape.shape()) {
    if (!shape_core(*s, core)) return {};
  } else {
    mesh_core(shape.bvh()->mesh(), core);
  }
  for (Vec3& p : core.points) p = shape.origin.apply(p);
  if (core.points.size() == 1) return {enclose(core.points, core.inflation)};

  const Vec3 axis = principal_axis(core.points);
  std::vector<double> along(core.points.size());
  double lo = std::numeric_limits<double>::infinity(), hi = -lo, width = 0.0;
  for (std::size_t i = 0; i < core.points.size(); ++i) {
    along[i] = axis.dot(core.points[i]);
    lo = std::min(lo, along[i]);
    hi = std::max(hi, along[i]);
  }
  for (std::size_t i = 0; i < core.points.size(); ++i)
    width = std::max(width, (core.points[i] - along[i] * axis).norm());
  // Pieces about as long as the shape is wide: fewer leave long balls whose
  // ends stick out far beside the shape, more cost tests for little.
  const double length = hi - lo, diameter = 2.0 * (width + core.inflation);
  const int k = diameter > 0.0 ? std::clamp(static_cast<int>(std::ceil(length / diameter)), 1, max_pieces) : 1;
  if (k == 1) return {enclose(core.points, core.inflation)};

  std::vector<double> planes(static_cast<std::size_t>(k) + 1);
  for (int i = 0; i <= k; ++i) planes[static_cast<std::size_t>(i)] = lo + length * i / k;
  planes.front() = lo;
  planes.back() = hi;
  std::vector<std::vector<Vec3>> pieces(static_cast<std::size_t>(k));
  for (std::size_t i = 0; i < core.points.size(); ++i)
    for (std::size_t s = 0; s < pieces.size(); ++s)
      if (along[i] >= planes[s] && along[i] <= planes[s + 1]) pieces[s].push_back(core.points[i]);
  // Where each edge crosses an inner plane: a point of both slabs beside it.
  for (const auto& [a, b] : core.edges) {
    const auto ua = static_cast<std::size_t>(a), ub = static_cast<std::size_t>(b);
    const double sa = along[ua], sb = along[ub];
    for (std::size_t s = 1; s < planes.size() - 1; ++s) {
      const double plane = planes[s];
      if (!((sa < plane && plane < sb) || (sb < plane && plane < sa))) continue;
      const Vec3 x = core.points[ua] + (plane - sa) / (sb - sa) * (core.points[ub] - core.points[ua]);
      pieces[s - 1].push_back(x);
      pieces[s].push_back(x);
    }
  }
  std::vector<BoundingSphere> out;
  for (const std::vector<Vec3>& piece : pieces)
    if (!piece.empty()) out.push_back(enclose(piece, core.inflation));
  return out;
}

}  // namespace proxima::robot
