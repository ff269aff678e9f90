// Capture over synthetic /proc trees: every value read back, tallies, hints.
#include <doctest/doctest.h>

#include <sstream>

#include "capture.h"
#include "fake_proc.h"
#include "snapshot_io.h"

using namespace dsched::ctprof;
using ctprof_test::FakeProc;
using ctprof_test::FakeTaskstats;
using ctprof_test::FakeThread;

namespace {

const ThreadRecord* find_tid(const Snapshot& s, int tid) {
  for (const auto& t : s.threads)
    if (t.tid == tid) return &t;
  return nullptr;
}

CaptureOptions fake_options(const FakeProc& proc, FakeTaskstats* ts) {
  CaptureOptions o;
  o.proc_root = proc.root();
  o.taskstats = ts ? CaptureOptions::Taskstats::Injected : CaptureOptions::Taskstats::Off;
  o.injected = ts;
  o.affinity = [](int tid) -> std::optional<std::string> {
    return tid == 101 ? std::optional<std::string>("1") : std::optional<std::string>("0-3");
  };
  return o;
}

TaskstatsResult ok_delays(std::uint64_t cpu_count, std::uint64_t cpu_total) {
  TaskstatsResult r{TaskstatsStatus::Ok, {}};
  r.delays.bucket[0] = {cpu_count, cpu_total, 900, 11};
  r.delays.bucket[1] = {2, 5000, 4000, 1000};
  r.delays.hiwater_rss_bytes = 4096 * 1024;
  return r;
}

}  // namespace

TEST_CASE("ctprof capture reads every file of every thread of a synthetic tree") {
  FakeProc proc;
  FakeThread leader{.tgid = 100, .tid = 100, .comm = "web server", .num_threads = 2};
  leader.schedstats = true;
  FakeThread worker{.tgid = 100, .tid = 101, .comm = "worker-3", .state = 'R', .minflt = 70,
                    .utime = 9, .priority = -51, .nice = -5, .processor = 0, .rt_priority = 50,
                    .policy = 1};
  worker.run_ns = 5'000'000'000;
  worker.cgroup_text = "12:cpu,cpuacct:/batch\n0::/\n";
  FakeThread kworker{.tgid = 200, .tid = 200, .comm = "kworker/0:1-events", .state = 'I'};
  for (const auto& t : {leader, worker, kworker}) proc.add(t);

  FakeTaskstats ts;
  ts.answers[100] = ok_delays(3, 3000);
  ts.answers[200] = {TaskstatsStatus::Eperm, {}};  // 101 gets ESRCH
  std::ostringstream diag;
  const Snapshot s = capture(fake_options(proc, &ts), diag);

  REQUIRE(s.threads.size() == 3);
  CHECK(s.parse.tids_walked == 3);
  CHECK(s.parse.tids_exited == 0);
  CHECK(s.parse.read_failures() == 0);
  CHECK(s.host.uptime_ns == 1000'500'000'000ULL);
  CHECK(s.host.boot_time_unix_s == 1700000000);
  REQUIRE(s.host.task_delayacct.has_value());
  CHECK(*s.host.task_delayacct == 1);
  CHECK(s.taskstats.ok_count == 1);
  CHECK(s.taskstats.eperm_count == 1);
  CHECK(s.taskstats.esrch_count == 1);
  CHECK(s.taskstats.other_err_count == 0);

  const ThreadRecord* w = find_tid(s, 101);
  REQUIRE(w);
  CHECK(w->comm == "worker-3");
  CHECK(w->pcomm == "web server");
  CHECK(w->tgid == 100);
  CHECK(w->value[kRunTimeNs] == 5'000'000'000ULL);
  CHECK(w->value[kWaitTimeNs] == 2000);
  CHECK(w->value[kTimeslices] == 3);
  CHECK(w->value[kMinflt] == 70);
  CHECK(w->value[kMajflt] == 1);
  CHECK(w->value[kUtimeTicks] == 9);
  CHECK(w->value[kStimeTicks] == 5);
  CHECK(static_cast<std::int64_t>(w->value[kPriority]) == -51);
  CHECK(static_cast<std::int64_t>(w->value[kNice]) == -5);
  CHECK(w->value[kRtPriority] == 50);
  CHECK(s.text(w->value[kPolicy]) == "SCHED_FIFO");
  CHECK(s.text(w->value[kState]) == "R");
  CHECK(s.text(w->value[kCpuAffinity]) == "1");
  CHECK(w->value[kStartTimeTicks] == 1000);
  CHECK(w->value[kVoluntaryCsw] == 10);
  CHECK(w->value[kNonvoluntaryCsw] == 4);
  CHECK_FALSE(w->has.test(kNrThreads));  // only the leader carries the process's thread count
  CHECK(w->value[kRchar] == 4096);
  CHECK(w->value[kReadBytes] == 512);
  CHECK(w->value[kSyscr] == 9);
  CHECK(w->value[kNrMigrations] == 6);
  CHECK_FALSE(w->has.test(kWaitSum));  // no schedstats printed for this thread
  CHECK(w->cgroup == "/batch");
  CHECK_FALSE(w->has.test(delay_metric(0, kDelayCount)));  // ESRCH: no taskstats values

  const ThreadRecord* l = find_tid(s, 100);
  REQUIRE(l);
  CHECK(l->comm == "web server");
  CHECK(l->value[kNrThreads] == 2);
  CHECK(l->value[kWaitSum] == 10'000'001);
  CHECK(l->value[kWaitMax] == 3'250'000);
  CHECK(l->value[kWaitCount] == 40);
  CHECK(l->value[kNrWakeupsAffineAttempts] == 12);
  CHECK(l->value[kBlockSum] == 120'500'000);
  CHECK(l->value[kVoluntarySleepNs] == 379'500'000);
  CHECK(l->cgroup == "/system.slice/app.service");
  CHECK(l->value[delay_metric(0, kDelayCount)] == 3);
  CHECK(l->value[delay_metric(0, kDelayTotal)] == 3000);
  CHECK(l->value[delay_metric(0, kDelayMax)] == 900);
  CHECK(l->value[delay_metric(1, kDelayMin)] == 1000);
  CHECK(l->value[kHiwaterRssBytes] == 4096 * 1024);

  const ThreadRecord* k = find_tid(s, 200);
  REQUIRE(k);
  CHECK(k->pcomm == "kworker/0:1-events");
  CHECK(s.text(k->value[kState]) == "I");

  // The EPERM reply is reported with its remedy.
  CHECK(diag.str().find("CAP_NET_ADMIN") != std::string::npos);
}

TEST_CASE("ctprof capture counts vanished threads and per-file read failures") {
  FakeProc proc;
  FakeThread a{.tgid = 10, .tid = 10, .comm = "a"};
  FakeThread b{.tgid = 10, .tid = 11, .comm = "b"};
  FakeThread gone{.tgid = 10, .tid = 12, .comm = "gone"};
  for (const auto& t : {a, b, gone}) proc.add(t);
  proc.remove("10/task/12/stat");       // exited between listing and reading
  proc.remove("10/task/11/schedstat");  // one file missing for a live thread
  proc.write("10/task/10/io", "garbage\n");

  std::ostringstream diag;
  const Snapshot s = capture(fake_options(proc, nullptr), diag);
  CHECK(s.threads.size() == 2);
  CHECK(s.parse.tids_walked == 3);
  CHECK(s.parse.tids_exited == 1);
  CHECK(s.parse.failures_by_file[kSchedstatFile] == 1);
  CHECK(s.parse.failures_by_file[kIoFile] == 1);
  CHECK(s.parse.read_failures() == 2);
  CHECK_FALSE(find_tid(s, 11)->has.test(kRunTimeNs));
  CHECK(find_tid(s, 11)->has.test(kVoluntaryCsw));
  // Isolated failures are not a kernel configuration: no kconfig hint.
  CHECK(diag.str().find("CONFIG_") == std::string::npos);
  CHECK(diag.str().find("3 tids walked, 2 read failures") != std::string::npos);
  CHECK(diag.str().find("1 exited mid-walk") != std::string::npos);
}

TEST_CASE("ctprof capture names the kconfig when a whole file class fails") {
  FakeProc proc;
  for (int tid : {20, 21, 22}) {
    proc.add(FakeThread{.tgid = 20, .tid = tid});
    proc.remove("20/task/" + std::to_string(tid) + "/io");
    if (tid != 22) proc.remove("20/task/" + std::to_string(tid) + "/schedstat");
  }
  std::ostringstream diag;
  const Snapshot s = capture(fake_options(proc, nullptr), diag);
  CHECK(s.parse.dominant() == "io");
  const std::string d = diag.str();
  CHECK(d.find("3 tids walked, 5 read failures (dominant: io)") != std::string::npos);
  CHECK(d.find("hint: io read failures dominate") != std::string::npos);
  CHECK(d.find("CONFIG_TASK_IO_ACCOUNTING") != std::string::npos);
  CHECK(d.find("CONFIG_SCHED_INFO") == std::string::npos);  // schedstat failed for 2 of 3 only

  proc.remove("20/task/22/schedstat");
  std::ostringstream both;
  capture(fake_options(proc, nullptr), both);
  CHECK(both.str().rfind(
            "ctprof parse: 3 tids walked, 6 read failures (dominant: schedstat); hint: schedstat / io "
            "read failures dominate — kernel may be built without CONFIG_SCHED_INFO and/or "
            "CONFIG_TASK_IO_ACCOUNTING\n",
            0) == 0);
}

TEST_CASE("ctprof capture hints at kernel.task_delayacct only when every delay is zero") {
  FakeProc proc;
  proc.add(FakeThread{.tgid = 30, .tid = 30});
  proc.add(FakeThread{.tgid = 30, .tid = 31});
  FakeTaskstats ts;
  ts.answers[30] = {TaskstatsStatus::Ok, {}};
  ts.answers[31] = {TaskstatsStatus::Ok, {}};
  std::ostringstream zero_diag;
  const Snapshot zero = capture(fake_options(proc, &ts), zero_diag);
  CHECK(zero.taskstats.ok_count == 2);
  CHECK(zero_diag.str().find("sysctl -w kernel.task_delayacct=1") != std::string::npos);

  ts.answers[31] = ok_delays(1, 500);
  std::ostringstream live_diag;
  capture(fake_options(proc, &ts), live_diag);
  CHECK(live_diag.str().find("task_delayacct") == std::string::npos);
}

TEST_CASE("ctprof capture of a missing proc root reports it and captures nothing") {
  CaptureOptions o;
  o.proc_root = "/nonexistent/ctprof-proc";
  o.taskstats = CaptureOptions::Taskstats::Off;
  std::ostringstream diag;
  const Snapshot s = capture(o, diag);
  CHECK(s.threads.empty());
  CHECK(diag.str().find("/nonexistent/ctprof-proc") != std::string::npos);
}

TEST_CASE("ctprof snapshot files round-trip every captured value") {
  FakeProc proc;
  FakeThread leader{.tgid = 40, .tid = 40, .comm = "db", .priority = -2, .nice = -20};
  leader.schedstats = true;
  proc.add(leader);
  proc.add(FakeThread{.tgid = 40, .tid = 41, .comm = "db-io"});
  FakeTaskstats ts;
  ts.answers[40] = ok_delays(5, 777);
  std::ostringstream diag;
  const Snapshot s = capture(fake_options(proc, &ts), diag);
  const std::string path = proc.root() + "/snap.ctprof.zst";
  write_snapshot_file(s, path);
  const Snapshot r = read_snapshot_file(path);
  REQUIRE(r.threads.size() == s.threads.size());
  CHECK(r.host.uptime_ns == s.host.uptime_ns);
  CHECK(r.host.hostname == s.host.hostname);
  CHECK(r.taskstats.ok_count == 1);
  CHECK(r.parse.tids_walked == 2);
  for (std::size_t i = 0; i < s.threads.size(); ++i) {
    const auto& a = s.threads[i];
    const auto& b = r.threads[i];
    CHECK(a.tid == b.tid);
    CHECK(a.comm == b.comm);
    CHECK(a.pcomm == b.pcomm);
    CHECK(a.cgroup == b.cgroup);
    CHECK(a.has == b.has);
    for (std::size_t id = 0; id < kStoredMetricCount; ++id) {
      if (!a.has.test(id)) continue;
      if (metric(id).unit == Unit::Text) CHECK(s.text(a.value[id]) == r.text(b.value[id]));
      else CHECK(a.value[id] == b.value[id]);
    }
  }
}

TEST_CASE("ctprof taskstats hints: family missing, most tids gone, disabled") {
  Snapshot s;
  s.threads.resize(4);
  s.parse.tids_walked = 4;
  auto joined = [](const std::vector<std::string>& lines) {
    std::string all;
    for (const auto& l : lines) all += l + "\n";
    return all;
  };
  const std::string missing = joined(capture_hints(
      s, {TaskstatsOutcome::Unavailable, "no TASKSTATS family (CONFIG_TASKSTATS off?)"}));
  CHECK(missing.find("ctprof taskstats: unavailable (no TASKSTATS family (CONFIG_TASKSTATS off?))") !=
        std::string::npos);
  s.taskstats = {1, 0, 3, 0};
  const std::string raced = joined(capture_hints(s, {}));
  CHECK(raced.find("3 of 4 threads exited before their query (ESRCH)") != std::string::npos);
  CHECK(joined(capture_hints(s, {TaskstatsOutcome::Disabled, ""})).find("taskstats") ==
        std::string::npos);
}
