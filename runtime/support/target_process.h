// The process named by -c (started by dsched, held before exec, then run to where it waits, stopped,
// until tracing is enabled: see StartPoint) or by -p (followed); either way the run ends when it
// exits.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <sys/types.h>

namespace dsched {

class TargetProcess {
 public:
  // Forks and prepares `command` (split on blanks, run through $PATH). The child waits before exec
  // until run_to() or release(). Returns null with error set on failure.
  static std::unique_ptr<TargetProcess> start_held(const std::string& command, std::string& error);
  // Follows an existing process.
  static std::unique_ptr<TargetProcess> follow(pid_t pid, std::string& error);
  ~TargetProcess();  // kills and reaps a child that dsched started and that still runs

  pid_t pid() const { return pid_; }
  // Where a held child waits, stopped, until tracing starts (DTrace's evaltime option): right after
  // its exec (exec); at its program's entry point, its libraries loaded (preinit); or at main(),
  // its initialisation code run (postinit and main, the default). What ran before is not traced.
  enum class StartPoint { Exec, Entry, Main };
  static StartPoint start_point(std::string_view evaltime);
  // The run-time address of a function in the process, its program searched first; 0 when none
  // of its modules has it.
  using FindFunction = std::function<uint64_t(pid_t pid, const std::string& name)>;
  // Asked while the child runs: true gives up the wait (a signal asked dsched to stop).
  using Interrupted = std::function<bool()>;
  // Lets a held child exec and run up to `point`, and stops it there until release(); nothing to
  // do once it is there or past it, or for a followed process. main() is found by its symbol, or
  // as glibc's __libc_start_main() receives it; without either the child stays at its entry
  // point. Returns an error message (the exec failed, the child exited on the way, `interrupted`).
  std::string run_to(StartPoint point, const FindFunction& find = {}, const Interrupted& interrupted = {});
  // Whether the process runs its program now, not dsched's image held before exec (-p, or -c
  // once it reached its entry point).
  bool image_loaded() const { return !owned_ || (reached_ && *reached_ != StartPoint::Exec); }
  // Lets a held (or stopped) child run; returns an error message when the exec failed.
  std::string release();
  // True once the process has exited (non-blocking). For a started child, reaps it.
  bool exited();
  // A file descriptor that becomes readable when the process exits (a pidfd).
  int exit_fd() const { return pidfd_; }
  int exit_status() const { return status_; }
  // "pid 1234 exited with status 0", "... was killed by signal 9"; for -p, "pid 1234 has exited".
  std::string describe_exit() const;

 private:
  TargetProcess(pid_t pid, int pidfd, int gate_fd, int report_fd, bool owned);
  // Opens the gate and reads the exec's outcome: an error message, or "" once the exec succeeded.
  std::string open_gate();
  std::string stop_after_exec();
  // Runs the stopped child until it executes the instruction at `address`, and stops it there
  // with that instruction not yet run; `regs_out`, when given, receives its registers. An error
  // message when it exits first or `interrupted` says so.
  std::string run_to_address(uint64_t address, const Interrupted& interrupted, void* regs_out = nullptr);
  pid_t pid_;
  int pidfd_;
  int gate_fd_;    // write end of the pipe the held child reads before exec; -1 once released
  int report_fd_;  // read end of the pipe carrying the child's exec errno; EOF on success
  bool owned_;
  std::optional<StartPoint> reached_;  // the furthest point the child stopped at
  bool stopped_ = false;               // traced and stopped there, until release()
  std::string command_;  // what -c runs, for messages
  bool reaped_ = false;
  int status_ = 0;
};

}  // namespace dsched
