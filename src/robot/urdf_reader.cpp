// SPDX-License-Identifier: BSD-3-Clause
// URDF → RobotModel (see urdf.hpp for why this is our own reader).
#include <proxima/robot/urdf.hpp>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <initializer_list>
#include <optional>
#include <string_view>
#include <system_error>
#include <vector>

#include <proxima/core/error.hpp>
#include <proxima/io/file.hpp>

#include "xml_reader.hpp"

namespace proxima::robot {

using tinyxml2::XMLElement;

namespace {

// URDF's rpy: fixed-axis roll about x, then pitch about y, then yaw about z.
Mat3 rpy_matrix(const Vec3& rpy) {
  return (Eigen::AngleAxisd(rpy.z(), Vec3::UnitZ()) * Eigen::AngleAxisd(rpy.y(), Vec3::UnitY()) *
          Eigen::AngleAxisd(rpy.x(), Vec3::UnitX()))
      .toRotationMatrix();
}

// <origin xyz rpy/> child of `parent`; the identity when absent.
Transform read_origin(const xml::Document& d, const XMLElement* parent, const std::string& what) {
  const XMLElement* o = parent->FirstChildElement("origin");
  if (!o) return Transform::identity();
  const Vec3 xyz = xml::vec3_or(d, o, "xyz", what + " <origin>", Vec3::Zero());
  const Vec3 rpy = xml::vec3_or(d, o, "rpy", what + " <origin>", Vec3::Zero());
  return {rpy_matrix(rpy), xyz};
}

double positive(const xml::Document& d, const XMLElement* e, const char* name, const std::string& what) {
  const double v = xml::number(d, e, name, what);
  if (!(v > 0.0)) d.fail(e, what, std::string(name) + " must be > 0, got " + e->Attribute(name));
  return v;
}

GeometrySpec read_geometry(const xml::Document& d, const XMLElement* collision, const std::string& what,
                           const std::filesystem::path& base_dir, const UrdfOptions& options) {
  const XMLElement* g = collision->FirstChildElement("geometry");
  if (!g) d.fail(collision, what, "<collision> has no <geometry>");
  const XMLElement* s = g->FirstChildElement();
  if (!s) d.fail(g, what, "<geometry> is empty");
  GeometrySpec spec;
  const std::string kind = s->Name();
  if (kind == "box") {
    spec.kind = GeometrySpec::Kind::box;
    spec.size = xml::vec3_or(d, s, "size", what + " <box>", Vec3::Zero());
    if (!s->Attribute("size")) d.fail(s, what, "<box> has no 'size' attribute");
    if (!(spec.size.array() > 0.0).all()) d.fail(s, what, std::string("box size must be > 0, got ") + s->Attribute("size"));
  } else if (kind == "cylinder") {
    spec.kind = GeometrySpec::Kind::cylinder;
    spec.radius = positive(d, s, "radius", what + " <cylinder>");
    spec.length = positive(d, s, "length", what + " <cylinder>");
  } else if (kind == "sphere") {
    spec.kind = GeometrySpec::Kind::sphere;
    spec.radius = positive(d, s, "radius", what + " <sphere>");
  } else if (kind == "mesh") {
    spec.kind = GeometrySpec::Kind::mesh;
    spec.uri = xml::required(d, s, "filename", what + " <mesh>");
    spec.scale = xml::vec3_or(d, s, "scale", what + " <mesh>", Vec3::Ones());
    // A negative scale mirrors (some descriptions do that); zero flattens.
    if ((spec.scale.array() == 0.0).any()) d.fail(s, what, std::string("mesh scale must be non-zero, got ") + s->Attribute("scale"));
    try {
      spec.path = resolve_mesh_uri(spec.uri, base_dir, options);
    } catch (const Error& e) {
      d.fail(s, what, e.what());
    }
    if (options.require_meshes)
      if (const std::string problem = file_problem(spec.path); !problem.empty())
        d.fail(s, what, "mesh '" + spec.uri + "' resolves to '" + spec.path.string() + "': " + problem);
  } else {
    d.fail(s, what, "unsupported geometry <" + kind + "> (box, cylinder, sphere or mesh)");
  }
  return spec;
}

// Every attribute of `e` is one of `known`: a misspelt name (ixyy, dampin)
// would otherwise leave its value silently at the default.
void only_attributes(const xml::Document& d, const XMLElement* e, const std::string& what,
                     std::initializer_list<std::string_view> known) {
  for (const tinyxml2::XMLAttribute* a = e->FirstAttribute(); a; a = a->Next())
    if (std::find(known.begin(), known.end(), std::string_view(a->Name())) == known.end()) {
      std::string list;
      for (const std::string_view k : known) list.append(list.empty() ? "" : ", ").append(k);
      d.fail(e, what, std::string("<") + e->Name() + "> has unknown attribute '" + a->Name() + "' (expected " + list +
                          ")");
    }
}

// <inertial>: mass, centre-of-mass frame and inertia. The tensor's lower
// triangle takes iyx, izx, izy when a file writes them (some exporters do), so
// that RobotModel can refuse a file whose two halves disagree; otherwise it
// mirrors the upper one. Whether the numbers describe a body (mass ≥ 0, a
// physical inertia) RobotModel checks, for models built in code too.
Inertial read_inertial(const xml::Document& d, const XMLElement* e, const std::string& what) {
  Inertial in;
  in.where = d.where(e);
  in.origin = read_origin(d, e, what + " <inertial>");
  const XMLElement* mass = e->FirstChildElement("mass");
  if (!mass) d.fail(e, what, "<inertial> has no <mass>");
  if (mass->NextSiblingElement("mass")) d.fail(mass, what, "<inertial> has two <mass> elements");
  only_attributes(d, mass, what, {"value"});
  in.mass = xml::number(d, mass, "value", what + " <mass>");
  const XMLElement* inertia = e->FirstChildElement("inertia");
  if (!inertia) d.fail(e, what, "<inertial> has no <inertia>");
  if (inertia->NextSiblingElement("inertia")) d.fail(inertia, what, "<inertial> has two <inertia> elements");
  only_attributes(d, inertia, what, {"ixx", "ixy", "ixz", "iyy", "iyz", "izz", "iyx", "izx", "izy"});
  const std::string w = what + " <inertia>";
  Mat3& I = in.inertia;
  I(0, 0) = xml::number(d, inertia, "ixx", w);
  I(1, 1) = xml::number(d, inertia, "iyy", w);
  I(2, 2) = xml::number(d, inertia, "izz", w);
  I(0, 1) = xml::number(d, inertia, "ixy", w);
  I(0, 2) = xml::number(d, inertia, "ixz", w);
  I(1, 2) = xml::number(d, inertia, "iyz", w);
  I(1, 0) = xml::number_or(d, inertia, "iyx", w, I(0, 1));
  I(2, 0) = xml::number_or(d, inertia, "izx", w, I(0, 2));
  I(2, 1) = xml::number_or(d, inertia, "izy", w, I(1, 2));
  return in;
}

Link read_link(const xml::Document& d, const XMLElement* e, const std::filesystem::path& base_dir,
               const UrdfOptions& options) {
  Link link;
  link.name = xml::required(d, e, "name", "<link>");
  link.where = d.where(e);
  const std::string what = "link '" + link.name + "'";
  for (const XMLElement* c = e->FirstChildElement("collision"); c; c = c->NextSiblingElement("collision")) {
    CollisionElement col;
    col.name = xml::attribute(c, "name").value_or("");
    col.where = d.where(c);
    col.origin = read_origin(d, c, what);
    col.geometry = read_geometry(d, c, what, base_dir, options);
    link.collisions.push_back(std::move(col));
  }
  if (const XMLElement* in = e->FirstChildElement("inertial")) {
    if (in->NextSiblingElement("inertial")) d.fail(in->NextSiblingElement("inertial"), what, "has two <inertial> elements");
    link.inertial = read_inertial(d, in, what);
  }
  return link;
}

Joint read_joint(const xml::Document& d, const XMLElement* e) {
  Joint j;
  j.name = xml::required(d, e, "name", "<joint>");
  j.where = d.where(e);
  const std::string what = "joint '" + j.name + "'";
  const std::string type = xml::required(d, e, "type", what);
  if (type == "revolute") j.type = JointType::revolute;
  else if (type == "continuous") j.type = JointType::continuous;
  else if (type == "prismatic") j.type = JointType::prismatic;
  else if (type == "fixed") j.type = JointType::fixed;
  else if (type == "floating" || type == "planar")
    d.fail(e, what, "joint type '" + type +
                        "' is not supported: a free-moving base is the `base` pose of forward kinematics");
  else d.fail(e, what, "unknown joint type '" + type + "'");

  const XMLElement* parent = e->FirstChildElement("parent");
  if (!parent) d.fail(e, what, "has no <parent>");
  j.parent = xml::required(d, parent, "link", what + " <parent>");
  const XMLElement* child = e->FirstChildElement("child");
  if (!child) d.fail(e, what, "has no <child>");
  j.child = xml::required(d, child, "link", what + " <child>");
  j.origin = read_origin(d, e, what);

  if (j.type != JointType::fixed) {
    if (const XMLElement* a = e->FirstChildElement("axis")) {
      j.axis = xml::vec3_or(d, a, "xyz", what + " <axis>", Vec3::UnitX());
      if (j.axis.norm() < 1e-12) d.fail(a, what, "axis is zero");
    }
  }
  // URDF requires limits on revolute and prismatic joints (urdfdom agrees);
  // lower and upper default to 0 there.
  const XMLElement* limit = e->FirstChildElement("limit");
  if (j.type == JointType::revolute || j.type == JointType::prismatic) {
    if (!limit) d.fail(e, what, type + " joint has no <limit>");
    j.lower = xml::number_or(d, limit, "lower", what + " <limit>", 0.0);
    j.upper = xml::number_or(d, limit, "upper", what + " <limit>", 0.0);
    if (j.lower > j.upper) d.fail(limit, what, "limit lower > upper");
  }
  // The velocity limit is optional here (urdfdom requires it); exporters
  // write 0 for "not given", read as no limit (a joint that cannot move is
  // a fixed joint). The watchdog checks the feed's speed against it.
  if (limit && j.type != JointType::fixed) {
    const double v = xml::number_or(d, limit, "velocity", what + " <limit>", 0.0);
    if (v < 0.0) d.fail(limit, what, "limit velocity " + std::to_string(v) + " is negative");
    if (v > 0.0) j.velocity = v;
    // Effort likewise: optional, 0 read as "not given". A negative one is
    // refused here, where the line is known.
    const double f = xml::number_or(d, limit, "effort", what + " <limit>", 0.0);
    if (f < 0.0) d.fail(limit, what, "limit effort " + std::to_string(f) + " is negative");
    if (f > 0.0) j.effort = f;
  }
  if (const XMLElement* dyn = e->FirstChildElement("dynamics")) {
    only_attributes(d, dyn, what, {"damping", "friction"});
    j.damping = xml::number_or(d, dyn, "damping", what + " <dynamics>", 0.0);
    j.friction = xml::number_or(d, dyn, "friction", what + " <dynamics>", 0.0);
    if (j.damping < 0.0) d.fail(dyn, what, "dynamics damping " + std::to_string(j.damping) + " is negative");
    if (j.friction < 0.0) d.fail(dyn, what, "dynamics friction " + std::to_string(j.friction) + " is negative");
  }
  if (const XMLElement* m = e->FirstChildElement("mimic")) {
    Mimic mimic;
    mimic.joint = xml::required(d, m, "joint", what + " <mimic>");
    mimic.multiplier = xml::number_or(d, m, "multiplier", what + " <mimic>", 1.0);
    mimic.offset = xml::number_or(d, m, "offset", what + " <mimic>", 0.0);
    j.mimic = mimic;
  }
  return j;
}

RobotModel parse_document(const xml::Document& d, const std::filesystem::path& base_dir, const UrdfOptions& options) {
  const XMLElement* robot = d.doc.FirstChildElement("robot");
  if (!robot) {
    const std::string at = d.source.empty() ? std::string("URDF") : d.source;
    throw Error(at + ": no <robot> element");
  }
  const std::string name = xml::required(d, robot, "name", "<robot>");
  std::vector<Link> links;
  std::vector<Joint> joints;
  for (const XMLElement* e = robot->FirstChildElement(); e; e = e->NextSiblingElement()) {
    const std::string tag = e->Name();
    if (tag == "link") links.push_back(read_link(d, e, base_dir, options));
    else if (tag == "joint") joints.push_back(read_joint(d, e));
  }
  return RobotModel(name, std::move(links), std::move(joints), d.where(robot));
}

}  // namespace

namespace {

// The entries of a ':'-separated path variable, empty ones dropped.
std::vector<std::filesystem::path> path_list(const char* variable) {
  std::vector<std::filesystem::path> out;
  const char* value = std::getenv(variable);
  if (!value) return out;
  std::string_view rest(value);
  while (!rest.empty()) {
    const std::size_t colon = rest.find(':');
    const std::string_view entry = rest.substr(0, colon);
    if (!entry.empty()) out.emplace_back(std::string(entry));
    if (colon == std::string_view::npos) break;
    rest.remove_prefix(colon + 1);
  }
  return out;
}

// `tail` inside package `pkg` where ROS 1 (ROS_PACKAGE_PATH: folders that
// hold packages, or are one) or ROS 2 (AMENT_PREFIX_PATH: install prefixes,
// a package's files under share/<pkg>) put it; the first that exists.
std::optional<std::filesystem::path> ros_package_file(const std::string& pkg, const std::string& tail) {
  std::error_code ec;
  auto exists = [&](const std::filesystem::path& p) { return std::filesystem::exists(p, ec); };
  for (const std::filesystem::path& dir : path_list("ROS_PACKAGE_PATH")) {
    if (const auto p = dir / pkg / tail; exists(p)) return p;
    const std::filesystem::path name = (dir.filename().empty() ? dir.parent_path() : dir).filename();
    if (const auto p = dir / tail; name == pkg && exists(p)) return p;
  }
  for (const std::filesystem::path& prefix : path_list("AMENT_PREFIX_PATH")) {
    if (const auto p = prefix / "share" / pkg / tail; exists(p)) return p;
  }
  return std::nullopt;
}

}  // namespace

std::filesystem::path resolve_mesh_uri(const std::string& uri, const std::filesystem::path& base_dir,
                                       const UrdfOptions& options) {
  if (uri.empty()) throw Error("empty mesh filename");
  constexpr std::string_view package = "package://";
  constexpr std::string_view file = "file://";
  if (uri.rfind(package, 0) == 0) {
    const std::string rest = uri.substr(package.size());
    const std::size_t slash = rest.find('/');
    const std::string pkg = rest.substr(0, slash);
    const std::string tail = slash == std::string::npos ? std::string() : rest.substr(slash + 1);
    if (pkg.empty()) throw Error("mesh '" + uri + "': empty package name");
    const auto it = options.packages.find(pkg);
    if (it != options.packages.end()) return it->second / tail;
    if (options.ros_environment) {
      if (auto found = ros_package_file(pkg, tail)) return *found;
    }
    return base_dir / pkg / tail;
  }
  if (uri.rfind(file, 0) == 0) return std::filesystem::path(uri.substr(file.size()));
  const std::filesystem::path p(uri);
  return p.is_absolute() ? p : base_dir / p;
}

RobotModel parse_urdf(std::string_view text, const std::filesystem::path& base_dir, const UrdfOptions& options,
                      const std::string& source_name) {
  xml::Document d;
  xml::parse(d, text, source_name);
  return parse_document(d, base_dir, options);
}

RobotModel load_urdf(const std::filesystem::path& file, const UrdfOptions& options) {
  const std::string text = xml::read_file(file, "URDF");
  return parse_urdf(text, file.parent_path(), options, file.string());
}

}  // namespace proxima::robot
