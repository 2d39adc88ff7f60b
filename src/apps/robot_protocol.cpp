// SPDX-License-Identifier: BSD-3-Clause
#include "robot_protocol.hpp"

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <istream>
#include <optional>
#include <ostream>
#include <string>
#include <unordered_map>
#include <variant>

#include <proxima/core/error.hpp>
#include <proxima/robot/attached_object.hpp>
#include <proxima/robot/kinematics.hpp>
#include <proxima/robot/planning_scene.hpp>
#include <proxima/robot/point_cloud.hpp>
#include <proxima/robot/urdf.hpp>

#include "html_replay.hpp"
#include "json_lines.hpp"
#include "json_reader.hpp"
#include "json_shapes.hpp"
#include "robot_page.hpp"

namespace proxima::apps {

using nlohmann::json;
using namespace proxima::robot;

namespace {

json request_error(const json& request, const std::string& message) { return error_line(request, "id", message); }

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

// A joint vector: finite numbers within ±1e15 (the robot judges sizes and limits).
std::vector<double> joint_vector(ObjectReader& request, const char* key = "q") {
  const json& q = array_at(request.required(key, "the joint vector"), key, "numbers");
  std::vector<double> out;
  for (std::size_t i = 0; i < q.size(); ++i) out.push_back(number_at(q[i], index_path(key, i)));
  return out;
}

// The optional "motion" object of a request with "q_end".
MotionCheckOptions motion_options(const json* m) {
  MotionCheckOptions o;
  if (m == nullptr) return o;
  read_object(*m, "motion", [&](ObjectReader& r) {
    o.clearance = r.number_or("clearance", o.clearance, kLengthRange);
    o.accuracy = r.number_or("accuracy", o.accuracy, Range{0.0, kMaxLength, true, false, " m"});
    o.max_iterations = static_cast<int>(r.integer_or("max_iterations", o.max_iterations, 1, 100000000));
    o.self = r.boolean_or("self", o.self);
  });
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

std::vector<std::string> touch_links(ObjectReader& o) {
  std::vector<std::string> touch;
  const json* t = o.get("touch_links");
  if (t == nullptr) return touch;
  const std::string field = o.field("touch_links");
  array_at(*t, field, "link names");
  for (std::size_t i = 0; i < t->size(); ++i) touch.push_back(string_at((*t)[i], index_path(field, i)));
  return touch;
}

bool is_point_cloud_json(const json& geometry) {
  return geometry.is_object() && geometry.contains("shape") && geometry["shape"] == "point_cloud";
}

// {"shape": "point_cloud", "points": [[x, y, z], …], "voxel": s, "min_points": n}
// in the object's frame: robot::add_point_cloud's cubes.
void add_point_cloud_json(Environment& env, const std::string& name, const json& g, const std::string& field,
                          const Transform& pose, std::vector<std::string> touch_links) {
  read_object(g, field, [&](ObjectReader& r) {
    (void)r.string("shape");  // "point_cloud": what sent it here
    const std::string at = r.field("points");
    const json& pts = array_at(r.required("points"), at, "[x, y, z] points");
    std::vector<Vec3> points;
    points.reserve(pts.size());
    for (std::size_t i = 0; i < pts.size(); ++i) points.push_back(vec3_at(pts[i], index_path(at, i)));
    // Its sign is add_point_cloud's to judge: its message names the cloud.
    const double voxel = r.number("voxel");
    PointCloudOptions options;
    options.touch_links = std::move(touch_links);
    options.min_points = static_cast<int>(r.integer_or("min_points", options.min_points, 1, 1000000000));
    try {
      add_point_cloud(env, name, points, voxel, pose, options);
    } catch (const Error& e) {
      fail(field, e.what());
    }
  });
}

// The first status that is not ok among the reports.
Status worst(std::initializer_list<Status> all) {
  for (Status s : all)
    if (s != Status::ok) return s;
  return Status::ok;
}

}  // namespace

std::vector<AttachedObject> attached_from_json(const json& objs, MeshFiles& files, const std::string& key) {
  array_at(objs, key, "objects {\"name\", \"link\", \"geometry\", \"pose\", \"touch_links\"}");
  std::vector<AttachedObject> out;
  for (std::size_t i = 0; i < objs.size(); ++i) {
    read_object(objs[i], index_path(key, i), [&](ObjectReader& o) {
      std::string name = o.string("name");
      std::string link = o.string("link");
      const json& g = o.required("geometry");
      std::variant<Shape, Bvh> geometry =
          is_mesh_json(g)
              ? std::variant<Shape, Bvh>(std::in_place_type<Bvh>, *mesh_from_json(g, o.field("geometry"), files))
              : std::variant<Shape, Bvh>(std::in_place_type<Shape>, shape_from_json(g, o.field("geometry")));
      const json* pose = o.get("pose");
      out.push_back({std::move(name), std::move(link), std::move(geometry),
                     pose ? pose_from_json(*pose, o.field("pose")) : Transform::identity(), touch_links(o)});
    });
  }
  return out;
}

Environment environment_from_json(const json& objs, MeshFiles& files, const std::string& key) {
  Environment env;
  array_at(objs, key, "objects {\"name\", \"geometry\", \"pose\", \"touch_links\", \"group\"}");
  // Answers name the object they are about (the closest, the colliding),
  // as a planning scene's object ids do: one name, one object.
  std::unordered_map<std::string, std::size_t> entry_of;
  for (std::size_t i = 0; i < objs.size(); ++i) {
    const std::string field = index_path(key, i);
    const std::size_t first = env.objects.size();
    std::string group;
    read_object(objs[i], field, [&](ObjectReader& o) {
      const std::string name = o.string_or("name", field);
      const json& geometry = o.required("geometry");
      const json* pose_j = o.get("pose");
      const Transform pose = pose_j ? pose_from_json(*pose_j, o.field("pose")) : Transform::identity();
      std::vector<std::string> touch = touch_links(o);
      group = o.string_or("group", "");
      if (is_point_cloud_json(geometry))
        add_point_cloud_json(env, name, geometry, o.field("geometry"), pose, std::move(touch));
      else if (is_mesh_json(geometry))
        env.add(name, *mesh_from_json(geometry, o.field("geometry"), files), pose, std::move(touch));
      else
        env.add(name, shape_from_json(geometry, o.field("geometry")), pose, std::move(touch));
    });
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
  if (!options.urdf.empty() && !options.urdf_xml.empty()) throw Error("give a URDF file or --urdf-xml, not both");
  if (!options.srdf.empty() && !options.srdf_xml.empty()) throw Error("give --srdf or --srdf-xml, not both");
  RobotModel model = options.urdf_xml.empty()
                         ? load_urdf(options.urdf, urdf)
                         : parse_urdf(options.urdf_xml, std::filesystem::current_path(), urdf, "--urdf-xml");
  GeometryOptions geo;
  if (options.mesh_mode == "hull") geo.mesh_mode = MeshMode::convex_hull;
  else if (options.mesh_mode == "mesh") geo.mesh_mode = MeshMode::triangle_mesh;
  else throw Error("--mesh-mode '" + options.mesh_mode + "': expected hull or mesh");
  geo.margin = options.margin;
  AllowedCollisionMatrix acm = AllowedCollisionMatrix::adjacent(model);
  if (!options.srdf.empty()) apply_srdf(model, options.srdf, acm);
  if (!options.srdf_xml.empty()) apply_srdf_text(model, options.srdf_xml, acm, "--srdf-xml");
  return SceneChecker(RobotGeometry(std::move(model), geo), std::move(acm));
}

namespace {

// One request line, every key read through `r`, and finished, before
// anything is kept or computed: a bad line changes nothing.
json answer_robot_request(const SceneChecker& robot, ObjectReader& r, MeshFiles& files, RobotSession* session) {
  const json& request = r.object();
  (void)r.get("id");  // echoed as it is
  const json* scene_j = r.get("scene");
  const json* hold_j = r.get("hold");
  if ((scene_j || hold_j) && session == nullptr)
    fail(scene_j ? "scene" : "hold", "needs a stream to keep it in");
  std::shared_ptr<const SceneChecker> held = session ? session->holding : nullptr;
  std::size_t held_objects = 0;
  if (hold_j) {
    std::vector<AttachedObject> objects = attached_from_json(*hold_j, files, "hold");
    held_objects = objects.size();
    held = objects.empty() ? nullptr : std::make_shared<const SceneChecker>(attach(robot, objects));
  }
  std::optional<Environment> scene_objects;
  if (scene_j) scene_objects = environment_from_json(*scene_j, files, "scene");

  // The query: a joint vector and what it is checked against.
  const bool has_q = !(scene_j || hold_j) || r.has("q");
  if (!has_q) {
    for (const char* key : {"base", "environment", "attached", "tolerance", "q_end", "motion"})
      r.refuse(key, "applies to a request with \"q\" (the joint vector)");
  }
  std::optional<SceneChecker> holding;
  std::vector<double> q, q_end;
  Transform base = Transform::identity();
  std::optional<Environment> own_environment;
  std::optional<double> tolerance;
  MotionCheckOptions motion;
  if (has_q) {
    if (const json* a = r.get("attached")) holding.emplace(attach(robot, attached_from_json(*a, files)));
    q = joint_vector(r);
    if (const json* b = r.get("base")) base = pose_from_json(*b, "base");
    if (const json* e = r.get("environment")) own_environment = environment_from_json(*e, files);
    if (r.has("tolerance")) tolerance = r.number("tolerance", kLengthRange);
    if (r.has("q_end")) {
      q_end = joint_vector(r, "q_end");
      motion = motion_options(r.get("motion"));
    } else {
      r.refuse("motion", "applies to a request with \"q_end\" (the segment q → q_end)");
    }
  }
  r.finish();

  if (scene_objects) {
    // Touch links may name a held object: checked against the robot as it
    // will be after this line.
    if (auto err = (held ? *held : robot).touch_error(*scene_objects)) return request_error(request, *err);
  }
  if (hold_j) session->holding = std::move(held);
  if (scene_objects)
    session->scene = scene_objects->objects.empty()
                         ? nullptr
                         : std::make_shared<const PreparedEnvironment>(std::move(*scene_objects));
  if (!has_q) {
    json a;
    if (request.contains("id")) a["id"] = request["id"];
    a["status"] = "ok";
    if (scene_j) a["scene_objects"] = session->scene ? session->scene->objects().size() : 0;
    if (hold_j) a["held_objects"] = held_objects;
    return a;
  }
  // The robot holding the request's objects, else the stream's, else as
  // it was loaded.
  const SceneChecker& kept = session && session->holding ? *session->holding : robot;
  const SceneChecker& checker = holding ? *holding : kept;
  // The request's own environment, else the stream's scene, else none.
  std::shared_ptr<const PreparedEnvironment> prepared;
  if (own_environment) prepared = std::make_shared<const PreparedEnvironment>(std::move(*own_environment));
  else if (session && session->scene) prepared = session->scene;
  else prepared = std::make_shared<const PreparedEnvironment>();
  const PreparedEnvironment& env = *prepared;
  const RobotState s = checker.state(q, base);
  if (s.status != Status::ok) return request_error(request, s.message);

  const CollisionReport self = checker.self_collision(s);
  const DistanceReport self_d = checker.self_distance(s);
  const CollisionReport envc = checker.environment_collision(s, env);
  if (envc.status == Status::invalid_input) return request_error(request, envc.message);  // a touch link's name
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
  if (tolerance) {
    const ToleranceReport t = checker.tolerance(s, env, *tolerance);
    if (t.status == Status::invalid_input) return request_error(request, t.message);
    tol_status = t.status;
    a["within_tolerance"] = t.within;
    if (t.within) a["tolerance_pair"] = {t.pair.link_name, t.pair.other_name};
  }
  Status motion_status = Status::ok;
  if (request.contains("q_end")) {
    if (auto err = joint_vector_error(checker.model(), q_end)) return request_error(request, "q_end: " + *err);
    const MotionCheck m = checker.check_motion(q, q_end, env, motion, base);
    if (m.status == Status::invalid_input) return request_error(request, m.message);
    motion_status = m.status;
    a["motion"] = motion_json(m);
  }
  json limits = json::array();
  for (const LimitViolation& v : joint_limit_violations(checker.model(), q))
    limits.push_back({{"joint", v.name}, {"value", v.value}, {"lower", v.lower}, {"upper", v.upper}});
  a["limit_violations"] = limits;
  a["status"] = to_string(worst({self.status, self_d.status, envc.status, env_d.status, tol_status, motion_status}));
  if (session && session->observer) session->observer(checker, env, s, a);
  return a;
}

}  // namespace

json answer_robot(const SceneChecker& robot, const json& request, MeshFiles& files, RobotSession* session) {
  try {
    if (!request.is_object()) return request_error(request, "a request is a JSON object");
    return read_object(request, "", [&](ObjectReader& r) { return answer_robot_request(robot, r, files, session); });
  } catch (const std::exception& e) {
    return request_error(request, e.what());
  }
}

std::shared_ptr<const PreparedEnvironment> planning_scene_environment(const std::string& file) {
  Environment env = read_planning_scene(file).environment;
  if (env.objects.empty()) return nullptr;
  return std::make_shared<const PreparedEnvironment>(std::move(env));
}

int run_robot_stream(const SceneChecker& checker, std::istream& in, std::ostream& out,
                     std::shared_ptr<const PreparedEnvironment> scene) {
  RobotSession session;
  session.scene = std::move(scene);
  return run_robot_stream(checker, in, out, std::move(session));
}

int run_robot_stream(const SceneChecker& checker, std::istream& in, std::ostream& out, RobotSession session) {
  MeshFiles files;
  return run_json_lines(in, out, [&](const std::string& line) {
    try {
      return answer_robot(checker, parse_json(line), files, &session);
    } catch (const json::exception& e) {
      return request_error(json(), std::string("not valid JSON: ") + e.what());
    } catch (const Error& e) {
      return request_error(json(), e.what());  // a duplicate key
    }
  });
}

int run_robot_stream_with_page(const SceneChecker& checker, std::istream& in, std::ostream& out,
                               std::shared_ptr<const PreparedEnvironment> scene, const std::string& title,
                               json& page_data) {
  RobotReplay replay(title, ClearanceScale{});
  int requests = 0, skipped = 0;
  RobotSession session;
  session.scene = std::move(scene);
  session.observer = [&](const SceneChecker& robot, const PreparedEnvironment& env, const RobotState& s,
                         const json& answer) {
    ++requests;
    if (replay.frames() >= kDefaultFrameBudget) {
      ++skipped;
      return;
    }
    // Built for each frame: a request may hold objects of its own, so the
    // robot is not always the stream's.
    const LinkClearance clearance(robot);
    std::string label = answer.contains("id") ? "id " + answer["id"].dump() : "request " + std::to_string(requests);
    replay.add(clearance, s, env.environment(), {{"step", replay.frames()}, {"time", 0}, {"label", label}});
  };
  const int errors = run_robot_stream(checker, in, out, std::move(session));
  std::string full = title + ", " + std::to_string(replay.frames()) + " configurations";
  if (skipped > 0) full.append(" (" + std::to_string(skipped) + " more not drawn)");
  replay.set_title(full);
  page_data = replay.data();
  return errors;
}

int run_robot_command(const RobotCommandOptions& options, std::istream& in, std::ostream& out, std::ostream& err) {
  try {
    // Opened first: a bad page path fails before the robot loads.
    std::optional<ReplayPageFile> page;
    if (options.html_path) page.emplace(*options.html_path, "--html");
    const SceneChecker checker = load_robot_checker(options);
    auto scene = options.planning_scene.empty() ? nullptr : planning_scene_environment(options.planning_scene);
    if (!page) {
      run_robot_stream(checker, in, out, std::move(scene));
      return 0;
    }
    json data;
    run_robot_stream_with_page(checker, in, out, std::move(scene), "proxima robot: " + checker.model().name(), data);
    page->write(data);
    return 0;
  } catch (const std::exception& e) {
    err << "proxima robot: " << e.what() << '\n';
    return 1;
  }
}

}  // namespace proxima::apps
