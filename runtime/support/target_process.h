// The process named by -c (started by dsched, held before exec, then stopped after it until tracing
// is enabled) or by -p (followed); either way the run ends when it exits.
#pragma once

#include <memory>
#include <string>
#include <sys/types.h>

namespace dsched {

class TargetProcess {
 public:
  // Forks and prepares `command` (split on blanks, run through $PATH). The child waits before exec
  // until run_to_exec() or release(). Returns null with error set on failure.
  static std::unique_ptr<TargetProcess> start_held(const std::string& command, std::string& error);
  // Follows an existing process.
  static std::unique_ptr<TargetProcess> follow(pid_t pid, std::string& error);
  ~TargetProcess();  // kills and reaps a child that dsched started and that still runs

  pid_t pid() const { return pid_; }
  // Lets a held child exec and stops it there, before the new program's first instruction, until
  // release(): as DTrace's -c, what the child did before its exec is not traced. Returns an
  // error message (the exec failed); nothing to do once done.
  std::string run_to_exec();
  // Lets a held child exec and run up to its program's entry point, where the dynamic linker has
  // loaded its libraries, and stops it there until release() (DTrace's pid provider finds the
  // child's modules at this point). Returns an error message; nothing to do once released.
  std::string run_to_entry();
  // Whether the process runs its program now, not dsched's image held before exec (-p, or -c
  // after run_to_entry()).
  bool image_loaded() const { return !owned_ || stopped_at_entry_; }
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
  pid_t pid_;
  int pidfd_;
  int gate_fd_;    // write end of the pipe the held child reads before exec; -1 once released
  int report_fd_;  // read end of the pipe carrying the child's exec errno; EOF on success
  bool owned_;
  bool traced_ = false;            // traced and stopped, after exec or at its entry point
  bool stopped_at_entry_ = false;  // stopped at its entry point by run_to_entry()
  std::string command_;  // what -c runs, for messages
  bool reaped_ = false;
  int status_ = 0;
};

}  // namespace dsched
