// dsched running a script over a window the test controls, and what workloads did inside it.
// dsched starts with `-c sleep ...`, a command it releases only once every probe is attached: the
// window is open as soon as that command sleeps, no longer stopped. Closing ends the command; dsched then detaches, runs
// END and prints its aggregations, as when the traced command of `dsched -c` exits.
#pragma once

#include <cctype>
#include <chrono>
#include <csignal>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

#include "support.h"
#include "workloads.h"

namespace dsched::test {

// The path of a script under examples/.
inline std::string example_script(const std::string& name) {
  return std::string(DSCHED_SOURCE_DIR) + "/examples/" + name;
}

inline std::string first_line(const std::string& path) {
  std::string line;
  std::getline(std::ifstream(path), line);
  return line;
}

// The state letter of a process ('S', 'R', 'Z'...); 0 when it is gone.
inline char process_state(pid_t pid) {
  std::string stat = first_line("/proc/" + std::to_string(pid) + "/stat");
  size_t paren = stat.rfind(')');
  return paren != std::string::npos && paren + 2 < stat.size() ? stat[paren + 2] : 0;
}

// The -c command of the dsched `dsched` once it runs `command` and sleeps: until its exec it is
// dsched itself, then stopped (traced) until dsched lets it go or it waits on its own. Waits up to
// 30 s while dsched lives; -1 when it never does.
inline pid_t wait_for_sleeping_command(pid_t dsched, const std::string& command) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (std::chrono::steady_clock::now() < deadline && process_state(dsched) != 0 && process_state(dsched) != 'Z') {
    std::string dir = "/proc/" + std::to_string(dsched);
    std::string children = first_line(dir + "/task/" + std::to_string(dsched) + "/children");
    pid_t child = children.empty() ? -1 : std::stoi(children);
    if (child > 0 && first_line("/proc/" + std::to_string(child) + "/comm") == command && process_state(child) == 'S')
      return child;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return -1;
}

class TracedWindow {
 public:
  explicit TracedWindow(std::vector<std::string> args)
      : run_(with_command(std::move(args))), target_(wait_for_sleeping_command(run_.pid(), kCommandName)) {}
  ~TracedWindow() {
    if (target_ > 0) kill(target_, SIGKILL);
  }
  TracedWindow(const TracedWindow&) = delete;
  TracedWindow& operator=(const TracedWindow&) = delete;

  bool is_open() const { return target_ > 0; }
  // Ends the window and collects dsched's output and exit status.
  RunResult close() {
    if (target_ > 0) kill(target_, SIGTERM);
    target_ = -1;
    return run_.wait();
  }

 private:
  static constexpr const char* kCommandName = "sleep";

  static std::vector<std::string> with_command(std::vector<std::string> args) {
    args.insert(args.end(), {"-c", std::string(kCommandName) + " 60"});
    return args;
  }
  RunningDsched run_;
  pid_t target_ = -1;
};

// What the workloads did in a window, each from a standstill to a standstill (see Workload::pause).
struct WindowResult {
  bool opened = false;
  RunResult run;
  std::map<pid_t, ThreadCounters> threads;  // each workload thread's counters over the window
  std::vector<uint64_t> rounds;             // each workload's rounds over the window
  uint64_t machine_switches = 0;            // context switches while dsched ran (a superset)
  double seconds = 0;                       // how long dsched ran (a superset of the window)

  ThreadCounters total(const std::vector<pid_t>& tids) const {
    ThreadCounters sum;
    for (pid_t tid : tids) sum += threads.at(tid);
    return sum;
  }
};

// Runs dsched with `args` while `workloads` work for `length`: they are paused, the window opens,
// they run, they are paused again, the window closes.
inline WindowResult run_window(std::vector<std::string> args, const std::vector<Workload*>& workloads,
                               std::chrono::milliseconds length = std::chrono::milliseconds(1000)) {
  WindowResult result;
  for (Workload* workload : workloads) workload->pause();
  auto started = std::chrono::steady_clock::now();
  uint64_t switches = machine_context_switches();
  TracedWindow window(std::move(args));
  result.opened = window.is_open();
  std::map<pid_t, ThreadCounters> before;
  std::vector<uint64_t> rounds_before;
  for (Workload* workload : workloads) {
    for (pid_t tid : workload->tids()) before[tid] = thread_counters(tid);
    rounds_before.push_back(workload->rounds());
  }
  if (result.opened) {
    for (Workload* workload : workloads) workload->resume();
    std::this_thread::sleep_for(length);
    for (Workload* workload : workloads) workload->pause();
  }
  for (size_t i = 0; i < workloads.size(); ++i) {
    for (pid_t tid : workloads[i]->tids()) result.threads[tid] = thread_counters(tid) - before[tid];
    result.rounds.push_back(workloads[i]->rounds() - rounds_before[i]);
  }
  result.run = window.close();
  result.machine_switches = machine_context_switches() - switches;
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return result;
}

}  // namespace dsched::test
