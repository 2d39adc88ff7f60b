// SPDX-License-Identifier: BSD-3-Clause
// proxima.viz: the 3-D replay page of the command (docs/viewer.md) written
// from Python. Page builds one body by body and frame by frame (viz_page.hpp),
// Page.add_query draws query results, Recorder records a World as it steps
// (the page of `proxima sim --html`), RobotPage (viz_robot.cpp) draws a robot
// coloured by clearance, and to_meshcat (viz_meshcat.cpp) sends a page to a
// Meshcat viewer. The page text comes from src/apps.
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <pybind11/stl/filesystem.h>

#include <proxima/core/error.hpp>

#include "../apps/html_replay.hpp"
#include "../apps/replay_page.hpp"
#include "bindings.hpp"
#include "convert.hpp"
#include "operand.hpp"
#include "viz_page.hpp"
#include "world.hpp"

namespace proxima::python {

void define_to_meshcat(py::module_& viz, const py::object& error);  // viz_meshcat.cpp
void bind_viz_robot(py::module_& viz);                                // viz_robot.cpp

namespace {

using nlohmann::json;

// The page's refusals are proxima.Error (a ValueError): the shared argument
// readers raise plain ValueError, turned here into the module's error.
template <class F>
auto strict(F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const py::value_error& e) {
    throw Error(e.what());
  }
}

json shape_description(const py::handle& shape, const std::string& name) {
  if (const std::optional<Shape> s = convex_shape(shape)) return apps::shape_json(*s);
  if (py::isinstance<Bvh>(shape)) return apps::mesh_json(shape.cast<const Bvh&>().mesh());
  if (py::isinstance<TriangleMesh>(shape)) return apps::mesh_json(shape.cast<const TriangleMesh&>());
  type_error(name + ": expected a proxima shape (Sphere, Box, Capsule, ...), a TriangleMesh or a Bvh, got " +
             type_name(shape));
}

bool is_sequence(const py::handle& value) {
  return py::isinstance<py::sequence>(value) && !py::isinstance<py::str>(value) && !py::isinstance<py::bytes>(value);
}

VizPose pose_entry(const py::handle& value, const std::string& name) {
  VizPose p;
  p.given = true;
  if (value.is_none()) p.hidden = true;
  else p.pose = pose_arg(value, name, PoseCheck::strict);
  return p;
}

// poses: None, a dict {body name: pose or None}, or one entry per moving body.
std::vector<VizPose> poses_arg(const VizPage& page, const py::handle& value) {
  const std::vector<std::string>& names = page.body_names();
  std::vector<VizPose> poses(names.size());
  if (value.is_none()) return poses;
  if (py::isinstance<py::dict>(value)) {
    for (const auto& [key, pose] : py::reinterpret_borrow<py::dict>(value)) {
      if (!py::isinstance<py::str>(key)) type_error("poses: keys must be body names (str), got " + type_name(key));
      const std::string name = key.cast<std::string>();
      const int i = page.body_index(name);
      if (i < 0) throw Error("poses: no body named '" + name + "'");
      if (page.is_static(i)) throw Error("poses: body '" + name + "' is static and keeps its pose");
      poses[static_cast<std::size_t>(i)] = pose_entry(pose, "poses['" + name + "']");
    }
    return poses;
  }
  if (!is_sequence(value))
    type_error("poses: expected a dict {body name: pose} or a sequence of poses, got " + type_name(value));
  const py::sequence seq = py::reinterpret_borrow<py::sequence>(value);
  std::vector<std::size_t> moving;
  for (std::size_t i = 0; i < names.size(); ++i)
    if (!page.is_static(static_cast<int>(i))) moving.push_back(i);
  if (seq.size() != moving.size())
    throw Error("poses: " + std::to_string(seq.size()) + " entries for " + std::to_string(moving.size()) +
                " moving bodies (one per body that is not static, in body order)");
  for (std::size_t k = 0; k < moving.size(); ++k)
    poses[moving[k]] = pose_entry(seq[k], "poses[" + std::to_string(k) + "]");
  return poses;
}

double number_arg(const py::handle& value, const std::string& name) {
  if (py::isinstance<py::bool_>(value) || !(py::isinstance<py::float_>(value) || py::isinstance<py::int_>(value) ||
                                            py::hasattr(value, "__float__")))
    type_error(name + ": expected a number, got " + type_name(value));
  return value.cast<double>();
}

VizContact contact_entry(const py::handle& c, const std::string& name) {
  VizContact k;
  if (py::isinstance<py::dict>(c)) {
    // A dict as World.contacts() gives them; the other keys it has are allowed.
    static const char* const known[] = {"point", "normal", "depth", "a", "b", "normal_force", "friction_force"};
    const py::dict d = py::reinterpret_borrow<py::dict>(c);
    for (const auto& item : d) {
      const std::string key = py::str(item.first);
      bool ok = false;
      for (const char* k2 : known) ok = ok || key == k2;
      if (!ok) throw Error(name + ": unknown key '" + key + "' (expected point, normal, depth)");
    }
    for (const char* key : {"point", "normal", "depth"})
      if (!d.contains(key)) throw Error(name + ": missing '" + key + "'");
    k.point = vec3_arg(d["point"], name + ".point");
    k.normal = vec3_arg(d["normal"], name + ".normal");
    k.depth = number_arg(d["depth"], name + ".depth");
    return k;
  }
  const DoubleArray row = double_array(c, name);
  if (row.ndim() != 1 || row.shape(0) != 7)
    throw Error(name + ": expected a dict or 7 numbers [px, py, pz, nx, ny, nz, depth], got shape " +
                shape_string(row));
  k.point = {row.at(0), row.at(1), row.at(2)};
  k.normal = {row.at(3), row.at(4), row.at(5)};
  k.depth = row.at(6);
  return k;
}

// contacts: None, a ContactResult, or a sequence of dicts or 7-number rows.
std::vector<VizContact> contacts_arg(const py::handle& value) {
  std::vector<VizContact> out;
  if (value.is_none()) return out;
  if (py::isinstance<ContactAnswer>(value)) {
    for (const Contact& c : value.cast<const ContactAnswer&>().points) out.push_back({c.point, c.normal, c.depth});
    return out;
  }
  if (!is_sequence(value) && !py::isinstance<py::array>(value))
    type_error("contacts: expected a ContactResult, World.contacts() or rows of 7 numbers, got " + type_name(value));
  std::size_t k = 0;
  for (const py::handle c : value) out.push_back(contact_entry(c, "contacts[" + std::to_string(k++) + "]"));
  return out;
}

// segments: None, a DistanceResult (its witness points), or a sequence of
// 6 numbers or point pairs.
std::vector<VizSegment> segments_arg(const py::handle& value) {
  std::vector<VizSegment> out;
  if (value.is_none()) return out;
  if (py::isinstance<DistanceAnswer>(value)) {
    const auto& d = value.cast<const DistanceAnswer&>();
    out.push_back({d.point_a, d.point_b});
    return out;
  }
  if (!is_sequence(value) && !py::isinstance<py::array>(value))
    type_error("segments: expected a DistanceResult or a sequence of point pairs, got " + type_name(value));
  std::size_t k = 0;
  for (const py::handle s : value) {
    const std::string name = "segments[" + std::to_string(k++) + "]";
    const DoubleArray a = double_array(s, name);
    const bool flat = a.ndim() == 1 && a.shape(0) == 6, pair = a.ndim() == 2 && a.shape(0) == 2 && a.shape(1) == 3;
    if (!flat && !pair)
      throw Error(name + ": expected 6 numbers or two points (2, 3), got shape " + shape_string(a));
    const double* d = a.data();
    out.push_back({Vec3(d[0], d[1], d[2]), Vec3(d[3], d[4], d[5])});
  }
  return out;
}

// shapes: None, or a sequence with one shape per body replacing its
// own in this frame.
std::vector<json> frame_shapes_arg(const VizPage& page, const py::handle& value) {
  std::vector<json> out;
  if (value.is_none()) return out;
  const std::size_t n = page.body_names().size();
  if (!is_sequence(value)) type_error("shapes: expected one shape per body, got " + type_name(value));
  const py::sequence seq = py::reinterpret_borrow<py::sequence>(value);
  if (seq.size() != n)
    throw Error("shapes: " + std::to_string(seq.size()) + " entries for " + std::to_string(n) + " bodies");
  for (std::size_t i = 0; i < n; ++i)
    out.push_back(shape_description(seq[i], "shapes[" + std::to_string(i) + "]"));
  return out;
}

std::string short_number(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", x);
  return text;
}

// A query's frame: the two bodies 'a' and 'b' (made by the first query) with
// this query's shapes and poses, its witness segment or its contacts. Every
// argument is read before anything is added.
int add_query(VizPage& page, const py::object& a, const py::object& pose_a, const py::object& b,
              const py::object& pose_b, const py::object& result, const std::optional<std::string>& label) {
  VizFrame f;
  f.shapes = {shape_description(a, "a"), shape_description(b, "b")};
  f.poses = {VizPose{true, false, pose_arg(pose_a, "pose_a", PoseCheck::strict)},
             VizPose{true, false, pose_arg(pose_b, "pose_b", PoseCheck::strict)}};
  std::string text = label ? *label + ": " : std::string();
  // As `proxima query --html`: only answered queries are drawn.
  const auto answered = [](Status status) {
    if (!apps::drawn_status(to_string(status)))
      throw Error(std::string("result: status '") + to_string(status) +
                  "' has nothing to draw (ok, not_converged or upper_bound)");
  };
  if (result.is_none()) {
    text += "shapes";
  } else if (py::isinstance<CollideAnswer>(result)) {
    answered(result.cast<const CollideAnswer&>().status);
    text += result.cast<const CollideAnswer&>().collide ? "collide, colliding" : "collide, apart";
  } else if (py::isinstance<DistanceAnswer>(result)) {
    const auto& d = result.cast<const DistanceAnswer&>();
    answered(d.status);
    f.segments.push_back({d.point_a, d.point_b});
    text += "distance " + short_number(d.distance) + " m";
  } else if (py::isinstance<ContactAnswer>(result)) {
    const auto& c = result.cast<const ContactAnswer&>();
    answered(c.status);
    for (const Contact& k : c.points) f.contacts.push_back({k.point, k.normal, k.depth});
    text += "contacts, " + std::to_string(c.points.size()) + " points, distance " + short_number(c.distance) + " m";
  } else {
    type_error("result: expected a CollideResult, DistanceResult, ContactResult or None, got " + type_name(result));
  }
  f.label = text;
  f.time = page.last_time();
  const std::vector<std::string>& names = page.body_names();
  if (names.empty()) {
    // The page's first frame: a refused frame must not leave the bodies behind.
    VizPage trial = page;
    trial.add_body("a", f.shapes[0], Transform::identity(), false);
    trial.add_body("b", f.shapes[1], Transform::identity(), false);
    trial.add_frame(f);
    page = std::move(trial);
    return 0;
  }
  if (names != std::vector<std::string>{"a", "b"} || page.is_static(0) || page.is_static(1))
    throw Error("add_query: the page's bodies are not the query bodies 'a' and 'b' (use a page of queries only)");
  page.add_frame(f);
  return page.frames() - 1;
}

}  // namespace

void write_replay_page(const json& data, const std::filesystem::path& path) {
  apps::ReplayPageFile file(path.string(), "path");
  file.write(data);
}

namespace {

// The recorder of a World: SimReplay (the page of `proxima sim --html`)
// keeping every captured state; write() samples them as the command does.
struct Recorder {
  py::object world_object;  // keeps the World alive
  PyWorld* world = nullptr;
  std::size_t bodies = 0;
  std::unique_ptr<apps::SimReplay> replay;

  void capture() {
    std::lock_guard<std::mutex> lock(world->mutex);
    if (world->world.bodies().size() != bodies)
      throw Error("capture: the world has " + std::to_string(world->world.bodies().size()) +
                  " bodies, the recorder was made with " + std::to_string(bodies) +
                  " (make the Recorder after adding the bodies)");
    replay->observe(world->world);
  }

  // Frames 0, k, 2k, … and the last, k = ceil((n − 1) / (max_frames − 1)):
  // the command's rule with the captures as its steps.
  json data(int max_frames) const {
    if (max_frames < 2) throw Error("max_frames: must be at least 2 (got " + std::to_string(max_frames) + ")");
    json d = replay->data();
    const std::size_t n = d["frames"].size();
    const std::size_t budget = static_cast<std::size_t>(max_frames);
    if (n <= budget) return d;
    const std::size_t k = (n - 1 + budget - 2) / (budget - 1);
    std::vector<std::size_t> keep;
    for (std::size_t i = 0; i < n; i += k) keep.push_back(i);
    if (keep.back() != n - 1) keep.push_back(n - 1);
    json frames = json::array();
    for (std::size_t i : keep) frames.push_back(std::move(d["frames"][i]));
    d["frames"] = std::move(frames);
    for (json& t : d["timelines"]) {
      json values = json::array();
      for (std::size_t i : keep) values.push_back(t["values"][i]);
      t["values"] = std::move(values);
    }
    return d;
  }
};

}  // namespace

void bind_viz(py::module_& m) {
  py::module_ viz = m.def_submodule(
      "viz",
      "The 3-D replay page of `proxima sim/query/robot --html` (docs/viewer.md) from Python: Page (bodies, "
      "frames, contacts, segments, timelines), Page.add_query (query results), Recorder (a World as it steps), "
      "and to_meshcat (the same bodies and frames in a Meshcat viewer; meshcat is imported only there).");
  // `import proxima.viz` and `from proxima.viz import Page` find it.
  py::module_::import("sys").attr("modules")["proxima.viz"] = viz;

  py::class_<VizPage>(viz, "Page",
                      "A replay page built in Python: add the bodies, then the frames in time order, then any "
                      "timelines; to_json() gives the page's data, write(path) the HTML file.")
      .def(py::init<std::string>(), py::arg("title") = "Proxima replay")
      .def_property_readonly("title", &VizPage::title)
      .def_property_readonly("body_names", &VizPage::body_names, "The bodies' names, by index.")
      .def_property_readonly("frame_count", &VizPage::frames, "Frames added so far.")
      .def(
          "add_body",
          [](VizPage& page, const std::string& name, const py::object& shape, const py::object& pose,
             bool is_static) {
            return strict([&] {
              return page.add_body(name, shape_description(shape, "shape"), pose_arg(pose, "pose", PoseCheck::strict),
                                   is_static);
            });
          },
          py::arg("name"), py::arg("shape"), py::arg("pose") = py::none(), py::arg("static").noconvert() = false,
          "Adds a body (a convex shape, a TriangleMesh or a Bvh) at `pose` and returns its index. A static "
          "body stays at its pose; the others take the frames' poses. Bodies come before the first frame.")
      .def(
          "add_frame",
          [](VizPage& page, double time, const py::object& poses, const py::object& contacts,
             const py::object& segments, std::optional<long long> step, std::optional<std::string> label,
             const py::object& shapes) {
            return strict([&] {
              VizFrame f;
              f.time = time;
              f.step = step;
              f.label = std::move(label);
              if (page.body_names().empty()) throw Error("add_frame: the page has no body; add the bodies first");
              f.poses = poses_arg(page, poses);
              f.contacts = contacts_arg(contacts);
              f.segments = segments_arg(segments);
              f.shapes = frame_shapes_arg(page, shapes);
              page.add_frame(f);
              return page.frames() - 1;
            });
          },
          py::arg("time"), py::arg("poses") = py::none(), py::arg("contacts") = py::none(),
          py::arg("segments") = py::none(), py::kw_only(), py::arg("step") = py::none(),
          py::arg("label") = py::none(), py::arg("shapes") = py::none(),
          "Adds a frame at `time` (s, not before the frame before's) and returns its index. poses: a dict "
          "{body name: pose} (bodies left out keep the frame before's pose) or one pose per moving body in "
          "body order; None hides a body. contacts: a ContactResult, World.contacts(), or rows [px, py, pz, "
          "nx, ny, nz, depth] (unit normals, B to A). segments: a DistanceResult (its witness points) or point "
          "pairs. step: the frame's number (default: the frame before's + 1). label: text shown for the frame. "
          "shapes: one shape per body drawn in this frame instead of its own.")
      .def(
          "add_timeline",
          [](VizPage& page, const std::string& name, const std::string& unit, const py::object& values,
             std::optional<std::vector<std::string>> labels) {
            strict([&] {
              const DoubleArray a = double_array(values, "values");
              if (a.ndim() != 1) throw Error("add_timeline: values: expected one number per frame, got shape " +
                                             shape_string(a));
              page.add_timeline(name, unit, std::vector<double>(a.data(), a.data() + a.shape(0)), std::move(labels));
            });
          },
          py::arg("name"), py::arg("unit"), py::arg("values"), py::arg("labels") = py::none(),
          "A per-frame series (one value per frame when the page is written), plotted under the controls. "
          "labels: names of the values 0, 1, ... (the values are then indices into it).")
      .def(
          "add_query",
          [](VizPage& page, const py::object& a, const py::object& pose_a, const py::object& b,
             const py::object& pose_b, const py::object& result, std::optional<std::string> label) {
            return strict([&] { return add_query(page, a, pose_a, b, pose_b, result, label); });
          },
          py::arg("a"), py::arg("pose_a"), py::arg("b"), py::arg("pose_b"), py::arg("result") = py::none(),
          py::kw_only(), py::arg("label") = py::none(),
          "Adds a frame drawing a query, as `proxima query --html` does: shapes a and b at their poses and the "
          "result's witness segment (DistanceResult) or contact points (ContactResult). The first query makes "
          "the page's bodies 'a' and 'b'; a page of queries holds no other bodies. Returns the frame's index.")
      .def(
          "to_json", [](const VizPage& page) { return page.data().dump(); },
          "The page's data object as JSON text (docs/viewer.md, 'What the page holds').")
      .def(
          "write", [](const VizPage& page, const std::filesystem::path& path) { write_replay_page(page.data(), path); },
          py::arg("path"), "Writes the page (one HTML file with three.js from libjs-three inlined).")
      .def("__repr__", [](const VizPage& page) {
        return "<proxima.viz.Page '" + page.title() + "': " + std::to_string(page.body_names().size()) +
               " bodies, " + std::to_string(page.frames()) + " frames>";
      });

  py::class_<Recorder>(viz, "Recorder",
                       "Records a World for the replay page of `proxima sim --html`: the state when made (frame "
                       "0), then one frame per capture() (call it after each step); write() keeps at most "
                       "max_frames of them as the command does. Each capture keeps the bodies' poses and the "
                       "step's contacts (the deepest max_contacts) in memory.")
      .def(py::init([](const py::object& world, std::optional<std::string> title, int max_contacts) {
             if (!py::isinstance<PyWorld>(world))
               type_error("world: expected a proxima.World, got " + type_name(world));
             if (max_contacts < 0)
               throw Error("max_contacts: must be >= 0 (got " + std::to_string(max_contacts) + ")");
             auto r = std::make_unique<Recorder>();
             r->world_object = world;
             r->world = &world.cast<PyWorld&>();
             std::lock_guard<std::mutex> lock(r->world->mutex);
             r->bodies = r->world->world.bodies().size();
             if (r->bodies == 0) throw Error("world: has no body to record");
             // Two frames' budget over no steps: a stride of 1, every capture kept.
             r->replay = std::make_unique<apps::SimReplay>(r->world->world, title.value_or(r->world->name), 0, 2,
                                                           max_contacts);
             return r;
           }),
           py::arg("world"), py::arg("title") = py::none(), py::arg("max_contacts") = apps::kDefaultContactBudget)
      .def("capture", &Recorder::capture, "Records the world's state now: poses, contacts, energies.")
      .def_property_readonly(
          "frame_count", [](const Recorder& r) { return r.replay->frames(); }, "Frames recorded so far.")
      .def(
          "to_json", [](const Recorder& r, int max_frames) { return r.data(max_frames).dump(); },
          py::arg("max_frames") = apps::kDefaultFrameBudget, "The page's data object as JSON text.")
      .def(
          "write",
          [](const Recorder& r, const std::filesystem::path& path, int max_frames) {
            write_replay_page(r.data(max_frames), path);
          },
          py::arg("path"), py::arg("max_frames") = apps::kDefaultFrameBudget,
          "Writes the page: frames 0, k, 2k, ... and the last, k = ceil((n - 1) / (max_frames - 1)) of n.")
      .def("__repr__", [](const Recorder& r) {
        return "<proxima.viz.Recorder of '" + r.world->name + "': " + std::to_string(r.replay->frames()) + " frames>";
      });

  bind_viz_robot(viz);
  define_to_meshcat(viz, m.attr("Error"));
}

}  // namespace proxima::python
