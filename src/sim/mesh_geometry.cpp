// SPDX-License-Identifier: BSD-3-Clause
// Mesh bodies: BLEM contacts (mesh/mesh_contacts.hpp) behind the Geometry
// interface of the simulator.
//
// The raw BLEM set is reduced inside mesh_contacts before clustering:
// copies merge (cluster_contacts) and flat patches keep their hull vertices
// (contact/patch_hull.hpp). Both matter here: clustered directly, two
// aligned 12-triangle cubes (80 raw contacts at the 4 corners of the face)
// gave 20 representatives of which 13 sat on one corner, and PGS crawled
// along the null space of those identical rows (a 3-cube stack hit the
// 100-sweep cap on every step and crept 7 µm/s with a slow twist); and the
// diagonals' crossing points of sliver patches jumped by centimetres under
// micro-radian yaw and took the largest share of the load.
#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include <proxima/core/error.hpp>
#include <proxima/sim/body.hpp>

namespace proxima::sim {

MeshGeometry::MeshGeometry(std::shared_ptr<const Bvh> bvh, int max_contacts, bool feature_pairs)
    : bvh_(std::move(bvh)), max_contacts_(max_contacts), feature_pairs_(feature_pairs) {
  if (!bvh_) throw Error("mesh geometry: no mesh");
  if (max_contacts_ < 1) throw Error("max_contacts: must be ≥ 1");
}

MassProperties MeshGeometry::mass_properties() const {
  const std::optional<MassProperties> p = bvh_->mesh().mass_properties();
  if (!p)
    throw Error("the mesh" + (bvh_->mesh().name().empty() ? std::string() : " \"" + bvh_->mesh().name() + "\"") +
                " is not closed (an open surface encloses no volume): make the body static or give \"mass\" and "
                "\"inertia\"");
  return *p;
}

void MeshGeometry::contacts(const Transform& pose, const Geometry& other, const Transform& other_pose,
                            const ContactOptions& options, ContactSet& out) const {
  MeshContactOptions o;
  o.margin = options.margin;
  o.feature_pairs = feature_pairs_ || other.feature_pairs();
  // Copies merged, flat patches to their hull vertices, then clustered: all
  // inside mesh_contacts (patch_hulls, cluster).
  o.clustering.max_contacts =
      other.max_contacts() > 0 ? std::min(max_contacts_, other.max_contacts()) : max_contacts_;
  if (const Bvh* m = other.mesh()) {
    mesh_contacts(*bvh_, pose, *m, other_pose, o, out);
  } else if (const Shape* s = other.convex()) {
    mesh_contacts(*bvh_, pose, *s, other_pose, o, out);
  } else {
    out.points.clear();
    out.status = Status::not_implemented;
  }
}

}  // namespace proxima::sim
