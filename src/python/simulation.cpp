// SPDX-License-Identifier: BSD-3-Clause
// The simulator (sim/world.hpp) as proxima.World: built from a scene file or
// JSON text (the parser of `proxima sim`, src/apps/scene.cpp) or body by
// body from proxima shapes; stepped without the GIL; poses, velocities,
// energies and contact forces read back; forces and kinematic paths set.
#include <cmath>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include <proxima/sim/world.hpp>

#include "bindings.hpp"
#include "convert.hpp"
#include "operand.hpp"
#include "world.hpp"
#include "../apps/json_reader.hpp"
#include "../apps/scene.hpp"  // scene_from_json, load_scene (src/python has a scene.hpp of its own)

namespace proxima::python {

nlohmann::json scene_json(const std::string& text) {
  try {
    return apps::parse_json(text);  // the scene files' parser: a repeated key is an error
  } catch (const nlohmann::json::parse_error& e) {
    throw Error(std::string("scene: not valid JSON (") + e.what() + ")");
  }
}

namespace {

std::unique_ptr<PyWorld> from_scene(apps::Scene&& s) {
  // The robots of a scene are stepped by RobotWorld, not by the World alone.
  if (!s.robots.empty()) value_error("robots: proxima.World does not simulate robots (use proxima.RobotWorld)");
  auto w = std::make_unique<PyWorld>();
  w->world = std::move(s.world);
  w->name = std::move(s.name);
  w->duration = s.time;
  return w;
}

// A body by name (str) or index (int).
int body_arg(const sim::World& w, const py::handle& body, const char* what = "body") {
  if (py::isinstance<py::str>(body)) {
    const std::string name = body.cast<std::string>();
    const int i = w.find(name);
    if (i < 0) value_error(std::string(what) + ": no body named '" + name + "'");
    return i;
  }
  if (py::isinstance<py::bool_>(body) || !py::isinstance<py::int_>(body))
    type_error(std::string(what) + ": expected a body name (str) or index (int)");
  const long long i = body.cast<long long>();
  if (i < 0 || i >= static_cast<long long>(w.bodies().size()))
    value_error(std::string(what) + ": index " + std::to_string(i) + " is out of range (" +
                std::to_string(w.bodies().size()) + " bodies)");
  return static_cast<int>(i);
}

// A body's geometry: a convex shape, or a mesh (TriangleMesh, whose BVH is
// built here, or a Bvh, shared) with its margin as the boundary layer.
std::shared_ptr<const sim::Geometry> body_geometry(const py::object& shape, std::optional<int> max_contacts) {
  if (const std::optional<Shape> s = convex_shape(shape)) {
    if (max_contacts) value_error("max_contacts: only a mesh body takes it (the shape is convex)");
    return std::make_shared<sim::ConvexGeometry>(*s);
  }
  std::shared_ptr<const Bvh> bvh;
  if (py::isinstance<Bvh>(shape)) {
    bvh = std::make_shared<const Bvh>(shape.cast<const Bvh&>());
  } else if (py::isinstance<TriangleMesh>(shape)) {
    const TriangleMesh mesh = shape.cast<TriangleMesh>();
    py::gil_scoped_release unlocked;
    bvh = std::make_shared<const Bvh>(mesh);
  } else {
    type_error("add_body: shape must be a convex proxima shape (Sphere, Box, Capsule, ...), a TriangleMesh or a Bvh");
  }
  const int limit = max_contacts.value_or(20);
  if (limit < 1) value_error("max_contacts: must be at least 1, not " + std::to_string(limit));
  return std::make_shared<sim::MeshGeometry>(std::move(bvh), limit);
}

double finite_arg(double x, const std::string& name, double lo, double hi, const char* range) {
  if (!(std::isfinite(x) && x >= lo && x <= hi)) value_error(name + ": must be in " + range + " (got " + repr(x) + ")");
  return x;
}

// A finite vector of magnitude up to `limit` (the scene file's limits,
// apps/scene.hpp), refused in the scene file reader's words.
Vec3 finite_vec3(const py::handle& value, const std::string& name, const char* unit, double limit) {
  const Vec3 v = vec3_arg(value, name);
  if (!v.allFinite()) value_error(name + ": must be finite (got " + repr(v) + ")");
  if (!(v.stableNorm() <= limit))
    value_error(name + ": magnitude " + apps::number_text(v.stableNorm()) + " " + unit + " is above " +
                apps::number_text(limit));
  return v;
}

// times (N,) and values (N, 3) as a schedule; the library checks the order.
sim::LoadSchedule schedule_arg(const py::handle& times, const py::handle& values, const std::string& name,
                               const char* unit) {
  const DoubleArray t = double_array(times, name + " times");
  if (t.ndim() != 1) value_error(name + " times: expected a 1-d array, got shape " + shape_string(t));
  const std::vector<Vec3> v = points_arg(values, name + " values");
  if (v.size() != static_cast<std::size_t>(t.shape(0)))
    value_error(name + ": " + std::to_string(t.shape(0)) + " times but " + std::to_string(v.size()) + " values");
  if (v.empty()) value_error(name + ": needs at least one key");
  sim::LoadSchedule s;
  for (std::size_t i = 0; i < v.size(); ++i) {
    // Non-finite values are the library's to refuse (it names the body).
    if (v[i].allFinite() && !(v[i].stableNorm() <= apps::kMaxSceneForce))
      value_error(name + " values[" + std::to_string(i) + "]: magnitude " + apps::number_text(v[i].stableNorm()) + " " +
                  unit + " is above " + apps::number_text(apps::kMaxSceneForce));
    s.keys.push_back({t.data()[i], v[i]});
  }
  return s;
}

py::dict contact_dict(const sim::World& w, const sim::ContactImpulse& c) {
  const double inv_dt = 1.0 / w.options.dt;
  py::dict d;
  d["a"] = w.bodies()[static_cast<std::size_t>(c.body_a)].name;
  d["b"] = w.bodies()[static_cast<std::size_t>(c.body_b)].name;
  d["point"] = to_array(c.point);
  d["normal"] = to_array(c.normal);
  d["depth"] = c.depth;
  d["normal_force"] = c.normal_impulse * inv_dt;
  d["friction_force"] = to_array(Vec3(c.friction_impulse * inv_dt));
  return d;
}

sim::SolverKind solver_arg(const std::string& s) {
  if (s == "lemke") return sim::SolverKind::lemke;
  if (s == "pgs") return sim::SolverKind::pgs;
  value_error("solver: expected 'lemke' or 'pgs' (got '" + s + "')");
}

}  // namespace

void bind_simulation(py::module_& m) {
  using Lock = std::lock_guard<std::mutex>;
  py::class_<PyWorld>(m, "World",
                      "The rigid-body simulator: bodies under gravity, forces and contacts with friction and "
                      "restitution, stepped at dt (docs/simulator.md). Bodies are named by str or indexed by int. "
                      "Not for concurrent use from several threads beyond step() waiting for other calls.")
      .def(py::init([](const py::object& gravity, double dt, const std::string& solver) {
             auto w = std::make_unique<PyWorld>();
             w->world.gravity = finite_vec3(gravity, "gravity", "m/s²", apps::kMaxSceneRate);
             w->world.options.dt = finite_arg(dt, "dt", 1e-300, 1.0, "(0, 1] s");
             w->world.options.solver = solver_arg(solver);
             return w;
           }),
           py::arg("gravity") = py::make_tuple(0.0, 0.0, -9.81), py::arg("dt") = 1e-3, py::arg("solver") = "lemke",
           "An empty world.")
      .def_static(
          "from_json", [](const std::string& text) { return from_scene(apps::scene_from_json(scene_json(text))); },
          py::arg("text"), "A world from scene-file JSON text (docs/scene-format.md); relative mesh files are read "
                           "from the working directory.")
      .def_static(
          "from_file",
          [](const std::string& path) { return from_scene(apps::load_scene(path)); },
          py::arg("path"), "A world from a scene file (docs/scene-format.md).")
      .def_property_readonly("name", [](const PyWorld& w) { return w.name; }, "The scene's name ('world' if built here).")
      .def_property_readonly("duration", [](const PyWorld& w) { return w.duration; },
                             "The scene file's \"time\", s (1 if built here).")
      .def_property_readonly("time", [](PyWorld& w) { Lock l(w.mutex); return w.world.time(); }, "Simulated time, s.")
      .def_property(
          "dt", [](PyWorld& w) { Lock l(w.mutex); return w.world.options.dt; },
          [](PyWorld& w, double dt) {
            Lock l(w.mutex);
            w.world.options.dt = finite_arg(dt, "dt", 1e-300, 1.0, "(0, 1] s");
          },
          "Time step, s, in (0, 1].")
      .def_property(
          "gravity", [](PyWorld& w) { Lock l(w.mutex); return to_array(w.world.gravity); },
          [](PyWorld& w, const py::object& g) {
            const Vec3 v = finite_vec3(g, "gravity", "m/s²", apps::kMaxSceneRate);
            Lock l(w.mutex);
            w.world.gravity = v;
          },
          "Gravity, m/s².")
      .def_property_readonly(
          "body_names",
          [](PyWorld& w) {
            Lock l(w.mutex);
            return body_names(w.world);
          },
          "Names of the bodies, by index.")
      .def(
          "add_body",
          [](PyWorld& w, const std::string& name, const py::object& shape, const py::object& pose,
             std::optional<double> density, std::optional<double> mass, bool is_static, bool kinematic,
             const py::object& velocity, const py::object& angular_velocity, std::optional<int> max_contacts) {
            sim::Body b;
            b.name = name;
            b.geometry = body_geometry(shape, max_contacts);
            b.pose = pose_arg(pose, "pose", PoseCheck::strict);
            b.is_static = is_static;
            if (!velocity.is_none()) b.linear_velocity = finite_vec3(velocity, "velocity", "m/s", apps::kMaxSceneRate);
            if (!angular_velocity.is_none())
              b.angular_velocity = finite_vec3(angular_velocity, "angular_velocity", "rad/s", apps::kMaxSceneRate);
            const int kinds = int(is_static) + int(kinematic) + int(density.has_value()) + int(mass.has_value());
            if (kinds != 1)
              value_error("add_body '" + name + "': give exactly one of density, mass, static=True or kinematic=True");
            if (kinematic) {
              if (!velocity.is_none() || !angular_velocity.is_none())
                value_error("add_body '" + name + "': a kinematic body's velocity is its path's (set_kinematic)");
              b.kinematic = sim::KinematicPath{};
            }
            if (density) b.mass = sim::mass_from_density(*b.geometry, *density);
            if (mass) {
              if (!(std::isfinite(*mass) && *mass > 0.0)) value_error("mass: must be finite and > 0");
              MassProperties p = b.geometry->mass_properties();
              if (!(p.volume > 0.0)) value_error("mass: the shape has no volume, give a density-free body a volume");
              b.mass = {*mass, p.centroid, p.inertia * (*mass / p.volume)};
            }
            Lock l(w.mutex);
            if (w.world.find(name) >= 0) value_error("add_body: a body named '" + name + "' exists");
            return w.world.add(std::move(b));
          },
          py::arg("name"), py::arg("shape"), py::arg("pose") = py::none(), py::kw_only(),
          py::arg("density") = py::none(), py::arg("mass") = py::none(), py::arg("static").noconvert() = false,
          py::arg("kinematic").noconvert() = false, py::arg("velocity") = py::none(),
          py::arg("angular_velocity") = py::none(),
          py::arg("max_contacts") = py::none(),
          "Adds a body and returns its index: dynamic (density kg/m³ or mass kg, the shape's inertia; a mesh's "
          "enclosed solid, so an open mesh needs static=True or kinematic=True), static, or kinematic (at rest "
          "until set_kinematic gives it a path). The shape is a convex proxima shape (Sphere, Box, Capsule, ...) "
          "or a mesh (TriangleMesh or Bvh) with its margin as the boundary layer; max_contacts (meshes only, "
          "default 20) bounds the contacts a mesh keeps per body pair.")
      .def(
          "step",
          [](PyWorld& w, long long n) {
            if (n < 0) value_error("step: n must be >= 0 (got " + std::to_string(n) + ")");
            py::gil_scoped_release free;
            Lock l(w.mutex);
            for (long long i = 0; i < n; ++i) w.world.step();
          },
          py::arg("n") = 1, "Advances n steps of dt, without holding the GIL.")
      .def(
          "pose",
          [](PyWorld& w, const py::object& body) {
            Lock l(w.mutex);
            return w.world.bodies()[static_cast<std::size_t>(body_arg(w.world, body))].pose;
          },
          py::arg("body"), "Pose of the body's geometry frame.")
      .def(
          "velocity",
          [](PyWorld& w, const py::object& body) {
            Lock l(w.mutex);
            return to_array(w.world.bodies()[static_cast<std::size_t>(body_arg(w.world, body))].linear_velocity);
          },
          py::arg("body"),
          "Velocity of the centre of mass, m/s (a kinematic body's: of its frame origin, this step's).")
      .def(
          "angular_velocity",
          [](PyWorld& w, const py::object& body) {
            Lock l(w.mutex);
            return to_array(w.world.bodies()[static_cast<std::size_t>(body_arg(w.world, body))].angular_velocity);
          },
          py::arg("body"), "Angular velocity, rad/s, world frame.")
      .def(
          "mass",
          [](PyWorld& w, const py::object& body) {
            Lock l(w.mutex);
            const sim::Body& b = w.world.bodies()[static_cast<std::size_t>(body_arg(w.world, body))];
            return b.infinite_mass() ? INFINITY : b.mass.mass;
          },
          py::arg("body"), "Mass, kg (inf for static and kinematic bodies).")
      .def("kinetic_energy", [](PyWorld& w) { Lock l(w.mutex); return w.world.kinetic_energy(); },
           "Kinetic energy of the dynamic bodies, J.")
      .def("potential_energy", [](PyWorld& w) { Lock l(w.mutex); return w.world.potential_energy(); },
           "Potential of gravity and of constant forces, J (scheduled forces have none).")
      .def(
          "contacts",
          [](PyWorld& w) {
            Lock l(w.mutex);
            py::list out;
            for (const sim::ContactImpulse& c : w.world.last_contacts()) out.append(contact_dict(w.world, c));
            return out;
          },
          "The last step's contacts: dicts with 'a', 'b' (body names), 'point', 'normal' (b to a), 'depth', "
          "'normal_force' (N) and 'friction_force' (N, on a, world frame): the step's impulses over dt.")
      .def(
          "set_force",
          [](PyWorld& w, const py::object& body, const py::object& force) {
            const Vec3 f = finite_vec3(force, "force", "N", apps::kMaxSceneForce);
            Lock l(w.mutex);
            const int i = body_arg(w.world, body);
            w.world.set_force_schedule(i, {});
            w.world.bodies()[static_cast<std::size_t>(i)].force = f;
          },
          py::arg("body"), py::arg("force"), "A constant force at the centre of mass, N, world frame.")
      .def(
          "set_torque",
          [](PyWorld& w, const py::object& body, const py::object& torque) {
            const Vec3 t = finite_vec3(torque, "torque", "N·m", apps::kMaxSceneForce);
            Lock l(w.mutex);
            const int i = body_arg(w.world, body);
            w.world.set_torque_schedule(i, {});
            w.world.bodies()[static_cast<std::size_t>(i)].torque = t;
          },
          py::arg("body"), py::arg("torque"), "A constant torque, N·m, world frame.")
      .def(
          "set_force_schedule",
          [](PyWorld& w, const py::object& body, const py::object& times, const py::object& forces) {
            sim::LoadSchedule s = schedule_arg(times, forces, "force", "N");
            Lock l(w.mutex);
            w.world.set_force_schedule(body_arg(w.world, body), std::move(s));
          },
          py::arg("body"), py::arg("times"), py::arg("forces"),
          "A force piecewise linear in time through (times[i], forces[i]) (world time, s; N), held outside them.")
      .def(
          "set_torque_schedule",
          [](PyWorld& w, const py::object& body, const py::object& times, const py::object& torques) {
            sim::LoadSchedule s = schedule_arg(times, torques, "torque", "N·m");
            Lock l(w.mutex);
            w.world.set_torque_schedule(body_arg(w.world, body), std::move(s));
          },
          py::arg("body"), py::arg("times"), py::arg("torques"), "A torque piecewise linear in time (N·m).")
      .def(
          "set_kinematic",
          [](PyWorld& w, const py::object& body, const py::object& velocity, const py::object& angular_velocity,
             const py::object& keyframes) {
            sim::KinematicPath path;
            if (!keyframes.is_none()) {
              if (!velocity.is_none() || !angular_velocity.is_none())
                value_error("set_kinematic: give keyframes or velocity/angular_velocity, not both");
              std::size_t i = 0;
              for (const py::handle k : keyframes) {
                const std::string at = "keyframes[" + std::to_string(i++) + "]";
                const py::tuple pair = py::reinterpret_borrow<py::object>(k).cast<py::tuple>();
                if (pair.size() != 2) value_error(at + ": expected a (t, pose) pair");
                const double t = pair[0].cast<double>();
                const Transform p = pose_arg(pair[1], at + " pose", PoseCheck::strict);
                path.keyframes.push_back({t, p.p, Quat(p.R)});
              }
              if (path.keyframes.empty()) value_error("set_kinematic: keyframes: needs at least one keyframe");
            } else {
              if (!velocity.is_none()) path.velocity = finite_vec3(velocity, "velocity", "m/s", apps::kMaxSceneRate);
              if (!angular_velocity.is_none())
                path.angular_velocity = finite_vec3(angular_velocity, "angular_velocity", "rad/s", apps::kMaxSceneRate);
            }
            Lock l(w.mutex);
            w.world.set_kinematic(body_arg(w.world, body), std::move(path));
          },
          py::arg("body"), py::kw_only(), py::arg("velocity") = py::none(), py::arg("angular_velocity") = py::none(),
          py::arg("keyframes") = py::none(),
          "Makes the body kinematic: a constant twist (velocity of its frame origin, angular velocity about it) "
          "or keyframes [(t, pose), ...] in world time (position linear, orientation slerped).")
      .def(
          "set_free",
          [](PyWorld& w, const py::object& body) {
            Lock l(w.mutex);
            w.world.set_kinematic(body_arg(w.world, body), std::nullopt);
          },
          py::arg("body"), "Ends a kinematic body's path: it moves freely from its pose and velocity (needs a mass).")
      .def(
          "set_friction",
          [](PyWorld& w, const py::object& a, const py::object& b, double mu) {
            finite_arg(mu, "mu", 0.0, 1e15, "[0, 1e15]");
            Lock l(w.mutex);
            w.world.friction.set(body_arg(w.world, a, "a"), body_arg(w.world, b, "b"), mu);
          },
          py::arg("a"), py::arg("b"), py::arg("mu"), "Friction coefficient of one body pair.")
      .def_property(
          "friction", [](PyWorld& w) { Lock l(w.mutex); return w.world.friction.default_mu; },
          [](PyWorld& w, double mu) {
            finite_arg(mu, "friction", 0.0, 1e15, "[0, 1e15]");
            Lock l(w.mutex);
            w.world.friction.default_mu = mu;
          },
          "Default friction coefficient.")
      .def(
          "set_restitution",
          [](PyWorld& w, const py::object& a, const py::object& b, double e) {
            finite_arg(e, "e", 0.0, 1.0, "[0, 1]");
            Lock l(w.mutex);
            w.world.restitution.set(body_arg(w.world, a, "a"), body_arg(w.world, b, "b"), e);
          },
          py::arg("a"), py::arg("b"), py::arg("e"), "Restitution coefficient of one body pair.")
      .def_property(
          "restitution", [](PyWorld& w) { Lock l(w.mutex); return w.world.restitution.default_e; },
          [](PyWorld& w, double e) {
            finite_arg(e, "restitution", 0.0, 1.0, "[0, 1]");
            Lock l(w.mutex);
            w.world.restitution.default_e = e;
          },
          "Default restitution coefficient (0: no bounce).")
      .def_property(
          "restitution_threshold", [](PyWorld& w) { Lock l(w.mutex); return w.world.restitution.threshold; },
          [](PyWorld& w, double v) {
            finite_arg(v, "restitution_threshold", 0.0, 1e6, "[0, 1e6] m/s");
            Lock l(w.mutex);
            w.world.restitution.threshold = v;
          },
          "Approach speed, m/s, below which a contact does not bounce.")
      .def("__repr__", [](PyWorld& w) {
        Lock l(w.mutex);
        return "<proxima.World '" + w.name + "': " + std::to_string(w.world.bodies().size()) + " bodies, t = " +
               repr(w.world.time()) + " s>";
      });
}

}  // namespace proxima::python
