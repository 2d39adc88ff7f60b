// SPDX-License-Identifier: BSD-3-Clause
// Temporal coherence of contacts: each body pair's contact set, kept in the
// two bodies' own frames, and its last impulses (owned by the World).
//
// Reuse. A set generated at poses (T_A, T_B) holds every contact point p
// twice, as the material point of A (T_A⁻¹ p) and of B (T_B⁻¹ p), with the
// normal in both frames. At later poses the two copies have separated by
// d = T_A' p_A − T_B' p_B, the relative motion of the pair at that point, and
// the normals by the pair's relative rotation. The set is re-expressed as
//   point  = (T_A' p_A + T_B' p_B) / 2,
//   normal = (R_A' n_A + R_B' n_B) normalized,
//   depth  = depth₀ − normal · d,
// exact to first order in the motion: a face keeps its normal and moves
// along it, so the depth follows d along the normal exactly; what is left is
// the turn of the normal (≤ θ, the angle between R_A' n_A and R_B' n_B) acting
// on the motion (≤ |d|), and for a contact on a rounded feature of radius ρ
// (a BLEM layer, ρ ≥ r_A + r_B − depth) the normal's own turn under tangential
// motion: depth error ≤ θ |d| + |d|² / (2ρ). The set is reused while every
// point has |d| ≤ ContactReuse::max_motion and the pair's relative rotation
// since the set was made (which bounds θ) is ≤ max_turn, else it is
// generated afresh. With the defaults (1 µm, 1 µrad) and BLEM layers of
// millimetres the error is below 10⁻⁹ m, a millionth of the layer; the point
// itself is off by ≤ 0.5 µm (a torque error of 0.5 µm × the impulse); and a
// feature at distance L from a cached point has moved at most
// max_motion + max_turn·L relative to the other body (the rotation test sees
// turns about the normal, which neither the normals nor a lone point show),
// so a feature pair that was outside the contact margin is still at least
// the margin less that much apart: the margin less 1.1 µm for a 0.1 m cube,
// less 11 µm for a 10 m body. Sets with intersecting cores (normals unreliable, ρ → 0) and
// failed queries are never reused. The decision depends on the poses only:
// deterministic, and independent of the steps taken in between.
//
// Warm starts. Every cached point carries the impulses it received in the
// last step: a reused set gives each contact exactly its own (persistent
// identity); a regenerated one takes them by the nearest-point rule of
// match_impulses.
#pragma once

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include <proxima/contact/contact.hpp>
#include <proxima/core/transform.hpp>

namespace proxima::sim {

class Geometry;

/// When a pair's cached contact set may stand in for a new query.
struct ContactReuse {
  bool enabled = true;
  /// Largest relative motion of the two bodies at any contact point since
  /// the set was generated, m.
  double max_motion = 1e-6;
  /// Largest relative rotation of the pair since the set was generated
  /// (which also bounds the turn between the normal as carried by A and as
  /// carried by B), rad.
  double max_turn = 1e-6;
};

/// One contact point as both bodies carry it, with its last impulses.
struct CachedContact {
  Vec3 on_a = Vec3::Zero(), on_b = Vec3::Zero();          ///< point in A's / B's geometry frame
  Vec3 normal_a = Vec3::UnitZ(), normal_b = Vec3::UnitZ();  ///< B→A normal in A's / B's frame
  double depth = 0.0;  ///< at generation
  int feature_a = -1, feature_b = -1;
  double normal_impulse = 0.0;            ///< of the last step, N·s
  Vec3 friction_impulse = Vec3::Zero();   ///< of the last step, on A, world frame
};

/// The contact set of one body pair (A, B as the broadphase orders them).
struct CachedPair {
  /// Held, not only compared, so that a geometry replaced by a new one at
  /// the same address still counts as a different geometry.
  std::shared_ptr<const Geometry> geometry_a, geometry_b;
  double margin = 0.0;  ///< contact margin of the query
  /// B's orientation in A's frame when the set was generated: the turn test
  /// bounds the pair's whole relative rotation, including the turn about
  /// the normal that neither the normals nor a single point would show.
  Mat3 relative = Mat3::Identity();
  bool reusable = false;
  std::vector<CachedContact> points;
  std::vector<CachedContact> previous;  ///< last set, while a new one is matched to it
  std::uint64_t last_step = 0;          ///< step that last used the pair
  int first = 0;                        ///< its first contact in this step's list
};

/// Pairs by (A, B); entries of pairs that left the broadphase are dropped.
class ContactCache {
 public:
  /// The pair's entry, created empty (not reusable) when new.
  CachedPair& touch(int a, int b, std::uint64_t step);
  /// Drops the pairs not touched at `step`.
  void drop_stale(std::uint64_t step);
  const CachedPair* find(int a, int b) const;
  void clear() { pairs_.clear(); }
  std::size_t size() const { return pairs_.size(); }

 private:
  std::unordered_map<std::uint64_t, CachedPair> pairs_;
};

/// Re-expresses `pair` at the poses (see the top): appends its contacts to
/// `out` and returns true, or returns false (appending nothing) when the
/// motion since generation exceeds `reuse`.
bool reuse_contacts(const CachedPair& pair, const Transform& pose_a, const Transform& pose_b,
                    const ContactReuse& reuse, std::vector<Contact>& out);

/// Stores a fresh set (finite points) generated at the poses, keeping the
/// previous one in pair.previous for warm-start matching.
void store_contacts(CachedPair& pair, const std::vector<Contact>& fresh, const Transform& pose_a,
                    const Transform& pose_b);

/// Gives each point of a freshly stored set the last impulses of the
/// previous set's point with the same features whose point on A is nearest,
/// if within `radius`; zero otherwise.
void match_impulses(CachedPair& pair, double radius);

}  // namespace proxima::sim
