// Workloads kernel tests start and stop themselves: CPU hogs pinned to a CPU, ping-pong pairs,
// sleepers. Each stops (and is joined or reaped) when its object goes out of scope.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <sys/types.h>

namespace dsched::test {

// `count` threads spinning on `cpu`, each named `name` (comm).
class PinnedHogs {
 public:
  PinnedHogs(int count, int cpu, const std::string& name = "dsched-hog");
  ~PinnedHogs();
  std::vector<pid_t> tids() const;

 private:
  std::atomic<bool> stop_{false};
  std::vector<std::thread> threads_;
  std::vector<std::atomic<pid_t>> tids_;
};

// A child process named `name` that runs `seconds` of work then exits: the work is a ping-pong
// between two of its threads over pipes (many wakeups and context switches).
class PingPongProcess {
 public:
  PingPongProcess(const std::string& name, double seconds);
  ~PingPongProcess();
  pid_t pid() const { return pid_; }
  // Waits for it to finish; returns its exit status.
  int wait();

 private:
  pid_t pid_ = -1;
};

}  // namespace dsched::test
