// The lockstat provider against contention the test makes: threads of one process writing to
// one terminal contend on its write mutex (a writer waiting for room in a full terminal holds
// it, so the others sleep on it), and threads mapping and unmapping memory contend on the
// process's mmap_lock (a reader-writer semaphore, taken for writing). Hold events are refused.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <thread>
#include <vector>

#include "aggregation_text.h"
#include "traced_window.h"

using namespace dsched::test;

namespace {

constexpr int kThreads = 4;

// Runs kThreads threads of `body` until `rounds` rounds are done in all, in a child named `name`.
void contend(const char* name, int rounds, const std::function<void()>& body) {
  run_named_child(name, [&] {
    std::atomic<int> left{rounds};
    std::vector<std::thread> threads;
    for (int i = 0; i < kThreads; ++i)
      threads.emplace_back([&] {
        while (left.fetch_sub(1) > 0) body();
      });
    for (auto& thread : threads) thread.join();
  });
}

}  // namespace

TEST_CASE("lockstat: a terminal's write mutex blocks or spins its writers; mmap_lock blocks writers as RW_WRITER") {
  TracedWindow window({"-qn",
                       "lockstat:::adaptive-block, lockstat:::adaptive-spin /execname == \"dsched-writer\"/"
                       " { @mutex[probename] = count(); @locks = max((uint64_t)args[0]); @nonzero = min(args[1] > 0); }"
                       " lockstat:::rw-block /execname == \"dsched-mapper\"/ { @rw[args[2] == RW_WRITER ? \"writer\" : \"reader\"] = count(); }"
                       " END { printa(\"mutex %s %@d\\n\", @mutex); printa(\"rw %s %@d\\n\", @rw); printa(\"nonzero %@d\\n\", @nonzero); }"});
  REQUIRE(window.is_open());
  // A terminal whose reader drains slowly: a writer waits for room holding the write mutex.
  int master = posix_openpt(O_RDWR | O_NOCTTY);
  REQUIRE(master >= 0);
  REQUIRE(grantpt(master) == 0);
  REQUIRE(unlockpt(master) == 0);
  int terminal = open(ptsname(master), O_WRONLY | O_NOCTTY);
  REQUIRE(terminal >= 0);
  constexpr size_t kBlock = 4096;
  constexpr int kRounds = 256;
  std::thread reader([&] {
    char buffer[kBlock];
    for (size_t total = 0; total < kBlock * kRounds;) {
      std::this_thread::sleep_for(std::chrono::microseconds(200));
      ssize_t n = read(master, buffer, sizeof buffer);
      if (n <= 0) break;
      total += size_t(n);
    }
  });
  contend("dsched-writer", kRounds, [&] {
    static const std::string block(kBlock, 'x');
    child_must(write(terminal, block.data(), kBlock) == ssize_t(kBlock));
  });
  reader.join();
  close(terminal);
  close(master);
  contend("dsched-mapper", 20000, [] {
    void* p = mmap(nullptr, 1 << 16, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    child_must(p != MAP_FAILED);
    static_cast<char*>(p)[0] = 1;
    child_must(munmap(p, 1 << 16) == 0);
  });
  RunResult run = window.close();
  INFO(run.out << run.err);
  REQUIRE(run.status == 0);
  uint64_t waits = 0;
  for (const auto& row : rows_tagged(run.out, "mutex")) waits += std::stoull(row.at(1));
  CHECK(waits > 0);
  CHECK(rows_tagged(run.out, "nonzero") == std::vector<std::vector<std::string>>{{"1"}});
  // mmap() and munmap() take mmap_lock for writing; the page faults between may wait as readers.
  std::set<std::string> sides;
  for (const auto& row : rows_tagged(run.out, "rw")) sides.insert(row.at(0));
  CHECK(sides.count("writer") == 1);
  CHECK(leftover_programs().empty());
}

TEST_CASE("lockstat: hold events are refused, naming the probe") {
  RunResult run = run_dsched({"-e", "-n", "lockstat:::adaptive-acquire { @ = count(); }"});
  CHECK(run.status == 1);
  CHECK(run.err.find("lockstat:::adaptive-acquire needs function tracing") != std::string::npos);
  RunResult listed = run_dsched({"-lv", "-n", "lockstat:::rw-block"});
  REQUIRE(listed.status == 0);
  CHECK(listed.out.find("\t\targs[0]: void *\n\t\targs[1]: uint64_t\n\t\targs[2]: int\n") != std::string::npos);
}
