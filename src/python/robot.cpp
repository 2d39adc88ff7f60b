// SPDX-License-Identifier: BSD-3-Clause
// The robot layer: a URDF (+ SRDF) loaded into a SceneChecker, with an
// Environment of shapes and meshes; collision pairs, distances and a
// batched validity check for joint vectors.
#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include <pybind11/stl/filesystem.h>

#include <proxima/core/parallel.hpp>
#include <proxima/robot/attached_object.hpp>
#include <proxima/robot/batch_check.hpp>
#include <proxima/robot/collision_matrix.hpp>
#include <proxima/robot/planning_scene.hpp>
#include <proxima/robot/point_cloud.hpp>
#include <proxima/robot/prepared_environment.hpp>
#include <proxima/robot/scene_checker.hpp>
#include <proxima/robot/urdf.hpp>

#include "batch_results.hpp"
#include "bindings.hpp"
#include "convert.hpp"
#include "operand.hpp"
#include "pickling.hpp"
#include "scene.hpp"

namespace proxima::python {
namespace {

using robot::Environment;
using NamePairs = std::vector<std::pair<std::string, std::string>>;

struct CheckAnswer {
  Status status = Status::ok;
  std::string message;
  NamePairs self_pairs;         ///< (link, link)
  NamePairs environment_pairs;  ///< (link, object)
};

struct DistancesAnswer {
  robot::DistanceReport self;
  robot::DistanceReport environment;
};

void note(Status& status, std::string& message, Status s, const std::string& m) {
  if (status != Status::ok) return;
  status = s;
  message = m;
}

NamePairs names(const robot::CollisionReport& r) {
  NamePairs out;
  for (const robot::PairId& p : r.pairs) out.emplace_back(p.link_name, p.other_name);
  return out;
}


// A scene from a model reader (a URDF file or text) and an SRDF step (a file,
// text, or none): the options and the environment are the same for both.
template <class ReadModel, class ApplySrdf>
Scene build_scene(const ReadModel& read_model, const ApplySrdf& apply, const py::object& environment,
                  const std::string& mesh_mode, double margin, const std::map<std::string, double>& link_margins,
                  const std::map<std::string, std::filesystem::path>& packages) {
  robot::UrdfOptions uo;
  uo.packages = packages;
  robot::GeometryOptions go;
  go.mesh_mode = mesh_mode_arg(mesh_mode);
  go.margin = margin;
  go.link_margins = link_margins;
  Scene s;
  s.environment = environment.is_none() ? std::make_shared<Environment>()
                                        : environment.cast<std::shared_ptr<Environment>>();
  py::gil_scoped_release unlocked;  // reading and hulling the meshes takes a moment
  robot::RobotModel model = read_model(uo);
  robot::AllowedCollisionMatrix acm = robot::AllowedCollisionMatrix::adjacent(model);
  apply(model, acm);
  s.checker = std::make_shared<const robot::SceneChecker>(robot::RobotGeometry(std::move(model), go), std::move(acm));
  return s;
}

Scene make_scene(const std::filesystem::path& urdf, const std::optional<std::filesystem::path>& srdf,
                 const py::object& environment, const std::string& mesh_mode, double margin,
                 const std::map<std::string, double>& link_margins,
                 const std::map<std::string, std::filesystem::path>& packages) {
  return build_scene([&](const robot::UrdfOptions& uo) { return robot::load_urdf(urdf, uo); },
                     [&](const robot::RobotModel& model, robot::AllowedCollisionMatrix& acm) {
                       if (srdf) robot::apply_srdf(model, *srdf, acm);
                     },
                     environment, mesh_mode, margin, link_margins, packages);
}

// From text, as ROS hands a robot over (the robot_description parameter).
Scene make_scene_from_xml(const std::string& urdf, const std::optional<std::string>& srdf,
                          const std::filesystem::path& base_dir, const py::object& environment,
                          const std::string& mesh_mode, double margin, const std::map<std::string, double>& link_margins,
                          const std::map<std::string, std::filesystem::path>& packages) {
  return build_scene(
      [&](const robot::UrdfOptions& uo) { return robot::parse_urdf(urdf, base_dir, uo, "urdf_xml"); },
      [&](const robot::RobotModel& model, robot::AllowedCollisionMatrix& acm) {
        if (srdf) robot::apply_srdf_text(model, *srdf, acm, "srdf_xml");
      },
      environment, mesh_mode, margin, link_margins, packages);
}

robot::RobotState state_at(const Scene& s, const py::object& q, const py::object& base) {
  const DoubleArray a = joints_arg(s.model(), q);
  return s.checker->state(std::span<const double>(a.data(), static_cast<std::size_t>(a.size())),
                          pose_arg(base, "base"));
}

CheckAnswer check(const Scene& s, const py::object& q, const py::object& base) {
  const robot::RobotState st = state_at(s, q, base);
  CheckAnswer r;
  if (st.status != Status::ok) {
    note(r.status, r.message, st.status, st.message);
    return r;
  }
  const robot::CollisionReport self = s.checker->self_collision(st);
  const robot::CollisionReport env = s.checker->environment_collision(st, *s.prepared_environment());
  note(r.status, r.message, self.status, self.message);
  note(r.status, r.message, env.status, env.message);
  r.self_pairs = names(self);
  r.environment_pairs = names(env);
  return r;
}

DistancesAnswer distances(const Scene& s, const py::object& q, const py::object& base) {
  const robot::RobotState st = state_at(s, q, base);
  return {s.checker->self_distance(st), s.checker->environment_distance(st, *s.prepared_environment())};
}

robot::ToleranceReport tolerance(const Scene& s, const py::object& q, double t, const py::object& base) {
  return s.checker->tolerance(state_at(s, q, base), *s.prepared_environment(), t);
}

robot::MotionCheck check_motion(const Scene& s, const py::object& q0, const py::object& q1, double clearance,
                                double accuracy, int max_iterations, bool self, const py::object& base) {
  const DoubleArray a = joints_arg(s.model(), q0), b = joints_arg(s.model(), q1);
  const Transform tb = pose_arg(base, "base");
  robot::MotionCheckOptions o;
  o.clearance = clearance;
  o.accuracy = accuracy;
  o.max_iterations = max_iterations;
  o.self = self;
  const auto env = s.prepared_environment();
  py::gil_scoped_release unlocked;
  return s.checker->check_motion(std::span<const double>(a.data(), static_cast<std::size_t>(a.size())),
                                 std::span<const double>(b.data(), static_cast<std::size_t>(b.size())), *env, o,
                                 tb);
}

// Validity of N joint vectors (tolerance 0: any pair touching), self and
// environment, on `threads` threads (robot/batch_check.hpp). Only whether a
// row collides is returned, not which pair: check_validity (BatchAnswer::
// any_pair, so that the prefilter's proof of a pair within ends the row).
CollideBatch check_batch(const Scene& s, const py::object& qs, const py::object& base, int threads, bool prefilter) {
  const DoubleArray a = double_array(qs, "qs");
  const auto dof = static_cast<py::ssize_t>(s.model().variable_count());
  if (a.ndim() != 2 || a.shape(1) != dof) {
    value_error("qs: expected an (N, " + std::to_string(dof) + ") array of joint vectors, got shape " +
                shape_string(a));
  }
  const Transform tb = pose_arg(base, "base");
  thread_count(threads);
  const py::ssize_t n = a.shape(0);
  CollideBatch out{py::array_t<bool>(n), py::array_t<std::int8_t>(n)};
  bool* c = out.collide.mutable_data();
  std::int8_t* st = out.status_code.mutable_data();
  // Immutable: Python may add objects while the GIL is released.
  const std::shared_ptr<const robot::PreparedEnvironment> env = s.prepared_environment();
  py::gil_scoped_release unlocked;
  // A robot without joints has one configuration, whatever the rows.
  if (dof == 0) {
    const robot::ToleranceReport fixed = s.checker->tolerance(s.checker->state({}, tb), *env, 0.0);
    std::fill_n(c, n, fixed.within);
    std::fill_n(st, n, static_cast<std::int8_t>(fixed.status));
    return out;
  }
  const robot::BatchValidity answers = robot::check_validity(
      *s.checker, *env, std::span<const double>(a.data(), static_cast<std::size_t>(n * dof)), 0.0, tb, threads,
      prefilter);
  for (py::ssize_t i = 0; i < n; ++i) {
    c[i] = answers.within[static_cast<std::size_t>(i)] != 0;
    st[i] = static_cast<std::int8_t>(answers.status[static_cast<std::size_t>(i)]);
  }
  return out;
}

py::dict link_poses(const Scene& s, const py::object& q, const py::object& base) {
  const robot::RobotState st = state_at(s, q, base);
  if (st.status != Status::ok) value_error(st.message);
  py::dict out;
  for (std::size_t i = 0; i < st.link_poses.size(); ++i) out[py::str(s.model().links()[i].name)] = st.link_poses[i];
  return out;
}

}  // namespace

robot::MeshMode mesh_mode_arg(const std::string& s) {
  if (s == "convex_hull") return robot::MeshMode::convex_hull;
  if (s == "triangle_mesh") return robot::MeshMode::triangle_mesh;
  value_error("mesh_mode: unknown \"" + s + "\" (expected convex_hull or triangle_mesh)");
}

DoubleArray joints_arg(const robot::RobotModel& model, const py::object& q) {
  DoubleArray a = double_array(q, "q");
  const auto dof = static_cast<py::ssize_t>(model.variable_count());
  if (a.ndim() != 1 || a.shape(0) != dof) {
    value_error("q: expected " + std::to_string(dof) + " joint values (" + std::to_string(dof) +
                ",), got shape " + shape_string(a));
  }
  return a;
}

namespace {

// Pickled as its objects, each (name, geometry, pose, touch_links, group),
// the geometry a shape or a Bvh pickled by its own class: what multiprocessing
// and a Ray cluster send to their workers.
py::tuple environment_state(const Environment& e) {
  py::list objects;
  for (const robot::EnvironmentObject& o : e.objects) {
    const py::object geometry =
        std::holds_alternative<Shape>(o.geometry) ? py::cast(std::get<Shape>(o.geometry)) : py::cast(std::get<Bvh>(o.geometry));
    objects.append(py::make_tuple(o.name, geometry, o.pose, o.touch_links, o.group));
  }
  return py::make_tuple(objects);
}

std::shared_ptr<Environment> restore_environment(const py::tuple& state) {
  const StateReader r(state, "Environment", {"objects"});
  if (!py::isinstance<py::list>(r.item(0))) r.fail("objects must be a list");
  auto e = std::make_shared<Environment>();
  for (const py::handle item : r.item(0)) {
    const StateReader o(item, "Environment object", {"name", "geometry", "pose", "touch_links", "group"});
    o.build([&] {
      const Operand g = operand_arg(o.item(1), "geometry");
      const Transform pose = pose_arg(py::reinterpret_borrow<py::object>(o.item(2)), "pose", PoseCheck::strict);
      auto touch = o.item(3).cast<std::vector<std::string>>();
      const std::size_t i = g.mesh ? e->add(o.text(0), *g.mesh, pose, std::move(touch))
                                   : e->add(o.text(0), *g.shape, pose, std::move(touch));
      e->objects[i].group = o.text(4);
      return i;
    });
  }
  return e;
}

}  // namespace

void bind_robot(py::module_& m) {
  py::class_<Environment, std::shared_ptr<Environment>>(
      m, "Environment", "The robot's surroundings: named convex shapes and Bvh meshes at fixed world poses.")
      .def(py::init<>())
      .def(
          "add",
          [](Environment& e, std::string name, const py::object& geometry, const py::object& pose,
             std::vector<std::string> touch_links, std::string group) {
            const Operand o = operand_arg(geometry, "geometry");
            const Transform t = pose_arg(pose, "pose", PoseCheck::strict);
            const std::size_t i = o.mesh ? e.add(std::move(name), *o.mesh, t, std::move(touch_links))
                                         : e.add(std::move(name), *o.shape, t, std::move(touch_links));
            e.objects[i].group = std::move(group);
            return i;
          },
          py::arg("name"), py::arg("geometry"), py::arg("pose") = py::none(),
          py::arg("touch_links") = std::vector<std::string>{}, py::kw_only(), py::arg("group") = "",
          "Adds an object (a convex shape or a Bvh) at `pose`; returns its index. `touch_links`: links allowed "
          "to touch it (a gripper around what it grasps), whose pairs with it are not checked. `group`: objects "
          "sharing one are one Watchdog channel (a table's top and legs).")
      .def(
          "add_point_cloud",
          [](Environment& e, const std::string& name, const py::object& points, double voxel, const py::object& pose,
             int min_points, std::vector<std::string> touch_links) {
            const std::vector<Vec3> p = points_arg(points, "points");
            robot::PointCloudOptions o;
            o.min_points = min_points;
            o.touch_links = std::move(touch_links);
            return robot::add_point_cloud(e, name, p, voxel, pose_arg(pose, "pose", PoseCheck::strict), o);
          },
          py::arg("name"), py::arg("points"), py::arg("voxel"), py::arg("pose") = py::none(), py::kw_only(),
          py::arg("min_points") = 1, py::arg("touch_links") = std::vector<std::string>{},
          "Adds the occupied cells of an (N, 3) point cloud (in the frame `pose`) as cubes of side `voxel` named "
          "'<name>/<k>'; a cell needs `min_points` points. Returns how many cubes were added.")
      .def_property_readonly("names",
                             [](const Environment& e) {
                               std::vector<std::string> n;
                               for (const auto& o : e.objects) n.push_back(o.name);
                               return n;
                             })
      .def("__len__", [](const Environment& e) { return e.objects.size(); })
      .def(py::pickle(&environment_state, &restore_environment));

  // MoveIt planning scenes: the world only (the robot comes from its URDF).
  m.def(
      "read_planning_scene",
      [](const std::filesystem::path& path) {
        return std::make_shared<Environment>(robot::read_planning_scene(path).environment);
      },
      py::arg("path"),
      "The world of a MoveIt planning scene file as an Environment: a moveit_msgs/PlanningScene in YAML "
      "(.yaml, .yml) or MoveIt's .scene text. Objects with several shapes become '<id>/<k>' sharing group <id>. "
      "Raises proxima.Error naming the file, line, field and reason.");
  m.def(
      "parse_planning_scene",
      [](const std::string& text, const std::string& format) {
        robot::PlanningSceneFormat f = robot::PlanningSceneFormat::yaml;
        if (format == "scene") f = robot::PlanningSceneFormat::scene;
        else if (format != "yaml") value_error("format: expected 'yaml' or 'scene', not '" + format + "'");
        return std::make_shared<Environment>(robot::parse_planning_scene(text, f, "<string>").environment);
      },
      py::arg("text"), py::kw_only(), py::arg("format") = "yaml",
      "read_planning_scene from text: format 'yaml' (a moveit_msgs/PlanningScene) or 'scene' (MoveIt's .scene).");

  py::class_<CheckAnswer>(m, "RobotCheck", "Answer of SceneChecker.check().")
      .def_property_readonly("status", [](const CheckAnswer& r) { return std::string(to_string(r.status)); })
      .def_readonly("message", &CheckAnswer::message, "Why, when status is not 'ok'.")
      .def_readonly("self_pairs", &CheckAnswer::self_pairs, "Colliding link pairs [(link, link)].")
      .def_readonly("environment_pairs", &CheckAnswer::environment_pairs, "Colliding [(link, object)] pairs.")
      .def_property_readonly(
          "collide", [](const CheckAnswer& r) { return !r.self_pairs.empty() || !r.environment_pairs.empty(); })
      .def("__repr__", [](const CheckAnswer& r) {
        return "RobotCheck(status='" + std::string(to_string(r.status)) + "', " + std::to_string(r.self_pairs.size()) +
               " self pairs, " + std::to_string(r.environment_pairs.size()) + " environment pairs)";
      });

  py::class_<robot::DistanceReport>(m, "LinkDistance", "Smallest distance between links or links and objects.")
      .def_property_readonly("status",
                             [](const robot::DistanceReport& r) { return std::string(to_string(r.status)); })
      .def_readonly("message", &robot::DistanceReport::message)
      .def_readonly("found", &robot::DistanceReport::found,
                    "False when there was no pair to measure (distance is then inf).")
      .def_readonly("distance", &robot::DistanceReport::distance, ">= 0; 0 when touching or overlapping.")
      .def_property_readonly("link", [](const robot::DistanceReport& r) { return r.pair.link_name; })
      .def_property_readonly("other", [](const robot::DistanceReport& r) { return r.pair.other_name; },
                             "The other link, or the object.")
      .def_property_readonly("point_link", [](const robot::DistanceReport& r) { return to_array(r.point_link); })
      .def_property_readonly("point_other", [](const robot::DistanceReport& r) { return to_array(r.point_other); })
      .def("__repr__", [](const robot::DistanceReport& r) {
        return "LinkDistance(status='" + std::string(to_string(r.status)) + "', distance=" + repr(r.distance) +
               ", link='" + r.pair.link_name + "', other='" + r.pair.other_name + "')";
      });

  py::class_<DistancesAnswer>(m, "RobotDistances", "Answer of SceneChecker.distances().")
      .def_readonly("self_distance", &DistancesAnswer::self, "Closest checked link pair.")
      .def_readonly("environment_distance", &DistancesAnswer::environment, "Closest link-object pair.")
      .def_property_readonly(
          "distance", [](const DistancesAnswer& r) { return std::min(r.self.distance, r.environment.distance); },
          "The smaller of the two.");

  py::class_<robot::ToleranceReport>(m, "RobotTolerance", "Answer of SceneChecker.tolerance().")
      .def_property_readonly("status",
                             [](const robot::ToleranceReport& r) { return std::string(to_string(r.status)); })
      .def_readonly("message", &robot::ToleranceReport::message)
      .def_readonly("within", &robot::ToleranceReport::within, "Some pair is within the tolerance.")
      .def_readonly("self_pair", &robot::ToleranceReport::self, "The pair found is a link pair (else link-object).")
      .def_property_readonly("link", [](const robot::ToleranceReport& r) { return r.pair.link_name; })
      .def_property_readonly("other", [](const robot::ToleranceReport& r) { return r.pair.other_name; });

  py::class_<robot::MotionCheck>(m, "MotionCheck", "Answer of SceneChecker.check_motion().")
      .def_property_readonly("status", [](const robot::MotionCheck& r) { return std::string(to_string(r.status)); })
      .def_readonly("message", &robot::MotionCheck::message, "Why, when status is not 'ok'.")
      .def_readonly("collide", &robot::MotionCheck::collide,
                    "Some checked pair comes within the clearance on the segment (also True, with status "
                    "'not_converged', when the search stopped early: s is then a proven lower bound).")
      .def_readonly("s", &robot::MotionCheck::s,
                    "First s in [0, 1] of q0 + s (q1 - q0) within clearance (+ accuracy); 1 when free.")
      .def_readonly("self_pair", &robot::MotionCheck::self, "The pair is a link pair (else link-object).")
      .def_property_readonly("link", [](const robot::MotionCheck& r) { return r.pair.link_name; })
      .def_property_readonly("other", [](const robot::MotionCheck& r) { return r.pair.other_name; },
                             "The other link, or the object.")
      .def_readonly("distance", &robot::MotionCheck::distance, "The pair's distance at s (inf when free).")
      .def_property_readonly("point_link", [](const robot::MotionCheck& r) { return to_array(r.point_link); })
      .def_property_readonly("point_other", [](const robot::MotionCheck& r) { return to_array(r.point_other); })
      .def_readonly("iterations", &robot::MotionCheck::iterations, "Configurations examined.")
      .def_readonly("distance_queries", &robot::MotionCheck::distance_queries)
      .def("__repr__", [](const robot::MotionCheck& r) {
        return "MotionCheck(status='" + std::string(to_string(r.status)) + "', collide=" +
               (r.collide ? "True" : "False") + ", s=" + repr(r.s) + ")";
      });

  py::class_<Scene>(m, "SceneChecker",
                    "A robot from a URDF (+ SRDF) and its environment: which links collide with each other or "
                    "with objects at a joint vector, and how close they come. Self pairs exclude adjacent links "
                    "and the SRDF's disabled pairs. Queries never raise for a non-finite q or base: status "
                    "'invalid_input' with a message; a q of the wrong length raises ValueError.")
      .def(py::init(&make_scene), py::arg("urdf"), py::arg("srdf") = py::none(), py::kw_only(),
           py::arg("environment") = py::none(), py::arg("mesh_mode") = "convex_hull", py::arg("margin") = 0.0,
           py::arg("link_margins") = std::map<std::string, double>{},
           py::arg("packages") = std::map<std::string, std::filesystem::path>{},
           "SceneChecker(urdf, srdf=None, *, environment=None, mesh_mode='convex_hull' | 'triangle_mesh', "
           "margin=0 (safety margin of every link, m), link_margins={link: m}, packages={name: dir} for "
           "package:// URIs, which ROS_PACKAGE_PATH and AMENT_PREFIX_PATH also find). Errors name the file, "
           "the line and the reason.")
      .def_static("from_xml", &make_scene_from_xml, py::arg("urdf_xml"), py::arg("srdf_xml") = py::none(),
                  py::kw_only(), py::arg("base_dir") = std::filesystem::path("."), py::arg("environment") = py::none(),
                  py::arg("mesh_mode") = "convex_hull", py::arg("margin") = 0.0,
                  py::arg("link_margins") = std::map<std::string, double>{},
                  py::arg("packages") = std::map<std::string, std::filesystem::path>{},
                  "SceneChecker.from_xml(urdf_xml, srdf_xml=None, *, base_dir='.', ...): the robot from URDF "
                  "and SRDF text, as ROS's robot_description parameter holds it; relative mesh paths resolve "
                  "against base_dir. The other arguments as SceneChecker().")
      .def_property(
          "environment", [](const Scene& s) { return s.environment; },
          [](Scene& s, std::shared_ptr<Environment> e) {
            if (!e) value_error("environment: expected an Environment, not None");
            s.environment = std::move(e);
          },
          "The Environment checked against (shared: objects added to it are seen by the next query).")
      .def(
          "attach",
          [](const Scene& s, std::string name, std::string link, const py::object& geometry, const py::object& pose,
             std::vector<std::string> touch_links) {
            const Operand o = operand_arg(geometry, "geometry");
            robot::AttachedObject a{std::move(name), std::move(link),
                                    o.mesh ? std::variant<Shape, Bvh>(std::in_place_type<Bvh>, *o.mesh)
                                           : std::variant<Shape, Bvh>(std::in_place_type<Shape>, *o.shape),
                                    pose_arg(pose, "pose", PoseCheck::strict), std::move(touch_links)};
            Scene held;
            held.checker = std::make_shared<const robot::SceneChecker>(robot::attach(*s.checker, std::span(&a, 1)));
            held.environment = s.environment;
            return held;
          },
          py::arg("name"), py::arg("link"), py::arg("geometry"), py::arg("pose") = py::none(), py::kw_only(),
          py::arg("touch_links") = std::vector<std::string>{},
          "A new SceneChecker for the robot holding an object (a grasped part, a tool): a link named `name` "
          "fixed to `link` at `pose` (in that link's frame), checked against the environment (the same one, "
          "shared) and the other links except `link` and `touch_links` (the fingers around it). This checker is "
          "unchanged: to let go, use it again.")
      .def_property_readonly(
          "joint_names", [](const Scene& s) { return s.model().variable_names(); },
          "The joint vector's layout (URDF order).")
      .def_property_readonly("dof", [](const Scene& s) { return s.model().variable_count(); })
      .def_property_readonly(
          "link_names",
          [](const Scene& s) {
            std::vector<std::string> n;
            for (const auto& l : s.model().links()) n.push_back(l.name);
            return n;
          })
      .def_property_readonly(
          "joint_limits",
          [](const Scene& s) {
            const auto n = static_cast<py::ssize_t>(s.model().variable_count());
            py::array_t<double> a({n, py::ssize_t{2}});
            for (py::ssize_t i = 0; i < n; ++i) {
              const robot::Joint& j = s.model().joint(s.model().variable_joint(static_cast<std::size_t>(i)));
              a.mutable_at(i, 0) = j.lower;
              a.mutable_at(i, 1) = j.upper;
            }
            return a;
          },
          "(dof, 2): lower and upper limit of each joint (+-inf for continuous joints).")
      .def_property_readonly(
          "self_pairs",
          [](const Scene& s) {
            NamePairs out;
            for (const auto& [a, b] : s.checker->self_pairs())
              out.emplace_back(s.model().link(a).name, s.model().link(b).name);
            return out;
          },
          "The link pairs self checks look at.")
      .def("link_poses", &link_poses, py::arg("q"), py::arg("base") = py::none(),
           "Forward kinematics: {link name: Pose}. ValueError for an unusable q.")
      .def("check", &check, py::arg("q"), py::arg("base") = py::none(),
           "Colliding self and environment pairs at joint vector q (base: the robot's root pose) -> RobotCheck.")
      .def("distances", &distances, py::arg("q"), py::arg("base") = py::none(),
           "Smallest self and environment distances with witness points -> RobotDistances.")
      .def("tolerance", &tolerance, py::arg("q"), py::arg("tolerance"), py::arg("base") = py::none(),
           "Is any checked pair within `tolerance` (m)? Stops at the first -> RobotTolerance.")
      .def("check_motion", &check_motion, py::arg("q0"), py::arg("q1"), py::kw_only(), py::arg("clearance") = 0.0,
           py::arg("accuracy") = robot::MotionCheckOptions{}.accuracy,
           py::arg("max_iterations") = robot::MotionCheckOptions{}.max_iterations,
           py::arg("self_pairs").noconvert() = true,
           py::arg("base") = py::none(),
           "Continuous check of the straight joint-space segment q0 -> q1 (every point of it, not samples; "
           "conservative advancement) -> MotionCheck. A bad clearance, accuracy or q answers status "
           "'invalid_input' with a message (q of the wrong length raises ValueError).")
      .def("check_batch", &check_batch, py::arg("qs"), py::arg("base") = py::none(), py::kw_only(),
           py::arg("threads") = 1, py::arg("prefilter").noconvert() = false,
           "Validity of N joint vectors (N, dof): collide[i] when any self or environment pair touches. "
           "threads: how many threads share the rows (0: every hardware thread). prefilter: rows the robot's "
           "bounding spheres prove free skip the exact check (the answers are the same, two to four times sooner "
           "on the shipped robots; off by default, as its first use measures the robot's pair tables, 0.1 s for "
           "the Panda and 0.9 s for the UR5 on two cores, which a batch repays only over tens to hundreds of "
           "thousands of rows). "
           "With the prefilter, a row ends at a pair its inner spheres prove colliding (balls inside both "
           "shapes overlap). "
           "Runs without the GIL; collide is the single check's, in input order, whatever the number of "
           "threads (status: the worst of the exact queries the row ran) -> CollideBatchResult.");
}

}  // namespace proxima::python
