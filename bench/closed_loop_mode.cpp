// SPDX-License-Identifier: BSD-3-Clause
#include "closed_loop_mode.hpp"

#include <algorithm>
#include <exception>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <string>
#include <thread>

#include "arguments.hpp"
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

}  // namespace

int closed_loop_main(int argc, char** argv) {
  CampaignOptions o;
  o.robots_dir = proxima::apps::robots_dir();
  const unsigned hardware = std::thread::hardware_concurrency();
  o.threads = hardware == 0 ? 1 : static_cast<int>(std::min(hardware, 256u));
  std::string csv;
  try {
    Arguments args(argc, argv);
    while (args.next()) {
      if (args.is("--help") || args.is("-h")) {
        std::cout << kUsage;
        return 0;
      }
      if (args.is("--runs")) o.runs = static_cast<int>(args.integer(1, 100000000));
      else if (args.is("--seed")) o.seed = static_cast<unsigned long>(args.integer(0, 4294967295LL));
      else if (args.is("--threads")) o.threads = static_cast<int>(args.integer(1, 256));
      else if (args.is("--give-up")) o.give_up = args.positive();
      else if (args.is("--wall-limit")) o.wall_limit = args.positive();
      else if (args.is("--csv")) {
        csv = args.text();
        if (csv.empty()) throw BadArgument("--csv needs a file name");
      } else {
        args.unknown();
      }
    }
  } catch (const BadArgument& e) {
    return refuse("proxima-robot-bench closed-loop", e, kUsage);
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
