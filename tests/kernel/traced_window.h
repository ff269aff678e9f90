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

class TracedWindow {
 public:
  explicit TracedWindow(std::vector<std::string> args) : run_(with_command(std::move(args))) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (std::chrono::steady_clock::now() < deadline && dsched_alive()) {
      target_ = running_command();
      if (target_ > 0) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }
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
  static std::string first_line(const std::string& path) {
    std::string line;
    std::getline(std::ifstream(path), line);
    return line;
  }
  bool dsched_alive() const {
    std::string stat = first_line("/proc/" + std::to_string(run_.pid()) + "/stat");
    size_t paren = stat.rfind(')');
    return paren != std::string::npos && paren + 2 < stat.size() && stat[paren + 2] != 'Z';
  }
  // dsched's child once it runs the command: it is dsched itself until its exec, then stopped
  // (traced) until every probe is attached; released, it sleeps.
  pid_t running_command() const {
    std::string dir = "/proc/" + std::to_string(run_.pid());
    std::string children = first_line(dir + "/task/" + std::to_string(run_.pid()) + "/children");
    pid_t child = children.empty() ? -1 : std::stoi(children);
    if (child <= 0 || first_line("/proc/" + std::to_string(child) + "/comm") != kCommandName) return -1;
    std::string stat = first_line("/proc/" + std::to_string(child) + "/stat");
    size_t paren = stat.rfind(')');
    const bool sleeping = paren != std::string::npos && paren + 2 < stat.size() && stat[paren + 2] == 'S';
    return sleeping ? child : -1;
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
