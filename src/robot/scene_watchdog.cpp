#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <variant>
#include <vector>

#include <proxima/query.hpp>
#include <proxima/robot/kinematics.hpp>
#include <proxima/robot/scene_watchdog.hpp>

namespace proxima::robot {
namespace {

// The checker's distances are 0 for any overlap. Where a channel reads 0,
// the depth: the most negative signed distance over its overlapping convex
// pairs (a mesh kept as triangles has no inside, and stays at 0), so that
// a robot inside an obstacle reads how deep, and pushing deeper is
// approaching. NaN when a pair's depth cannot be computed.
double signed_overlap(const DistanceResult& r, double deepest) {
  if (r.status != Status::ok) return std::numeric_limits<double>::quiet_NaN();
  return std::min(deepest, r.distance);
}

double environment_depth(const SceneChecker& checker, const RobotState& s, const PreparedEnvironment& env) {
  const auto& links = checker.geometry().links();
  double deepest = 0.0;
  for (std::size_t l = 0; l < links.size(); ++l) {
    for (std::size_t k = s.shape_begin[l]; k < s.shape_begin[l + 1]; ++k) {
      const Shape* a = links[l].shapes[k - s.shape_begin[l]].shape();
      if (a == nullptr) continue;
      for (const EnvironmentObject& o : env.objects()) {
        const Shape* b = std::get_if<Shape>(&o.geometry);
        if (b == nullptr) continue;
        if (std::find(o.touch_links.begin(), o.touch_links.end(), checker.model().link(static_cast<int>(l)).name) !=
            o.touch_links.end())
          continue;
        if (!s.shape_boxes[k].overlaps(b->world_aabb(o.pose))) continue;
        deepest = signed_overlap(signed_distance(*a, s.shape_poses[k], *b, o.pose), deepest);
        if (std::isnan(deepest)) return deepest;
      }
    }
  }
  return deepest;
}

double self_depth(const SceneChecker& checker, const RobotState& s) {
  const auto& links = checker.geometry().links();
  double deepest = 0.0;
  for (const auto& [la, lb] : checker.self_pairs()) {
    const auto a_link = static_cast<std::size_t>(la), b_link = static_cast<std::size_t>(lb);
    for (std::size_t i = s.shape_begin[a_link]; i < s.shape_begin[a_link + 1]; ++i) {
      const Shape* a = links[a_link].shapes[i - s.shape_begin[a_link]].shape();
      if (a == nullptr) continue;
      for (std::size_t j = s.shape_begin[b_link]; j < s.shape_begin[b_link + 1]; ++j) {
        const Shape* b = links[b_link].shapes[j - s.shape_begin[b_link]].shape();
        if (b == nullptr || !s.shape_boxes[i].overlaps(s.shape_boxes[j])) continue;
        deepest = signed_overlap(signed_distance(*a, s.shape_poses[i], *b, s.shape_poses[j]), deepest);
        if (std::isnan(deepest)) return deepest;
      }
    }
  }
  return deepest;
}

}  // namespace

SceneClearances scene_clearances(const SceneChecker& checker, const Environment& env,
                                 const SceneClearanceOptions& options) {
  SceneClearances out;
  if (options.self) out.names.push_back("self");
  // One environment per channel, objects in their order, a group where its
  // first object is; prepared once, as the watchdog asks them again and
  // again (a point cloud's thousands of cubes are one channel).
  std::vector<Environment> members;
  if (options.environment) {
    std::unordered_map<std::string, std::size_t> channel_of_group;
    for (const EnvironmentObject& o : env.objects) {
      if (!o.group.empty()) {
        const auto [it, added] = channel_of_group.try_emplace(o.group, members.size());
        if (!added) {
          members[it->second].objects.push_back(o);
          out.object_channel.push_back(it->second + (options.self ? 1 : 0));
          continue;
        }
      }
      out.object_channel.push_back(out.names.size());
      out.names.push_back(o.group.empty() ? o.name : o.group);
      members.push_back(Environment{{o}});
    }
  }
  // A watchdog's report names the channel that approached: two of one name
  // would leave the operator guessing which object it was.
  std::unordered_set<std::string_view> seen;
  for (const std::string& n : out.names)
    if (!seen.insert(n).second)
      throw Error("scene_clearances: two channels are named '" + n +
                  "' (object names, group names and \"self\" must differ)");
  auto prepared = std::make_shared<std::vector<PreparedEnvironment>>();
  for (Environment& m : members) prepared->emplace_back(std::move(m));
  out.channels = out.names.size();
  out.fn = [&checker, prepared = std::shared_ptr<const std::vector<PreparedEnvironment>>(std::move(prepared)),
            options](std::span<const double> q, std::span<double> d) {
    std::fill(d.begin(), d.end(), std::numeric_limits<double>::quiet_NaN());
    const RobotState s = checker.state(q, options.base);
    if (s.status != Status::ok) return;
    std::size_t c = 0;
    if (options.self) {
      const DistanceReport r = checker.self_distance(s);
      if (r.status != Status::ok) return;
      d[c++] = r.distance > 0.0 ? r.distance : self_depth(checker, s);
    }
    for (const PreparedEnvironment& one : *prepared) {
      const DistanceReport r = checker.environment_distance(s, one);
      d[c++] = r.status != Status::ok ? std::numeric_limits<double>::quiet_NaN()
               : r.distance > 0.0     ? r.distance
                                      : environment_depth(checker, s, one);
    }
  };
  return out;
}

ClearanceFn scene_clearance(const SceneChecker& checker, const Environment& env, const SceneClearanceOptions& options) {
  // The smallest of the channels: the same narrow-phase calls, one minimum.
  return [channels = scene_clearances(checker, env, options)](std::span<const double> q) {
    std::vector<double> d(channels.channels);
    channels.fn(q, d);
    double smallest = std::numeric_limits<double>::infinity();
    for (const double x : d) {
      if (std::isnan(x)) return x;
      smallest = std::min(smallest, x);
    }
    return smallest;
  };
}

SegmentCheckFn scene_segment_check(const SceneChecker& checker, const Environment& env, const SceneClearances& channels,
                                   const SceneClearanceOptions& options) {
  if (options.environment && channels.object_channel.size() != env.objects.size())
    throw Error("scene_segment_check: the channels were made for another environment (" +
                std::to_string(channels.object_channel.size()) + " objects, not " + std::to_string(env.objects.size()) +
                ")");
  auto prepared = std::make_shared<const PreparedEnvironment>(options.environment ? env : Environment{});
  return [&checker, prepared, object_channel = channels.object_channel, options](
             std::span<const double> q0, std::span<const double> q1, double clearance) {
    MotionCheckOptions mo;
    mo.clearance = clearance;
    mo.self = options.self;
    const MotionCheck m = checker.check_motion(q0, q1, *prepared, mo, options.base);
    SegmentCrossing out;
    if (m.status == Status::invalid_input) {
      out.status = m.status;
      out.message = m.message;
      return out;
    }
    if (!m.collide) return out;
    out.found = true;
    out.s = m.s;
    out.distance = m.distance;
    out.channel = m.self ? 0 : object_channel.at(static_cast<std::size_t>(m.pair.other));
    return out;
  };
}

ToolKinematics link_kinematics(const RobotModel& model, std::string_view link, const Transform& base) {
  const int index = model.link_index(link);
  if (index < 0) throw Error("link_kinematics: robot '" + model.name() + "' has no link '" + std::string(link) + "'");
  return [&model, index, base](std::span<const double> q) {
    return forward_kinematics(model, q, base)[static_cast<std::size_t>(index)];
  };
}

}  // namespace proxima::robot
