// SPDX-License-Identifier: BSD-3-Clause
// A conservative prefilter for batches of validity checks: each link's
// collision geometry, as the scene checker sees it (margins included, meshes
// as the checker's mesh mode made them), is covered by a few spheres, and a
// configuration whose spheres are all farther than the tolerance from each
// other (checked self pairs) and from the environment objects' bounds is
// proven free without asking the narrow phase. Anything it cannot prove goes
// on to the exact check, so an answer never changes: the prefilter only says
// "free" when the exact check would say nothing is within the tolerance.
//
// The configurations are taken a lane group at a time (kPrefilterLanes of
// them): forward kinematics of the sphere centres and the sphere tests run
// over structure-of-arrays lanes that the compiler turns into SIMD code, in
// single precision with a proven rounding allowance on every radius.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include <proxima/core/transform.hpp>
#include <proxima/robot/link_geometry.hpp>
#include <proxima/robot/prepared_environment.hpp>

namespace proxima::robot {

namespace detail {
struct PrefilterAccess;
}

class SceneChecker;

/// A ball: centre and radius (m).
struct BoundingSphere {
  Vec3 center = Vec3::Zero();
  double radius = 0.0;
};

/// Spheres whose union contains `shape` (placed at its origin, so in its
/// link's frame) inflated by its margin, or nothing for an unbounded shape
/// (a halfspace). Conservative by construction: the shape's core (a mesh's:
/// its vertices' hull) is cut in convex pieces, the widest first, in two
/// along its principal axis, at most `max_pieces` of them; each piece is
/// enclosed by a ball about its vertices, which then grows by the core's
/// inflation and a rounding allowance. Throws proxima::Error unless
/// 1 ≤ max_pieces ≤ 64.
std::vector<BoundingSphere> fit_spheres(const LinkShape& shape, int max_pieces = 8);

/// Balls that `shape` (placed at its origin, in its link's frame) holds,
/// margin included, one about each centre of `about` that lies inside it,
/// as large as the shape allows less 1e-6 m: what proves a pair within the
/// tolerance without the narrow phase. None for a raw mesh (a surface has
/// no inside), a halfspace, a cone, an ellipsoid or a flat hull.
std::vector<BoundingSphere> inner_spheres(const LinkShape& shape, std::span<const BoundingSphere> about);

/// How many configurations one lane group of the prefilter holds.
inline constexpr std::size_t kPrefilterLanes = 8;

/// The prefilter of one scene checker: every link's spheres and the pairs
/// it must prove apart. Immutable once built; SceneChecker::sphere_prefilter
/// builds it once and shares it.
class SpherePrefilter {
 public:
  explicit SpherePrefilter(const SceneChecker& checker);
  ~SpherePrefilter();
  SpherePrefilter(const SpherePrefilter&) = delete;
  SpherePrefilter& operator=(const SpherePrefilter&) = delete;

  /// False when some link with geometry has an unbounded shape, or a shape
  /// placed beyond the prefilter's working range: it then proves nothing.
  bool available() const;
  /// Link i's spheres in its own frame (empty for a link without geometry).
  const std::vector<BoundingSphere>& link_spheres(std::size_t link) const;

  /// One environment as the prefilter tests it: its objects' bounds, with
  /// the links each may touch. Made once per batch.
  class Scene;
  /// The scene of `env` for a batch with the root at `base` (valid) and
  /// `tolerance` (≥ 0, finite), checked by `checker` (the one this
  /// prefilter was made for): the links no joint moves are measured against
  /// each object once, exactly, and the pairs farther than the tolerance
  /// left out of every row's test. The first call also measures the self
  /// pairs' distance tables, once for the prefilter, over all the
  /// machine's threads.
  std::shared_ptr<const Scene> scene(const SceneChecker& checker, const PreparedEnvironment& env,
                                     const Transform& base, double tolerance) const;

  /// Scratch of one thread: link poses, sphere centres and verdicts of a
  /// lane group.
  struct Scratch;
  struct ScratchDeleter {
    void operator()(Scratch* s) const;
  };
  std::unique_ptr<Scratch, ScratchDeleter> scratch() const;

  /// For each of the `rows` (≤ kPrefilterLanes) joint vectors of `qs`
  /// (as prove_free takes them), every checked pair proven apart, proven
  /// within the tolerance (balls inside both shapes overlap, or one inside a
  /// link and one inside a solid primitive object), or left open; `scratch`
  /// keeps each row's pairs not proven apart, in the exact check's order,
  /// for check_configurations to finish the row with the narrow phase on
  /// the open ones only.
  void classify(std::span<const double> qs, std::size_t rows, const Transform& base, double tolerance,
                const Scene& scene, Scratch& scratch) const;

  /// For each of the `rows` (≤ kPrefilterLanes) joint vectors of `qs`
  /// (row-major, valid: finite, of the model's length), sets proven[i] when
  /// every checked pair is proven farther than `tolerance` (≥ 0, finite)
  /// with the root at `base` (valid). A row left unproven may still be free.
  void prove_free(std::span<const double> qs, std::size_t rows, const Transform& base, double tolerance,
                  const Scene& scene, Scratch& scratch, bool* proven) const;

 private:
  struct Data;
  friend struct detail::PrefilterAccess;
  static void build_tables(const SceneChecker& checker, Data& d);
  std::unique_ptr<Data> d_;
};

}  // namespace proxima::robot
