#include "runtime/timeline/timeline.h"

#include <cinttypes>
#include <csignal>
#include <cstdio>
#include <ctime>
#include <memory>

#include <bpf/libbpf.h>
#include <pthread.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "runtime/support/target_process.h"
#include "runtime/timeline/options.h"
#include "runtime/timeline/process_tree.h"
#include "runtime/timeline/recorder.h"
#include "runtime/timeline/timeline_trace.h"

namespace dsched::timeline {
namespace {

constexpr int kFailure = 1;
constexpr int kUsageError = 2;
// How often the loop looks at the end conditions and the loss counters when nothing wakes it.
constexpr int kPollMs = 50;

// SIGINT and SIGTERM end the recording. They are blocked and read from a signalfd between reads
// of the ring buffer, so the trace is completed and closed as on any other end. Set up after a -c
// command is forked, which keeps the usual handling.
class StopSignals {
 public:
  StopSignals() {
    sigemptyset(&stop_);
    sigaddset(&stop_, SIGINT);
    sigaddset(&stop_, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop_, &previous_);
    fd_ = signalfd(-1, &stop_, SFD_NONBLOCK | SFD_CLOEXEC);
  }
  ~StopSignals() {
    while (received()) {
    }
    if (fd_ >= 0) close(fd_);
    pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
  }
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

  bool received() {
    signalfd_siginfo info;
    return fd_ >= 0 && read(fd_, &info, sizeof info) == static_cast<ssize_t>(sizeof info);
  }

 private:
  sigset_t stop_{}, previous_{};
  int fd_ = -1;
};

uint64_t now_ns(clockid_t clock) {
  timespec ts{};
  clock_gettime(clock, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}

// Tells the trace which CPUs lost events since the last look, so their next bundles say so.
void mark_new_losses(TimelineTrace& trace, const std::vector<uint64_t>& lost, std::vector<uint64_t>& seen) {
  seen.resize(lost.size(), 0);
  for (size_t cpu = 0; cpu < lost.size(); ++cpu) {
    if (lost[cpu] > seen[cpu]) trace.note_loss(static_cast<uint32_t>(cpu));
    seen[cpu] = lost[cpu];
  }
}

void report(std::ostream& err, const TimelineTrace& trace, const std::string& path, double seconds,
            const std::vector<uint64_t>& lost) {
  static const char* names[] = {nullptr, "sched_switch", "sched_waking", "sched_wakeup_new", "sched_migrate_task",
                                "task_newtask", "task_rename", "sched_process_exec", "sched_process_free"};
  const RecordCounts& counts = trace.counts();
  uint64_t events = counts.total();
  char line[256];
  std::snprintf(line, sizeof line, "dsched timeline: %" PRIu64 " events in %.2f s written to %s (%" PRIu64 " bytes",
                events, seconds, path.c_str(), trace.bytes_written());
  err << line;
  if (events) {
    std::snprintf(line, sizeof line, ", %.1f bytes per event", static_cast<double>(trace.bytes_written()) / events);
    err << line;
  }
  err << ")\n ";
  for (int kind = DSTL_SWITCH; kind <= DSTL_FREE; ++kind) err << " " << names[kind] << " " << counts.by_kind[kind];
  err << "\n";
  std::string losses;
  for (size_t cpu = 0; cpu < lost.size(); ++cpu)
    if (lost[cpu]) losses += (losses.empty() ? "" : ", ") + ("cpu " + std::to_string(cpu)) + ": " + std::to_string(lost[cpu]);
  if (losses.empty())
    err << "dsched timeline: no events lost\n";
  else
    err << "dsched timeline: events lost (ring buffer full): " << losses
        << "; a larger --buffer-size keeps more of them\n";
}

int record(const TimelineOptions& options, std::ostream& err) {
  std::string error;
  std::unique_ptr<TargetProcess> target;
  if (!options.command.empty())
    target = TargetProcess::start_held(options.command, error);
  else if (options.pid)
    target = TargetProcess::follow(options.pid, error);
  if (!error.empty()) {
    err << "dsched timeline: " << error << "\n";
    return kFailure;
  }
  // From here on a signal ends the recording, even one that arrives while it is being set up.
  StopSignals signals;
  // Records are handed over only by poll(), once the trace has begun.
  std::unique_ptr<TimelineTrace> trace;
  uint64_t malformed = 0;
  auto recorder = Recorder::start(
      options.recorder, [&](const void* data, size_t size) { malformed += !trace->add_record(data, size); }, error);
  if (!recorder) {
    err << "dsched timeline: " << error << "\n";
    return kFailure;
  }
  // Created only now, so a refused start leaves an existing file as it was.
  trace = std::make_unique<TimelineTrace>(options.output);
  if (!trace->ok()) {
    err << "dsched timeline: " << trace->error() << "\n";
    return kFailure;
  }
  uint64_t started = now_ns(CLOCK_BOOTTIME);
  // Threads alive now; those created from here on arrive as task_newtask records.
  trace->begin(started, describe_this_system(), scan_processes());
  if (target) {
    std::string exec_error = target->release();
    if (!exec_error.empty()) {
      err << "dsched timeline: " << exec_error << "\n";
      return kFailure;
    }
  }
  err << "dsched timeline: recording to " << options.output << (options.command.empty() ? "; Ctrl-C to stop" : "")
      << "\n";
  uint64_t deadline = options.duration ? started + static_cast<uint64_t>(options.duration->count()) : UINT64_MAX;
  std::vector<uint64_t> losses_seen;
  bool read_ok = true;
  while (!signals.received() && read_ok && trace->ok()) {
    read_ok = recorder->poll(kPollMs);
    mark_new_losses(*trace, recorder->lost_per_cpu(), losses_seen);
    if ((target && target->exited()) || now_ns(CLOCK_BOOTTIME) >= deadline) break;
  }
  recorder->stop();
  std::vector<uint64_t> lost = recorder->lost_per_cpu();
  mark_new_losses(*trace, lost, losses_seen);
  recorder.reset();
  uint64_t ended = now_ns(CLOCK_BOOTTIME);
  bool written = trace->end(ended, lost);
  if (!written) {
    err << "dsched timeline: " << trace->error() << "\n";
    return kFailure;
  }
  if (!read_ok) {
    err << "dsched timeline: reading the ring buffer failed; the trace ends early\n";
    return kFailure;
  }
  if (malformed) err << "dsched timeline: " << malformed << " malformed records skipped\n";
  report(err, *trace, options.output, static_cast<double>(ended - started) / 1e9, lost);
  return 0;
}

}  // namespace

int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  ParsedOptions parsed = parse_options(args, libbpf_num_possible_cpus());
  if (!parsed.options) {
    err << "dsched timeline: " << parsed.error << "\n" << usage_text();
    return kUsageError;
  }
  if (parsed.options->help) {
    out << usage_text();
    return 0;
  }
  return record(*parsed.options, err);
}

}  // namespace dsched::timeline
