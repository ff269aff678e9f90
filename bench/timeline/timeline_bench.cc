// timeline_bench [--runs R] [--loops N] [--cpu C]
// What recording a scheduler timeline costs the traced load, and how many bytes each recorder
// writes per event: `perf bench sched pipe -l N` (pinned to CPU C, default 0, so each round trip
// is two context switches and two wakeups on that CPU) run with no recorder, under
// `dsched timeline` and under `perf sched record`, in rotating order each round. Both recorders
// record every CPU. Needs root and linux-perf; tracefs, which perf needs for its tracepoints, is
// mounted in a private mount namespace, so the machine's own mounts stay as they were.
#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "child_process.h"

namespace {

using dsched::bench::ChildExit;
using dsched::bench::ChildProcess;
using dsched::bench::median;

enum class Recorder { None, Dsched, Perf };
constexpr Recorder kRecorders[] = {Recorder::None, Recorder::Dsched, Recorder::Perf};

const char* recorder_name(Recorder r) {
  switch (r) {
    case Recorder::None: return "no recording";
    case Recorder::Dsched: return "dsched timeline";
    case Recorder::Perf: return "perf sched record";
  }
  return "?";
}

struct Options {
  int runs = 5;
  long loops = 100000;
  int cpu = 0;
  double settle_s = 0.5;
};

// One load run: the load's CPU and wall time; for a recorder, what it wrote.
struct Sample {
  double cpu_s = 0, wall_s = 0, recorder_cpu_s = 0;
  double bytes = 0, events = 0, switches = 0;
};

const char* kTracePath = "/tmp/timeline-bench.trace";

// The number after `label` in `text` (e.g. "sched_switch 123"), or nullopt.
std::optional<double> number_after(const std::string& text, const std::string& label) {
  size_t at = text.find(label);
  if (at == std::string::npos) return std::nullopt;
  return std::strtod(text.c_str() + at + label.size(), nullptr);
}

// The number just before `label` in `text` (e.g. "123 events in"), or nullopt.
std::optional<double> number_before(const std::string& text, const std::string& label) {
  size_t at = text.find(label);
  if (at == std::string::npos) return std::nullopt;
  size_t start = text.find_last_not_of("0123456789", at - 1);
  return std::strtod(text.c_str() + (start == std::string::npos ? 0 : start + 1), nullptr);
}

double file_bytes(const char* path) {
  struct stat file {};
  return stat(path, &file) == 0 ? static_cast<double>(file.st_size) : 0;
}

// sched_switch samples in a perf.data file.
double perf_switches(const char* path) {
  std::string command = std::string("perf script -i ") + path + " -F event 2>/dev/null | grep -c sched:sched_switch";
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return 0;
  double count = 0;
  if (std::fscanf(pipe, "%lf", &count) != 1) count = 0;
  pclose(pipe);
  return count;
}

std::vector<std::string> recorder_argv(Recorder r) {
  if (r == Recorder::Dsched) return {BENCH_DSCHED, "timeline", "-o", kTracePath};
  // perf starts its command only once recording runs: the command's "ready" says so.
  return {"perf", "sched", "record", "-o", kTracePath, "--", "sh", "-c", "echo ready; exec sleep 3600"};
}

// Reads what the recorder wrote from its final output and its file.
bool read_recording(Recorder r, const std::string& output, Sample& sample, std::string& error) {
  sample.bytes = file_bytes(kTracePath);
  if (r == Recorder::Dsched) {
    auto events = number_before(output, " events in ");
    auto switches = number_after(output, "sched_switch ");
    if (!events || !switches || output.find("no events lost") == std::string::npos) {
      error = "dsched's report is missing or counts lost events:\n" + output;
      return false;
    }
    sample.events = *events;
    sample.switches = *switches;
  } else {
    size_t at = output.find(" samples)");
    size_t open = at == std::string::npos ? std::string::npos : output.rfind('(', at);
    if (open == std::string::npos) {
      error = "perf's report has no sample count:\n" + output;
      return false;
    }
    sample.events = std::strtod(output.c_str() + open + 1, nullptr);
    sample.switches = perf_switches(kTracePath);
  }
  return sample.events > 0 && sample.bytes > 0;
}

std::optional<Sample> run_once(Recorder r, const Options& o, std::string& error) {
  unlink(kTracePath);
  std::unique_ptr<ChildProcess> recorder;
  if (r != Recorder::None) {
    recorder = std::make_unique<ChildProcess>(recorder_argv(r));
    const char* marker = r == Recorder::Dsched ? "recording to" : "ready";
    if (recorder->wait_for(marker, 60) < 0) {
      ChildExit exit = recorder->finish(5);
      error = recorder->command() + ": did not start (" + exit.describe() + ")\n" + recorder->output();
      return std::nullopt;
    }
    std::this_thread::sleep_for(std::chrono::duration<double>(o.settle_s));
  }
  ChildProcess load({"perf", "bench", "sched", "pipe", "-l", std::to_string(o.loops)}, o.cpu);
  ChildExit load_exit = load.finish(600);
  Sample sample;
  sample.cpu_s = load_exit.cpu_seconds;
  sample.wall_s = number_after(load.output(), "Total time:").value_or(0);
  if (!load_exit.ok() || sample.wall_s <= 0) {
    error = load.command() + " (" + load_exit.describe() + ")\n" + load.output();
    return std::nullopt;
  }
  if (recorder) {
    recorder->signal(SIGINT);
    ChildExit exit = recorder->finish(60);
    sample.recorder_cpu_s = exit.cpu_seconds;
    // perf reports its workload's SIGTERM as its own status; its report line says it finished.
    if (exit.timed_out || !read_recording(r, recorder->output(), sample, error)) {
      if (error.empty()) error = recorder->command() + " (" + exit.describe() + ")\n" + recorder->output();
      return std::nullopt;
    }
  }
  return sample;
}

bool parse(int argc, char** argv, Options& o) {
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string arg = argv[i];
    if (arg == "--runs") o.runs = std::max(1, std::atoi(argv[i + 1]));
    else if (arg == "--loops") o.loops = std::max(1000L, std::atol(argv[i + 1]));
    else if (arg == "--cpu") o.cpu = std::atoi(argv[i + 1]);
    else return false;
  }
  return argc % 2 == 1;
}

// perf's tracepoints need tracefs, which a fresh machine does not mount.
bool mount_private_tracefs(std::string& error) {
  if (unshare(CLONE_NEWNS) != 0 || mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) {
    error = std::string("cannot make a private mount namespace: ") + std::strerror(errno);
    return false;
  }
  if (access("/sys/kernel/tracing/events", F_OK) == 0) return true;
  if (mount("nodev", "/sys/kernel/tracing", "tracefs", 0, nullptr) != 0) {
    error = std::string("cannot mount tracefs: ") + std::strerror(errno);
    return false;
  }
  return true;
}

void print_table(const std::map<Recorder, std::vector<Sample>>& samples, const Options& o) {
  auto med = [&](Recorder r, double Sample::*field) {
    std::vector<double> values;
    for (const Sample& s : samples.at(r)) values.push_back(s.*field);
    return median(values);
  };
  double none = med(Recorder::None, &Sample::cpu_s);
  std::printf("\n  %-18s %8s %8s %9s %8s %12s %11s %11s %12s %12s\n", "recorder", "cpu s", "vs none", "+ns/op",
              "wall s", "recorder s", "events", "MB", "bytes/event", "bytes/switch");
  for (Recorder r : kRecorders) {
    if (!samples.count(r) || samples.at(r).empty()) {
      std::printf("  %-18s %8s\n", recorder_name(r), "-");
      continue;
    }
    double cpu = med(r, &Sample::cpu_s);
    std::printf("  %-18s %8.3f %8.3f %9.0f %8.3f", recorder_name(r), cpu, cpu / none, (cpu - none) / o.loops * 1e9,
                med(r, &Sample::wall_s));
    if (r == Recorder::None) {
      std::printf("\n");
      continue;
    }
    double bytes = med(r, &Sample::bytes), events = med(r, &Sample::events), switches = med(r, &Sample::switches);
    std::printf(" %12.3f %11.0f %11.2f %12.1f %12.1f\n", med(r, &Sample::recorder_cpu_s), events, bytes / 1e6,
                bytes / events, bytes / switches);
  }
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  if (!parse(argc, argv, o)) {
    std::fprintf(stderr, "usage: timeline_bench [--runs R] [--loops N] [--cpu C]\n");
    return 2;
  }
  std::string error;
  if (system("command -v perf >/dev/null 2>&1") != 0) {
    std::fprintf(stderr, "timeline_bench: perf is not installed (Debian: apt-get install linux-perf)\n");
    return 1;
  }
  if (!mount_private_tracefs(error)) {
    std::fprintf(stderr, "timeline_bench: %s\n", error.c_str());
    return 1;
  }
  std::printf("perf bench sched pipe -l %ld, %s; %d rounds, recorders in rotating order\n", o.loops,
              o.cpu >= 0 ? ("pinned to CPU " + std::to_string(o.cpu)).c_str() : "unpinned", o.runs);
  std::map<Recorder, std::vector<Sample>> samples;
  for (int round = 0; round < o.runs; ++round) {
    for (size_t i = 0; i < std::size(kRecorders); ++i) {
      Recorder r = kRecorders[(i + static_cast<size_t>(round)) % std::size(kRecorders)];
      std::optional<Sample> sample = run_once(r, o, error);
      if (!sample) {
        std::fprintf(stderr, "timeline_bench: %s failed: %s\n", recorder_name(r), error.c_str());
        return 1;
      }
      samples[r].push_back(*sample);
    }
    std::fprintf(stderr, "round %d/%d done\n", round + 1, o.runs);
  }
  unlink(kTracePath);
  print_table(samples, o);
  std::printf("\ncpu s: median CPU time (user + system) of the load; vs none: over no recording; +ns/op: extra\n"
              "CPU ns per round trip (2 context switches, 2 wakeups). wall s: perf bench's own total.\n"
              "recorder s: CPU time of the recorder's own process. events: what the recorder wrote\n"
              "(perf: samples of every event it records); bytes/switch: file size over its sched_switch count.\n");
  return 0;
}
