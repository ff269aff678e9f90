#include "runtime/timeline/timeline.h"

#include <csignal>
#include <memory>

#include <bpf/libbpf.h>
#include <pthread.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "runtime/support/target_process.h"
#include "runtime/timeline/recording.h"

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
  std::unique_ptr<Recording> recording = Recording::start(options, error);
  if (!recording) {
    err << "dsched timeline: " << error << "\n";
    return kFailure;
  }
  if (target) {
    std::string exec_error = target->release();
    if (!exec_error.empty()) {
      err << "dsched timeline: " << exec_error << "\n";
      return kFailure;
    }
  }
  err << "dsched timeline: recording to " << options.output << (options.command.empty() ? "; Ctrl-C to stop" : "")
      << "\n";
  while (!signals.received() && recording->poll(kPollMs) && recording->keep_running())
    if (target && target->exited()) break;
  return recording->finish(err);
}

}  // namespace

int run_cli(const ParsedOptions& parsed, std::ostream& out, std::ostream& err) {
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
