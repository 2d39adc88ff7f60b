// SPDX-License-Identifier: BSD-3-Clause
// Exact penetration depth of convex polytopes by the separating-axis test
// (Contact data for convex polyhedra, Alg. 1–2), with
// the edge–edge axes pruned on the Gauss map: an edge pair is tested only when
// the arcs of its two edges cross, i.e. when the pair spans a face of the
// Minkowski difference C = A ⊖ B. The candidate axes are then exactly the
// facet normals of C, so min over them of the support value h_C is the depth.
// The crossing pairs are found by walking each arc of A across the Gauss map
// of −B (O(|E_A| + crossings) steps) rather than by testing all |E_A|·|E_B|
// pairs; the pairs are the same.
//
// Intended for OVERLAPPING pairs (run GJK first). Results, in world frame:
//   distance = −depth (negative); normal = unit axis from B to A (moving A by
//   +depth·normal makes the pair touch); point_a = the deepest point of A in
//   B and point_b = point_a − distance·normal:
//     face axis of B: point_a = A's vertex deepest along −normal, point_b its
//                     projection on B's face plane;
//     face axis of A: point_b = B's vertex deepest along +normal, point_a its
//                     projection on A's face plane;
//     edge–edge axis: the closest points of the two edges.
// Separated or touching input: distance = the largest separation over the
// candidate axes (≥ 0). That is a LOWER BOUND on the true distance, not the
// distance, and the points are not closest points.
// Margins: depth of the cores plus both margins (exact for overlapping
// cores: the margin offsets every facet of C outward by r_A + r_B).
// Flat cores (dimension 2: a polygon, with its two faces) are handled.
// Segment or point cores (dimension < 2 on either side) report
// Status::not_implemented (distance 0). Non-finite poses: invalid_input.
// Never throws, never allocates, never returns NaN.
#pragma once

#include <limits>

#include <proxima/query.hpp>

namespace proxima::narrow {

/// Work counters of one SAT query, for tests and tuning.
struct SatStats {
  long face_axes = 0;    ///< face normals of A and B evaluated
  long edge_pairs = 0;   ///< edge pairs looked at by the Gauss-map walks (vs |E_A|·|E_B| unpruned)
  long edge_axes = 0;    ///< edge pairs whose arcs cross (faces of A ⊖ B), evaluated as axes
};

/// Penetration depth of two convex polytopes (see the file comment).
DistanceResult sat_polytope_polytope(const ConvexPolytope& a, const Transform& ta,
                                     const ConvexPolytope& b, const Transform& tb);
/// As above, adding this query's work to `stats`.
DistanceResult sat_polytope_polytope(const ConvexPolytope& a, const Transform& ta,
                                     const ConvexPolytope& b, const Transform& tb, SatStats& stats);

/// Penetration depth of a polytope and a capsule by SAT on the facets of
/// P ⊖ S (S the capsule's core segment), pruned on the polytope's cone
/// hierarchy (src/narrow/sat_segment.cpp). Same result conventions as
/// sat_polytope_polytope, A being the polytope: exact for overlapping cores,
/// a lower bound on the cores' separation when distance + margins ≥ 0.
/// Flat polytope cores report Status::not_implemented.
DistanceResult sat_polytope_capsule(const ConvexPolytope& a, const Transform& ta, const Capsule& b,
                                    const Transform& tb, SatStats* stats = nullptr);

namespace detail {
/// What the polytope–segment SAT needs of the other shape: its core is the
/// segment of half length `half_length` along its local z (0 for a sphere's
/// point), inflated by `inflation`.
class SegmentCore {
 public:
  static SegmentCore of(const Capsule& c) { return {c.half_length(), c.core_inflation()}; }
  static SegmentCore of(const Sphere& s) { return {0.0, s.core_inflation()}; }
  double half_length() const { return half_length_; }
  double core_inflation() const { return inflation_; }

 private:
  SegmentCore(double half_length, double inflation) : half_length_(half_length), inflation_(inflation) {}
  double half_length_, inflation_;
};

/// sat_box_capsule for the dispatcher, on poses it has checked finite; a
/// capsule or a sphere (SegmentCore::of) as B.
DistanceResult sat_box_segment_depth(const Box& a, const Transform& ta, const SegmentCore& b,
                                     const Transform& tb);

/// sat_polytope_capsule for the dispatcher, on poses it has checked finite:
/// it stops as soon as some facet plane of P ⊖ S has the origin outside
/// (h ≤ 0), since GJK then measures the distance; distance + margins ≥ 0
/// only says that the cores are apart, and the normal is that facet's.
DistanceResult sat_polytope_capsule_depth(const ConvexPolytope& a, const Transform& ta, const Capsule& b,
                                          const Transform& tb);
/// As above, warm-started: the support value of P ⊖ S along a guessed normal
/// (B→A, world frame; zero for the centre line) bounds the depth from above,
/// and only axes below it are searched. The same answer whatever the guess;
/// a poor one only prunes less. A guess whose plane separates the cores is
/// returned as that separating axis. `guess_vertex` (optional) receives the
/// polytope's vertex supporting the guess: a hill-climbing hint for GJK.
/// `witness_on_polytope` (optional) receives whether point_a of an exact
/// answer lies on the polytope's surface by construction (a point of an
/// edge, or of a face inside its polygon; never with a margin), so that the
/// caller need not prove it by a search over all of the polytope's planes.
/// A capsule or a sphere (SegmentCore::of) as B.
DistanceResult sat_polytope_capsule_depth(const ConvexPolytope& a, const Transform& ta, const SegmentCore& b,
                                          const Transform& tb, const Vec3& normal_guess,
                                          int* guess_vertex = nullptr, bool* witness_on_polytope = nullptr);
/// The SAT of sat_polytope_capsule_depth searching only axes with h_C (the
/// cores' depth along them) below `below`: not_converged when there is none,
/// which proves that the cores' depth is at least `below` (the certificate
/// of incremental_depth.hpp); otherwise the exact answer, the smallest h_C
/// being below `below`. Poses checked finite by the caller.
DistanceResult sat_polytope_capsule_below(const ConvexPolytope& a, const Transform& ta, const SegmentCore& b,
                                          const Transform& tb, double below);

/// Leaves of a polytope's cone hierarchy kept by a collecting walk (the
/// first step of a ConeFeatures collection): every cone not kept or opened
/// has its bound ≥ floor.
struct ConeLeaves {
  static constexpr int kMax = 32;
  int leaf[kMax] = {};
  int count = 0;
  double floor = -std::numeric_limits<double>::infinity();
};

/// Features of a polytope P (faces and edges, under their leaves of P's
/// cone hierarchy) kept for the coherence certificate of
/// narrow/incremental_depth.hpp. At the pose where they were collected,
/// every direction u in the Gauss-map region of a feature NOT kept (a face's
/// normal, an edge's arc) has h_C(u) ≥ floor, C = P ⊖ Q: only the kept
/// features can give a facet of C below `floor`. For a box Q, also h_P along
/// Q's six face normals then (±e_i, in P's frame), which bounds h_P along
/// them after a motion.
struct ConeFeatures {
  static constexpr int kMax = 64;
  struct Feature {
    int leaf;   ///< its leaf in PolytopeData::cones
    int index;  ///< ≥ 0: a face (cone_faces), < 0: the edge −1 − index (cone_edges)
  };
  Feature item[kMax] = {};
  /// Each feature's value where it was collected: h_C at a face's normal, a
  /// lower bound on h_C over an edge's arc; the items are in ascending
  /// order of it. After a motion that moves Q's points by at most Δ, a
  /// feature gives no facet below its value − Δ (the *_features walks stop
  /// at the first that cannot beat what they have found).
  double value[kMax] = {};
  int count = 0;
  double floor = -std::numeric_limits<double>::infinity();
  Vec3 box_dir[6];
  double box_hp[6] = {};
};

/// The walk of sat_polytope_capsule_below with the fixed pruning threshold
/// `floor` instead of the best value found, keeping the leaves it reaches
/// (at most ConeLeaves::kMax: the largest bound is dropped and becomes the
/// floor), then their features whose h_C (a face) or lower bound on h_C
/// over the arc (an edge) is below the floor (at most ConeFeatures::kMax,
/// likewise). The answer is the smallest facet among them, the exact depth
/// when it is below the final out.floor (not_converged otherwise, `out`
/// empty). Poses checked finite by the caller.
DistanceResult sat_polytope_capsule_collect(const ConvexPolytope& a, const Transform& ta, const SegmentCore& b,
                                            const Transform& tb, double floor, ConeFeatures& out);
/// The smallest facet of P ⊖ S among the features of `set` only (any pose):
/// not a depth by itself; incremental_depth.hpp's coherence certificate
/// decides when it is one. not_converged when they give no facet.
/// `witness_on_polytope` (optional) receives whether point_a lies on P's
/// surface by construction (as sat_polytope_capsule_depth's).
/// `moved`: a bound on how far any point of S moved, in P's frame, since
/// the features were collected (+inf: unknown).
DistanceResult sat_polytope_capsule_features(const ConvexPolytope& a, const Transform& ta, const SegmentCore& b,
                                             const Transform& tb, const ConeFeatures& set, double moved,
                                             bool* witness_on_polytope = nullptr);
/// The same two for a box. Q's six faces are no feature of P:
/// sat_polytope_box_features evaluates them too, with a support call each
/// unless a lower bound (from set.box_hp, h_P being |P|-Lipschitz in the
/// direction) rules them out.
DistanceResult sat_polytope_box_collect(const ConvexPolytope& a, const Transform& ta, const Box& b,
                                        const Transform& tb, double floor, ConeFeatures& out);
DistanceResult sat_polytope_box_features(const ConvexPolytope& a, const Transform& ta, const Box& b,
                                         const Transform& tb, const ConeFeatures& set, double moved, int& hint,
                                         bool* witness_on_polytope = nullptr);

/// Penetration depth of a polytope and a box by SAT on the facets of P ⊖ Q
/// (Q the box's core: P's faces, Q's six faces and the crossings of P's
/// edge arcs with the three great circles of Q's edges), pruned on the
/// polytope's cone hierarchy (src/narrow/sat_polytope_box.cpp). A the
/// polytope; same result conventions as sat_polytope_capsule_depth: exact for
/// overlapping cores, and for cores apart (distance + margins ≥ 0) a
/// separating axis, whose plane is the guess's when that separates. Warm
/// started like it from a B→A normal guess (zero: the centre line). With a
/// finite `below`, only axes with h_C below it are searched, as in
/// sat_polytope_capsule_below (not_converged: none, the cores' depth is at
/// least `below`). Flat polytope cores report not_implemented; non-finite
/// poses invalid_input.
DistanceResult sat_polytope_box_depth(const ConvexPolytope& a, const Transform& ta, const Box& b, const Transform& tb,
                                      const Vec3& normal_guess,
                                      double below = std::numeric_limits<double>::infinity());
}  // namespace detail

/// Box–capsule on the 12 facet normals of the box ⊖ the capsule's segment
/// (3 face normals and 3 segment × edge products, both signs;
/// src/narrow/sat_box_segment.cpp). Same result conventions as
/// sat_polytope_capsule, A being the box: exact for overlapping cores, and
/// a separating axis (distance + margins ≥ 0) when the cores are apart.
DistanceResult sat_box_capsule(const Box& a, const Transform& ta, const Capsule& b, const Transform& tb);

/// Box–box on the 15 classic axes (3 + 3 face normals, 9 edge cross products;
/// every one of them is a facet normal of A ⊖ B for two boxes). Exact when
/// the cores overlap; when they are apart, the best axis's separation (a
/// lower bound on the cores' distance) minus the margins, which can be
/// negative though the pair is apart: see sat_cores_overlap.
DistanceResult sat_box_box(const Box& a, const Transform& ta, const Box& b, const Transform& tb);

/// Whether a SAT result (distance = −core depth − margins) found the cores
/// overlapping, i.e. is the exact signed distance; `radii` is the sum of the
/// two core inflations. Otherwise GJK must measure the cores' distance.
inline bool sat_cores_overlap(const DistanceResult& r, double radii) {
  return r.status == Status::ok && r.distance + radii < 0.0;
}

/// Box against polytope and back, through the generic Gauss-map code.
DistanceResult sat_box_polytope(const Box& a, const Transform& ta, const ConvexPolytope& b,
                                const Transform& tb);
/// Polytope against box, through the generic Gauss-map code.
DistanceResult sat_polytope_box(const ConvexPolytope& a, const Transform& ta, const Box& b,
                                const Transform& tb);

}  // namespace proxima::narrow
