// SPDX-License-Identifier: BSD-3-Clause
// Scene-file parsing (format: docs/scene-format.md). Every error names the
// field it comes from, as the query protocol does.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <numbers>
#include <sstream>

#include <proxima/core/error.hpp>
#include <proxima/io/file.hpp>

#include "json_mesh.hpp"
#include "json_reader.hpp"
#include "json_shapes.hpp"
#include "scene.hpp"
#include "scene_drive.hpp"

namespace proxima::apps {
namespace {

using nlohmann::json;

struct SceneContext {
  std::string base_dir;  // directory of the scene file ("" : the working directory)
  MeshFiles files;       // each mesh file read once per scene
};

// The scene's sanity limits (docs/scene-format.md): beyond them a few
// steps overflow the doubles, or a count overflows an int. Found by
// fuzz/fuzz_scene.cpp, which fed a dt of 2e53 s.
constexpr double kMaxDt = 1.0;           // s
constexpr double kMaxSteps = 1e9;        // time / dt
constexpr double kMaxRate = kMaxSceneRate;  // |gravity| m/s², |velocity| m/s, |angular velocity| rad/s
constexpr double kMaxCount = 1e6;        // pgs_iterations, tessellated_sphere vertices
constexpr double kMaxFrictionDirections = 64;
constexpr double kMaxForce = kMaxSceneForce;  // |force| N, |torque| N·m

Vec3 bounded_vec3(const json& j, const std::string& field, const char* unit, double limit = kMaxRate) {
  return bounded_vec3_at(j, field, unit, limit);
}

Shape tessellated_sphere(ObjectReader& r) {
  const double radius = r.number("radius", Range{0.0, kMaxLength, true, false, " m"});
  const int n = static_cast<int>(r.integer("vertices", 4, static_cast<long long>(kMaxCount)));
  const std::string rest = r.string_or("rest", "face");
  if (rest != "face" && rest != "vertex") fail(r.field("rest"), "expected \"face\" or \"vertex\"");
  return ConvexPolytope(tessellated_sphere_points(radius, n, rest), r.number_or("margin", 0.0, kLengthRange));
}

// [ixx, iyy, izz] (principal, geometry axes) or a 3×3 row-major array.
Mat3 inertia_from_json(const json& j, const std::string& field) {
  if (j.is_array() && j.size() == 3 && j[0].is_number()) {
    const Vec3 d = vec3_at(j, field);
    return d.asDiagonal();
  }
  if (!j.is_array() || j.size() != 3) fail(field, "expected [ixx, iyy, izz] or a 3x3 array");
  Mat3 m;
  for (std::size_t r = 0; r < 3; ++r) m.row(static_cast<Eigen::Index>(r)) = vec3_at(j[r], index_path(field, r)).transpose();
  return m;
}

// A body's "shape": any query shape, a {"shape": "mesh", …} (json_mesh.hpp)
// with the scene's own "max_contacts" and "feature_pairs", or a tessellated sphere. A relative
// mesh "file" is resolved against the scene file's directory.
std::shared_ptr<const sim::Geometry> geometry_from_json(const json& j, const std::string& field, SceneContext& ctx) {
  require_object(j, field, "a shape object such as {\"shape\": \"sphere\", \"radius\": 1}");
  return read_object(j, field, [&](ObjectReader& r) -> std::shared_ptr<const sim::Geometry> {
    if (is_mesh_json(j)) {
      const int k = static_cast<int>(r.integer_or("max_contacts", 20, 1, static_cast<long long>(kMaxCount)));
      const bool feature_pairs = r.boolean_or("feature_pairs", false);
      return std::make_shared<sim::MeshGeometry>(mesh_from_reader(r, ctx.files, ctx.base_dir), k, feature_pairs);
    }
    if (j.contains("shape") && j["shape"] == "tessellated_sphere") {
      (void)r.string("shape");
      return std::make_shared<sim::ConvexGeometry>(tessellated_sphere(r));
    }
    return std::make_shared<sim::ConvexGeometry>(shape_from_reader(r));
  });
}

sim::Body body_from_json(const json& j, const std::string& field, SceneContext& ctx) {
  require_object(j, field, "a body object");
  return read_object(j, field, [&](ObjectReader& r) {
    sim::Body b;
    b.name = r.string("name");
    b.geometry = geometry_from_json(r.required("shape"), r.field("shape"), ctx);
    b.is_static = r.boolean_or("static", false);
    const json* pose = r.get("pose");
    b.pose = pose ? pose_from_json(*pose, r.field("pose")) : Transform::identity();
    if (const json* k = r.get("kinematic")) {
      // Moves on its path whatever touches it: no mass, no forces, and its
      // velocity is the path's.
      if (b.is_static) fail(r.field("kinematic"), "a static body cannot be kinematic");
      for (const char* key : {"mass", "density", "inertia", "com"})
        r.refuse(key, "a kinematic body has no mass properties (infinite mass)");
      for (const char* key : {"force", "torque"}) r.refuse(key, "a kinematic body follows its path");
      for (const char* key : {"velocity", "angular_velocity"})
        r.refuse(key, "a kinematic body's velocity is its path's (\"kinematic\": {\"velocity\": ..})");
      b.kinematic = kinematic_from_json(*k, r.field("kinematic"), kMaxRate);
      return b;
    }
    if (const json* v = r.get("velocity")) b.linear_velocity = bounded_vec3(*v, r.field("velocity"), "m/s");
    if (const json* w = r.get("angular_velocity"))
      b.angular_velocity = bounded_vec3(*w, r.field("angular_velocity"), "rad/s");
    if (b.is_static) {
      for (const char* key : {"mass", "density", "inertia", "com"})
        r.refuse(key, "a static body has no mass properties");
      for (const char* key : {"force", "torque"}) r.refuse(key, "a static body does not move");
      return b;
    }
    // Applied every step at the centre of mass, world frame.
    // Constant [x, y, z] or a schedule [{"t", "f"}, ..] ({"t", "tau"} for a torque).
    if (const json* f = r.get("force")) {
      if (is_load_schedule(*f)) b.force_schedule = load_schedule_from_json(*f, r.field("force"), "f", "N", kMaxForce);
      else b.force = bounded_vec3(*f, r.field("force"), "N", kMaxForce);
    }
    if (const json* t = r.get("torque")) {
      if (is_load_schedule(*t))
        b.torque_schedule = load_schedule_from_json(*t, r.field("torque"), "tau", "N·m", kMaxForce);
      else b.torque = bounded_vec3(*t, r.field("torque"), "N·m", kMaxForce);
    }
    // Mass: "density" (mass properties from the geometry) or "mass" (+ optional
    // "inertia"; without it the geometry's inertia scaled to the mass).
    const Range positive{0.0, kMaxLength, true, false, ""};
    if (r.has("mass")) {
      r.refuse("density", "give \"mass\" or \"density\", not both");
      const double m = r.number("mass", positive);
      MassProperties p;
      std::string no_volume = "the shape has no volume";
      try {
        p = b.geometry->mass_properties();
      } catch (const Error& e) {
        no_volume = e.what();
      }
      b.mass.mass = m;
      b.mass.com = p.centroid;
      if (const json* inertia = r.get("inertia")) {
        b.mass.inertia = inertia_from_json(*inertia, r.field("inertia"));
      } else {
        if (!(p.volume > 0)) fail(field, "missing \"inertia\" (" + no_volume + ")");
        b.mass.inertia = p.inertia * (m / p.volume);
      }
    } else if (r.has("density")) {
      r.refuse("inertia", "applies with \"mass\" (a density gives the inertia)");
      const double rho = r.number("density", positive);
      try {
        b.mass = sim::mass_from_density(*b.geometry, rho);
      } catch (const Error& e) {
        fail(r.field("density"), e.what());
      }
    } else {
      fail(field, "missing \"density\" or \"mass\" (or \"static\": true)");
    }
    // Centre of mass in the geometry frame: overrides the geometry's (the
    // geometry origin for a body without volume, e.g. an open mesh).
    if (const json* com = r.get("com")) b.mass.com = vec3_at(*com, r.field("com"));
    return b;
  });
}

void solver_from_json(ObjectReader& o, sim::World& w) {
  if (o.has("kind")) {
    const std::string k = o.string("kind");
    if (k == "lemke") w.options.solver = sim::SolverKind::lemke;
    else if (k == "pgs") w.options.solver = sim::SolverKind::pgs;
    else fail("solver.kind", "unknown solver \"" + k + "\" (expected lemke or pgs)");
  }
  w.options.solve.friction_directions = static_cast<int>(o.integer_or(
      "friction_directions", w.options.solve.friction_directions, 3, static_cast<long long>(kMaxFrictionDirections)));
  w.options.contact_margin = o.number_or("contact_margin", w.options.contact_margin, kLengthRange);
  if (o.has("formulation")) {
    const std::string k = o.string("formulation");
    if (k == "peg") w.options.formulation = sim::Formulation::peg;
    else if (k == "stewart_trinkle") w.options.formulation = sim::Formulation::stewart_trinkle;
    else fail("solver.formulation", "unknown formulation \"" + k + "\" (expected peg or stewart_trinkle)");
  }
  w.options.epsilon = o.number_or("epsilon", w.options.epsilon, kLengthRange);
  w.options.speculative = o.boolean_or("speculative", w.options.speculative);
  // A fraction of the penetration removed per step.
  w.options.stabilization = o.number_or("stabilization", w.options.stabilization, Range{0.0, 1.0});
  w.options.solve.pgs_max_iterations = static_cast<int>(
      o.integer_or("pgs_iterations", w.options.solve.pgs_max_iterations, 1, static_cast<long long>(kMaxCount)));
  w.options.warm_start = o.boolean_or("warm_start", true);
  w.options.reuse.enabled = o.boolean_or("contact_reuse", w.options.reuse.enabled);
  const Range non_negative{0.0, kMaxLength};
  w.options.solve.pgs_velocity_tolerance =
      o.number_or("pgs_tolerance", w.options.solve.pgs_velocity_tolerance, non_negative);
  w.options.solve.pgs_regularization = o.number_or("pgs_regularization", w.options.solve.pgs_regularization, non_negative);
  w.options.solve.pgs_over_relaxation =
      o.number_or("pgs_over_relaxation", w.options.solve.pgs_over_relaxation, Range{0.0, 2.0, true, true});
  if (o.has("friction_basis")) {
    const std::string k = o.string("friction_basis");
    if (k == "fixed") w.options.friction_basis = sim::FrictionBasis::fixed;
    else if (k == "sliding") w.options.friction_basis = sim::FrictionBasis::sliding;
    else fail("solver.friction_basis", "unknown basis \"" + k + "\" (expected fixed or sliding)");
  }
  if (o.has("pgs_order")) {
    const std::string k = o.string("pgs_order");
    if (k == "bottom_up") w.options.pgs_order = sim::PgsOrder::bottom_up;
    else if (k == "top_down") w.options.pgs_order = sim::PgsOrder::top_down;
    else if (k == "as_found") w.options.pgs_order = sim::PgsOrder::as_found;
    else fail("solver.pgs_order", "unknown order \"" + k + "\" (expected bottom_up, top_down or as_found)");
  }
}

// A per-pair table's "pairs": [{"a", "b", <value_key>}], bodies by name.
template <class Set>
void pairs_from_json(ObjectReader& f, const sim::World& w, const std::string& table, const char* value_key,
                     const Range& range, Set set) {
  const json* pairs = f.get("pairs");
  if (pairs == nullptr) return;
  const std::string field = table + ".pairs";
  array_at(*pairs, field, ("{\"a\", \"b\", \"" + std::string(value_key) + "\"} objects").c_str());
  for (std::size_t i = 0; i < pairs->size(); ++i) {
    read_object((*pairs)[i], index_path(field, i), [&](ObjectReader& p) {
      const std::string a = p.string("a"), b = p.string("b");
      const int ia = w.find(a), ib = w.find(b);
      if (ia < 0) fail(p.field("a"), "no body named \"" + a + "\"");
      if (ib < 0) fail(p.field("b"), "no body named \"" + b + "\"");
      set(ia, ib, p.number(value_key, range));
    });
  }
}

void friction_from_json(ObjectReader& f, sim::World& w) {
  const Range mu{0.0, kMaxLength};
  w.friction.default_mu = f.number_or("default", w.friction.default_mu, mu);
  pairs_from_json(f, w, "friction", "mu", mu, [&](int a, int b, double v) { w.friction.set(a, b, v); });
}

// Newton's coefficients, laid out as the friction table.
void restitution_from_json(ObjectReader& f, sim::World& w) {
  const Range e{0.0, 1.0};
  w.restitution.default_e = f.number_or("default", w.restitution.default_e, e);
  w.restitution.threshold =
      f.number_or("threshold", w.restitution.threshold, Range{0.0, kMaxRate, false, false, " m/s"});
  pairs_from_json(f, w, "restitution", "e", e, [&](int a, int b, double v) { w.restitution.set(a, b, v); });
}

std::vector<sim::MetricSpec> metrics_from_json(const json& metrics, const sim::World& w) {
  std::vector<sim::MetricSpec> out;
  array_at(metrics, "metrics", "metric objects {\"kind\", \"body\", \"on\", \"from\"}");
  for (std::size_t i = 0; i < metrics.size(); ++i) {
    const std::string field = index_path("metrics", i);
    read_object(metrics[i], field, [&](ObjectReader& m) {
      sim::MetricSpec spec;
      spec.kind = m.string("kind");
      // The keys each kind reads (sim::make_metric): the others would be ignored there.
      const bool body = spec.kind != "energy",
                 on = spec.kind == "incline" || spec.kind == "belt" || spec.kind == "push" || spec.kind == "bounce",
                 from = spec.kind == "support_force" || spec.kind == "incline" || spec.kind == "drift" ||
                        spec.kind == "push";
      if (!body) m.refuse("body", "does not apply to an energy metric");
      if (!on) m.refuse("on", "applies to incline, belt, push and bounce metrics only");
      if (!from) m.refuse("from", "applies to support_force, incline, drift and push metrics only");
      spec.body = m.string_or("body", spec.body);
      spec.on = m.string_or("on", spec.on);
      spec.from = m.number_or("from", 0.0, Range{0.0, kMaxLength, false, false, " s"});
      m.finish();  // a misspelt key before what its absence would make of the metric
      try {
        (void)sim::make_metric(spec, w);
      } catch (const Error& e) {
        fail(field, e.what());
      }
      out.push_back(spec);
    });
  }
  return out;
}

}  // namespace

void check_run(double dt, double time, const std::string& dt_field, const std::string& time_field) {
  if (!(dt > 0.0 && dt <= kMaxDt)) fail(dt_field, "must be in (0, 1] s");
  if (!(time >= 0.0 && std::isfinite(time))) fail(time_field, "must be ≥ 0 s");
  if (time / dt > kMaxSteps) {
    std::ostringstream m;
    m << "is " << time / dt << " steps of " << dt << " s; at most " << kMaxSteps;
    fail(time_field, m.str());
  }
}

std::vector<Vec3> tessellated_sphere_points(double radius, int n, const std::string& rest) {
  // Fibonacci spiral: near-uniform points, deterministic.
  std::vector<Vec3> p;
  const double golden = std::numbers::pi * (3.0 - std::sqrt(5.0));
  for (int i = 0; i < n; ++i) {
    const double z = 1.0 - 2.0 * (i + 0.5) / n;
    const double r = std::sqrt(1.0 - z * z);
    p.emplace_back(radius * r * std::cos(golden * i), radius * r * std::sin(golden * i), radius * z);
  }
  const ConvexPolytope hull(p);
  const PolytopeData& d = hull.data();
  const Vec3 c = hull.mass_properties().centroid;
  // The direction that must point down: the normal of the face nearest the
  // centroid (the body's stable resting face), or centroid → a vertex.
  Vec3 down;
  if (rest == "vertex") {
    down = (d.vertices[0] - c).normalized();
  } else {
    std::size_t best = 0;
    for (std::size_t f = 1; f < d.faces.size(); ++f)
      if (d.face_offsets[f] - d.face_normals[f].dot(c) < d.face_offsets[best] - d.face_normals[best].dot(c)) best = f;
    down = d.face_normals[best];
  }
  const Mat3 R = Quat::FromTwoVectors(down, -Vec3::UnitZ()).toRotationMatrix();
  std::vector<Vec3> out;
  double zmin = std::numeric_limits<double>::infinity();
  for (const Vec3& v : d.vertices) {
    out.push_back(R * (v - c));
    zmin = std::min(zmin, out.back().z());
  }
  for (Vec3& v : out) v.z() -= zmin;
  return out;
}

Scene scene_from_json(const json& j, const std::string& base_dir) {
  require_object(j, "scene");
  SceneContext ctx{base_dir, {}};
  Scene s;
  read_object(j, "", [&](ObjectReader& r) {
    s.name = r.string_or("name", "scene");
    sim::World& w = s.world;
    if (const json* g = r.get("gravity")) w.gravity = bounded_vec3(*g, "gravity", "m/s²");
    // Any finite number here: check_run below says what a dt and a time may be.
    const Range finite{-std::numeric_limits<double>::max(), std::numeric_limits<double>::max()};
    w.options.dt = r.number_or("dt", 1e-3, finite);
    s.time = r.number_or("time", 1.0, finite);
    check_run(w.options.dt, s.time, "dt", "time");
    if (const json* o = r.get("solver")) read_object(*o, "solver", [&](ObjectReader& so) { solver_from_json(so, w); });
    const json& bodies = array_at(r.required("bodies"), "bodies", "body objects");
    for (std::size_t i = 0; i < bodies.size(); ++i) {
      const std::string field = index_path("bodies", i);
      sim::Body b = body_from_json(bodies[i], field, ctx);
      if (w.find(b.name) >= 0) fail(field + ".name", "duplicate body name \"" + b.name + "\"");
      try {
        w.add(std::move(b));
      } catch (const Error& e) {
        fail(field, e.what());
      }
    }
    if (const json* f = r.get("friction")) read_object(*f, "friction", [&](ObjectReader& fr) { friction_from_json(fr, w); });
    if (const json* e = r.get("restitution"))
      read_object(*e, "restitution", [&](ObjectReader& er) { restitution_from_json(er, w); });
    if (const json* m = r.get("metrics")) s.metrics = metrics_from_json(*m, w);
    if (const json* rb = r.get("robots")) {
      s.robots = robots_from_json(*rb, "robots", base_dir, w);
      // The metrics read the world's own contacts and energies, which a
      // robot's step does not fill.
      if (!s.robots.empty() && !s.metrics.empty()) fail("metrics", "not supported in a scene with robots yet");
    }
  });
  return s;
}

Scene load_scene(const std::string& path) {
  const std::string text = read_whole_file(path, "scene file");
  json j;
  try {
    j = parse_json(text);
  } catch (const json::parse_error& e) {
    throw Error(path + ": not valid JSON (" + e.what() + ")");
  } catch (const Error& e) {
    throw Error(path + ": " + e.what());  // a duplicate key
  }
  try {
    return scene_from_json(j, std::filesystem::path(path).parent_path().string());
  } catch (const Error& e) {
    throw Error(path + ": " + e.what());
  }
}

}  // namespace proxima::apps
