// SPDX-License-Identifier: BSD-3-Clause
// The convex shapes and proxima.Shape, the value any of them converts to.
#include <proxima/shape/shape.hpp>

#include <type_traits>

#include "bindings.hpp"
#include "convert.hpp"
#include "operand.hpp"
#include "pickling.hpp"

namespace proxima::python {
namespace {

template <class T>
Shape to_shape(const T& s) {
  return Shape(s);
}

py::object mass_properties(const Shape& s) { return py::cast(s.mass_properties()); }

// Pickled states: the constructor's arguments, which the constructor checks
// again when they are read back. Returned as py::object because pybind11
// wants __setstate__ to take what __getstate__ returns, and __setstate__
// takes any object so that a state that is not a tuple raises proxima.Error
// naming the class rather than a bare TypeError.
py::object state(const Sphere& s) { return py::make_tuple(s.radius(), s.margin()); }
Sphere restore(const py::object& state, std::type_identity<Sphere>) {
  const StateReader r(state, "Sphere", {"radius", "margin"});
  return r.build([&] { return Sphere(r.number(0), r.number(1)); });
}

template <class T>
py::object radius_length_state(const T& s) {
  return py::make_tuple(s.radius(), s.length(), s.margin());
}
template <class T>
T restore_radius_length(const py::object& state, const char* type) {
  const StateReader r(state, type, {"radius", "length", "margin"});
  return r.build([&] { return T(r.number(0), r.number(1), r.number(2)); });
}
py::object state(const Capsule& s) { return radius_length_state(s); }
Capsule restore(const py::object& state, std::type_identity<Capsule>) {
  return restore_radius_length<Capsule>(state, "Capsule");
}
py::object state(const Cylinder& s) { return radius_length_state(s); }
Cylinder restore(const py::object& state, std::type_identity<Cylinder>) {
  return restore_radius_length<Cylinder>(state, "Cylinder");
}
py::object state(const Cone& s) { return radius_length_state(s); }
Cone restore(const py::object& state, std::type_identity<Cone>) { return restore_radius_length<Cone>(state, "Cone"); }

// The full size: halving it in the constructor and doubling it in size() are
// exact, so the half extents come back bit for bit.
py::object state(const Box& b) { return py::make_tuple(state_of(b.size()), b.margin()); }
Box restore(const py::object& state, std::type_identity<Box>) {
  const StateReader r(state, "Box", {"size", "margin"});
  return r.build([&] { return Box(r.vec3(0), r.number(1)); });
}

py::object state(const Ellipsoid& e) { return py::make_tuple(state_of(e.radii()), e.margin()); }
Ellipsoid restore(const py::object& state, std::type_identity<Ellipsoid>) {
  const StateReader r(state, "Ellipsoid", {"radii", "margin"});
  return r.build([&] { return Ellipsoid(r.vec3(0), r.number(1)); });
}

// The unit normal: the constructor keeps a normal that is unit to rounding,
// so it comes back unchanged.
py::object state(const Halfspace& h) { return py::make_tuple(state_of(h.normal()), h.offset(), h.margin()); }
Halfspace restore(const py::object& state, std::type_identity<Halfspace>) {
  const StateReader r(state, "Halfspace", {"normal", "offset", "margin"});
  return r.build([&] { return Halfspace(r.vec3(0), r.number(1), r.number(2)); });
}

// The hull vertices only: they keep their input order, so the hull of them
// is the same polytope, vertices, faces and all.
py::object state(const ConvexPolytope& p) { return py::make_tuple(to_array(p.vertices()), p.margin()); }
ConvexPolytope restore(const py::object& state, std::type_identity<ConvexPolytope>) {
  const StateReader r(state, "ConvexPolytope", {"vertices", "margin"});
  return r.build([&] { return ConvexPolytope(r.points(0), r.number(1)); });
}

// What every shape class has: its margin, the Shape it converts to, bounds
// and mass properties.
template <class T, class Class>
void add_common(Class& c) {
  c.def_property_readonly("margin", &T::margin, "Margin r >= 0: the geometry is the shape inflated by a ball of r.")
      .def("to_shape", &to_shape<T>, "This shape as a proxima.Shape.")
      .def(
          "aabb",
          [](const T& s, const py::object& pose) {
            return to_array(Shape(s).world_aabb(pose_arg(pose, "pose", PoseCheck::strict)));
          },
          py::arg("pose") = py::none(), "Axis-aligned bounds (2, 3): min and max corners, margin included, at `pose`.")
      .def(
          "mass_properties", [](const T& s) { return mass_properties(Shape(s)); },
          "Volume, centroid and inertia (unit density) of the core, without the margin.")
      .def(py::pickle([](const T& s) { return state(s); },
                      [](const py::object& st) { return restore(st, std::type_identity<T>{}); }));
  py::implicitly_convertible<T, Shape>();
}

py::object concrete(const Shape& s) {
  return std::visit([](const auto& v) { return py::cast(v); }, s.variant());
}

}  // namespace

void bind_shapes(py::module_& m) {
  // First: every shape class declares its implicit conversion to it.
  py::class_<Shape>(m, "Shape",
                    "Any one of the convex shapes, as the queries take it. Every shape class converts to it "
                    "implicitly; queries accept either.")
      .def(py::init([](const py::object& s) {
             std::optional<Shape> shape = convex_shape(s);
             if (!shape) type_error("Shape: expected one of the convex shapes");
             return *shape;
           }),
           py::arg("shape"))
      .def_property_readonly(
          "type", [](const Shape& s) { return std::string(s.name()); }, "'sphere', 'capsule', ..., 'convex'.")
      .def_property_readonly("margin", &Shape::margin)
      .def_property_readonly("shape", &concrete, "The concrete shape (a Sphere, a Box, ...).")
      .def(
          "aabb",
          [](const Shape& s, const py::object& pose) {
            return to_array(s.world_aabb(pose_arg(pose, "pose", PoseCheck::strict)));
          },
          py::arg("pose") = py::none(), "Axis-aligned bounds (2, 3) at `pose`, margin included.")
      .def("mass_properties", &mass_properties, "Volume, centroid and inertia (unit density) of the core.")
      .def(py::pickle([](const Shape& s) -> py::object { return py::make_tuple(concrete(s)); },
                      [](const py::object& st) {
                        const StateReader r(st, "Shape", {"shape"});
                        std::optional<Shape> s = convex_shape(r.item(0));
                        if (!s) r.fail("shape must be one of the convex shapes");
                        return *s;
                      }))
      .def("__repr__", [](const Shape& s) { return "Shape(" + std::string(py::repr(concrete(s))) + ")"; });
  py::class_<MassProperties>(m, "MassProperties", "Mass properties of a solid of unit density.")
      .def_readonly("volume", &MassProperties::volume, "Volume (m^3).")
      .def_property_readonly(
          "centroid", [](const MassProperties& p) { return to_array(p.centroid); }, "Centroid (3,), local frame.")
      .def_property_readonly(
          "inertia", [](const MassProperties& p) { return to_array(p.inertia); },
          "Inertia tensor (3, 3) about the centroid, local axes; times the density for kg m^2.");

  py::class_<Sphere> sphere(m, "Sphere", "Sphere of `radius` about the local origin.");
  sphere.def(py::init<double, double>(), py::arg("radius"), py::arg("margin") = 0.0)
      .def_property_readonly("radius", &Sphere::radius)
      .def("__repr__", [](const Sphere& s) {
        return "Sphere(radius=" + repr(s.radius()) + ", margin=" + repr(s.margin()) + ")";
      });
  add_common<Sphere>(sphere);

  py::class_<Capsule> capsule(m, "Capsule",
                              "Capsule: the segment of `length` along local z, centred, swept by a ball of `radius`.");
  capsule.def(py::init<double, double, double>(), py::arg("radius"), py::arg("length"), py::arg("margin") = 0.0)
      .def_property_readonly("radius", &Capsule::radius)
      .def_property_readonly("length", &Capsule::length, "Length of the segment (the cylindrical part).")
      .def("__repr__", [](const Capsule& s) {
        return "Capsule(radius=" + repr(s.radius()) + ", length=" + repr(s.length()) + ", margin=" + repr(s.margin()) +
               ")";
      });
  add_common<Capsule>(capsule);

  py::class_<Cylinder> cylinder(m, "Cylinder", "Solid cylinder about local z, of full height `length`, centred.");
  cylinder.def(py::init<double, double, double>(), py::arg("radius"), py::arg("length"), py::arg("margin") = 0.0)
      .def_property_readonly("radius", &Cylinder::radius)
      .def_property_readonly("length", &Cylinder::length)
      .def("__repr__", [](const Cylinder& s) {
        return "Cylinder(radius=" + repr(s.radius()) + ", length=" + repr(s.length()) + ", margin=" + repr(s.margin()) +
               ")";
      });
  add_common<Cylinder>(cylinder);

  py::class_<Cone> cone(m, "Cone",
                        "Solid cone about local z: base disc at z = -length/2, apex at +length/2 (origin at mid-height).");
  cone.def(py::init<double, double, double>(), py::arg("radius"), py::arg("length"), py::arg("margin") = 0.0)
      .def_property_readonly("radius", &Cone::radius)
      .def_property_readonly("length", &Cone::length)
      .def("__repr__", [](const Cone& s) {
        return "Cone(radius=" + repr(s.radius()) + ", length=" + repr(s.length()) + ", margin=" + repr(s.margin()) + ")";
      });
  add_common<Cone>(cone);

  py::class_<Box> box(m, "Box", "Box of full extents `size`, centred at the local origin.");
  box.def(py::init([](const py::object& size, double margin) { return Box(vec3_arg(size, "size"), margin); }),
          py::arg("size"), py::arg("margin") = 0.0, "Box((x, y, z), margin=0): full extents.")
      .def(py::init<double, double, double, double>(), py::arg("x"), py::arg("y"), py::arg("z"),
           py::arg("margin") = 0.0, "Box(x, y, z, margin=0): full extents.")
      .def_property_readonly(
          "size", [](const Box& b) { return to_array(b.size()); }, "Full extents (3,).")
      .def_property_readonly(
          "half_extents", [](const Box& b) { return to_array(b.half_extents()); }, "Half extents (3,).")
      .def("__repr__", [](const Box& b) { return "Box(size=" + repr(b.size()) + ", margin=" + repr(b.margin()) + ")"; });
  add_common<Box>(box);

  py::class_<Ellipsoid> ellipsoid(m, "Ellipsoid", "Ellipsoid with semi-axes `radii` along local x, y, z.");
  ellipsoid
      .def(py::init([](const py::object& radii, double margin) { return Ellipsoid(vec3_arg(radii, "radii"), margin); }),
           py::arg("radii"), py::arg("margin") = 0.0)
      .def_property_readonly("radii", [](const Ellipsoid& e) { return to_array(e.radii()); })
      .def("__repr__", [](const Ellipsoid& e) {
        return "Ellipsoid(radii=" + repr(e.radii()) + ", margin=" + repr(e.margin()) + ")";
      });
  add_common<Ellipsoid>(ellipsoid);

  py::class_<Halfspace> halfspace(m, "Halfspace",
                                  "Halfspace {x : normal . x <= offset} in the local frame (normal normalized).");
  halfspace
      .def(py::init([](const py::object& normal, double offset, double margin) {
             return Halfspace(vec3_arg(normal, "normal"), offset, margin);
           }),
           py::arg("normal"), py::arg("offset") = 0.0, py::arg("margin") = 0.0)
      .def_property_readonly("normal", [](const Halfspace& h) { return to_array(h.normal()); })
      .def_property_readonly("offset", &Halfspace::offset)
      .def("__repr__", [](const Halfspace& h) {
        return "Halfspace(normal=" + repr(h.normal()) + ", offset=" + repr(h.offset()) + ", margin=" + repr(h.margin()) +
               ")";
      });
  add_common<Halfspace>(halfspace);

  py::class_<ConvexPolytope> polytope(
      m, "ConvexPolytope",
      "Convex hull of a point set (qhull). Interior and duplicate points are dropped; a flat set needs a margin > 0.");
  polytope
      .def(py::init([](const py::object& points, double margin) {
             return ConvexPolytope(points_arg(points, "points"), margin);
           }),
           py::arg("points"), py::arg("margin") = 0.0, "ConvexPolytope(points (N, 3), margin=0).")
      .def_property_readonly(
          "vertices", [](const ConvexPolytope& p) { return to_array(p.vertices()); }, "Hull vertices (M, 3).")
      .def_property_readonly(
          "faces", [](const ConvexPolytope& p) { return p.data().faces; },
          "Hull faces: lists of indices into `vertices`.")
      .def("__repr__", [](const ConvexPolytope& p) {
        return "ConvexPolytope(" + std::to_string(p.vertices().size()) + " vertices, margin=" + repr(p.margin()) + ")";
      });
  add_common<ConvexPolytope>(polytope);

}

}  // namespace proxima::python
