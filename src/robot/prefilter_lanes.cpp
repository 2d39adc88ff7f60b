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

#include "prefilter_rounding.hpp"

// x86-64-v3 (AVX2 with FMA) where the processor has it. This file alone is
// built with -ffp-contract=fast (src/CMakeLists.txt), so there a*b + c may
// be one fused operation: one rounding of the exact result instead of two,
// which keeps every error bound of the separate operations (each fused
// result is within half an ulp of its exact value), so the allowances of
// prefilter_rounding.hpp and sphere_fit.cpp hold either way.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_ADDRESS__)
#define PROXIMA_LANE_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define PROXIMA_LANE_CLONES
#endif

namespace proxima::robot::detail {

namespace {

constexpr std::size_t W = kPrefilterLanes;
constexpr std::size_t H = kSinCosLanes;
static_assert(W == 2 * H, "a row of float lanes is two rows of double ones");

// A row of lanes as one SIMD value (GCC's vector extension): loops over
// plain arrays were left scalar by the vectoriser. Lane: the eight floats
// of a lane group; Half: four doubles, the angles of half of it. The
// helpers below are inlined into each clone of the functions that use
// them, so no vector value crosses a call: -Wpsabi, about the calling
// convention of AVX-sized vectors, is off for this file (src/CMakeLists.txt).
typedef float Lane __attribute__((vector_size(sizeof(float) * W)));
typedef std::int32_t LaneBits __attribute__((vector_size(sizeof(float) * W)));
typedef float Quarter __attribute__((vector_size(sizeof(float) * H)));
typedef std::int32_t QuarterBits __attribute__((vector_size(sizeof(float) * H)));
typedef double Half __attribute__((vector_size(sizeof(double) * H)));
typedef std::int64_t HalfBits __attribute__((vector_size(sizeof(double) * H)));

[[gnu::always_inline]] inline Lane load(const float* p) {
  Lane v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
[[gnu::always_inline]] inline void store(float* p, Lane v) { std::memcpy(p, &v, sizeof v); }
[[gnu::always_inline]] inline Half load_half(const double* p) {
  Half v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
[[gnu::always_inline]] inline void store_half(double* p, Half v) { std::memcpy(p, &v, sizeof v); }
[[gnu::always_inline]] inline Lane splat(float x) { return Lane{} + x; }
[[gnu::always_inline]] inline Half splat_half(double x) { return Half{} + x; }
[[gnu::always_inline]] inline Lane lane_min(Lane a, Lane b) { return a < b ? a : b; }
[[gnu::always_inline]] inline Lane lane_max(Lane a, Lane b) { return a > b ? a : b; }
// Two halves of doubles as one row of floats, each rounded to nearest.
[[gnu::always_inline]] inline Lane join(Half a, Half b) {
  return __builtin_shufflevector(__builtin_convertvector(a, Quarter), __builtin_convertvector(b, Quarter), 0, 1, 2,
                                 3, 4, 5, 6, 7);
}
[[gnu::always_inline]] inline LaneBits join_bits(HalfBits a, HalfBits b) {
  return __builtin_shufflevector(__builtin_convertvector(a, QuarterBits), __builtin_convertvector(b, QuarterBits), 0,
                                 1, 2, 3, 4, 5, 6, 7);
}
// The lanes (bit l: lane l) where a comparison holds (its lanes all ones
// or all zeros): the sign bits by SSE's movemask, which every x86-64 has,
// four lanes at a time; element by element elsewhere.
[[gnu::always_inline]] inline unsigned lane_bits(LaneBits c) {
#if defined(__SSE2__)
  static_assert(W == 8, "two halves of four lanes");
  __m128 half[2];
  std::memcpy(half, &c, sizeof half);
  return static_cast<unsigned>(_mm_movemask_ps(half[0])) | static_cast<unsigned>(_mm_movemask_ps(half[1])) << 4;
#else
  unsigned m = 0;
  for (std::size_t l = 0; l < W; ++l) m |= static_cast<unsigned>(c[l] & 1) << l;
  return m;
#endif
}

// sin and cos of each lane's angle (|v| ≤ kAngleRange, two halves of four
// doubles): v = k π/2 + r in double with π/2 in two parts (the first exact
// times any k up to 2^20), r then rounded to float (by at most u |r| ≤
// 0.79 u), and the Taylor series of sin and cos on |r| ≤ π/4 to the terms
// r^11 and r^12 (remainders below 1e-11) in float, the quadrant k mod 4
// picking and signing them. Each result is within 4 u + 1e-15 of the
// exact one: the reduction's 1e-15, r's rounding, and for sin r − r·r²·P
// (P ≈ 1/6 within a few u) a last rounding of u |sin r| plus u |r|³ from
// the product, for cos 1 − r²·Q a last rounding of u plus 3u r²/2; the
// test checks the bound against libm.
[[gnu::always_inline]] inline void lane_sincos(const Half (&v)[2], Lane& sn, Lane& cs) {
  constexpr double kTwoOverPi = 0.63661977236758134308;
  constexpr double kPiOver2Hi = 1.5707963267341256e+00;  // 33 significant bits
  constexpr double kPiOver2Lo = 6.0771005065061922e-11;  // π/2 − kPiOver2Hi
  constexpr double kRound = 6755399441055744.0;         // 1.5 · 2^52: adding it rounds to an integer
  Half reduced[2];
  HalfBits quarter[2];
  for (std::size_t h = 0; h < 2; ++h) {
    const Half shifted = v[h] * kTwoOverPi + kRound;
    const Half k = shifted - kRound;
    reduced[h] = (v[h] - k * kPiOver2Hi) - k * kPiOver2Lo;
    // k mod 4 is in the low bits of `shifted` (its last bit is worth 1,
    // and k's two's complement fits below its leading 1.5 · 2^52): AVX2
    // has no vector conversion of doubles to 64-bit integers.
    std::memcpy(&quarter[h], &shifted, sizeof quarter[h]);
  }
  const Lane r = join(reduced[0], reduced[1]);
  const LaneBits quadrant = join_bits(quarter[0] & 3, quarter[1] & 3);
  const Lane r2 = r * r;
  // Horner in −r², from the highest term down.
  Lane ps = splat(1.0f / 39916800.0f);  // 1/11!
  ps = ps * -r2 + 1.0f / 362880.0f;
  ps = ps * -r2 + 1.0f / 5040.0f;
  ps = ps * -r2 + 1.0f / 120.0f;
  ps = ps * -r2 + 1.0f / 6.0f;
  const Lane s0 = r - r * r2 * ps;
  Lane pc = splat(1.0f / 479001600.0f);  // 1/12!
  pc = pc * -r2 + 1.0f / 3628800.0f;
  pc = pc * -r2 + 1.0f / 40320.0f;
  pc = pc * -r2 + 1.0f / 720.0f;
  pc = pc * -r2 + 1.0f / 24.0f;
  pc = pc * -r2 + 0.5f;
  const Lane c0 = 1.0f - r2 * pc;
  // Quadrant 0: (s, c); 1: (c, −s); 2: (−s, −c); 3: (−c, s).
  const LaneBits odd = (quadrant & 1) != 0;
  const Lane a = odd ? c0 : s0, b = odd ? s0 : c0;
  sn = quadrant >= 2 ? -a : a;
  cs = (quadrant == 1 || quadrant == 2) ? -b : b;
}

}  // namespace

void lane_sin_cos(const double* v, float* sn, float* cs) {
  const Half halves[2] = {load_half(v), load_half(v + H)};
  Lane s, c;
  lane_sincos(halves, s, c);
  store(sn, s);
  store(cs, c);
}

// Forward kinematics of every link, lane by lane: the recurrence of
// forward_kinematics (kinematics.cpp) on rows of float lanes, the angles
// and their reduction by π/2 in double (two halves of four lanes). Clears `usable` for a lane whose angle is beyond kAngleRange,
// whose prismatic value is beyond `travel`, or with a link origin beyond
// `range`: prefilter_rounding.hpp bounds the error within them.
PROXIMA_LANE_CLONES
void lane_kinematics(const std::vector<PrefilterStep>& steps, const double* q, double travel, float range, float* rot,
                     float* pos, float* usable) {
  Lane ok = load(usable);
  for (const PrefilterStep& st : steps) {
    const float* pr = rot + static_cast<std::size_t>(st.parent) * 9 * W;
    const float* pp = pos + static_cast<std::size_t>(st.parent) * 3 * W;
    float* cr = rot + static_cast<std::size_t>(st.child) * 9 * W;
    float* cp = pos + static_cast<std::size_t>(st.child) * 3 * W;
    Half v[2] = {splat_half(0.0), splat_half(0.0)};
    if (st.variable >= 0)
      for (std::size_t h = 0; h < 2; ++h)
        v[h] = st.multiplier * load_half(q + static_cast<std::size_t>(st.variable) * W + h * H) + st.offset;
    Lane local[9];
    Lane t[3];
    if (st.revolute) {
      HalfBits far[2];
      for (std::size_t h = 0; h < 2; ++h) {
        far[h] = !(v[h] <= kAngleRange && v[h] >= -kAngleRange);
        v[h] = far[h] ? splat_half(0.0) : v[h];
      }
      ok = join_bits(far[0], far[1]) ? splat(-1.0f) : ok;
      Lane c, s;
      lane_sincos(v, s, c);
      for (std::size_t k = 0; k < 9; ++k) local[k] = st.fixed_f[k] + c * st.cosine_f[k] + s * st.sine_f[k];
      for (std::size_t k = 0; k < 3; ++k) t[k] = splat(st.p_f[k]);
    } else {
      for (std::size_t k = 0; k < 9; ++k) local[k] = splat(st.fixed_f[k]);
      HalfBits far[2];
      for (std::size_t h = 0; h < 2; ++h) {
        far[h] = !(v[h] <= travel && v[h] >= -travel);
        v[h] = far[h] ? splat_half(0.0) : v[h];
      }
      ok = join_bits(far[0], far[1]) ? splat(-1.0f) : ok;
      const Lane vf = join(v[0], v[1]);
      for (std::size_t k = 0; k < 3; ++k) t[k] = st.p_f[k] + vf * st.slide_f[k];
    }
    Lane parent[9];
    for (std::size_t k = 0; k < 9; ++k) parent[k] = load(pr + k * W);
    for (std::size_t i = 0; i < 3; ++i)
      for (std::size_t j = 0; j < 3; ++j)
        store(cr + (3 * i + j) * W,
              parent[3 * i] * local[j] + parent[3 * i + 1] * local[3 + j] + parent[3 * i + 2] * local[6 + j]);
    for (std::size_t i = 0; i < 3; ++i) {
      const Lane p = parent[3 * i] * t[0] + parent[3 * i + 1] * t[1] + parent[3 * i + 2] * t[2] + load(pp + i * W);
      ok = (p <= range && p >= -range) ? ok : splat(-1.0f);
      store(cp + i * W, p);
    }
  }
  store(usable, ok);
}

// World centres of `count` local points of one link: R c + p per lane.
PROXIMA_LANE_CLONES
void lane_points(const float* rot, const float* pos, const Vec3* local, std::size_t count, float* out) {
  Lane r[9], p[3];
  for (std::size_t k = 0; k < 9; ++k) r[k] = load(rot + k * W);
  for (std::size_t k = 0; k < 3; ++k) p[k] = load(pos + k * W);
  for (std::size_t s = 0; s < count; ++s) {
    const float c[3] = {static_cast<float>(local[s].x()), static_cast<float>(local[s].y()),
                        static_cast<float>(local[s].z())};
    for (std::size_t i = 0; i < 3; ++i)
      store(out + (3 * s + i) * W, r[3 * i] * c[0] + r[3 * i + 1] * c[1] + r[3 * i + 2] * c[2] + p[i]);
  }
}

PROXIMA_LANE_CLONES
void lane_link_points(const float* rot, const float* pos, const Vec3* local, const int* links, const int* frames,
                      std::size_t count, float* out) {
  for (std::size_t i = 0; i < count; ++i) {
    const auto l = static_cast<std::size_t>(links[i]), f = static_cast<std::size_t>(frames[i]);
    const float* r = rot + f * 9 * W;
    const float* p = pos + f * 3 * W;
    const float c[3] = {static_cast<float>(local[i].x()), static_cast<float>(local[i].y()),
                        static_cast<float>(local[i].z())};
    for (std::size_t k = 0; k < 3; ++k)
      store(out + (l * 3 + k) * W,
            load(r + 3 * k * W) * c[0] + load(r + (3 * k + 1) * W) * c[1] + load(r + (3 * k + 2) * W) * c[2] +
                load(p + k * W));
  }
}

PROXIMA_LANE_CLONES
void lane_pairs_apart(const float* centers, const float* radius, const std::pair<int, int>* pairs,
                      std::size_t count, double t, unsigned char* apart) {
  for (std::size_t k = 0; k < count; ++k) {
    const auto a = static_cast<std::size_t>(pairs[k].first), b = static_cast<std::size_t>(pairs[k].second);
    const float reach2 = ball_reach_squared(radius[a], radius[b], t, Proof::apart);
    const float* ca = centers + a * 3 * W;
    const float* cb = centers + b * 3 * W;
    const Lane dx = load(ca) - load(cb), dy = load(ca + W) - load(cb + W), dz = load(ca + 2 * W) - load(cb + 2 * W);
    apart[k] = static_cast<unsigned char>(lane_bits(dx * dx + dy * dy + dz * dz > reach2));
  }
}

// Smallest clearance between balls (a: count_a centres, b: count_b), each
// pair's squared reach given, folded into `clear`.
PROXIMA_LANE_CLONES
void lane_balls(const float* ca, std::size_t count_a, const float* cb, std::size_t count_b, const float* reach2,
                float* clear) {
  Lane m = load(clear);
  for (std::size_t i = 0; i < count_a; ++i) {
    const float* a = ca + 3 * i * W;
    const Lane ax = load(a), ay = load(a + W), az = load(a + 2 * W);
    for (std::size_t j = 0; j < count_b; ++j) {
      const float* b = cb + 3 * j * W;
      const Lane dx = ax - load(b), dy = ay - load(b + W), dz = az - load(b + 2 * W);
      m = lane_min(m, (dx * dx + dy * dy + dz * dz) - reach2[i * count_b + j]);
    }
  }
  store(clear, m);
}

// The clearance of one ball (centre: 3 rows of lanes, radius r) to an
// object (its box grown by o.grow, or its halfspace), as lane_object says.
[[gnu::always_inline]] inline Lane object_clearance(const float* a, float r, const PrefilterObject& o, double t,
                                                    Proof proof) {
  if (o.halfspace) {
    // The threshold n·x is compared with, rounded the way the proof needs
    // (its double sum within 2^-50 of the terms' magnitudes).
    const double reach = r + o.grow + t + o.offset;
    const double slack = 0x1p-50 * (std::abs(static_cast<double>(r)) + std::abs(o.grow) + t + std::abs(o.offset));
    const float k = proof == Proof::apart ? float_up(reach + slack) : float_down(reach - slack);
    return (o.normal[0] * load(a) + o.normal[1] * load(a + W) + o.normal[2] * load(a + 2 * W)) - k;
  }
  const float reach2 = reach_squared(r + o.grow + t, proof);
  const Lane dx = load(a) - o.center[0], dy = load(a + W) - o.center[1], dz = load(a + 2 * W) - o.center[2];
  Lane d2 = splat(0.0f);
  for (std::size_t k = 0; k < 3; ++k) {
    const Lane u = o.rows[3 * k] * dx + o.rows[3 * k + 1] * dy + o.rows[3 * k + 2] * dz;
    const Lane e = lane_max(lane_max(u, -u) - o.half[k], splat(0.0f));
    d2 += e * e;
  }
  return d2 - reach2;
}

// The same for balls against an object (its box grown by o.grow).
PROXIMA_LANE_CLONES
void lane_object(const float* c, const float* r, std::size_t count, const PrefilterObject& o, double t, Proof proof,
                 float* clear) {
  Lane m = load(clear);
  for (std::size_t i = 0; i < count; ++i) m = lane_min(m, object_clearance(c + 3 * i * W, r[i], o, t, proof));
  store(clear, m);
}

PROXIMA_LANE_CLONES
void lane_ball_objects(const float* c, float r, const PrefilterObject* objects, std::uint64_t which, double t,
                       unsigned char* apart) {
  for (; which; which &= which - 1) {
    const auto i = static_cast<std::size_t>(__builtin_ctzll(which));
    apart[i] = static_cast<unsigned char>(lane_bits(object_clearance(c, r, objects[i], t, Proof::apart) > 0.0f));
  }
}

PROXIMA_LANE_CLONES
std::uint64_t near_objects(const float* center, float radius, unsigned lanes, const float* bounds,
                           std::size_t stride, std::size_t first, std::size_t count, double t) {
  // The ball's box over the lanes kept (the others take the first kept
  // one's centre): the smallest and largest centre coordinate by three
  // swaps of lane halves. lo and hi then round once more each, by at most
  // u (|centre| + radius), which the radius covers (sphere_prefilter.cpp).
  static_assert(W == 8, "the swaps below are for eight lanes");
  const auto kept = static_cast<std::size_t>(__builtin_ctz(lanes));
  const LaneBits keep =
      ((LaneBits{} + static_cast<std::int32_t>(lanes)) & LaneBits{1, 2, 4, 8, 16, 32, 64, 128}) != 0;
  float lo[3], hi[3];
  for (std::size_t k = 0; k < 3; ++k) {
    const Lane all = load(center + k * W);
    const Lane c = keep ? all : splat(all[kept]);
    const Lane swapped = __builtin_shuffle(c, LaneBits{1, 0, 3, 2, 5, 4, 7, 6});
    Lane mn = lane_min(c, swapped), mx = lane_max(c, swapped);
    mn = lane_min(mn, __builtin_shuffle(mn, LaneBits{2, 3, 0, 1, 6, 7, 4, 5}));
    mx = lane_max(mx, __builtin_shuffle(mx, LaneBits{2, 3, 0, 1, 6, 7, 4, 5}));
    mn = lane_min(mn, __builtin_shuffle(mn, LaneBits{4, 5, 6, 7, 0, 1, 2, 3}));
    mx = lane_max(mx, __builtin_shuffle(mx, LaneBits{4, 5, 6, 7, 0, 1, 2, 3}));
    lo[k] = mn[0] - radius;
    hi[k] = mx[0] + radius;
  }
  // A gap g computed as fl(a − b) > tf means a − b > t: tf is t rounded up
  // with room for that one rounding.
  const float tf = float_up(t * (1.0 + 4.0 * kUnit));
  // W objects at a time (their bounds are consecutive in each row), then
  // the rest one by one; a gap that is not a number leaves the object in.
  std::uint64_t near = 0;
  std::size_t i = 0;
  for (; i + W <= count; i += W) {
    Lane g = splat(-std::numeric_limits<float>::infinity());
    for (std::size_t k = 0; k < 3; ++k) {
      const Lane below = load(bounds + k * stride + first + i) - hi[k];
      const Lane above = lo[k] - load(bounds + (3 + k) * stride + first + i);
      g = lane_max(g, lane_max(below, above));
    }
    near |= static_cast<std::uint64_t>(lane_bits(!(g > tf))) << i;
  }
  for (; i < count; ++i) {
    float g = -std::numeric_limits<float>::infinity();
    for (std::size_t k = 0; k < 3; ++k)
      g = std::max(g, std::max(bounds[k * stride + first + i] - hi[k], lo[k] - bounds[(3 + k) * stride + first + i]));
    near |= static_cast<std::uint64_t>(!(g > tf)) << i;
  }
  return near;
}

}  // namespace proxima::robot::detail
