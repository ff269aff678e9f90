// startup_bench [--runs N] [--case NAME]...
// Start-up against bpftrace: for each case, runs the dsched and the bpftrace command alternately N
// times and reports the medians of the time from exec to the first event's output (the case's
// marker line; all probes are attached by then) and to exit, and the median peak RSS (wait4).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>
#include <vector>

#include "child_process.h"

using dsched::bench::ChildExit;
using dsched::bench::ChildProcess;
using dsched::bench::median;

namespace {

struct Command {
  std::vector<std::string> argv;
};

struct Case {
  std::string name;
  std::string marker;  // empty: the command prints nothing to wait for, only exit is timed
  Command dsched;
  Command bpftrace;
  int max_runs = 0;  // when set, fewer runs than --runs: bpftrace takes ~20 s per run of the case
};

std::vector<Case> cases() {
  std::string dir = BENCH_STARTUP_DIR;
  return {
      {"BEGIN { exit(0); }", "", {{BENCH_DSCHED, "-n", "BEGIN { exit(0); }"}}, {{"bpftrace", "-e", "BEGIN { exit(); }"}}},
      {"sched30 (sched+profile+tick, 30 lines)", "first tick", {{BENCH_DSCHED, "-s", dir + "/sched30.d"}},
       {{"bpftrace", dir + "/sched30.bt"}}},
      // The same with dsched's aggregation maps sized for 64 KB instead of the default 4 MB: shows
      // how much of its start-up goes into preallocating the per-CPU hash maps.
      {"sched30, dsched -x aggsize=64k", "first tick",
       {{BENCH_DSCHED, "-x", "aggsize=65536", "-s", dir + "/sched30.d"}}, {{"bpftrace", dir + "/sched30.bt"}}},
      // Every system call's entry: dsched's one program per block of call numbers on sys_enter
      // against bpftrace's tracepoint per call.
      {"every system call's entry, counted by name", "first tick",
       {{BENCH_DSCHED, "-qn",
         "syscall:::entry { @[probefunc] = count(); } tick-1ms { printf(\"first tick\\n\"); exit(0); }"}},
       {{"bpftrace", "-e",
         "tracepoint:syscalls:sys_enter_* { @[probe] = count(); } interval:ms:1 { printf(\"first tick\\n\"); exit(); }"}},
       3},
  };
}

struct Samples {
  std::vector<double> attached_ms, exit_ms, rss_mb;
};

// Runs one command to completion; false (with the output printed) when it fails.
bool sample(const Command& command, const std::string& marker, Samples& samples) {
  ChildProcess child(command.argv);
  double attached = marker.empty() ? 0 : child.wait_for(marker, 60);
  ChildExit exit = child.finish(60);
  if (!exit.ok() || attached < 0) {
    std::fprintf(stderr, "%s: %s%s\n%s\n", child.command().c_str(), exit.describe().c_str(),
                 attached < 0 ? ", no marker line" : "", child.output().c_str());
    return false;
  }
  if (!marker.empty()) samples.attached_ms.push_back(attached * 1000);
  samples.exit_ms.push_back(exit.seconds * 1000);
  samples.rss_mb.push_back(exit.peak_rss_kb / 1024.0);
  return true;
}

void print_row(const char* tool, const Samples& s) {
  if (s.attached_ms.empty()) std::printf("  %-9s %12s", tool, "-");
  else std::printf("  %-9s %12.1f", tool, median(s.attached_ms));
  std::printf(" %10.1f %13.1f\n", median(s.exit_ms), median(s.rss_mb));
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 10;
  std::vector<std::string> only;  // --case: the cases whose name starts with one of these
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (i + 1 < argc && arg == "--runs") runs = std::max(1, std::atoi(argv[++i]));
    else if (i + 1 < argc && arg == "--case") only.push_back(argv[++i]);
    else {
      std::fprintf(stderr, "usage: startup_bench [--runs N] [--case NAME]...\n");
      return 2;
    }
  }
  bool have_bpftrace = system("command -v bpftrace >/dev/null 2>&1") == 0;
  if (!have_bpftrace) std::printf("bpftrace is not installed: dsched rows only\n");
  else if (access("/sys/kernel/tracing/events/sched", F_OK) != 0)
    std::printf("note: tracefs is not mounted; bpftrace cannot attach tracepoints (bench/run.sh mounts it)\n");
  std::printf("start-up, medians of %d runs each, dsched and bpftrace alternating\n", runs);
  int status = 0;
  for (const Case& c : cases()) {
    if (!only.empty() && std::none_of(only.begin(), only.end(), [&](const std::string& o) { return c.name.rfind(o, 0) == 0; }))
      continue;
    Samples dsched, bpftrace;
    bool ok = true;
    int case_runs = c.max_runs ? std::min(runs, c.max_runs) : runs;
    for (int i = 0; i < case_runs && ok; ++i) {
      // Alternate which tool goes first, so neither always runs on a cache warmed by the other.
      bool dsched_first = i % 2 == 0;
      for (int turn = 0; turn < 2 && ok; ++turn) {
        bool use_dsched = (turn == 0) == dsched_first;
        if (!use_dsched && !have_bpftrace) continue;
        ok = sample(use_dsched ? c.dsched : c.bpftrace, c.marker, use_dsched ? dsched : bpftrace);
      }
    }
    if (!ok) {
      status = 1;
      continue;
    }
    std::printf("\n%s\n  %-9s %12s %10s %13s\n", c.name.c_str(), "tool", "attached ms", "exit ms", "peak RSS MB");
    print_row("dsched", dsched);
    if (!have_bpftrace) continue;
    print_row("bpftrace", bpftrace);
    auto ratio = [](const std::vector<double>& a, const std::vector<double>& b) { return median(a) / median(b); };
    if (!c.marker.empty()) std::printf("  %-9s %11.1fx", "bpftrace/dsched", ratio(bpftrace.attached_ms, dsched.attached_ms));
    else std::printf("  %-9s %12s", "bpftrace/dsched", "");
    std::printf(" %9.1fx %12.1fx\n", ratio(bpftrace.exit_ms, dsched.exit_ms), ratio(bpftrace.rss_mb, dsched.rss_mb));
  }
  return status;
}
