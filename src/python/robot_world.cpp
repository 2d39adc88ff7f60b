// SPDX-License-Identifier: BSD-3-Clause
// robot::RobotWorld as proxima.RobotWorld: a URDF robot among a
// proxima.World's bodies (copied when it is built), its PD targets and
// torques set, stepped without the GIL, joint states, link and body poses
// and contact forces read back.
#include <cmath>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <proxima/robot/robot_world.hpp>
#include <proxima/robot/urdf.hpp>

#include <pybind11/stl/filesystem.h>

#include "../apps/json_reader.hpp"  // number_text: ranges worded as the scene file reader words them
#include "../apps/scene.hpp"  // load_scene, scene_from_json (src/python has a scene.hpp of its own)
#include "bindings.hpp"
#include "scene.hpp"
#include "convert.hpp"
#include "world.hpp"

namespace proxima::python {
namespace {

struct PyRobotWorld {
  std::unique_ptr<robot::RobotWorld> rw;
  std::mutex mutex;
  // A world read from a scene file: its robot entry (PD gains and target
  // trajectory), followed by step() while `scripted`.
  std::optional<apps::SceneRobot> script;
  bool scripted = false;
  std::string name = "world";
  double duration = 1.0;
};

using RobotWorldLock = std::lock_guard<std::mutex>;

// The closed range [lo, hi] a number must be in, as the scene file reader
// words it.
struct JointRange {
  double lo, hi;
};

// The reason x is refused, or empty when it is finite and in `range`.
std::string joint_value_problem(double x, const JointRange& range) {
  if (!std::isfinite(x)) return "must be finite (got " + repr(x) + ")";
  if (x < range.lo || x > range.hi)
    return "must be in [" + apps::number_text(range.lo) + ", " + apps::number_text(range.hi) + "] (got " + repr(x) +
           ")";
  return {};
}

// The ranges of a scene's robot entry (apps/scene_robot.hpp).
constexpr JointRange kRobotPositionRange{-kMaxLength, kMaxLength};
constexpr JointRange kRobotRateRange{-apps::kMaxRobotRate, apps::kMaxRobotRate};
constexpr JointRange kRobotGainRange{0.0, apps::kMaxRobotGain};
constexpr JointRange kRobotTorqueRange{-apps::kMaxRobotTorque, apps::kMaxRobotTorque};

// A joint vector: an array of dof() numbers, or (when `scalar_ok`) one number
// for every joint. Sizes, finiteness and `range` are checked here, naming
// `name`, the index and the joint.
Eigen::VectorXd joint_values(const robot::RobotModel& m, const py::handle& value, const std::string& name,
                             bool scalar_ok, const JointRange& range) {
  const auto dof = static_cast<Eigen::Index>(m.variable_count());
  if (scalar_ok && (py::isinstance<py::float_>(value) || py::isinstance<py::int_>(value)) &&
      !py::isinstance<py::bool_>(value)) {
    const double x = value.cast<double>();
    if (const std::string why = joint_value_problem(x, range); !why.empty()) value_error(name + ": " + why);
    return Eigen::VectorXd::Constant(dof, x);
  }
  const DoubleArray a = double_array(value, name);
  if (a.ndim() != 1 || a.shape(0) != dof)
    value_error(name + ": expected " + std::to_string(dof) + " joint values (" + std::to_string(dof) + ",), got shape " +
                shape_string(a));
  Eigen::VectorXd out(dof);
  for (Eigen::Index i = 0; i < dof; ++i) {
    out[i] = a.data()[i];
    if (const std::string why = joint_value_problem(out[i], range); !why.empty())
      value_error(name + "[" + std::to_string(i) + "] (joint '" + m.joint(m.variable_joint(static_cast<std::size_t>(i))).name +
                  "'): " + why);
  }
  return out;
}

int robot_world_body(const sim::World& w, const py::handle& body) {
  if (py::isinstance<py::str>(body)) {
    const std::string name = body.cast<std::string>();
    const int i = w.find(name);
    if (i < 0) value_error("body: no body named '" + name + "'");
    return i;
  }
  if (py::isinstance<py::bool_>(body) || !py::isinstance<py::int_>(body))
    type_error("body: expected a body name (str) or index (int)");
  const long long i = body.cast<long long>();
  if (i < 0 || i >= static_cast<long long>(w.bodies().size()))
    value_error("body: index " + std::to_string(i) + " is out of range (" + std::to_string(w.bodies().size()) +
                " bodies)");
  return static_cast<int>(i);
}

// The robot scene of a scene file or its JSON text: its one robot among its
// bodies, following the robot's target trajectory.
std::unique_ptr<PyRobotWorld> robot_world_from_scene(apps::Scene&& s) {
  if (s.robots.empty()) value_error("robots: the scene has no robot (proxima.World simulates it)");
  auto out = std::make_unique<PyRobotWorld>();
  out->script = std::move(s.robots.front());
  out->rw = std::make_unique<robot::RobotWorld>(out->script->make_world(std::move(s.world)));
  out->scripted = out->script->kp.size() > 0;
  out->name = std::move(s.name);
  out->duration = s.time;
  return out;
}

}  // namespace

void bind_robot_world(py::module_& m) {
  py::class_<PyRobotWorld>(
      m, "RobotWorld",
      "A URDF robot (fixed or floating base) among a World's bodies, robot and bodies under one contact problem per step "
      "(docs/dynamics.md): PD targets and torques, joint states, contact forces on the links. The World is "
      "copied when the RobotWorld is built (its dt, solver, friction and bodies); later changes to it do not "
      "reach here.")
      .def(py::init([](const std::string& urdf, PyWorld& world, const py::object& base, const py::object& q,
                       const py::object& qd, const std::string& mesh_mode, double margin,
                       const py::object& self_collision, bool floating_base, const py::object& base_twist) {
             robot::GeometryOptions go;
             go.mesh_mode = mesh_mode_arg(mesh_mode);
             if (!(std::isfinite(margin) && margin >= 0.0)) value_error("margin: must be finite and >= 0");
             go.margin = margin;
             const Transform b = pose_arg(base, "base", PoseCheck::strict);
             std::optional<robot::RobotGeometry> geometry;
             {
               py::gil_scoped_release unlocked;  // reading and hulling the meshes takes a moment
               geometry.emplace(robot::load_urdf(urdf), go);
             }
             const robot::RobotModel& model = geometry->model();
             robot::ArticulatedState s;
             s.q = q.is_none() ? Eigen::VectorXd::Zero(static_cast<Eigen::Index>(model.variable_count()))
                               : joint_values(model, q, "q", false, kRobotPositionRange);
             const Eigen::VectorXd rates = qd.is_none()
                                               ? Eigen::VectorXd::Zero(static_cast<Eigen::Index>(model.variable_count()))
                                               : joint_values(model, qd, "qd", false, kRobotRateRange);
             if (!floating_base && !base_twist.is_none())
               value_error("base_twist: only a floating base (floating_base=True) moves");
             robot::Vec6 twist = robot::Vec6::Zero();
             if (!base_twist.is_none()) {
               const DoubleArray a = double_array(base_twist, "base_twist");
               if (a.ndim() != 1 || a.shape(0) != 6)
                 value_error("base_twist: expected 6 values (v, w in the root link's frame), got shape " +
                             shape_string(a));
               for (py::ssize_t i = 0; i < 6; ++i) {
                 twist[i] = a.at(i);
                 if (const std::string why = joint_value_problem(twist[i], kRobotRateRange); !why.empty())
                   value_error("base_twist[" + std::to_string(i) + "] (" + (i < 3 ? "v" : "w") + "): " + why);
               }
             }
             s.qd.resize((floating_base ? 6 : 0) + rates.size());
             if (floating_base) s.qd.head<6>() = twist;
             s.qd.tail(rates.size()) = rates;
             sim::World copy;
             {
               std::lock_guard<std::mutex> l(world.mutex);
               copy = world.world;
             }
             auto out = std::make_unique<PyRobotWorld>();
             out->rw = std::make_unique<robot::RobotWorld>(
                 *geometry, b, s, std::move(copy), floating_base ? robot::BaseKind::floating : robot::BaseKind::fixed);
             // False: off; True: every pair but a joint's two links; a path:
             // those and the SRDF's disabled pairs too.
             if (py::isinstance<py::bool_>(self_collision)) {
               if (self_collision.cast<bool>())
                 out->rw->set_self_collision(robot::AllowedCollisionMatrix::adjacent(model));
             } else if (py::isinstance<py::str>(self_collision)) {
               robot::AllowedCollisionMatrix acm = robot::AllowedCollisionMatrix::adjacent(model);
               robot::apply_srdf(model, self_collision.cast<std::string>(), acm);
               out->rw->set_self_collision(acm);
             } else {
               type_error("self_collision: expected True, False or an SRDF path");
             }
             return out;
           }),
           py::arg("urdf"), py::arg("world"), py::kw_only(), py::arg("base") = py::none(), py::arg("q") = py::none(),
           py::arg("qd") = py::none(), py::arg("mesh_mode") = "convex_hull", py::arg("margin") = 0.0,
           py::arg("self_collision") = false, py::arg("floating_base").noconvert() = false, py::arg("base_twist") = py::none(),
           "The robot of the URDF file with its root at `base`, at joint positions q and velocities qd (zeros by "
           "default), among a copy of `world`'s bodies. floating_base: the root link is free (it starts at "
           "`base` with base_twist, (v, w) in the root link's frame, zeros by default) instead of fixed. mesh_mode: link meshes as their convex hulls or raw "
           "triangle meshes; margin inflates every link shape, m. self_collision: False (links pass through "
           "each other), True (every pair of links touches but a joint's two), or an SRDF path (and not its "
           "disabled pairs either).")
      .def_static(
          "from_json",
          [](const std::string& text) { return robot_world_from_scene(apps::scene_from_json(scene_json(text))); },
          py::arg("text"),
          "The robot scene of scene-file JSON text (docs/scene-format.md, \"robots\"): its robot among its bodies, "
          "following the robot's target trajectory (see scripted). Relative urdf and mesh paths are read from the "
          "working directory.")
      .def_static(
          "from_file",
          [](const std::filesystem::path& path) { return robot_world_from_scene(apps::load_scene(path.string())); },
          py::arg("path"),
          "The robot scene of a scene file (docs/scene-format.md), as `proxima sim` runs it: step() follows the "
          "robot's target trajectory (see scripted). Relative paths are read from the file's folder.")
      .def_property_readonly("name", [](PyRobotWorld& r) { return r.name; },
                             "The scene's name ('world' if built here).")
      .def_property_readonly("duration", [](PyRobotWorld& r) { return r.duration; },
                             "The scene file's \"time\", s (1 if built here).")
      .def_property(
          "scripted", [](PyRobotWorld& r) { RobotWorldLock l(r.mutex); return r.scripted; },
          [](PyRobotWorld& r, const py::object& value) {
            if (!py::isinstance<py::bool_>(value)) type_error("scripted: expected True or False");
            const bool on = value.cast<bool>();
            RobotWorldLock l(r.mutex);
            if (on && !(r.script && r.script->kp.size() > 0))
              value_error("scripted: this RobotWorld has no target trajectory (it was not read from a scene "
                          "whose robot has \"kp\", \"kd\" and \"targets\")");
            r.scripted = on;
          },
          "True while step() sets the PD targets of the scene's target trajectory before each step (as `proxima "
          "sim` does); set_pd and clear_pd end it, and setting it True resumes it.")
      .def_property_readonly(
          "joint_names",
          [](PyRobotWorld& r) {
            RobotWorldLock l(r.mutex);
            return r.rw->robot().dynamics().model().variable_names();
          },
          "The joint variables, in the order of q.")
      .def_property_readonly(
          "body_names",
          [](PyRobotWorld& r) {
            RobotWorldLock l(r.mutex);
            return body_names(r.rw->world());
          },
          "Names of the world's bodies, by index.")
      .def_property_readonly("time", [](PyRobotWorld& r) { RobotWorldLock l(r.mutex); return r.rw->time(); },
                             "Simulated time, s.")
      .def_property_readonly("dt", [](PyRobotWorld& r) { RobotWorldLock l(r.mutex); return r.rw->world().options.dt; },
                             "Time step, s (the World's when copied).")
      .def_property_readonly(
          "q", [](PyRobotWorld& r) { RobotWorldLock l(r.mutex); return vector_array(r.rw->robot().state().q); },
          "Joint positions (rad or m).")
      .def_property_readonly(
          "qd",
          [](PyRobotWorld& r) {
            RobotWorldLock l(r.mutex);
            const Eigen::VectorXd& u = r.rw->robot().state().qd;
            return vector_array(Eigen::VectorXd(u.tail(u.size() - r.rw->robot().dynamics().base_dofs())));
          },
          "Joint velocities.")
      .def_property_readonly("floating_base",
                             [](PyRobotWorld& r) { RobotWorldLock l(r.mutex); return r.rw->robot().dynamics().floating(); })
      .def_property_readonly(
          "base_pose", [](PyRobotWorld& r) { RobotWorldLock l(r.mutex); return r.rw->robot().state().base; },
          "World pose of the root link (fixed, or the floating base's current pose).")
      .def_property_readonly(
          "base_twist",
          [](PyRobotWorld& r) {
            RobotWorldLock l(r.mutex);
            const Eigen::VectorXd& u = r.rw->robot().state().qd;
            return vector_array(r.rw->robot().dynamics().floating() ? Eigen::VectorXd(u.head<6>())
                                                                     : Eigen::VectorXd::Zero(6));
          },
          "The floating base's (v, w): its origin's velocity and its angular velocity, both in the root link's "
          "frame (zeros for a fixed base).")
      .def_property_readonly(
          "motor_torque",
          [](PyRobotWorld& r) { RobotWorldLock l(r.mutex); return vector_array(r.rw->robot().motor_torque()); },
          "The last step's motor torques (N m or N), after the URDF effort clamp.")
      .def(
          "set_pd",
          [](PyRobotWorld& r, const py::object& kp, const py::object& kd, const py::object& q_target,
             const py::object& qd_target) {
            RobotWorldLock l(r.mutex);
            const robot::RobotModel& model = r.rw->robot().dynamics().model();
            const Eigen::VectorXd p = joint_values(model, kp, "kp", true, kRobotGainRange),
                                  d = joint_values(model, kd, "kd", true, kRobotGainRange);
            const Eigen::VectorXd target = joint_values(model, q_target, "q_target", false, kRobotPositionRange);
            const Eigen::VectorXd rate = qd_target.is_none() ? Eigen::VectorXd::Zero(target.size())
                                                             : joint_values(model, qd_target, "qd_target", false, kRobotRateRange);
            r.rw->robot().set_pd(p, d, target, rate);
            r.scripted = false;
          },
          py::arg("kp"), py::arg("kd"), py::arg("q_target"), py::arg("qd_target") = py::none(),
          "PD control towards q_target (and qd_target, zeros by default), held until changed; kp and kd are one "
          "number for every joint or one per joint, >= 0.")
      .def(
          "clear_pd",
          [](PyRobotWorld& r) {
            RobotWorldLock l(r.mutex);
            r.rw->robot().clear_pd();
            r.scripted = false;
          },
          "Ends PD control (the feed-forward torque stays) and a scene's target trajectory.")
      .def(
          "set_friction",
          [](PyRobotWorld& r, const std::string& link, double mu, const py::object& body) {
            RobotWorldLock l(r.mutex);
            const int i = r.rw->robot().dynamics().model().link_index(link);
            if (i < 0) value_error("link: no link named '" + link + "'");
            if (!(std::isfinite(mu) && mu >= 0.0)) value_error("mu: must be finite and >= 0 (got " + repr(mu) + ")");
            r.rw->set_link_friction(i, body.is_none() ? -1 : robot_world_body(r.rw->world(), body), mu);
          },
          py::arg("link"), py::arg("mu"), py::arg("body") = py::none(),
          "The friction coefficient between a link and a body (name or index), or with body=None between the "
          "link and every body no call of its own names; others use the World's default.")
      .def(
          "set_torque",
          [](PyRobotWorld& r, const py::object& tau) {
            RobotWorldLock l(r.mutex);
            r.rw->robot().set_torque(joint_values(r.rw->robot().dynamics().model(), tau, "tau", false, kRobotTorqueRange));
          },
          py::arg("tau"), "Feed-forward joint torques (N m or N), held until changed.")
      .def(
          "step",
          [](PyRobotWorld& r, long long n) {
            if (n < 0) value_error("step: n must be >= 0 (got " + std::to_string(n) + ")");
            py::gil_scoped_release free;
            RobotWorldLock l(r.mutex);
            for (long long i = 0; i < n; ++i) {
              if (r.scripted) r.script->drive(*r.rw);
              r.rw->step();
            }
          },
          py::arg("n") = 1,
          "Advances n steps of dt, without holding the GIL (following the scene's target trajectory while "
          "scripted).")
      .def(
          "link_pose",
          [](PyRobotWorld& r, const std::string& link) {
            RobotWorldLock l(r.mutex);
            const int i = r.rw->robot().dynamics().model().link_index(link);
            if (i < 0) value_error("link: no link named '" + link + "'");
            return r.rw->link_poses()[static_cast<std::size_t>(i)];
          },
          py::arg("link"), "World pose of a link's frame.")
      .def(
          "body_pose",
          [](PyRobotWorld& r, const py::object& body) {
            RobotWorldLock l(r.mutex);
            return r.rw->world().bodies()[static_cast<std::size_t>(robot_world_body(r.rw->world(), body))].pose;
          },
          py::arg("body"), "Pose of a body's geometry frame.")
      .def(
          "body_velocity",
          [](PyRobotWorld& r, const py::object& body) {
            RobotWorldLock l(r.mutex);
            return to_array(
                r.rw->world().bodies()[static_cast<std::size_t>(robot_world_body(r.rw->world(), body))].linear_velocity);
          },
          py::arg("body"), "Velocity of a body's centre of mass, m/s.")
      .def("kinetic_energy", [](PyRobotWorld& r) { RobotWorldLock l(r.mutex); return r.rw->kinetic_energy(); },
           "Kinetic energy of robot and bodies, J.")
      .def("potential_energy", [](PyRobotWorld& r) { RobotWorldLock l(r.mutex); return r.rw->potential_energy(); },
           "Potential of gravity over links and bodies (and the bodies' constant forces), J.")
      .def(
          "contacts",
          [](PyRobotWorld& r) {
            RobotWorldLock l(r.mutex);
            const robot::RobotModel& model = r.rw->robot().dynamics().model();
            const sim::World& w = r.rw->world();
            const double inv_dt = 1.0 / w.options.dt;
            py::list out;
            for (const robot::RobotContact& c : r.rw->last_contacts()) {
              py::dict d;
              d["link"] = c.link >= 0 ? py::object(py::str(model.link(c.link).name)) : py::object(py::none());
              d["a"] = c.link >= 0 ? model.link(c.link).name : w.bodies()[static_cast<std::size_t>(c.body_a)].name;
              d["b"] = c.link_b >= 0 ? model.link(c.link_b).name : w.bodies()[static_cast<std::size_t>(c.body_b)].name;
              d["self"] = c.link_b >= 0;
              d["point"] = to_array(c.point);
              d["normal"] = to_array(c.normal);
              d["depth"] = c.depth;
              d["normal_force"] = c.normal_impulse * inv_dt;
              d["friction_force"] = to_array(Vec3(c.friction_impulse * inv_dt));
              out.append(d);
            }
            return out;
          },
          "The last step's contacts: dicts with 'link' (the robot link's name, or None between two bodies), 'a' "
          "(that link's or body's name), 'b' (a body's name), 'point', 'normal' (b to a), 'depth', "
          "'normal_force' (N) and 'friction_force' (N, on a, world frame): the step's impulses over dt.")
      .def("__repr__", [](PyRobotWorld& r) {
        RobotWorldLock l(r.mutex);
        return "<proxima.RobotWorld '" + r.rw->robot().dynamics().model().name() + "': " +
               std::to_string(r.rw->robot().dynamics().variable_count()) + " joints, " +
               (r.rw->robot().dynamics().floating() ? "floating base, " : "") +
               std::to_string(r.rw->world().bodies().size()) + " bodies, t = " + repr(r.rw->time()) + " s>";
      });
}

}  // namespace proxima::python
