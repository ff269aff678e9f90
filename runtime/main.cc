#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <new>

#include "llvm/Support/ErrorHandling.h"
#include "runtime/driver.h"

namespace {

// A closed standard stream would be reused by the next file dsched opens (a BPF map), and output
// would go there. Each closed one becomes /dev/null opened for reading only, so writing to it
// fails and is reported, and reading it finds nothing.
void hold_standard_streams() {
  for (int fd = 0; fd <= 2; ++fd)
    if (fcntl(fd, F_GETFD) < 0 && errno == EBADF) open("/dev/null", O_RDONLY);
}

// What was written to stdout outside a trace's output (listings, dumps, reports): a failure is
// reported once, with a non-zero exit status. A trace's output reports its own failures.
int check_stdout(int status) {
  errno = 0;
  if (std::fflush(stdout) == 0 && !std::ferror(stdout)) return status;
  std::fprintf(stderr, "dsched: write error on stdout: %s\n", errno ? std::strerror(errno) : "Input/output error");
  return status ? status : 1;
}

// Every map, program and perf event is a file descriptor: a script with many probes needs more than
// the usual soft limit of 1024. The soft limit goes up to the hard one, as other BPF tracers do.
void raise_open_file_limit() {
  rlimit files{};
  if (getrlimit(RLIMIT_NOFILE, &files) != 0 || files.rlim_cur >= files.rlim_max) return;
  files.rlim_cur = files.rlim_max;
  setrlimit(RLIMIT_NOFILE, &files);
}

// LLVM stops on what it cannot emit (a probe's clauses too large for one BPF program: "Branch
// target out of insn range"). That happens while compiling, before anything is loaded, so one
// message and exit status 1 end it cleanly, not an abort.
void llvm_failed(void*, const char* reason, bool) {
  std::fflush(stdout);
  std::fprintf(stderr, "dsched: the script cannot be compiled to BPF: %s\n", reason);
  _exit(1);
}

}  // namespace

int main(int argc, char** argv) {
  hold_standard_streams();
  raise_open_file_limit();
  llvm::install_fatal_error_handler(llvm_failed);
  try {
    return check_stdout(dsched::run_main(std::vector<std::string>(argv + 1, argv + argc)));
  } catch (const std::bad_alloc&) {
    // A memory limit (ulimit -v) met by a large snapshot or script: a message, not an abort; the
    // unwinding closes what was loaded into the kernel.
    std::fprintf(stderr, "dsched: out of memory\n");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dsched: internal error: %s\n", e.what());
  }
  return 1;
}
