#include "tracefs_events.h"

#include <dirent.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>

namespace dsched::probes {
namespace {

constexpr const char* kMounted[] = {"/sys/kernel/tracing/events", "/sys/kernel/debug/tracing/events"};

bool is_directory(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

// "subsystem event\n" for every event under `events`; subsystems' control files are skipped.
std::string list_events(const std::string& events) {
  std::string listing;
  DIR* top = opendir(events.c_str());
  if (!top) return listing;
  while (dirent* subsystem = readdir(top)) {
    std::string_view name = subsystem->d_name;
    if (name.starts_with('.') || subsystem->d_type != DT_DIR) continue;
    DIR* inner = opendir((events + "/" + subsystem->d_name).c_str());
    if (!inner) continue;
    while (dirent* event = readdir(inner)) {
      if (event->d_name[0] == '.' || event->d_type != DT_DIR) continue;
      listing.append(name).append(" ").append(event->d_name).append("\n");
    }
    closedir(inner);
  }
  closedir(top);
  return listing;
}

// Mounts tracefs in a child's private mount namespace and has it write the listing to a pipe.
bool list_events_privately(std::string& listing, std::string& error) {
  int pipe_fds[2];
  if (pipe2(pipe_fds, O_CLOEXEC) != 0) {
    error = std::string("pipe: ") + std::strerror(errno);
    return false;
  }
  pid_t child = fork();
  if (child < 0) {
    error = std::string("fork: ") + std::strerror(errno);
    close(pipe_fds[0]);
    close(pipe_fds[1]);
    return false;
  }
  if (child == 0) {
    close(pipe_fds[0]);
    char dir[] = "/tmp/dsched-tracefs.XXXXXX";
    int status = 1;
    if (unshare(CLONE_NEWNS) == 0 && mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) == 0 &&
        mkdtemp(dir)) {
      if (mount("tracefs", dir, "tracefs", MS_NOSUID | MS_NODEV | MS_NOEXEC, nullptr) == 0) {
        std::string text = list_events(std::string(dir) + "/events");
        for (size_t done = 0; done < text.size();) {
          ssize_t n = write(pipe_fds[1], text.data() + done, text.size() - done);
          if (n <= 0) break;
          done += size_t(n);
        }
        umount(dir);
        status = 0;
      } else {
        status = 2;
      }
      rmdir(dir);
    }
    _exit(status);
  }
  close(pipe_fds[1]);
  char buffer[1 << 16];
  ssize_t n;
  while ((n = read(pipe_fds[0], buffer, sizeof buffer)) > 0 || (n < 0 && errno == EINTR))
    if (n > 0) listing.append(buffer, size_t(n));
  close(pipe_fds[0]);
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return true;
  error = WIFEXITED(status) && WEXITSTATUS(status) == 2
              ? "tracefs could not be mounted (the subsystems of tracepoints are read from it)"
              : "no private mount namespace for tracefs (needs CAP_SYS_ADMIN)";
  return false;
}

}  // namespace

TraceEvents read_trace_events() {
  TraceEvents events;
  std::string listing;
  bool found = false;
  for (const char* path : kMounted) {
    if (is_directory(path)) {
      listing = list_events(path);
      found = true;
      break;
    }
  }
  if (!found && !list_events_privately(listing, events.error)) return events;
  size_t start = 0;
  while (start < listing.size()) {
    size_t end = listing.find('\n', start);
    std::string_view line(listing.data() + start, end - start);
    size_t space = line.find(' ');
    events.subsystem_of.emplace(std::string(line.substr(space + 1)), std::string(line.substr(0, space)));
    start = end + 1;
  }
  if (events.subsystem_of.empty()) events.error = "tracefs lists no trace events";
  return events;
}

}  // namespace dsched::probes
