// SPDX-License-Identifier: BSD-3-Clause
#include "prefilter_lanes.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <algorithm>
#include <limits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

// x86-64-v3 (AVX2 with FMA) where the processor has it. This file alone is
// built with -ffp-contract=fast (src/CMakeLists.txt), so there a*b + c may
// be one fused operation: one rounding of the exact result instead of two,
// which keeps every error bound of the separate operations (each fused
// result is within half an ulp of its exact value), so the allowances
// below and in sphere_fit.cpp hold either way; a clearance ending in
// fma(−reach, reach, d²) even has the exact sign of d² − reach².
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_ADDRESS__)
#define PROXIMA_LANE_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define PROXIMA_LANE_CLONES
#endif

namespace proxima::robot::detail {

namespace {

constexpr std::size_t W = kPrefilterLanes;

// A row of lanes as one SIMD value (GCC's vector extension): loops over
// kPrefilterLanes of plain doubles were left scalar by the vectoriser. The
// helpers below are inlined into each clone of the functions that use
// them, so no vector value crosses a call: -Wpsabi, about the calling
// convention of AVX-sized vectors, is off for this file (src/CMakeLists.txt).
typedef double Lane __attribute__((vector_size(sizeof(double) * W)));
typedef std::int64_t LaneBits __attribute__((vector_size(sizeof(double) * W)));

[[gnu::always_inline]] inline Lane load(const double* p) {
  Lane v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
[[gnu::always_inline]] inline void store(double* p, Lane v) { std::memcpy(p, &v, sizeof v); }
[[gnu::always_inline]] inline Lane splat(double x) { return Lane{} + x; }
[[gnu::always_inline]] inline Lane lane_min(Lane a, Lane b) { return a < b ? a : b; }
[[gnu::always_inline]] inline Lane lane_max(Lane a, Lane b) { return a > b ? a : b; }
// The lanes (bit l: lane l) where a comparison holds (its lanes all ones
// or all zeros): the sign bits by SSE2's movemask, which every x86-64 has,
// two lanes at a time; element by element elsewhere.
[[gnu::always_inline]] inline unsigned lane_bits(LaneBits c) {
#if defined(__SSE2__)
  static_assert(W == 4, "two halves of two lanes");
  __m128d half[2];
  std::memcpy(half, &c, sizeof half);
  return static_cast<unsigned>(_mm_movemask_pd(half[0])) | static_cast<unsigned>(_mm_movemask_pd(half[1])) << 2;
#else
  unsigned m = 0;
  for (std::size_t l = 0; l < W; ++l) m |= static_cast<unsigned>(c[l] & 1) << l;
  return m;
#endif
}

// sin and cos of each lane's angle (|v| ≤ kAngleRange): v = k π/2 + r with
// π/2 in two parts (the first exact times any k up to 2^20), then the Taylor
// series of sin and cos on |r| ≤ π/4 to the terms r^15 and r^16, whose
// remainders are below 5e-17; the quadrant k mod 4 picks and signs them.
[[gnu::always_inline]] inline void lane_sincos(Lane v, Lane& sn, Lane& cs) {
  constexpr double kTwoOverPi = 0.63661977236758134308;
  constexpr double kPiOver2Hi = 1.5707963267341256e+00;  // 33 significant bits
  constexpr double kPiOver2Lo = 6.0771005065061922e-11;  // π/2 − kPiOver2Hi
  constexpr double kRound = 6755399441055744.0;         // 1.5 · 2^52: adding it rounds to an integer
  const Lane k = (v * kTwoOverPi + kRound) - kRound;
  const Lane r = (v - k * kPiOver2Hi) - k * kPiOver2Lo;
  const Lane r2 = r * r;
  // Horner in −r², from the highest term down.
  Lane ps = splat(1.0 / 1307674368000.0);  // 1/15!
  ps = ps * -r2 + 1.0 / 6227020800.0;
  ps = ps * -r2 + 1.0 / 39916800.0;
  ps = ps * -r2 + 1.0 / 362880.0;
  ps = ps * -r2 + 1.0 / 5040.0;
  ps = ps * -r2 + 1.0 / 120.0;
  ps = ps * -r2 + 1.0 / 6.0;
  const Lane s0 = r - r * r2 * ps;
  Lane pc = splat(1.0 / 20922789888000.0);  // 1/16!
  pc = pc * -r2 + 1.0 / 87178291200.0;
  pc = pc * -r2 + 1.0 / 479001600.0;
  pc = pc * -r2 + 1.0 / 3628800.0;
  pc = pc * -r2 + 1.0 / 40320.0;
  pc = pc * -r2 + 1.0 / 720.0;
  pc = pc * -r2 + 1.0 / 24.0;
  pc = pc * -r2 + 0.5;
  const Lane c0 = 1.0 - r2 * pc;
  // Quadrant 0: (s, c); 1: (c, −s); 2: (−s, −c); 3: (−c, s).
  const LaneBits quadrant = __builtin_convertvector(k, LaneBits) & 3;
  const LaneBits odd = (quadrant & 1) != 0;
  const Lane a = odd ? c0 : s0, b = odd ? s0 : c0;
  sn = quadrant >= 2 ? -a : a;
  cs = (quadrant == 1 || quadrant == 2) ? -b : b;
}

}  // namespace

void lane_sin_cos(const double* v, double* sn, double* cs) {
  Lane s, c;
  lane_sincos(load(v), s, c);
  store(sn, s);
  store(cs, c);
}

// Forward kinematics of every link, lane by lane: the recurrence of
// forward_kinematics (kinematics.cpp) on rows of lanes. Clears `usable` for
// a lane whose angle is beyond kAngleRange or with a link origin beyond
// `range`.
PROXIMA_LANE_CLONES
void lane_kinematics(const std::vector<PrefilterStep>& steps, const double* q, double range, double* rot, double* pos,
                     double* usable) {
  Lane ok = load(usable);
  for (const PrefilterStep& st : steps) {
    const double* pr = rot + static_cast<std::size_t>(st.parent) * 9 * W;
    const double* pp = pos + static_cast<std::size_t>(st.parent) * 3 * W;
    double* cr = rot + static_cast<std::size_t>(st.child) * 9 * W;
    double* cp = pos + static_cast<std::size_t>(st.child) * 3 * W;
    Lane v = splat(0.0);
    if (st.variable >= 0) v = st.multiplier * load(q + static_cast<std::size_t>(st.variable) * W) + st.offset;
    Lane local[9];
    if (st.revolute) {
      const LaneBits far = !(v <= kAngleRange && v >= -kAngleRange);
      ok = far ? splat(-1.0) : ok;
      v = far ? splat(0.0) : v;
      Lane c, sn;
      lane_sincos(v, sn, c);
      for (std::size_t k = 0; k < 9; ++k) local[k] = st.fixed[k] + c * st.cosine[k] + sn * st.sine[k];
    } else {
      for (std::size_t k = 0; k < 9; ++k) local[k] = splat(st.fixed[k]);
    }
    Lane parent[9];
    for (std::size_t k = 0; k < 9; ++k) parent[k] = load(pr + k * W);
    for (std::size_t i = 0; i < 3; ++i)
      for (std::size_t j = 0; j < 3; ++j)
        store(cr + (3 * i + j) * W,
              parent[3 * i] * local[j] + parent[3 * i + 1] * local[3 + j] + parent[3 * i + 2] * local[6 + j]);
    const Lane t0 = st.p[0] + v * st.slide[0], t1 = st.p[1] + v * st.slide[1], t2 = st.p[2] + v * st.slide[2];
    for (std::size_t i = 0; i < 3; ++i) {
      const Lane p = parent[3 * i] * t0 + parent[3 * i + 1] * t1 + parent[3 * i + 2] * t2 + load(pp + i * W);
      ok = (p <= range && p >= -range) ? ok : splat(-1.0);
      store(cp + i * W, p);
    }
  }
  store(usable, ok);
}

// World centres of `count` local points of one link: R c + p per lane.
PROXIMA_LANE_CLONES
void lane_points(const double* rot, const double* pos, const Vec3* local, std::size_t count, double* out) {
  Lane r[9], p[3];
  for (std::size_t k = 0; k < 9; ++k) r[k] = load(rot + k * W);
  for (std::size_t k = 0; k < 3; ++k) p[k] = load(pos + k * W);
  for (std::size_t s = 0; s < count; ++s) {
    const double c[3] = {local[s].x(), local[s].y(), local[s].z()};
    for (std::size_t i = 0; i < 3; ++i)
      store(out + (3 * s + i) * W, r[3 * i] * c[0] + r[3 * i + 1] * c[1] + r[3 * i + 2] * c[2] + p[i]);
  }
}

PROXIMA_LANE_CLONES
void lane_link_points(const double* rot, const double* pos, const Vec3* local, const int* links, std::size_t count,
                      double* out) {
  for (std::size_t i = 0; i < count; ++i) {
    const auto l = static_cast<std::size_t>(links[i]);
    const double* r = rot + l * 9 * W;
    const double* p = pos + l * 3 * W;
    const double c[3] = {local[i].x(), local[i].y(), local[i].z()};
    for (std::size_t k = 0; k < 3; ++k)
      store(out + (l * 3 + k) * W,
            load(r + 3 * k * W) * c[0] + load(r + (3 * k + 1) * W) * c[1] + load(r + (3 * k + 2) * W) * c[2] +
                load(p + k * W));
  }
}

PROXIMA_LANE_CLONES
void lane_pairs_apart(const double* centers, const double* radius, const std::pair<int, int>* pairs,
                      std::size_t count, double t, unsigned char* apart) {
  for (std::size_t k = 0; k < count; ++k) {
    const auto a = static_cast<std::size_t>(pairs[k].first), b = static_cast<std::size_t>(pairs[k].second);
    const double reach = radius[a] + radius[b] + t;
    const double* ca = centers + a * 3 * W;
    const double* cb = centers + b * 3 * W;
    const Lane dx = load(ca) - load(cb), dy = load(ca + W) - load(cb + W), dz = load(ca + 2 * W) - load(cb + 2 * W);
    apart[k] = static_cast<unsigned char>(lane_bits(dx * dx + dy * dy + dz * dz - reach * reach > 0.0));
  }
}

// Smallest squared clearance between balls (a: count_a centres and radii)
// and (b: ...), each grown by `t`, folded into `clear`.
PROXIMA_LANE_CLONES
void lane_balls(const double* ca, const double* ra, std::size_t count_a, const double* cb, const double* rb,
                std::size_t count_b, double t, double* clear) {
  Lane m = load(clear);
  for (std::size_t i = 0; i < count_a; ++i) {
    const double* a = ca + 3 * i * W;
    const Lane ax = load(a), ay = load(a + W), az = load(a + 2 * W);
    for (std::size_t j = 0; j < count_b; ++j) {
      const double reach = ra[i] + rb[j] + t;
      const double* b = cb + 3 * j * W;
      const Lane dx = ax - load(b), dy = ay - load(b + W), dz = az - load(b + 2 * W);
      m = lane_min(m, dx * dx + dy * dy + dz * dz - reach * reach);
    }
  }
  store(clear, m);
}

// The same for balls against an object (its box grown by o.grow).
PROXIMA_LANE_CLONES
void lane_object(const double* c, const double* r, std::size_t count, const PrefilterObject& o, double t,
                 double* clear) {
  Lane m = load(clear);
  if (o.halfspace) {
    for (std::size_t i = 0; i < count; ++i) {
      const double* a = c + 3 * i * W;
      const double reach = r[i] + o.grow + t + o.offset;
      m = lane_min(m, o.normal[0] * load(a) + o.normal[1] * load(a + W) + o.normal[2] * load(a + 2 * W) - reach);
    }
    store(clear, m);
    return;
  }
  for (std::size_t i = 0; i < count; ++i) {
    const double* a = c + 3 * i * W;
    const double reach = r[i] + o.grow + t;
    const Lane dx = load(a) - o.center[0], dy = load(a + W) - o.center[1], dz = load(a + 2 * W) - o.center[2];
    Lane d2 = splat(0.0);
    for (std::size_t k = 0; k < 3; ++k) {
      const Lane u = o.rows[3 * k] * dx + o.rows[3 * k + 1] * dy + o.rows[3 * k + 2] * dz;
      const Lane e = lane_max(lane_max(u, -u) - o.half[k], splat(0.0));
      d2 += e * e;
    }
    m = lane_min(m, d2 - reach * reach);
  }
  store(clear, m);
}

PROXIMA_LANE_CLONES
std::uint64_t near_objects(const double* center, double radius, unsigned lanes, const double* bounds,
                           std::size_t stride, std::size_t first, std::size_t count, double t) {
  // The ball's box over the lanes kept (the others take the first kept
  // one's centre): the smallest and largest centre coordinate by two
  // swaps of lane halves.
  static_assert(W == 4, "the swaps below are for four lanes");
  const auto kept = static_cast<std::size_t>(__builtin_ctz(lanes));
  const LaneBits keep = ((LaneBits{} + static_cast<std::int64_t>(lanes)) & LaneBits{1, 2, 4, 8}) != 0;
  double lo[3], hi[3];
  for (std::size_t k = 0; k < 3; ++k) {
    const Lane all = load(center + k * W);
    const Lane c = keep ? all : splat(all[kept]);
    const Lane swapped = __builtin_shuffle(c, LaneBits{1, 0, 3, 2});
    Lane mn = lane_min(c, swapped), mx = lane_max(c, swapped);
    mn = lane_min(mn, __builtin_shuffle(mn, LaneBits{2, 3, 0, 1}));
    mx = lane_max(mx, __builtin_shuffle(mx, LaneBits{2, 3, 0, 1}));
    lo[k] = mn[0] - radius;
    hi[k] = mx[0] + radius;
  }
  // W objects at a time (their bounds are consecutive in each row), then
  // the rest one by one; a gap that is not a number leaves the object in.
  std::uint64_t near = 0;
  std::size_t i = 0;
  for (; i + W <= count; i += W) {
    Lane g = splat(-std::numeric_limits<double>::infinity());
    for (std::size_t k = 0; k < 3; ++k) {
      const Lane below = load(bounds + k * stride + first + i) - hi[k];
      const Lane above = lo[k] - load(bounds + (3 + k) * stride + first + i);
      g = lane_max(g, lane_max(below, above));
    }
    near |= static_cast<std::uint64_t>(lane_bits(!(g > t))) << i;
  }
  for (; i < count; ++i) {
    double g = -std::numeric_limits<double>::infinity();
    for (std::size_t k = 0; k < 3; ++k)
      g = std::max(g, std::max(bounds[k * stride + first + i] - hi[k], lo[k] - bounds[(3 + k) * stride + first + i]));
    near |= static_cast<std::uint64_t>(!(g > t)) << i;
  }
  return near;
}

}  // namespace proxima::robot::detail
