// uprobe_bench [--runs R] [--calls N]
// What the pid provider costs. (1) The time of one call of a probed function of this process with
// no tracer, with dsched running `pid$target:a.out:uprobe_bench_target:entry { @ = count(); }`
// and with bpftrace running `uprobe:<this binary>:uprobe_bench_target { @ = count(); }`, both
// following this process (-p); medians of R turns of N calls. (2) The wall time to start, attach
// a pattern over libc's functions in this process, and end: dsched's `pid$target:libc.so.6:s*:entry`
// against bpftrace's `uprobe:libc:s*`, and dsched over every function of libc.
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "child_process.h"
#include "runs_and_calls.h"

using dsched::bench::ChildProcess;
using dsched::bench::Clock;
using dsched::bench::median;
using dsched::bench::seconds_since;

extern "C" __attribute__((noinline)) long uprobe_bench_target(long value) {
  __asm__ volatile("" ::: "memory");
  return value + 1;
}

namespace {

const std::string kSelf = std::to_string(getpid());

std::string own_path() {
  char path[4096];
  ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
  return n > 0 ? std::string(path, size_t(n)) : std::string();
}

struct Tracer {
  const char* name;
  std::vector<std::string> argv;  // empty: no tracer
};

std::vector<Tracer> call_tracers() {
  return {
      {"none", {}},
      {"dsched", {BENCH_DSCHED, "-q", "-p", kSelf, "-n",
                  "pid$target:a.out:uprobe_bench_target:entry { @ = count(); } "
                  "tick-100ms { printf(\"ready\\n\"); }"}},
      {"bpftrace", {"bpftrace", "-p", kSelf, "-e",
                    "uprobe:" + own_path() + ":uprobe_bench_target { @ = count(); } BEGIN { printf(\"ready\\n\"); }"}},
  };
}

// ns per call of the probed function while `tracer` runs; negative when it failed.
double call_cost(const Tracer& tracer, long calls) {
  std::unique_ptr<ChildProcess> child;
  if (!tracer.argv.empty()) {
    child = std::make_unique<ChildProcess>(tracer.argv);
    if (child->wait_for("ready", 120) < 0) {
      std::fprintf(stderr, "%s did not start:\n%s\n", tracer.name, child->output().c_str());
      return -1;
    }
  }
  long sum = 0;
  auto start = Clock::now();
  for (long i = 0; i < calls; ++i) sum += uprobe_bench_target(i);
  double ns = seconds_since(start) * 1e9 / double(calls);
  if (sum == 0) std::abort();
  if (child) {
    child->signal(SIGINT);
    dsched::bench::ChildExit exit = child->finish(120);
    if (!exit.ok()) {
      std::fprintf(stderr, "%s failed (%s):\n%s\n", tracer.name, exit.describe().c_str(), child->output().c_str());
      return -1;
    }
  }
  return ns;
}

// Seconds for `argv` to start, attach and end on its own (its script exits at its first tick).
double attach_seconds(const std::vector<std::string>& argv) {
  ChildProcess child(argv);
  dsched::bench::ChildExit exit = child.finish(900);
  if (!exit.ok()) {
    std::fprintf(stderr, "%s: %s\n%s\n", argv[0].c_str(), exit.describe().c_str(), child.output().c_str());
    return -1;
  }
  return exit.seconds;
}

}  // namespace

int main(int argc, char** argv) {
  dsched::bench::RunsAndCalls flags;
  if (!dsched::bench::parse_runs_and_calls(argc, argv, "uprobe_bench", flags)) return 2;
  const int runs = flags.runs;
  const long calls = flags.calls;
  std::vector<Tracer> tracers = call_tracers();
  if (system("command -v bpftrace >/dev/null 2>&1") != 0) {
    std::printf("bpftrace is not installed: its rows are skipped\n");
    tracers.pop_back();
  }
  std::vector<std::vector<double>> ns(tracers.size());
  for (int run = 0; run < runs; ++run)
    for (size_t t = 0; t < tracers.size(); ++t) {
      size_t m = (t + size_t(run)) % tracers.size();
      double cost = call_cost(tracers[m], calls);
      if (cost < 0) return 1;
      ns[m].push_back(cost);
    }
  std::printf("probed call cost, medians of %d runs of %ld calls each, tracers in turn\n", runs, calls);
  std::printf("  %-9s %10s %10s\n", "tracer", "ns/call", "added");
  for (size_t t = 0; t < tracers.size(); ++t)
    std::printf("  %-9s %10.1f %10.1f\n", tracers[t].name, median(ns[t]), median(ns[t]) - median(ns[0]));
  if (tracers.size() == 3)
    std::printf("  added cost, bpftrace/dsched: %.2fx\n",
                (median(ns[2]) - median(ns[0])) / (median(ns[1]) - median(ns[0])));

  std::printf("\nstart, attach to a pattern over libc in this process, and end (one run each)\n");
  const std::string tick = " tick-1ms { exit(0); }";
  std::printf("  dsched   pid$target:libc.so.6:s*:entry  %8.2f s\n",
              attach_seconds({BENCH_DSCHED, "-q", "-p", kSelf, "-n", "pid$target:libc.so.6:s*:entry { @ = count(); }" + tick}));
  std::printf("  dsched   pid$target:libc.so.6::entry    %8.2f s\n",
              attach_seconds({BENCH_DSCHED, "-q", "-p", kSelf, "-n", "pid$target:libc.so.6::entry { @ = count(); }" + tick}));
  if (tracers.size() == 3)
    std::printf("  bpftrace uprobe:libc:s*                 %8.2f s\n",
                attach_seconds({"bpftrace", "-p", kSelf, "-e", "uprobe:libc:s* { @ = count(); } interval:ms:1 { exit(); }"}));
  return 0;
}
