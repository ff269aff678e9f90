#include "preprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>

namespace dsched::lang {
namespace {

constexpr const char* kPreprocessor = "cpp";

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

}  // namespace

namespace {

bool is_blank(char c) { return c == ' ' || c == '\t'; }

// A line marker, `# 12 "file" 1 3` or `#line 12 "file"` (the file is optional): true with the
// line number set, and the file's name when the marker has one.
bool parse_line_marker(std::string_view line, uint32_t* number, std::optional<std::string>* file) {
  size_t i = 0;
  auto skip_blanks = [&] {
    while (i < line.size() && is_blank(line[i])) ++i;
  };
  skip_blanks();
  if (i >= line.size() || line[i++] != '#') return false;
  skip_blanks();
  if (line.substr(i, 4) == "line" && i + 4 < line.size() && is_blank(line[i + 4])) i += 4;
  skip_blanks();
  if (i >= line.size() || line[i] < '0' || line[i] > '9') return false;
  uint32_t n = 0;
  while (i < line.size() && line[i] >= '0' && line[i] <= '9') n = n * 10 + uint32_t(line[i++] - '0');
  skip_blanks();
  file->reset();
  if (i < line.size() && line[i] != '"' && line[i] != '\r') return false;  // `#line 10 foo` is malformed
  if (i < line.size() && line[i] == '"') {
    file->emplace();
    for (++i; i < line.size() && line[i] != '"'; ++i) {
      if (line[i] == '\\' && i + 1 < line.size()) ++i;
      (*file)->push_back(line[i]);
    }
  }
  *number = n;
  return true;
}

}  // namespace

bool has_line_markers(const std::string& text) {
  uint32_t number;
  std::optional<std::string> file;
  for (size_t start = 0; start < text.size();) {
    size_t end = std::min(text.find('\n', start), text.size());
    if (parse_line_marker(std::string_view(text).substr(start, end - start), &number, &file)) return true;
    start = end + 1;
  }
  return false;
}

MappedText strip_line_markers(const std::string& text) {
  MappedText mapped;
  mapped.text.reserve(text.size());
  LineOrigin next{"", 1};
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string_view line(text.data() + start, end - start);
    uint32_t number;
    std::optional<std::string> file;
    if (parse_line_marker(line, &number, &file)) {
      mapped.origins.push_back(next);  // the blanked marker keeps its neighbour's origin
      if (file) next.file = *file == "<stdin>" ? "" : *file;
      next.line = number;
    } else {
      mapped.text += line;
      mapped.origins.push_back(next);
      ++next.line;
    }
    mapped.text += '\n';
    start = end + 1;
  }
  return mapped;
}

std::vector<std::string> conformance_flags(const std::string& stdc) {
  if (stdc == "a" || stdc == "t") return {"-std=gnu89"};  // ISO C with K&R extensions
  if (stdc == "c") return {"-std=c89", "-pedantic"};     // strictly conforming ISO C
  if (stdc == "s") return {"-traditional-cpp"};          // K&R C
  return {};
}

std::vector<std::string> predefined_macros(unsigned d_version) {
  struct utsname system;
  std::string system_name = uname(&system) == 0 ? system.sysname : "Linux";
  char version[48];
  std::snprintf(version, sizeof version, "-D__SUNW_D_VERSION=0x%08x", d_version);
  return {"-D__linux", "-D__unix", "-D__SVR4", "-D__SUNW_D=1", "-U__GNUC__", "-D__SUNW_D_64",
          "-D__" + system_name, version};
}

bool run_preprocessor(const std::string& text, const std::vector<std::string>& cpp_args,
                      std::string* output, std::string* messages, std::string* error) {
  int in[2], out[2], err[2], exec_status[2];
  if (pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC) || pipe2(err, O_CLOEXEC) ||
      pipe2(exec_status, O_CLOEXEC)) {
    *error = std::string("cannot create pipes for cpp: ") + std::strerror(errno);
    return false;
  }
  std::vector<std::string> argv_text = {kPreprocessor, "-x", "c"};
  argv_text.insert(argv_text.end(), cpp_args.begin(), cpp_args.end());
  argv_text.push_back("-");
  std::vector<char*> argv;
  for (std::string& a : argv_text) argv.push_back(a.data());
  argv.push_back(nullptr);

  pid_t child = fork();
  if (child < 0) {
    *error = std::string("cannot fork cpp: ") + std::strerror(errno);
    return false;
  }
  if (child == 0) {
    dup2(in[0], 0);
    dup2(out[1], 1);
    dup2(err[1], 2);
    execvp(kPreprocessor, argv.data());
    int e = errno;
    (void)!write(exec_status[1], &e, sizeof e);
    _exit(127);
  }
  ::close(in[0]);
  ::close(out[1]);
  ::close(err[1]);
  ::close(exec_status[1]);
  int to_child = in[1], from_child = out[0], errors = err[0];
  fcntl(to_child, F_SETFL, O_NONBLOCK);
  // cpp can block writing output while we write input: serve all three pipes together.
  // SIGPIPE (cpp exiting before reading everything) is blocked here and discarded below.
  sigset_t pipe_signal, saved_mask;
  sigemptyset(&pipe_signal);
  sigaddset(&pipe_signal, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_signal, &saved_mask);
  size_t written = 0;
  std::string diagnostics;
  if (text.empty()) close_fd(to_child);
  while (from_child >= 0 || errors >= 0) {
    pollfd fds[3];
    int n = 0;
    int* slots[3];
    for (int* fd : {&to_child, &from_child, &errors}) {
      if (*fd < 0) continue;
      fds[n] = {*fd, short(fd == &to_child ? POLLOUT : POLLIN), 0};
      slots[n++] = fd;
    }
    if (poll(fds, n, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int i = 0; i < n; ++i) {
      if (!fds[i].revents) continue;
      int* fd = slots[i];
      if (fd == &to_child) {
        ssize_t w = ::write(*fd, text.data() + written, text.size() - written);
        if (w > 0) written += size_t(w);
        if (w < 0 && errno != EAGAIN && errno != EINTR) close_fd(*fd);
        if (written == text.size()) close_fd(*fd);
      } else {
        char buf[65536];
        ssize_t r = ::read(*fd, buf, sizeof buf);
        if (r > 0) {
          (fd == &from_child ? *output : diagnostics).append(buf, size_t(r));
        } else if (r == 0 || (errno != EINTR && errno != EAGAIN)) {
          close_fd(*fd);
        }
      }
    }
  }
  close_fd(to_child);
  timespec no_wait{0, 0};
  while (sigtimedwait(&pipe_signal, nullptr, &no_wait) > 0) {
  }
  pthread_sigmask(SIG_SETMASK, &saved_mask, nullptr);
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  int exec_errno = 0;
  bool exec_failed = ::read(exec_status[0], &exec_errno, sizeof exec_errno) == sizeof exec_errno;
  ::close(exec_status[0]);
  if (exec_failed) {
    *error = std::string("cannot run ") + kPreprocessor + ": " + std::strerror(exec_errno);
    return false;
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::string first = diagnostics.substr(0, diagnostics.find('\n'));
    *error = std::string("C preprocessor failed") + (first.empty() ? "" : ": " + first);
    return false;
  }
  messages->append(diagnostics);
  return true;
}

}  // namespace dsched::lang
