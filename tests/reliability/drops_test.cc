// Drops no size cures: with default sizes, scripts whose keys are few or whose dynamic variables
// are bounded by the threads of a workload lose nothing, however the first firings burst. Each
// script runs several times, as the losses happened at start-up and not on every run.
#include <doctest/doctest.h>

#include <pthread.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <regex>
#include <string>

#include "support.h"

using namespace dsched::test;

namespace {

// A child process with `count` threads that each sleep half a millisecond in a loop: many
// wakeups at once, from many threads the tracer has not seen yet. Killed when the object goes.
class SleepyThreads {
 public:
  explicit SleepyThreads(int count) {
    pid_ = fork();
    if (pid_ == 0) {
      prctl(PR_SET_PDEATHSIG, SIGKILL);
      for (int i = 0; i < count; ++i) {
        pthread_t thread;
        pthread_create(&thread, nullptr, [](void*) -> void* {
          timespec nap{0, 500000};
          for (;;) nanosleep(&nap, nullptr);
        }, nullptr);
      }
      pause();
      _exit(0);
    }
    usleep(200000);  // the threads exist before tracing starts
  }
  ~SleepyThreads() {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }

 private:
  pid_t pid_ = -1;
};

// `err` without the reports of what the kernel refused: firings it skipped (a program fired inside
// another on a loaded machine) and thread storage it would not create (task storage in use on that
// CPU). No size cures those, and they are reported as they should be.
std::string without_kernel_refusals(const std::string& err) {
  static const std::regex refused(
      "dsched: [0-9]+ (probe firings? skipped|thread-local variable stores? refused) by the kernel \\([^)]*\\)\n");
  return std::regex_replace(err, refused, "");
}

// Runs `args` three times; every run must end normally and report no drop.
void check_no_drops(const std::vector<std::string>& args) {
  for (int run = 0; run < 3; ++run) {
    RunResult r = run_dsched(args, std::chrono::seconds(30));
    CAPTURE(run);
    CHECK_FALSE(r.timed_out);
    CHECK(r.status == 0);
    CHECK(without_kernel_refusals(r.err) == "");
  }
  CHECK(leftover_programs().empty());
}

}  // namespace

TEST_CASE("nine keys from every sched probe: no aggregation drops") {
  SleepyThreads workload(50);
  check_no_drops({"-qn", "sched::: { @[probename] = count(); } tick-1sec { exit(0); }"});
}

TEST_CASE("self->ts over 200 threads: no dynamic variable drops") {
  SleepyThreads workload(200);
  check_no_drops({"-qn",
                  "sched:::off-cpu { self->ts = timestamp; } "
                  "sched:::on-cpu /self->ts/ { @[execname] = quantize(timestamp - self->ts); self->ts = 0; } "
                  "tick-1sec { exit(0); }"});
}

TEST_CASE("runqlat's associative array over 200 threads: no dynamic variable drops") {
  SleepyThreads workload(200);
  check_no_drops({"-q", "-s", DSCHED_SOURCE_DIR "/examples/runqlat.d", "-n", "tick-1sec { exit(0); }"});
}

TEST_CASE("a new key per woken thread, 200 threads: no aggregation drops") {
  SleepyThreads workload(200);
  check_no_drops({"-qn", "sched:::wakeup { @[args[0]->pr_lwpid] = count(); } tick-1sec { exit(0); }"});
}
