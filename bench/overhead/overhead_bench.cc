// overhead_bench [--runs R] [--loops N] [--cpu C] [--settle S] [--scenario NAME]... [--mode MODE]...
//                [--bpf-stats] [--baseline DSCHED]
//   scenarios: count where qtime qlen profile syscount readlat stackcount;
//   modes: none empty c base dsched bpftrace (base: the --baseline binary, e.g. a build of the branch
//   point, run like dsched: a change measured side by side with what it changes)
// Per-event overhead: times `perf bench sched pipe -l N` (pinned to CPU C, so every message is a
// context switch) with no tracing, with empty BPF programs on the scenario's hooks, with a
// hand-written libbpf program, with dsched and with bpftrace running the scenario's script. The
// modes are interleaved (the order rotates each round) and each row reports the median of R runs.
// --bpf-stats turns on the kernel's BPF run-time statistics for the run and adds the mean time of
// one program run, read from the tracer's /proc/PID/fdinfo (the statistics cost every program run
// a little, so the other columns are best taken from a run without them).
#include <algorithm>
#include <bpf/bpf.h>
#include <cmath>
#include <dirent.h>
#include <fstream>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

#include "child_process.h"

using dsched::bench::ChildExit;
using dsched::bench::ChildProcess;
using dsched::bench::median;

namespace {

constexpr const char* kObjects = BENCH_OBJECT_DIR;
constexpr const char* kScripts = BENCH_SCRIPT_DIR;
constexpr const char* kExamples = BENCH_EXAMPLE_DIR;

struct Scenario {
  std::string name;
  std::string summary;
  std::string empty_programs;  // programs of empty.bpf.o on the same hooks as the script
  std::string object;          // the hand-written program
  std::string d_script;
  std::string bt_script;
};

std::vector<Scenario> scenarios() {
  std::string queue_hooks = "empty_wakeup,empty_wakeup_new,empty_switch,empty_migrate";
  return {
      {"count", "sched:::on-cpu { @[cpu] = count(); }", "empty_switch", "count", std::string(kScripts) + "/count.d",
       std::string(kScripts) + "/count.bt"},
      {"where", "examples/where.d: quantize of time on CPU, self->ts", "empty_switch", "where",
       std::string(kExamples) + "/where.d", std::string(kScripts) + "/where.bt"},
      {"qtime", "examples/qtime.d: quantize of run-queue wait (enqueue/dequeue)", queue_hooks, "qtime",
       std::string(kExamples) + "/qtime.d", std::string(kScripts) + "/qtime.bt"},
      {"qlen", "examples/qlen.d: lquantize of run-queue length (enqueue/dequeue)", queue_hooks, "qlen",
       std::string(kExamples) + "/qlen.d", std::string(kScripts) + "/qlen.bt"},
      {"profile", "profile-997 { @[cpu] = count(); }", "empty_timer", "profile",
       std::string(kScripts) + "/profile.d", std::string(kScripts) + "/profile.bt"},
      {"syscount", "syscall::read:entry { @ = count(); }", "empty_sys_enter", "syscount",
       std::string(kScripts) + "/syscount.d", std::string(kScripts) + "/syscount.bt"},
      {"readlat", "read() latency: self->ts at entry, quantize at return", "empty_sys_enter,empty_sys_exit", "readlat",
       std::string(kScripts) + "/readlat.d", std::string(kScripts) + "/readlat.bt"},
      {"stackcount", "sched:::off-cpu { @[stack()] = count(); }", "empty_switch", "stackcount",
       std::string(kScripts) + "/stackcount.d", std::string(kScripts) + "/stackcount.bt"},
  };
}

enum class Mode { None, Empty, HandC, Baseline, Dsched, Bpftrace };
constexpr Mode kModes[] = {Mode::None, Mode::Empty, Mode::HandC, Mode::Baseline, Mode::Dsched, Mode::Bpftrace};

const char* mode_name(Mode mode) {
  switch (mode) {
    case Mode::None: return "no tracing";
    case Mode::Empty: return "empty BPF";
    case Mode::HandC: return "hand-written C";
    case Mode::Baseline: return "dsched base";
    case Mode::Dsched: return "dsched";
    case Mode::Bpftrace: return "bpftrace";
  }
  return "";
}

// The name --mode takes.
const char* mode_key(Mode mode) {
  switch (mode) {
    case Mode::None: return "none";
    case Mode::Empty: return "empty";
    case Mode::HandC: return "c";
    case Mode::Baseline: return "base";
    case Mode::Dsched: return "dsched";
    case Mode::Bpftrace: return "bpftrace";
  }
  return "";
}

struct Tracer {
  std::vector<std::string> argv;
  std::string ready_marker;  // printed once the programs are loaded (dsched) or attached (others)
};

struct Options {
  int runs = 3;
  long loops = 100000;
  int cpu = 0;
  double settle_s = 0.5;
  std::vector<std::string> only;
  std::vector<std::string> modes;  // by mode_key(); empty: all
  bool bpf_stats = false;
  std::string baseline;  // another dsched binary, mode "base"
};

Tracer tracer_for(Mode mode, const Scenario& s, const Options& o) {
  std::string object_dir = kObjects;
  switch (mode) {
    case Mode::None: break;
    case Mode::Empty:
      return {{BENCH_LOADER, "--only", s.empty_programs, object_dir + "/empty.bpf.o"}, "ready"};
    case Mode::HandC: return {{BENCH_LOADER, object_dir + "/" + s.object + ".bpf.o"}, "ready"};
    // Not quiet: the "matched N probes" line marks the end of loading; attaching follows at once.
    case Mode::Dsched: return {{BENCH_DSCHED, "-s", s.d_script}, "matched"};
    case Mode::Baseline: return {{o.baseline, "-s", s.d_script}, "matched"};
    // The scripts print "attached" from BEGIN, which bpftrace runs after attaching (a SIGINT that
    // arrives while bpftrace 0.17 is still attaching can leave it hanging).
    case Mode::Bpftrace: return {{"bpftrace", s.bt_script}, "attached"};
  }
  return {};
}

bool parse(int argc, char** argv, Options& o) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (i + 1 >= argc && arg != "--bpf-stats") return false;
    if (arg == "--runs") o.runs = std::max(1, std::atoi(argv[++i]));
    else if (arg == "--loops") o.loops = std::max(1000L, std::atol(argv[++i]));
    else if (arg == "--cpu") o.cpu = std::atoi(argv[++i]);
    else if (arg == "--settle") o.settle_s = std::atof(argv[++i]);
    else if (arg == "--scenario") o.only.push_back(argv[++i]);
    else if (arg == "--mode") o.modes.push_back(argv[++i]);
    else if (arg == "--bpf-stats") o.bpf_stats = true;
    else if (arg == "--baseline") o.baseline = argv[++i];
    else return false;
  }
  return true;
}

// The workload's CPU time (user + system of both pipe processes) is the measure: on a shared
// machine it leaves out the time spent waiting for a CPU that other processes hold, which wall
// time (perf's "Total time") includes. BPF programs on the hooks run in the switching task's
// context (or in the timer interrupt that hits it), so their cost is counted.
struct Sample {
  double cpu_s = -1;
  double wall_s = -1;
  double ns_per_program_run = -1;  // with --bpf-stats
};

// Mean run time of the BPF programs `pid` holds, from the statistics in their fdinfo.
double ns_per_program_run(pid_t pid) {
  std::string dir = "/proc/" + std::to_string(pid) + "/fdinfo";
  DIR* fds = opendir(dir.c_str());
  if (!fds) return -1;
  unsigned long long run_time_ns = 0, run_count = 0;
  while (dirent* entry = readdir(fds)) {
    std::ifstream info(dir + "/" + entry->d_name);
    for (std::string line; std::getline(info, line);) {
      if (line.rfind("run_time_ns:", 0) == 0) run_time_ns += std::stoull(line.substr(12));
      else if (line.rfind("run_cnt:", 0) == 0) run_count += std::stoull(line.substr(8));
    }
  }
  closedir(fds);
  return run_count ? static_cast<double>(run_time_ns) / static_cast<double>(run_count) : -1;
}

// One workload run under `mode`; cpu_s < 0 with `error` set when something failed.
Sample timed_run(Mode mode, const Scenario& s, const Options& o, std::string& error) {
  Tracer tracer = tracer_for(mode, s, o);
  std::unique_ptr<ChildProcess> traced;
  if (!tracer.argv.empty()) {
    traced = std::make_unique<ChildProcess>(tracer.argv);
    if (traced->wait_for(tracer.ready_marker, 60) < 0) {
      ChildExit exit = traced->finish(5);
      error = traced->command() + ": no \"" + tracer.ready_marker + "\" (" + exit.describe() + ")\n" + traced->output();
      return {};
    }
    std::this_thread::sleep_for(std::chrono::duration<double>(o.settle_s));
    if (!traced->running()) {
      ChildExit exit = traced->finish(5);
      error = traced->command() + " ended early (" + exit.describe() + ")\n" + traced->output();
      return {};
    }
  }
  ChildProcess workload({"perf", "bench", "sched", "pipe", "-l", std::to_string(o.loops)}, o.cpu);
  ChildExit workload_exit = workload.finish(600);
  Sample sample{workload_exit.cpu_seconds, -1};
  size_t at = workload.output().find("Total time:");
  if (at != std::string::npos) sample.wall_s = std::strtod(workload.output().c_str() + at + 11, nullptr);
  if (!workload_exit.ok() || sample.wall_s <= 0)
    error = workload.command() + " (" + workload_exit.describe() + ")\n" + workload.output();
  if (traced) {
    if (o.bpf_stats) sample.ns_per_program_run = ns_per_program_run(traced->pid());
    traced->signal(SIGINT);
    ChildExit exit = traced->finish(15);
    // The workload was measured with the tracer attached, so a tracer that then fails to stop in
    // time (bpftrace 0.17 sometimes ignores SIGINT) is killed and reported, and the sample kept.
    if (exit.timed_out) std::fprintf(stderr, "%s did not exit on SIGINT: killed\n", traced->command().c_str());
    else if (!exit.ok()) error = traced->command() + " on SIGINT (" + exit.describe() + ")\n" + traced->output();
  }
  return error.empty() ? sample : Sample{};
}

// Reasons a mode cannot run here, checked once up front.
std::string unavailable(Mode mode, const Options& o) {
  if (mode == Mode::Baseline && access(o.baseline.c_str(), X_OK) != 0) return "no --baseline binary";
  if (mode == Mode::Bpftrace) {
    if (system("command -v bpftrace >/dev/null 2>&1") != 0) return "bpftrace is not installed";
    if (access("/sys/kernel/tracing/events/sched", F_OK) != 0)
      return "tracefs is not mounted at /sys/kernel/tracing (bench/run.sh mounts it in a private namespace)";
  }
  return "";
}

struct Times {
  std::vector<double> cpu_s, wall_s, ns_per_run;
};

// Prints `value` in a column of `width`, or "-" when its baseline is missing.
void cell(int width, const char* format, bool known, double value) {
  if (!known) {
    std::printf(" %*s", width, "-");
    return;
  }
  char text[32];
  std::snprintf(text, sizeof text, format, value);
  std::printf(" %*s", width, text);
}

void print_table(const Scenario& s, const std::map<Mode, Times>& times, const Options& o) {
  auto median_of = [&](Mode m) { return times.count(m) && !times.at(m).cpu_s.empty() ? median(times.at(m).cpu_s) : 0.0; };
  double none = median_of(Mode::None), empty = median_of(Mode::Empty), hand = median_of(Mode::HandC);
  std::printf("\n%s: %s\n", s.name.c_str(), s.summary.c_str());
  std::printf("  %-15s %9s %7s %9s %9s %9s %13s %9s%s\n", "mode", "cpu s", "spread", "vs none", "vs C",
              "+ns/op", "+ns/op>empty", "wall s", o.bpf_stats ? "  prog ns/run" : "");
  for (Mode mode : kModes) {
    double m = median_of(mode);
    if (m == 0) {
      std::printf("  %-15s %9s\n", mode_name(mode), "-");
      continue;
    }
    const std::vector<double>& t = times.at(mode).cpu_s;
    double spread = (*std::max_element(t.begin(), t.end()) - *std::min_element(t.begin(), t.end())) / m;
    std::printf("  %-15s %9.3f %6.1f%%", mode_name(mode), m, spread * 100);
    cell(9, "%.3f", none > 0, m / none);
    cell(9, "%.3f", hand > 0, m / hand);
    cell(9, "%.0f", none > 0, (m - none) / o.loops * 1e9);
    cell(13, "%.0f", empty > 0 && mode != Mode::None, (m - empty) / o.loops * 1e9);
    std::printf(" %9.3f", median(times.at(mode).wall_s));
    const std::vector<double>& runs = times.at(mode).ns_per_run;
    if (o.bpf_stats) cell(12, "%.0f", !runs.empty(), median(runs));
    std::printf("\n");
  }
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  if (!parse(argc, argv, o)) {
    std::fprintf(stderr, "usage: overhead_bench [--runs R] [--loops N] [--cpu C] [--settle S] [--scenario NAME]... "
                 "[--mode none|empty|c|base|dsched|bpftrace]... [--bpf-stats] [--baseline DSCHED]\n");
    return 2;
  }
  if (system("command -v perf >/dev/null 2>&1") != 0) {
    std::fprintf(stderr, "overhead_bench: perf is not installed (Debian: apt-get install linux-perf)\n");
    return 1;
  }
  std::vector<Scenario> chosen;
  for (const Scenario& s : scenarios())
    if (o.only.empty() || std::find(o.only.begin(), o.only.end(), s.name) != o.only.end()) chosen.push_back(s);
  if (chosen.empty()) {
    std::fprintf(stderr, "overhead_bench: no such scenario\n");
    return 2;
  }
  std::vector<Mode> modes;
  for (Mode mode : kModes) {
    if (!o.modes.empty() && std::find(o.modes.begin(), o.modes.end(), mode_key(mode)) == o.modes.end()) continue;
    if (mode == Mode::Baseline && o.modes.empty() && o.baseline.empty()) continue;  // asked for by --baseline
    std::string reason = unavailable(mode, o);
    if (reason.empty()) modes.push_back(mode);
    else std::printf("skipping %s: %s\n", mode_name(mode), reason.c_str());
  }
  std::printf("perf bench sched pipe -l %ld, %s; %d rounds, modes interleaved\n", o.loops,
              o.cpu >= 0 ? ("pinned to CPU " + std::to_string(o.cpu)).c_str() : "unpinned", o.runs);

  // The statistics stay on while this descriptor is open (BPF_ENABLE_STATS).
  int stats_fd = o.bpf_stats ? bpf_enable_stats(BPF_STATS_RUN_TIME) : -1;
  if (o.bpf_stats && stats_fd < 0) {
    std::fprintf(stderr, "overhead_bench: cannot enable BPF statistics: %s\n", std::strerror(errno));
    return 1;
  }
  std::map<std::string, std::map<Mode, Times>> times;
  std::map<std::string, std::map<Mode, bool>> failed;
  for (int round = 0; round < o.runs; ++round) {
    for (const Scenario& s : chosen) {
      for (size_t i = 0; i < modes.size(); ++i) {
        Mode mode = modes[(i + static_cast<size_t>(round)) % modes.size()];
        if (failed[s.name][mode]) continue;
        std::string error;
        Sample sample = timed_run(mode, s, o, error);
        if (sample.cpu_s < 0) {
          std::fprintf(stderr, "%s / %s failed, dropped: %s\n", s.name.c_str(), mode_name(mode), error.c_str());
          failed[s.name][mode] = true;
          continue;
        }
        times[s.name][mode].cpu_s.push_back(sample.cpu_s);
        times[s.name][mode].wall_s.push_back(sample.wall_s);
        if (sample.ns_per_program_run >= 0) times[s.name][mode].ns_per_run.push_back(sample.ns_per_program_run);
      }
    }
    std::fprintf(stderr, "round %d/%d done\n", round + 1, o.runs);
  }
  for (const Scenario& s : chosen) print_table(s, times[s.name], o);
  std::printf("\ncpu s: median CPU time (user + system) of the workload. vs none / vs C: over the no-tracing /\n"
              "hand-written C median. +ns/op: extra CPU ns per pipe round trip (2 context switches) over no\n"
              "tracing; +ns/op>empty: over the empty programs (the work inside the program). spread: (max -\n"
              "min) / median over the rounds. wall s: median of perf's own wall-clock total.%s\n",
              o.bpf_stats ? "\nprog ns/run: mean run time of one of the tracer's BPF programs (kernel statistics)." : "");
  return 0;
}
