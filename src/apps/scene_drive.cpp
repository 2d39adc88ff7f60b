// SPDX-License-Identifier: BSD-3-Clause
// Parsing of the keys that drive a body (scene_drive.hpp).
#include <cmath>
#include <limits>
#include <sstream>

#include <proxima/core/error.hpp>

#include "json_reader.hpp"
#include "scene_drive.hpp"

namespace proxima::apps {
namespace {

using nlohmann::json;

constexpr Range kAnyTime{-std::numeric_limits<double>::max(), std::numeric_limits<double>::max(), false, false, " s"};

// Keys in strictly increasing time: "t" after the previous `what` time.
void require_after(ObjectReader& k, double t, double previous, const char* what) {
  if (t > previous) return;
  std::ostringstream m;
  m << "time " << t << " s is not after the previous " << what << " " << previous << " s";
  fail(k.field("t"), m.str());
}

// A keyframe's orientation is taken as written (no normalization): a norm
// off 1 is a typo the user should see.
Quat unit_quaternion_at(const json& j, const std::string& field) {
  if (!j.is_array() || j.size() != 4) fail(field, "expected an array of 4 numbers [w, x, y, z]");
  double c[4];
  for (std::size_t i = 0; i < 4; ++i) c[i] = number_at(j[i], index_path(field, i));
  const Quat q(c[0], c[1], c[2], c[3]);
  if (std::abs(q.norm() - 1.0) > 1e-6) {
    std::ostringstream m;
    m << "quaternion norm " << q.norm() << " is not 1 (within 1e-6)";
    fail(field, m.str());
  }
  return q;
}

}  // namespace

sim::KinematicPath kinematic_from_json(const json& j, const std::string& field, double max_rate) {
  require_object(j, field, "an object with \"velocity\"/\"angular_velocity\" or \"keyframes\"");
  return read_object(j, field, [&](ObjectReader& r) {
    sim::KinematicPath path;
    if (const json* v = r.get("velocity")) path.velocity = bounded_vec3_at(*v, r.field("velocity"), "m/s", max_rate);
    if (const json* w = r.get("angular_velocity"))
      path.angular_velocity = bounded_vec3_at(*w, r.field("angular_velocity"), "rad/s", max_rate);
    const json* keys = r.get("keyframes");
    if (keys == nullptr) return path;
    for (const char* twist : {"velocity", "angular_velocity"})
      if (r.has(twist)) fail(r.field(twist), "a keyframed path has no constant twist (give one or the other)");
    const std::string kf = r.field("keyframes");
    array_at(*keys, kf, "keyframe objects {\"t\", \"p\", \"q\"}");
    if (keys->empty()) fail(kf, "needs at least one keyframe");
    for (std::size_t i = 0; i < keys->size(); ++i) {
      const std::string at = index_path(kf, i);
      read_object((*keys)[i], at, [&](ObjectReader& k) {
        sim::Keyframe f;
        f.t = k.number("t", kAnyTime);
        if (!path.keyframes.empty()) require_after(k, f.t, path.keyframes.back().t, "keyframe's");
        f.p = k.vec3("p");
        if (const json* q = k.get("q")) f.q = unit_quaternion_at(*q, k.field("q"));
        path.keyframes.push_back(f);
      });
    }
    try {
      path.validate();  // what the reader above has not already refused (positions beyond ±1e15 m)
    } catch (const Error& e) {
      fail(field, e.what());
    }
    return path;
  });
}

bool is_load_schedule(const json& j) { return j.is_array() && !j.empty() && j[0].is_object(); }

sim::LoadSchedule load_schedule_from_json(const json& j, const std::string& field, const char* value_key,
                                          const char* unit, double limit) {
  array_at(j, field, "[x, y, z] or key objects {\"t\", \"value\"}");
  if (j.empty()) fail(field, "needs at least one key");
  sim::LoadSchedule s;
  for (std::size_t i = 0; i < j.size(); ++i) {
    const std::string at = index_path(field, i);
    read_object(j[i], at, [&](ObjectReader& k) {
      sim::LoadKey key;
      key.t = k.number("t", kAnyTime);
      if (!s.keys.empty()) require_after(k, key.t, s.keys.back().t, "key's");
      key.value = bounded_vec3_at(k.required(value_key), k.field(value_key), unit, limit);
      s.keys.push_back(key);
    });
  }
  return s;
}

}  // namespace proxima::apps
