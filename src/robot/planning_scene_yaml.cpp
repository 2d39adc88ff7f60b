// SPDX-License-Identifier: BSD-3-Clause
// moveit_msgs/PlanningScene and MotionPlanRequest YAML through yaml-cpp. Every
// mapping is checked against the message's field names (so a misspelt key is
// an error, not a default), and every error names the YAML path of the field.
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>
#include <set>

#include <proxima/core/error.hpp>
#include <proxima/mesh/bvh.hpp>

#include "planning_scene_parts.hpp"

namespace proxima::robot::scene_parts {
namespace {

// Field names of the messages read (moveit_msgs, shape_msgs, geometry_msgs).
const std::vector<std::string> kSceneKeys = {"name",         "robot_state",          "robot_model_name",
                                             "fixed_frame_transforms", "allowed_collision_matrix",
                                             "link_padding", "link_scale",           "object_colors",
                                             "world",        "is_diff"};
const std::vector<std::string> kWorldKeys = {"collision_objects", "octomap"};
const std::vector<std::string> kObjectKeys = {"header",        "pose",         "id",         "type",
                                              "primitives",    "primitive_poses", "meshes", "mesh_poses",
                                              "planes",        "plane_poses",  "subframe_names",
                                              "subframe_poses", "operation"};
const std::vector<std::string> kPrimitiveKeys = {"type", "dimensions", "polygon"};
const std::vector<std::string> kMeshKeys = {"triangles", "vertices"};
const std::vector<std::string> kPoseKeys = {"position", "orientation"};
const std::vector<std::string> kRequestKeys = {
    "workspace_parameters", "start_state",        "goal_constraints",
    "path_constraints",     "trajectory_constraints", "reference_trajectories",
    "pipeline_id",          "planner_id",         "group_name",
    "num_planning_attempts", "allowed_planning_time", "max_velocity_scaling_factor",
    "max_acceleration_scaling_factor", "cartesian_speed_end_effector_link", "max_cartesian_speed"};
const std::vector<std::string> kRobotStateKeys = {"joint_state", "multi_dof_joint_state", "attached_collision_objects",
                                                  "is_diff"};
const std::vector<std::string> kJointStateKeys = {"header", "name", "position", "velocity", "effort"};

class Reader {
 public:
  explicit Reader(std::string source) : source_(std::move(source)) {}

  YAML::Node load(std::string_view text) const {
    try {
      YAML::Node root = YAML::Load(std::string(text));
      if (!root.IsDefined() || root.IsNull()) throw Error(source_ + ": the document is empty");
      return root;
    } catch (const YAML::Exception& e) {
      throw Error(std::string(source_).append(":").append(std::to_string(e.mark.line + 1)).append(": malformed YAML: ")
                      .append(e.msg));
    }
  }

  [[noreturn]] void fail(const YAML::Node& at, const std::string& path, const std::string& why) const {
    std::string m = source_;
    const YAML::Mark mark = at.Mark();
    if (mark.line >= 0) m.append(":").append(std::to_string(mark.line + 1));
    m.append(": ").append(path.empty() ? "the document" : path).append(": ").append(why);
    throw Error(m);
  }

  // A mapping whose keys are all in `allowed`, each once.
  void check_map(const YAML::Node& n, const std::string& path, const std::vector<std::string>& allowed) const {
    if (!n.IsMap()) fail(n, path, std::string("expected a mapping, found ").append(kind(n)));
    std::set<std::string> seen;
    for (const auto& kv : n) {
      if (!kv.first.IsScalar()) fail(kv.first, path, "a key that is not a plain name");
      const std::string key = kv.first.Scalar();
      if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
        std::string list;
        for (const std::string& a : allowed) list.append(list.empty() ? "" : ", ").append(a);
        fail(kv.first, join(path, key), "unknown field (expected one of " + list + ")");
      }
      if (!seen.insert(key).second) fail(kv.first, join(path, key), "the field appears twice");
    }
  }

  static std::optional<YAML::Node> child(const YAML::Node& map, const std::string& key) {
    for (const auto& kv : map)
      if (kv.first.Scalar() == key) return kv.second;
    return std::nullopt;
  }

  YAML::Node required(const YAML::Node& map, const std::string& path, const std::string& key) const {
    std::optional<YAML::Node> c = child(map, key);
    if (!c) fail(map, join(path, key), "missing");
    return *c;
  }

  // A sequence; a null (`key:` with nothing after it) is an empty one.
  std::vector<YAML::Node> seq(const YAML::Node& n, const std::string& path) const {
    std::vector<YAML::Node> out;
    if (n.IsNull()) return out;
    if (!n.IsSequence()) fail(n, path, std::string("expected a sequence, found ").append(kind(n)));
    for (const auto& item : n) out.push_back(item);
    return out;
  }

  std::string text(const YAML::Node& n, const std::string& path) const {
    if (n.IsNull()) return {};
    if (!n.IsScalar()) fail(n, path, std::string("expected a string, found ").append(kind(n)));
    return n.Scalar();
  }

  double number(const YAML::Node& n, const std::string& path) const {
    if (!n.IsScalar()) fail(n, path, std::string("expected a number, found ").append(kind(n)));
    const std::string& s = n.Scalar();
    const char* begin = s.data();
    const char* end = s.data() + s.size();
    if (begin != end && *begin == '+') ++begin;  // YAML allows an explicit sign, from_chars does not
    double v = 0.0;
    const auto [ptr, ec] = std::from_chars(begin, end, v);
    if (s.empty() || ec != std::errc() || ptr != end) fail(n, path, "'" + s + "' is not a number");
    if (!std::isfinite(v)) fail(n, path, "'" + s + "' is not finite");
    return v;
  }

  long integer(const YAML::Node& n, const std::string& path) const {
    if (!n.IsScalar()) fail(n, path, std::string("expected an integer, found ").append(kind(n)));
    const std::string& s = n.Scalar();
    long v = 0;
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || ec != std::errc() || ptr != s.data() + s.size()) fail(n, path, "'" + s + "' is not an integer");
    return v;
  }

  std::vector<double> numbers(const YAML::Node& n, const std::string& path) const {
    std::vector<double> out;
    const std::vector<YAML::Node> items = seq(n, path);
    for (std::size_t i = 0; i < items.size(); ++i) out.push_back(number(items[i], index(path, i)));
    return out;
  }

  // geometry_msgs Point / Quaternion: {x, y, z[, w]} or [x, y, z[, w]].
  std::vector<double> components(const YAML::Node& n, const std::string& path, const std::vector<std::string>& names)
      const {
    std::vector<double> out;
    if (n.IsSequence()) {
      out = numbers(n, path);
      if (out.size() != names.size())
        fail(n, path, "expected " + std::to_string(names.size()) + " numbers, found " + std::to_string(out.size()));
      return out;
    }
    check_map(n, path, names);
    for (const std::string& c : names) out.push_back(number(required(n, path, c), join(path, c)));
    return out;
  }

  Transform pose(const YAML::Node& n, const std::string& path) const {
    check_map(n, path, kPoseKeys);
    const std::vector<double> p = components(required(n, path, "position"), join(path, "position"), {"x", "y", "z"});
    const YAML::Node on = required(n, path, "orientation");
    const std::vector<double> q = components(on, join(path, "orientation"), {"x", "y", "z", "w"});
    if (std::string why = quaternion_problem(q[0], q[1], q[2], q[3]); !why.empty())
      fail(on, join(path, "orientation"), why);
    return pose_of(Vec3(p[0], p[1], p[2]), q[0], q[1], q[2], q[3]);
  }

  static std::string join(const std::string& path, const std::string& key) {
    return path.empty() ? key : std::string(path).append(".").append(key);
  }
  static std::string index(const std::string& path, std::size_t i) {
    return std::string(path).append("[").append(std::to_string(i)).append("]");
  }

 private:
  static const char* kind(const YAML::Node& n) {
    if (n.IsMap()) return "a mapping";
    if (n.IsSequence()) return "a sequence";
    if (n.IsNull()) return "nothing";
    return "a scalar";
  }

  std::string source_;
};

Shape primitive(const Reader& r, const YAML::Node& n, const std::string& path) {
  r.check_map(n, path, kPrimitiveKeys);
  const YAML::Node t = r.required(n, path, "type");
  const std::string tpath = Reader::join(path, "type");
  Primitive kind = Primitive::box;
  const std::string name = r.text(t, tpath);
  if (!name.empty() && std::all_of(name.begin(), name.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    // shape_msgs/SolidPrimitive's constants: BOX 1, SPHERE 2, CYLINDER 3, CONE 4 (PRISM 5).
    const long v = r.integer(t, tpath);
    if (v < 1 || v > 4) r.fail(t, tpath, "'" + name + "' is not BOX (1), SPHERE (2), CYLINDER (3) or CONE (4)");
    kind = static_cast<Primitive>(v - 1);
  } else {
    std::string lower = name;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (!primitive_from_name(lower, kind)) r.fail(t, tpath, "'" + name + "' is not box, sphere, cylinder or cone");
  }
  if (const auto poly = Reader::child(n, "polygon")) {
    // geometry_msgs/Polygon, {points: []} in every ROS 2 message: only a prism fills it.
    const std::string ppath = Reader::join(path, "polygon");
    std::optional<YAML::Node> points = poly;
    if (poly->IsMap()) {
      r.check_map(*poly, ppath, {"points"});
      points = Reader::child(*poly, "points");
    }
    if (points && !r.seq(*points, ppath).empty()) r.fail(*poly, ppath, "prisms are not read");
  }
  const YAML::Node d = r.required(n, path, "dimensions");
  const std::string dpath = Reader::join(path, "dimensions");
  Shape out = Sphere(1.0);
  if (std::string why = make_primitive(kind, r.numbers(d, dpath), out); !why.empty()) r.fail(d, dpath, why);
  return out;
}

Bvh yaml_mesh(const Reader& r, const YAML::Node& n, const std::string& path) {
  r.check_map(n, path, kMeshKeys);
  std::vector<Vec3> vertices;
  const std::string vpath = Reader::join(path, "vertices");
  const std::vector<YAML::Node> vs = r.seq(r.required(n, path, "vertices"), vpath);
  for (std::size_t i = 0; i < vs.size(); ++i) {
    const std::vector<double> c = r.components(vs[i], Reader::index(vpath, i), {"x", "y", "z"});
    vertices.emplace_back(c[0], c[1], c[2]);
  }
  std::vector<TriangleIndices> triangles;
  const std::string tpath = Reader::join(path, "triangles");
  const YAML::Node tnode = r.required(n, path, "triangles");
  const std::vector<YAML::Node> ts = r.seq(tnode, tpath);
  if (ts.empty()) r.fail(tnode, tpath, "a mesh needs at least one triangle");
  for (std::size_t i = 0; i < ts.size(); ++i) {
    std::string ipath = Reader::index(tpath, i);
    YAML::Node idx = ts[i];
    if (idx.IsMap()) {  // shape_msgs/MeshTriangle: {vertex_indices: [a, b, c]}
      r.check_map(idx, ipath, {"vertex_indices"});
      idx = r.required(ts[i], ipath, "vertex_indices");
      ipath = Reader::join(ipath, "vertex_indices");
    }
    const std::vector<YAML::Node> corners = r.seq(idx, ipath);
    if (corners.size() != 3) r.fail(idx, ipath, "expected 3 vertex indices, found " + std::to_string(corners.size()));
    TriangleIndices t{};
    for (std::size_t k = 0; k < 3; ++k) {
      const long v = r.integer(corners[k], Reader::index(ipath, k));
      if (v < 0 || static_cast<std::size_t>(v) >= vertices.size())
        r.fail(corners[k], Reader::index(ipath, k),
               "vertex index " + std::to_string(v) + " is not below the vertex count " + std::to_string(vertices.size()));
      t[k] = static_cast<std::uint32_t>(v);
    }
    triangles.push_back(t);
  }
  return Bvh(TriangleMesh(std::move(vertices), std::move(triangles), 0.0, path));
}

// The shapes of one object's list (primitives or meshes) with their poses.
template <typename Make>
void shapes_of(const Reader& r, const YAML::Node& obj, const std::string& path, const std::string& shapes_key,
               const std::string& poses_key, Make make, std::vector<PlacedShape>& out) {
  const auto shapes_node = Reader::child(obj, shapes_key);
  const auto poses_node = Reader::child(obj, poses_key);
  const std::string spath = Reader::join(path, shapes_key);
  const std::string ppath = Reader::join(path, poses_key);
  const std::vector<YAML::Node> shapes = shapes_node ? r.seq(*shapes_node, spath) : std::vector<YAML::Node>{};
  const std::vector<YAML::Node> poses = poses_node ? r.seq(*poses_node, ppath) : std::vector<YAML::Node>{};
  if (shapes.size() != poses.size())
    r.fail(obj, path, std::to_string(shapes.size()) + " " + shapes_key + " but " + std::to_string(poses.size()) + " " +
                          poses_key);
  for (std::size_t k = 0; k < shapes.size(); ++k) {
    auto geometry = make(r, shapes[k], Reader::index(spath, k));
    out.push_back({std::move(geometry), r.pose(poses[k], Reader::index(ppath, k))});
  }
}

void collision_object(const Reader& r, const YAML::Node& obj, const std::string& path, Environment& env,
                      std::set<std::string>& ids) {
  r.check_map(obj, path, kObjectKeys);
  const YAML::Node idn = r.required(obj, path, "id");
  const std::string id = r.text(idn, Reader::join(path, "id"));
  if (id.empty()) r.fail(idn, Reader::join(path, "id"), "empty");
  if (!ids.insert(id).second) r.fail(idn, Reader::join(path, "id"), "'" + id + "' names an earlier object too");
  if (const auto op = Reader::child(obj, "operation")) {
    const long v = r.integer(*op, Reader::join(path, "operation"));
    if (v != 0) r.fail(*op, Reader::join(path, "operation"), "only ADD (0) builds a scene, found " + std::to_string(v));
  }
  if (const auto planes = Reader::child(obj, "planes"); planes && !r.seq(*planes, Reader::join(path, "planes")).empty())
    r.fail(*planes, Reader::join(path, "planes"), "planes are not read (a MoveIt plane is two-sided and unbounded)");
  const Transform object_pose =
      Reader::child(obj, "pose") ? r.pose(*Reader::child(obj, "pose"), Reader::join(path, "pose")) : Transform::identity();
  std::vector<PlacedShape> shapes;
  shapes_of(r, obj, path, "primitives", "primitive_poses",
            [](const Reader& rr, const YAML::Node& n, const std::string& p) { return primitive(rr, n, p); }, shapes);
  shapes_of(r, obj, path, "meshes", "mesh_poses",
            [](const Reader& rr, const YAML::Node& n, const std::string& p) { return yaml_mesh(rr, n, p); }, shapes);
  if (shapes.empty()) r.fail(obj, path, "object '" + id + "' has no primitives or meshes");
  add_object(env, id, object_pose, std::move(shapes));
}

}  // namespace

PlanningScene parse_scene_yaml(std::string_view text, const std::string& source) {
  const Reader r(source);
  const YAML::Node root = r.load(text);
  r.check_map(root, "", kSceneKeys);
  PlanningScene scene;
  if (const auto name = Reader::child(root, "name")) scene.name = r.text(*name, "name");
  const auto world = Reader::child(root, "world");
  if (!world) return scene;
  r.check_map(*world, "world", kWorldKeys);
  if (const auto octomap = Reader::child(*world, "octomap")) {
    // An octomap message with data is geometry this reader cannot turn into shapes.
    const auto inner = octomap->IsMap() ? Reader::child(*octomap, "octomap") : std::nullopt;
    const auto data = inner && inner->IsMap() ? Reader::child(*inner, "data") : std::nullopt;
    if (data && !r.seq(*data, "world.octomap.octomap.data").empty())
      r.fail(*data, "world.octomap.octomap.data", "octomaps are not read");
  }
  if (const auto objects = Reader::child(*world, "collision_objects")) {
    std::set<std::string> ids;
    const std::vector<YAML::Node> items = r.seq(*objects, "world.collision_objects");
    for (std::size_t i = 0; i < items.size(); ++i)
      collision_object(r, items[i], Reader::index("world.collision_objects", i), scene.environment, ids);
  }
  return scene;
}

std::map<std::string, double> parse_request_start_state(std::string_view text, const std::string& source) {
  const Reader r(source);
  const YAML::Node root = r.load(text);
  r.check_map(root, "", kRequestKeys);
  const YAML::Node start = r.required(root, "", "start_state");
  r.check_map(start, "start_state", kRobotStateKeys);
  const YAML::Node js = r.required(start, "start_state", "joint_state");
  const std::string jpath = "start_state.joint_state";
  r.check_map(js, jpath, kJointStateKeys);
  const YAML::Node names = r.required(js, jpath, "name");
  const std::vector<YAML::Node> name_items = r.seq(names, jpath + ".name");
  const std::vector<double> positions = r.numbers(r.required(js, jpath, "position"), jpath + ".position");
  if (name_items.size() != positions.size())
    r.fail(js, jpath, std::to_string(name_items.size()) + " names but " + std::to_string(positions.size()) + " positions");
  std::map<std::string, double> out;
  for (std::size_t i = 0; i < name_items.size(); ++i) {
    const std::string name = r.text(name_items[i], Reader::index(jpath + ".name", i));
    if (!out.emplace(name, positions[i]).second)
      r.fail(name_items[i], Reader::index(jpath + ".name", i), "joint '" + name + "' appears twice");
  }
  return out;
}

}  // namespace proxima::robot::scene_parts
