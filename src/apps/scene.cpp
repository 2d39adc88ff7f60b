// Scene-file parsing (format: docs/scene-format.md). Every error names the
// field it comes from, as the query protocol does.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <sstream>

#include <proxima/core/error.hpp>
#include <proxima/io/file.hpp>

#include "json_mesh.hpp"
#include "json_shapes.hpp"
#include "scene.hpp"

namespace proxima::apps {
namespace {

using nlohmann::json;

struct SceneContext {
  std::string base_dir;  // directory of the scene file ("" : the working directory)
  MeshFiles files;       // each mesh file read once per scene
};

[[noreturn]] void fail(const std::string& field, const std::string& reason) { throw Error(field + ": " + reason); }

double number(const json& j, const std::string& field) {
  if (!j.is_number()) fail(field, "expected a number");
  const double v = j.get<double>();
  if (!std::isfinite(v)) fail(field, "not a finite number");
  return v;
}

double number_or(const json& j, const char* key, double fallback, const std::string& field) {
  return j.contains(key) ? number(j[key], field + "." + key) : fallback;
}

// The scene's sanity limits (docs/scene-format.md): beyond them a few
// steps overflow the doubles, or a count overflows an int. Found by
// fuzz/fuzz_scene.cpp, which fed a dt of 2e53 s.
constexpr double kMaxDt = 1.0;           // s
constexpr double kMaxSteps = 1e9;        // time / dt
constexpr double kMaxRate = 1e6;         // |gravity| m/s², |velocity| m/s, |angular velocity| rad/s
constexpr double kMaxCount = 1e6;        // pgs_iterations, tessellated_sphere vertices
constexpr double kMaxFrictionDirections = 64;

// An integer number in [lo, hi].
int integer_in(const json& j, const std::string& field, double lo, double hi) {
  const double v = number(j, field);
  if (v < lo || v > hi || v != std::floor(v)) {
    std::ostringstream m;
    m << "must be an integer in [" << lo << ", " << hi << "]";
    fail(field, m.str());
  }
  return static_cast<int>(v);
}

Vec3 bounded_vec3(const json& j, const std::string& field, const char* unit) {
  const Vec3 v = vec3_from_json(j, field);
  if (!(v.stableNorm() <= kMaxRate)) {
    std::ostringstream m;
    m << "magnitude " << v.stableNorm() << " " << unit << " is above " << kMaxRate;
    fail(field, m.str());
  }
  return v;
}

bool bool_or(const json& j, const char* key, bool fallback, const std::string& field) {
  if (!j.contains(key)) return fallback;
  if (!j[key].is_boolean()) fail(field + "." + key, "expected true or false");
  return j[key].get<bool>();
}

std::string string_member(const json& j, const char* key, const std::string& field) {
  if (!j.contains(key)) fail(field, std::string("missing \"") + key + "\"");
  if (!j[key].is_string()) fail(field + "." + key, "expected a string");
  return j[key].get<std::string>();
}

Shape scene_shape(const json& j, const std::string& field) {
  if (j.is_object() && j.contains("shape") && j["shape"] == "tessellated_sphere") {
    if (!j.contains("radius")) fail(field, "missing \"radius\"");
    if (!j.contains("vertices")) fail(field, "missing \"vertices\"");
    const double r = number(j["radius"], field + ".radius");
    if (r <= 0) fail(field + ".radius", "must be > 0");
    const int n = integer_in(j["vertices"], field + ".vertices", 4, kMaxCount);
    const std::string rest = j.contains("rest") ? string_member(j, "rest", field) : "face";
    if (rest != "face" && rest != "vertex") fail(field + ".rest", "expected \"face\" or \"vertex\"");
    return ConvexPolytope(tessellated_sphere_points(r, n, rest),
                          number_or(j, "margin", 0.0, field));
  }
  return shape_from_json(j, field);
}

// [ixx, iyy, izz] (principal, geometry axes) or a 3×3 row-major array.
Mat3 inertia_from_json(const json& j, const std::string& field) {
  if (j.is_array() && j.size() == 3 && j[0].is_number()) {
    const Vec3 d = vec3_from_json(j, field);
    return d.asDiagonal();
  }
  if (!j.is_array() || j.size() != 3) fail(field, "expected [ixx, iyy, izz] or a 3x3 array");
  Mat3 m;
  for (std::size_t r = 0; r < 3; ++r) m.row(static_cast<Eigen::Index>(r)) = vec3_from_json(j[r], field + "[" + std::to_string(r) + "]").transpose();
  return m;
}

// {"shape": "mesh", …} (json_mesh.hpp) plus the scene's own "max_contacts";
// a relative "file" is resolved against the scene file's directory.
std::shared_ptr<const sim::Geometry> mesh_geometry(const json& j, const std::string& field, SceneContext& ctx) {
  int k = 20;
  if (j.contains("max_contacts")) {
    const double v = number(j["max_contacts"], field + ".max_contacts");
    if (v < 1 || v != std::floor(v) || v > 1e6) fail(field + ".max_contacts", "must be an integer in [1, 1e6]");
    k = static_cast<int>(v);
  }
  json m = j;
  if (m.contains("file") && m["file"].is_string() && !ctx.base_dir.empty()) {
    const std::filesystem::path f(m["file"].get<std::string>());
    if (f.is_relative()) m["file"] = (std::filesystem::path(ctx.base_dir) / f).string();
  }
  return std::make_shared<sim::MeshGeometry>(mesh_from_json(m, field, ctx.files), k);
}

sim::Body body_from_json(const json& j, const std::string& field, SceneContext& ctx) {
  if (!j.is_object()) fail(field, "expected a body object");
  sim::Body b;
  b.name = string_member(j, "name", field);
  if (!j.contains("shape")) fail(field, "missing \"shape\"");
  if (is_mesh_json(j["shape"]))
    b.geometry = mesh_geometry(j["shape"], field + ".shape", ctx);
  else
    b.geometry = std::make_shared<sim::ConvexGeometry>(scene_shape(j["shape"], field + ".shape"));
  b.is_static = bool_or(j, "static", false, field);
  b.pose = pose_from_json(j.contains("pose") ? j["pose"] : json(), field + ".pose");
  if (j.contains("velocity")) b.linear_velocity = bounded_vec3(j["velocity"], field + ".velocity", "m/s");
  if (j.contains("angular_velocity"))
    b.angular_velocity = bounded_vec3(j["angular_velocity"], field + ".angular_velocity", "rad/s");
  if (b.is_static) return b;
  // Mass: "density" (mass properties from the geometry) or "mass" (+ optional
  // "inertia"; without it the geometry's inertia scaled to the mass).
  if (j.contains("mass")) {
    const double m = number(j["mass"], field + ".mass");
    if (m <= 0) fail(field + ".mass", "must be > 0");
    MassProperties p;
    std::string no_volume = "the shape has no volume";
    try {
      p = b.geometry->mass_properties();
    } catch (const Error& e) {
      no_volume = e.what();
    }
    b.mass.mass = m;
    b.mass.com = p.centroid;
    if (j.contains("inertia")) {
      b.mass.inertia = inertia_from_json(j["inertia"], field + ".inertia");
    } else {
      if (!(p.volume > 0)) fail(field, "missing \"inertia\" (" + no_volume + ")");
      b.mass.inertia = p.inertia * (m / p.volume);
    }
  } else if (j.contains("density")) {
    const double rho = number(j["density"], field + ".density");
    if (rho <= 0) fail(field + ".density", "must be > 0");
    try {
      b.mass = sim::mass_from_density(*b.geometry, rho);
    } catch (const Error& e) {
      fail(field + ".density", e.what());
    }
  } else {
    fail(field, "missing \"density\" or \"mass\" (or \"static\": true)");
  }
  // Centre of mass in the geometry frame: overrides the geometry's (the
  // geometry origin for a body without volume, e.g. an open mesh).
  if (j.contains("com")) b.mass.com = vec3_from_json(j["com"], field + ".com");
  return b;
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
  if (!j.is_object()) fail("scene", "expected a JSON object");
  SceneContext ctx{base_dir, {}};
  Scene s;
  s.name = j.contains("name") && j["name"].is_string() ? j["name"].get<std::string>() : "scene";
  sim::World& w = s.world;
  if (j.contains("gravity")) w.gravity = bounded_vec3(j["gravity"], "gravity", "m/s²");
  w.options.dt = number_or(j, "dt", 1e-3, "scene");
  s.time = number_or(j, "time", 1.0, "scene");
  check_run(w.options.dt, s.time, "dt", "time");
  if (j.contains("solver")) {
    const json& o = j["solver"];
    if (!o.is_object()) fail("solver", "expected an object");
    if (o.contains("kind")) {
      const std::string k = string_member(o, "kind", "solver");
      if (k == "lemke") w.options.solver = sim::SolverKind::lemke;
      else if (k == "pgs") w.options.solver = sim::SolverKind::pgs;
      else fail("solver.kind", "unknown solver \"" + k + "\" (expected lemke or pgs)");
    }
    if (o.contains("friction_directions"))
      w.options.solve.friction_directions =
          integer_in(o["friction_directions"], "solver.friction_directions", 3, kMaxFrictionDirections);
    w.options.contact_margin = number_or(o, "contact_margin", w.options.contact_margin, "solver");
    w.options.stabilization = number_or(o, "stabilization", w.options.stabilization, "solver");
    if (o.contains("pgs_iterations"))
      w.options.solve.pgs_max_iterations = integer_in(o["pgs_iterations"], "solver.pgs_iterations", 1, kMaxCount);
    w.options.warm_start = bool_or(o, "warm_start", true, "solver");
    w.options.reuse.enabled = bool_or(o, "contact_reuse", w.options.reuse.enabled, "solver");
    w.options.solve.pgs_velocity_tolerance =
        number_or(o, "pgs_tolerance", w.options.solve.pgs_velocity_tolerance, "solver");
    if (!(w.options.solve.pgs_velocity_tolerance >= 0)) fail("solver.pgs_tolerance", "must be ≥ 0");
    w.options.solve.pgs_regularization =
        number_or(o, "pgs_regularization", w.options.solve.pgs_regularization, "solver");
    if (!(w.options.solve.pgs_regularization >= 0)) fail("solver.pgs_regularization", "must be ≥ 0");
    w.options.solve.pgs_over_relaxation =
        number_or(o, "pgs_over_relaxation", w.options.solve.pgs_over_relaxation, "solver");
    if (!(w.options.solve.pgs_over_relaxation > 0 && w.options.solve.pgs_over_relaxation < 2))
      fail("solver.pgs_over_relaxation", "must be in (0, 2)");
    if (o.contains("friction_basis")) {
      const std::string k = string_member(o, "friction_basis", "solver");
      if (k == "fixed") w.options.friction_basis = sim::FrictionBasis::fixed;
      else if (k == "sliding") w.options.friction_basis = sim::FrictionBasis::sliding;
      else fail("solver.friction_basis", "unknown basis \"" + k + "\" (expected fixed or sliding)");
    }
    if (o.contains("pgs_order")) {
      const std::string k = string_member(o, "pgs_order", "solver");
      if (k == "bottom_up") w.options.pgs_order = sim::PgsOrder::bottom_up;
      else if (k == "top_down") w.options.pgs_order = sim::PgsOrder::top_down;
      else if (k == "as_found") w.options.pgs_order = sim::PgsOrder::as_found;
      else fail("solver.pgs_order", "unknown order \"" + k + "\" (expected bottom_up, top_down or as_found)");
    }
  }
  if (!j.contains("bodies")) fail("scene", "missing \"bodies\"");
  const json& bodies = j["bodies"];
  if (!bodies.is_array()) fail("bodies", "expected an array");
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    const std::string field = "bodies[" + std::to_string(i) + "]";
    sim::Body b = body_from_json(bodies[i], field, ctx);
    if (w.find(b.name) >= 0) fail(field + ".name", "duplicate body name \"" + b.name + "\"");
    try {
      w.add(std::move(b));
    } catch (const Error& e) {
      fail(field, e.what());
    }
  }
  if (j.contains("friction")) {
    const json& f = j["friction"];
    if (!f.is_object()) fail("friction", "expected an object");
    w.friction.default_mu = number_or(f, "default", w.friction.default_mu, "friction");
    if (w.friction.default_mu < 0) fail("friction.default", "must be ≥ 0");
    if (f.contains("pairs")) {
      for (std::size_t i = 0; i < f["pairs"].size(); ++i) {
        const json& p = f["pairs"][i];
        const std::string field = "friction.pairs[" + std::to_string(i) + "]";
        const std::string a = string_member(p, "a", field), b = string_member(p, "b", field);
        const int ia = w.find(a), ib = w.find(b);
        if (ia < 0) fail(field + ".a", "no body named \"" + a + "\"");
        if (ib < 0) fail(field + ".b", "no body named \"" + b + "\"");
        if (!p.contains("mu")) fail(field, "missing \"mu\"");
        const double mu = number(p["mu"], field + ".mu");
        if (mu < 0) fail(field + ".mu", "must be ≥ 0");
        w.friction.set(ia, ib, mu);
      }
    }
  }
  if (j.contains("metrics")) {
    for (std::size_t i = 0; i < j["metrics"].size(); ++i) {
      const json& m = j["metrics"][i];
      const std::string field = "metrics[" + std::to_string(i) + "]";
      sim::MetricSpec spec;
      spec.kind = string_member(m, "kind", field);
      if (m.contains("body")) spec.body = string_member(m, "body", field);
      if (m.contains("on")) spec.on = string_member(m, "on", field);
      spec.from = number_or(m, "from", 0.0, field);
      try {
        (void)sim::make_metric(spec, w);
      } catch (const Error& e) {
        fail(field, e.what());
      }
      s.metrics.push_back(spec);
    }
  }
  return s;
}

Scene load_scene(const std::string& path) {
  const std::string text = read_whole_file(path, "scene file");
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    throw Error(path + ": not valid JSON (" + e.what() + ")");
  }
  try {
    return scene_from_json(j, std::filesystem::path(path).parent_path().string());
  } catch (const Error& e) {
    throw Error(path + ": " + e.what());
  }
}

}  // namespace proxima::apps
