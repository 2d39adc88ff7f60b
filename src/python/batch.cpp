// SPDX-License-Identifier: BSD-3-Clause
// Batched queries: one pair of operands at N pose pairs, looped in C++
// without the GIL, answers in numpy arrays. The per-call cost of a Python
// query (argument conversion, result objects) is several times that of the
// query itself for convex pairs; here it is paid once per batch.
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>

#include <proxima/core/parallel.hpp>
#include <proxima/narrow/incremental_depth.hpp>

#include "batch_results.hpp"
#include "bindings.hpp"
#include "convert.hpp"
#include "operand.hpp"

namespace proxima::python {
namespace {

// (N, 4, 4) poses, or one (4, 4) pose for every row.
struct PoseRows {
  DoubleArray array;
  bool broadcast = false;
  py::ssize_t rows = 1;
  const double* row(py::ssize_t i) const { return array.data() + (broadcast ? 0 : 16 * i); }
};

PoseRows pose_rows(const py::object& value, const char* name) {
  PoseRows r;
  r.array = double_array(value, name);
  const DoubleArray& a = r.array;
  if (a.ndim() == 2 && a.shape(0) == 4 && a.shape(1) == 4) {
    r.broadcast = true;
    return r;
  }
  if (a.ndim() != 3 || a.shape(1) != 4 || a.shape(2) != 4) {
    value_error(std::string(name) + ": expected an (N, 4, 4) array of poses or one (4, 4) pose, got shape " +
                shape_string(a));
  }
  r.rows = a.shape(0);
  return r;
}

py::ssize_t row_count(const PoseRows& a, const PoseRows& b) {
  if (a.broadcast) return b.rows;
  if (b.broadcast) return a.rows;
  if (a.rows != b.rows) {
    value_error("poses_a and poses_b: " + std::to_string(a.rows) + " and " + std::to_string(b.rows) +
                " poses; the counts must match (or one be a single (4, 4) pose)");
  }
  return a.rows;
}

// Reads both poses of row i; false (and the reason) for a finite pose that is
// not rigid. Called without the GIL: no Python objects.
bool read_row(const PoseRows& a, const PoseRows& b, py::ssize_t i, Transform& ta, Transform& tb,
              std::string& error) {
  if (auto reason = matrix_pose(a.row(i), ta)) {
    error = (a.broadcast ? std::string("poses_a") : "poses_a[" + std::to_string(i) + "]") + ": " + *reason;
    return false;
  }
  if (auto reason = matrix_pose(b.row(i), tb)) {
    error = (b.broadcast ? std::string("poses_b") : "poses_b[" + std::to_string(i) + "]") + ": " + *reason;
    return false;
  }
  return true;
}

// The rows of a batch on `threads` threads (parallel_for), without the GIL:
// `row(i, ta, tb)` answers row i into its own slots. A row whose poses are
// not rigid ends its chunk, and the lowest such row's reason is returned
// (empty when every row was read), whatever the number of threads.
template <class RowFn>
std::string run_rows(py::ssize_t n, int threads, const PoseRows& ra, const PoseRows& rb, RowFn&& row) {
  std::mutex lock;
  py::ssize_t first_bad = n;
  std::string error;
  py::gil_scoped_release unlocked;
  parallel_for(static_cast<std::size_t>(n), threads, [&](std::size_t begin, std::size_t end, int) {
    Transform ta, tb;
    std::string reason;
    for (auto i = static_cast<py::ssize_t>(begin); i < static_cast<py::ssize_t>(end); ++i) {
      if (!read_row(ra, rb, i, ta, tb, reason)) {
        const std::lock_guard<std::mutex> hold(lock);
        if (i < first_bad) {
          first_bad = i;
          error = reason;
        }
        return;
      }
      row(i, ta, tb);
    }
  });
  return error;
}

struct DistanceBatch {
  py::array_t<double> distance, normal, point_a, point_b;
  py::array_t<std::int8_t> status_code;
  py::array_t<std::int64_t> triangle_a, triangle_b;
};

// The status names as a numpy array indexed by the codes (one vectorized
// lookup instead of N Python strings built here).
py::object status_strings(const py::array_t<std::int8_t>& codes) {
  const py::module_ np = py::module_::import("numpy");
  return np.attr("array")(status_names())[codes];
}

DistanceBatch distance_batch(const py::object& a, const py::object& poses_a, const py::object& b,
                             const py::object& poses_b, const std::string& method, int threads,
                             bool signed_distance, PenetrationCache* cache = nullptr) {
  const Operand oa = operand_arg(a, "a"), ob = operand_arg(b, "b");
  const PoseRows ra = pose_rows(poses_a, "poses_a"), rb = pose_rows(poses_b, "poses_b");
  const py::ssize_t n = row_count(ra, rb);
  thread_count(threads);
  DistanceRequest req;
  req.method = method_arg(method);
  if (req.method != Method::automatic && (oa.mesh || ob.mesh)) value_error("method: applies to convex pairs only");
  // The rows as one pair's sequence of poses, followed in order with the
  // caller's cache. The batch runs on a copy, without the GIL, so that
  // another Python thread's use of the cache meanwhile cannot race with
  // it; the copy goes back only when every row was read, so that a
  // refused batch leaves the cache as it was.
  std::optional<PenetrationCache> followed;
  if (cache) {
    check_penetration_cache(oa, ob, req.method, method);
    if (threads != 1)
      value_error("cache: the rows are followed in order on one thread; threads must be 1, got " +
                  std::to_string(threads));
    followed = *cache;
    req.penetration = &*followed;
  }
  DistanceBatch out{py::array_t<double>(n),
                    py::array_t<double>({n, py::ssize_t{3}}),
                    py::array_t<double>({n, py::ssize_t{3}}),
                    py::array_t<double>({n, py::ssize_t{3}}),
                    py::array_t<std::int8_t>(n),
                    py::array_t<std::int64_t>(n),
                    py::array_t<std::int64_t>(n)};
  double* d = out.distance.mutable_data();
  double* nrm = out.normal.mutable_data();
  double* pa = out.point_a.mutable_data();
  double* pb = out.point_b.mutable_data();
  std::int8_t* st = out.status_code.mutable_data();
  std::int64_t* tria = out.triangle_a.mutable_data();
  std::int64_t* trib = out.triangle_b.mutable_data();
  const std::string error = run_rows(n, threads, ra, rb, [&](py::ssize_t i, const Transform& ta, const Transform& tb) {
    const DistanceAnswer r = pair_distance(oa, ta, ob, tb, req, signed_distance);
    d[i] = r.distance;
    for (int k = 0; k < 3; ++k) {
      nrm[3 * i + k] = r.normal[k];
      pa[3 * i + k] = r.point_a[k];
      pb[3 * i + k] = r.point_b[k];
    }
    st[i] = static_cast<std::int8_t>(r.status);
    tria[i] = r.triangle_a;
    trib[i] = r.triangle_b;
  });
  if (!error.empty()) value_error(error);
  if (cache) *cache = *followed;
  return out;
}

CollideBatch collide_batch(const py::object& a, const py::object& poses_a, const py::object& b,
                           const py::object& poses_b, const std::string& method, int threads) {
  const Operand oa = operand_arg(a, "a"), ob = operand_arg(b, "b");
  const PoseRows ra = pose_rows(poses_a, "poses_a"), rb = pose_rows(poses_b, "poses_b");
  const py::ssize_t n = row_count(ra, rb);
  thread_count(threads);
  CollideRequest req;
  req.method = method_arg(method);
  if (req.method != Method::automatic && (oa.mesh || ob.mesh)) value_error("method: applies to convex pairs only");
  CollideBatch out{py::array_t<bool>(n), py::array_t<std::int8_t>(n)};
  bool* c = out.collide.mutable_data();
  std::int8_t* st = out.status_code.mutable_data();
  const std::string error = run_rows(n, threads, ra, rb, [&](py::ssize_t i, const Transform& ta, const Transform& tb) {
    const CollideAnswer r = pair_collide(oa, ta, ob, tb, req);
    c[i] = r.collide;
    st[i] = static_cast<std::int8_t>(r.status);
  });
  if (!error.empty()) value_error(error);
  return out;
}

}  // namespace

void bind_batch(py::module_& m) {
  py::class_<DistanceBatch>(m, "DistanceBatchResult", "Answers of distance_batch() and signed_distance_batch().")
      .def_readonly("distance", &DistanceBatch::distance, "(N,) distances.")
      .def_readonly("normal", &DistanceBatch::normal, "(N, 3) unit normals, B to A.")
      .def_readonly("point_a", &DistanceBatch::point_a, "(N, 3) witness points on A.")
      .def_readonly("point_b", &DistanceBatch::point_b, "(N, 3) witness points on B.")
      .def_readonly("triangle_a", &DistanceBatch::triangle_a, "(N,) closest triangle of a mesh A, else -1.")
      .def_readonly("triangle_b", &DistanceBatch::triangle_b, "(N,) closest triangle of a mesh B, else -1.")
      .def_readonly("status_code", &DistanceBatch::status_code, "(N,) int8 status: index into proxima.STATUS_NAMES.")
      .def_property_readonly(
          "status", [](const DistanceBatch& r) { return status_strings(r.status_code); },
          "(N,) status names ('ok', 'invalid_input', ...).")
      .def_property_readonly(
          "ok", [](const DistanceBatch& r) { return r.status_code.attr("__eq__")(0); }, "(N,) status == 'ok'.")
      .def("__len__", [](const DistanceBatch& r) { return r.distance.size(); });

  py::class_<CollideBatch>(m, "CollideBatchResult", "Answers of collide_batch().")
      .def_readonly("collide", &CollideBatch::collide, "(N,) bool.")
      .def_readonly("status_code", &CollideBatch::status_code, "(N,) int8 status: index into proxima.STATUS_NAMES.")
      .def_property_readonly(
          "status", [](const CollideBatch& r) { return status_strings(r.status_code); }, "(N,) status names.")
      .def_property_readonly(
          "ok", [](const CollideBatch& r) { return r.status_code.attr("__eq__")(0); }, "(N,) status == 'ok'.")
      .def("__len__", [](const CollideBatch& r) { return r.collide.size(); });

  m.attr("STATUS_NAMES") = py::tuple(py::cast(status_names()));

  const char* rows =
      " poses_a, poses_b: (N, 4, 4) arrays of rigid poses, or one (4, 4) pose used for every row. A non-finite "
      "pose gives status 'invalid_input' in its row; a finite non-rigid one raises ValueError naming the first "
      "such row. threads: how many threads share the rows (0: every hardware thread). Runs without the GIL; "
      "each row equals the single query at its poses, whatever the number of threads.";
  m.def(
      "distance_batch",
      [](const py::object& a, const py::object& pa, const py::object& b, const py::object& pb,
         const std::string& method, int threads) { return distance_batch(a, pa, b, pb, method, threads, false); },
      py::arg("a"), py::arg("poses_a"), py::arg("b"), py::arg("poses_b"), py::kw_only(), py::arg("method") = "auto",
      py::arg("threads") = 1,
      (std::string("distance() of one pair at N pose pairs -> DistanceBatchResult.") + rows).c_str());
  m.def(
      "signed_distance_batch",
      [](const py::object& a, const py::object& pa, const py::object& b, const py::object& pb,
         const std::string& method, int threads, PenetrationCache* cache) {
        return distance_batch(a, pa, b, pb, method, threads, true, cache);
      },
      py::arg("a"), py::arg("poses_a"), py::arg("b"), py::arg("poses_b"), py::kw_only(), py::arg("method") = "auto",
      py::arg("threads") = 1, py::arg("cache") = py::none(),
      (std::string("signed_distance() of one pair at N pose pairs -> DistanceBatchResult.") + rows +
       " cache: a PenetrationCache; the rows are then one sequence of poses of the pair, followed in order on one "
       "thread (threads=1) and the cache left as the last row made it, for the next batch of the sequence.")
          .c_str());
  m.def("collide_batch", &collide_batch, py::arg("a"), py::arg("poses_a"), py::arg("b"), py::arg("poses_b"),
        py::kw_only(), py::arg("method") = "auto", py::arg("threads") = 1,
        (std::string("collide() of one pair at N pose pairs -> CollideBatchResult.") + rows).c_str());
}

}  // namespace proxima::python
