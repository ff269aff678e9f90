// The workload the timeline's kernel tests record, run by `dsched timeline -c`.
//   tl_workload ROUNDS   tl-ping (CPU 0) and tl-pong (CPU 1) pass a byte through two pipes ROUNDS
//                        times; then tl-hog spins on CPU 1 while tl-sleeper, also on CPU 1, sleeps
//                        1 ms ROUNDS / 10 times, preempting it at each wakeup. Prints
//                        "<role> <tid>" for each thread and "pid <pid>", then exits.
//   tl_workload --forever  ping-pong with 1 ms pauses until killed; prints "started" first.
#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

#include <pthread.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

namespace {

pid_t current_tid() { return static_cast<pid_t>(syscall(SYS_gettid)); }

// Names and pins the calling thread; returns its tid.
pid_t become(const char* name, int cpu) {
  prctl(PR_SET_NAME, name);
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  sched_setaffinity(0, sizeof set, &set);
  return current_tid();
}

void sleep_us(long us) {
  timespec ts{us / 1000000, (us % 1000000) * 1000};
  nanosleep(&ts, nullptr);
}

void fail(const char* what) {
  std::perror(what);
  std::exit(1);
}

}  // namespace

int main(int argc, char** argv) {
  bool forever = argc == 2 && std::strcmp(argv[1], "--forever") == 0;
  long rounds = argc == 2 && !forever ? std::atol(argv[1]) : 0;
  if (!forever && rounds <= 0) {
    std::fprintf(stderr, "usage: tl_workload ROUNDS | --forever\n");
    return 2;
  }
  // Ends with whoever started it (dsched, or a test), even when that is killed.
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  int there[2], back[2], phase_two[2];
  if (pipe(there) || pipe(back) || pipe(phase_two)) fail("pipe");
  pid_t ping_tid = 0, pong_tid = 0, hog_tid = 0, sleeper_tid = 0;

  std::thread pong([&] {
    pong_tid = become("tl-pong", 1);
    char token;
    while (read(there[0], &token, 1) == 1 && token) (void)!write(back[1], &token, 1);
  });
  std::thread ping([&] {
    ping_tid = become("tl-ping", 0);
    char token = 1;
    for (long round = 0; forever || round < rounds; ++round) {
      (void)!write(there[1], &token, 1);
      (void)!read(back[0], &token, 1);
      if (forever) sleep_us(1000);
    }
    token = 0;
    (void)!write(there[1], &token, 1);
  });
  std::atomic<bool> sleeping_done{false};
  std::thread hog([&] {
    hog_tid = become("tl-hog", 1);
    char go;
    if (read(phase_two[0], &go, 1) != 1) return;
    volatile unsigned long spins = 0;
    while (!sleeping_done.load(std::memory_order_relaxed)) spins = spins + 1;
  });
  std::thread sleeper([&] {
    sleeper_tid = become("tl-sleeper", 1);
    char go;
    if (read(phase_two[0], &go, 1) != 1) return;
    for (long i = 0; i < rounds / 10; ++i) sleep_us(1000);
    sleeping_done = true;
  });
  if (forever) {
    std::printf("started\n");
    std::fflush(stdout);
  }
  ping.join();
  pong.join();
  (void)!write(phase_two[1], "gg", 2);
  hog.join();
  sleeper.join();
  std::printf("pid %d\nping %d\npong %d\nhog %d\nsleeper %d\n", getpid(), ping_tid, pong_tid, hog_tid, sleeper_tid);
  return 0;
}
