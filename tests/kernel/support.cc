#include "support.h"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include <bpf/bpf.h>
#include <dirent.h>
#include <fstream>
#include <set>
#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

namespace dsched::test {
namespace {

using Clock = std::chrono::steady_clock;

int decode_status(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return -1;
}

bool drain(int& fd, std::string& into) {
  char buffer[65536];
  ssize_t n = read(fd, buffer, sizeof buffer);
  if (n > 0) {
    into.append(buffer, static_cast<size_t>(n));
    return true;
  }
  if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
    close(fd);
    fd = -1;
  }
  return false;
}

}  // namespace

std::string dsched_binary() {
  const char* path = std::getenv("DSCHED_BINARY");
  return path ? path : DSCHED_BINARY;
}

RunningDsched::RunningDsched(const std::vector<std::string>& args) {
  int out[2], err[2];
  if (pipe2(out, O_CLOEXEC) != 0 || pipe2(err, O_CLOEXEC) != 0) throw std::runtime_error("pipe");
  std::string binary = dsched_binary();
  pid_ = fork();
  if (pid_ < 0) throw std::runtime_error("fork");
  if (pid_ == 0) {
    dup2(out[1], 1);
    dup2(err[1], 2);
    int devnull = open("/dev/null", O_RDONLY);
    dup2(devnull, 0);
    std::vector<char*> argv;
    argv.push_back(binary.data());
    std::vector<std::string> copy = args;
    for (auto& arg : copy) argv.push_back(arg.data());
    argv.push_back(nullptr);
    execv(binary.c_str(), argv.data());
    _exit(127);
  }
  close(out[1]);
  close(err[1]);
  out_fd_ = out[0];
  err_fd_ = err[0];
  fcntl(out_fd_, F_SETFL, O_NONBLOCK);
  fcntl(err_fd_, F_SETFL, O_NONBLOCK);
}

RunningDsched::~RunningDsched() {
  if (pid_ > 0) {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
  if (out_fd_ >= 0) close(out_fd_);
  if (err_fd_ >= 0) close(err_fd_);
}

void RunningDsched::pump(int timeout_ms) {
  pollfd fds[2] = {{out_fd_, POLLIN, 0}, {err_fd_, POLLIN, 0}};
  if (poll(fds, 2, timeout_ms) <= 0) return;
  if (out_fd_ >= 0 && fds[0].revents) drain(out_fd_, result_.out);
  if (err_fd_ >= 0 && fds[1].revents) drain(err_fd_, result_.err);
}

bool RunningDsched::wait_for_output(const std::string& text, std::chrono::milliseconds limit) {
  auto deadline = Clock::now() + limit;
  while (result_.out.find(text) == std::string::npos) {
    if (Clock::now() >= deadline || (out_fd_ < 0 && err_fd_ < 0)) return false;
    pump(50);
  }
  return true;
}

void RunningDsched::signal(int signo) {
  if (pid_ > 0) kill(pid_, signo);
}

RunResult RunningDsched::wait(std::chrono::milliseconds limit) {
  auto deadline = Clock::now() + limit;
  while (pid_ > 0) {
    pump(50);
    int status;
    pid_t done = waitpid(pid_, &status, WNOHANG);
    if (done == pid_) {
      result_.status = decode_status(status);
      pid_ = -1;
      break;
    }
    if (Clock::now() >= deadline) {
      result_.timed_out = true;
      kill(pid_, SIGKILL);
      waitpid(pid_, &status, 0);
      result_.status = decode_status(status);
      pid_ = -1;
    }
  }
  while (out_fd_ >= 0 || err_fd_ >= 0) pump(100);
  return result_;
}

RunResult run_dsched(const std::vector<std::string>& args, std::chrono::milliseconds limit) {
  RunningDsched run(args);
  return run.wait(limit);
}

namespace {

// Programs some running process holds (through a program or link fd): those of dsched runs still
// going on this machine, which are not leftovers.
std::set<uint32_t> held_program_ids() {
  std::set<uint32_t> held;
  DIR* proc = opendir("/proc");
  while (dirent* process = proc ? readdir(proc) : nullptr) {
    std::string fdinfo = std::string("/proc/") + process->d_name + "/fdinfo";
    DIR* fds = opendir(fdinfo.c_str());
    while (dirent* fd = fds ? readdir(fds) : nullptr) {
      std::ifstream info(fdinfo + "/" + fd->d_name);
      for (std::string line; std::getline(info, line);)
        if (line.rfind("prog_id:", 0) == 0) held.insert(static_cast<uint32_t>(std::stoul(line.substr(8))));
    }
    if (fds) closedir(fds);
  }
  if (proc) closedir(proc);
  return held;
}

std::vector<std::string> dsched_programs(const std::set<uint32_t>& excluded) {
  std::vector<std::string> names;
  uint32_t id = 0;
  while (bpf_prog_get_next_id(id, &id) == 0) {
    if (excluded.count(id)) continue;
    int fd = bpf_prog_get_fd_by_id(id);
    if (fd < 0) continue;
    bpf_prog_info info{};
    uint32_t length = sizeof info;
    std::string name;
    if (bpf_obj_get_info_by_fd(fd, &info, &length) == 0) name = info.name;
    close(fd);
    if (name.size() > 2 && name.rfind("ds", 0) == 0 && std::isdigit(static_cast<unsigned char>(name[2])))
      names.push_back(name);
  }
  return names;
}

}  // namespace

std::vector<std::string> loaded_programs() { return dsched_programs({}); }

std::vector<std::string> leftover_programs() {
  // The kernel frees an exited process's programs after an RCU grace period: wait for that.
  auto deadline = Clock::now() + std::chrono::seconds(5);
  std::vector<std::string> left = dsched_programs(held_program_ids());
  while (!left.empty() && Clock::now() < deadline) {
    usleep(20000);
    left = dsched_programs(held_program_ids());
  }
  return left;
}

TempScript::TempScript(const std::string& text) {
  char path[] = "/tmp/dsched-test-XXXXXX.d";
  int fd = mkstemps(path, 2);
  if (fd < 0) throw std::runtime_error("mkstemps");
  if (write(fd, text.data(), text.size()) != static_cast<ssize_t>(text.size())) throw std::runtime_error("write");
  close(fd);
  path_ = path;
}

TempScript::~TempScript() { unlink(path_.c_str()); }

}  // namespace dsched::test
