#include "runtime/support/target_process.h"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <functional>
#include <optional>
#include <sstream>
#include <vector>

#include <fcntl.h>
#include <poll.h>
#include <sys/auxv.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

namespace dsched {
namespace {

int open_pidfd(pid_t pid) { return static_cast<int>(syscall(SYS_pidfd_open, pid, 0)); }


// The file execvp() would run for `name`: a path, or an executable file in a $PATH directory.
// Found before the fork, so the traced child makes one exec, not one per $PATH directory. Without
// one, `error` says why, as execvp() would: a file found but not executable is EACCES.
std::optional<std::string> executable_path(const std::string& name, int& error) {
  error = ENOENT;
  auto runnable = [&](const std::string& file) {
    if (access(file.c_str(), X_OK) == 0) return true;
    if (access(file.c_str(), F_OK) == 0) error = EACCES;
    return false;
  };
  if (name.find('/') != std::string::npos) {
    if (runnable(name)) return name;
    return std::nullopt;
  }
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "/usr/local/bin:/usr/bin:/bin");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    std::string file = (dir.empty() ? "." : dir) + "/" + name;
    if (runnable(file)) return file;
  }
  return std::nullopt;
}

}  // namespace

TargetProcess::TargetProcess(pid_t pid, int pidfd, int gate_fd, int report_fd, bool owned)
    : pid_(pid), pidfd_(pidfd), gate_fd_(gate_fd), report_fd_(report_fd), owned_(owned) {}

std::unique_ptr<TargetProcess> TargetProcess::start_held(const std::string& command, std::string& error) {
  std::vector<std::string> words;
  std::istringstream split(command);
  for (std::string word; split >> word;) words.push_back(word);
  if (words.empty()) {
    error = "empty command for -c";
    return nullptr;
  }
  int not_found = 0;
  std::optional<std::string> file = executable_path(words[0], not_found);
  if (!file) {
    error = "failed to execute " + words[0] + ": " + std::strerror(not_found);
    return nullptr;
  }
  int gate[2];
  int report[2];  // carries the child's exec errno back; closed on a successful exec
  if (pipe2(gate, O_CLOEXEC) != 0 || pipe2(report, O_CLOEXEC) != 0) {
    error = std::string("cannot create pipe: ") + std::strerror(errno);
    return nullptr;
  }
  pid_t pid = fork();
  if (pid < 0) {
    error = std::string("cannot fork: ") + std::strerror(errno);
    return nullptr;
  }
  if (pid == 0) {
    close(gate[1]);
    close(report[0]);
    char go;
    if (read(gate[0], &go, 1) != 1) _exit(127);  // dsched went away before enabling
    std::vector<char*> argv;
    for (auto& word : words) argv.push_back(word.data());
    argv.push_back(nullptr);
    execv(file->c_str(), argv.data());
    int err = errno;
    (void)!write(report[1], &err, sizeof err);
    _exit(127);
  }
  close(gate[0]);
  close(report[1]);
  auto target = std::unique_ptr<TargetProcess>(new TargetProcess(pid, open_pidfd(pid), gate[1], report[0], true));
  target->command_ = words[0];
  return target;
}

std::unique_ptr<TargetProcess> TargetProcess::follow(pid_t pid, std::string& error) {
  int pidfd = open_pidfd(pid);
  if (pidfd < 0) {
    error = "failed to grab pid " + std::to_string(pid) + ": " + std::strerror(errno);
    return nullptr;
  }
  return std::unique_ptr<TargetProcess>(new TargetProcess(pid, pidfd, -1, -1, false));
}

TargetProcess::~TargetProcess() {
  if (owned_ && !exited()) {
    kill(pid_, SIGKILL);
    int status;
    waitpid(pid_, &status, 0);
  }
  for (int fd : {gate_fd_, report_fd_, pidfd_})
    if (fd >= 0) close(fd);
}

std::string TargetProcess::release() {
  if (stopped_) {
    stopped_ = false;
    ptrace(PTRACE_DETACH, pid_, nullptr, nullptr);
    return "";
  }
  return open_gate();
}

TargetProcess::StartPoint TargetProcess::start_point(std::string_view evaltime) {
  if (evaltime == "exec") return StartPoint::Exec;
  if (evaltime == "preinit") return StartPoint::Entry;
  return StartPoint::Main;
}

std::string TargetProcess::open_gate() {
  if (gate_fd_ < 0) return "";
  char go = 1;
  (void)!write(gate_fd_, &go, 1);
  close(gate_fd_);
  gate_fd_ = -1;
  int err = 0;
  ssize_t n = read(report_fd_, &err, sizeof err);
  close(report_fd_);
  report_fd_ = -1;
  if (n == sizeof err) return "failed to execute " + command_ + ": " + std::strerror(err);
  return "";
}

std::string TargetProcess::stop_after_exec() {
  const std::string failed = "cannot run " + command_ + ": ";
  if (ptrace(PTRACE_SEIZE, pid_, nullptr, reinterpret_cast<void*>(PTRACE_O_TRACEEXEC | PTRACE_O_TRACEFORK | PTRACE_O_EXITKILL)) != 0)
    return failed + std::strerror(errno);
  if (std::string error = open_gate(); !error.empty()) return error;
  int status = 0;
  // The exec stops the child (PTRACE_EVENT_EXEC) before its first instruction.
  if (waitpid(pid_, &status, 0) != pid_ || !WIFSTOPPED(status) || (status >> 8) != (SIGTRAP | (PTRACE_EVENT_EXEC << 8)))
    return failed + "it did not stop after exec";
  stopped_ = true;
  reached_ = StartPoint::Exec;
  return "";
}

namespace {

// The program's entry point, from the auxiliary vector the kernel gave the process.
uint64_t entry_point(pid_t pid) {
  int fd = open(("/proc/" + std::to_string(pid) + "/auxv").c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  uint64_t pair[2];
  uint64_t entry = 0;
  while (read(fd, pair, sizeof pair) == sizeof pair && pair[0] != AT_NULL)
    if (pair[0] == AT_ENTRY) entry = pair[1];
  close(fd);
  return entry;
}

// Waits for the traced child to stop or end, asking `interrupted` every millisecond: the signal
// handlers restart a blocking waitpid(). False when it ended, or when interrupted.
bool wait_for_stop(pid_t pid, int& status, const TargetProcess::Interrupted& interrupted) {
  for (;;) {
    pid_t got = waitpid(pid, &status, WNOHANG);
    if (got == pid) return WIFSTOPPED(status);
    if (got < 0 || (interrupted && interrupted())) return false;
    timespec pause{0, 1000000};
    nanosleep(&pause, nullptr);
  }
}

// Continues a traced child until it stops with SIGTRAP; other signals are delivered to it, and a
// process it forks is handed to `forked` (stopped, traced) then let go. False when it ended or
// the wait was interrupted.
bool continue_to_trap(pid_t pid, const TargetProcess::Interrupted& interrupted,
                      const std::function<void(pid_t)>& forked) {
  int signal_to_deliver = 0;
  for (;;) {
    if (ptrace(PTRACE_CONT, pid, nullptr, reinterpret_cast<void*>(intptr_t(signal_to_deliver))) != 0) return false;
    int status = 0;
    if (!wait_for_stop(pid, status, interrupted)) return false;
    signal_to_deliver = 0;
    if (status >> 8 == (SIGTRAP | (PTRACE_EVENT_FORK << 8))) {
      unsigned long child = 0;
      int child_status = 0;
      if (ptrace(PTRACE_GETEVENTMSG, pid, nullptr, &child) == 0 &&
          waitpid(pid_t(child), &child_status, __WALL) == pid_t(child)) {
        forked(pid_t(child));
        ptrace(PTRACE_DETACH, pid_t(child), nullptr, nullptr);
      }
      continue;
    }
    if (WSTOPSIG(status) == SIGTRAP) return true;
    signal_to_deliver = WSTOPSIG(status);
  }
}

}  // namespace

std::string TargetProcess::run_to_address(uint64_t address, const Interrupted& interrupted, void* regs_out) {
  errno = 0;
  long original = ptrace(PTRACE_PEEKTEXT, pid_, reinterpret_cast<void*>(address), nullptr);
  if (errno != 0) return "address " + std::to_string(address) + " cannot be read";
  constexpr long kBreakpoint = 0xcc;  // int3
  auto write_text = [&](pid_t pid, long word) {
    ptrace(PTRACE_POKETEXT, pid, reinterpret_cast<void*>(address), reinterpret_cast<void*>(word));
  };
  write_text(pid_, (original & ~0xffL) | kBreakpoint);
  // A process the program forks on the way (in a constructor) has the int3 in its copy of the
  // text: it gets the instruction back before it runs on, untraced.
  if (!continue_to_trap(pid_, interrupted, [&](pid_t child) { write_text(child, original); }))
    return interrupted && interrupted() ? "interrupted" : "it exited before reaching it";
  user_regs_struct regs{};
  ptrace(PTRACE_GETREGS, pid_, nullptr, &regs);
  write_text(pid_, original);
  regs.rip = address;  // back over the int3
  ptrace(PTRACE_SETREGS, pid_, nullptr, &regs);
  if (regs_out) *static_cast<user_regs_struct*>(regs_out) = regs;
  return "";
}

std::string TargetProcess::run_to(StartPoint point, const FindFunction& find, const Interrupted& interrupted) {
  if (!owned_ || (reached_ && *reached_ >= point)) return "";
  if (!reached_) {
    if (gate_fd_ < 0) return "";  // released already
    if (std::string error = stop_after_exec(); !error.empty()) return error;
  }
  if (point == StartPoint::Exec) return "";
  if (*reached_ == StartPoint::Exec) {
    uint64_t entry = entry_point(pid_);
    if (!entry) return "cannot run " + command_ + " to its entry point: its auxiliary vector cannot be read";
    if (std::string error = run_to_address(entry, interrupted); !error.empty())
      return "cannot run " + command_ + " to its entry point: " + error;
    reached_ = StartPoint::Entry;
  }
  if (point == StartPoint::Entry || !find) return "";
  // main() by its symbol; in a stripped program, as glibc's (and musl's) start code passes it to
  // __libc_start_main() as the first argument.
  uint64_t main = find(pid_, "main");
  if (!main)
    if (uint64_t start_main = find(pid_, "__libc_start_main")) {
      user_regs_struct regs{};
      if (std::string error = run_to_address(start_main, interrupted, &regs); !error.empty())
        return "cannot run " + command_ + " to main(): " + error;
      main = regs.rdi;
    }
  if (!main) return "";  // a program without either: it starts at its entry point
  if (std::string error = run_to_address(main, interrupted); !error.empty()) return "cannot run " + command_ + " to main(): " + error;
  reached_ = StartPoint::Main;
  return "";
}

std::string TargetProcess::describe_exit() const {
  std::string who = "pid " + std::to_string(pid_);
  if (!owned_) return who + " has exited";
  if (WIFSIGNALED(status_)) return who + " was killed by signal " + std::to_string(WTERMSIG(status_));
  return who + " exited with status " + std::to_string(WEXITSTATUS(status_));
}

bool TargetProcess::exited() {
  if (reaped_) return true;
  if (owned_) {
    int status;
    if (waitpid(pid_, &status, WNOHANG) == pid_) {
      reaped_ = true;
      status_ = status;
      return true;
    }
    return false;
  }
  pollfd fd{pidfd_, POLLIN, 0};
  if (pidfd_ >= 0 && poll(&fd, 1, 0) == 1) {
    reaped_ = true;
    return true;
  }
  return false;
}

}  // namespace dsched
