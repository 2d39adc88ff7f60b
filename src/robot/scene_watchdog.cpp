#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <proxima/robot/kinematics.hpp>
#include <proxima/robot/scene_watchdog.hpp>

namespace proxima::robot {

SceneClearances scene_clearances(const SceneChecker& checker, const Environment& env,
                                 const SceneClearanceOptions& options) {
  std::vector<Environment> objects;
  if (options.environment) {
    for (const EnvironmentObject& o : env.objects) objects.push_back(Environment{{o}});
  }
  SceneClearances out;
  out.channels = (options.self ? 1 : 0) + objects.size();
  out.fn = [&checker, objects = std::move(objects), options](std::span<const double> q, std::span<double> d) {
    std::fill(d.begin(), d.end(), std::numeric_limits<double>::quiet_NaN());
    const RobotState s = checker.state(q, options.base);
    if (s.status != Status::ok) return;
    std::size_t c = 0;
    if (options.self) {
      const DistanceReport r = checker.self_distance(s);
      if (r.status != Status::ok) return;
      d[c++] = r.distance;
    }
    for (const Environment& one : objects) {
      const DistanceReport r = checker.environment_distance(s, one);
      d[c++] = r.status == Status::ok ? r.distance : std::numeric_limits<double>::quiet_NaN();
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

ToolKinematics link_kinematics(const RobotModel& model, std::string_view link, const Transform& base) {
  const int index = model.link_index(link);
  if (index < 0) throw Error("link_kinematics: robot '" + model.name() + "' has no link '" + std::string(link) + "'");
  return [&model, index, base](std::span<const double> q) {
    return forward_kinematics(model, q, base)[static_cast<std::size_t>(index)];
  };
}

}  // namespace proxima::robot
