// SPDX-License-Identifier: BSD-3-Clause
// Pickling of the value types (Pose, the shapes, TriangleMesh, Bvh), which
// is also what copy.deepcopy and multiprocessing use. A state is a tuple in
// the constructor's argument order: floats and strings, tuples for vectors,
// numpy arrays for point sets and triangles (compact, and numpy pickles them
// with their byte order). Reading one back goes through the constructors'
// checks, so a corrupted state raises proxima.Error naming the class instead
// of building an invalid object.
#pragma once

#include <initializer_list>
#include <string>
#include <vector>

#include "convert.hpp"

namespace proxima::python {

/// (x, y, z) as Python floats.
py::tuple state_of(const Vec3& v);

/// A pickled state being read back into class `type`, whose state is the
/// tuple `fields` (their names go into messages). Every failure raises
/// proxima.Error: "Sphere: cannot unpickle (radius, margin): ...". The state
/// must outlive the reader (it is the argument of the __setstate__ call).
class StateReader {
 public:
  StateReader(const py::handle& state, const char* type, std::initializer_list<const char*> fields);

  const py::handle& item(std::size_t i) const { return items_[i]; }
  const char* field(std::size_t i) const { return fields_[i]; }
  double number(std::size_t i) const;
  long long integer(std::size_t i) const;
  std::string text(std::size_t i) const;
  /// A tuple of 3 numbers.
  Vec3 vec3(std::size_t i) const;
  /// A tuple of 3 rows of 3 numbers.
  Mat3 rows(std::size_t i) const;
  /// An (N, 3) array.
  std::vector<Vec3> points(std::size_t i) const;

  [[noreturn]] void fail(const std::string& reason) const;

  /// Runs `make` (reading items, calling a constructor), its errors
  /// (proxima::Error, the argument readers' ValueError and TypeError)
  /// rethrown as proxima.Error with this class's name in front.
  template <class Make>
  auto build(Make&& make) const -> decltype(make()) {
    try {
      return make();
    } catch (const Unpickling&) {
      throw;
    } catch (const Error& e) {
      fail(e.what());
    } catch (const py::builtin_exception& e) {
      fail(e.what());
    }
  }

 private:
  /// Already names the class: passed through build() unchanged.
  struct Unpickling : Error {
    using Error::Error;
  };

  [[noreturn]] void fail_item(std::size_t i, const std::string& expected) const;

  std::vector<py::handle> items_;
  std::string type_;
  std::vector<const char*> fields_;
};

}  // namespace proxima::python
