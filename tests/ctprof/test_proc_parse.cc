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
  REQUIRE(parse_stat(stat_line("my (odd) name)"), true, snap, rec));
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
  CHECK(snap.text(rec.value[kState]) == "S");
  CHECK(rec.value[kNrThreads] == 20);  // leaders carry the thread count
  CHECK_FALSE(rec.kernel_thread);      // flags field 9 = 9: PF_KTHREAD not set
  ThreadRecord member;
  REQUIRE(parse_stat(stat_line("x"), false, snap, member));
  CHECK_FALSE(member.has.test(kNrThreads));
  std::string kthread = stat_line("kworker/0:0");
  kthread.replace(kthread.find(" 9 "), 3, " 2097152 ");  // PF_KTHREAD
  ThreadRecord k;
  REQUIRE(parse_stat(kthread, false, snap, k));
  CHECK(k.kernel_thread);

  ThreadRecord bad;
  CHECK_FALSE(parse_stat("77 (x) S 1 2 3\n", false, snap, bad));  // truncated
  CHECK_FALSE(parse_stat("no parentheses here", false, snap, bad));
  std::string garbled = stat_line("x");
  garbled.replace(garbled.find(" 14 "), 4, " ab ");
  CHECK_FALSE(parse_stat(garbled, false, snap, bad));
}

TEST_CASE("ctprof sched: current and older key prefixes, millisecond times") {
  Snapshot snap;
  ThreadRecord now, old;
  const std::string csw = "nr_voluntary_switches : 8\nnr_involuntary_switches : 9\n";
  CHECK(parse_sched("x (1, #threads: 1)\n-----\nse.nr_migrations : 4\n" + csw +
                        "stats.wait_sum : 1.5\nstats.wait_max : 0.000250\nstats.wait_count : 3\n"
                        "stats.iowait_sum : 2.0\nstats.iowait_count : 4\nse.slice : 2800000\n"
                        "ext.enabled : 0\n",
                    snap, now));
  CHECK(now.value[kNrMigrations] == 4);
  CHECK(now.value[kWaitSum] == 1'500'000);
  CHECK(now.value[kWaitMax] == 250);
  CHECK(now.value[kWaitCount] == 3);
  CHECK(now.value[kIowaitSum] == 2'000'000);
  CHECK(now.value[kFairSliceNs] == 2'800'000);
  CHECK(now.value[kVoluntaryCsw] == 8);
  CHECK(now.value[kNonvoluntaryCsw] == 9);
  CHECK(snap.text(now.value[kExtEnabled]) == "false");
  CHECK(parse_sched("se.nr_migrations : 1\n" + csw + "se.statistics.wait_sum : 2\n", snap, old));
  CHECK(old.value[kWaitSum] == 2'000'000);
  ThreadRecord none;
  CHECK_FALSE(
      parse_sched("se.exec_start : 5.0\n" + csw, snap, none));  // nr_migrations is always printed
  ThreadRecord no_csw;
  CHECK_FALSE(parse_sched("se.nr_migrations : 1\n", snap, no_csw));
  ThreadRecord bad;
  CHECK_FALSE(
      parse_sched("se.nr_migrations : 1\n" + csw + "stats.wait_sum : 1.2345678\n", snap, bad));
  ThreadRecord bad_ext;
  CHECK_FALSE(parse_sched("se.nr_migrations : 1\n" + csw + "ext.enabled : 2\n", snap, bad_ext));
}

TEST_CASE("ctprof schedstat, io, status and smaps_rollup parsing") {
  ThreadRecord rec;
  CHECK(parse_schedstat("100 200 3\n", rec));
  CHECK(rec.value[kTimeslices] == 3);
  CHECK_FALSE(parse_schedstat("100 200\n", rec));
  CHECK_FALSE(parse_io("rchar: 1\nwchar: 2\n", rec));  // fields missing
  CHECK_FALSE(
      parse_io("rchar: x\nwchar: 2\nsyscr: 1\nsyscw: 1\nread_bytes: 1\nwrite_bytes: 1\n"
               "cancelled_write_bytes: 0\n",
               rec));
  ThreadRecord st;
  CHECK(
      parse_status("State:\tD (disk sleep)\nThreads:\t9\nvoluntary_ctxt_switches:\t5\n"
                   "nonvoluntary_ctxt_switches:\t6\n",
                   st));
  CHECK(st.value[kVoluntaryCsw] == 5);
  CHECK(st.value[kNonvoluntaryCsw] == 6);
  CHECK_FALSE(st.has.test(kState));  // the state comes from stat
  ThreadRecord broken;
  CHECK_FALSE(parse_status(
      "State:\tS\nvoluntary_ctxt_switches:\tmany\nnonvoluntary_ctxt_switches:\t1\n", broken));
  CHECK_FALSE(broken.has.test(kVoluntaryCsw));
  std::map<std::string, std::uint64_t> kib;
  CHECK(parse_smaps_rollup(
      "5610-7fff ---p 00000000 00:00 0   [rollup]\nRss:  1712 kB\nPss_Anon: 3 kB\n", kib));
  CHECK(kib == std::map<std::string, std::uint64_t>{{"Pss_Anon", 3}, {"Rss", 1712}});
  std::map<std::string, std::uint64_t> bad_kib;
  CHECK_FALSE(parse_smaps_rollup("Rss: lots kB\n", bad_kib));
  CHECK_FALSE(parse_smaps_rollup("", bad_kib));
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
