// A child process for the benchmarks: started with its stdout and stderr merged into one pipe that
// the parent reads, so the benchmark can time when a given line appears and collect the rest.
#pragma once

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

namespace dsched::bench {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start);

struct ChildExit {
  int status = -1;         // as wait4 reports it
  double seconds = 0;      // from spawn to reaped
  double cpu_seconds = 0;  // user + system time of the child and the children it waited for
  long peak_rss_kb = 0;    // ru_maxrss
  bool timed_out = false;  // killed after the deadline

  bool ok() const;
  std::string describe() const;  // "exit 0", "signal 9", "timed out"
};

class ChildProcess {
 public:
  // Starts argv[0] (searched in PATH). cpu >= 0 pins the child (and its children) to that CPU.
  ChildProcess(const std::vector<std::string>& argv, int cpu = -1);
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // Reads output until `marker` has appeared, the child closes its output, or `timeout_s` passes.
  // Returns the seconds from spawn to the read that completed the marker, or a negative value.
  double wait_for(std::string_view marker, double timeout_s);
  bool running();
  void signal(int signo);
  // Reads all remaining output and reaps the child; after `timeout_s` it is killed.
  ChildExit finish(double timeout_s);

  const std::string& output() const { return output_; }
  const std::string& command() const { return command_; }
  pid_t pid() const { return pid_; }

 private:
  // Appends what is readable within `timeout_ms` to output_; false at end of output.
  bool read_some(int timeout_ms);
  // Waits up to `timeout_s` for the child to exit (without reaping it); true when it has.
  bool wait_exit(double timeout_s);

  std::string command_;
  Clock::time_point start_;
  pid_t pid_ = -1;
  int out_fd_ = -1;
  std::string output_;
  bool reaped_ = false;
};

double median(std::vector<double> values);

}  // namespace dsched::bench
