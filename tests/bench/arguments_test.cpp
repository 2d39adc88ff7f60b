// SPDX-License-Identifier: BSD-3-Clause
// The benchmark programs' strict options (bench/arguments.hpp): a number is
// the whole argument and within its range, and every refusal names the
// option and the reason.
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "arguments.hpp"

namespace proxima::bench {
namespace {

// The message of the BadArgument `f` throws; "" when it throws none.
template <class F>
std::string refusal(F&& f) {
  try {
    f();
  } catch (const BadArgument& e) {
    return e.what();
  }
  return "";
}

TEST(BenchArguments, IntegerTakesTheWholeTextInRange) {
  EXPECT_EQ(integer("--poses", "1", 1, 10), 1);
  EXPECT_EQ(integer("--poses", "10", 1, 10), 10);
  EXPECT_EQ(integer("--seed", "4294967295", 0, 4294967295LL), 4294967295LL);
  EXPECT_EQ(integer("--configs", "0", 0, 5), 0);
}

TEST(BenchArguments, IntegerRefusalsNameTheOptionAndTheReason) {
  struct Case {
    const char* text;
    const char* message;
  };
  // What atoi made of these: 3, 0, 0, 1, 1, 0, and the range unchecked.
  const std::vector<Case> cases = {
      {"3x", "--runs takes an integer, not '3x'"},
      {"abc", "--runs takes an integer, not 'abc'"},
      {"", "--runs takes an integer, not ''"},
      {" 1", "--runs takes an integer, not ' 1'"},
      {"1.5", "--runs takes an integer, not '1.5'"},
      {"+2", "--runs takes an integer, not '+2'"},
      {"1e3", "--runs takes an integer, not '1e3'"},
      {"0", "--runs must be from 1 to 100, not 0"},
      {"-1", "--runs must be from 1 to 100, not -1"},
      {"101", "--runs must be from 1 to 100, not 101"},
      {"99999999999999999999999", "--runs must be from 1 to 100, not 99999999999999999999999"},
      {"99999999999999999999999x", "--runs takes an integer, not '99999999999999999999999x'"},
  };
  int checked = 0;
  for (const Case& c : cases) {
    EXPECT_EQ(refusal([&] { integer("--runs", c.text, 1, 100); }), c.message) << "text '" << c.text << "'";
    ++checked;
  }
  EXPECT_EQ(checked, 12);
}

TEST(BenchArguments, PositiveAndRangedNumbers) {
  EXPECT_EQ(positive("--time", "0.3"), 0.3);
  EXPECT_EQ(positive("--time", "1e-3"), 1e-3);
  EXPECT_EQ(number("--blob-noise", "0", 0.0, 0.5), 0.0);
  EXPECT_EQ(number("--blob-noise", "0.5", 0.0, 0.5), 0.5);
  struct Case {
    double (*parse)(const std::string&);
    const char* text;
    const char* message;
  };
  const auto time = [](const std::string& t) { return positive("--time", t); };
  const auto noise = [](const std::string& t) { return number("--blob-noise", t, 0.0, 0.5); };
  const std::vector<Case> cases = {
      {time, "x", "--time takes a number, not 'x'"},
      {time, "10s", "--time takes a number, not '10s'"},
      {time, "", "--time takes a number, not ''"},
      {time, "0", "--time must be positive, not 0"},
      {time, "-2", "--time must be positive, not -2"},
      {time, "inf", "--time must be finite, not inf"},
      {time, "nan", "--time must be finite, not nan"},
      {time, "1e999", "--time is beyond a double's range, not 1e999"},
      {noise, "0.7", "--blob-noise must be from 0 to 0.5, not 0.7"},
      {noise, "-0.01", "--blob-noise must be from 0 to 0.5, not -0.01"},
      {noise, "3%", "--blob-noise takes a number, not '3%'"},
      {noise, "0x1p-2", "--blob-noise takes a number, not '0x1p-2'"},
  };
  int checked = 0;
  for (const Case& c : cases) {
    EXPECT_EQ(refusal([&] { c.parse(c.text); }), c.message) << "text '" << c.text << "'";
    ++checked;
  }
  EXPECT_EQ(checked, 12);
}

// argv for Arguments: the program's name, then `options`.
struct Argv {
  std::vector<std::string> words;
  std::vector<char*> pointers;
  explicit Argv(std::vector<std::string> options) : words(std::move(options)) {
    words.insert(words.begin(), "proxima-bench");
    for (std::string& w : words) pointers.push_back(w.data());
  }
  int argc() const { return static_cast<int>(pointers.size()); }
  char** argv() { return pointers.data(); }
};

TEST(BenchArguments, ReadsOptionsInOrder) {
  Argv a({"--markdown", "--poses", "300", "--workload", "box", "--time", "2.5"});
  Arguments args(a.argc(), a.argv());
  ASSERT_TRUE(args.next());
  EXPECT_TRUE(args.is("--markdown"));
  ASSERT_TRUE(args.next());
  EXPECT_EQ(args.name(), "--poses");
  EXPECT_EQ(args.integer(1, 1000), 300);
  ASSERT_TRUE(args.next());
  EXPECT_EQ(args.text(), "box");
  ASSERT_TRUE(args.next());
  EXPECT_EQ(args.positive(), 2.5);
  EXPECT_FALSE(args.next());
}

TEST(BenchArguments, RefusesUnknownRepeatedAndValuelessOptions) {
  {
    Argv a({"--posses", "3"});
    Arguments args(a.argc(), a.argv());
    ASSERT_TRUE(args.next());
    EXPECT_EQ(refusal([&] { args.unknown(); }), "unknown option '--posses'");
  }
  {
    Argv a({"--poses", "4", "--poses", "5"});
    Arguments args(a.argc(), a.argv());
    ASSERT_TRUE(args.next());
    EXPECT_EQ(args.integer(1, 10), 4);
    EXPECT_EQ(refusal([&] { args.next(); }), "--poses given twice");
  }
  {
    // The value is missing, not the next option taken as one.
    Argv a({"--poses"});
    Arguments args(a.argc(), a.argv());
    ASSERT_TRUE(args.next());
    EXPECT_EQ(refusal([&] { args.integer(1, 10); }), "--poses needs a value");
  }
  {
    Argv a({"--poses", "--markdown"});
    Arguments args(a.argc(), a.argv());
    ASSERT_TRUE(args.next());
    EXPECT_EQ(refusal([&] { args.integer(1, 10); }), "--poses takes an integer, not '--markdown'");
  }
}

TEST(BenchArguments, RefuseWritesTheReasonAndTheUsageAndReturnsTwo) {
  testing::internal::CaptureStderr();
  const int status = refuse("proxima-toi-bench", BadArgument("--poses must be from 1 to 10, not 0"),
                            "usage: proxima-toi-bench [--poses N]\n");
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(status, 2);
  EXPECT_EQ(err, "proxima-toi-bench: --poses must be from 1 to 10, not 0\nusage: proxima-toi-bench [--poses N]\n");
}

}  // namespace
}  // namespace proxima::bench
