#include "workloads.h"

#include <chrono>
#include <csignal>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

namespace dsched::test {
namespace {

void pin_to(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  sched_setaffinity(0, sizeof set, &set);
}

pid_t gettid_now() { return static_cast<pid_t>(syscall(SYS_gettid)); }

void ping_pong(double seconds) {
  int there[2], back[2];
  if (pipe(there) != 0 || pipe(back) != 0) _exit(1);
  std::thread partner([&] {
    char token;
    while (read(there[0], &token, 1) == 1 && token) (void)!write(back[1], &token, 1);
  });
  auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  char token = 1;
  while (std::chrono::steady_clock::now() < deadline) {
    (void)!write(there[1], &token, 1);
    (void)!read(back[0], &token, 1);
  }
  token = 0;
  (void)!write(there[1], &token, 1);
  partner.join();
}

}  // namespace

PinnedHogs::PinnedHogs(int count, int cpu, const std::string& name) : tids_(count) {
  for (int i = 0; i < count; ++i) {
    threads_.emplace_back([this, i, cpu, name] {
      pin_to(cpu);
      prctl(PR_SET_NAME, name.c_str());
      tids_[i] = gettid_now();
      volatile unsigned long spin = 0;
      while (!stop_.load(std::memory_order_relaxed)) ++spin;
    });
  }
  for (auto& tid : tids_)
    while (tid.load() == 0) std::this_thread::yield();
}

PinnedHogs::~PinnedHogs() {
  stop_ = true;
  for (auto& thread : threads_) thread.join();
}

std::vector<pid_t> PinnedHogs::tids() const {
  std::vector<pid_t> tids;
  for (const auto& tid : tids_) tids.push_back(tid.load());
  return tids;
}

PingPongProcess::PingPongProcess(const std::string& name, double seconds) {
  pid_ = fork();
  if (pid_ == 0) {
    prctl(PR_SET_NAME, name.c_str());
    ping_pong(seconds);
    _exit(0);
  }
}

PingPongProcess::~PingPongProcess() {
  if (pid_ > 0) {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
}

int PingPongProcess::wait() {
  int status = 0;
  if (pid_ > 0) waitpid(pid_, &status, 0);
  pid_ = -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace dsched::test
