// Mesh bodies: BLEM contacts (mesh/mesh_contacts.hpp) behind the Geometry
// interface of the simulator.
#include <algorithm>
#include <string>

#include <proxima/core/error.hpp>
#include <proxima/sim/body.hpp>

namespace proxima::sim {

MeshGeometry::MeshGeometry(std::shared_ptr<const Bvh> bvh, int max_contacts)
    : bvh_(std::move(bvh)), max_contacts_(max_contacts) {
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
  o.clustering.max_contacts = other.max_contacts() > 0 ? std::min(max_contacts_, other.max_contacts()) : max_contacts_;
  if (const Bvh* m = other.mesh()) {
    mesh_contacts(*bvh_, pose, *m, other_pose, o, out);
    return;
  }
  if (const Shape* s = other.convex()) {
    mesh_contacts(*bvh_, pose, *s, other_pose, o, out);
    return;
  }
  out.points.clear();
  out.status = Status::not_implemented;
}

}  // namespace proxima::sim
