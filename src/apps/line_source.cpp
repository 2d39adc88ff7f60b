// SPDX-License-Identifier: BSD-3-Clause
#include "line_source.hpp"

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <istream>

#include <proxima/core/error.hpp>

namespace proxima::apps {

LineSource::Read StreamLineSource::next(std::string& line, double /*timeout*/) {
  return std::getline(in_, line) ? Read::line : Read::eof;
}

LineSource::Read FdLineSource::next(std::string& line, double timeout) {
  using clock = std::chrono::steady_clock;
  // Beyond 1e9 s (three decades) a wait is as good as for ever; the cap
  // keeps the conversion to the clock's integer ticks from overflowing.
  constexpr double kForever = 1e9;
  const bool forever = !(timeout < kForever);
  const clock::time_point until =
      forever ? clock::time_point::max()
              : clock::now() + std::chrono::duration_cast<clock::duration>(
                                   std::chrono::duration<double>(std::max(timeout, 0.0)));
  for (;;) {
    if (const std::size_t end = buffer_.find('\n'); end != std::string::npos) {
      line.assign(buffer_, 0, end);
      buffer_.erase(0, end + 1);
      return Read::line;
    }
    if (eof_) {
      if (buffer_.empty()) return Read::eof;
      line.swap(buffer_);  // the last line, without its newline
      buffer_.clear();
      return Read::line;
    }
    int wait_ms = -1;
    if (!forever) {
      // Once the time is up, a last look without waiting: input that has
      // arrived comes before a timeout. poll takes an int of milliseconds:
      // a longer wait is several polls.
      const auto left = std::chrono::ceil<std::chrono::milliseconds>(until - clock::now()).count();
      wait_ms = static_cast<int>(std::clamp<long long>(left, 0, 1 << 30));
    }
    pollfd p{fd_, POLLIN, 0};
    const int ready = ::poll(&p, 1, wait_ms);
    if (ready < 0) {
      if (errno == EINTR) continue;
      throw Error(std::string("input: poll failed: ") + std::strerror(errno));
    }
    if (ready == 0) {
      if (clock::now() >= until) return Read::timeout;
      continue;  // woken early: the clock above decides when the time is up
    }
    char chunk[4096];
    const ssize_t n = ::read(fd_, chunk, sizeof chunk);
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      throw Error(std::string("input: read failed: ") + std::strerror(errno));
    }
    if (n == 0) eof_ = true;
    buffer_.append(chunk, static_cast<std::size_t>(n));
  }
}

}  // namespace proxima::apps
