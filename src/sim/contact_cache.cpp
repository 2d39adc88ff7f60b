// SPDX-License-Identifier: BSD-3-Clause
// Per-pair contact sets in body frames (contact_cache.hpp says when and why
// they are reused).
#include <cmath>

#include <proxima/sim/contact_cache.hpp>

#include "tangent.hpp"

namespace proxima::sim {

CachedPair& ContactCache::touch(int a, int b, std::uint64_t step) {
  CachedPair& p = pairs_[detail::pair_key(a, b)];
  p.last_step = step;
  return p;
}

void ContactCache::drop_stale(std::uint64_t step) {
  std::erase_if(pairs_, [&](const auto& kv) { return kv.second.last_step != step; });
}

const CachedPair* ContactCache::find(int a, int b) const {
  const auto it = pairs_.find(detail::pair_key(a, b));
  return it == pairs_.end() ? nullptr : &it->second;
}

bool reuse_contacts(const CachedPair& pair, const Transform& pose_a, const Transform& pose_b,
                    const ContactReuse& reuse, std::vector<Contact>& out) {
  if (!pair.reusable || pair.points.empty()) return false;
  const std::size_t start = out.size();
  // |n_A − n_B| = 2 sin(θ/2): compared squared, no trigonometry.
  const double chord = 2.0 * std::sin(0.5 * reuse.max_turn);
  const double max_chord2 = chord * chord;
  const double max_motion2 = reuse.max_motion * reuse.max_motion;
  // The relative rotation's turn θ, as ‖ΔR‖²_F = 8 sin²(θ/2) = 2 chord²:
  // with it, a feature at distance L from a cached point has moved at most
  // max_motion + θ·L, whichever axis the pair turned about.
  const Mat3 relative = pose_a.R.transpose() * pose_b.R;
  if (!((relative - pair.relative).squaredNorm() <= 2.0 * max_chord2)) return false;
  for (const CachedContact& c : pair.points) {
    const Vec3 pa = pose_a.apply(c.on_a), pb = pose_b.apply(c.on_b);
    const Vec3 na = pose_a.rotate(c.normal_a), nb = pose_b.rotate(c.normal_b);
    const Vec3 d = pa - pb;
    if (!(d.squaredNorm() <= max_motion2) || !((na - nb).squaredNorm() <= max_chord2)) {
      out.resize(start);
      return false;
    }
    Contact& o = out.emplace_back();
    o.normal = (na + nb).normalized();
    o.point = 0.5 * (pa + pb);
    // A moving along the normal away from B opens the gap.
    o.depth = c.depth - o.normal.dot(d);
    o.feature_a = c.feature_a;
    o.feature_b = c.feature_b;
    o.intersecting = false;
  }
  return true;
}

void store_contacts(CachedPair& pair, const std::vector<Contact>& fresh, const Transform& pose_a,
                    const Transform& pose_b) {
  pair.previous.swap(pair.points);
  pair.points.clear();
  pair.reusable = true;
  pair.relative = pose_a.R.transpose() * pose_b.R;
  for (const Contact& c : fresh) {
    CachedContact& o = pair.points.emplace_back();
    o.on_a = pose_a.apply_inverse(c.point);
    o.on_b = pose_b.apply_inverse(c.point);
    o.normal_a = pose_a.rotate_inverse(c.normal);
    o.normal_b = pose_b.rotate_inverse(c.normal);
    o.depth = c.depth;
    o.feature_a = c.feature_a;
    o.feature_b = c.feature_b;
    if (c.intersecting) pair.reusable = false;
  }
}

void match_impulses(CachedPair& pair, double radius) {
  for (CachedContact& c : pair.points) {
    const CachedContact* best = nullptr;
    double best_d2 = radius * radius;
    for (const CachedContact& e : pair.previous) {
      if (e.feature_a != c.feature_a || e.feature_b != c.feature_b) continue;
      // Material points of A: comparable whatever A's pose was.
      const double d2 = (e.on_a - c.on_a).squaredNorm();
      if (d2 <= best_d2) {
        best_d2 = d2;
        best = &e;
      }
    }
    c.normal_impulse = best ? best->normal_impulse : 0.0;
    c.friction_impulse = best ? best->friction_impulse : Vec3::Zero();
  }
}

}  // namespace proxima::sim
