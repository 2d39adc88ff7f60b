// SPDX-License-Identifier: BSD-3-Clause
// `proxima watch --deadline`: through real pipes, the command answers a
// silent feed with `stop` lines of its own, after the last answer and in
// order, each stamped with the last sample's time plus the silence so far.
// Nothing here depends on how fast the machine is: the test waits for each
// line it expects (up to minutes, a guard against a hang, not a measure).
#include <unistd.h>

#include <filesystem>
#include <limits>
#include <sstream>
#include <streambuf>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "line_source.hpp"
#include "watch_protocol.hpp"

namespace proxima::apps {
namespace {

using nlohmann::json;

std::filesystem::path deadline_panda_dir() {
  return std::filesystem::path(__FILE__).parent_path().parent_path() / "data" / "robots" / "panda";
}

// An unbuffered std::ostream onto a file descriptor: each flushed answer
// reaches the pipe at once.
class FdOutBuf final : public std::streambuf {
 public:
  explicit FdOutBuf(int fd) : fd_(fd) {}

 protected:
  int_type overflow(int_type c) override {
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    const char ch = traits_type::to_char_type(c);
    return xsputn(&ch, 1) == 1 ? c : traits_type::eof();
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    std::streamsize done = 0;
    while (done < n) {
      const ssize_t w = ::write(fd_, s + done, static_cast<std::size_t>(n - done));
      if (w <= 0) return done;
      done += w;
    }
    return done;
  }

 private:
  int fd_;
};

void write_line(int fd, const std::string& line) {
  const std::string text = line + "\n";
  ASSERT_EQ(::write(fd, text.data(), text.size()), static_cast<ssize_t>(text.size()));
}

// The next answer; a failure (not a hang) when none comes for minutes.
json next_answer(LineSource& answers) {
  std::string line;
  const LineSource::Read r = answers.next(line, 300.0);
  EXPECT_EQ(r, LineSource::Read::line) << "no answer came";
  return r == LineSource::Read::line ? json::parse(line) : json();
}

void expect_deadline_stop(const json& a) {
  EXPECT_EQ(a["status"], "ok") << a.dump();
  EXPECT_EQ(a["level"], "stop") << a.dump();
  EXPECT_EQ(a["speed_factor"], 0.0) << a.dump();
  EXPECT_EQ(a["reason"], "deadline") << a.dump();
  EXPECT_EQ(a["stale"], true) << a.dump();
  EXPECT_NE(a["message"].get<std::string>().find("no line for"), std::string::npos) << a.dump();
}

TEST(WatchDeadline, SilenceIsAnsweredWithStopsInOrderThroughAPipe) {
  constexpr double kDeadline = 0.05;
  int in[2], out[2];
  ASSERT_EQ(::pipe(in), 0);
  ASSERT_EQ(::pipe(out), 0);
  int code = -1;
  std::string errors;
  std::thread watch([&] {
    WatchCommandOptions o;
    o.robot.urdf = (deadline_panda_dir() / "panda.urdf").string();
    o.robot.srdf = (deadline_panda_dir() / "panda.srdf").string();
    o.deadline = kDeadline;
    FdLineSource lines(in[0]);
    FdOutBuf buf(out[1]);
    std::ostream answers(&buf);
    std::ostringstream err;
    code = run_watch_command(o, lines, answers, err);
    errors = err.str();
    ::close(out[1]);  // the reader sees the end
  });
  FdLineSource answers(out[0]);
  const std::string ready = R"("q": [0, -0.785, 0, -2.356, 0, 1.571, 0.785]})";
  write_line(in[1], R"({"t": 2.0, )" + ready);
  const json first = next_answer(answers);
  EXPECT_EQ(first["t"], 2.0);
  EXPECT_EQ(first["reason"], "none");
  EXPECT_EQ(first["speed_factor"], 1.0);
  // Nothing more is written: the command stops the robot itself, twice.
  const json d1 = next_answer(answers), d2 = next_answer(answers);
  expect_deadline_stop(d1);
  expect_deadline_stop(d2);
  // Stamped with the sample's time plus at least the silence so far.
  EXPECT_GE(d1["t"].get<double>(), 2.0 + kDeadline);
  EXPECT_GE(d2["t"].get<double>(), d1["t"].get<double>() + kDeadline - 1e-9);
  // A sample ends the silence: it is answered as usual, after any stop
  // written before it arrived.
  write_line(in[1], R"({"t": 2.5, )" + ready);
  json a = next_answer(answers);
  while (a.is_object() && a["reason"] == "deadline") a = next_answer(answers);
  EXPECT_EQ(a["t"], 2.5);
  EXPECT_EQ(a["reason"], "none");
  EXPECT_EQ(a["speed_factor"], 1.0);
  // EOF ends the stream (any stops written until then come first).
  ::close(in[1]);
  std::string line;
  std::vector<json> rest;
  while (answers.next(line, 300.0) == LineSource::Read::line) rest.push_back(json::parse(line));
  for (const json& r : rest) expect_deadline_stop(r);
  watch.join();
  EXPECT_EQ(code, 0) << errors;
  ::close(in[0]);
  ::close(out[0]);
}

TEST(WatchDeadline, IsCountedFromTheFirstSampleAndOnlyWithAFileDescriptor) {
  // Before any sample there is no time to stamp a stop with: lines that are
  // not samples are answered, and EOF ends the stream with nothing added.
  int in[2];
  ASSERT_EQ(::pipe(in), 0);
  write_line(in[1], R"({"t": 1.0})");
  write_line(in[1], "oops");
  ::close(in[1]);
  WatchCommandOptions o;
  o.robot.urdf = (deadline_panda_dir() / "panda.urdf").string();
  o.deadline = 0.01;
  FdLineSource lines(in[0]);
  std::ostringstream out, err;
  ASSERT_EQ(run_watch_command(o, lines, out, err), 0) << err.str();
  std::istringstream text(out.str());
  std::vector<json> a;
  for (std::string l; std::getline(text, l);) a.push_back(json::parse(l));
  ASSERT_EQ(a.size(), 2u) << out.str();
  EXPECT_EQ(a[0]["reason"], "none");
  EXPECT_EQ(a[1]["status"], "error");
  ::close(in[0]);
  // A stream cannot be polled: refused, naming the flag.
  std::istringstream stream;
  std::ostringstream out2, err2;
  EXPECT_EQ(run_watch_command(o, stream, out2, err2), 1);
  EXPECT_NE(err2.str().find("--deadline"), std::string::npos) << err2.str();
}

TEST(WatchDeadline, FlagsOutOfRangeAreNamed) {
  auto fails = [](WatchCommandOptions o, const std::string& part) {
    o.robot.urdf = (deadline_panda_dir() / "panda.urdf").string();
    std::istringstream in;
    StreamLineSource lines(in);
    std::ostringstream out, err;
    EXPECT_EQ(run_watch_command(o, lines, out, err), 1);
    EXPECT_NE(err.str().find(part), std::string::npos) << err.str();
  };
  WatchCommandOptions o;
  o.deadline = 0.0;
  fails(o, "--deadline 0 must be a positive number of seconds");
  o.deadline = -1.0;
  fails(o, "--deadline -1");
  o.deadline = std::numeric_limits<double>::infinity();
  fails(o, "--deadline inf");
  o = {};
  o.feed.angle_tolerance = -0.1;
  fails(o, "--angle-tolerance -0.1 must be finite and >= 0");
  o = {};
  o.feed.length_tolerance = std::numeric_limits<double>::quiet_NaN();
  fails(o, "--length-tolerance");
  o = {};
  o.feed.speed_tolerance = 0.9;
  fails(o, "--speed-tolerance 0.9 must be finite and >= 1");
}

TEST(WatchDeadline, AStreamNeverTimesOut) {
  std::istringstream in("a\n\nb");
  StreamLineSource lines(in);
  std::string line;
  EXPECT_EQ(lines.next(line, 0.0), LineSource::Read::line);
  EXPECT_EQ(line, "a");
  EXPECT_EQ(lines.next(line, 0.0), LineSource::Read::line);
  EXPECT_EQ(line, "");
  EXPECT_EQ(lines.next(line, 0.0), LineSource::Read::line);
  EXPECT_EQ(line, "b");
  EXPECT_EQ(lines.next(line, 0.0), LineSource::Read::eof);
}

TEST(WatchDeadline, AFileDescriptorGivesLinesAsTheyCompleteThenTimesOutThenEnds) {
  int p[2];
  ASSERT_EQ(::pipe(p), 0);
  FdLineSource lines(p[0]);
  std::string line;
  const std::string text = "first\nsec";
  ASSERT_EQ(::write(p[1], text.data(), text.size()), static_cast<ssize_t>(text.size()));
  EXPECT_EQ(lines.next(line, 0.0), LineSource::Read::line);
  EXPECT_EQ(line, "first");
  // Half a line: nothing to give yet.
  EXPECT_EQ(lines.next(line, 0.0), LineSource::Read::timeout);
  EXPECT_EQ(lines.next(line, 0.001), LineSource::Read::timeout);
  const std::string more = "ond\n";
  ASSERT_EQ(::write(p[1], more.data(), more.size()), static_cast<ssize_t>(more.size()));
  // A wait beyond any clock (or no number at all) is for ever: a complete
  // line comes at once.
  EXPECT_EQ(lines.next(line, 1e300), LineSource::Read::line);
  EXPECT_EQ(line, "second");
  const std::string again = "third\nlast";
  ASSERT_EQ(::write(p[1], again.data(), again.size()), static_cast<ssize_t>(again.size()));
  EXPECT_EQ(lines.next(line, std::numeric_limits<double>::quiet_NaN()), LineSource::Read::line);
  EXPECT_EQ(line, "third");
  ::close(p[1]);
  EXPECT_EQ(lines.next(line, 0.0), LineSource::Read::line);  // the last, without its newline
  EXPECT_EQ(line, "last");
  EXPECT_EQ(lines.next(line, 0.0), LineSource::Read::eof);
  ::close(p[0]);
}

}  // namespace
}  // namespace proxima::apps
