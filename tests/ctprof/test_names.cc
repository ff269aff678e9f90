// Thread-name normalisation and group keys.
#include <doctest/doctest.h>

#include "grouping.h"
#include "names.h"
#include "options.h"

using namespace dsched::ctprof;

TEST_CASE("ctprof name normalisation, token by token") {
  CHECK(normalize_name("kworker/2:1-mm_percpu_wq") == "kworker/{N}:{N}-mm_percpu_wq");
  CHECK(normalize_name("kworker/u8:0-events_unbound") == "kworker/u{N}:{N}-events_unbound");
  CHECK(normalize_name("ksoftirqd/1") == "ksoftirqd/{N}");
  CHECK(normalize_name("worker-12") == "worker-{N}");
  CHECK(normalize_name("cpu0") == "cpu{N}");            // letters then digits
  CHECK(normalize_name("2nd-pass") == "{N}nd-pass");    // digits then letters
  CHECK(normalize_name("job.3fa9c0") == "job.{H}");     // hex run with a digit
  CHECK(normalize_name("job.3FA9C0") == "job.3FA9C0");  // hex is lower case only
  CHECK(normalize_name("deadbeef") == "deadbeef");      // hex letters, no digit: a word
  CHECK(normalize_name("x1y2") == "x1y2");              // other mixtures stay
  CHECK(normalize_name("tokio-rt-worker") == "tokio-rt-worker");
  CHECK(normalize_name("a b@7+[9]") == "a b@{N}+[{N}]");  // every separator is kept
  CHECK(normalize_name("") == "");
  CHECK(normalize_name("123") == "{N}");
}

namespace {

ThreadRecord thread(int tid, const std::string& comm, const std::string& pcomm,
                    const std::string& cgroup = "/") {
  ThreadRecord t;
  t.tid = tid;
  t.comm = comm;
  t.pcomm = pcomm;
  t.cgroup = cgroup;
  return t;
}

ReportOptions options(std::vector<std::string> flags = {}) {
  std::vector<std::string> positional;
  return parse_report_flags(flags, positional, ReportKind::Compare);
}

}  // namespace

TEST_CASE("ctprof group keys use a pattern only when two threads share it") {
  Snapshot s;
  s.threads = {thread(1, "kworker/0:1-events", "kworker/0:1-events", "/g1"),
               thread(2, "kworker/1:2-events", "kworker/1:2-events", "/g0"),
               thread(3, "solo-7", "solo-7", "/g1"), thread(4, "pool-3", "app", "/g0"),
               thread(5, "pool-4", "app", "/g1")};
  const ReportOptions o = options({"--no-cg-normalize"});
  const GroupKeys pcomm(GroupBy::Pcomm, o, {&s});
  CHECK(pcomm.key(s.threads[0]) == "kworker/{N}:{N}-events");
  CHECK(pcomm.key(s.threads[1]) == "kworker/{N}:{N}-events");
  CHECK(pcomm.key(s.threads[2]) == "solo-7");  // unique pattern: exact name kept
  CHECK(pcomm.key(s.threads[3]) == "app");
  CHECK(GroupKeys(GroupBy::Comm, o, {&s}).key(s.threads[3]) == "pool-{N}");
  CHECK(GroupKeys(GroupBy::CommExact, o, {&s}).key(s.threads[3]) == "pool-3");
  CHECK(GroupKeys(GroupBy::Cgroup, o, {&s}).key(s.threads[3]) == "/g0");
  // --no-thread-normalize: literal names on both name axes.
  const ReportOptions literal = options({"--no-thread-normalize"});
  CHECK(GroupKeys(GroupBy::Comm, literal, {&s}).key(s.threads[3]) == "pool-3");
  CHECK(GroupKeys(GroupBy::Pcomm, literal, {&s}).key(s.threads[0]) == "kworker/0:1-events");

  // Counting across a second snapshot makes a lone name's pattern shared.
  Snapshot other;
  other.threads = {thread(9, "solo-8", "solo-8")};
  CHECK(GroupKeys(GroupBy::Pcomm, o, {&s, &other}).key(s.threads[2]) == "solo-{N}");

  CHECK(find_group_by("comm-exact") == GroupBy::CommExact);
  CHECK_FALSE(find_group_by("process").has_value());
}

TEST_CASE("ctprof cgroup keys: flatten globs, systemd templates, tightening, literal paths") {
  Snapshot a, b;
  a.threads = {thread(1, "x", "x", "/kubepods/pod-1a2b/web"),
               thread(2, "x", "x", "/user.slice/user@1000.service/app.scope"),
               thread(3, "x", "x", "/user.slice/user-1000.slice/session-3.scope"),
               thread(4, "x", "x", "/launcher@a.b.service"),
               thread(5, "x", "x", "/machine.slice/vm-17")};
  b.threads = {thread(1, "x", "x", "/kubepods/pod-9f8e/web"),
               thread(2, "x", "x", "/user.slice/user@1000.service/app.scope"),
               thread(3, "x", "x", "/user.slice/user-1000.slice/session-8.scope"),
               thread(4, "x", "x", "/launcher@a.b.service"),
               thread(5, "x", "x", "/machine.slice/vm-17")};
  b.cgroup_stats["/kubepods/pod-77/web"] = {};

  const ReportOptions flat =
      options({"--cgroup-flatten", "/kubepods/*/web", "--cgroup-flatten", "/kube*"});
  const GroupKeys keys(GroupBy::Cgroup, flat, {&a, &b});
  // The first matching glob names the group.
  CHECK(keys.key(a.threads[0]) == "/kubepods/*/web");
  CHECK(keys.key(b.threads[0]) == "/kubepods/*/web");
  CHECK(keys.cgroup_key("/kubepods/pod-77/web") == "/kubepods/*/web");
  // An opaque systemd instance becomes {I}.
  CHECK(keys.key(a.threads[1]) == "/user.slice/user@{I}.service/app.scope");
  // Two sessions of one user: the varying token stays a pattern, the constant ones literal.
  CHECK(keys.key(a.threads[2]) == "/user.slice/user-1000.slice/session-{N}.scope");
  CHECK(keys.key(b.threads[2]) == keys.key(a.threads[2]));
  // A structured instance stays as it is.
  CHECK(keys.key(a.threads[3]) == "/launcher@a.b.service");
  // A path alone under its pattern keeps the pattern.
  CHECK(keys.key(a.threads[4]) == "/machine.slice/vm-{N}");

  const ReportOptions literal =
      options({"--no-cg-normalize", "--cgroup-flatten", "/kubepods/*/web"});
  const GroupKeys exact(GroupBy::Cgroup, literal, {&a, &b});
  CHECK(exact.key(a.threads[2]) == "/user.slice/user-1000.slice/session-3.scope");
  CHECK(exact.key(a.threads[0]) == "/kubepods/*/web");  // globs still apply
}
