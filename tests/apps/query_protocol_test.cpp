// The `proxima query` JSON-lines protocol, as DESIGN.md specifies it.
#include <fstream>
#include <sstream>

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
  for (const char* m : {"auto", "sat", "gjk_epa", "incremental", "mpr"}) {
    o["method"] = m;
    const json ans = answer(o);
    if (ans["status"] != "ok") continue;  // incremental may decline to certify a box
    EXPECT_NEAR(ans["distance"].get<double>(), -0.5, std::string(m) == "mpr" ? 0.5 : 1e-9) << m;
  }
  o["method"] = "sat";
  o["a"] = json::parse(R"({"shape": "sphere", "radius": 1})");
  o["pose_a"] = json::parse(R"({"p": [1.4, 0, 0]})");  // centre inside the box: SAT does not apply
  EXPECT_EQ(answer(o)["status"], "not_implemented");
  r["method"] = "bogus";
  EXPECT_NE(answer(r)["message"].get<std::string>().find("bogus"), std::string::npos);
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
  EXPECT_EQ(answer(m)["collide"], false);
  m["pose_b"] = {{"p", {0.2, 0.2, 0.0}}, {"q", {0.7071067811865476, 0.7071067811865476, 0, 0}}};
  EXPECT_EQ(answer(m)["collide"], true);
  m["query"] = "signed_distance";
  EXPECT_EQ(answer(m)["status"], "not_implemented");
  m["query"] = "contacts";
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

TEST(QueryProtocol, BadMeshesGiveErrorsNamingTheInput) {
  const std::pair<const char*, const char*> cases[] = {
      {R"({"query": "distance", "a": {"shape": "mesh"}, "b": {"shape": "sphere", "radius": 1}})", "either \"file\" or \"vertices\""},
      {R"({"query": "distance", "a": {"shape": "mesh", "vertices": [[0,0,0]], "triangles": [[0,1,2]]}, "b": {"shape": "sphere", "radius": 1}})", "a.triangles[0]"},
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

TEST(QueryProtocol, StreamAnswersEveryLineInOrderAndGoesOn) {
  std::istringstream in(
      "{\"id\": 1, \"query\": \"distance\", \"a\": {\"shape\": \"sphere\", \"radius\": 1}, \"b\": {\"shape\": \"sphere\", \"radius\": 1}, \"pose_a\": {\"p\": [3, 0, 0]}}\n"
      "garbage\n"
      "\n"
      "{\"id\": 3, \"query\": \"contacts\", \"a\": {\"shape\": \"sphere\", \"radius\": 1}, \"b\": {\"shape\": \"sphere\", \"radius\": 1}}\n"
      "{\"id\": 4, \"query\": \"collide\", \"a\": {\"shape\": \"sphere\", \"radius\": 1}, \"b\": {\"shape\": \"sphere\", \"radius\": 1}}\n");
  std::ostringstream out;
  EXPECT_EQ(run_query_stream(in, out), 1);
  std::istringstream lines(out.str());
  std::vector<json> answers;
  for (std::string l; std::getline(lines, l);) answers.push_back(json::parse(l));
  ASSERT_EQ(answers.size(), 4u);
  EXPECT_EQ(answers[0]["id"], 1);
  EXPECT_EQ(answers[1]["status"], "error");
  EXPECT_EQ(answers[2]["status"], "ok");
  EXPECT_EQ(answers[2]["contacts"].size(), 1u);
  EXPECT_EQ(answers[3]["collide"], true);
}

}  // namespace
}  // namespace proxima::apps
