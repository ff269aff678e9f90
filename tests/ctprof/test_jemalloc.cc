// jemalloc counters of a process linked with libjemalloc (jemalloc_worker.c): what capture reads
// equals what jemalloc reports to the thread itself, it grows by what the thread allocated, and
// no thread is ever left stopped, not even when the prober is killed mid-probe.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <thread>

#include "capture.h"
#include "file_read.h"
#include "jemalloc_layout.h"
#include "jemalloc_probe.h"
#include "jemalloc_worker_process.h"
#include "proc_maps.h"
#include "test_files_util.h"

using namespace dsched::ctprof;
namespace fs = std::filesystem;
using ctprof_test::slurp;

struct Worker : ctprof_test::JemallocWorker {
  Worker() : JemallocWorker(CTPROF_JEMALLOC_WORKER) {}
};

namespace {

// Field 3 of a thread's stat: its state letter ('t' while stopped by a tracer).
char thread_state(int pid, int tid) {
  const std::string stat =
      slurp("/proc/" + std::to_string(pid) + "/task/" + std::to_string(tid) + "/stat");
  return stat.empty() ? '?' : stat[stat.rfind(')') + 2];
}

std::vector<int> tids_of(int pid) {
  std::vector<int> tids;
  for (const auto& e : fs::directory_iterator("/proc/" + std::to_string(pid) + "/task"))
    tids.push_back(std::stoi(e.path().filename()));
  return tids;
}

Snapshot capture_process(int pid, std::ostream& diag) {
  CaptureOptions o;
  o.taskstats = CaptureOptions::Taskstats::Off;
  o.jemalloc_tgids = {pid};
  return capture(o, diag);
}

const ThreadRecord* find_tid(const Snapshot& s, int tid) {
  for (const auto& t : s.threads)
    if (t.tid == tid) return &t;
  return nullptr;
}

std::string jemalloc_library(int pid) {
  const auto lib =
      find_mapped(parse_maps(slurp("/proc/" + std::to_string(pid) + "/maps")), {"libjemalloc"});
  REQUIRE(lib.has_value());
  return lib->path;
}

}  // namespace

TEST_CASE("ctprof reads the jemalloc counters of a jemalloc-linked process and sees them grow") {
  Worker w;
  const auto [allocated0, deallocated0] = w.alloc(0);
  std::ostringstream diag;
  const Snapshot before = capture_process(w.pid(), diag);
  REQUIRE(before.jemalloc.has_value());
  CHECK(before.jemalloc->tgids_walked == 1);
  CHECK_MESSAGE(before.jemalloc->jemalloc_detected == 1, diag.str());
  CHECK(before.jemalloc->failed == 0);
  CHECK(before.jemalloc->probed_ok == tids_of(w.pid()).size());
  const ThreadRecord* t0 = find_tid(before, w.worker_tid());
  REQUIRE(t0);
  // The thread sleeps between commands: its counters are exactly what jemalloc told it.
  CHECK(t0->value[kAllocatedBytes] == allocated0);
  CHECK(t0->value[kDeallocatedBytes] == deallocated0);
  CHECK(diag.str().find("ctprof probe: 1 tgids walked, 1 jemalloc detected") != std::string::npos);

  constexpr std::uint64_t kBytes = std::uint64_t{48} << 20;
  const auto [allocated1, deallocated1] = w.alloc(kBytes);
  const Snapshot after = capture_process(w.pid(), diag);
  const ThreadRecord* t1 = find_tid(after, w.worker_tid());
  REQUIRE(t1);
  CHECK(t1->value[kAllocatedBytes] == allocated1);
  CHECK(t1->value[kDeallocatedBytes] == deallocated1);
  // It grew by what was allocated (jemalloc rounds each 1 MiB request to its size class).
  const std::uint64_t grown = t1->value[kAllocatedBytes] - t0->value[kAllocatedBytes];
  CHECK(grown >= kBytes);
  CHECK(grown <= kBytes + kBytes / 8);

  // Every thread runs on: nothing is left stopped, and the process still answers.
  for (int tid : tids_of(w.pid())) CHECK(thread_state(w.pid(), tid) != 't');
  CHECK(w.alloc(1).first > allocated1);
}

TEST_CASE("ctprof leaves processes without jemalloc, and itself, alone") {
  const pid_t sleeper = fork();
  REQUIRE(sleeper >= 0);
  if (sleeper == 0) {
    execlp("sleep", "sleep", "30", nullptr);
    _exit(127);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  std::ostringstream diag;
  const Snapshot s = capture_process(sleeper, diag);
  kill(sleeper, SIGKILL);
  waitpid(sleeper, nullptr, 0);
  REQUIRE(s.jemalloc.has_value());
  CHECK(s.jemalloc->tgids_walked == 1);
  CHECK(s.jemalloc->jemalloc_detected == 0);
  CHECK(s.jemalloc->failed == 0);
  const ThreadRecord* t = find_tid(s, sleeper);
  REQUIRE(t);
  CHECK_FALSE(t->has.test(kAllocatedBytes));

  const Snapshot self = capture_process(getpid(), diag);
  CHECK(self.jemalloc->tgids_walked == 0);  // a process cannot trace its own threads
}

TEST_CASE("ctprof never leaves a process stopped when the prober is killed mid-probe") {
  Worker w;
  const std::vector<ProbeTarget> targets = {{w.pid(), [&] {
                                               std::vector<std::int32_t> tids;
                                               for (int tid : tids_of(w.pid())) tids.push_back(tid);
                                               return tids;
                                             }()}};
  std::mt19937 random(42);
  for (int round = 0; round < 12; ++round) {
    const pid_t prober = fork();
    REQUIRE(prober >= 0);
    if (prober == 0) {
      for (;;) {
        JemallocTally tally;
        probe_jemalloc("/proc", targets, tally);
      }
    }
    std::this_thread::sleep_for(std::chrono::microseconds(2000 + random() % 20000));
    kill(prober, SIGKILL);
    waitpid(prober, nullptr, 0);
    for (int tid : tids_of(w.pid())) CHECK(thread_state(w.pid(), tid) != 't');
    w.alloc(1);  // answers: it was not left stopped
  }
}

TEST_CASE("ctprof runs the jemalloc layout helper only on root-owned libraries") {
  Worker w;
  const std::string library = jemalloc_library(w.pid());
  Fd real(open(library.c_str(), O_RDONLY | O_CLOEXEC));
  std::string error;
  const auto layout = jemalloc_layout(real.get(), error);
  REQUIRE_MESSAGE(layout.has_value(), error);
  // allocated and deallocated are two counters apart (the allocation event counter between).
  CHECK(layout->deallocated_offset - layout->allocated_offset == 16);

  char dir_template[] = "/tmp/ctprof-jemalloc-XXXXXX";
  const fs::path dir = mkdtemp(dir_template);
  const fs::path copy = dir / "libjemalloc.so.2";
  fs::copy_file(library, copy);
  REQUIRE(chown(copy.c_str(), 65534, 65534) == 0);
  Fd foreign(open(copy.c_str(), O_RDONLY | O_CLOEXEC));
  CHECK_FALSE(jemalloc_layout(foreign.get(), error).has_value());
  CHECK(error == "not owned by root or writable by others; its code is not run");
  REQUIRE(chown(copy.c_str(), 0, 0) == 0);
  REQUIRE(chmod(copy.c_str(), 0666) == 0);
  Fd writable(open(copy.c_str(), O_RDONLY | O_CLOEXEC));
  CHECK_FALSE(jemalloc_layout(writable.get(), error).has_value());
  fs::remove_all(dir);
}
