// SPDX-License-Identifier: BSD-3-Clause
// Numbers from Python, strictly: pybind11 reads True as 1 wherever a number
// is asked for (Sphere(True) was a sphere of radius 1, tolerance=True a
// metre). These casters of double, int and long long refuse Python's and
// numpy's bools, so a flag passed where a number belongs raises TypeError
// like any other wrong type. Everything else reads as pybind11 reads it: a
// float, an int or a numpy number for a double; an int or a numpy integer
// (anything with __index__), never a float, for an integer. Every source
// file of the module sees them first (src/python/CMakeLists.txt forces the
// include), so the whole module uses the one definition. Bools themselves
// cannot be made strict here (pybind11 fully specialises their caster): an
// on/off argument is declared .noconvert(), which takes only True or False.
#pragma once

#include <pybind11/pybind11.h>

#include <cstring>
#include <limits>

namespace proxima::python::detail {

// A bool of Python or of numpy (numpy.bool_, named numpy.bool since numpy 2).
inline bool is_any_bool(PyObject* o) {
  if (PyBool_Check(o)) return true;
  const char* name = Py_TYPE(o)->tp_name;
  return std::strcmp(name, "numpy.bool") == 0 || std::strcmp(name, "numpy.bool_") == 0;
}

}  // namespace proxima::python::detail

namespace pybind11::detail {

template <>
struct type_caster<double> {
  PYBIND11_TYPE_CASTER(double, io_name("typing.SupportsFloat | typing.SupportsIndex", "float"));

  bool load(handle src, bool convert) {
    if (!src || proxima::python::detail::is_any_bool(src.ptr())) return false;
    if (!convert && !PyFloat_Check(src.ptr()) && !PyLong_Check(src.ptr())) return false;
    const double d = PyFloat_AsDouble(src.ptr());
    if (d == -1.0 && PyErr_Occurred()) {
      PyErr_Clear();
      return false;
    }
    value = d;
    return true;
  }
  static handle cast(double src, return_value_policy, handle) { return PyFloat_FromDouble(src); }
};

// An int or a long long: anything with __index__ but a bool, within range.
template <class T>
struct strict_integer_caster {
  PYBIND11_TYPE_CASTER(T, io_name("typing.SupportsInt | typing.SupportsIndex", "int"));

  bool load(handle src, bool convert) {
    if (!src || PyFloat_Check(src.ptr()) || proxima::python::detail::is_any_bool(src.ptr())) return false;
    if (!convert && !PyLong_Check(src.ptr()) && !PyIndex_Check(src.ptr())) return false;
    PyObject* index = PyNumber_Index(src.ptr());
    if (index == nullptr) {
      PyErr_Clear();
      return false;
    }
    const long long v = PyLong_AsLongLong(index);
    Py_DECREF(index);
    if ((v == -1 && PyErr_Occurred()) || v < std::numeric_limits<T>::min() || v > std::numeric_limits<T>::max()) {
      PyErr_Clear();
      return false;
    }
    value = static_cast<T>(v);
    return true;
  }
  static handle cast(T src, return_value_policy, handle) { return PyLong_FromLongLong(src); }
};

template <>
struct type_caster<int> : strict_integer_caster<int> {};
template <>
struct type_caster<long long> : strict_integer_caster<long long> {};

}  // namespace pybind11::detail
