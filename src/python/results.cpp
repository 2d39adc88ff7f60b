// SPDX-License-Identifier: BSD-3-Clause
// The query results as Python classes: numbers as floats, vectors as numpy
// arrays (copies), `status` as its name ('ok', 'not_converged',
// 'invalid_input', 'not_implemented').
#include "bindings.hpp"
#include "convert.hpp"
#include "pair_queries.hpp"

namespace proxima::python {
namespace {

template <class T>
std::string status_of(const T& r) {
  return to_string(r.status);
}

py::array_t<std::int64_t> contact_features(const ContactAnswer& c, int Contact::*feature) {
  py::array_t<std::int64_t> a(static_cast<py::ssize_t>(c.points.size()));
  for (std::size_t i = 0; i < c.points.size(); ++i) a.mutable_at(static_cast<py::ssize_t>(i)) = c.points[i].*feature;
  return a;
}

py::array contact_vectors(const ContactAnswer& c, Vec3 Contact::*field) {
  std::vector<Vec3> v;
  v.reserve(c.points.size());
  for (const Contact& k : c.points) v.push_back(k.*field);
  return to_array(v);
}

}  // namespace

void bind_results(py::module_& m) {
  py::class_<CollideAnswer>(m, "CollideResult", "Answer of collide().")
      .def_property_readonly("status", &status_of<CollideAnswer>)
      .def_readonly("collide", &CollideAnswer::collide, "The shapes (with margins) touch or overlap.")
      .def_readonly("iterations", &CollideAnswer::iterations, "GJK iterations (convex pairs).")
      .def_readonly("triangle_a", &CollideAnswer::triangle_a, "A colliding triangle of a mesh A, else -1.")
      .def_readonly("triangle_b", &CollideAnswer::triangle_b, "A colliding triangle of a mesh B, else -1.")
      .def("__repr__", [](const CollideAnswer& r) {
        return "CollideResult(status='" + status_of(r) + "', collide=" + (r.collide ? "True" : "False") + ")";
      });

  py::class_<DistanceAnswer>(m, "DistanceResult",
                             "Answer of distance() and signed_distance(): point_b = point_a - distance * normal.")
      .def_property_readonly("status", &status_of<DistanceAnswer>)
      .def_readonly("distance", &DistanceAnswer::distance,
                    "distance(): >= 0, 0 when touching or overlapping. signed_distance(): -depth when overlapping.")
      .def_property_readonly(
          "normal", [](const DistanceAnswer& r) { return to_array(r.normal); },
          "Unit normal (3,) from B to A: moving A along it separates the pair.")
      .def_property_readonly(
          "point_a", [](const DistanceAnswer& r) { return to_array(r.point_a); }, "Witness point on A (3,), world.")
      .def_property_readonly(
          "point_b", [](const DistanceAnswer& r) { return to_array(r.point_b); }, "Witness point on B (3,), world.")
      .def_readonly("iterations", &DistanceAnswer::iterations, "GJK iterations (0 for closed forms and meshes).")
      .def_readonly("bound_exceeded", &DistanceAnswer::bound_exceeded,
                    "Stopped early: the distance is proven above `bound` and is a lower bound.")
      .def_readonly("triangle_a", &DistanceAnswer::triangle_a, "Closest triangle of a mesh A, else -1.")
      .def_readonly("triangle_b", &DistanceAnswer::triangle_b, "Closest triangle of a mesh B, else -1.")
      .def("__repr__", [](const DistanceAnswer& r) {
        return "DistanceResult(status='" + status_of(r) + "', distance=" + repr(r.distance) +
               ", normal=" + repr(r.normal) + ")";
      });

  py::class_<ContactAnswer>(m, "ContactResult",
                            "Answer of contacts(): the contact points with their normals (B to A) and depths "
                            "(negative for gaps within the contact margin).")
      .def_property_readonly("status", &status_of<ContactAnswer>)
      .def_readonly("distance", &ContactAnswer::distance,
                    "Signed distance of the pair (negative when overlapping); with bound_exceeded, a proven lower "
                    "bound above the margin instead.")
      .def_readonly("bound_exceeded", &ContactAnswer::bound_exceeded,
                    "True when the pair was proven farther apart than the margin: no points, and distance is a "
                    "lower bound, not the distance.")
      .def_property_readonly(
          "normal", [](const ContactAnswer& r) { return to_array(r.normal); }, "The pair's normal (3,), B to A.")
      .def_property_readonly(
          "points", [](const ContactAnswer& r) { return contact_vectors(r, &Contact::point); },
          "Contact points (N, 3), midway between the surfaces.")
      .def_property_readonly(
          "normals", [](const ContactAnswer& r) { return contact_vectors(r, &Contact::normal); },
          "Per-point normals (N, 3), B to A.")
      .def_property_readonly(
          "depths",
          [](const ContactAnswer& r) {
            py::array_t<double> a(static_cast<py::ssize_t>(r.points.size()));
            for (std::size_t i = 0; i < r.points.size(); ++i) a.mutable_at(static_cast<py::ssize_t>(i)) = r.points[i].depth;
            return a;
          },
          "Per-point depth (N,): overlap along the normal, negative for a gap.")
      .def_property_readonly(
          "feature_a", [](const ContactAnswer& r) { return contact_features(r, &Contact::feature_a); },
          "Per-point triangle of a mesh A (N,), else -1.")
      .def_property_readonly(
          "feature_b", [](const ContactAnswer& r) { return contact_features(r, &Contact::feature_b); },
          "Per-point triangle of a mesh B (N,), else -1.")
      .def_property_readonly(
          "intersecting",
          [](const ContactAnswer& r) {
            py::array_t<bool> a(static_cast<py::ssize_t>(r.points.size()));
            for (std::size_t i = 0; i < r.points.size(); ++i)
              a.mutable_at(static_cast<py::ssize_t>(i)) = r.points[i].intersecting;
            return a;
          },
          "Per-point flag (N,): mesh cores intersect there, not only their boundary layers.")
      .def("__len__", [](const ContactAnswer& r) { return r.points.size(); })
      .def("__repr__", [](const ContactAnswer& r) {
        return "ContactResult(status='" + status_of(r) + "', " + std::to_string(r.points.size()) +
               " points, distance=" + repr(r.distance) + ")";
      });

  py::class_<ToleranceAnswer>(m, "ToleranceResult", "Answer of tolerance().")
      .def_property_readonly("status", &status_of<ToleranceAnswer>)
      .def_readonly("within", &ToleranceAnswer::within, "The distance (with margins) is at most the tolerance.")
      .def_readonly("distance", &ToleranceAnswer::distance,
                    "Convex pairs: the bound that decided it (<= tolerance when within, a proven lower bound above "
                    "it when not); None for a pair with a mesh.")
      .def_readonly("iterations", &ToleranceAnswer::iterations, "GJK iterations (convex pairs).")
      .def_readonly("triangle_a", &ToleranceAnswer::triangle_a, "A triangle of a mesh A within it, else -1.")
      .def_readonly("triangle_b", &ToleranceAnswer::triangle_b, "A triangle of a mesh B within it, else -1.")
      .def("__repr__", [](const ToleranceAnswer& r) {
        return "ToleranceResult(status='" + status_of(r) + "', within=" + (r.within ? "True" : "False") + ")";
      });

  py::class_<TimeOfImpactAnswer>(m, "TimeOfImpactResult", "Answer of time_of_impact().")
      .def_property_readonly("status", &status_of<TimeOfImpactAnswer>)
      .def_readonly("collide", &TimeOfImpactAnswer::collide,
                    "The pair comes within the clearance during the motion (also True, with status "
                    "'not_converged', when the iteration cap stopped the search: `time` is then a lower bound).")
      .def_readonly("time", &TimeOfImpactAnswer::time,
                    "First time in [0, 1] within clearance (+ accuracy); 1 when the pair stays apart.")
      .def_readonly("witness", &TimeOfImpactAnswer::witness,
                    "The distance query at witness_time (the poses at impact when collide).")
      .def_readonly("witness_time", &TimeOfImpactAnswer::witness_time)
      .def_readonly("iterations", &TimeOfImpactAnswer::iterations, "Distance queries made.")
      .def("__repr__", [](const TimeOfImpactAnswer& r) {
        return "TimeOfImpactResult(status='" + status_of(r) + "', collide=" + (r.collide ? "True" : "False") +
               ", time=" + repr(r.time) + ")";
      });
}

}  // namespace proxima::python
