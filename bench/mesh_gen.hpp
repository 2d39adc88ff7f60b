// SPDX-License-Identifier: BSD-3-Clause
// Generated meshes shared by the mesh benchmarks (proxima-mesh-bench,
// proxima-blem-bench): a noisy fractal heightfield terrain with circular
// holes, a noisy UV blob, and finely subdivided (optionally rounded) boxes.
// Everything is seeded, so every run and every library sees the same meshes.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <random>
#include <tuple>
#include <vector>

#include <proxima/shape/triangle_mesh.hpp>

namespace proxima::bench {

/// Fractal value noise: octaves of bilinearly interpolated lattice noise.
/// height(x, y) = Σ_o amplitude·0.5^o · value(x · frequency·2^o + offset_o).
struct Terrain {
  std::vector<double> lattice;
  int n = 257;
  double amplitude = 4.0;   ///< of the first octave (m)
  double frequency = 0.02;  ///< of the first octave (1/m)
  int octaves = 7;
  explicit Terrain(unsigned seed, double amplitude_ = 4.0, double frequency_ = 0.02, int octaves_ = 7)
      : lattice(static_cast<std::size_t>(257 * 257)), amplitude(amplitude_), frequency(frequency_),
        octaves(octaves_) {
    std::mt19937 g(seed);
    std::uniform_real_distribution<double> u(-1, 1);
    for (double& x : lattice) x = u(g);
  }
  double value(double x, double y) const {
    x = std::fmod(std::abs(x), n - 1.0);
    y = std::fmod(std::abs(y), n - 1.0);
    const int i = static_cast<int>(x), j = static_cast<int>(y);
    const double fx = x - i, fy = y - j;
    auto at = [&](int a, int b) { return lattice[static_cast<std::size_t>(b * n + a)]; };
    return (1 - fy) * ((1 - fx) * at(i, j) + fx * at(i + 1, j)) + fy * ((1 - fx) * at(i, j + 1) + fx * at(i + 1, j + 1));
  }
  double height(double x, double y) const {
    double h = 0, amp = amplitude, freq = frequency;
    for (int o = 0; o < octaves; ++o, amp *= 0.5, freq *= 2.0) h += amp * value(x * freq + 17 * o, y * freq + 31 * o);
    return h;
  }
};

/// A disk of the terrain's (x, y) plane whose triangles are dropped.
struct Hole {
  double x = 0, y = 0, radius = 0;
};

/// How terrain_mesh samples a Terrain.
struct TerrainGrid {
  int side = 720;            ///< side × side squares, two triangles each
  double spacing = 0.15;     ///< square size (m)
  double noise = 0.01;       ///< per-vertex height noise, uniform in ±noise (m)
  int holes = 40;            ///< random holes, centres uniform over the grid
  double hole_min = 0.5;     ///< their radii are uniform in [hole_min, hole_max]
  double hole_max = 2.5;
  std::vector<Hole> extra_holes = {};  ///< placed holes, besides the random ones
  std::vector<Hole> keep_clear = {};   ///< random holes overlapping these disks are dropped
};

/// side×side squares of `spacing` at the terrain's heights plus per-vertex
/// noise; triangles whose square's centre lies in a hole are dropped. With
/// the default grid this is the 1,036,800-triangle (before holes) terrain of
/// proxima-mesh-bench. `holes_out`, when given, receives every hole.
inline TriangleMesh terrain_mesh(const Terrain& terrain, const TerrainGrid& grid, std::mt19937& g,
                                 std::vector<Hole>* holes_out = nullptr) {
  const int side = grid.side;
  const double spacing = grid.spacing;
  std::uniform_real_distribution<double> noise(-grid.noise, grid.noise);
  std::vector<Vec3> v;
  v.reserve(static_cast<std::size_t>((side + 1) * (side + 1)));
  for (int j = 0; j <= side; ++j)
    for (int i = 0; i <= side; ++i) {
      const double x = i * spacing, y = j * spacing;
      v.emplace_back(x, y, terrain.height(x, y) + noise(g));
    }
  std::uniform_real_distribution<double> pos(0, side * spacing);
  std::vector<Hole> holes;
  for (int k = 0; k < grid.holes; ++k) {
    // Drawn radius, y, x: the order GCC evaluated the arguments of the
    // generator this replaces, so proxima-mesh-bench's terrain is unchanged.
    const double u = grid.noise > 0 ? std::abs(noise(g)) / grid.noise : 0.0;
    const double hy = pos(g);
    const double hx = pos(g);
    const Hole h{hx, hy, grid.hole_min + (grid.hole_max - grid.hole_min) * u};
    bool clear = true;
    for (const Hole& c : grid.keep_clear) clear = clear && std::hypot(h.x - c.x, h.y - c.y) >= h.radius + c.radius;
    if (clear) holes.push_back(h);
  }
  holes.insert(holes.end(), grid.extra_holes.begin(), grid.extra_holes.end());
  std::vector<TriangleIndices> t;
  t.reserve(static_cast<std::size_t>(2 * side * side));
  auto id = [side](int i, int j) { return static_cast<std::uint32_t>(j * (side + 1) + i); };
  for (int j = 0; j < side; ++j)
    for (int i = 0; i < side; ++i) {
      const double cx = (i + 0.5) * spacing, cy = (j + 0.5) * spacing;
      bool hole = false;
      for (const Hole& h : holes) hole |= std::hypot(cx - h.x, cy - h.y) < h.radius;
      if (hole) continue;
      t.push_back({id(i, j), id(i + 1, j), id(i + 1, j + 1)});
      t.push_back({id(i, j), id(i + 1, j + 1), id(i, j + 1)});
    }
  if (holes_out) *holes_out = std::move(holes);
  return TriangleMesh(std::move(v), std::move(t), 0.0, "terrain");
}

/// UV sphere of radius r with relative radial noise: 2·rings·(segments) triangles.
inline TriangleMesh blob_mesh(int rings, int segments, double r, double noise_rel, unsigned seed,
                              const Vec3& scale = Vec3::Ones()) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<double> u(-noise_rel, noise_rel);
  std::vector<Vec3> v;
  v.emplace_back(0, 0, r * scale.z());
  for (int i = 1; i < rings; ++i) {
    const double th = M_PI * i / rings;
    for (int j = 0; j < segments; ++j) {
      const double ph = 2 * M_PI * j / segments;
      const double rr = r * (1 + u(g));
      v.emplace_back(rr * std::sin(th) * std::cos(ph) * scale.x(), rr * std::sin(th) * std::sin(ph) * scale.y(),
                     rr * std::cos(th) * scale.z());
    }
  }
  v.emplace_back(0, 0, -r * scale.z());
  const auto south = static_cast<std::uint32_t>(v.size() - 1);
  auto id = [segments](int ring, int j) {
    return static_cast<std::uint32_t>(1 + (ring - 1) * segments + (j % segments));
  };
  std::vector<TriangleIndices> t;
  for (int j = 0; j < segments; ++j) t.push_back({0, id(1, j), id(1, j + 1)});
  for (int i = 1; i + 1 < rings; ++i)
    for (int j = 0; j < segments; ++j) {
      t.push_back({id(i, j), id(i + 1, j), id(i + 1, j + 1)});
      t.push_back({id(i, j), id(i + 1, j + 1), id(i, j + 1)});
    }
  for (int j = 0; j < segments; ++j) t.push_back({id(rings - 1, j), south, id(rings - 1, j + 1)});
  return TriangleMesh(std::move(v), std::move(t));
}

/// A closed, outward-oriented box of full extents `size` centred at the
/// origin, each face an n_x × n_y (etc.) grid of squares split in two
/// triangles: 4 (n_x n_y + n_y n_z + n_z n_x) triangles, vertices shared
/// along the edges. With `rounding` > 0 every vertex is pushed onto the
/// rounded box (the inner box of extents size − 2·rounding ⊕ a ball of that
/// radius), so the edges and corners become quarter cylinders and spheres.
/// cells = (1, 1, 1) and rounding 0 is the 12-triangle cube.
inline TriangleMesh box_mesh(const Vec3& size, const std::array<int, 3>& cells, double rounding = 0.0,
                             double margin = 0.0, std::string name = {}) {
  const Vec3 h = 0.5 * size;
  std::map<std::tuple<int, int, int>, std::uint32_t> index;  // lattice point -> vertex
  std::vector<Vec3> v;
  auto vertex = [&](int i, int j, int k) {
    const auto key = std::make_tuple(i, j, k);
    const auto it = index.find(key);
    if (it != index.end()) return it->second;
    Vec3 p(-h.x() + size.x() * i / cells[0], -h.y() + size.y() * j / cells[1], -h.z() + size.z() * k / cells[2]);
    if (rounding > 0) {
      const Vec3 inner = (h.array() - rounding).max(0.0).matrix();
      const Vec3 q = p.cwiseMax(-inner).cwiseMin(inner);
      const Vec3 d = p - q;
      if (d.norm() > 0) p = q + rounding * d.normalized();
    }
    const auto id = static_cast<std::uint32_t>(v.size());
    v.push_back(p);
    index.emplace(key, id);
    return id;
  };
  std::vector<TriangleIndices> t;
  // Face of axis `a` at side s (0 = min, 1 = max): the other two axes u, v
  // form a right-handed frame with the outward normal.
  for (int a = 0; a < 3; ++a)
    for (int s = 0; s < 2; ++s) {
      const int u = (a + 1) % 3, w = (a + 2) % 3;
      for (int iu = 0; iu < cells[static_cast<std::size_t>(u)]; ++iu)
        for (int iw = 0; iw < cells[static_cast<std::size_t>(w)]; ++iw) {
          auto at = [&](int du, int dw) {
            std::array<int, 3> c{};
            c[static_cast<std::size_t>(a)] = s * cells[static_cast<std::size_t>(a)];
            c[static_cast<std::size_t>(u)] = iu + du;
            c[static_cast<std::size_t>(w)] = iw + dw;
            return vertex(c[0], c[1], c[2]);
          };
          const std::uint32_t p00 = at(0, 0), p10 = at(1, 0), p11 = at(1, 1), p01 = at(0, 1);
          if (s == 1) {  // u × w = +a: counter-clockwise seen from outside
            t.push_back({p00, p10, p11});
            t.push_back({p00, p11, p01});
          } else {
            t.push_back({p00, p11, p10});
            t.push_back({p00, p01, p11});
          }
        }
    }
  return TriangleMesh(std::move(v), std::move(t), margin, std::move(name));
}

}  // namespace proxima::bench
