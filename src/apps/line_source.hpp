// SPDX-License-Identifier: BSD-3-Clause
// Where a stream command reads its lines from, with a timeout: `proxima
// watch --deadline` answers silence on its own, which a blocking
// std::getline cannot. A stream never times out (tests, and the commands
// without a deadline); a POSIX file descriptor is polled.
#pragma once

#include <iosfwd>
#include <string>

namespace proxima::apps {

class LineSource {
 public:
  enum class Read { line, timeout, eof };
  virtual ~LineSource() = default;
  /// The next line, without its '\n' (the last one may lack it), into
  /// `line`; waits at most `timeout` seconds for it to complete (+inf, or
  /// anything beyond 1e9 s: as long as it takes). Read::timeout comes once `timeout` seconds have
  /// passed on std::chrono::steady_clock, not before.
  virtual Read next(std::string& line, double timeout) = 0;
};

/// Lines of a std::istream: waits as long as the stream does, never times out.
class StreamLineSource final : public LineSource {
 public:
  explicit StreamLineSource(std::istream& in) : in_(in) {}
  Read next(std::string& line, double timeout) override;

 private:
  std::istream& in_;
};

/// Lines of a file descriptor (stdin, a pipe), read with poll() and read():
/// nothing is consumed beyond what has arrived. The descriptor is not
/// closed. Throws proxima::Error when poll or read fails.
class FdLineSource final : public LineSource {
 public:
  explicit FdLineSource(int fd) : fd_(fd) {}
  Read next(std::string& line, double timeout) override;

 private:
  int fd_;
  std::string buffer_;  ///< read, not yet returned
  bool eof_ = false;
};

}  // namespace proxima::apps
