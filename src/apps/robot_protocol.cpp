#include "robot_protocol.hpp"

#include <cmath>
#include <cstdint>
#include <istream>
#include <optional>
#include <ostream>
#include <string>
#include <unordered_map>
#include <variant>

#include <proxima/core/error.hpp>
#include <proxima/robot/attached_object.hpp>
#include <proxima/robot/kinematics.hpp>
#include <proxima/robot/point_cloud.hpp>
#include <proxima/robot/urdf.hpp>

#include "json_lines.hpp"
#include "json_shapes.hpp"

namespace proxima::apps {

using nlohmann::json;
using namespace proxima::robot;

namespace {

json error_answer(const json& request, const std::string& message) { return error_line(request, "id", message); }

// Infinity (nothing measured) has no JSON spelling: null.
json distance_json(const DistanceReport& d) {
  if (!d.found) return nullptr;
  return {{"distance", d.distance},
          {"link", d.pair.link_name},
          {"other", d.pair.other_name},
          {"point_link", to_json(d.point_link)},
          {"point_other", to_json(d.point_other)}};
}

json pairs_json(const CollisionReport& r) {
  json a = json::array();
  for (const PairId& p : r.pairs) a.push_back({p.link_name, p.other_name});
  return a;
}

std::vector<double> joint_vector(const json& request, const std::string& key = "q") {
  if (!request.contains(key)) throw Error("missing \"" + key + "\" (the joint vector)");
  const json& q = request[key];
  if (!q.is_array()) throw Error("\"" + key + "\" must be an array of numbers");
  std::vector<double> out;
  for (std::size_t i = 0; i < q.size(); ++i) {
    if (!q[i].is_number()) throw Error("\"" + key + "\"[" + std::to_string(i) + "] is not a number");
    out.push_back(q[i].get<double>());
  }
  return out;
}

// The optional "motion" object of a request with "q_end"; the checker
// judges the values, this only their JSON types.
MotionCheckOptions motion_options(const json& request) {
  MotionCheckOptions o;
  if (!request.contains("motion")) return o;
  const json& m = request["motion"];
  if (!m.is_object()) throw Error("\"motion\" must be an object");
  for (const char* key : {"clearance", "accuracy"})
    if (m.contains(key) && !m[key].is_number())
      throw Error(std::string("\"motion\".\"") + key + "\" must be a number");
  if (m.contains("clearance")) o.clearance = m["clearance"].get<double>();
  if (m.contains("accuracy")) o.accuracy = m["accuracy"].get<double>();
  if (m.contains("max_iterations")) {
    const json& it = m["max_iterations"];
    const long long n = it.is_number_integer() ? it.get<long long>() : 0;
    if (n < 1 || n > 100000000) throw Error("\"motion\".\"max_iterations\" must be an integer from 1 to 1e8");
    o.max_iterations = static_cast<int>(n);
  }
  if (m.contains("self")) {
    if (!m["self"].is_boolean()) throw Error("\"motion\".\"self\" must be true or false");
    o.self = m["self"].get<bool>();
  }
  return o;
}

// The pair fields only for a collision: a clear segment has no pair.
json motion_json(const MotionCheck& m) {
  json a = {{"status", to_string(m.status)}, {"collide", m.collide}, {"s", m.s}, {"iterations", m.iterations}};
  if (!m.collide) return a;
  a["self"] = m.self;
  a["link"] = m.pair.link_name;
  a["other"] = m.pair.other_name;
  a["distance"] = m.distance;
  a["point_link"] = to_json(m.point_link);
  a["point_other"] = to_json(m.point_other);
  return a;
}

std::vector<std::string> touch_links(const json& o, const std::string& field) {
  std::vector<std::string> touch;
  if (!o.contains("touch_links")) return touch;
  const json& t = o["touch_links"];
  if (!t.is_array()) throw Error(field + ".touch_links: must be an array of link names");
  for (const json& link : t) {
    if (!link.is_string()) throw Error(field + ".touch_links: must be an array of link names");
    touch.push_back(link.get<std::string>());
  }
  return touch;
}

bool is_point_cloud_json(const json& geometry) {
  return geometry.is_object() && geometry.contains("shape") && geometry["shape"] == "point_cloud";
}

// {"shape": "point_cloud", "points": [[x, y, z], …], "voxel": s, "min_points": n}
// in the object's frame: robot::add_point_cloud's cubes.
void add_point_cloud_json(Environment& env, const std::string& name, const json& g, const std::string& field,
                          const Transform& pose, std::vector<std::string> touch_links) {
  if (!g.contains("points") || !g["points"].is_array())
    throw Error(field + ".points: expected an array of [x, y, z] points");
  const json& pts = g["points"];
  std::vector<Vec3> points;
  points.reserve(pts.size());
  for (std::size_t i = 0; i < pts.size(); ++i)
    points.push_back(vec3_from_json(pts[i], field + ".points[" + std::to_string(i) + "]"));
  if (!g.contains("voxel") || !g["voxel"].is_number()) throw Error(field + ".voxel: expected the cell size, m");
  PointCloudOptions options;
  options.touch_links = std::move(touch_links);
  if (g.contains("min_points")) {
    const json& m = g["min_points"];
    if (!m.is_number_integer() || m.get<std::int64_t>() < 1 || m.get<std::int64_t>() > 1000000000)
      throw Error(field + ".min_points: expected an integer from 1 to 10^9");
    options.min_points = static_cast<int>(m.get<std::int64_t>());
  }
  try {
    add_point_cloud(env, name, points, g["voxel"].get<double>(), pose, options);
  } catch (const Error& e) {
    throw Error(field + ": " + e.what());
  }
}

// The first status that is not ok among the reports.
Status worst(std::initializer_list<Status> all) {
  for (Status s : all)
    if (s != Status::ok) return s;
  return Status::ok;
}

}  // namespace

std::vector<AttachedObject> attached_from_json(const json& objs, MeshFiles& files, const std::string& key) {
  if (!objs.is_array()) throw Error("\"" + key + "\" must be an array of objects");
  std::vector<AttachedObject> out;
  for (std::size_t i = 0; i < objs.size(); ++i) {
    const json& o = objs[i];
    const std::string field = key + "[" + std::to_string(i) + "]";
    if (!o.is_object()) throw Error(field + ": must be an object");
    for (const char* member : {"name", "link"})
      if (!o.contains(member) || !o[member].is_string()) throw Error(field + ": needs \"" + member + "\" (a string)");
    if (!o.contains("geometry")) throw Error(field + ": needs \"geometry\"");
    const json& g = o["geometry"];
    std::variant<Shape, Bvh> geometry =
        is_mesh_json(g) ? std::variant<Shape, Bvh>(std::in_place_type<Bvh>, *mesh_from_json(g, field + ".geometry", files))
                        : std::variant<Shape, Bvh>(std::in_place_type<Shape>, shape_from_json(g, field + ".geometry"));
    out.push_back({o["name"].get<std::string>(), o["link"].get<std::string>(), std::move(geometry),
                   o.contains("pose") ? pose_from_json(o["pose"], field + ".pose") : Transform::identity(),
                   touch_links(o, field)});
  }
  return out;
}

Environment environment_from_json(const json& objs, MeshFiles& files, const std::string& key) {
  Environment env;
  if (!objs.is_array()) throw Error("\"" + key + "\" must be an array of objects");
  // Answers name the object they are about (the closest, the colliding),
  // as a planning scene's object ids do: one name, one object.
  std::unordered_map<std::string, std::size_t> entry_of;
  for (std::size_t i = 0; i < objs.size(); ++i) {
    const json& o = objs[i];
    const std::string field = key + "[" + std::to_string(i) + "]";
    if (!o.is_object() || !o.contains("geometry")) throw Error(field + ": needs \"geometry\"");
    const std::string name = o.contains("name") && o["name"].is_string() ? o["name"].get<std::string>() : field;
    const Transform pose = o.contains("pose") ? pose_from_json(o["pose"], field + ".pose") : Transform::identity();
    std::vector<std::string> touch = touch_links(o, field);
    std::string group;
    if (o.contains("group")) {
      if (!o["group"].is_string()) throw Error(field + ".group: must be a string");
      group = o["group"].get<std::string>();
    }
    const std::size_t first = env.objects.size();
    const json& geometry = o["geometry"];
    if (is_point_cloud_json(geometry))
      add_point_cloud_json(env, name, geometry, field + ".geometry", pose, std::move(touch));
    else if (is_mesh_json(geometry))
      env.add(name, *mesh_from_json(geometry, field + ".geometry", files), pose, std::move(touch));
    else
      env.add(name, shape_from_json(geometry, field + ".geometry"), pose, std::move(touch));
    for (std::size_t k = first; k < env.objects.size(); ++k) {
      if (!group.empty()) env.objects[k].group = group;
      const auto [it, added] = entry_of.try_emplace(env.objects[k].name, i);
      if (!added)
        throw Error(field + ": the name '" + env.objects[k].name + "' is already taken by " + key + "[" +
                    std::to_string(it->second) + "]");
    }
  }
  return env;
}

SceneChecker load_robot_checker(const RobotCommandOptions& options) {
  UrdfOptions urdf;
  for (const auto& [name, dir] : options.packages) urdf.packages[name] = dir;
  RobotModel model = load_urdf(options.urdf, urdf);
  GeometryOptions geo;
  if (options.mesh_mode == "hull") geo.mesh_mode = MeshMode::convex_hull;
  else if (options.mesh_mode == "mesh") geo.mesh_mode = MeshMode::triangle_mesh;
  else throw Error("--mesh-mode '" + options.mesh_mode + "': expected hull or mesh");
  geo.margin = options.margin;
  AllowedCollisionMatrix acm = AllowedCollisionMatrix::adjacent(model);
  if (!options.srdf.empty()) apply_srdf(model, options.srdf, acm);
  return SceneChecker(RobotGeometry(std::move(model), geo), std::move(acm));
}

json answer_robot(const SceneChecker& robot, const json& request, MeshFiles& files, RobotSession* session) {
  try {
    if (!request.is_object()) return error_answer(request, "a request is a JSON object");
    const bool sets_scene = request.contains("scene"), sets_hold = request.contains("hold");
    if ((sets_scene || sets_hold) && session == nullptr)
      return error_answer(request, std::string("\"") + (sets_scene ? "scene" : "hold") +
                                       "\" needs a stream to keep it in");
    // Both are parsed and checked before either is kept: a bad line changes
    // nothing.
    std::shared_ptr<const PreparedEnvironment> scene;
    std::shared_ptr<const SceneChecker> held = session ? session->holding : nullptr;
    std::size_t held_objects = 0;
    if (sets_hold) {
      std::vector<AttachedObject> objects = attached_from_json(request["hold"], files, "hold");
      held_objects = objects.size();
      held = objects.empty() ? nullptr : std::make_shared<const SceneChecker>(attach(robot, objects));
    }
    if (sets_scene) {
      Environment objects = environment_from_json(request["scene"], files, "scene");
      // Touch links may name a held object: checked against the robot as it
      // will be after this line.
      if (auto err = (held ? *held : robot).touch_error(objects)) return error_answer(request, *err);
      if (!objects.objects.empty()) scene = std::make_shared<const PreparedEnvironment>(std::move(objects));
    }
    if (sets_hold) session->holding = std::move(held);
    if (sets_scene) session->scene = std::move(scene);
    if ((sets_scene || sets_hold) && !request.contains("q")) {
      json a;
      if (request.contains("id")) a["id"] = request["id"];
      a["status"] = "ok";
      if (sets_scene) a["scene_objects"] = session->scene ? session->scene->objects().size() : 0;
      if (sets_hold) a["held_objects"] = held_objects;
      return a;
    }
    // The robot holding the request's objects, else the stream's, else as
    // it was loaded.
    const SceneChecker& kept = session && session->holding ? *session->holding : robot;
    std::optional<SceneChecker> holding;
    if (request.contains("attached")) holding.emplace(attach(robot, attached_from_json(request["attached"], files)));
    const SceneChecker& checker = holding ? *holding : kept;
    const std::vector<double> q = joint_vector(request);
    const Transform base = request.contains("base") ? pose_from_json(request["base"], "base") : Transform::identity();
    // The request's own environment, else the stream's scene, else none.
    std::shared_ptr<const PreparedEnvironment> prepared;
    if (request.contains("environment"))
      prepared = std::make_shared<const PreparedEnvironment>(environment_from_json(request["environment"], files));
    else if (session && session->scene) prepared = session->scene;
    else prepared = std::make_shared<const PreparedEnvironment>();
    const PreparedEnvironment& env = *prepared;
    const RobotState s = checker.state(q, base);
    if (s.status != Status::ok) return error_answer(request, s.message);

    const CollisionReport self = checker.self_collision(s);
    const DistanceReport self_d = checker.self_distance(s);
    const CollisionReport envc = checker.environment_collision(s, env);
    if (envc.status == Status::invalid_input) return error_answer(request, envc.message);  // a touch link's name
    const DistanceReport env_d = checker.environment_distance(s, env);
    json a;
    if (request.contains("id")) a["id"] = request["id"];
    a["self_collision"] = self.collide();
    a["self_pairs"] = pairs_json(self);
    a["self_distance"] = distance_json(self_d);
    a["environment_collision"] = envc.collide();
    a["environment_pairs"] = pairs_json(envc);
    a["environment_distance"] = distance_json(env_d);
    Status tol_status = Status::ok;
    if (request.contains("tolerance")) {
      if (!request["tolerance"].is_number()) return error_answer(request, "\"tolerance\" must be a number");
      const ToleranceReport t = checker.tolerance(s, env, request["tolerance"].get<double>());
      if (t.status == Status::invalid_input) return error_answer(request, t.message);
      tol_status = t.status;
      a["within_tolerance"] = t.within;
      if (t.within) a["tolerance_pair"] = {t.pair.link_name, t.pair.other_name};
    }
    Status motion_status = Status::ok;
    if (request.contains("q_end")) {
      const std::vector<double> q_end = joint_vector(request, "q_end");
      if (auto err = joint_vector_error(checker.model(), q_end)) return error_answer(request, "q_end: " + *err);
      const MotionCheck m = checker.check_motion(q, q_end, env, motion_options(request), base);
      if (m.status == Status::invalid_input) return error_answer(request, m.message);
      motion_status = m.status;
      a["motion"] = motion_json(m);
    }
    json limits = json::array();
    for (const LimitViolation& v : joint_limit_violations(checker.model(), q))
      limits.push_back({{"joint", v.name}, {"value", v.value}, {"lower", v.lower}, {"upper", v.upper}});
    a["limit_violations"] = limits;
    a["status"] = to_string(worst({self.status, self_d.status, envc.status, env_d.status, tol_status, motion_status}));
    return a;
  } catch (const std::exception& e) {
    return error_answer(request, e.what());
  }
}

int run_robot_stream(const SceneChecker& checker, std::istream& in, std::ostream& out) {
  MeshFiles files;
  RobotSession session;
  return run_json_lines(in, out, [&](const std::string& line) {
    try {
      return answer_robot(checker, json::parse(line), files, &session);
    } catch (const json::exception& e) {
      return error_answer(json(), std::string("not valid JSON: ") + e.what());
    }
  });
}

int run_robot_command(const RobotCommandOptions& options, std::istream& in, std::ostream& out, std::ostream& err) {
  try {
    const SceneChecker checker = load_robot_checker(options);
    run_robot_stream(checker, in, out);
    return 0;
  } catch (const std::exception& e) {
    err << "proxima robot: " << e.what() << '\n';
    return 1;
  }
}

}  // namespace proxima::apps
