// syscall_bench [--runs R] [--calls N]
// What tracing read() costs: the time of a 1-byte read() from /dev/zero (traced) and of getpid()
// (untraced, but every system call passes the raw_syscalls tracepoint once anything traces one),
// with no tracer, with dsched running `syscall::read:entry { @ = count(); }` and with bpftrace
// running `tracepoint:syscalls:sys_enter_read { @ = count(); }`. The three run in turn, R times,
// each timing N calls of both; medians are reported with the cost each tracer adds.
#include <fcntl.h>
#include <sys/syscall.h>
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

namespace {

struct Mode {
  const char* name;
  std::vector<std::string> argv;  // empty: no tracer
  const char* marker;             // the tracer prints it once every probe is attached
};

std::vector<Mode> modes() {
  return {
      {"none", {}, ""},
      {"dsched", {BENCH_DSCHED, "-qn",
                  "syscall::read:entry { @ = count(); } tick-100ms { printf(\"ready\\n\"); }"},
       "ready"},
      {"bpftrace", {"bpftrace", "-e", "tracepoint:syscalls:sys_enter_read { @ = count(); } BEGIN { printf(\"ready\\n\"); }"},
       "ready"},
  };
}

template <typename Call>
double ns_per_call(long calls, Call call) {
  auto start = Clock::now();
  for (long i = 0; i < calls; ++i) call();
  return seconds_since(start) * 1e9 / double(calls);
}

struct Samples {
  std::vector<double> read_ns, getpid_ns;
};

bool sample(const Mode& mode, long calls, int zero, Samples& samples) {
  std::unique_ptr<ChildProcess> tracer;
  if (!mode.argv.empty()) {
    tracer = std::make_unique<ChildProcess>(mode.argv);
    if (tracer->wait_for(mode.marker, 120) < 0) {
      std::fprintf(stderr, "%s did not start:\n%s\n", mode.name, tracer->output().c_str());
      return false;
    }
  }
  char byte;
  samples.read_ns.push_back(ns_per_call(calls, [&] {
    if (read(zero, &byte, 1) != 1) std::abort();
  }));
  samples.getpid_ns.push_back(ns_per_call(calls, [] { syscall(SYS_getpid); }));
  if (tracer) {
    tracer->signal(SIGINT);
    if (!tracer->finish(60).ok()) {
      std::fprintf(stderr, "%s failed:\n%s\n", mode.name, tracer->output().c_str());
      return false;
    }
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  dsched::bench::RunsAndCalls flags;
  if (!dsched::bench::parse_runs_and_calls(argc, argv, "syscall_bench", flags)) return 2;
  const int runs = flags.runs;
  const long calls = flags.calls;
  int zero = open("/dev/zero", O_RDONLY | O_CLOEXEC);
  if (zero < 0) {
    std::perror("/dev/zero");
    return 1;
  }
  bool have_bpftrace = system("command -v bpftrace >/dev/null 2>&1") == 0;
  std::vector<Mode> all = modes();
  if (!have_bpftrace) {
    std::printf("bpftrace is not installed: its row is skipped\n");
    all.pop_back();
  }
  std::vector<Samples> samples(all.size());
  for (int run = 0; run < runs; ++run)
    for (size_t m = 0; m < all.size(); ++m)
      if (!sample(all[(m + run) % all.size()], calls, zero, samples[(m + run) % all.size()])) return 1;
  std::printf("system call cost, medians of %d runs of %ld calls each, tracers in turn\n", runs, calls);
  std::printf("  %-9s %10s %10s %12s %12s\n", "tracer", "read ns", "getpid ns", "read added", "getpid added");
  double base_read = median(samples[0].read_ns), base_getpid = median(samples[0].getpid_ns);
  for (size_t m = 0; m < all.size(); ++m) {
    double r = median(samples[m].read_ns), g = median(samples[m].getpid_ns);
    std::printf("  %-9s %10.1f %10.1f %12.1f %12.1f\n", all[m].name, r, g, r - base_read, g - base_getpid);
  }
  if (all.size() == 3) {
    double d_read = median(samples[1].read_ns) - base_read, b_read = median(samples[2].read_ns) - base_read;
    double d_getpid = median(samples[1].getpid_ns) - base_getpid, b_getpid = median(samples[2].getpid_ns) - base_getpid;
    std::printf("  added cost, bpftrace/dsched: read %.2fx, getpid %.2fx\n", b_read / d_read, b_getpid / d_getpid);
  }
  return 0;
}
