// SPDX-License-Identifier: BSD-3-Clause
// The `proxima query` JSON-lines protocol, as docs/design.md specifies it.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <functional>
#include <sstream>
#include <tuple>

#include <gtest/gtest.h>

#include "query_protocol.hpp"

namespace proxima::apps {
namespace {

using nlohmann::json;

TEST(QueryProtocol, DistanceAnswerHasTheDocumentedFields) {
  const json a = answer_line(
      R"({"id": 7, "query": "distance", "a": {"shape": "box", "size": [2, 2, 2]},
          "pose_a": {"p": [0, 0, 0], "q": [1, 0, 0, 0]},
          "b": {"shape": "capsule", "radius": 0.25, "length": 0.5},
          "pose_b": {"p": [0.3, 0, 2.0], "q": [1, 0, 0, 0]}})");
  EXPECT_EQ(a["id"], 7);
  EXPECT_EQ(a["status"], "ok");
  EXPECT_NEAR(a["distance"].get<double>(), 0.5, 1e-12);
  EXPECT_EQ(a["collide"], false);
  // Normal from B to A: the box is below the capsule.
  EXPECT_NEAR(a["normal"][2].get<double>(), -1.0, 1e-12);
  EXPECT_NEAR(a["point_a"][2].get<double>(), 1.0, 1e-12);
  EXPECT_NEAR(a["point_b"][2].get<double>(), 1.5, 1e-12);
  EXPECT_TRUE(a.contains("iterations"));
}

TEST(QueryProtocol, EveryShapeParses) {
  const char* shapes[] = {
      R"({"shape": "sphere", "radius": 0.5})",
      R"({"shape": "capsule", "radius": 0.2, "length": 0.5, "margin": 0.01})",
      R"({"shape": "cylinder", "radius": 0.2, "length": 0.5})",
      R"({"shape": "cone", "radius": 0.2, "length": 0.5})",
      R"({"shape": "box", "size": [0.2, 0.3, 0.4]})",
      R"({"shape": "ellipsoid", "radii": [0.2, 0.3, 0.4]})",
      R"({"shape": "convex", "points": [[0,0,0],[1,0,0],[0,1,0],[0,0,1],[0.1,0.1,0.1]]})",
  };
  for (const char* s : shapes) {
    const json req = {{"id", 1}, {"query", "distance"}, {"a", json::parse(s)},
                      {"b", {{"shape", "sphere"}, {"radius", 0.1}}}, {"pose_b", {{"p", {5, 0, 0}}}}};
    const json a = answer(req);
    EXPECT_EQ(a["status"], "ok") << s << " → " << a.dump();
    EXPECT_GT(a["distance"].get<double>(), 3.0) << s;
  }
}

TEST(QueryProtocol, CollideSignedDistanceAndTolerance) {
  const json base = json::parse(R"({"a": {"shape": "sphere", "radius": 0.5}, "pose_a": {"p": [0, 0, 0.3]},
                                    "b": {"shape": "halfspace", "normal": [0, 0, 1], "offset": 0}})");
  json r = base;
  r["query"] = "collide";
  EXPECT_EQ(answer(r)["collide"], true);
  r["query"] = "signed_distance";
  EXPECT_NEAR(answer(r)["distance"].get<double>(), -0.2, 1e-15);
  r["query"] = "distance";
  EXPECT_EQ(answer(r)["distance"].get<double>(), 0.0);
  json t = base;
  t["query"] = "tolerance";
  t["pose_a"]["p"][2] = 0.8;
  t["tolerance"] = 0.31;
  EXPECT_EQ(answer(t)["within_tolerance"], true);
  t["tolerance"] = 0.29;
  EXPECT_EQ(answer(t)["within_tolerance"], false);
}

TEST(QueryProtocol, OverlappingPairHasNegativeSignedDistance) {
  const json a = answer_line(R"({"id": "x", "query": "signed_distance", "a": {"shape": "box", "size": [2, 2, 2]},
                                 "b": {"shape": "box", "size": [2, 2, 2]}, "pose_b": {"p": [1.5, 0.1, 0]}})");
  EXPECT_EQ(a["id"], "x");
  EXPECT_EQ(a["status"], "ok");
  EXPECT_NEAR(a["distance"].get<double>(), -0.5, 1e-12);
  EXPECT_NEAR(a["normal"][0].get<double>(), -1.0, 1e-12);  // B is at +x: A leaves towards −x
  EXPECT_EQ(a["collide"], true);
}

TEST(QueryProtocol, MethodsAndWarmStart) {
  json r = json::parse(R"({"query": "distance", "a": {"shape": "sphere", "radius": 0.5}, "pose_a": {"p": [2, 0, 0]},
                           "b": {"shape": "capsule", "radius": 0.25, "length": 0.5}})");
  r["method"] = "gjk";
  EXPECT_NEAR(answer(r)["distance"].get<double>(), 1.25, 1e-12);
  r["method"] = "analytic";
  EXPECT_NEAR(answer(r)["distance"].get<double>(), 1.25, 1e-15);
  r["warm_start"] = {1, 0, 0};
  EXPECT_NEAR(answer(r)["distance"].get<double>(), 1.25, 1e-15);
  // Overlapping boxes by every depth method: the exact ones agree.
  json o = json::parse(R"({"query": "signed_distance", "a": {"shape": "box", "size": [2, 2, 2]},
                           "b": {"shape": "box", "size": [2, 2, 2]}, "pose_b": {"p": [1.5, 0.1, 0.2]}})");
  // The exact methods answer ok with the depth (incremental hands a box pair
  // it cannot certify to the exact method); mpr says its depth along the
  // centre line is an upper bound: never shallower than the truth.
  int checked = 0;
  for (const char* m : {"auto", "sat", "gjk_epa", "incremental", "mpr"}) {
    o["method"] = m;
    const json ans = answer(o);
    if (std::string(m) == "mpr") {
      EXPECT_EQ(ans["status"], "upper_bound") << ans;
      EXPECT_LE(ans["distance"].get<double>(), -0.5 + 1e-9) << ans;
    } else {
      EXPECT_EQ(ans["status"], "ok") << m << ": " << ans;
      EXPECT_NEAR(ans["distance"].get<double>(), -0.5, 1e-9) << m;
    }
    EXPECT_NEAR(std::hypot(ans["normal"][0].get<double>(), ans["normal"][1].get<double>(),
                           ans["normal"][2].get<double>()),
                1.0, 1e-12)
        << m;
    ++checked;
  }
  EXPECT_EQ(checked, 5);
  o["method"] = "sat";
  o["a"] = json::parse(R"({"shape": "sphere", "radius": 1})");
  o["pose_a"] = json::parse(R"({"p": [1.4, 0, 0]})");  // centre inside the box: SAT does not apply
  EXPECT_EQ(answer(o)["status"], "not_implemented");
  r["method"] = "bogus";
  EXPECT_NE(answer(r)["message"].get<std::string>().find("bogus"), std::string::npos);
}

// Two balls of radius 0.5; A crosses from x = −3 to x = 3 past B at the
// origin: they touch when A's centre reaches x = −1, at t = 1/3, and come
// within 0.5 m at x = −1.5, t = 1/4.
TEST(QueryProtocol, TimeOfImpact) {
  json r = json::parse(R"({"id": 4, "query": "time_of_impact",
      "a": {"shape": "sphere", "radius": 0.5}, "pose_a": {"p": [-3, 0, 0]}, "pose_a_end": {"p": [3, 0, 0]},
      "b": {"shape": "sphere", "radius": 0.5}})");
  json a = answer(r);
  ASSERT_EQ(a["status"], "ok") << a.dump();
  EXPECT_EQ(a["collide"], true);
  EXPECT_NEAR(a["time"].get<double>(), 1.0 / 3.0, 1e-6 / 6.0);
  EXPECT_LE(a["time"].get<double>(), 1.0 / 3.0);
  EXPECT_EQ(a["witness_time"], a["time"]);
  EXPECT_NEAR(a["normal"][0].get<double>(), -1.0, 1e-12);
  EXPECT_NEAR(a["point_a"][0].get<double>(), -0.5, 1e-6);
  EXPECT_GE(a["iterations"].get<int>(), 1);
  r["clearance"] = 0.5;
  EXPECT_NEAR(answer(r)["time"].get<double>(), 0.25, 1e-6);
  r["pose_a_end"] = {{"p", {-3, 2, 0}}};  // moves away instead
  a = answer(r);
  EXPECT_EQ(a["collide"], false);
  EXPECT_EQ(a["time"], 1.0);
  // The end poses default to the start: a pair that stays apart.
  r.erase("pose_a_end");
  EXPECT_EQ(answer(r)["collide"], false);
  // B a closed cube mesh of the ball's size: the same meeting time, turned
  // back to A (the ball) first.
  json m = r;
  m.erase("clearance");
  m["pose_a_end"] = {{"p", {3, 0, 0}}};
  m["b"] = json::parse(R"({"shape": "mesh",
      "vertices": [[-0.5,-0.5,-0.5],[0.5,-0.5,-0.5],[-0.5,0.5,-0.5],[0.5,0.5,-0.5],
                   [-0.5,-0.5,0.5],[0.5,-0.5,0.5],[-0.5,0.5,0.5],[0.5,0.5,0.5]],
      "triangles": [[0,2,1],[1,2,3],[4,5,6],[5,7,6],[0,1,4],[1,5,4],[2,6,3],[3,6,7],[0,4,2],[2,4,6],[1,3,5],[3,7,5]]})");
  a = answer(m);
  ASSERT_EQ(a["status"], "ok") << a.dump();
  EXPECT_EQ(a["collide"], true);
  EXPECT_NEAR(a["time"].get<double>(), 1.0 / 3.0, 1e-6 / 6.0);
  EXPECT_NEAR(a["normal"][0].get<double>(), -1.0, 1e-9);
  EXPECT_EQ(a["triangle_a"], -1);
  EXPECT_GE(a["triangle_b"].get<int>(), 0);
  m["clearance"] = -1;
  EXPECT_EQ(answer(m)["status"], "error");
  for (const auto& [key, value, expect] :
       {std::tuple<const char*, json, const char*>{"clearance", -1, "clearance: must be in [0, 1e+15] m (got -1)"},
        {"accuracy", 0, "accuracy: must be in (0, 1e+15] m (got 0)"},
        {"max_iterations", 0, "max_iterations"},
        {"method", "gjk_epa", "method: does not apply to time_of_impact"},
        {"pose_b_end", {{"p", {0, "x", 0}}}, "pose_b_end.p[1]"}}) {
    json bad = r;
    bad[key] = value;
    const json e = answer(bad);
    EXPECT_EQ(e["status"], "error") << key;
    EXPECT_NE(e.value("message", "").find(expect), std::string::npos) << key << " → " << e.dump();
  }
}

TEST(QueryProtocol, ContactsGiveTheManifold) {
  json r = json::parse(R"({"id": 5, "query": "contacts", "a": {"shape": "box", "size": [1, 1, 1]},
                           "pose_a": {"p": [0, 0, 0.99]}, "b": {"shape": "box", "size": [2, 2, 1]}})");
  json a = answer(r);
  EXPECT_EQ(a["status"], "ok");
  EXPECT_NEAR(a["distance"].get<double>(), -0.01, 1e-12);
  EXPECT_NEAR(a["normal"][2].get<double>(), 1.0, 1e-12);
  ASSERT_EQ(a["contacts"].size(), 4u);
  for (const json& c : a["contacts"]) {
    EXPECT_NEAR(c["depth"].get<double>(), 0.01, 1e-12);
    EXPECT_NEAR(c["point"][2].get<double>(), 0.495, 1e-12);
    EXPECT_NEAR(c["normal"][2].get<double>(), 1.0, 1e-12);
  }
  r["max_points"] = 2;
  EXPECT_EQ(answer(r)["contacts"].size(), 2u);
  r.erase("max_points");
  r["pose_a"]["p"][2] = 1.05;
  EXPECT_EQ(answer(r)["contacts"].size(), 0u);  // beyond the (zero) contact margin
  r["margin"] = 0.1;
  a = answer(r);
  ASSERT_EQ(a["contacts"].size(), 4u);
  EXPECT_NEAR(a["contacts"][0]["depth"].get<double>(), -0.05, 1e-12);
  r["margin"] = -1;
  EXPECT_NE(answer(r)["message"].get<std::string>().find("margin"), std::string::npos);
  r["margin"] = 0;
  r["max_points"] = -2;
  EXPECT_NE(answer(r)["message"].get<std::string>().find("max_points"), std::string::npos);
  r.erase("max_points");
  r["disc_points"] = "many";
  EXPECT_NE(answer(r)["message"].get<std::string>().find("disc_points"), std::string::npos);
}

// A pair proven beyond the contact margin before its distance converged: no
// contacts, and the distance flagged as the lower bound it is (here 0.109 m
// for a pair 0.167 m apart); a pair within the margin carries no flag.
TEST(QueryProtocol, ContactsBeyondTheMarginFlagTheirDistanceAsABound) {
  json r = json::parse(R"({"query": "contacts", "margin": 0.05,
                           "a": {"shape": "cylinder", "radius": 0.3, "length": 0.7},
                           "pose_a": {"p": [0.28, -0.7, 0.27], "q": [0.74, 0.05, 0.48, 0.34]},
                           "b": {"shape": "box", "size": [0.6, 0.4, 0.8]}})");
  const json c = answer(r);
  EXPECT_EQ(c["status"], "ok");
  EXPECT_TRUE(c["contacts"].empty());
  ASSERT_TRUE(c.contains("bound_exceeded"));
  EXPECT_TRUE(c["bound_exceeded"].get<bool>());
  r["query"] = "distance";
  r.erase("margin");
  const double d = answer(r)["distance"].get<double>();
  EXPECT_GT(c["distance"].get<double>(), 0.05);
  EXPECT_LT(c["distance"].get<double>(), d - 0.01);  // a bound, well below the distance here
  const json near = answer(json::parse(R"({"query": "contacts", "margin": 0.1, "a": {"shape": "box", "size": [1, 1, 1]},
                                            "pose_a": {"p": [0, 0, 1.05]}, "b": {"shape": "box", "size": [2, 2, 1]}})"));
  EXPECT_EQ(near["contacts"].size(), 4u);
  EXPECT_FALSE(near.contains("bound_exceeded"));
}

// One triangle in the plane z = 0 and a sphere above it: every answer is
// known in closed form.
TEST(QueryProtocol, MeshOperandsInlineAndFromFiles) {
  const char* tri = R"({"shape": "mesh", "vertices": [[0,0,0],[1,0,0],[0,1,0]], "triangles": [[0,1,2]]})";
  json r{{"query", "distance"}, {"a", json::parse(tri)}, {"b", {{"shape", "sphere"}, {"radius", 0.5}}},
         {"pose_b", {{"p", {0.2, 0.2, 2.0}}}}};
  json a = answer(r);
  ASSERT_EQ(a["status"], "ok") << a.dump();
  EXPECT_NEAR(a["distance"].get<double>(), 1.5, 1e-9);
  EXPECT_NEAR(a["normal"][2].get<double>(), -1.0, 1e-9);
  EXPECT_NEAR(a["point_a"][2].get<double>(), 0.0, 1e-9);
  EXPECT_NEAR(a["point_b"][2].get<double>(), 1.5, 1e-9);
  EXPECT_EQ(a["triangle_a"], 0);
  // Swapped operands: the normal turns, the points swap.
  std::swap(r["a"], r["b"]);
  std::swap(r["pose_a"], r["pose_b"]);
  r["pose_a"] = {{"p", {0.2, 0.2, 2.0}}};
  r.erase("pose_b");
  a = answer(r);
  EXPECT_NEAR(a["normal"][2].get<double>(), 1.0, 1e-9);
  EXPECT_NEAR(a["point_a"][2].get<double>(), 1.5, 1e-9);
  EXPECT_EQ(a["triangle_b"], 0);
  // Mesh–mesh: the same triangle 0.25 above, turned; then crossing it.
  json m{{"query", "distance"}, {"a", json::parse(tri)}, {"b", json::parse(tri)},
         {"pose_b", {{"p", {0.1, 0.1, 0.25}}, {"q", {0.9238795325112867, 0, 0, 0.3826834323650898}}}}};
  EXPECT_NEAR(answer(m)["distance"].get<double>(), 0.25, 1e-12);
  m["query"] = "tolerance";
  m["tolerance"] = 0.3;
  EXPECT_EQ(answer(m)["within_tolerance"], true);
  m["tolerance"] = 0.2;
  EXPECT_EQ(answer(m)["within_tolerance"], false);
  m["query"] = "collide";
  m.erase("tolerance");  // a key of tolerance queries only
  EXPECT_EQ(answer(m)["collide"], false);
  m["pose_b"] = {{"p", {0.2, 0.2, 0.0}}, {"q", {0.7071067811865476, 0.7071067811865476, 0, 0}}};
  EXPECT_EQ(answer(m)["collide"], true);
  m["query"] = "signed_distance";
  EXPECT_EQ(answer(m)["status"], "not_implemented");

  // From a file, read once per stream.
  const std::string path = ::testing::TempDir() + "proxima_protocol_tri.obj";
  {
    std::ofstream f(path);
    f << "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";
  }
  json fr{{"query", "distance"}, {"a", {{"shape", "mesh"}, {"file", path}, {"scale", 2.0}}},
          {"b", {{"shape", "sphere"}, {"radius", 0.5}}}, {"pose_b", {{"p", {0.2, 0.2, 2.0}}}}};
  a = answer(fr);
  ASSERT_EQ(a["status"], "ok") << a.dump();
  EXPECT_NEAR(a["distance"].get<double>(), 1.5, 1e-9);
  fr["a"]["file"] = path + ".missing";
  a = answer(fr);
  EXPECT_EQ(a["status"], "error");
  EXPECT_NE(a["message"].get<std::string>().find(".missing"), std::string::npos) << a.dump();
}

// A cube of edge `size` centred at the origin as an inline mesh: 8 vertices,
// 12 triangles, counter-clockwise seen from outside.
json cube_mesh(double size, double margin) {
  const double h = size / 2;
  json v = json::array();
  for (int i = 0; i < 8; ++i) v.push_back({i & 1 ? h : -h, i & 2 ? h : -h, i & 4 ? h : -h});
  const json t = json::parse(R"([[0,2,1],[1,2,3],[4,5,6],[5,7,6],[0,1,4],[1,5,4],
                                 [2,6,3],[3,6,7],[0,4,2],[2,4,6],[1,3,5],[3,7,5]])");
  return {{"shape", "mesh"}, {"vertices", v}, {"triangles", t}, {"margin", margin}};
}

// Two 12-triangle cubes (0.1 m, 1 mm layers) face on face, 1 mm apart:
// inside the 2 mm layer, so the whole face is in contact.
json resting_cubes() {
  return {{"id", "cubes"}, {"query", "contacts"}, {"a", cube_mesh(0.1, 0.001)},
          {"pose_a", {{"p", {0, 0, 0.101}}}}, {"b", cube_mesh(0.1, 0.001)}};
}

TEST(QueryProtocol, MeshContactsSpanARestingFace) {
  json r = resting_cubes();
  r["cluster"] = false;
  const json raw = answer(r);
  ASSERT_EQ(raw["status"], "ok") << raw.dump();
  EXPECT_EQ(raw["id"], "cubes");
  const std::size_t n_raw = raw["contacts"].size();
  EXPECT_EQ(raw["stats"]["raw_contacts"].get<std::size_t>(), n_raw);
  EXPECT_GE(raw["stats"]["pairs_within"].get<std::size_t>(), 4u);  // 2 × 2 face triangles at least
  EXPECT_EQ(raw["stats"]["intersecting"], 0);
  EXPECT_NEAR(raw["distance"].get<double>(), -0.001, 1e-9);  // 1 mm gap in a 2 mm layer
  EXPECT_NEAR(raw["normal"][2].get<double>(), 1.0, 1e-9);

  r.erase("cluster");  // default: clustered to at most 20
  const json a = answer(r);
  ASSERT_EQ(a["status"], "ok") << a.dump();
  ASSERT_GE(a["contacts"].size(), 4u) << a.dump();
  EXPECT_LE(a["contacts"].size(), 20u);
  EXPECT_LE(a["contacts"].size(), n_raw);
  EXPECT_EQ(a["stats"]["raw_contacts"].get<std::size_t>(), n_raw);
  double lo[2] = {1, 1}, hi[2] = {-1, -1};
  for (const json& c : a["contacts"]) {
    EXPECT_NEAR(c["normal"][0].get<double>(), 0.0, 1e-9) << c.dump();
    EXPECT_NEAR(c["normal"][1].get<double>(), 0.0, 1e-9) << c.dump();
    EXPECT_NEAR(c["normal"][2].get<double>(), 1.0, 1e-9) << c.dump();
    EXPECT_NEAR(c["depth"].get<double>(), 0.001, 1e-9) << c.dump();
    EXPECT_NEAR(c["point"][2].get<double>(), 0.0505, 1e-9) << c.dump();  // mid-gap
    EXPECT_EQ(c["intersecting"], false);
    EXPECT_GE(c["feature_a"].get<int>(), 0);
    EXPECT_LT(c["feature_a"].get<int>(), 12);
    EXPECT_GE(c["feature_b"].get<int>(), 0);
    EXPECT_LT(c["feature_b"].get<int>(), 12);
    for (int k = 0; k < 2; ++k) {
      lo[k] = std::min(lo[k], c["point"][k].get<double>());
      hi[k] = std::max(hi[k], c["point"][k].get<double>());
    }
  }
  // The points span the face (0.1 × 0.1), not one corner or one edge.
  for (int k = 0; k < 2; ++k) {
    EXPECT_LT(lo[k], -0.04) << "axis " << k;
    EXPECT_GT(hi[k], 0.04) << "axis " << k;
  }
}

TEST(QueryProtocol, MeshContactsOptions) {
  json r = resting_cubes();
  r["max_contacts"] = 3;
  json a = answer(r);
  ASSERT_EQ(a["status"], "ok") << a.dump();
  EXPECT_GE(a["contacts"].size(), 1u);
  EXPECT_LE(a["contacts"].size(), 3u);
  r["max_contacts"] = 1000000;  // huge k: the raw set, copies merged (the face's 4 corners)
  a = answer(r);
  EXPECT_EQ(a["contacts"].size(), 4u);
  EXPECT_GT(a["stats"]["raw_contacts"].get<std::size_t>(), 4u);
  // Without the shadow test every pair within the layers is there: a small
  // triangle 1 mm above one half of a square (two triangles sharing the
  // diagonal x = y), 2 mm from the diagonal, also meets the other half's
  // rounded edge obliquely; the shadow test drops that pair.
  json square = {{"shape", "mesh"},
                 {"margin", 0.002},
                 {"vertices", {{0, 0, 0}, {0.1, 0, 0}, {0.1, 0.1, 0}, {0, 0.1, 0}}},
                 {"triangles", {{0, 1, 2}, {0, 2, 3}}}};
  const double d = 0.002 * std::sqrt(2.0);  // 2 mm off the diagonal, toward +x
  json chip = {{"shape", "mesh"},
               {"margin", 0.002},
               {"vertices", {{0.05 + d, 0.05, 0.001}, {0.06 + d, 0.05, 0.001}, {0.06 + d, 0.045, 0.001}}},
               {"triangles", {{0, 1, 2}}}};
  json pair = {{"id", 9}, {"query", "contacts"}, {"a", chip}, {"b", square}, {"cluster", false}};
  const json shadowed = answer(pair);
  pair["drop_shadowed"] = false;
  const json paper = answer(pair);
  ASSERT_EQ(shadowed["status"], "ok") << shadowed.dump();
  // The chip's face patch (its 3 corners) either way, plus the oblique pair.
  EXPECT_EQ(shadowed["contacts"].size(), 3u) << shadowed.dump();
  EXPECT_EQ(paper["contacts"].size(), 4u) << paper.dump();
  for (const json& c : shadowed["contacts"]) EXPECT_NEAR(c["normal"][2].get<double>(), 1.0, 1e-12);
  int oblique = 0;
  for (const json& c : paper["contacts"]) oblique += c["normal"][2].get<double>() < 0.99;
  EXPECT_EQ(oblique, 1);
  // Feature pairs: the resting cubes keep their four corners (patches).
  json features = resting_cubes();
  features["feature_pairs"] = true;
  const json fa = answer(features);
  ASSERT_EQ(fa["status"], "ok") << fa.dump();
  EXPECT_EQ(fa["contacts"].size(), 4u) << fa.dump();
  json no_hulls = resting_cubes();
  no_hulls["patch_hulls"] = false;
  no_hulls["max_contacts"] = 1000;
  EXPECT_EQ(answer(no_hulls)["contacts"].size(), 4u);
  r["max_contacts"] = 1;
  r["cluster_weights"] = {{"point", 2.0}, {"normal", 0.1}, {"depth", 0.5}};
  r["hierarchical_limit"] = 0;  // k-means from the first contact
  EXPECT_EQ(answer(r)["contacts"].size(), 1u);
  // Separated beyond the layers: nothing; a contact margin brings them back
  // with negative depths.
  r = resting_cubes();
  r["pose_a"]["p"][2] = 0.105;  // 5 mm gap, 2 mm of layers
  a = answer(r);
  ASSERT_EQ(a["status"], "ok") << a.dump();
  EXPECT_EQ(a["contacts"].size(), 0u);
  EXPECT_FALSE(a.contains("distance"));
  r["margin"] = 0.004;
  a = answer(r);
  ASSERT_GE(a["contacts"].size(), 1u) << a.dump();
  for (const json& c : a["contacts"]) EXPECT_NEAR(c["depth"].get<double>(), -0.003, 1e-9);
}

TEST(QueryProtocol, MeshContactsSwappedOrConvexOperands) {
  // Mesh B above mesh A: the normal (B→A) is −z; triangle ids follow the meshes.
  json r = resting_cubes();
  std::swap(r["pose_a"], r["pose_b"]);
  r["pose_a"] = {{"p", {0, 0, 0}}};
  r["pose_b"] = {{"p", {0, 0, 0.101}}};
  json a = answer(r);
  ASSERT_EQ(a["status"], "ok") << a.dump();
  ASSERT_GE(a["contacts"].size(), 4u);
  EXPECT_NEAR(a["normal"][2].get<double>(), -1.0, 1e-9);
  for (const json& c : a["contacts"]) EXPECT_NEAR(c["normal"][2].get<double>(), -1.0, 1e-9) << c.dump();

  // A convex box (1 mm margin) on the mesh cube, and the same pair swapped.
  const json box = {{"shape", "box"}, {"size", {0.1, 0.1, 0.1}}, {"margin", 0.001}};
  json cm{{"query", "contacts"}, {"a", box}, {"pose_a", {{"p", {0, 0, 0.101}}}}, {"b", cube_mesh(0.1, 0.001)}};
  a = answer(cm);
  ASSERT_EQ(a["status"], "ok") << a.dump();
  ASSERT_GE(a["contacts"].size(), 1u) << a.dump();
  for (const json& c : a["contacts"]) {
    EXPECT_NEAR(c["normal"][2].get<double>(), 1.0, 1e-9) << c.dump();  // B (mesh, below) → A (box)
    EXPECT_EQ(c["feature_a"], -1);                                       // a convex A has no triangles
    EXPECT_GE(c["feature_b"].get<int>(), 0);
  }
  json mc{{"query", "contacts"}, {"a", cube_mesh(0.1, 0.001)}, {"pose_a", {{"p", {0, 0, 0.101}}}}, {"b", box}};
  a = answer(mc);
  ASSERT_GE(a["contacts"].size(), 1u) << a.dump();
  for (const json& c : a["contacts"]) {
    EXPECT_NEAR(c["normal"][2].get<double>(), 1.0, 1e-9) << c.dump();
    EXPECT_GE(c["feature_a"].get<int>(), 0);
    EXPECT_EQ(c["feature_b"], -1);
  }
  // Mesh cube 0.5 mm above a halfspace: its 4 bottom corners, unclustered.
  json hs{{"query", "contacts"}, {"a", cube_mesh(0.1, 0.001)}, {"pose_a", {{"p", {0, 0, 0.0505}}}},
          {"b", {{"shape", "halfspace"}, {"normal", {0, 0, 1}}, {"offset", 0}}}, {"cluster", false}};
  a = answer(hs);
  ASSERT_EQ(a["status"], "ok") << a.dump();
  ASSERT_EQ(a["contacts"].size(), 4u) << a.dump();
  for (const json& c : a["contacts"]) {
    EXPECT_NEAR(c["normal"][2].get<double>(), 1.0, 1e-12);
    EXPECT_NEAR(c["depth"].get<double>(), 0.0005, 1e-12);
    EXPECT_NEAR(std::abs(c["point"][0].get<double>()), 0.05, 1e-12);
    EXPECT_NEAR(std::abs(c["point"][1].get<double>()), 0.05, 1e-12);
  }
  // The halfspace as A: normals turn to −z.
  std::swap(hs["a"], hs["b"]);
  hs["pose_b"] = hs["pose_a"];
  hs.erase("pose_a");
  a = answer(hs);
  ASSERT_EQ(a["contacts"].size(), 4u) << a.dump();
  for (const json& c : a["contacts"]) EXPECT_NEAR(c["normal"][2].get<double>(), -1.0, 1e-12);
}

TEST(QueryProtocol, MeshContactsBadInputNamesTheField) {
  const std::pair<std::function<void(json&)>, const char*> cases[] = {
      {[](json& r) { r["max_contacts"] = 0; }, "max_contacts"},
      {[](json& r) { r["max_contacts"] = -3; }, "max_contacts"},
      {[](json& r) { r["max_contacts"] = 2.5; }, "max_contacts"},
      {[](json& r) { r["max_contacts"] = "many"; }, "max_contacts"},
      {[](json& r) { r["margin"] = -0.001; }, "margin"},
      {[](json& r) { r["patch_angle"] = 2.0; }, "patch_angle"},
      {[](json& r) { r["patch_angle"] = "flat"; }, "patch_angle"},
      {[](json& r) { r["cluster"] = 1; }, "cluster"},
      {[](json& r) { r["cluster_weights"] = {{"normal", -1}}; }, "cluster_weights.normal"},
      {[](json& r) { r["cluster_weights"] = {{"colour", 1}}; }, "cluster_weights.colour"},
      {[](json& r) { r["cluster_weights"] = 3; }, "cluster_weights"},
      {[](json& r) { r["hierarchical_limit"] = -1; }, "hierarchical_limit"},
      {[](json& r) { r["drop_shadowed"] = 1; }, "drop_shadowed"},
      {[](json& r) { r["feature_pairs"] = "yes"; }, "feature_pairs"},
      {[](json& r) { r["patch_hulls"] = "yes"; }, "patch_hulls"},
      {[](json& r) { r["max_points"] = 4; }, "max_points"},
      {[](json& r) { r["a"]["triangles"] = json::array(); }, "a"},       // empty mesh
      {[](json& r) { r["b"]["vertices"] = json::array(); }, "b.triangles[0]"},
      {[](json& r) { r["a"]["margin"] = -1; }, "margin"},
  };
  for (const auto& [edit, expect] : cases) {
    json r = resting_cubes();
    edit(r);
    const json a = answer(r);
    EXPECT_EQ(a["status"], "error") << r.dump();
    EXPECT_EQ(a["id"], "cubes");
    const std::string m = a.value("message", "");
    EXPECT_NE(m.find(expect), std::string::npos) << expect << " → " << m;
  }
  // Mesh-only options on a convex pair are named too.
  json c = json::parse(R"({"query": "contacts", "a": {"shape": "box", "size": [1, 1, 1]},
                           "pose_a": {"p": [0, 0, 0.99]}, "b": {"shape": "box", "size": [2, 2, 1]}})");
  c["max_contacts"] = 4;
  EXPECT_NE(answer(c)["message"].get<std::string>().find("max_contacts"), std::string::npos);
  c.erase("max_contacts");
  c["feature_pairs"] = true;
  EXPECT_NE(answer(c)["message"].get<std::string>().find("feature_pairs"), std::string::npos);
}

TEST(QueryProtocol, BadMeshesGiveErrorsNamingTheInput) {
  const std::pair<const char*, const char*> cases[] = {
      {R"({"query": "distance", "a": {"shape": "mesh"}, "b": {"shape": "sphere", "radius": 1}})", "either \"file\" or \"vertices\""},
      {R"({"query": "distance", "a": {"shape": "mesh", "vertices": [[0,0,0]], "triangles": [[0,1,2]]}, "b": {"shape": "sphere", "radius": 1}})", "a.triangles[0]: index 1 is not a vertex index (0 to 0)"},
      {R"({"query": "distance", "a": {"shape": "mesh", "vertices": [[0,0,0],[1,0,0],[0,1,0]], "triangles": [[0,1,3]]}, "b": {"shape": "sphere", "radius": 1}})", "index 3 is not a vertex index (0 to 2)"},
      {R"({"query": "distance", "a": {"shape": "mesh", "vertices": [], "triangles": [[0,1,2]]}, "b": {"shape": "sphere", "radius": 1}})", "index 0 is not a vertex index (there are no vertices)"},
      {R"({"query": "distance", "a": {"shape": "sphere", "radius": 1}, "b": {"shape": "mesh", "vertices": [[0,0,0],[1,"x",0],[0,1,0]], "triangles": [[0,1,2]]}})", "b.vertices[1][1]"},
      {R"({"query": "distance", "a": {"shape": "mesh", "vertices": [[0,0,0],[1,0,0],[0,1,0]], "triangles": []}, "b": {"shape": "sphere", "radius": 1}})", "a"},
      {R"({"query": "distance", "a": {"shape": "mesh", "vertices": [[0,0,0],[1,0,0],[0,1,0]], "triangles": [[0,1,2]], "margin": -1}, "b": {"shape": "sphere", "radius": 1}})", "margin"},
      {R"({"query": "distance", "method": "sat", "a": {"shape": "mesh", "vertices": [[0,0,0],[1,0,0],[0,1,0]], "triangles": [[0,1,2]]}, "b": {"shape": "sphere", "radius": 1}})", "method"},
  };
  for (const auto& [line, expect] : cases) {
    const json a = answer_line(line);
    EXPECT_EQ(a["status"], "error") << line;
    const std::string m = a.value("message", "");
    EXPECT_NE(m.find(expect), std::string::npos) << line << " → " << m;
  }
}

TEST(QueryProtocol, BadLinesGiveErrorsNamingTheInput) {
  const std::pair<const char*, const char*> cases[] = {
      {"not json at all", "not valid JSON"},
      {"[1, 2, 3]", "expected a JSON object"},
      {R"({"id": 3})", "query"},
      {R"({"id": 3, "query": "teleport"})", "unknown \"teleport\""},
      {R"({"query": "distance", "b": {"shape": "sphere", "radius": 1}})", "a:"},
      {R"({"query": "distance", "a": {"shape": "blob"}, "b": {"shape": "sphere", "radius": 1}})", "unknown shape \"blob\""},
      {R"({"query": "distance", "a": {"shape": "sphere", "radius": -1}, "b": {"shape": "sphere", "radius": 1}})", "radius must be finite and > 0"},
      {R"({"query": "distance", "a": {"shape": "sphere"}, "b": {"shape": "sphere", "radius": 1}})", "missing \"radius\""},
      {R"({"query": "distance", "a": {"shape": "box", "size": [1, 1]}, "b": {"shape": "sphere", "radius": 1}})", "a.size"},
      {R"({"query": "distance", "a": {"shape": "sphere", "radius": 1}, "b": {"shape": "sphere", "radius": 1}, "pose_a": {"q": [0, 0, 0, 0]}})", "pose_a"},
      {R"({"query": "distance", "a": {"shape": "sphere", "radius": 1}, "b": {"shape": "sphere", "radius": 1}, "pose_b": {"p": [1, "x", 0]}})", "pose_b.p[1]"},
      {R"({"query": "distance", "a": {"shape": "sphere", "radius": 1}, "b": {"shape": "sphere", "radius": 1}, "pose_b": {"p": [1e999, 0, 0]}})", "number overflow"},
      // Finite but beyond the range of lengths: squared, it would overflow.
      {R"({"query": "distance", "a": {"shape": "sphere", "radius": 1}, "b": {"shape": "sphere", "radius": 1}, "pose_a": {"p": [1e200, 0, 0]}})", "pose_a.p: 1e+200 is beyond ±1e15"},
      {R"({"query": "distance", "a": {"shape": "sphere", "radius": 1}, "b": {"shape": "sphere", "radius": 1}, "pose_b": {"p": [0, -2e15, 0], "q": [1, 0, 0, 0]}})", "pose_b.p: -2e+15 is beyond ±1e15"},
      {R"({"query": "signed_distance", "a": {"shape": "box", "size": [1e300, 1, 1]}, "b": {"shape": "sphere", "radius": 1}})", "a.size: 1e+300 is beyond ±1e15"},
      {R"({"query": "contacts", "a": {"shape": "mesh", "vertices": [[0,0,0],[1,0,0],[0,1,0]], "triangles": [[0,1,2]], "margin": 1e300}, "b": {"shape": "sphere", "radius": 1}})", "a.margin: must be in [0, 1e+15] m (got 1e+300)"},
      {R"({"query": "distance", "a": {"shape": "convex", "points": [[0,0,0],[1,0,0],[0,1,0]]}, "b": {"shape": "sphere", "radius": 1}})", "coplanar"},
      {R"({"query": "distance", "a": {"shape": "convex", "points": []}, "b": {"shape": "sphere", "radius": 1}})", "empty"},
      {R"({"query": "tolerance", "a": {"shape": "sphere", "radius": 1}, "b": {"shape": "sphere", "radius": 1}})", "tolerance"},
  };
  for (const auto& [line, expect] : cases) {
    const json a = answer_line(line);
    EXPECT_EQ(a["status"], "error") << line;
    const std::string m = a.value("message", "");
    EXPECT_NE(m.find(expect), std::string::npos) << line << " → " << m;
  }
}

// The stream's answers to `input`, each output line parsed; `errors` is the
// count run_query_stream must return.
std::vector<json> stream_answers(const std::string& input, int errors) {
  std::istringstream in(input);
  std::ostringstream out;
  EXPECT_EQ(run_query_stream(in, out), errors);
  std::istringstream lines(out.str());
  std::vector<json> answers;
  for (std::string l; std::getline(lines, l);) answers.push_back(json::parse(l));
  return answers;
}

TEST(QueryProtocol, StreamAnswersEveryLineInOrderAndGoesOn) {
  const std::vector<json> answers = stream_answers(
      "{\"id\": 1, \"query\": \"distance\", \"a\": {\"shape\": \"sphere\", \"radius\": 1}, \"b\": {\"shape\": \"sphere\", \"radius\": 1}, \"pose_a\": {\"p\": [3, 0, 0]}}\n"
      "garbage\n"
      "\n"
      "{\"id\": 3, \"query\": \"contacts\", \"a\": {\"shape\": \"sphere\", \"radius\": 1}, \"b\": {\"shape\": \"sphere\", \"radius\": 1}}\n"
      "{\"id\": 4, \"query\": \"collide\", \"a\": {\"shape\": \"sphere\", \"radius\": 1}, \"b\": {\"shape\": \"sphere\", \"radius\": 1}}\n",
      1);
  ASSERT_EQ(answers.size(), 4u);
  EXPECT_EQ(answers[0]["id"], 1);
  EXPECT_EQ(answers[1]["status"], "error");
  EXPECT_EQ(answers[2]["status"], "ok");
  EXPECT_EQ(answers[2]["contacts"].size(), 1u);
  EXPECT_EQ(answers[3]["collide"], true);
}

// A line that is not UTF-8 (a Latin-1 file, a corrupted pipe): the parse
// error's message quotes its bytes, and writing that answer used to throw
// and end the stream (found by fuzz/fuzz_query.cpp). Now the bad bytes are
// written as U+FFFD and the next line is answered.
TEST(QueryProtocol, StreamSurvivesALineThatIsNotUtf8) {
  const std::vector<json> answers =
      stream_answers(std::string("{\"id\": 1, \"a\": {\xdc\x8c\x97 \"sphere\"}}\n") +
                         "{\"id\": 2, \"query\": \"collide\", \"a\": {\"shape\": \"sphere\", \"radius\": 1}, "
                         "\"b\": {\"shape\": \"sphere\", \"radius\": 1}}\n",
                     1);
  ASSERT_EQ(answers.size(), 2u);
  EXPECT_EQ(answers[0]["status"], "error");
  EXPECT_NE(answers[0]["message"].get<std::string>().find("not valid JSON"), std::string::npos);
  EXPECT_NE(answers[0]["message"].get<std::string>().find("\xEF\xBF\xBD"), std::string::npos);  // U+FFFD
  EXPECT_EQ(answers[1]["id"], 2);
  EXPECT_EQ(answers[1]["collide"], true);
}

}  // namespace
}  // namespace proxima::apps
