// SPDX-License-Identifier: BSD-3-Clause
// The JSON reader every `proxima` input goes through: duplicate keys named
// with their place, unread keys refused with the nearest known key, numbers
// range-checked with the field named.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <proxima/core/error.hpp>

#include "json_reader.hpp"

namespace proxima::apps {
namespace {

using nlohmann::json;

// The message of the proxima::Error that f throws ("" when it throws none).
template <class F>
std::string reader_error_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return {};
}

TEST(JsonReader, ADuplicateKeyIsNamedWithItsPlace) {
  struct Case {
    const char* text;
    const char* message;
  };
  const std::vector<Case> cases = {
      {R"({"a": 1, "a": 2})", "a: duplicate key"},
      {R"({"pose_b": {"p": [0, 0, 1], "p": [0, 0, 2]}})", "pose_b.p: duplicate key"},
      {R"({"bodies": [{"name": "x"}, {"name": "y"}, {"density": 1, "density": 2}]})", "bodies[2].density: duplicate key"},
      {R"({"m": [[1, {"k": 1}], [{"z": 0}, {"k": 1, "k": 1}]]})", "m[1][1].k: duplicate key"},
      {R"([{"a": 1}, {"b": 1, "c": {"d": [], "d": []}}])", "[1].c.d: duplicate key"},
  };
  int checked = 0;
  for (const Case& c : cases) {
    EXPECT_EQ(reader_error_of([&] { (void)parse_json(std::string(c.text)); }), c.message) << c.text;
    ++checked;
  }
  EXPECT_EQ(checked, 5);
}

TEST(JsonReader, TheSameKeyInSiblingObjectsIsNoDuplicate) {
  const json j = parse_json(std::string(R"({"a": {"k": 1}, "b": {"k": 2}, "c": [{"k": 3}, {"k": 4}], "k": 5})"));
  EXPECT_EQ(j["a"]["k"], 1);
  EXPECT_EQ(j["c"][1]["k"], 4);
  EXPECT_EQ(j["k"], 5);
}

TEST(JsonReader, TextThatIsNotJsonIsAParseError) {
  EXPECT_THROW((void)parse_json(std::string(R"({"a": )")), json::parse_error);
  EXPECT_THROW((void)parse_json(std::string(R"({"a": 1e400})")), json::exception);  // no double holds it
  EXPECT_THROW((void)parse_json(std::string(R"({"a": 1} x)")), json::parse_error);
}

TEST(JsonReader, AnUnreadKeyIsRefusedWithTheNearestDeclaredOne) {
  const json j = json::parse(R"({"radius": 1, "margn": 0.1})");
  const std::string m = reader_error_of([&] {
    read_object(j, "a", [](ObjectReader& r) {
      (void)r.number("radius");
      (void)r.number_or("margin", 0.0);
    });
  });
  EXPECT_EQ(m, "a.margn: unknown key (did you mean \"margin\"?)");
}

TEST(JsonReader, WithNoNearKeyTheDeclaredKeysAreListed) {
  const json j = json::parse(R"({"position": [0, 0, 1]})");
  const std::string m = reader_error_of([&] {
    read_object(j, "pose_b", [](ObjectReader& r) {
      (void)r.get("p");
      (void)r.get("q");
    });
  });
  EXPECT_EQ(m, "pose_b.position: unknown key (expected \"p\" or \"q\")");
}

TEST(JsonReader, TheTopLevelPathIsTheKeyAlone) {
  const json j = json::parse(R"({"query": "distance", "pose_B": {}})");
  const std::string m = reader_error_of([&] {
    read_object(j, "", [](ObjectReader& r) {
      (void)r.string("query");
      (void)r.get("pose_b");
    });
  });
  EXPECT_EQ(m, "pose_B: unknown key (did you mean \"pose_b\"?)");
}

TEST(JsonReader, NearestKeyCatchesTyposNotOtherWords) {
  const std::vector<std::string> known = {"radius", "margin", "environment", "density", "gravity", "p", "q"};
  EXPECT_EQ(nearest_key("raduis", known), "radius");      // letters swapped
  EXPECT_EQ(nearest_key("margn", known), "margin");       // one left out
  EXPECT_EQ(nearest_key("enviroment", known), "environment");
  EXPECT_EQ(nearest_key("densty", known), "density");
  EXPECT_EQ(nearest_key("gravty", known), "gravity");
  EXPECT_EQ(nearest_key("Radius", known), "radius");      // case
  EXPECT_EQ(nearest_key("position", known), "");          // another word
  EXPECT_EQ(nearest_key("xyz", known), "");               // three letters from "p"
  EXPECT_EQ(nearest_key("qq", known), "q");               // a letter doubled
  EXPECT_EQ(nearest_key("pos", known), "");               // two letters more than "p"
  EXPECT_EQ(nearest_key("colour", known), "");
  EXPECT_EQ(nearest_key("radius", {}), "");
}

TEST(JsonReader, ReadObjectFinishesEvenOnAnEarlyReturn) {
  const json j = json::parse(R"({"kind": "a", "extra": 1})");
  const std::string m = reader_error_of([&] {
    (void)read_object(j, "x", [](ObjectReader& r) {
      if (r.string("kind") == "a") return 1;
      return static_cast<int>(r.integer("extra", 0, 9));
    });
  });
  EXPECT_EQ(m, "x.extra: unknown key (expected \"kind\")");
}

TEST(JsonReader, RefusedKeysSayWhy) {
  const json j = json::parse(R"({"tolerance": 0.1})");
  const std::string m =
      reader_error_of([&] { read_object(j, "", [](ObjectReader& r) { r.refuse("tolerance", "applies to tolerance queries only"); }); });
  EXPECT_EQ(m, "tolerance: applies to tolerance queries only");
}

TEST(JsonReader, NumbersAreRangeCheckedNamingTheField) {
  struct Case {
    const char* text;
    Range range;
    const char* message;
  };
  const std::vector<Case> cases = {
      {"1e308", kLengthRange, "t: must be in [0, 1e+15] m (got 1e+308)"},
      {"-0.5", kLengthRange, "t: must be in [0, 1e+15] m (got -0.5)"},
      {"0", Range{0.0, 1.0, true, false, ""}, "t: must be in (0, 1] (got 0)"},
      {"2", Range{0.0, 2.0, true, true, ""}, "t: must be in (0, 2) (got 2)"},
      {"\"1\"", kLengthRange, "t: expected a number (got \"1\")"},
      {"null", kLengthRange, "t: expected a number (got null)"},
  };
  int checked = 0;
  for (const Case& c : cases) {
    const json j = json::parse(c.text);
    EXPECT_EQ(reader_error_of([&] { (void)number_at(j, "t", c.range); }), c.message) << c.text;
    ++checked;
  }
  EXPECT_EQ(checked, 6);
  EXPECT_EQ(number_at(json(1e15), "t", kLengthRange), 1e15);  // the bounds are in
  EXPECT_EQ(number_at(json(0.0), "t", kLengthRange), 0.0);
}

TEST(JsonReader, IntegersVectorsAndStringsNameTheField) {
  EXPECT_EQ(reader_error_of([] { (void)integer_at(json(2.5), "n", 1, 9); }), "n: expected an integer from 1 to 9 (got 2.5)");
  EXPECT_EQ(reader_error_of([] { (void)integer_at(json(0), "n", 1, 9); }), "n: expected an integer from 1 to 9 (got 0)");
  EXPECT_EQ(reader_error_of([] { (void)integer_at(json(18446744073709551615ull), "n", 1, 9); }),
            "n: expected an integer from 1 to 9 (got 18446744073709551615)");
  EXPECT_EQ(integer_at(json(9), "n", 1, 9), 9);
  EXPECT_EQ(reader_error_of([] { (void)vec3_at(json::parse("[1, 2]"), "v"); }), "v: expected an array of 3 numbers");
  EXPECT_EQ(reader_error_of([] { (void)vec3_at(json::parse("[1, true, 3]"), "v"); }), "v[1]: expected a number (got true)");
  EXPECT_EQ(reader_error_of([] { (void)vec3_at(json::parse("[1, 2, 1e300]"), "v"); }),
            "v: 1e+300 is beyond ±1e15, the range of lengths Proxima accepts");
  EXPECT_EQ(reader_error_of([] { (void)string_at(json(3), "s"); }), "s: expected a string (got 3)");
  EXPECT_EQ(reader_error_of([] { (void)bool_at(json(1), "b"); }), "b: expected true or false (got 1)");
}

TEST(JsonReader, AMissingRequiredKeyIsNamed) {
  const json j = json::parse(R"({"shape": "sphere"})");
  const std::string m = reader_error_of([&] { read_object(j, "b", [](ObjectReader& r) { (void)r.number("radius"); }); });
  EXPECT_EQ(m, "b: missing \"radius\"");
  const std::string top = reader_error_of([&] { read_object(j, "", [](ObjectReader& r) { (void)r.required("q", "the joints"); }); });
  EXPECT_EQ(top, "q: missing (the joints)");
}

TEST(JsonReader, ANonObjectIsRefusedNamingThePlace) {
  EXPECT_EQ(reader_error_of([] { read_object(json::parse("[1]"), "pose_a", [](ObjectReader&) {}); }),
            "pose_a: expected a JSON object (got [1])");
}

}  // namespace
}  // namespace proxima::apps
