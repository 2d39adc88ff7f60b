// SPDX-License-Identifier: BSD-3-Clause
// `proxima sim SCENE --html PAGE`: the run's frames, collected through
// run_scene's step observer, for the replay page (replay_page.hpp).
#pragma once

#include <nlohmann/json.hpp>

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

  /// Call after every step (StepObserver).
  void observe(const sim::World& world);

  int stride() const { return stride_; }
  int frames() const { return static_cast<int>(frames_.size()); }
  /// The page's data object.
  nlohmann::json data() const;

 private:
  void record(const sim::World& world);

  nlohmann::json head_;  // title, shapes, bodies
  nlohmann::json frames_ = nlohmann::json::array();
  std::vector<double> kinetic_, potential_, contacts_;
  int steps_ = 0, stride_ = 1, step_ = 0, contact_budget_ = 0;
};

}  // namespace proxima::apps
