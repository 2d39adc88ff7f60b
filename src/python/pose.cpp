// SPDX-License-Identifier: BSD-3-Clause
// proxima.Pose: the library's rigid Transform.
#include "bindings.hpp"
#include "convert.hpp"
#include "pickling.hpp"

namespace proxima::python {
namespace {

// w ≥ 0: q and −q are one rotation; one sign makes printed poses comparable.
Eigen::Vector4d wxyz(const Transform& t) {
  Quat q(t.R);
  q.normalize();
  Eigen::Vector4d v(q.w(), q.x(), q.y(), q.z());
  return q.w() < 0.0 ? Eigen::Vector4d(-v) : v;
}

py::array_t<double> matrix(const Transform& t) {
  py::array_t<double> a({4, 4});
  double* d = a.mutable_data();
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) d[4 * i + j] = i == 3 ? (j == 3 ? 1.0 : 0.0) : (j == 3 ? t.p[i] : t.R(i, j));
  return a;
}

// Pickled as p and the rows of R, not a quaternion: R back from a
// quaternion would differ in the last bits, and the copy must be the pose.
py::object pose_state(const Transform& t) {
  return py::make_tuple(state_of(t.p), py::make_tuple(state_of(t.R.row(0).transpose()),
                                                      state_of(t.R.row(1).transpose()),
                                                      state_of(t.R.row(2).transpose())));
}

Transform restore_pose(const py::object& state) {
  const StateReader r(state, "Pose", {"p", "R"});
  const Vec3 p = r.vec3(0);
  const Mat3 R = r.rows(1);
  if (!p.allFinite() || !R.allFinite()) r.fail("non-finite entry");
  double m[16] = {};
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) m[4 * i + j] = R(i, j);
    m[4 * i + 3] = p[i];
  }
  m[15] = 1.0;
  Transform t;
  if (auto reason = matrix_pose(m, t)) r.fail(*reason);
  return t;
}

}  // namespace

void bind_pose(py::module_& m) {
  py::class_<Transform>(m, "Pose",
                        "A rigid pose x -> R x + p. Queries also take a 4x4 matrix or a (p, q) pair wherever a Pose "
                        "goes, and None for the identity.")
      .def(py::init([](const py::object& p, const py::object& q) {
             const Vec3 pv = p.is_none() ? Vec3::Zero() : vec3_arg(p, "p");
             Eigen::Vector4d qv(1.0, 0.0, 0.0, 0.0);
             if (!q.is_none()) {
               const DoubleArray qa = double_array(q, "q");
               if (qa.ndim() != 1 || qa.shape(0) != 4) {
                 value_error("q: expected 4 numbers (w, x, y, z), got shape " + shape_string(qa));
               }
               qv = Eigen::Vector4d(qa.at(0), qa.at(1), qa.at(2), qa.at(3));
             }
             return pose_from_pq(pv, qv, "pose", PoseCheck::strict);
           }),
           py::arg("p") = py::none(), py::arg("q") = py::none(),
           "Pose(p=(x, y, z), q=(w, x, y, z)). The quaternion is normalized; a zero or non-finite one, or a "
           "non-finite translation, raises ValueError. Defaults: no translation, no rotation.")
      .def_static("identity", &Transform::identity, "The identity pose.")
      .def_static(
          "from_matrix", [](const py::object& mat) { return pose_arg(mat, "matrix", PoseCheck::strict); },
          py::arg("matrix"),
          "From a 4x4 homogeneous matrix; ValueError unless it is finite and rigid (orthonormal rotation "
          "block to 1e-6, determinant +1, last row 0 0 0 1).")
      .def_static(
          "from_axis_angle",
          [](const py::object& axis, double angle, const py::object& p) {
            return Transform::from_axis_angle(vec3_arg(axis, "axis"), angle,
                                              p.is_none() ? Vec3::Zero() : vec3_arg(p, "p"));
          },
          py::arg("axis"), py::arg("angle"), py::arg("p") = py::none(),
          "Rotation of `angle` radians about `axis` (normalized), then translation p.")
      .def_property_readonly(
          "p", [](const Transform& t) { return to_array(t.p); }, "Translation (3,).")
      .def_property_readonly(
          "q",
          [](const Transform& t) {
            const Eigen::Vector4d v = wxyz(t);
            py::array_t<double> a(4);
            for (int i = 0; i < 4; ++i) a.mutable_at(i) = v[i];
            return a;
          },
          "Unit quaternion (w, x, y, z), w >= 0.")
      .def_property_readonly(
          "R", [](const Transform& t) { return to_array(t.R); }, "Rotation matrix (3, 3).")
      .def("matrix", &matrix, "The 4x4 homogeneous matrix.")
      .def("inverse", &Transform::inverse, "The inverse pose.")
      .def(
          "__mul__", [](const Transform& a, const Transform& b) { return a * b; }, py::is_operator(),
          "Composition: (a * b) maps x to a(b(x)).")
      .def(
          "apply",
          [](const Transform& t, const py::object& points) -> py::array_t<double> {
            const DoubleArray a = double_array(points, "points");
            if (a.ndim() == 1 && a.shape(0) == 3) return to_array(t.apply(Vec3(a.at(0), a.at(1), a.at(2))));
            std::vector<Vec3> v = points_arg(points, "points");
            for (Vec3& x : v) x = t.apply(x);
            return to_array(v);
          },
          py::arg("points"), "Maps a point (3,) or points (N, 3) from the local frame to the world.")
      .def(py::pickle(&pose_state, &restore_pose))
      .def("__repr__", [](const Transform& t) {
        const Eigen::Vector4d q = wxyz(t);
        return "Pose(p=" + repr(t.p) + ", q=[" + repr(q[0]) + ", " + repr(q[1]) + ", " + repr(q[2]) + ", " +
               repr(q[3]) + "])";
      });
}

}  // namespace proxima::python
