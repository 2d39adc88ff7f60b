// SPDX-License-Identifier: BSD-3-Clause
// proxima.Dynamics: the dynamics of a URDF robot with a fixed or floating
// base (robot/dynamics.hpp) for Python: mass matrix, bias forces, inverse
// and forward dynamics over the model's joint variables (and a floating
// base's twist, first).
#include <filesystem>
#include <map>
#include <optional>
#include <string>

#include <pybind11/stl/filesystem.h>

#include <proxima/robot/dynamics.hpp>
#include <proxima/robot/urdf.hpp>

#include "bindings.hpp"
#include "convert.hpp"

namespace proxima::python {
namespace {

robot::Dynamics dynamics_of(robot::RobotModel model, const py::object& base, const py::object& gravity,
                            bool floating_base) {
  const Transform b = pose_arg(base, "base");
  const Vec3 g = gravity.is_none() ? Vec3(0.0, 0.0, -9.81) : vec3_arg(gravity, "gravity");
  return robot::Dynamics(model, b, g, floating_base ? robot::BaseKind::floating : robot::BaseKind::fixed);
}

robot::Dynamics make_dynamics(const std::filesystem::path& urdf, const py::object& base, const py::object& gravity,
                              const std::map<std::string, std::filesystem::path>& packages, bool floating_base) {
  robot::UrdfOptions uo;
  uo.packages = packages;
  return dynamics_of(robot::load_urdf(urdf, uo), base, gravity, floating_base);
}

robot::Dynamics make_dynamics_from_xml(const std::string& urdf, const std::filesystem::path& base_dir,
                                       const py::object& base, const py::object& gravity,
                                       const std::map<std::string, std::filesystem::path>& packages,
                                       bool floating_base) {
  robot::UrdfOptions uo;
  uo.packages = packages;
  return dynamics_of(robot::parse_urdf(urdf, base_dir, uo, "urdf_xml"), base, gravity, floating_base);
}

// A vector argument: one finite value per variable (positions) or per
// generalized velocity (`velocity`: dof, a floating base's six first), else
// ValueError naming the argument (the entry and its joint for a non-finite
// value, from Dynamics::check and check_velocity).
Eigen::VectorXd joint_vector(const robot::Dynamics& d, const py::object& value, const char* name,
                             bool velocity = true) {
  const DoubleArray a = double_array(value, name);
  const auto dof = static_cast<py::ssize_t>(velocity ? d.dof() : d.variable_count());
  if (a.ndim() != 1 || a.shape(0) != dof) {
    value_error(std::string(name) + ": expected " + std::to_string(dof) + " values (" + std::to_string(dof) +
                ",), got shape " + shape_string(a));
  }
  Eigen::VectorXd v(dof);
  for (py::ssize_t i = 0; i < dof; ++i) v[i] = a.at(i);
  if (velocity) d.check_velocity(v, name);
  else d.check(v, name);
  return v;
}

// The base pose of a query: the Dynamics' own when None.
Transform query_base(const robot::Dynamics& d, const py::object& base) {
  return base.is_none() ? d.base() : pose_arg(base, "base", PoseCheck::strict);
}

py::array_t<double> matrix_array(const Eigen::MatrixXd& M) {
  py::array_t<double> out({M.rows(), M.cols()});
  for (Eigen::Index i = 0; i < M.rows(); ++i)
    for (Eigen::Index j = 0; j < M.cols(); ++j) out.mutable_at(i, j) = M(i, j);
  return out;
}

}  // namespace

void bind_dynamics(py::module_& m) {
  py::class_<robot::Dynamics>(
      m, "Dynamics",
      "Dynamics of a robot with a fixed or floating base from its URDF <inertial>, <dynamics> and <limit> "
      "data: mass matrix (composite rigid bodies), bias forces, inverse dynamics (recursive Newton-Euler) and "
      "forward dynamics, over variable_names (mimic joints folded into their targets). SI units. q is a 1-D "
      "array of variable_count finite values; qd, qdd and tau of dof: for a floating base the base twist "
      "(v, w: the root link origin's velocity and the angular velocity, both in the root link's frame) and "
      "its wrench (force, moment about the root origin, same frame) come first. Bad vectors raise ValueError "
      "naming the argument (and the joint).")
      .def(py::init(&make_dynamics), py::arg("urdf"), py::kw_only(), py::arg("base") = py::none(),
           py::arg("gravity") = py::none(), py::arg("packages") = std::map<std::string, std::filesystem::path>{},
           py::arg("floating_base").noconvert() = false,
           "Dynamics(urdf, *, base=None (the root link's pose), gravity=(0, 0, -9.81), packages={name: dir}, "
           "floating_base=False (True: the root link is free; base is then the default query pose))")
      .def_static("from_xml", &make_dynamics_from_xml, py::arg("urdf_xml"), py::kw_only(),
                  py::arg("base_dir") = std::filesystem::path("."), py::arg("base") = py::none(),
                  py::arg("gravity") = py::none(),
                  py::arg("packages") = std::map<std::string, std::filesystem::path>{},
                  py::arg("floating_base").noconvert() = false, "The same from URDF text; mesh paths relative to base_dir.")
      .def_property_readonly("dof", &robot::Dynamics::dof,
                             "Generalized velocities: variable_count, plus 6 for a floating base.")
      .def_property_readonly("variable_count", &robot::Dynamics::variable_count, "Joint variables: the length of q.")
      .def_property_readonly("floating_base", &robot::Dynamics::floating)
      .def_property_readonly("variable_names", [](const robot::Dynamics& d) { return d.model().variable_names(); })
      .def(
          "mass_matrix",
          [](const robot::Dynamics& d, const py::object& q) {
            return matrix_array(d.mass_matrix(joint_vector(d, q, "q", false)));
          },
          py::arg("q"), "M(q), (dof, dof); it does not depend on a floating base's pose.")
      .def(
          "bias_forces",
          [](const robot::Dynamics& d, const py::object& q, const py::object& qd, const py::object& base) {
            return vector_array(
                d.bias_forces(query_base(d, base), joint_vector(d, q, "q", false), joint_vector(d, qd, "qd")));
          },
          py::arg("q"), py::arg("qd"), py::kw_only(), py::arg("base") = py::none(),
          "h(q, qd) = C(q, qd) qd + G(q); base: the root link's pose (default: the Dynamics' base).")
      .def(
          "inverse_dynamics",
          [](const robot::Dynamics& d, const py::object& q, const py::object& qd, const py::object& qdd,
             const py::object& base) {
            return vector_array(d.inverse_dynamics(query_base(d, base), joint_vector(d, q, "q", false),
                                                   joint_vector(d, qd, "qd"), joint_vector(d, qdd, "qdd")));
          },
          py::arg("q"), py::arg("qd"), py::arg("qdd"), py::kw_only(), py::arg("base") = py::none(),
          "tau = M(q) qdd + h(q, qd).")
      .def(
          "forward_dynamics",
          [](const robot::Dynamics& d, const py::object& q, const py::object& qd, const py::object& tau,
             const py::object& base) {
            return vector_array(d.forward_dynamics(query_base(d, base), joint_vector(d, q, "q", false),
                                                   joint_vector(d, qd, "qd"), joint_vector(d, tau, "tau")));
          },
          py::arg("q"), py::arg("qd"), py::arg("tau"), py::kw_only(), py::arg("base") = py::none(),
          "qdd solving M(q) qdd = tau - h(q, qd).");
}

}  // namespace proxima::python
