// Thread-name normalisation and group keys.
#include <doctest/doctest.h>

#include "names.h"

using namespace dsched::ctprof;

TEST_CASE("ctprof name normalisation, token by token") {
  CHECK(normalize_name("kworker/2:1-mm_percpu_wq") == "kworker/{N}:{N}-mm_percpu_wq");
  CHECK(normalize_name("kworker/u8:0-events_unbound") == "kworker/u{N}:{N}-events_unbound");
  CHECK(normalize_name("ksoftirqd/1") == "ksoftirqd/{N}");
  CHECK(normalize_name("worker-12") == "worker-{N}");
  CHECK(normalize_name("cpu0") == "cpu{N}");                   // letters then digits
  CHECK(normalize_name("2nd-pass") == "{N}nd-pass");           // digits then letters
  CHECK(normalize_name("job.3fa9c0") == "job.{H}");            // hex run with a digit
  CHECK(normalize_name("deadbeef") == "deadbeef");             // hex letters, no digit: a word
  CHECK(normalize_name("x1y2") == "x1y2");                     // other mixtures stay
  CHECK(normalize_name("tokio-rt-worker") == "tokio-rt-worker");
  CHECK(normalize_name("a b@7+[9]") == "a b@{N}+[{N}]");       // every separator is kept
  CHECK(normalize_name("") == "");
  CHECK(normalize_name("123") == "{N}");
}

TEST_CASE("ctprof group keys use a pattern only when two threads share it") {
  Snapshot s;
  auto add = [&](int tid, const std::string& comm, const std::string& pcomm) {
    ThreadRecord t;
    t.tid = tid;
    t.comm = comm;
    t.pcomm = pcomm;
    t.cgroup = "/g" + std::to_string(tid % 2);
    s.threads.push_back(t);
  };
  add(1, "kworker/0:1-events", "kworker/0:1-events");
  add(2, "kworker/1:2-events", "kworker/1:2-events");
  add(3, "solo-7", "solo-7");
  add(4, "pool-3", "app");
  add(5, "pool-4", "app");

  GroupKeys pcomm(GroupBy::Pcomm);
  pcomm.add(s);
  CHECK(pcomm.key(s.threads[0]) == "kworker/{N}:{N}-events");
  CHECK(pcomm.key(s.threads[1]) == "kworker/{N}:{N}-events");
  CHECK(pcomm.key(s.threads[2]) == "solo-7");  // unique pattern: exact name kept
  CHECK(pcomm.key(s.threads[3]) == "app");

  GroupKeys comm(GroupBy::Comm);
  comm.add(s);
  CHECK(comm.key(s.threads[3]) == "pool-{N}");
  GroupKeys exact(GroupBy::CommExact);
  exact.add(s);
  CHECK(exact.key(s.threads[3]) == "pool-3");
  GroupKeys cgroup(GroupBy::Cgroup);
  cgroup.add(s);
  CHECK(cgroup.key(s.threads[3]) == "/g0");
  GroupKeys all(GroupBy::All);
  all.add(s);
  CHECK(all.key(s.threads[2]) == "all");

  // Counting across a second snapshot makes a lone name's pattern shared.
  Snapshot other;
  ThreadRecord t;
  t.comm = t.pcomm = "solo-8";
  other.threads.push_back(t);
  pcomm.add(other);
  CHECK(pcomm.key(s.threads[2]) == "solo-{N}");

  CHECK(find_group_by("comm-exact") == GroupBy::CommExact);
  CHECK_FALSE(find_group_by("process").has_value());
}
