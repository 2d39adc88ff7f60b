// SPDX-License-Identifier: BSD-3-Clause
// fit_spheres: a shape's core (the points whose hull it is, before its
// inflation) is cut in two again and again, the widest piece first, along
// that piece's principal axis, until the pieces run out or stop shrinking.
// A convex piece cut by a plane gives two convex pieces, each the hull of
// its own vertices on that side and of the points where the piece's edges
// cross the plane. Those points are exactly the half's vertices, and its
// edges are the piece's edges clipped at the plane and the sides of the
// cut face (the crossings' outline in the plane), so a cut needs no hull
// of its own: only the core's first hull is qhull's (through
// ConvexPolytope, or the polytope's own). A ball around a piece's vertices
// holds the piece (a ball is convex), and the core's inflation added to
// its radius holds the piece ⊕ ball(inflation): the balls hold the whole
// shape with its margin, whatever the points are. A mesh's core is its
// vertices' hull, which holds its surface.
#include <proxima/robot/sphere_prefilter.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>
#include <variant>

#include <Eigen/Eigenvalues>

#include <proxima/core/error.hpp>
#include <proxima/shape/convex_polytope.hpp>

#include "revolved_hull.hpp"

namespace proxima::robot {

namespace {

// Added to every radius: covers the rounding of the fit itself (qhull keeps
// points within ~1e-13 of a face off the hull) and of two forward
// kinematics (the prefilter's and the exact check's) at coordinates within
// the prefilter's working range (1e3 m, where one rounding is below 1e-13 m
// and a chain of a few hundred operations below 1e-10 m); and it keeps a
// proven pair at least this far beyond the tolerance, far more than the
// narrow phase's stopping accuracy, so that the exact check agrees.
constexpr double kRoundingAllowance = 1e-8;
// Taken off every inner ball's radius: the same rounding, and a pair proven
// within has its cores at least this deep in each other, far beyond the
// narrow phase's stopping accuracy, so that the exact check agrees.
constexpr double kInnerAllowance = 1e-6;

// A shape's core as points whose hull holds it, and the radius every core
// point is inflated by.
struct Core {
  std::vector<Vec3> points;
  double inflation = 0.0;
  // The hull's edges (indices into points) when the points are a
  // polytope's vertices, which are their own hull; else empty.
  std::vector<std::array<int, 2>> edges;
};

void box_corners(const Vec3& lo, const Vec3& hi, Core& core) {
  for (int c = 0; c < 8; ++c)
    core.points.emplace_back((c & 1) ? hi.x() : lo.x(), (c & 2) ? hi.y() : lo.y(), (c & 4) ? hi.z() : lo.z());
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
          core.inflation = s.core_inflation();
        } else if constexpr (std::is_same_v<T, ConvexPolytope>) {
          core.points = s.vertices();
          core.inflation = s.core_inflation();
          if (s.data().dimension == 3) core.edges = s.data().edges;
        } else {
          // Cones and ellipsoids: their bounds, margin included.
          const Aabb box = s.local_aabb();
          box_corners(box.min, box.max, core);
        }
        return true;
      },
      shape.variant());
}

// A convex piece of the core: its hull's vertices and edges, and the ball
// about the middle of their box holding them.
struct Piece {
  std::vector<Vec3> points;
  std::vector<std::array<int, 2>> edges;
  Vec3 center = Vec3::Zero();
  double radius = 0.0;  // of the core piece, before inflation
  bool final = false;   // cutting it did not help
};

// The ball about the middle of the piece's box holding its points.
void enclose(Piece& piece) {
  Aabb box;
  for (const Vec3& p : piece.points) box.extend(p);
  piece.center = box.center();
  double r2 = 0.0;
  for (const Vec3& p : piece.points) r2 = std::max(r2, (p - piece.center).squaredNorm());
  piece.radius = std::sqrt(r2) * (1.0 + 1e-12);
}

// The hull of `points` as a piece (qhull, through ConvexPolytope).
Piece make_piece(const std::vector<Vec3>& points) {
  Piece piece;
  try {
    // Any positive margin lets a flat piece through; only the vertices and
    // edges are kept.
    const ConvexPolytope hull(points, 1.0);
    piece.points = hull.vertices();
    piece.edges = hull.data().edges;
  } catch (const Error&) {
    // Points qhull cannot hull (all but coincident): kept as they are, with
    // no edges; such a piece is not cut.
    piece.points = points;
    piece.final = true;
  }
  enclose(piece);
  return piece;
}

// The principal axis of the points (unit), or x when there is none.
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

// The sides of the convex outline of `ids` (points of one plane, whose
// unit normal is `axis`), Andrew's monotone chain: the outline's corners
// in order, each joined to the next. A point on a side between two corners
// is left out, as are the points inside.
void outline_sides(const std::vector<Vec3>& points, const std::vector<int>& ids, const Vec3& axis,
                   std::vector<std::array<int, 2>>& sides) {
  const Vec3 e1 = axis.unitOrthogonal(), e2 = axis.cross(e1);
  struct Flat {
    double x, y;
    int id;
  };
  std::vector<Flat> flat;
  flat.reserve(ids.size());
  for (const int i : ids) {
    const Vec3& p = points[static_cast<std::size_t>(i)];
    flat.push_back({e1.dot(p), e2.dot(p), i});
  }
  std::sort(flat.begin(), flat.end(), [](const Flat& a, const Flat& b) { return a.x < b.x || (a.x == b.x && a.y < b.y); });
  if (flat.size() < 2) return;
  const auto turn = [](const Flat& o, const Flat& a, const Flat& b) {
    return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
  };
  std::vector<Flat> hull(2 * flat.size());
  std::size_t k = 0;
  for (std::size_t i = 0; i < flat.size(); ++i) {  // lower chain
    while (k >= 2 && turn(hull[k - 2], hull[k - 1], flat[i]) <= 0.0) --k;
    hull[k++] = flat[i];
  }
  for (std::size_t i = flat.size() - 1, lower = k + 1; i-- > 0;) {  // upper chain
    while (k >= lower && turn(hull[k - 2], hull[k - 1], flat[i]) <= 0.0) --k;
    hull[k++] = flat[i];
  }
  // hull[0 .. k) closes on its first point (k − 1 sides); two points give
  // one side there and back.
  for (std::size_t i = 0; i + 1 < k; ++i)
    if (hull[i].id != hull[i + 1].id) sides.push_back({hull[i].id, hull[i + 1].id});
}

// The two halves of a piece across the plane through the middle of its
// extent along its principal axis; false when it has no extent. Each half
// keeps its side's vertices (a vertex on the plane goes to both) and the
// piece's edges clipped at the plane: an edge crossing it ends at its
// crossing, a vertex of both halves. The cut face's sides join the
// crossings and the vertices on the plane.
bool cut(const Piece& piece, Piece& below, Piece& above) {
  const Vec3 axis = principal_axis(piece.points);
  const std::size_t n = piece.points.size();
  std::vector<double> along(n);
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (std::size_t i = 0; i < n; ++i) {
    along[i] = axis.dot(piece.points[i]);
    lo = std::min(lo, along[i]);
    hi = std::max(hi, along[i]);
  }
  const double plane = 0.5 * (lo + hi);
  if (!(lo < plane && plane < hi)) return false;
  // Each point's index in either half (−1: not in it); the crossings are
  // appended to both, and `face` lists the cut face's points (indices of
  // `all`: the piece's points, then the crossings).
  std::vector<Vec3> all = piece.points;
  std::vector<int> in_below(n, -1), in_above(n, -1), face;
  below = Piece{};
  above = Piece{};
  for (std::size_t i = 0; i < n; ++i) {
    if (along[i] <= plane) {
      in_below[i] = static_cast<int>(below.points.size());
      below.points.push_back(piece.points[i]);
    }
    if (along[i] >= plane) {
      in_above[i] = static_cast<int>(above.points.size());
      above.points.push_back(piece.points[i]);
    }
    if (along[i] == plane) face.push_back(static_cast<int>(i));
  }
  for (const auto& [i, j] : piece.edges) {
    const auto ui = static_cast<std::size_t>(i), uj = static_cast<std::size_t>(j);
    const double si = along[ui], sj = along[uj];
    if (!((si < plane && plane < sj) || (sj < plane && plane < si))) {
      if (in_below[ui] >= 0 && in_below[uj] >= 0) below.edges.push_back({in_below[ui], in_below[uj]});
      if (in_above[ui] >= 0 && in_above[uj] >= 0) above.edges.push_back({in_above[ui], in_above[uj]});
      continue;
    }
    const Vec3 x = piece.points[ui] + (plane - si) / (sj - si) * (piece.points[uj] - piece.points[ui]);
    const std::size_t low = si < plane ? ui : uj, high = si < plane ? uj : ui;
    face.push_back(static_cast<int>(all.size()));
    all.push_back(x);
    in_below.push_back(static_cast<int>(below.points.size()));
    in_above.push_back(static_cast<int>(above.points.size()));
    below.points.push_back(x);
    above.points.push_back(x);
    below.edges.push_back({in_below[low], in_below.back()});
    above.edges.push_back({in_above[high], in_above.back()});
  }
  std::vector<std::array<int, 2>> sides;
  outline_sides(all, face, axis, sides);
  for (const auto& [i, j] : sides) {
    below.edges.push_back({in_below[static_cast<std::size_t>(i)], in_below[static_cast<std::size_t>(j)]});
    above.edges.push_back({in_above[static_cast<std::size_t>(i)], in_above[static_cast<std::size_t>(j)]});
  }
  enclose(below);
  enclose(above);
  return true;
}

// How far a point (in the shape's frame) lies inside the shape with its
// margin: the radius of a ball about it that the shape holds, or a value
// ≤ 0 when there is none or the shape has no interior this knows (a flat
// hull, a cone, an ellipsoid, a halfspace, a raw mesh, which is a surface).
double depth_inside(const Shape& shape, const Vec3& c) {
  return std::visit(
      [&c](const auto& s) -> double {
        using T = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<T, Sphere>) {
          return s.core_inflation() - c.norm();
        } else if constexpr (std::is_same_v<T, Capsule>) {
          const double z = std::clamp(c.z(), -s.half_length(), s.half_length());
          return s.core_inflation() - (c - Vec3(0.0, 0.0, z)).norm();
        } else if constexpr (std::is_same_v<T, Box>) {
          const Vec3 gap = c.cwiseAbs() - s.half_extents();
          const double inside = -gap.maxCoeff();
          return inside > 0.0 ? inside + s.core_inflation() : s.core_inflation() - gap.cwiseMax(0.0).norm();
        } else if constexpr (std::is_same_v<T, Cylinder>) {
          const double inside = std::min(s.radius() - std::hypot(c.x(), c.y()), 0.5 * s.length() - std::abs(c.z()));
          return inside > 0.0 ? inside + s.core_inflation() : -1.0;
        } else if constexpr (std::is_same_v<T, ConvexPolytope>) {
          if (s.data().dimension != 3) return -1.0;
          const double inside = -s.largest_plane_value(c);
          return inside > 0.0 ? inside + s.core_inflation() : -1.0;
        } else {
          return -1.0;
        }
      },
      shape.variant());
}

}  // namespace

std::vector<BoundingSphere> inner_spheres(const LinkShape& shape, std::span<const BoundingSphere> about) {
  std::vector<BoundingSphere> out;
  const Shape* s = shape.shape();
  if (!s) return out;
  const Transform to_shape = shape.origin.inverse();
  for (const BoundingSphere& b : about) {
    const double r = depth_inside(*s, to_shape.apply(b.center)) - kInnerAllowance;
    if (r > kInnerAllowance) out.push_back({b.center, r});
  }
  return out;
}

namespace {

// A link shape's core in its link's frame; false for a halfspace.
bool link_core(const LinkShape& shape, Core& core) {
  if (const Shape* s = shape.shape()) {
    if (!shape_core(*s, core)) return false;
  } else {
    core.points = shape.bvh()->mesh().vertices();
    core.inflation = shape.bvh()->mesh().margin();
  }
  for (Vec3& p : core.points) p = shape.origin.apply(p);
  return true;
}

}  // namespace

std::vector<BoundingSphere> fit_spheres(const LinkShape& shape, int max_pieces) {
  if (max_pieces < 1 || max_pieces > 64)
    throw Error("fit_spheres: max_pieces must be from 1 to 64, not " + std::to_string(max_pieces));
  Core core;
  if (!link_core(shape, core)) return {};
  Piece whole;
  if (core.edges.empty()) {
    whole = make_piece(core.points);
  } else {
    whole.points = core.points;
    whole.edges = core.edges;
    enclose(whole);
  }
  std::vector<Piece> pieces = {std::move(whole)};
  // The widest piece that can still shrink is cut, until the budget is
  // spent: a cut that leaves a half nearly as wide as the piece (a ball's
  // core, a cube's corners) is not kept.
  while (static_cast<int>(pieces.size()) < max_pieces) {
    std::size_t widest = pieces.size();
    for (std::size_t i = 0; i < pieces.size(); ++i)
      if (!pieces[i].final && (widest == pieces.size() || pieces[i].radius > pieces[widest].radius)) widest = i;
    if (widest == pieces.size()) break;
    Piece below, above;
    const double r = pieces[widest].radius + core.inflation;
    if (!cut(pieces[widest], below, above) || std::max(below.radius, above.radius) + core.inflation > 0.98 * r) {
      pieces[widest].final = true;
      continue;
    }
    pieces[widest] = std::move(below);
    pieces.push_back(std::move(above));
  }
  std::vector<BoundingSphere> out;
  for (const Piece& p : pieces) out.push_back({p.center, p.radius + core.inflation + kRoundingAllowance});
  return out;
}

namespace detail {

std::optional<ConvexPolytope> revolved_hull(const std::vector<LinkShape>& shapes, const Vec3& point,
                                            const Vec3& axis, int copies) {
  std::vector<Vec3> points;
  double inflation = 0.0;
  for (const LinkShape& shape : shapes) {
    Core core;
    if (!link_core(shape, core)) return std::nullopt;
    points.insert(points.end(), core.points.begin(), core.points.end());
    inflation = std::max(inflation, core.inflation);
  }
  if (points.empty() || copies < 3) return std::nullopt;
  // Each point's circle about the line: its place t along the line and its
  // radius ρ. The hull of coaxial circles is the solid of revolution of the
  // hull of their meridian points (t, ±ρ), so only the circles at that
  // outline's corners are turned.
  const Vec3 u = axis.normalized();
  const Vec3 e1 = u.unitOrthogonal(), e2 = u.cross(e1);
  struct Circle {
    double t, rho;
  };
  std::vector<Circle> circles;
  for (const Vec3& x : points) {
    const Vec3 r = x - point;
    circles.push_back({u.dot(r), std::hypot(e1.dot(r), e2.dot(r))});
  }
  std::sort(circles.begin(), circles.end(),
            [](const Circle& x, const Circle& y) { return x.t < y.t || (x.t == y.t && x.rho > y.rho); });
  // The upper outline (Andrew's monotone chain over t): a circle strictly
  // below the chord of its neighbours lies inside their hull. The mirror
  // points (t, −ρ) only add the ends, which the outline keeps.
  std::vector<Circle> outline;
  for (const Circle& c : circles) {
    while (outline.size() >= 2) {
      const Circle& p = outline[outline.size() - 2];
      const Circle& q = outline.back();
      if ((q.t - p.t) * (c.rho - p.rho) - (q.rho - p.rho) * (c.t - p.t) < 0.0) break;
      outline.pop_back();
    }
    outline.push_back(c);
  }
  double rho = 0.0;
  std::vector<Vec3> turned;
  turned.reserve(outline.size() * static_cast<std::size_t>(copies));
  const double pi = std::acos(-1.0);
  for (const Circle& c : outline) {
    const Vec3 foot = point + u * c.t;
    rho = std::max(rho, c.rho);
    for (int i = 0; i < copies; ++i) {
      const double a = 2.0 * pi * i / copies;
      turned.push_back(foot + c.rho * (std::cos(a) * e1 + std::sin(a) * e2));
    }
  }
  // The rounding of the turns (a few ulps of the coordinates) is well
  // within the 1e-9 m added.
  const double sagitta = rho * (1.0 - std::cos(pi / copies));
  try {
    return ConvexPolytope(turned, inflation + sagitta + 1e-9);
  } catch (const Error&) {
    return std::nullopt;
  }
}

std::vector<ConvexPolytope> inscribed_revolutions(const std::vector<LinkShape>& shapes, const Vec3& point,
                                                  const Vec3& axis, int copies, int levels) {
  std::vector<ConvexPolytope> out;
  const double pi = std::acos(-1.0);
  for (const LinkShape& shape : shapes) {
    // The core's face planes n·y ≤ c in the shape's frame, and its
    // inflation.
    const Shape* s = shape.shape();
    if (!s) continue;
    std::vector<Vec3> normals;
    std::vector<double> offsets;
    double inflation = 0.0;
    if (const auto* poly = std::get_if<ConvexPolytope>(&s->variant())) {
      if (poly->data().dimension != 3) continue;
      normals = poly->data().face_normals;
      offsets = poly->data().face_offsets;
      inflation = poly->core_inflation();
    } else if (const auto* box = std::get_if<Box>(&s->variant())) {
      for (int k = 0; k < 3; ++k)
        for (const double sign : {-1.0, 1.0}) {
          normals.push_back(sign * Vec3::Unit(k));
          offsets.push_back(box->half_extents()[k]);
        }
      inflation = box->core_inflation();
    } else {
      continue;
    }
    // The line in the shape's frame, and the stretch of it inside the core.
    const Transform to_shape = shape.origin.inverse();
    const Vec3 p = to_shape.apply(point), u = (to_shape.R * axis).normalized();
    double t_lo = -std::numeric_limits<double>::infinity(), t_hi = std::numeric_limits<double>::infinity();
    bool misses = false;
    for (std::size_t f = 0; f < normals.size(); ++f) {
      const double nu = normals[f].dot(u), room = offsets[f] - normals[f].dot(p);
      if (std::abs(nu) < 1e-12) {
        misses |= room < 0.0;
      } else if (nu > 0.0) {
        t_hi = std::min(t_hi, room / nu);
      } else {
        t_lo = std::max(t_lo, room / nu);
      }
    }
    if (misses || !(t_lo < t_hi) || !std::isfinite(t_hi - t_lo)) continue;
    const Vec3 e1 = u.unitOrthogonal(), e2 = u.cross(e1);
    std::vector<Vec3> points;
    for (int i = 0; i < levels; ++i) {
      const Vec3 c = p + u * (t_lo + (t_hi - t_lo) * i / (levels - 1));
      // The largest circle about c in the plane normal to u that every
      // face plane keeps inside, less a rounding allowance.
      double r = std::numeric_limits<double>::infinity();
      for (std::size_t f = 0; f < normals.size(); ++f) {
        const double across = (normals[f] - normals[f].dot(u) * u).norm();
        if (across > 1e-12) r = std::min(r, (offsets[f] - normals[f].dot(c)) / across);
      }
      r -= 1e-9;
      if (!(r > 0.0) || !std::isfinite(r)) continue;
      for (int k = 0; k < copies; ++k) {
        const double a = 2.0 * pi * k / copies;
        points.push_back(shape.origin.apply(c + r * (std::cos(a) * e1 + std::sin(a) * e2)));
      }
    }
    try {
      out.emplace_back(points, inflation);
    } catch (const Error&) {
      // Fewer than two levels with room, or all in a plane: no solid.
    }
  }
  return out;
}

}  // namespace detail

}  // namespace proxima::robot
