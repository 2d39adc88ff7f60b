// SPDX-License-Identifier: BSD-3-Clause
#include "arguments.hpp"

#include <charconv>
#include <cstdio>
#include <cmath>
#include <iostream>
#include <system_error>

namespace proxima::bench {
namespace {

// The whole of `text` as a finite double (from_chars: no locale, no leading
// blanks or '+', so "3x", " 3" and "" are refused alike).
double finite_number(const std::string& flag, const std::string& text) {
  double v = 0.0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec == std::errc::result_out_of_range && end == text.data() + text.size())
    throw BadArgument(flag + " is beyond a double's range, not " + text);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty())
    throw BadArgument(flag + " takes a number, not '" + text + "'");
  if (!std::isfinite(v)) throw BadArgument(flag + " must be finite, not " + text);
  return v;
}

}  // namespace

long long integer(const std::string& flag, const std::string& text, long long lo, long long hi) {
  long long v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  const bool whole = end == text.data() + text.size() && !text.empty();
  if ((ec == std::errc::result_out_of_range && whole) || (ec == std::errc() && whole && (v < lo || v > hi))) {
    std::string why = flag;
    why.append(" must be from ").append(std::to_string(lo)).append(" to ").append(std::to_string(hi));
    throw BadArgument(why.append(", not ").append(text));
  }
  if (ec != std::errc() || !whole) throw BadArgument(flag + " takes an integer, not '" + text + "'");
  return v;
}

double positive(const std::string& flag, const std::string& text) {
  const double v = finite_number(flag, text);
  if (v <= 0.0) throw BadArgument(flag + " must be positive, not " + text);
  return v;
}

double number(const std::string& flag, const std::string& text, double lo, double hi) {
  const double v = finite_number(flag, text);
  if (v < lo || v > hi) {
    std::string why = flag;
    char range[64];
    std::snprintf(range, sizeof range, " must be from %g to %g, not ", lo, hi);
    throw BadArgument(why.append(range).append(text));
  }
  return v;
}

bool Arguments::next() {
  if (++i_ >= argc_) return false;
  name_ = argv_[i_];
  if (!seen_.insert(name_).second) throw BadArgument(name_ + " given twice");
  return true;
}

std::string Arguments::text() {
  if (i_ + 1 >= argc_) throw BadArgument(name_ + " needs a value");
  return argv_[++i_];
}

void Arguments::unknown() const { throw BadArgument("unknown option '" + name_ + "'"); }

int refuse(const char* program, const BadArgument& why, const char* usage) {
  std::cerr << program << ": " << why.what() << "\n" << usage;
  return 2;
}

}  // namespace proxima::bench
