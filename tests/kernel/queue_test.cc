// The derived run queue (sched:::enqueue/dequeue) checked against the kernel: a thread is dequeued
// once for each time the kernel switched it in, and the queue of pinned hogs stays balanced.
#include <doctest/doctest.h>

#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <map>

#include "aggregation_text.h"
#include "traced_window.h"

using namespace dsched::test;

namespace {

// Rows "<tag> <key> <count>" of a printa, as key -> count.
std::map<long, long> tagged_counts(const std::string& out, const std::string& tag) {
  std::map<long, long> counts;
  for (const auto& fields : rows_tagged(out, tag)) {
    REQUIRE(fields.size() == 2);
    counts[std::stol(fields[0])] = std::stol(fields[1]);
  }
  return counts;
}

}  // namespace

TEST_CASE("dequeues of a thread match the kernel's count of its timeslices") {
  WakerSleeper pair("dsched-waker", "dsched-sleeper", 1);
  PinnedHogs hogs(2, 0);
  std::string script = "sched:::dequeue /args[1]->pr_pid == " + std::to_string(pair.pid()) +
                       " || args[1]->pr_pid == " + std::to_string(hogs.pid()) +
                       "/ { @[args[0]->pr_lwpid] = count(); }"
                       " END { printa(\"dequeue %d %@d\\n\", @); }";
  WindowResult w = run_window({"-qn", script}, {&pair, &hogs});
  REQUIRE(w.opened);
  REQUIRE(w.run.status == 0);
  std::map<long, long> dequeues = tagged_counts(w.run.out, "dequeue");
  INFO(w.run.out);
  std::vector<pid_t> tids = pair.tids();
  for (pid_t tid : hogs.tids()) tids.push_back(tid);
  for (pid_t tid : tids) {
    // Woken (sleeper, waker) or preempted (hogs): each switch-in takes it off a queue.
    long timeslices = static_cast<long>(w.threads.at(tid).timeslices);
    INFO("thread " << tid << ": " << timeslices << " timeslices");
    CHECK(timeslices > 0);
    // Within three or half a percent, whichever is more: a busy machine has been seen to lose a few.
    CHECK(std::labs(dequeues[tid] - timeslices) <= std::max(3L, timeslices / 200));
  }
  CHECK(leftover_programs().empty());
}

TEST_CASE("enqueues and dequeues of hogs pinned to CPU 0 balance there") {
  constexpr int kHogs = 3;
  PinnedHogs hogs(kHogs, 0);
  std::vector<pid_t> tids = hogs.tids();
  ThreadCounters before = total_counters(tids);
  std::string pid = std::to_string(hogs.pid());
  // The hogs keep running across both ends of the window: some are queued when it opens and
  // when it closes.
  TracedWindow window({"-qn", "sched:::enqueue /args[1]->pr_pid == " + pid + "/ { @e[args[2]->cpu_id] = count(); }"
                              " sched:::dequeue /args[1]->pr_pid == " + pid + "/ { @d[args[2]->cpu_id] = count(); }"
                              " END { printa(\"enqueue %d %@d\\n\", @e); printa(\"dequeue %d %@d\\n\", @d); }"});
  REQUIRE(window.is_open());
  ThreadCounters opened = total_counters(tids);
  std::this_thread::sleep_for(std::chrono::seconds(1));
  ThreadCounters closing = total_counters(tids);
  RunResult r = window.close();
  ThreadCounters after = total_counters(tids);
  REQUIRE(r.status == 0);
  std::map<long, long> enqueues = tagged_counts(r.out, "enqueue");
  std::map<long, long> dequeues = tagged_counts(r.out, "dequeue");
  INFO(r.out);
  REQUIRE(enqueues.size() == 1);
  REQUIRE(dequeues.size() == 1);
  CHECK(enqueues.begin()->first == 0);
  CHECK(dequeues.begin()->first == 0);
  CHECK(std::labs(enqueues[0] - dequeues[0]) <= kHogs);
  // Each switch-in of a hog inside the window is a dequeue, but for those queued before dsched
  // attached (it has not seen them enqueued): all of them when CPU 0 ran something else then,
  // dsched itself perhaps. None outside the window can be.
  CHECK(dequeues[0] + kHogs >= static_cast<long>((closing - opened).timeslices));
  CHECK(dequeues[0] <= static_cast<long>((after - before).timeslices));
  CHECK(leftover_programs().empty());
}

TEST_CASE("enqueue's args[3]: 1 for a real-time thread preempted to the front, 0 for a fair one") {
  const int cpu = cpu_count() > 1 ? 1 : 0;
  // A SCHED_FIFO spinner preempted by a higher SCHED_FIFO sleeper's wakeups, and a fair hog
  // sharing the CPU with another: the first goes back to the head of its queue, the second has none.
  TracedWindow window({"-qn", "sched:::enqueue /stringof(args[1]->pr_fname) == \"dsched-front\"/"
                              " { @[args[0]->pr_clname, args[3]] = count(); }"
                              " END { printa(\"front %s %d %@d\\n\", @); }"});
  REQUIRE(window.is_open());
  run_named_child("dsched-front", [cpu] {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    child_must(sched_setaffinity(0, sizeof set, &set) == 0);
    auto start = [](int priority, void* (*body)(void*)) {
      pthread_attr_t attr;
      sched_param param{};
      param.sched_priority = priority;
      child_must(pthread_attr_init(&attr) == 0 && pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED) == 0 &&
                 pthread_attr_setschedpolicy(&attr, priority ? SCHED_FIFO : SCHED_OTHER) == 0 &&
                 pthread_attr_setschedparam(&attr, &param) == 0);
      pthread_t thread;
      child_must(pthread_create(&thread, &attr, body, nullptr) == 0);
      return thread;
    };
    auto spin = [](void*) -> void* {
      auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(600);
      while (std::chrono::steady_clock::now() < end) {
      }
      return nullptr;
    };
    auto sleeper = [](void*) -> void* {
      for (int i = 0; i < 200; ++i) usleep(2000);
      return nullptr;
    };
    // The spinner last: once it runs, this thread (a fair one) waits for a CPU.
    pthread_t threads[] = {start(10, sleeper), start(0, spin), start(0, spin), start(5, spin)};
    for (pthread_t t : threads) child_must(pthread_join(t, nullptr) == 0);
  });
  RunResult run = window.close();
  REQUIRE(run.status == 0);
  INFO(run.out);
  std::map<std::pair<std::string, long>, long> rows;
  for (const auto& fields : rows_tagged(run.out, "front")) {
    REQUIRE(fields.size() == 3);
    rows[{fields[0], std::stol(fields[1])}] = std::stol(fields[2]);
  }
  CHECK(rows[{"RT", 1}] > 20);
  CHECK(rows[{"TS", 0}] > 0);
  CHECK(rows.count({"TS", 1}) == 0);
  CHECK(leftover_programs().empty());
}
