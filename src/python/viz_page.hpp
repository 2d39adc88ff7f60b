// SPDX-License-Identifier: BSD-3-Clause
// The replay page (src/apps/replay_page.hpp, docs/viewer.md) built piece by
// piece, as proxima.viz.Page does from Python: bodies, then frames in time
// order, then timelines. Every piece is checked where it enters; a refusal
// throws proxima::Error naming the argument and the reason. The page's text
// comes from the command's writer (shape_json, pose_array, ShapeTable,
// replay_page_html), so both write the same page.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <proxima/core/transform.hpp>

#include "../apps/replay_page.hpp"

namespace proxima::python {

/// One contact marker: the point, the normal (B to A, unit) and the depth.
struct VizContact {
  Vec3 point = Vec3::Zero();
  Vec3 normal = Vec3::UnitZ();
  double depth = 0.0;
};

/// A segment between two points (a witness pair).
struct VizSegment {
  Vec3 a = Vec3::Zero();
  Vec3 b = Vec3::Zero();
};

/// A body's pose in one frame: absent keeps the frame before's (the body's
/// own pose for the first frame), `hidden` hides the body in this frame.
struct VizPose {
  bool given = false;
  bool hidden = false;
  Transform pose;
};

struct VizFrame {
  double time = 0.0;
  std::optional<long long> step;
  std::optional<std::string> label;
  std::vector<VizPose> poses;  ///< one per body (static ones not given)
  /// Empty, or per body the description (shape_json, mesh_json) of the
  /// shape drawn in this frame instead of its own.
  std::vector<nlohmann::json> shapes;
  std::vector<VizContact> contacts;
  std::vector<VizSegment> segments;
};

class VizPage {
 public:
  explicit VizPage(std::string title);

  /// Adds a body drawn as `shape` (a shape_json or mesh_json description;
  /// the page stores each distinct one once) and returns its index. Bodies
  /// come before any frame. Nothing is added when it throws.
  int add_body(const std::string& name, nlohmann::json shape, const Transform& pose, bool is_static);
  /// Adds a frame; its time must not be earlier than the frame before's, its
  /// step (the frame's number by default) greater than that frame's.
  /// Nothing is added when it throws.
  void add_frame(const VizFrame& frame);
  /// A per-frame series shown beside the frame line; checked against the
  /// number of frames when the page is made.
  void add_timeline(const std::string& name, const std::string& unit, std::vector<double> values,
                    std::optional<std::vector<std::string>> labels);

  int body_index(const std::string& name) const;  ///< −1 when there is none
  const std::vector<std::string>& body_names() const { return names_; }
  bool is_static(int body) const { return static_[static_cast<std::size_t>(body)]; }
  int frames() const { return static_cast<int>(frames_.size()); }
  /// The last frame's time (0 before the first frame).
  double last_time() const { return frames_.empty() ? 0.0 : last_time_; }
  int shapes() const { return static_cast<int>(shapes_.shapes().size()); }
  const std::string& title() const { return title_; }

  /// The page's data object (throws when a timeline's length is not the
  /// number of frames, or the page has no body).
  nlohmann::json data() const;

 private:
  std::string title_;
  apps::ShapeTable shapes_;
  std::vector<std::string> names_;
  std::vector<int> body_shapes_;
  std::vector<bool> static_;
  std::vector<nlohmann::json> first_poses_;
  std::vector<nlohmann::json> last_poses_;  // each dynamic body's pose in the last frame (null: hidden)
  nlohmann::json frames_ = nlohmann::json::array();
  double last_time_ = 0.0;
  long long last_step_ = -1;
  nlohmann::json timelines_ = nlohmann::json::array();
};

}  // namespace proxima::python
