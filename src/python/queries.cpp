// SPDX-License-Identifier: BSD-3-Clause
// collide, distance, signed_distance, contacts and time_of_impact for one
// pair: options checked here (ValueError naming the option), poses read
// leniently (a non-finite one gives status 'invalid_input'), the pair asked
// through pair_queries; and the PenetrationCache that signed_distance takes
// along a sequence of poses of one pair.
#include <cmath>
#include <limits>
#include <numbers>
#include <optional>

#include <proxima/narrow/incremental_depth.hpp>

#include "bindings.hpp"
#include "convert.hpp"
#include "operand.hpp"

namespace proxima::python {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Mesh queries can take milliseconds: let other Python threads run. The
// caller owns the release (pybind11's guard cannot be moved out of here).
void release_for_meshes(std::optional<py::gil_scoped_release>& unlocked, const Operand& a, const Operand& b) {
  if (a.mesh || b.mesh) unlocked.emplace();
}

void require(bool ok, const std::string& message) {
  if (!ok) value_error(message);
}

double non_negative(double x, const char* name) {
  require(std::isfinite(x) && x >= 0.0, std::string(name) + ": must be finite and >= 0, got " + repr(x));
  return x;
}

DistanceRequest distance_request(const Operand& a, const Operand& b, const std::string& method, double bound,
                                 double tol_rel, int max_iterations) {
  DistanceRequest r;
  r.method = method_arg(method);
  r.bound = bound;
  require(!std::isnan(bound), "bound: must not be NaN");
  require(std::isfinite(tol_rel) && tol_rel > 0.0, "tol_rel: must be finite and > 0, got " + repr(tol_rel));
  r.tol_rel = tol_rel;
  require(max_iterations >= 1, "max_iterations: must be >= 1");
  r.max_iterations = max_iterations;
  if (a.mesh || b.mesh) {
    require(r.method == Method::automatic, "method: applies to convex pairs only");
    require(bound == kInf, "bound: applies to convex pairs only");
  }
  return r;
}

CollideAnswer collide_py(const py::object& a, const py::object& pose_a, const py::object& b,
                         const py::object& pose_b, const std::string& method) {
  const Operand oa = operand_arg(a, "a"), ob = operand_arg(b, "b");
  const Transform ta = pose_arg(pose_a, "pose_a"), tb = pose_arg(pose_b, "pose_b");
  CollideRequest req;
  req.method = method_arg(method);
  require(req.method == Method::automatic || (oa.shape && ob.shape), "method: applies to convex pairs only");
  std::optional<py::gil_scoped_release> unlocked;
  release_for_meshes(unlocked, oa, ob);
  return pair_collide(oa, ta, ob, tb, req);
}

DistanceAnswer distance_py(const py::object& a, const py::object& pose_a, const py::object& b,
                           const py::object& pose_b, const std::string& method, double bound, double tol_rel,
                           int max_iterations, bool signed_distance, PenetrationCache* cache = nullptr) {
  const Operand oa = operand_arg(a, "a"), ob = operand_arg(b, "b");
  const Transform ta = pose_arg(pose_a, "pose_a"), tb = pose_arg(pose_b, "pose_b");
  DistanceRequest req = distance_request(oa, ob, method, bound, tol_rel, max_iterations);
  if (cache) {
    check_penetration_cache(oa, ob, req.method, method);
    req.penetration = cache;
  }
  std::optional<py::gil_scoped_release> unlocked;
  release_for_meshes(unlocked, oa, ob);
  return pair_distance(oa, ta, ob, tb, req, signed_distance);
}

ContactAnswer contacts_py(const py::object& a, const py::object& pose_a, const py::object& b,
                          const py::object& pose_b, double margin, std::optional<int> max_points,
                          std::optional<double> feature_tolerance, std::optional<int> disc_points,
                          std::optional<int> max_contacts, std::optional<bool> cluster,
                          std::optional<double> patch_angle) {
  const Operand oa = operand_arg(a, "a"), ob = operand_arg(b, "b");
  const Transform ta = pose_arg(pose_a, "pose_a"), tb = pose_arg(pose_b, "pose_b");
  ContactOptions convex;
  MeshContactOptions mesh;
  convex.margin = mesh.margin = non_negative(margin, "margin");
  const bool with_mesh = oa.mesh || ob.mesh;
  // An option of the other kind of pair is an error, not silently ignored.
  if (with_mesh) {
    require(!max_points && !feature_tolerance && !disc_points,
            "max_points, feature_tolerance, disc_points: apply to convex pairs only (with a mesh: max_contacts, "
            "cluster, patch_angle)");
    if (max_contacts) {
      require(*max_contacts >= 1, "max_contacts: must be >= 1");
      mesh.clustering.max_contacts = *max_contacts;
    }
    if (cluster) mesh.cluster = *cluster;
    if (patch_angle) {
      require(std::isfinite(*patch_angle) && *patch_angle >= 0.0 && *patch_angle < std::numbers::pi / 2,
              "patch_angle: must be in [0, pi/2) radians, got " + repr(*patch_angle));
      mesh.patch_angle = *patch_angle;
    }
  } else {
    require(!max_contacts && !cluster && !patch_angle,
            "max_contacts, cluster, patch_angle: apply to pairs with a mesh only (convex pairs: max_points)");
    if (max_points) {
      require(*max_points >= 0, "max_points: must be >= 0 (0: no reduction)");
      convex.max_points = *max_points;
    }
    if (feature_tolerance) convex.feature_tolerance = non_negative(*feature_tolerance, "feature_tolerance");
    if (disc_points) {
      require(*disc_points >= 3, "disc_points: must be >= 3");
      convex.disc_points = *disc_points;
    }
  }
  std::optional<py::gil_scoped_release> unlocked;
  release_for_meshes(unlocked, oa, ob);
  return pair_contacts(oa, ta, ob, tb, convex, mesh);
}

TimeOfImpactAnswer time_of_impact_py(const py::object& a, const py::object& pose_a, const py::object& pose_a_end,
                                     const py::object& b, const py::object& pose_b, const py::object& pose_b_end,
                                     double clearance, double accuracy, int max_iterations) {
  const Operand oa = operand_arg(a, "a"), ob = operand_arg(b, "b");
  const Transform ta = pose_arg(pose_a, "pose_a"), ta_end = pose_arg(pose_a_end, "pose_a_end");
  const Transform tb = pose_arg(pose_b, "pose_b"), tb_end = pose_arg(pose_b_end, "pose_b_end");
  TimeOfImpactRequest req;
  req.clearance = non_negative(clearance, "clearance");
  require(std::isfinite(accuracy) && accuracy > 0.0, "accuracy: must be finite and > 0, got " + repr(accuracy));
  req.accuracy = accuracy;
  require(max_iterations >= 1, "max_iterations: must be >= 1");
  req.max_iterations = max_iterations;
  py::gil_scoped_release unlocked;
  return pair_time_of_impact(oa, ta, ta_end, ob, tb, tb_end, req);
}

// A cache holds a contact while it keeps the last answer's normal.
bool holds_contact(const PenetrationCache& c) { return c.direction.squaredNorm() > 0.0; }

ToleranceAnswer tolerance_py(const py::object& a, const py::object& pose_a, const py::object& b,
                             const py::object& pose_b, double tolerance) {
  const Operand oa = operand_arg(a, "a"), ob = operand_arg(b, "b");
  const Transform ta = pose_arg(pose_a, "pose_a"), tb = pose_arg(pose_b, "pose_b");
  const double t = non_negative(tolerance, "tolerance");
  std::optional<py::gil_scoped_release> unlocked;
  release_for_meshes(unlocked, oa, ob);
  return pair_tolerance(oa, ta, ob, tb, t);
}

}  // namespace

void bind_queries(py::module_& m) {
  const char* operands =
      "a, b: convex shapes (Sphere, ..., ConvexPolytope, Shape) or Bvh meshes, in either order. "
      "pose_a, pose_b: Pose, 4x4 matrix, (p, q) pair or None (identity).";
  m.def("collide", &collide_py, py::arg("a"), py::arg("pose_a"), py::arg("b"), py::arg("pose_b"), py::kw_only(),
        py::arg("method") = "auto",
        (std::string("Do A and B (with margins) touch or overlap? -> CollideResult. ") + operands +
         " method: 'auto', 'gjk_epa', 'analytic', 'sat', 'incremental' or 'mpr' (convex pairs).")
            .c_str());
  m.def(
      "distance",
      [](const py::object& a, const py::object& pa, const py::object& b, const py::object& pb,
         const std::string& method, double bound, double tol_rel, int max_iterations) {
        return distance_py(a, pa, b, pb, method, bound, tol_rel, max_iterations, false);
      },
      py::arg("a"), py::arg("pose_a"), py::arg("b"), py::arg("pose_b"), py::kw_only(), py::arg("method") = "auto",
      py::arg("bound") = kInf, py::arg("tol_rel") = 1e-10, py::arg("max_iterations") = 128,
      (std::string("Distance with witness points and normal (B to A); 0 when touching or overlapping. "
                   "-> DistanceResult. ") +
       operands +
       " Convex pairs only: method; bound (stop once the distance is proven above it: bound_exceeded); "
       "tol_rel (GJK accuracy relative to the shapes' size); max_iterations.")
          .c_str());
  py::class_<PenetrationCache>(
      m, "PenetrationCache",
      "What signed_distance(..., cache=) keeps of one pair between calls along a sequence of poses (a "
      "trajectory, a simulation, an optimiser's steps): the last contact's normal and the certificate behind "
      "it. On a ConvexPolytope against a Capsule, Sphere or Box, a small motion of a pair that overlapped at "
      "the last call is answered from it when the answer can be certified, else by the exact method; every "
      "answer is the one without the cache, within the method's accuracy. Other pairs answer as without it. "
      "One cache per pair, always passed with the pair in the same order.")
      .def(py::init<>())
      .def(
          "clear", [](PenetrationCache& c) { c = PenetrationCache{}; },
          "Forget the pair: the next call starts cold, as a new cache does.")
      .def_property_readonly("holds_contact", &holds_contact,
                             "True while the cache keeps a contact's normal (the last answer overlapped).")
      .def("__repr__", [](const PenetrationCache& c) {
        return std::string("PenetrationCache(holds_contact=") + (holds_contact(c) ? "True" : "False") + ")";
      });
  m.def(
      "signed_distance",
      [](const py::object& a, const py::object& pa, const py::object& b, const py::object& pb,
         const std::string& method, double bound, double tol_rel, int max_iterations, PenetrationCache* cache) {
        return distance_py(a, pa, b, pb, method, bound, tol_rel, max_iterations, true, cache);
      },
      py::arg("a"), py::arg("pose_a"), py::arg("b"), py::arg("pose_b"), py::kw_only(), py::arg("method") = "auto",
      py::arg("bound") = kInf, py::arg("tol_rel") = 1e-10, py::arg("max_iterations") = 128,
      py::arg("cache") = py::none(),
      (std::string("As distance(), negative (-penetration depth) when overlapping. -> DistanceResult. ") + operands +
       " A pair with a mesh answers status 'not_implemented' once it touches. cache: a PenetrationCache kept "
       "for this pair along a sequence of poses (convex pairs, method 'auto' or 'incremental').")
          .c_str());
  m.def("tolerance", &tolerance_py, py::arg("a"), py::arg("pose_a"), py::arg("b"), py::arg("pose_b"),
        py::arg("tolerance"),
        (std::string("Is the distance (with margins) at most `tolerance` (>= 0)? -> ToleranceResult. Stops at the "
                     "first proof either way, so it costs at most what distance() does. ") +
         operands)
            .c_str());
  m.def("contacts", &contacts_py, py::arg("a"), py::arg("pose_a"), py::arg("b"), py::arg("pose_b"), py::kw_only(),
        py::arg("margin") = 0.0, py::arg("max_points") = py::none(), py::arg("feature_tolerance") = py::none(),
        py::arg("disc_points") = py::none(), py::arg("max_contacts") = py::none(), py::arg("cluster") = py::none(),
        py::arg("patch_angle") = py::none(),
        (std::string("Contact manifold -> ContactResult: pairs within `margin` (>= 0) are reported, gaps as "
                     "negative depths. ") +
         operands +
         " Convex pairs: max_points (0: all), feature_tolerance, disc_points. With a mesh (boundary-layer "
         "contacts): max_contacts, cluster, patch_angle.")
            .c_str());
  m.def("time_of_impact", &time_of_impact_py, py::arg("a"), py::arg("pose_a"), py::arg("pose_a_end"), py::arg("b"),
        py::arg("pose_b"), py::arg("pose_b_end"), py::kw_only(), py::arg("clearance") = 0.0,
        py::arg("accuracy") = 1e-6, py::arg("max_iterations") = TimeOfImpactRequest{}.max_iterations,
        (std::string("Continuous collision -> TimeOfImpactResult: the first time in [0, 1] at which A, moving "
                     "from pose_a to pose_a_end, and B, from pose_b to pose_b_end (each on a line with a constant "
                     "angular velocity), come within `clearance`. Conservative advancement: never steps over a "
                     "contact. ") +
         operands)
            .c_str());
}

}  // namespace proxima::python
