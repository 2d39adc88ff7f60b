// SPDX-License-Identifier: BSD-3-Clause
// `proxima sim SCENE --html PAGE`: the run's frames, collected through
// run_scene's step observer, for the replay page (replay_page.hpp). With a
// robot each collision element of its links is one more moving body of the
// page, posed by the links' forward kinematics every frame.
#pragma once

#include <nlohmann/json.hpp>

#include <proxima/robot/link_geometry.hpp>
#include <proxima/robot/robot_world.hpp>
#include <proxima/sim/world.hpp>

namespace proxima::apps {

/// At most this many frames by default: a 60 s run at 1 ms keeps every
/// 100th step, a page of a few MB at most.
inline constexpr int kDefaultFrameBudget = 600;
/// At most this many contacts per frame are stored (the deepest first);
/// the frame's "contacts_total" says how many there were.
inline constexpr int kDefaultContactBudget = 256;

class SimReplay {
 public:
  /// Records the world's state now as frame 0 (step 0), and every step
  /// afterwards whose number is a multiple of ceil(steps / (budget − 1)),
  /// and always the last (`steps`). Throws proxima::Error for budget < 2.
  SimReplay(const sim::World& world, const std::string& title, int steps, int frame_budget = kDefaultFrameBudget,
            int contact_budget = kDefaultContactBudget);

  /// The same for a robot among the world's bodies: the bodies, then every
  /// collision element of `geometry`'s links (named "robot/link"), its
  /// contacts those of robot::RobotWorld, its energies the robot's and the
  /// bodies'. `geometry` must be the robot of `rw`.
  SimReplay(const robot::RobotWorld& rw, const robot::RobotGeometry& geometry, const std::string& title, int steps,
            int frame_budget = kDefaultFrameBudget, int contact_budget = kDefaultContactBudget);

  /// Call after every step (StepObserver), or with the robot world after
  /// every step of a replay made with it.
  void observe(const sim::World& world);
  void observe(const robot::RobotWorld& rw);

  int stride() const { return stride_; }
  int frames() const { return static_cast<int>(frames_.size()); }
  /// The page's data object.
  nlohmann::json data() const;

 private:
  // One collision element of a robot link: its link and pose on it.
  struct LinkPart {
    int link = 0;
    Transform origin;
  };

  void start(const sim::World& world, const std::string& title, int frame_budget, int contact_budget,
             const robot::RobotGeometry* geometry);
  void record(const sim::World& world);
  void record(const robot::RobotWorld& rw);
  // A contact to draw: point, normal, depth.
  struct FrameContact {
    Vec3 point, normal;
    double depth = 0.0;
  };
  // Keeps the deepest contact_budget_ of `all` and appends the frame.
  void add_frame(nlohmann::json poses, const std::vector<FrameContact>& all, double time, double kinetic,
                 double potential);

  nlohmann::json head_;  // title, shapes, bodies
  nlohmann::json frames_ = nlohmann::json::array();
  std::vector<double> kinetic_, potential_, contacts_;
  std::vector<LinkPart> parts_;
  int steps_ = 0, stride_ = 1, step_ = 0, contact_budget_ = 0;
};

}  // namespace proxima::apps
