// SPDX-License-Identifier: BSD-3-Clause
#include "closed_loop_mode.hpp"

#include <charconv>
#include <cmath>
#include <exception>
#include <fstream>
#include <iostream>
#include <set>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>

#include "campaign.hpp"
#include "data_dirs.hpp"

namespace proxima::bench {
namespace {

using robot::closed_loop::CampaignOptions;

constexpr const char* kUsage =
    "usage: proxima-robot-bench closed-loop [--runs N] [--seed S] [--threads N] [--give-up SECONDS]\n"
    "                                   [--wall-limit SECONDS] [--csv FILE]\n"
    "  --runs N           runs of the campaign (default 100)\n"
    "  --seed S           the campaign's seed, an unsigned integer (default 1)\n"
    "  --threads N        worker threads, 1 to 256 (default: the hardware's)\n"
    "  --give-up SECONDS  simulated seconds after which a run still moving fails (default 300)\n"
    "  --wall-limit SECONDS  start no run after this many wall seconds (default: none); the report\n"
    "                     then covers the runs 0 … k−1 that had started\n"
    "  --csv FILE         also write one line per run to FILE\n";

struct BadArgument : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The whole of `text` as an integer in [lo, hi]; else an error naming the flag.
long long integer(const std::string& flag, const std::string& text, long long lo, long long hi) {
  long long v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec == std::errc::result_out_of_range || (ec == std::errc() && end == text.data() + text.size() && (v < lo || v > hi)))
    throw BadArgument(flag + " must be from " + std::to_string(lo) + " to " + std::to_string(hi) + ", not " + text);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty())
    throw BadArgument(flag + " takes an integer, not '" + text + "'");
  return v;
}

double positive(const std::string& flag, const std::string& text) {
  double v = 0.0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty())
    throw BadArgument(flag + " takes a number, not '" + text + "'");
  if (!std::isfinite(v) || v <= 0.0) throw BadArgument(flag + " must be positive and finite, not " + text);
  return v;
}

}  // namespace

int closed_loop_main(int argc, char** argv) {
  CampaignOptions o;
  o.robots_dir = proxima::apps::robots_dir();
  const unsigned hardware = std::thread::hardware_concurrency();
  o.threads = hardware == 0 ? 1 : static_cast<int>(std::min(hardware, 256u));
  std::string csv;
  try {
    std::set<std::string> seen;
    for (int i = 1; i < argc; ++i) {
      const std::string a = argv[i];
      if (a == "--help" || a == "-h") {
        std::cout << kUsage;
        return 0;
      }
      if (a != "--runs" && a != "--seed" && a != "--threads" && a != "--give-up" && a != "--wall-limit" &&
          a != "--csv")
        throw BadArgument("unknown option '" + a + "'");
      if (!seen.insert(a).second) throw BadArgument(a + " given twice");
      if (i + 1 >= argc) throw BadArgument(a + " needs a value");
      const std::string v = argv[++i];
      if (a == "--runs") o.runs = static_cast<int>(integer(a, v, 1, 100000000));
      if (a == "--seed") o.seed = static_cast<unsigned long>(integer(a, v, 0, 4294967295LL));
      if (a == "--threads") o.threads = static_cast<int>(integer(a, v, 1, 256));
      if (a == "--give-up") o.give_up = positive(a, v);
      if (a == "--wall-limit") o.wall_limit = positive(a, v);
      if (a == "--csv") {
        if (v.empty()) throw BadArgument("--csv needs a file name");
        csv = v;
      }
    }
  } catch (const BadArgument& e) {
    std::cerr << "proxima-robot-bench closed-loop: " << e.what() << "\n" << kUsage;
    return 2;
  }
  const robot::closed_loop::CampaignResult result = robot::closed_loop::run_campaign(o);
  robot::closed_loop::print_report(std::cout, o, result);
  if (!csv.empty()) {
    std::ofstream out(csv);
    robot::closed_loop::write_csv(out, result);
    if (!out) throw std::runtime_error(csv + ": cannot write");
  }
  for (const auto& r : result.runs)
    if (r.failed()) return 1;
  return 0;
}

}  // namespace proxima::bench
