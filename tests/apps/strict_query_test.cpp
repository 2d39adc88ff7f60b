// SPDX-License-Identifier: BSD-3-Clause
// `proxima query` lines are read strictly: a misspelt, unknown or repeated
// key, or a number out of range, is an error answer naming the field, never
// an answer computed as if the key were absent.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "query_protocol.hpp"

namespace proxima::apps {
namespace {

using nlohmann::json;

struct QueryRefused {
  const char* line;
  const char* message;  // the whole message the answer must carry
};

// Answers every line and checks it is an error with exactly its message;
// returns how many lines were checked.
int expect_query_refused(const std::vector<QueryRefused>& cases) {
  int checked = 0;
  for (const QueryRefused& c : cases) {
    const json a = answer_line(c.line);
    EXPECT_EQ(a["status"], "error") << c.line << " → " << a.dump();
    EXPECT_EQ(a.value("message", ""), c.message) << c.line;
    ++checked;
  }
  return checked;
}

constexpr const char* kStrictPair = R"("a": {"shape": "sphere", "radius": 0.5}, "b": {"shape": "sphere", "radius": 0.5})";

std::string query_line(const std::string& query, const std::string& extra) {
  return R"({"id": 1, "query": ")" + query + R"(", )" + kStrictPair + (extra.empty() ? "" : ", " + extra) + "}";
}

TEST(StrictQuery, TheValidLineIsAnswered) {
  // The reference the cases below misspell: B 2 m along x, 1 m apart.
  const json a = answer_line(query_line("distance", R"("pose_b": {"p": [2, 0, 0], "q": [1, 0, 0, 0]})"));
  ASSERT_EQ(a["status"], "ok") << a.dump();
  EXPECT_NEAR(a["distance"].get<double>(), 1.0, 1e-12);
}

TEST(StrictQuery, AMisspeltTopLevelKeyIsAnError) {
  const int n = expect_query_refused({
      {query_line("distance", R"("pose_B": {"p": [2, 0, 0]})").c_str(), "pose_B: unknown key (did you mean \"pose_b\"?)"},
      {query_line("distance", R"("pose_bb": {"p": [2, 0, 0]})").c_str(), "pose_bb: unknown key (did you mean \"pose_b\"?)"},
      {query_line("tolerance", R"("tolerance": 0.1, "tolerence": 0.2)").c_str(),
       "tolerence: unknown key (did you mean \"tolerance\"?)"},
      {query_line("collide", R"("methd": "gjk")").c_str(), "methd: unknown key (did you mean \"method\"?)"},
  });
  EXPECT_EQ(n, 4);
  // No key near: the message lists the keys a distance query reads.
  const std::string m = answer_line(query_line("distance", R"("colour": "red")"))["message"];
  EXPECT_EQ(m.rfind("colour: unknown key (expected \"id\", \"query\", ", 0), 0u) << m;
  EXPECT_NE(m.find("\"pose_b\""), std::string::npos) << m;
}

TEST(StrictQuery, AMisspeltKeyInAPoseIsAnError) {
  const int n = expect_query_refused({
      {query_line("distance", R"("pose_b": {"position": [2, 0, 0]})").c_str(),
       "pose_b.position: unknown key (expected \"p\" or \"q\")"},
      {query_line("distance", R"("pose_a": {"p": [0, 0, 0], "Q": [1, 0, 0, 0]})").c_str(),
       "pose_a.Q: unknown key (did you mean \"q\"?)"},
      {query_line("time_of_impact", R"("pose_b_end": {"p": [0, 0, 1], "rot": [1, 0, 0, 0]})").c_str(),
       "pose_b_end.rot: unknown key (expected \"p\" or \"q\")"},
  });
  EXPECT_EQ(n, 3);
}

TEST(StrictQuery, AMisspeltKeyInAShapeIsAnError) {
  const int n = expect_query_refused({
      {R"({"query": "distance", "a": {"shape": "sphere", "radius": 0.5, "margn": 0.1}, "b": {"shape": "sphere", "radius": 1}})",
       "a.margn: unknown key (did you mean \"margin\"?)"},
      {R"({"query": "distance", "a": {"shape": "sphere", "radius": 0.5}, "b": {"shape": "capsule", "raduis": 0.2, "radius": 0.1, "length": 1}})",
       "b.raduis: unknown key (did you mean \"radius\"?)"},
      {R"({"query": "distance", "a": {"shape": "sphere", "raduis": 0.5}, "b": {"shape": "sphere", "radius": 1}})",
       "a: missing \"radius\"; is \"raduis\" a typo of it?"},
      {R"({"query": "distance", "a": {"shape": "box", "size": [1, 1, 1], "radius": 1}, "b": {"shape": "sphere", "radius": 1}})",
       "a.radius: unknown key (expected \"shape\", \"margin\" or \"size\")"},
      {R"({"query": "distance", "a": {"shape": "mesh", "vertices": [[0,0,0],[1,0,0],[0,1,0]], "triangles": [[0,1,2]], "scale": 2}, "b": {"shape": "sphere", "radius": 1}})",
       "a.scale: applies to a mesh \"file\" only"},
      {R"({"query": "distance", "a": {"shape": "mesh", "vertices": [[0,0,0],[1,0,0],[0,1,0]], "triangles": [[0,1,2]], "margn": 0.1}, "b": {"shape": "sphere", "radius": 1}})",
       "a.margn: unknown key (did you mean \"margin\"?)"},
  });
  EXPECT_EQ(n, 6);
}

TEST(StrictQuery, ADuplicateKeyIsAnErrorNamingIt) {
  const int n = expect_query_refused({
      {R"({"query": "distance", "query": "collide", "a": {"shape": "sphere", "radius": 1}, "b": {"shape": "sphere", "radius": 1}})",
       "query: duplicate key"},
      {R"({"query": "distance", "a": {"shape": "sphere", "radius": 1, "radius": 2}, "b": {"shape": "sphere", "radius": 1}})",
       "a.radius: duplicate key"},
      {R"({"query": "distance", "a": {"shape": "sphere", "radius": 1}, "b": {"shape": "sphere", "radius": 1}, "pose_b": {"p": [3, 0, 0], "p": [0, 0, 0]}})",
       "pose_b.p: duplicate key"},
  });
  EXPECT_EQ(n, 3);
}

TEST(StrictQuery, KeysOfAnotherQueryAreRefusedSayingWhere) {
  const int n = expect_query_refused({
      {query_line("distance", R"("tolerance": 0.1)").c_str(), "tolerance: applies to tolerance queries only"},
      {query_line("collide", R"("margin": 0.1)").c_str(),
       "margin: applies to contacts queries only (a shape's own margin goes inside its object)"},
      {query_line("distance", R"("pose_a_end": {})").c_str(), "pose_a_end: applies to time_of_impact queries only"},
      {query_line("contacts", R"("warm_start": [1, 0, 0])").c_str(), "warm_start: does not apply to contacts"},
      {query_line("contacts", R"("method": "gjk")").c_str(), "method: does not apply to contacts"},
      {query_line("collide", R"("bound": 1)").c_str(), "bound: applies to distance and signed_distance queries only"},
      {query_line("contacts", R"("max_contacts": 4)").c_str(),
       "max_contacts: applies to pairs with a mesh operand only (convex pairs: max_points)"},
  });
  EXPECT_EQ(n, 7);
}

TEST(StrictQuery, NumbersOutOfRangeNameTheField) {
  const int n = expect_query_refused({
      {query_line("tolerance", R"("tolerance": 1e308)").c_str(), "tolerance: must be in [0, 1e+15] m (got 1e+308)"},
      {query_line("tolerance", R"("tolerance": -0.1)").c_str(), "tolerance: must be in [0, 1e+15] m (got -0.1)"},
      {query_line("tolerance", "").c_str(), "tolerance: missing"},
      {query_line("contacts", R"("margin": 1e300)").c_str(), "margin: must be in [0, 1e+15] m (got 1e+300)"},
      {query_line("collide", R"("warm_start": [0, 0, 0])").c_str(), "warm_start: must be a non-zero direction"},
      {query_line("distance", R"("warm_start": [1, 0, 1e300])").c_str(),
       "warm_start: 1e+300 is beyond ±1e15, the range of lengths Proxima accepts"},
      {query_line("distance", R"("bound": -1)").c_str(), "bound: must be in [0, 1e+15] m (got -1)"},
      {query_line("contacts", R"("disc_points": 2)").c_str(), "disc_points: expected an integer from 3 to 100000 (got 2)"},
      {query_line("contacts", R"("feature_tolerance": 2)").c_str(), "feature_tolerance: must be in [0, 1] (got 2)"},
      {query_line("time_of_impact", R"("accuracy": 0)").c_str(), "accuracy: must be in (0, 1e+15] m (got 0)"},
      {query_line("time_of_impact", R"("max_iterations": 1.5)").c_str(),
       "max_iterations: expected an integer from 1 to 100000 (got 1.5)"},
      {R"({"query": "distance", "a": {"shape": "sphere", "radius": 1, "margin": -1}, "b": {"shape": "sphere", "radius": 1}})",
       "a.margin: must be in [0, 1e+15] m (got -1)"},
      {R"({"query": "distance", "a": {"shape": "sphere", "radius": 1}, "b": {"shape": "sphere", "radius": 1}, "pose_a": {"p": [1e16, 0, 0]}})",
       "pose_a.p: 1e+16 is beyond ±1e15, the range of lengths Proxima accepts"},
  });
  EXPECT_EQ(n, 13);
}

TEST(StrictQuery, TheOptionsInRangeAreStillAnswered) {
  int answered = 0;
  for (const std::string& l : {query_line("tolerance", R"("tolerance": 1e15)"), query_line("contacts", R"("margin": 0.01)"),
                               query_line("collide", R"("warm_start": [0, 0, 1e-300])"),
                               query_line("distance", R"("bound": 0, "pose_b": {"p": [3, 0, 0]})"),
                               query_line("time_of_impact", R"("accuracy": 1e-3, "max_iterations": 100000)")}) {
    const json a = answer_line(l);
    EXPECT_TRUE(a["status"] == "ok" || a["status"] == "not_converged") << l << " → " << a.dump();
    ++answered;
  }
  EXPECT_EQ(answered, 5);
}

TEST(StrictQuery, MeshPairsAreStrictToo) {
  const std::string mesh = R"({"shape": "mesh", "vertices": [[0,0,0],[1,0,0],[0,1,0]], "triangles": [[0,1,2]]})";
  const int n = expect_query_refused({
      {(R"({"query": "contacts", "a": )" + mesh + R"(, "b": {"shape": "sphere", "radius": 1}, "cluster_weights": {"pont": 1}})").c_str(),
       "cluster_weights.pont: unknown key (did you mean \"point\"?)"},
      {(R"({"query": "contacts", "a": )" + mesh + R"(, "b": {"shape": "sphere", "radius": 1}, "max_contact": 4})").c_str(),
       "max_contact: unknown key (did you mean \"max_contacts\"?)"},
      {(R"({"query": "distance", "a": )" + mesh + R"(, "b": {"shape": "sphere", "radius": 1}, "pose_b": {"pos": [0, 0, 3]}})").c_str(),
       "pose_b.pos: unknown key (expected \"p\" or \"q\")"},
      {(R"({"query": "tolerance", "a": )" + mesh + R"(, "b": {"shape": "sphere", "radius": 1}, "tolerance": 1e300})").c_str(),
       "tolerance: must be in [0, 1e+15] m (got 1e+300)"},
      {(R"({"query": "distance", "a": )" + mesh + R"(, "b": {"shape": "sphere", "radius": 1}, "warm_start": [1, 0, 0]})").c_str(),
       "warm_start: applies to convex pairs only"},
  });
  EXPECT_EQ(n, 5);
}

}  // namespace
}  // namespace proxima::apps
