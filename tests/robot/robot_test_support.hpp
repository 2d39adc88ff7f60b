// SPDX-License-Identifier: BSD-3-Clause
// Shared by the robot tests: where the Panda data lives, a private
// temporary directory, error-message expectations, and random robots.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <numbers>
#include <string>
#include <variant>
#include <vector>

#include <gtest/gtest.h>

#include <proxima/mesh/mesh_queries.hpp>
#include <proxima/query.hpp>
#include <proxima/robot/link_geometry.hpp>
#include <proxima/robot/scene_checker.hpp>
#include <proxima/robot/urdf.hpp>

#include "../support/random.hpp"
#include "../support/temp_files.hpp"

namespace proxima::robot_test {

/// `x` with every digit a double holds (%.17g), for numbers written into
/// URDF text that must read back as the same double.
inline std::string exact(double x) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}

/// The folding robot of the self-collision tests, as URDF text: link1, a
/// uniform plate l1 × w1 × t of mass m1 along +x, on a continuous joint j1
/// about y at the base; a post (0.1 kg) fixed at (l1, 0, post) on it; link3,
/// a plate l3 × w3 × t of mass m3 pointing back along −x from the post, on a
/// continuous joint j3 about y. Each plate's collision box is centred on its
/// centre of mass.
inline std::string folding_urdf(double m1, double l1, double w1, double m3, double l3, double w3, double t,
                                double post) {
  const auto plate = [&](const char* name, double m, double len, double w, double cx) {
    const double ixx = m * (w * w + t * t) / 12.0, iyy = m * (len * len + t * t) / 12.0,
                 izz = m * (len * len + w * w) / 12.0;
    return std::string("<link name=\"") + name + "\"><inertial><origin xyz=\"" + exact(cx) +
           " 0 0\"/><mass value=\"" + exact(m) + "\"/><inertia ixx=\"" + exact(ixx) + "\" iyy=\"" + exact(iyy) +
           "\" izz=\"" + exact(izz) + "\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial><collision><origin xyz=\"" +
           exact(cx) + " 0 0\"/><geometry><box size=\"" + exact(len) + " " + exact(w) + " " + exact(t) +
           "\"/></geometry></collision></link>";
  };
  return "<robot name=\"fold\"><link name=\"base\"/>" + plate("link1", m1, l1, w1, 0.5 * l1) +
         "<link name=\"post\"><inertial><mass value=\"0.1\"/><inertia ixx=\"1e-4\" iyy=\"1e-4\" izz=\"1e-4\" "
         "ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial></link>" +
         plate("link3", m3, l3, w3, -0.5 * l3) +
         "<joint name=\"j1\" type=\"continuous\"><parent link=\"base\"/><child link=\"link1\"/><axis xyz=\"0 1 0\"/>"
         "</joint><joint name=\"fix\" type=\"fixed\"><parent link=\"link1\"/><child link=\"post\"/><origin xyz=\"" +
         exact(l1) + " 0 " + exact(post) + "\"/></joint><joint name=\"j3\" type=\"continuous\"><parent link=\"post\"/>"
         "<child link=\"link3\"/><axis xyz=\"0 1 0\"/></joint></robot>";
}

/// A random triangle mesh as OBJ text, as scans are: a UV sphere of 3–6
/// rings and 5–10 segments about the origin (radii 2–7 cm per axis), each
/// vertex's radius off by up to 20 % (bumps), in half of them some vertices
/// pushed halfway in (dents: not convex), and in a third the cap above the
/// last ring left off (an open surface).
inline std::string random_mesh_obj(testing::Rng& rng) {
  const int rings = static_cast<int>(rng.uniform(3.0, 7.0)), segments = static_cast<int>(rng.uniform(5.0, 11.0));
  const Vec3 radii = rng.uniform_vec(0.02, 0.07);
  const bool dented = rng.uniform(0.0, 1.0) < 0.5, open = rng.uniform(0.0, 1.0) < 0.35;
  std::string obj;
  const auto vertex = [&](const Vec3& unit) {
    double scale = rng.uniform(0.8, 1.2);
    if (dented && rng.uniform(0.0, 1.0) < 0.2) scale *= 0.5;
    const Vec3 v = radii.cwiseProduct(unit) * scale;
    obj += "v " + exact(v.x()) + " " + exact(v.y()) + " " + exact(v.z()) + "\n";
  };
  // Vertex 1 the south pole, then ring by ring northwards, then the north pole.
  vertex(-Vec3::UnitZ());
  for (int i = 1; i <= rings; ++i) {
    const double theta = std::numbers::pi * i / (rings + 1);
    for (int j = 0; j < segments; ++j) {
      const double phi = 2.0 * std::numbers::pi * j / segments;
      vertex(Vec3(std::sin(theta) * std::cos(phi), std::sin(theta) * std::sin(phi), -std::cos(theta)));
    }
  }
  if (!open) vertex(Vec3::UnitZ());
  // OBJ counts from 1; triangles wound outwards.
  const auto at = [&](int ring, int j) { return 2 + ring * segments + (j % segments); };
  const auto face = [&](int a, int b, int c) {
    obj += "f " + std::to_string(a) + " " + std::to_string(b) + " " + std::to_string(c) + "\n";
  };
  for (int j = 0; j < segments; ++j) {
    face(1, at(0, j + 1), at(0, j));
    for (int i = 0; i + 1 < rings; ++i) {
      face(at(i, j), at(i, j + 1), at(i + 1, j + 1));
      face(at(i, j), at(i + 1, j + 1), at(i + 1, j));
    }
    if (!open) face(2 + rings * segments, at(rings - 1, j), at(rings - 1, j + 1));
  }
  return obj;
}

// A random robot as URDF text: a chain of 3 to 6 moving joints, revolute
// or prismatic about random axes, with random origins, a fixed joint in the
// chain, a branch off the first link, sometimes a joint mimicking another
// (multiplier and offset), and one or two boxes, cylinders or spheres per
// link at random offsets: what the shipped arms never show the prefilter
// (folded fixed links in mid-chain, prismatic tables, odd axes, shapes far
// from their joint). `boxes_only`: every shape a box. `meshes`, a folder
// (the URDF's base directory): two in five shapes are random_mesh_obj
// meshes written there, at a random scale per axis.
inline std::string random_robot_urdf(testing::Rng& rng, bool boxes_only = false,
                                     const std::filesystem::path& meshes = {}) {
  const auto vec = [&](const Vec3& v) { return exact(v.x()) + " " + exact(v.y()) + " " + exact(v.z()); };
  const auto shape = [&]() {
    std::string g;
    const int kind = static_cast<int>(rng.uniform(0.0, 3.0));
    if (!meshes.empty() && rng.uniform(0.0, 1.0) < 0.4) {
      // Named by how many the folder holds: each robot of a test its own files.
      const auto held = std::distance(std::filesystem::directory_iterator(meshes), {});
      const std::string file = "mesh" + std::to_string(held) + ".obj";
      std::ofstream(meshes / file) << random_mesh_obj(rng);
      g = "<mesh filename=\"" + file + "\" scale=\"" + vec(rng.uniform_vec(0.7, 1.4)) + "\"/>";
      return "<collision><origin xyz=\"" + vec(rng.uniform_vec(-0.08, 0.08)) + "\" rpy=\"" +
             vec(rng.uniform_vec(-3.0, 3.0)) + "\"/><geometry>" + g + "</geometry></collision>";
    }
    switch (boxes_only ? 0 : kind) {
      case 0: g = "<box size=\"" + vec(rng.uniform_vec(0.02, 0.14)) + "\"/>"; break;
      case 1: g = "<cylinder radius=\"" + exact(rng.uniform(0.01, 0.05)) + "\" length=\"" +
                  exact(rng.uniform(0.04, 0.2)) + "\"/>"; break;
      default: g = "<sphere radius=\"" + exact(rng.uniform(0.015, 0.06)) + "\"/>"; break;
    }
    return "<collision><origin xyz=\"" + vec(rng.uniform_vec(-0.08, 0.08)) + "\" rpy=\"" +
           vec(rng.uniform_vec(-3.0, 3.0)) + "\"/><geometry>" + g + "</geometry></collision>";
  };
  const auto link = [&](const std::string& name) {
    std::string l = "<link name=\"" + name + "\">" + shape();
    if (rng.uniform(0.0, 1.0) < 0.4) l += shape();
    return l + "</link>";
  };
  std::string links = "<link name=\"base\">" + shape() + "</link>", joints;
  const int moving = static_cast<int>(rng.uniform(3.0, 7.0));
  const int fixed_at = static_cast<int>(rng.uniform(1.0, static_cast<double>(moving)));
  std::vector<std::string> revolute;
  std::string parent = "base";
  int index = 0;
  // Appended, not concatenated: GCC 12 warns falsely (stringop-overflow)
  // about "l" + std::to_string(i) at -O3.
  const auto next_name = [&index] {
    std::string n = "l";
    n += std::to_string(index++);
    return n;
  };
  const auto joint = [&](const std::string& name, const std::string& type, const std::string& from,
                         const std::string& to) {
    std::string j = "<joint name=\"" + name + "\" type=\"" + type + "\"><parent link=\"" + from +
                    "\"/><child link=\"" + to + "\"/><origin xyz=\"" +
                    vec(rng.uniform_vec(-0.06, 0.06) + Vec3(0.0, 0.0, rng.uniform(0.05, 0.2))) + "\" rpy=\"" +
                    vec(rng.uniform_vec(-1.6, 1.6)) + "\"/>";
    if (type == "fixed") return j + "</joint>";
    j += "<axis xyz=\"" + vec(rng.unit_vector()) + "\"/>";
    if (type == "revolute") {
      const double lo = rng.uniform(-3.1, 0.0), hi = rng.uniform(0.3, 3.1);
      j += "<limit lower=\"" + exact(lo) + "\" upper=\"" + exact(hi) + "\" effort=\"1\" velocity=\"1\"/>";
      // One revolute joint may follow an earlier one (a gripper's second finger).
      if (!revolute.empty() && rng.uniform(0.0, 1.0) < 0.25)
        j += "<mimic joint=\"" + revolute.front() + "\" multiplier=\"" + exact(rng.uniform(-3.0, 3.0)) +
             "\" offset=\"" + exact(rng.uniform(-0.5, 0.5)) + "\"/>";
      else
        revolute.push_back(name);
    } else {
      j += "<limit lower=\"" + exact(rng.uniform(-0.2, 0.0)) + "\" upper=\"" + exact(rng.uniform(0.05, 0.3)) +
           "\" effort=\"1\" velocity=\"1\"/>";
    }
    return j + "</joint>";
  };
  for (int i = 0; i < moving; ++i) {
    if (i == fixed_at) {
      const std::string name = next_name();
      links += link(name);
      joints += joint("fixed_" + name, "fixed", parent, name);
      parent = name;
    }
    const std::string name = next_name();
    links += link(name);
    joints += joint("j_" + name, rng.uniform(0.0, 1.0) < 0.7 ? "revolute" : "prismatic", parent, name);
    parent = name;
  }
  // A branch off the first moving link.
  links += link("branch");
  joints += joint("j_branch", "revolute", "l0", "branch");
  return "<robot name=\"random\">" + links + joints + "</robot>";
}

/// Each joint variable of `m` uniform within its limits, in order, into q
/// (sized for them).
inline void uniform_joints(const robot::RobotModel& m, testing::Rng& rng, std::vector<double>& q) {
  for (std::size_t v = 0; v < q.size(); ++v) {
    const robot::Joint& jt = m.joint(m.variable_joint(v));
    q[v] = rng.uniform(jt.lower, jt.upper);
  }
}

/// The distance query between two collision elements, whichever their
/// kinds (convex shapes or raw meshes).
inline double geometry_distance(const std::variant<Shape, Bvh>& a, const Transform& pa,
                                const std::variant<Shape, Bvh>& b, const Transform& pb) {
  const Shape* sa = std::get_if<Shape>(&a);
  const Shape* sb = std::get_if<Shape>(&b);
  if (sa && sb) return proxima::distance(*sa, pa, *sb, pb).distance;
  if (!sa && !sb) return proxima::distance(std::get<Bvh>(a), pa, std::get<Bvh>(b), pb).distance;
  if (!sa) return proxima::distance(std::get<Bvh>(a), pa, *sb, pb).distance;
  return proxima::distance(std::get<Bvh>(b), pb, *sa, pa).distance;
}

/// The least distance between the shapes of links a and b at state s, by
/// the distance query on every pair of them.
inline double link_pair_distance(const robot::RobotGeometry& geometry, const robot::RobotState& s, int a, int b) {
  const auto ua = static_cast<std::size_t>(a), ub = static_cast<std::size_t>(b);
  double least = std::numeric_limits<double>::infinity();
  for (std::size_t i = s.shape_begin[ua]; i < s.shape_begin[ua + 1]; ++i)
    for (std::size_t j = s.shape_begin[ub]; j < s.shape_begin[ub + 1]; ++j)
      least = std::min(least, geometry_distance(geometry.link(a).shapes[i - s.shape_begin[ua]].geometry,
                                                s.shape_poses[i], geometry.link(b).shapes[j - s.shape_begin[ub]].geometry,
                                                s.shape_poses[j]));
  return least;
}

/// A box, a ball and a post (a cylinder) of random sizes at random poses
/// about a random robot's base, for random_robot_urdf's robots.
inline robot::Environment random_objects(testing::Rng& rng) {
  robot::Environment env;
  const auto somewhere = [&] {
    return Transform{rng.pose(0.0).R, rng.uniform_vec(Vec3(-0.6, -0.6, -0.1), Vec3(0.6, 0.6, 0.8))};
  };
  env.add("box", Box(rng.uniform_vec(0.05, 0.4)), somewhere());
  env.add("ball", Sphere(rng.uniform(0.03, 0.15)), somewhere());
  env.add("post", Cylinder(rng.uniform(0.01, 0.08), rng.uniform(0.2, 0.8)), somewhere());
  return env;
}

/// As a robot's SRDF does: every parent–child pair allowed, and every other
/// self pair whose links' shapes are within `near` m
/// of each other at each of `samples` configurations uniform within the
/// limits (pairs that always touch), or at a share `often` of them or more.
inline robot::AllowedCollisionMatrix always_near_allowed(const robot::RobotGeometry& geometry,
                                                         const robot::RobotModel& m, testing::Rng& rng,
                                                         int samples = 64, double near = 0.01, double often = 1.0) {
  robot::AllowedCollisionMatrix acm = robot::AllowedCollisionMatrix::adjacent(m);
  const robot::SceneChecker all(geometry, acm);
  std::vector<int> count(all.self_pairs().size(), 0);
  std::vector<double> q(m.variable_count());
  for (int n = 0; n < samples; ++n) {
    uniform_joints(m, rng, q);
    const robot::RobotState s = all.state(q);
    for (std::size_t k = 0; k < count.size(); ++k) {
      const auto [a, b] = all.self_pairs()[k];
      count[k] += link_pair_distance(geometry, s, a, b) <= near;
    }
  }
  const int enough = std::min(samples, static_cast<int>(std::ceil(often * samples)));
  for (std::size_t k = 0; k < count.size(); ++k)
    if (count[k] >= enough) acm.set_allowed(all.self_pairs()[k].first, all.self_pairs()[k].second);
  return acm;
}

/// tests/data/robots, found from this header's own path so that the test
/// targets need no compile definition of their own (they share one
/// precompiled header).
inline std::filesystem::path robots_dir() {
  return std::filesystem::path(__FILE__).parent_path().parent_path() / "data" / "robots";
}

using testing::expect_error;
using testing::TempDir;

/// Options with the mesh mode and default margin set (designated
/// initializers would trip -Wmissing-field-initializers).
inline robot::GeometryOptions options(robot::MeshMode mode, double margin = 0.0) {
  robot::GeometryOptions o;
  o.mesh_mode = mode;
  o.margin = margin;
  return o;
}

/// The robot of tests/data/robots/<name> (<name>.urdf) with its SRDF's
/// allowed pairs, link meshes in `mode` (callers keep one: reading and
/// hulling take a moment).
inline robot::SceneChecker shipped_checker(const std::string& name, robot::MeshMode mode) {
  const auto dir = robots_dir() / name;
  const robot::RobotModel m = robot::load_urdf(dir / (name + ".urdf"));
  robot::AllowedCollisionMatrix acm = robot::AllowedCollisionMatrix::adjacent(m);
  robot::apply_srdf(m, dir / (name + ".srdf"), acm);
  return robot::SceneChecker(robot::RobotGeometry(m, options(mode)), acm);
}

/// Every disable_collisions line of `srdf`, found in its text with a plain
/// string search, is an allowed pair of `c`, and so are the links of each
/// joint. Returns the number of such lines.
inline int expect_srdf_pairs_allowed(const robot::SceneChecker& c, const std::filesystem::path& srdf) {
  const robot::RobotModel& m = c.model();
  std::ifstream in(srdf);
  std::string line;
  int pairs = 0;
  auto value = [](const std::string& l, const std::string& key) {
    const std::size_t at = l.find(key + "=\"") + key.size() + 2;
    return l.substr(at, l.find('"', at) - at);
  };
  while (std::getline(in, line)) {
    if (line.find("<disable_collisions") == std::string::npos) continue;
    ++pairs;
    const int a = m.link_index(value(line, "link1")), b = m.link_index(value(line, "link2"));
    EXPECT_GE(a, 0) << line;
    EXPECT_GE(b, 0) << line;
    if (a >= 0 && b >= 0) {
      EXPECT_TRUE(c.allowed().allowed(a, b)) << line;
    }
  }
  for (const robot::Joint& j : m.joints()) EXPECT_TRUE(c.allowed().allowed(j.parent_link, j.child_link)) << j.name;
  return pairs;
}

/// The Panda of tests/data/robots/panda (shipped_checker).
inline robot::SceneChecker panda_checker(robot::MeshMode mode) { return shipped_checker("panda", mode); }

/// A 3-variable arm: revolute j1 (z), revolute j2 (y, behind an rpy origin),
/// prismatic j3 (x), a fixed tool and a finger whose revolute joint mimics
/// j2 (multiplier −2, offset 0.1) about a non-unit axis. Each link but the
/// base carries a primitive.
inline const char* small_arm_urdf() {
  return R"(<?xml version="1.0"?>
<robot name="arm">
  <link name="base"/>
  <link name="l1">
    <collision><origin xyz="0 0 0.15"/><geometry><cylinder radius="0.05" length="0.3"/></geometry></collision>
    <collision><origin xyz="0 0 0.3"/><geometry><sphere radius="0.06"/></geometry></collision>
  </link>
  <link name="l2">
    <collision><origin xyz="0.2 0 0" rpy="0 1.5707963267948966 0"/><geometry><cylinder radius="0.04" length="0.4"/></geometry></collision>
  </link>
  <link name="l3">
    <collision><geometry><box size="0.1 0.06 0.04"/></geometry></collision>
  </link>
  <link name="tool">
    <collision><origin xyz="0 0 0.02"/><geometry><sphere radius="0.03"/></geometry></collision>
  </link>
  <link name="finger">
    <collision><origin xyz="0.03 0 0"/><geometry><box size="0.06 0.01 0.01"/></geometry></collision>
  </link>
  <joint name="j1" type="revolute">
    <parent link="base"/><child link="l1"/>
    <origin xyz="0 0 0.5"/>
    <axis xyz="0 0 1"/>
    <limit lower="-3" upper="3" effort="1" velocity="1"/>
  </joint>
  <joint name="j2" type="revolute">
    <parent link="l1"/><child link="l2"/>
    <origin xyz="0.1 0 0.3" rpy="0.3 -0.2 0.5"/>
    <axis xyz="0 1 0"/>
    <limit lower="-2" upper="2"/>
  </joint>
  <joint name="j3" type="prismatic">
    <parent link="l2"/><child link="l3"/>
    <origin xyz="0.4 0 0"/>
    <axis xyz="1 0 0"/>
    <limit lower="0" upper="0.3"/>
  </joint>
  <joint name="jtool" type="fixed">
    <parent link="l3"/><child link="tool"/>
    <origin xyz="0 0 0.1" rpy="0 0 1.5707963267948966"/>
  </joint>
  <joint name="jfinger" type="revolute">
    <parent link="l3"/><child link="finger"/>
    <origin xyz="0.05 0.02 0" rpy="0 0.7 0"/>
    <axis xyz="0 0 2"/>
    <mimic joint="j2" multiplier="-2" offset="0.1"/>
    <limit lower="-1" upper="1"/>
  </joint>
</robot>
)";
}

}  // namespace proxima::robot_test
