// SPDX-License-Identifier: BSD-3-Clause
// Strict command-line options for the benchmark programs: a number must be
// the whole argument and within its range, an unknown or repeated option is
// an error, and every error names the option and the reason, so that a typo
// stops the run at once instead of benchmarking a value nobody asked for.
#pragma once

#include <set>
#include <stdexcept>
#include <string>

namespace proxima::bench {

/// A command line the program refuses; the message names the option.
struct BadArgument : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// The whole of `text` as an integer in [lo, hi]; else BadArgument such as
/// "--runs takes an integer, not '3x'" or "--threads must be from 1 to 256, not 0".
long long integer(const std::string& flag, const std::string& text, long long lo, long long hi);

/// The whole of `text` as a finite number > 0; else BadArgument naming `flag`.
double positive(const std::string& flag, const std::string& text);

/// The whole of `text` as a finite number in [lo, hi]; else BadArgument naming `flag`.
double number(const std::string& flag, const std::string& text, double lo, double hi);

/// The options of argv[1…], one at a time:
///
///     Arguments args(argc, argv);
///     while (args.next()) {
///       if (args.is("--poses")) poses = args.integer(1, 1000000);
///       else if (args.is("--markdown")) markdown = true;
///       else args.unknown();
///     }
///
/// An option given twice is refused by next(); a value is the argument after
/// its option.
class Arguments {
 public:
  Arguments(int argc, char** argv) : argc_(argc), argv_(argv) {}

  /// Moves to the next option; false when none is left.
  bool next();
  /// The current option.
  const std::string& name() const { return name_; }
  bool is(const char* option) const { return name_ == option; }

  /// The argument after the current option (any text, but not a missing one).
  std::string text();
  /// text() as an integer in [lo, hi], a positive number, a number in [lo, hi].
  long long integer(long long lo, long long hi) { return bench::integer(name_, text(), lo, hi); }
  double positive() { return bench::positive(name_, text()); }
  double number(double lo, double hi) { return bench::number(name_, text(), lo, hi); }

  /// Throws BadArgument "unknown option '<name>'".
  [[noreturn]] void unknown() const;

 private:
  int argc_;
  char** argv_;
  int i_ = 0;
  std::string name_;
  std::set<std::string> seen_;
};

/// Prints "<program>: <why>" and `usage` on stderr; returns 2, the exit
/// status of a refused command line.
int refuse(const char* program, const BadArgument& why, const char* usage);

}  // namespace proxima::bench
