// Support for kernel tests: running dsched as a child with a time limit, and checking that no
// program or map of dsched is left in the kernel afterwards.
#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include <sys/types.h>

namespace dsched::test {

struct RunResult {
  std::string out;
  std::string err;
  int status = -1;         // exit status, or 128 + signal when killed by one
  bool timed_out = false;  // killed because the limit passed
};

// The dsched binary under test (DSCHED_BINARY, set by CMake).
std::string dsched_binary();

// Runs dsched with `args`, collecting its output; kills it after `limit`.
RunResult run_dsched(const std::vector<std::string>& args,
                     std::chrono::milliseconds limit = std::chrono::seconds(30));

// A dsched started in the background; `wait()` collects it like run_dsched.
class RunningDsched {
 public:
  explicit RunningDsched(const std::vector<std::string>& args);
  ~RunningDsched();  // kills it if still running
  pid_t pid() const { return pid_; }
  // Waits until its standard output contains `text` (or the limit passes); false on timeout.
  bool wait_for_output(const std::string& text, std::chrono::milliseconds limit = std::chrono::seconds(20));
  void signal(int signo);
  RunResult wait(std::chrono::milliseconds limit = std::chrono::seconds(30));

 private:
  void pump(int timeout_ms);
  pid_t pid_ = -1;
  int out_fd_ = -1, err_fd_ = -1;
  RunResult result_;
};

// Names of BPF programs a finished dsched left in the kernel (its programs are named
// "ds<N>_<probe>"): programs no running process holds, after the kernel's deferred freeing had a
// few seconds to finish. Empty when nothing is left.
std::vector<std::string> leftover_programs();
// Every dsched program loaded right now, including those of runs still going.
std::vector<std::string> loaded_programs();

// Writes `text` to a new temporary .d file; removed when the object goes.
class TempScript {
 public:
  explicit TempScript(const std::string& text);
  ~TempScript();
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace dsched::test
