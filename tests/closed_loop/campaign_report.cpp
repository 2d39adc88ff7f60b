// SPDX-License-Identifier: BSD-3-Clause
// The closed-loop campaign's report: counts and distributions per robot and
// jog kind, then every failing run in full.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "campaign.hpp"

namespace proxima::robot::closed_loop {
namespace {

std::string num(double v, const char* f = "%.2f") {
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

// min / p1 / p50 / p99 / max (nearest rank), scaled.
std::string spread(std::vector<double> x, double scale) {
  if (x.empty()) return "–";
  std::sort(x.begin(), x.end());
  auto at = [&](double f) {
    return scale * x[static_cast<std::size_t>(std::lround(f * static_cast<double>(x.size() - 1)))];
  };
  return num(at(0.0)) + " / " + num(at(0.01)) + " / " + num(at(0.5)) + " / " + num(at(0.99)) + " / " + num(at(1.0));
}

struct Group {
  int runs = 0, contacts = 0, below = 0, contacts_between = 0, below_between = 0, stopped = 0, limit = 0,
      line_end = 0, gave_up = 0, not_held = 0, errors = 0, first_self = 0, first_env = 0, stop_self = 0, stop_env = 0;
  std::vector<double> stop_clearance, time_to_stop;
  void add(const RunRecord& r) {
    ++runs;
    if (!r.error.empty()) {
      ++errors;
      return;
    }
    contacts += r.contact();
    below += r.below_bound();
    contacts_between += r.contact_between();
    below_between += r.below_bound_between();
    limit += r.at_limit;
    line_end += r.jog_ended;
    gave_up += r.gave_up;
    if (r.first_stop) ++(r.first_channel == "self" ? first_self : first_env);
    if (!r.stopped) return;
    ++stopped;
    not_held += !r.held;
    if (r.first_stop) return;
    ++(r.stop_channel == "self" ? stop_self : stop_env);
    stop_clearance.push_back(r.final_clearance);
    time_to_stop.push_back(r.time);
  }
};

void row(std::ostream& out, const std::string& robot, const std::string& jog, const Group& g) {
  out << "| " << robot << " | " << jog << " | " << g.runs << " | " << g.contacts << " | " << g.below << " | "
      << g.stopped << " (" << g.stop_self << " self, " << g.stop_env << " scene) | " << g.limit << " | " << g.line_end << " | " << g.gave_up
      << " | " << g.first_self + g.first_env << " (" << g.first_self << " self, " << g.first_env << " scene) | "
      << g.not_held << " | " << g.errors << " |\n";
}

void spread_row(std::ostream& out, const std::string& robot, const std::string& jog, const Group& g) {
  out << "| " << robot << " | " << jog << " | " << g.stop_clearance.size() << " | " << spread(g.stop_clearance, 1e3)
      << " | " << spread(g.time_to_stop, 1.0) << " | " << g.contacts_between << " | " << g.below_between << " |\n";
}

}  // namespace

void print_report(std::ostream& out, const CampaignOptions& o, const CampaignResult& result) {
  std::map<std::pair<std::string, int>, Group> groups;
  std::map<std::string, Group> robots;
  Group all;
  double run_seconds = 0.0, ticks = 0.0;
  for (const RunRecord& r : result.runs) {
    ticks += r.samples + r.dropped;
    groups[{r.robot, static_cast<int>(r.jog)}].add(r);
    robots[r.robot].add(r);
    all.add(r);
    run_seconds += r.seconds;
  }
  out << "closed-loop campaign: " << result.runs.size() << " runs";
  if (static_cast<int>(result.runs.size()) < o.runs)
    out << " (runs 0-" << result.runs.size() - 1 << " of " << o.runs << ": the wall limit of "
        << num(o.wall_limit, "%g") << " s stopped the campaign from starting more)";
  out << ", seed " << o.seed << ", " << o.threads << " thread"
      << (o.threads == 1 ? "" : "s") << "; stop_distance " << num(1e3 * o.watchdog.stop_distance, "%g")
      << " mm; give-up after " << num(o.give_up, "%g") << " s simulated\n\n";
  out << "| robot | jog | runs | contacts | below the bound | stopped by the watchdog | at a joint limit | "
         "line out of reach | gave up | stopped at the first sample | stop not held | errors |\n"
         "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n";
  for (const auto& [key, g] : groups) row(out, key.first, to_string(static_cast<JogKind>(key.second)), g);
  for (const auto& [name, g] : robots) row(out, name, "all", g);
  row(out, "all", "all", all);
  out << "\nStops after the first sample: stop clearance (mm, to the scene, exact below 50 mm) and time to stop (s), "
         "min / p1 / p50 / p99 / max; and the runs whose clearance between samples (a lower bound: each end less "
         "the most it can fall within the step) reaches contact or the bound.\n\n"
         "| robot | jog | stops | stop clearance (mm) | time to stop (s) | contact between samples | below the bound "
         "between samples |\n| --- | --- | ---: | --- | --- | ---: | ---: |\n";
  for (const auto& [key, g] : groups) spread_row(out, key.first, to_string(static_cast<JogKind>(key.second)), g);
  for (const auto& [name, g] : robots) spread_row(out, name, "all", g);
  spread_row(out, "all", "all", all);
  out << "\nwall time " << num(result.wall_seconds, "%.1f") << " s; run time " << num(run_seconds, "%.1f")
      << " s summed over the runs, " << num(1e3 * run_seconds / static_cast<double>(result.runs.size()), "%.0f")
      << " ms per run on average; " << num(ticks, "%.0f") << " control ticks, "
      << num(1e6 * run_seconds / std::max(1.0, ticks), "%.0f") << " µs each (the watchdog's update and the judge)\n";
  bool header = false;
  for (const RunRecord& r : result.runs) {
    if (!r.failed()) continue;
    if (!header) out << "\nFailing runs:\n";
    header = true;
    out << "  run " << r.index << " (seed " << o.seed << "): " << r.robot << " in " << r.scene << ", " << to_string(r.jog)
        << " jog " << r.jog_detail << " at " << num(r.speed, "%.3f") << " rad/s, tool " << (r.tool.empty() ? "none" : r.tool)
        << ", period " << num(1e3 * r.period, "%.1f") << " ms, drop " << num(r.drop, "%.3f") << ", delay " << r.delay;
    if (!r.error.empty()) {
      out << ": error: " << r.error << "\n";
      continue;
    }
    out << ": " << (r.stopped    ? "stopped"
                       : r.at_limit ? "at a joint limit"
                       : r.jog_ended ? "line out of reach"
                                     : "gave up") << " after "
        << num(r.time, "%.3f") << " s, " << r.samples << " samples (" << r.dropped << " lost); lowest clearance "
        << num(1e3 * r.lowest, "%.4f") << " mm to " << r.lowest_obstacle << " (stand-in excess "
        << num(1e3 * r.lowest_excess, "%.4f") << " mm), bound " << num(1e3 * r.bound, "%.4f") << " mm (V "
        << num(r.speed_bound, "%.4f") << " m/s, T " << num(1e3 * r.longest_interval, "%.2f") << " ms); start "
        << num(1e3 * r.start_clearance, "%.2f") << " mm, final " << num(1e3 * r.final_clearance, "%.3f") << " mm"
        << "; last answer " << proxima::robot::to_string(r.last_level) << " at factor " << num(r.last_factor, "%.4g")
        << " on channel " << r.stop_channel << (r.stopped && !r.held ? "; the stop did not hold" : "") << "\n";
  }
}

void write_csv(std::ostream& out, const CampaignResult& result) {
  out << "run,robot,scene,jog,jog_detail,tool,speed,delay,period,drop,start_draws,outcome,held,first_stop,"
         "first_channel,stop_channel,last_level,last_factor,time,samples,dropped,start_clearance,lowest,lowest_obstacle,lowest_excess,"
         "lowest_between,final_clearance,speed_bound,longest_interval,bound,seconds,error\n";
  for (const RunRecord& r : result.runs) {
    const char* outcome = !r.error.empty() ? "error" : r.stopped   ? "stopped"
                          : r.at_limit  ? "limit"
                          : r.jog_ended ? "line_end"
                                        : "gave_up";
    out << r.index << ',' << r.robot << ',' << r.scene << ',' << to_string(r.jog) << ',' << r.jog_detail << ','
        << r.tool << ',' << num(r.speed, "%.6g") << ',' << r.delay << ',' << num(r.period, "%.6g") << ','
        << num(r.drop, "%.6g") << ',' << r.start_draws << ',' << outcome << ',' << r.held << ',' << r.first_stop << ','
        << r.first_channel << ',' << r.stop_channel << ',' << proxima::robot::to_string(r.last_level) << ','
        << num(r.last_factor, "%.6g") << ',' << num(r.time, "%.6g") << ',' << r.samples << ','
        << r.dropped << ',' << num(r.start_clearance, "%.9g") << ',' << num(r.lowest, "%.9g") << ','
        << r.lowest_obstacle << ',' << num(r.lowest_excess, "%.6g") << ',' << num(r.lowest_between, "%.9g") << ','
        << num(r.final_clearance, "%.9g") << ',' << num(r.speed_bound, "%.6g") << ','
        << num(r.longest_interval, "%.6g") << ',' << num(r.bound, "%.9g") << ',' << num(r.seconds, "%.4f") << ','
        << '"' << r.error << '"' << '\n';
  }
}

}  // namespace proxima::robot::closed_loop
