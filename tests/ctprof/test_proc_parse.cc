// The /proc file parsers on their own: awkward names, older layouts, malformed text.
#include <doctest/doctest.h>

#include "proc_parse.h"

using namespace dsched::ctprof;

namespace {

// A stat line whose fields after comm are 3..52 = "S 1 2 ... " with field n holding n.
std::string stat_line(const std::string& comm) {
  std::string s = "77 (" + comm + ") S";
  for (int f = 4; f <= 52; ++f) s += " " + std::to_string(f == 18 ? -2 : f == 41 ? 2 : f);
  return s + "\n";
}

}  // namespace

TEST_CASE("ctprof stat: comm with spaces and parentheses, field positions, policy name") {
  Snapshot snap;
  ThreadRecord rec;
  REQUIRE(parse_stat(stat_line("my (odd) name)"), snap, rec));
  CHECK(rec.comm == "my (odd) name)");
  CHECK(rec.value[kMinflt] == 10);
  CHECK(rec.value[kMajflt] == 12);
  CHECK(rec.value[kUtimeTicks] == 14);
  CHECK(rec.value[kStimeTicks] == 15);
  CHECK(static_cast<std::int64_t>(rec.value[kPriority]) == -2);
  CHECK(rec.value[kNice] == 19);
  CHECK(rec.value[kStartTimeTicks] == 22);
  CHECK(rec.value[kProcessor] == 39);
  CHECK(rec.value[kRtPriority] == 40);
  CHECK(snap.text(rec.value[kPolicy]) == "SCHED_RR");

  ThreadRecord bad;
  CHECK_FALSE(parse_stat("77 (x) S 1 2 3\n", snap, bad));  // truncated
  CHECK_FALSE(parse_stat("no parentheses here", snap, bad));
  std::string garbled = stat_line("x");
  garbled.replace(garbled.find(" 14 "), 4, " ab ");
  CHECK_FALSE(parse_stat(garbled, snap, bad));
}

TEST_CASE("ctprof sched: current and older key prefixes, millisecond times") {
  ThreadRecord now, old;
  CHECK(parse_sched("x (1, #threads: 1)\n-----\nse.nr_migrations : 4\n"
                    "stats.wait_sum : 1.5\nstats.wait_max : 0.000250\nstats.wait_count : 3\n",
                    now));
  CHECK(now.value[kNrMigrations] == 4);
  CHECK(now.value[kWaitSum] == 1'500'000);
  CHECK(now.value[kWaitMax] == 250);
  CHECK(now.value[kWaitCount] == 3);
  CHECK(parse_sched("se.nr_migrations : 1\nse.statistics.wait_sum : 2\n", old));
  CHECK(old.value[kWaitSum] == 2'000'000);
  ThreadRecord none;
  CHECK_FALSE(parse_sched("se.exec_start : 5.0\n", none));  // nr_migrations is always printed
  ThreadRecord bad;
  CHECK_FALSE(parse_sched("se.nr_migrations : 1\nstats.wait_sum : 1.2345678\n", bad));
}

TEST_CASE("ctprof schedstat, io and status parsing") {
  Snapshot snap;
  ThreadRecord rec;
  CHECK(parse_schedstat("100 200 3\n", rec));
  CHECK(rec.value[kTimeslices] == 3);
  CHECK_FALSE(parse_schedstat("100 200\n", rec));
  CHECK_FALSE(parse_io("rchar: 1\nwchar: 2\n", rec));  // fields missing
  CHECK_FALSE(parse_io("rchar: x\nwchar: 2\nsyscr: 1\nsyscw: 1\nread_bytes: 1\nwrite_bytes: 1\n"
                       "cancelled_write_bytes: 0\n",
                       rec));
  ThreadRecord st;
  CHECK(parse_status("State:\tD (disk sleep)\nThreads:\t9\nvoluntary_ctxt_switches:\t5\n"
                     "nonvoluntary_ctxt_switches:\t6\n",
                     false, snap, st));
  CHECK(snap.text(st.value[kState]) == "D");
  CHECK_FALSE(st.has.test(kNrThreads));
  ThreadRecord broken;
  CHECK_FALSE(parse_status("State:\tS\nvoluntary_ctxt_switches:\tmany\nnonvoluntary_ctxt_switches:\t1\n",
                           true, snap, broken));
  CHECK_FALSE(broken.has.test(kVoluntaryCsw));
}

TEST_CASE("ctprof cgroup path choice and CPU lists") {
  std::string path;
  CHECK(parse_cgroup("0::/user.slice/session-1.scope\n", path));
  CHECK(path == "/user.slice/session-1.scope");
  CHECK(parse_cgroup("4:memory:/mem\n2:cpu,cpuacct:/batch\n0::/\n", path));
  CHECK(path == "/batch");
  CHECK(parse_cgroup("4:memory:/mem\n1:cpu:/\n0::/\n", path));
  CHECK(path == "/mem");
  CHECK(parse_cgroup("0::/\n", path));
  CHECK(path == "/");
  CHECK_FALSE(parse_cgroup("", path));
  CHECK_FALSE(parse_cgroup("garbage\n", path));

  CHECK(cpu_list({0, 1, 2, 3, 6}) == "0-3,6");
  CHECK(cpu_list({5}) == "5");
  CHECK(cpu_list({}) == "");
  CHECK(policy_name(6) == "SCHED_DEADLINE");
  CHECK(policy_name(42) == "SCHED_UNKNOWN");
}
