// A running jemalloc_worker (a process linked with libjemalloc, see jemalloc_worker.c), talked
// to over pipes and killed when this object goes. Used by the jemalloc tests and the bench.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <utility>

namespace ctprof_test {

class JemallocWorker {
 public:
  explicit JemallocWorker(const char* executable) {
    int in[2], out[2];
    if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0)
      throw std::runtime_error("jemalloc worker: pipe failed");
    pid_ = fork();
    if (pid_ < 0) throw std::runtime_error("jemalloc worker: fork failed");
    if (pid_ == 0) {
      dup2(in[0], 0);
      dup2(out[1], 1);
      execl(executable, executable, nullptr);
      _exit(127);
    }
    close(in[0]);
    close(out[1]);
    to_ = fdopen(in[1], "w");
    from_ = fdopen(out[0], "r");
    // The worker prints its worker thread's id once all its threads run.
    worker_tid_ = std::stoi(line().substr(4));  // "tid N"
  }
  ~JemallocWorker() {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
    fclose(to_);
    fclose(from_);
  }
  JemallocWorker(const JemallocWorker&) = delete;
  JemallocWorker& operator=(const JemallocWorker&) = delete;

  int pid() const { return pid_; }
  int worker_tid() const { return worker_tid_; }

  // Makes the worker thread allocate `bytes`; returns its own allocated/deallocated counters.
  std::pair<std::uint64_t, std::uint64_t> alloc(std::uint64_t bytes) {
    std::fprintf(to_, "alloc %llu\n", static_cast<unsigned long long>(bytes));
    std::fflush(to_);
    unsigned long long a = 0, d = 0;
    if (std::sscanf(line().c_str(), "done %llu %llu", &a, &d) != 2)
      throw std::runtime_error("jemalloc worker: bad reply");
    return {a, d};
  }

 private:
  std::string line() {
    char buf[256];
    if (!std::fgets(buf, sizeof buf, from_)) throw std::runtime_error("jemalloc worker: no reply");
    return buf;
  }
  pid_t pid_;
  int worker_tid_ = 0;
  FILE* to_ = nullptr;
  FILE* from_ = nullptr;
};

}  // namespace ctprof_test
