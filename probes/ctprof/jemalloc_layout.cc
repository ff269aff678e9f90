#include "jemalloc_layout.h"

#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>
#include <tuple>

#include "file_read.h"

namespace dsched::ctprof {
namespace {

constexpr uid_t kNobody = 65534;
constexpr int kHelperDeadlineMs = 3000;

// The helper's stdout, read until it closes or the deadline passes.
std::string read_until_eof(int fd, std::chrono::steady_clock::time_point deadline) {
  std::string out;
  char chunk[256];
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) break;
    pollfd p{fd, POLLIN, 0};
    const int ready = poll(&p, 1, static_cast<int>(left.count()));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) break;
    const ssize_t n = read(fd, chunk, sizeof chunk);
    if (n <= 0) break;
    out.append(chunk, static_cast<std::size_t>(n));
  }
  return out;
}

// Child side, between fork and exec: only async-signal-safe system calls.
[[noreturn]] void exec_helper(int exe, int library, int out, char* const argv[],
                              char* const envp[]) {
  const int null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
  if (null_fd < 0 || dup2(null_fd, 0) < 0 || dup2(out, 1) < 0 || dup2(null_fd, 2) < 0 ||
      dup2(library, 3) < 0)
    _exit(120);
  // dup2 onto itself keeps close-on-exec: clear it where the descriptor already was 1 or 3.
  fcntl(1, F_SETFD, 0);
  fcntl(3, F_SETFD, 0);
  // Nothing but stdio and the library survives the exec; `exe` is used by the exec itself.
  syscall(SYS_close_range, 4U, ~0U, CLOSE_RANGE_CLOEXEC);
  if (geteuid() == 0 &&
      (setgroups(0, nullptr) != 0 || setgid(kNobody) != 0 || setuid(kNobody) != 0))
    _exit(121);
  prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
  const rlimit cpu{2, 2};
  setrlimit(RLIMIT_CPU, &cpu);
  fexecve(exe, argv, envp);
  _exit(127);
}

std::optional<JemallocLayout> run_helper(int library, std::string& error) {
  const auto image = jemalloc_layout_helper_image();
  Fd staged(memfd_create("dsched-jemalloc-layout", MFD_CLOEXEC));
  // Above the descriptors the child sets up (0-3), so setting them up cannot close it.
  Fd exe(staged.ok() ? fcntl(staged.get(), F_DUPFD_CLOEXEC, 10) : -1);
  if (!exe.ok() ||
      write(exe.get(), image.data(), image.size()) != static_cast<ssize_t>(image.size())) {
    error = std::string("cannot stage the layout helper: ") + std::strerror(errno);
    return std::nullopt;
  }
  int pipe_fds[2];
  if (pipe2(pipe_fds, O_CLOEXEC) != 0) {
    error = std::string("pipe: ") + std::strerror(errno);
    return std::nullopt;
  }
  Fd read_end(pipe_fds[0]), write_end(pipe_fds[1]);
  char arg0[] = "dsched-jemalloc-layout", arg1[] = "/proc/self/fd/3";
  char env0[] = "LD_PRELOAD=/proc/self/fd/3";
  char* const argv[] = {arg0, arg1, nullptr};
  char* const envp[] = {env0, nullptr};
  const pid_t pid = fork();
  if (pid < 0) {
    error = std::string("fork: ") + std::strerror(errno);
    return std::nullopt;
  }
  if (pid == 0) exec_helper(exe.get(), library, write_end.get(), argv, envp);
  write_end = Fd();
  const std::string out =
      read_until_eof(read_end.get(), std::chrono::steady_clock::now() +
                                         std::chrono::milliseconds(kHelperDeadlineMs));
  int status = 0;
  if (waitpid(pid, &status, WNOHANG) == 0) {
    kill(pid, SIGKILL);  // past the deadline
    waitpid(pid, &status, 0);
  }
  JemallocLayout layout;
  unsigned long long a = 0, d = 0;
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 ||
      std::sscanf(out.c_str(), "%llu %llu", &a, &d) != 2) {
    error = "the layout helper failed (" +
            (WIFEXITED(status) ? "exit status " + std::to_string(WEXITSTATUS(status))
                               : std::string("killed")) +
            ")";
    return std::nullopt;
  }
  layout.allocated_offset = a;
  layout.deallocated_offset = d;
  return layout;
}

struct CachedLayout {
  std::optional<JemallocLayout> layout;
  std::string error;
};

}  // namespace

std::optional<JemallocLayout> jemalloc_layout(int library, std::string& error) {
  struct stat st {};
  if (fstat(library, &st) != 0 || !S_ISREG(st.st_mode)) {
    error = "not a regular file";
    return std::nullopt;
  }
  if (st.st_uid != 0 || (st.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
    error = "not owned by root or writable by others; its code is not run";
    return std::nullopt;
  }
  static std::mutex mu;
  static std::map<std::tuple<dev_t, ino_t, off_t, time_t>, CachedLayout> cache;
  const auto key = std::make_tuple(st.st_dev, st.st_ino, st.st_size, st.st_mtime);
  std::lock_guard lock(mu);
  auto it = cache.find(key);
  if (it == cache.end()) {
    CachedLayout entry;
    entry.layout = run_helper(library, entry.error);
    it = cache.emplace(key, std::move(entry)).first;
  }
  error = it->second.error;
  return it->second.layout;
}

}  // namespace dsched::ctprof
