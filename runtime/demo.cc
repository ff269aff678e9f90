#include "runtime/demo.h"

#include <chrono>
#include <cerrno>
#include <cstring>
#include <thread>
#include <unistd.h>

#include "runtime/demo_script.h"

namespace dsched {

int run_demo(const std::function<int(const std::vector<std::string>&)>& run, std::ostream& out, std::ostream& err) {
  char path[] = "/tmp/dsched-demo-XXXXXX.d";
  int fd = mkstemps(path, 2);
  if (fd < 0) {
    err << "dsched: cannot create the demo script: " << std::strerror(errno) << "\n";
    return 1;
  }
  std::string_view script = kDemoScript;
  bool written = write(fd, script.data(), script.size()) == static_cast<ssize_t>(script.size());
  close(fd);
  char self[4096];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  int status = 1;
  if (written && n > 0) {
    self[n] = '\0';
    out << "dsched --demo: where.d (run time per CPU, ns) over a 1-second ping-pong workload" << std::endl;
    status = run({"-s", path, "-c", std::string(self) + " --demo-workload"});
  }
  unlink(path);
  return status;
}

int run_demo_workload() {
  int there[2], back[2];
  if (pipe(there) != 0 || pipe(back) != 0) return 1;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(1);
  std::thread partner([&] {
    char token;
    while (read(there[0], &token, 1) == 1 && token) (void)!write(back[1], &token, 1);
  });
  char token = 1;
  while (std::chrono::steady_clock::now() < deadline) {
    (void)!write(there[1], &token, 1);
    (void)!read(back[0], &token, 1);
  }
  token = 0;
  (void)!write(there[1], &token, 1);
  partner.join();
  return 0;
}

}  // namespace dsched
