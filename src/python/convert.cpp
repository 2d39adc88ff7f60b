// SPDX-License-Identifier: BSD-3-Clause
#include "convert.hpp"

#include <charconv>
#include <cmath>
#include <limits>
#include <sstream>

namespace proxima::python {

void value_error(const std::string& message) { throw py::value_error(message); }
void type_error(const std::string& message) { throw py::type_error(message); }

std::string shape_string(const py::array& a) {
  std::ostringstream s;
  s << '(';
  for (py::ssize_t i = 0; i < a.ndim(); ++i) s << (i ? ", " : "") << a.shape(i);
  s << (a.ndim() == 1 ? ",)" : ")");
  return s.str();
}

std::string type_name(const py::handle& value) { return py::str(py::type::of(value).attr("__name__")); }

namespace {

// A bool anywhere in a (nested) list or tuple: numpy would read it as 1.
bool holds_bool(const py::handle& value) {
  if (detail::is_any_bool(value.ptr())) return true;
  if (!PyList_Check(value.ptr()) && !PyTuple_Check(value.ptr())) return false;
  for (const py::handle item : value)
    if (holds_bool(item)) return true;
  return false;
}

// `value` as an array of doubles when it holds numbers only (numpy would
// also read bools as 0 and 1 and strings of digits as their values, which a
// misplaced argument would pass through); TypeError naming `name`, after
// `expected`, otherwise.
DoubleArray numbers_only(const py::handle& value, const std::string& name, const std::string& expected) {
  const py::array any = py::array::ensure(value);
  if (!any) type_error(name + ": expected " + expected + ", got " + type_name(value));
  if (holds_bool(value))
    type_error(name + ": expected " + expected + ", got a " + type_name(value) + " holding a bool");
  const char kind = any.dtype().kind();
  if (any.size() > 0 && kind != 'f' && kind != 'i' && kind != 'u')
    type_error(name + ": expected " + expected + ", got an array of dtype " + std::string(py::str(any.dtype())));
  return DoubleArray::ensure(any);
}

}  // namespace

DoubleArray double_array(const py::handle& value, const std::string& name) {
  return numbers_only(value, name, "numbers (an array or a sequence)");
}

Vec3 vec3_arg(const py::handle& value, const std::string& name) {
  const DoubleArray a = double_array(value, name);
  if (a.ndim() != 1 || a.shape(0) != 3) value_error(name + ": expected 3 numbers, got shape " + shape_string(a));
  return {a.at(0), a.at(1), a.at(2)};
}

std::vector<Vec3> points_arg(const py::handle& value, const std::string& name) {
  const DoubleArray a = double_array(value, name);
  if (a.ndim() != 2 || a.shape(1) != 3) {
    value_error(name + ": expected an (N, 3) array of points, got shape " + shape_string(a));
  }
  std::vector<Vec3> points(static_cast<std::size_t>(a.shape(0)));
  const double* d = a.data();
  for (std::size_t i = 0; i < points.size(); ++i) points[i] = Vec3(d[3 * i], d[3 * i + 1], d[3 * i + 2]);
  return points;
}

py::array_t<double> vector_array(const Eigen::VectorXd& v) {
  py::array_t<double> out(v.size());
  for (Eigen::Index i = 0; i < v.size(); ++i) out.mutable_data()[i] = v[i];
  return out;
}

py::array_t<double> to_array(const Vec3& v) {
  py::array_t<double> a(3);
  double* d = a.mutable_data();
  for (int i = 0; i < 3; ++i) d[i] = v[i];
  return a;
}

py::array_t<double> to_array(const Mat3& m) {
  py::array_t<double> a({3, 3});
  double* d = a.mutable_data();
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) d[3 * i + j] = m(i, j);
  return a;
}

py::array_t<double> to_array(const std::vector<Vec3>& points) {
  py::array_t<double> a({static_cast<py::ssize_t>(points.size()), py::ssize_t{3}});
  double* d = a.mutable_data();
  for (std::size_t i = 0; i < points.size(); ++i)
    for (int k = 0; k < 3; ++k) d[3 * i + static_cast<std::size_t>(k)] = points[i][k];
  return a;
}

py::array_t<double> to_array(const Aabb& box) {
  py::array_t<double> a({2, 3});
  double* d = a.mutable_data();
  for (int k = 0; k < 3; ++k) {
    d[k] = box.min[k];
    d[3 + k] = box.max[k];
  }
  return a;
}

std::optional<std::string> matrix_pose(const double* m, Transform& out) {
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) out.R(i, j) = m[4 * i + j];
    out.p[i] = m[4 * i + 3];
  }
  bool finite = true;
  for (int k = 0; k < 16; ++k) finite = finite && std::isfinite(m[k]);
  if (!finite) return std::nullopt;
  // Tolerances: matrices from float32 sources or long products of rotations
  // are orthonormal to ~1e-7, not to rounding; 1e-6 keeps them and rejects
  // scaled or sheared ones, which the queries' support functions would
  // silently misread.
  if (std::abs(m[12]) > 1e-9 || std::abs(m[13]) > 1e-9 || std::abs(m[14]) > 1e-9 || std::abs(m[15] - 1.0) > 1e-9) {
    std::ostringstream s;
    s << "the last row is (" << m[12] << ", " << m[13] << ", " << m[14] << ", " << m[15]
      << "), expected (0, 0, 0, 1)";
    return s.str();
  }
  const double off = (out.R.transpose() * out.R - Mat3::Identity()).cwiseAbs().maxCoeff();
  if (off > 1e-6) {
    std::ostringstream s;
    s << "the rotation block is not orthonormal (max |R^T R - I| = " << off << ")";
    return s.str();
  }
  if (out.R.determinant() < 0.0) return std::string("the rotation block is a reflection (determinant -1)");
  return std::nullopt;
}

namespace {

Transform non_finite_pose(const Vec3& p) {
  // is_valid() fails on the NaN rotation, so every query answers invalid_input.
  return {Mat3::Constant(std::numeric_limits<double>::quiet_NaN()), p};
}

Transform pose_from_matrix(const py::handle& value, const std::string& name, PoseCheck check) {
  const DoubleArray a = numbers_only(value, name, "a proxima.Pose, a 4x4 matrix or a (p, q) pair");
  if (a.ndim() != 2 || a.shape(0) != 4 || a.shape(1) != 4) {
    value_error(name + ": expected a proxima.Pose, a 4x4 matrix or a (p, q) pair, got an array of shape " +
                shape_string(a));
  }
  Transform t;
  if (auto reason = matrix_pose(a.data(), t)) value_error(name + ": " + *reason);
  if (check == PoseCheck::strict && !t.is_finite()) value_error(name + ": non-finite matrix entry");
  return t;
}

}  // namespace

Transform pose_from_pq(const Vec3& p, const Eigen::Vector4d& q, const std::string& name, PoseCheck check) {
  if (!p.allFinite() || !q.allFinite()) {
    if (check == PoseCheck::strict) value_error(name + ": non-finite quaternion or translation");
    return non_finite_pose(p);
  }
  Transform t;
  try {
    // The rotation alone: a translation beyond the range of lengths is the
    // query's to answer (invalid_input), not an error here.
    t = Transform::from_quaternion(q[0], q[1], q[2], q[3], Vec3::Zero());
  } catch (const Error& e) {
    std::string m = e.what();
    if (m.rfind("pose: ", 0) == 0) m = m.substr(6);
    value_error(name + ": " + m);
  }
  t.p = p;
  if (check == PoseCheck::strict && !in_range(p)) {
    std::ostringstream s;
    s << name << ": translation beyond +-" << kMaxLength << " m, the range of lengths Proxima accepts";
    value_error(s.str());
  }
  return t;
}

Transform pose_arg(const py::handle& value, const std::string& name, PoseCheck check) {
  if (value.is_none()) return Transform::identity();
  if (py::isinstance<Transform>(value)) {
    const auto& t = value.cast<const Transform&>();
    if (check == PoseCheck::strict && !t.is_finite()) value_error(name + ": non-finite pose");
    return t;
  }
  if ((py::isinstance<py::tuple>(value) || py::isinstance<py::list>(value)) && py::len(value) == 2) {
    const py::sequence pq = py::reinterpret_borrow<py::sequence>(value);
    const Vec3 p = vec3_arg(pq[0], name + ".p");
    const DoubleArray qa = double_array(pq[1], name + ".q");
    if (qa.ndim() != 1 || qa.shape(0) != 4) {
      value_error(name + ".q: expected 4 numbers (w, x, y, z), got shape " + shape_string(qa));
    }
    return pose_from_pq(p, Eigen::Vector4d(qa.at(0), qa.at(1), qa.at(2), qa.at(3)), name, check);
  }
  return pose_from_matrix(value, name, check);
}

Method method_arg(const std::string& name) {
  if (name == "auto") return Method::automatic;
  if (name == "analytic") return Method::analytic;
  if (name == "gjk" || name == "gjk_epa") return Method::gjk;
  if (name == "sat") return Method::sat;
  if (name == "incremental") return Method::incremental;
  if (name == "mpr") return Method::mpr;
  value_error("method: unknown \"" + name + "\" (expected auto, analytic, gjk_epa, sat, incremental or mpr)");
}

std::string repr(double x) {
  char buffer[32];
  const auto r = std::to_chars(buffer, buffer + sizeof buffer, x);
  std::string s(buffer, r.ptr);
  // As Python prints floats: 1.0, not 1.
  if (s.find_first_not_of("-0123456789") == std::string::npos) s += ".0";
  return s;
}

std::string repr(const Vec3& v) { return "[" + repr(v.x()) + ", " + repr(v.y()) + ", " + repr(v.z()) + "]"; }

const std::vector<std::string>& status_names() {
  static const std::vector<std::string> names = {to_string(Status::ok), to_string(Status::not_converged),
                                                 to_string(Status::invalid_input), to_string(Status::not_implemented),
                                                 to_string(Status::upper_bound)};
  return names;
}

}  // namespace proxima::python
