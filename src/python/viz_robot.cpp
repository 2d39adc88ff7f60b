// SPDX-License-Identifier: BSD-3-Clause
// proxima.viz.RobotPage: the robot page of `proxima robot --html`
// (src/apps/robot_page.hpp) from Python: a SceneChecker at joint vectors,
// its links coloured by their clearance to what the checker measures them
// against (link_clearance.hpp), among the checker's environment.
#include <cmath>
#include <filesystem>
#include <limits>
#include <memory>
#include <optional>
#include <string>

#include <pybind11/stl/filesystem.h>

#include <proxima/core/error.hpp>

#include "../apps/link_clearance.hpp"
#include "../apps/robot_page.hpp"
#include "convert.hpp"
#include "scene.hpp"

namespace proxima::python {

void write_replay_page(const nlohmann::json& data, const std::filesystem::path& path);  // viz.cpp

namespace {

struct RobotPage {
  std::shared_ptr<const robot::SceneChecker> checker;  // LinkClearance holds it by reference
  std::shared_ptr<robot::Environment> environment;     // the checker's at construction (Python may add to it)
  std::unique_ptr<apps::LinkClearance> clearance;
  std::unique_ptr<apps::RobotReplay> replay;
  double last_time = 0.0;
};

}  // namespace

void bind_viz_robot(py::module_& viz) {
  py::class_<RobotPage>(viz, "RobotPage",
                        "The robot page of `proxima robot --html`: one frame per add(q), the checker's links at q "
                        "coloured by their clearance (red at `near` and below, green from `far` on, m) and the "
                        "closest pair's witness segment, among the checker's environment.")
      .def(py::init([](const Scene& scene, std::optional<std::string> title, double near, double far) {
             auto p = std::make_unique<RobotPage>();
             p->checker = scene.checker;
             p->environment = scene.environment;
             p->clearance = std::make_unique<apps::LinkClearance>(*p->checker);
             if (!(std::isfinite(near) && std::isfinite(far) && near < far))
               throw Error("near, far: the clearance scale needs finite ends with near < far (got " + repr(near) +
                           ", " + repr(far) + ")");
             p->replay = std::make_unique<apps::RobotReplay>(title.value_or(p->checker->model().name()),
                                                             apps::ClearanceScale{near, far});
             return p;
           }),
           py::arg("checker"), py::arg("title") = py::none(), py::arg("near") = 0.0, py::arg("far") = 0.2)
      .def(
          "add",
          [](RobotPage& p, const py::object& q, const py::object& base, std::optional<std::string> label,
             std::optional<double> time) {
            const DoubleArray a = [&] {
              try {
                return joints_arg(p.checker->model(), q);
              } catch (const py::value_error& e) {
                throw Error(e.what());
              }
            }();
            Transform base_pose;
            try {
              base_pose = pose_arg(base, "base", PoseCheck::strict);
            } catch (const py::value_error& e) {
              throw Error(e.what());
            }
            for (py::ssize_t i = 0; i < a.size(); ++i)
              if (!std::isfinite(a.data()[i])) throw Error("q[" + std::to_string(i) + "]: must be finite");
            const double t = time.value_or(p.last_time);
            if (!std::isfinite(t)) throw Error("time: must be finite");
            if (t < p.last_time)
              throw Error("time: " + repr(t) + " is before the frame before's " + repr(p.last_time));
            const robot::RobotState s = p.checker->state(
                std::span<const double>(a.data(), static_cast<std::size_t>(a.size())), base_pose);
            if (s.status != Status::ok) throw Error("q: " + s.message);
            nlohmann::json frame{{"step", p.replay->frames()}, {"time", t}};
            if (label) frame["label"] = *label;
            const apps::LinkClearances c = p.replay->add(*p.clearance, s, *p.environment, std::move(frame));
            p.last_time = t;
            py::dict out;
            const std::vector<robot::Link>& links = p.checker->model().links();
            for (std::size_t l = 0; l < links.size(); ++l)
              if (!p.checker->geometry().links()[l].shapes.empty()) out[py::str(links[l].name)] = c.per_link[l];
            return out;
          },
          py::arg("q"), py::arg("base") = py::none(), py::kw_only(), py::arg("label") = py::none(),
          py::arg("time") = py::none(),
          "Adds the frame of joint vector q (and base pose) and returns each drawn link's clearance, m (inf when "
          "nothing is measured against it). time: s, not before the frame before's (default: its time).")
      .def_property_readonly(
          "frame_count", [](const RobotPage& p) { return p.replay->frames(); }, "Frames added so far.")
      .def(
          "to_json", [](const RobotPage& p) { return p.replay->data().dump(); }, "The page's data object as JSON text.")
      .def(
          "write",
          [](const RobotPage& p, const std::filesystem::path& path) { write_replay_page(p.replay->data(), path); },
          py::arg("path"), "Writes the page (one HTML file with three.js from libjs-three inlined).");
}

}  // namespace proxima::python
