// SPDX-License-Identifier: BSD-3-Clause
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

#include <proxima/broad/box_tree.hpp>
#include <proxima/query.hpp>
#include <proxima/robot/kinematics.hpp>
#include <proxima/robot/scene_watchdog.hpp>

#include "pair_query.hpp"

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

// One pair of the robot's own links: its distance, exact when below
// `exact_within`, else a lower bound beyond it (the watchdog needs exact
// values only within its warn distance; most pairs of an arm are farther
// apart and cost a box test). Where the links overlap, minus the deepest
// penetration of their convex pairs.
double self_pair_clearance(const SceneChecker& checker, const RobotState& s, std::size_t la, std::size_t lb,
                           double exact_within) {
  const auto& links = checker.geometry().links();
  double d = std::numeric_limits<double>::infinity();  // exact, below exact_within
  double beyond = d;                                     // a lower bound, ≥ exact_within
  for (std::size_t i = s.shape_begin[la]; i < s.shape_begin[la + 1]; ++i) {
    for (std::size_t j = s.shape_begin[lb]; j < s.shape_begin[lb + 1]; ++j) {
      const double gap = broad::box_gap(s.shape_boxes[i], s.shape_boxes[j]);
      const double bound = std::min(d, exact_within);
      if (gap >= bound) {
        beyond = std::min(beyond, gap);
        continue;
      }
      const detail::PairDistance r =
          detail::distance_pair(links[la].shapes[i - s.shape_begin[la]].geometry, s.shape_poses[i],
                                links[lb].shapes[j - s.shape_begin[lb]].geometry, s.shape_poses[j], bound);
      if (r.status != Status::ok) return std::numeric_limits<double>::quiet_NaN();
      if (r.distance < d) d = r.distance;
      else beyond = std::min(beyond, bound);  // proven farther than the bound
    }
  }
  // d is exact below exact_within: every shape pair left out was at least
  // as far. Beyond it, a pair left out at exact_within (beyond ≥ it) may be
  // nearer than d, so only the smaller of the two is a lower bound.
  if (d > 0.0) return d < exact_within ? d : std::min(d, beyond);
  double deepest = 0.0;
  for (std::size_t i = s.shape_begin[la]; i < s.shape_begin[la + 1]; ++i) {
    const Shape* a = links[la].shapes[i - s.shape_begin[la]].shape();
    if (a == nullptr) continue;
    for (std::size_t j = s.shape_begin[lb]; j < s.shape_begin[lb + 1]; ++j) {
      const Shape* b = links[lb].shapes[j - s.shape_begin[lb]].shape();
      if (b == nullptr || !s.shape_boxes[i].overlaps(s.shape_boxes[j])) continue;
      deepest = signed_overlap(signed_distance(*a, s.shape_poses[i], *b, s.shape_poses[j]), deepest);
      if (std::isnan(deepest)) return deepest;
    }
  }
  return deepest;
}

}  // namespace

SceneClearances scene_clearances(const SceneChecker& checker, const Environment& env,
                                 const SceneClearanceOptions& options) {
  SceneClearances out;
  if (!(options.exact_within > 0.0)) throw Error("scene_clearances: exact_within must be positive");
  if (options.self) {
    for (const auto& [a, b] : checker.self_pairs()) {
      out.names.push_back(checker.model().link(a).name + "/" + checker.model().link(b).name);
      out.self_pair.push_back(true);
    }
  }
  // One environment per channel, objects in their order, a group where its
  // first object is; prepared once, as the watchdog asks them again and
  // again (a point cloud's thousands of cubes are one channel).
  std::vector<Environment> members;
  if (options.environment) {
    const std::size_t first_object_channel = out.names.size();
    std::unordered_map<std::string, std::size_t> channel_of_group;
    for (const EnvironmentObject& o : env.objects) {
      if (!o.group.empty()) {
        const auto [it, added] = channel_of_group.try_emplace(o.group, members.size());
        if (!added) {
          members[it->second].objects.push_back(o);
          out.object_channel.push_back(first_object_channel + it->second);
          continue;
        }
      }
      out.object_channel.push_back(out.names.size());
      out.names.push_back(o.group.empty() ? o.name : o.group);
      out.self_pair.push_back(false);
      members.push_back(Environment{{o}});
    }
  }
  // A watchdog's report names the channel that approached: two of one name
  // would leave the operator guessing which object it was.
  std::unordered_set<std::string_view> seen;
  for (const std::string& n : out.names)
    if (!seen.insert(n).second)
      throw Error("scene_clearances: two channels are named '" + n +
                  "' (object names, group names and the robot's link pairs \"link/link\" must differ)");
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
      for (const auto& [a, b] : checker.self_pairs()) {
        d[c++] = self_pair_clearance(checker, s, static_cast<std::size_t>(a), static_cast<std::size_t>(b),
                                     options.exact_within);
      }
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

std::vector<ChannelThresholds> scene_thresholds(const SceneClearances& channels, const WatchdogOptions& defaults,
                                                const std::vector<ThresholdsFor>& given) {
  // Each name a channel answers to: its own, and a pair's in both orders.
  std::unordered_map<std::string, std::size_t> index;
  for (std::size_t c = 0; c < channels.channels; ++c) {
    index.emplace(channels.names[c], c);
    const std::string& n = channels.names[c];
    if (const auto slash = n.find('/'); channels.self_pair[c] && slash != std::string::npos)
      index.emplace(n.substr(slash + 1) + "/" + n.substr(0, slash), c);
  }
  const ChannelThresholds base{defaults.stop_distance, defaults.slow_distance, defaults.warn_distance, false};
  std::vector<ChannelThresholds> out(channels.channels, base);
  for (std::size_t c = 0; c < channels.channels; ++c) out[c].rests_close = channels.self_pair[c];
  const auto apply = [](ChannelThresholds& t, const ThresholdsFor& g) {
    if (g.stop_distance) t.stop_distance = *g.stop_distance;
    if (g.slow_distance) t.slow_distance = *g.slow_distance;
    if (g.warn_distance) t.warn_distance = *g.warn_distance;
    t.rests_close = false;  // given distances are taken as they are
  };
  std::unordered_set<std::string_view> seen;
  std::vector<bool> own(channels.channels, false);
  // "self" first, so that a pair's own entry overrides it field by field.
  for (const bool self_entry : {true, false}) {
    for (const ThresholdsFor& g : given) {
      if ((g.name == "self") != self_entry) continue;
      const std::string why = "thresholds for '" + g.name + "': ";
      if (!seen.insert(g.name).second) throw Error(why + "given twice");
      if (!g.stop_distance && !g.slow_distance && !g.warn_distance) throw Error(why + "no distance given");
      if (self_entry) {
        bool any = false;
        for (std::size_t c = 0; c < channels.channels; ++c)
          if (channels.self_pair[c]) apply(out[c], g), any = true;
        if (!any) throw Error(why + "the robot has no pair of links to watch");
        continue;
      }
      const auto it = index.find(g.name);
      if (it == index.end())
        throw Error(why + "no channel is named so (objects, groups, \"link_a/link_b\" pairs, or \"self\")");
      if (own[it->second]) throw Error(why + "given twice (as '" + channels.names[it->second] + "')");
      own[it->second] = true;
      apply(out[it->second], g);
    }
  }
  for (std::size_t c = 0; c < channels.channels; ++c) {
    const ChannelThresholds& t = out[c];
    try {
      stop_band(t, defaults);
    } catch (const Error& e) {
      throw Error("thresholds for channel '" + channels.names[c] + "': " + e.what());
    }
  }
  return out;
}

double largest_warn_distance(const WatchdogOptions& defaults, const std::vector<ThresholdsFor>& given) {
  double w = defaults.warn_distance;
  for (const ThresholdsFor& g : given)
    if (g.warn_distance && std::isfinite(*g.warn_distance)) w = std::max(w, *g.warn_distance);
  return w;
}

FeedLimits feed_limits(const RobotModel& model, const FeedLimitOptions& options) {
  const auto check = [](double x, const char* name) {
    if (!(std::isfinite(x) && x >= 0.0))
      throw Error(std::string("feed_limits: ") + name + " " + std::to_string(x) + " must be finite and >= 0");
  };
  check(options.angle_tolerance, "angle_tolerance");
  check(options.length_tolerance, "length_tolerance");
  if (!(std::isfinite(options.speed_tolerance) && options.speed_tolerance >= 1.0))
    throw Error("feed_limits: speed_tolerance " + std::to_string(options.speed_tolerance) + " must be finite and >= 1");
  FeedLimits l;
  l.speed_tolerance = options.speed_tolerance;
  for (std::size_t i = 0; i < model.variable_count(); ++i) {
    const Joint& j = model.joint(model.variable_joint(i));
    l.lower.push_back(j.lower);
    l.upper.push_back(j.upper);
    l.tolerance.push_back(j.type == JointType::prismatic ? options.length_tolerance : options.angle_tolerance);
    l.velocity.push_back(j.velocity);
  }
  return l;
}

SegmentCheckFn scene_segment_check(const SceneChecker& checker, const Environment& env, const SceneClearances& channels,
                                   const SceneClearanceOptions& options) {
  if (options.environment && channels.object_channel.size() != env.objects.size())
    throw Error("scene_segment_check: the channels were made for another environment (" +
                std::to_string(channels.object_channel.size()) + " objects, not " + std::to_string(env.objects.size()) +
                ")");
  auto prepared = std::make_shared<const PreparedEnvironment>(options.environment ? env : Environment{});
  return [&checker, prepared, object_channel = channels.object_channel, base = options.base](
             std::span<const double> q0, std::span<const double> q1, double clearance) {
    MotionCheckOptions mo;
    mo.clearance = clearance;
    mo.self = false;
    const MotionCheck m = checker.check_motion(q0, q1, *prepared, mo, base);
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
    out.channel = object_channel.at(static_cast<std::size_t>(m.pair.other));
    return out;
  };
}

SceneClearances watched_channels(const SceneChecker& checker, const Environment& env, WatchdogOptions& options,
                                 const std::vector<ThresholdsFor>& given, SceneClearanceOptions clearance_options) {
  clearance_options.exact_within = largest_warn_distance(options, given);
  SceneClearances channels = scene_clearances(checker, env, clearance_options);
  options.channels = scene_thresholds(channels, options, given);
  return channels;
}

ToolKinematics link_kinematics(const RobotModel& model, std::string_view link, const Transform& base) {
  const int index = model.link_index(link);
  if (index < 0) throw Error("link_kinematics: robot '" + model.name() + "' has no link '" + std::string(link) + "'");
  return [&model, index, base](std::span<const double> q) {
    return forward_kinematics(model, q, base)[static_cast<std::size_t>(index)];
  };
}

}  // namespace proxima::robot
