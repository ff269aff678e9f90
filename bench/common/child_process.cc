#include "child_process.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <stdexcept>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

namespace dsched::bench {

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

bool ChildExit::ok() const { return !timed_out && WIFEXITED(status) && WEXITSTATUS(status) == 0; }

std::string ChildExit::describe() const {
  if (timed_out) return "timed out";
  if (WIFEXITED(status)) return "exit " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) return "signal " + std::to_string(WTERMSIG(status));
  return "status " + std::to_string(status);
}

ChildProcess::ChildProcess(const std::vector<std::string>& argv, int cpu) {
  for (const std::string& arg : argv) command_ += (command_.empty() ? "" : " ") + arg;
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error("pipe: " + std::string(strerror(errno)));
  std::vector<char*> args;
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  start_ = Clock::now();
  pid_ = fork();
  if (pid_ < 0) throw std::runtime_error("fork: " + std::string(strerror(errno)));
  if (pid_ == 0) {
    dup2(fds[1], STDOUT_FILENO);
    dup2(fds[1], STDERR_FILENO);
    if (cpu >= 0) {
      cpu_set_t set;
      CPU_ZERO(&set);
      CPU_SET(cpu, &set);
      sched_setaffinity(0, sizeof set, &set);
    }
    execvp(args[0], args.data());
    dprintf(STDERR_FILENO, "cannot run %s: %s\n", args[0], strerror(errno));
    _exit(127);
  }
  close(fds[1]);
  out_fd_ = fds[0];
}

ChildProcess::~ChildProcess() {
  if (!reaped_ && pid_ > 0) {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
  if (out_fd_ >= 0) close(out_fd_);
}

bool ChildProcess::read_some(int timeout_ms) {
  if (out_fd_ < 0) return false;
  pollfd p = {out_fd_, POLLIN, 0};
  if (poll(&p, 1, timeout_ms) <= 0) return true;
  char buffer[4096];
  ssize_t n = read(out_fd_, buffer, sizeof buffer);
  if (n < 0 && errno == EINTR) return true;
  if (n <= 0) {
    close(out_fd_);
    out_fd_ = -1;
    return false;
  }
  output_.append(buffer, static_cast<size_t>(n));
  return true;
}

double ChildProcess::wait_for(std::string_view marker, double timeout_s) {
  while (output_.find(marker) == std::string::npos) {
    double left = timeout_s - seconds_since(start_);
    if (left <= 0 || !read_some(static_cast<int>(left * 1000) + 1)) return -1;
  }
  return seconds_since(start_);
}

bool ChildProcess::running() {
  if (reaped_) return false;
  siginfo_t info{};
  return waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == 0;
}

bool ChildProcess::wait_exit(double timeout_s) {
  int pidfd = static_cast<int>(syscall(SYS_pidfd_open, pid_, 0));
  if (pidfd < 0) return !running();
  pollfd p = {pidfd, POLLIN, 0};
  int ready = poll(&p, 1, static_cast<int>(std::max(0.0, timeout_s) * 1000));
  close(pidfd);
  return ready > 0;
}

void ChildProcess::signal(int signo) {
  if (!reaped_) kill(pid_, signo);
}

ChildExit ChildProcess::finish(double timeout_s) {
  ChildExit result;
  Clock::time_point deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                                  std::chrono::duration<double>(timeout_s));
  while (Clock::now() < deadline && read_some(100)) {
  }
  // Output closes a moment before the exit; a child still writing or alive at the deadline is killed.
  if (out_fd_ >= 0 || !wait_exit(std::chrono::duration<double>(deadline - Clock::now()).count())) {
    kill(pid_, SIGKILL);
    result.timed_out = true;
  }
  rusage usage{};
  int status = 0;
  while (wait4(pid_, &status, 0, &usage) < 0 && errno == EINTR) {
  }
  reaped_ = true;
  result.status = status;
  result.seconds = seconds_since(start_);
  auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + t.tv_usec / 1e6; };
  result.cpu_seconds = seconds(usage.ru_utime) + seconds(usage.ru_stime);
  result.peak_rss_kb = usage.ru_maxrss;
  return result;
}

double median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  size_t mid = values.size() / 2;
  return values.size() % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

}  // namespace dsched::bench
