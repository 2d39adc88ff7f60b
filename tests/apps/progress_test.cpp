// SPDX-License-Identifier: BSD-3-Clause
// The progress line of long commands: what it draws, and that it erases
// itself and stays silent when switched off.
#include <unistd.h>

#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "progress.hpp"

namespace proxima::apps {
namespace {

TEST(Progress, DrawsTheShareAndErasesItself) {
  std::ostringstream s;
  {
    Progress p("proxima sim stack", 10.0, &s, 0.0);
    p.update(2.5, "t = 2.5 s");
    const std::string line = s.str();
    EXPECT_EQ(line.front(), '\r');
    EXPECT_NE(line.find("proxima sim stack  25 %"), std::string::npos) << line;
    EXPECT_NE(line.find("t = 2.5 s"), std::string::npos) << line;
    EXPECT_EQ(line.find('\n'), std::string::npos) << "a progress line never scrolls";
    p.update(20.0);  // clamped
    EXPECT_NE(s.str().find("100 %"), std::string::npos) << s.str();
  }
  // Erased on destruction: the last thing written is a carriage return
  // after blanks as wide as the widest line.
  const std::string all = s.str();
  ASSERT_EQ(all.back(), '\r');
  const std::size_t blank_start = all.rfind('\r', all.size() - 2);
  EXPECT_EQ(all.substr(blank_start + 1, all.size() - blank_start - 2).find_first_not_of(' '), std::string::npos);
}

TEST(Progress, ThrottlesRedraws) {
  std::ostringstream s;
  Progress p("demo", 100.0, &s, 3600.0);
  p.update(1.0);
  const std::string first = s.str();
  for (int i = 2; i < 100; ++i) p.update(i);
  EXPECT_EQ(s.str(), first) << "redrawn within the interval";
  p.clear();
  p.update(50.0);  // after a clear, drawn at once
  EXPECT_NE(s.str().find("50 %"), std::string::npos);
}

TEST(Progress, SilentWhenOff) {
  Progress p("demo", 1.0, nullptr);
  EXPECT_FALSE(p.active());
  p.update(0.5);
  p.finish();
  // Not a terminal under ctest: the factory stays silent even when enabled.
  Progress t = Progress::on_terminal("demo", 1.0, true);
  if (!isatty(STDERR_FILENO)) {
    EXPECT_FALSE(t.active());
  }
  EXPECT_FALSE(Progress::on_terminal("demo", 1.0, false).active());
}

}  // namespace
}  // namespace proxima::apps
