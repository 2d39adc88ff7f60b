// SPDX-License-Identifier: BSD-3-Clause
#include "pickling.hpp"

namespace proxima::python {

py::tuple state_of(const Vec3& v) { return py::make_tuple(v.x(), v.y(), v.z()); }

namespace {

std::string layout(const std::vector<const char*>& fields) {
  std::string s = "(";
  for (std::size_t i = 0; i < fields.size(); ++i) s += (i ? ", " : "") + std::string(fields[i]);
  return s + ")";
}

// Only floats and ints: a string that happens to parse is not a state this
// module wrote.
bool is_number(const py::handle& h) {
  return py::isinstance<py::float_>(h) || (py::isinstance<py::int_>(h) && !py::isinstance<py::bool_>(h));
}

}  // namespace

StateReader::StateReader(const py::handle& state, const char* type, std::initializer_list<const char*> fields)
    : type_(type), fields_(fields) {
  if (!py::isinstance<py::tuple>(state)) fail("expected a tuple, got " + type_name(state));
  const auto tuple = py::reinterpret_borrow<py::tuple>(state);
  if (tuple.size() != fields_.size()) {
    fail("expected a tuple of " + std::to_string(fields_.size()) + " items, got " + std::to_string(tuple.size()));
  }
  for (const py::handle item : tuple) items_.push_back(item);
}

void StateReader::fail(const std::string& reason) const {
  throw Unpickling(type_ + ": cannot unpickle " + layout(fields_) + ": " + reason);
}

void StateReader::fail_item(std::size_t i, const std::string& expected) const {
  fail(std::string(fields_[i]) + " must be " + expected + ", got " + type_name(items_[i]));
}

double StateReader::number(std::size_t i) const {
  if (!is_number(items_[i])) fail_item(i, "a number");
  try {
    return items_[i].cast<double>();
  } catch (const py::cast_error&) {
    fail_item(i, "a number in the range of a double");
  }
}

long long StateReader::integer(std::size_t i) const {
  if (!py::isinstance<py::int_>(items_[i]) || py::isinstance<py::bool_>(items_[i])) fail_item(i, "an integer");
  try {
    return items_[i].cast<long long>();
  } catch (const py::cast_error&) {
    fail_item(i, "an integer in the range of a 64-bit one");
  }
}

std::string StateReader::text(std::size_t i) const {
  if (!py::isinstance<py::str>(items_[i])) fail_item(i, "a string");
  return items_[i].cast<std::string>();
}

Vec3 StateReader::vec3(std::size_t i) const {
  const py::handle h = items_[i];
  if (!py::isinstance<py::tuple>(h) || py::len(h) != 3) fail_item(i, "a tuple of 3 numbers");
  const auto t = py::reinterpret_borrow<py::tuple>(h);
  Vec3 v;
  for (std::size_t k = 0; k < 3; ++k) {
    if (!is_number(t[k])) fail_item(i, "a tuple of 3 numbers");
    v[static_cast<int>(k)] = t[k].cast<double>();
  }
  return v;
}

Mat3 StateReader::rows(std::size_t i) const {
  const py::handle h = items_[i];
  if (!py::isinstance<py::tuple>(h) || py::len(h) != 3) fail_item(i, "a tuple of 3 rows of 3 numbers");
  const auto t = py::reinterpret_borrow<py::tuple>(h);
  Mat3 m;
  for (std::size_t r = 0; r < 3; ++r) {
    if (!py::isinstance<py::tuple>(t[r]) || py::len(t[r]) != 3) fail_item(i, "a tuple of 3 rows of 3 numbers");
    const auto row = py::reinterpret_borrow<py::tuple>(t[r]);
    for (std::size_t c = 0; c < 3; ++c) {
      if (!is_number(row[c])) fail_item(i, "a tuple of 3 rows of 3 numbers");
      m(static_cast<int>(r), static_cast<int>(c)) = row[c].cast<double>();
    }
  }
  return m;
}

std::vector<Vec3> StateReader::points(std::size_t i) const {
  return build([&] { return points_arg(items_[i], fields_[i]); });
}

}  // namespace proxima::python
