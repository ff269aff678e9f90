#include "runtime/support/target_process.h"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <vector>

#include <fcntl.h>
#include <poll.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

namespace dsched {
namespace {

int open_pidfd(pid_t pid) { return static_cast<int>(syscall(SYS_pidfd_open, pid, 0)); }


// Whether execvp() would find `name`: a path, or an executable file in a $PATH directory.
bool executable_exists(const std::string& name) {
  if (name.find('/') != std::string::npos) return access(name.c_str(), X_OK) == 0;
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "/usr/local/bin:/usr/bin:/bin");
  for (std::string dir; std::getline(dirs, dir, ':');)
    if (access(((dir.empty() ? "." : dir) + "/" + name).c_str(), X_OK) == 0) return true;
  return false;
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
  if (!executable_exists(words[0])) {
    error = "failed to execute " + words[0] + ": No such file or directory";
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
    execvp(argv[0], argv.data());
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
