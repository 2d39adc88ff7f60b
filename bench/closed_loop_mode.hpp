// SPDX-License-Identifier: BSD-3-Clause
// proxima-robot-bench closed-loop: the watchdog's closed-loop campaign
// (tests/closed_loop/campaign.hpp) from the command line.
#pragma once

namespace proxima::bench {

/// argv[0] is "closed-loop"; the rest are its options. Returns the exit
/// status: 0 when no run failed, 1 when one did (contact, below the bound,
/// gave up, a stop that did not hold, an error), 2 for bad arguments.
int closed_loop_main(int argc, char** argv);

}  // namespace proxima::bench
