// whoqueue.d (speculations keyed by CPU, committed when the longest queue drains) under pinned CPU
// hogs: the threads it lists are the hogs, and each listing fits the queue length it reports.
#include <doctest/doctest.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <set>
#include <sstream>

#include <unistd.h>

#include "support.h"
#include "workloads.h"

using namespace dsched::test;

TEST_CASE("whoqueue.d lists the hogs queued behind each other on one CPU") {
  PinnedHogs hogs(8, 0, "dsched-hog");  // a longer queue than a busy machine's other CPU holds
  std::vector<pid_t> tids = hogs.tids();
  std::set<pid_t> hog_tids(tids.begin(), tids.end());
  RunningDsched run({"-s", std::string(DSCHED_SOURCE_DIR) + "/examples/whoqueue.d"});
  // whoqueue.d commits a listing when the CPU's queue drains, which spinning hogs never let happen:
  // after a while of queueing, the hogs stop and CPU 0's queue empties. On a busy machine other
  // threads may keep it from draining for a while, so the listing is awaited, not timed.
  usleep(1200000);
  hogs.pause();
  CHECK(run.wait_for_output("(dsched-hog)", std::chrono::seconds(20)));
  run.signal(SIGINT);
  RunResult r = run.wait(std::chrono::seconds(30));
  INFO(r.out);
  REQUIRE(r.status == 0);

  std::istringstream lines(r.out);
  int longest = 0, listed = 0, hog_entries = 0, current = 0;
  for (std::string line; std::getline(lines, line);) {
    int length = 0;
    if (std::sscanf(line.c_str(), "Run queue of length %d:", &length) == 1) {
      // Records of two CPUs commit in the order their queues drain, not in the order of length.
      longest = std::max(longest, length);
      current = length;
      listed = 0;
      continue;
    }
    int pid = 0, tid = 0;
    char name[64] = {};
    if (std::sscanf(line.c_str(), " %d/%d (%63[^)])", &pid, &tid, name) == 3) {
      ++listed;
      CHECK_MESSAGE(listed <= current, "a listing holds at most the threads that were queued: " << line);
      if (hog_tids.count(tid)) {
        ++hog_entries;
        CHECK(pid == hogs.pid());
      }
    }
  }
  // Eight runnable hogs on one CPU: seven of them wait whenever the eighth runs.
  CHECK(longest >= 2);
  CHECK(hog_entries >= 2);
  CHECK(leftover_programs().empty());
}
