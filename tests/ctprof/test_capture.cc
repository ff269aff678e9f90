// Capture over synthetic /proc trees: every value read back, tallies, hints.
#include <doctest/doctest.h>

#include <sstream>

#include "capture.h"
#include "capture_hints.h"
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
  o.cgroup_root = proc.cgroup_root();
  o.sys_root = proc.sys_root();
  o.jemalloc = false;
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
  r.delays.run_virtual_total_ns = 123'456;
  r.delays.bucket[1] = {2, 5000, 4000, 1000};
  r.delays.hiwater_rss_bytes = 4096 * 1024;
  return r;
}

}  // namespace

TEST_CASE("ctprof capture reads every file of every thread of a synthetic tree") {
  FakeProc proc;
  FakeThread leader{.tgid = 100, .tid = 100, .comm = "web server", .num_threads = 2};
  leader.schedstats = true;
  FakeThread worker{.tgid = 100,
                    .tid = 101,
                    .comm = "worker-3",
                    .state = 'R',
                    .minflt = 70,
                    .utime = 9,
                    .priority = -51,
                    .nice = -5,
                    .processor = 0,
                    .rt_priority = 50,
                    .policy = 1};
  worker.run_ns = 5'000'000'000;
  worker.cgroup_text = "12:cpu,cpuacct:/batch\n0::/\n";
  FakeThread kworker{.tgid = 200, .tid = 200, .comm = "kworker/0:1-events", .state = 'I'};
  kworker.kernel_thread = true;
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
  CHECK(w->value[kFairSliceNs] == 3'000'000);
  CHECK_FALSE(w->has.test(kWaitSum));     // no schedstats printed for this thread
  CHECK_FALSE(w->has.test(kExtEnabled));  // no sched_ext in this kernel
  CHECK(w->smaps_kib.empty());            // smaps_rollup is read for the leader only
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
  CHECK(l->smaps_kib ==
        std::map<std::string, std::uint64_t>{{"Pss", 280}, {"Rss", 1712}, {"Swap", 0}});
  // Taskstats answered: the schedstat counters come from the same reply.
  CHECK(l->value[kRunTimeNs] == 123'456);
  CHECK(l->value[kWaitTimeNs] == 3000);
  CHECK(l->value[kTimeslices] == 3);

  const ThreadRecord* k = find_tid(s, 200);
  REQUIRE(k);
  CHECK(k->pcomm == "kworker/0:1-events");
  CHECK(s.text(k->value[kState]) == "I");
  CHECK(k->smaps_kib.empty());  // a kernel thread has no memory map to read
  CHECK(s.parse.failures_by_file[kSmapsFile] == 0);

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
            "ctprof parse: 3 tids walked, 6 read failures (dominant: schedstat); hint: schedstat / "
            "io "
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
  proc.add_cgroup("/system.slice/app.service", 42);
  proc.write("sysfs/kernel/sched_ext/state", "disabled\n");
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
  CHECK(r.host.cpu_model == s.host.cpu_model);
  CHECK(r.host.sched_tunables == s.host.sched_tunables);
  CHECK(r.host.kernel_cmdline == s.host.kernel_cmdline);
  CHECK(r.host.total_memory_kb == s.host.total_memory_kb);
  CHECK(r.sources.failures == s.sources.failures);
  CHECK(r.sources.cgroups_read == 1);
  REQUIRE(r.cgroup_stats.size() == 1);
  const CgroupStats& written = s.cgroup_stats.at("/system.slice/app.service");
  const CgroupStats& read = r.cgroup_stats.at("/system.slice/app.service");
  CHECK(read.usage_usec == written.usage_usec);
  CHECK(read.max_quota_us == written.max_quota_us);
  CHECK(read.weight_nice == written.weight_nice);
  CHECK(read.memory_max == kUnlimited);
  CHECK(read.memory_stat == written.memory_stat);
  CHECK(read.memory_events == written.memory_events);
  CHECK(read.pids_max == written.pids_max);
  CHECK(read.psi.resource[kPsiIo].some == written.psi.resource[kPsiIo].some);
  CHECK(r.host_psi.resource[kPsiCpu].some == s.host_psi.resource[kPsiCpu].some);
  REQUIRE(r.sched_ext.has_value());
  CHECK(*r.sched_ext == *s.sched_ext);
  for (std::size_t i = 0; i < s.threads.size(); ++i) {
    const auto& a = s.threads[i];
    const auto& b = r.threads[i];
    CHECK(a.tid == b.tid);
    CHECK(a.comm == b.comm);
    CHECK(a.pcomm == b.pcomm);
    CHECK(a.cgroup == b.cgroup);
    CHECK(a.has == b.has);
    CHECK(a.smaps_kib == b.smaps_kib);
    for (std::size_t id = 0; id < kStoredMetricCount; ++id) {
      if (!a.has.test(id)) continue;
      if (metric(id).unit == Unit::Text)
        CHECK(s.text(a.value[id]) == r.text(b.value[id]));
      else
        CHECK(a.value[id] == b.value[id]);
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
      s, {{TaskstatsOutcome::Unavailable, "no TASKSTATS family (CONFIG_TASKSTATS off?)"}, ""}));
  CHECK(
      missing.find("ctprof taskstats: unavailable (no TASKSTATS family (CONFIG_TASKSTATS off?))") !=
      std::string::npos);
  s.taskstats = {1, 0, 3, 0};
  const std::string raced = joined(capture_hints(s, {}));
  CHECK(raced.find("ctprof probe") == std::string::npos);  // no probing: no probe line
  CHECK(raced.find("3 of 4 threads exited before their query (ESRCH)") != std::string::npos);
  CHECK(joined(capture_hints(s, {{TaskstatsOutcome::Disabled, ""}, ""})).find("taskstats") ==
        std::string::npos);
  CHECK(joined(capture_hints(s, {{}, "--proc-root is not /proc"}))
            .find("ctprof probe: jemalloc probing skipped (--proc-root is not /proc)") !=
        std::string::npos);
  s.jemalloc.emplace();
  s.jemalloc->tgids_walked = 9;
  s.jemalloc->jemalloc_detected = 2;
  s.jemalloc->probed_ok = 5;
  s.jemalloc->failed = 3;
  s.jemalloc->failures_by_tag = {{"ptrace-seize", 2}, {"waitpid", 1}};
  CHECK(
      joined(capture_hints(s, {}))
          .find(
              "ctprof probe: 9 tgids walked, 2 jemalloc detected, 5 probed OK, 3 failed (dominant: "
              "ptrace-seize; hint: re-run as root, or grant cap_sys_ptrace+eip to dsched, or set "
              "kernel.yama.ptrace_scope=0)") != std::string::npos);
}

TEST_CASE("ctprof capture reads every cgroup file and tallies missing controllers and bad files") {
  FakeProc proc;
  FakeThread a{.tgid = 50, .tid = 50, .comm = "svc"};
  a.cgroup_text = "0::/svc.slice/a.service\n";
  FakeThread b{.tgid = 60, .tid = 60, .comm = "batch"};
  b.cgroup_text = "0::/batch.slice\n";
  FakeThread root{.tgid = 70, .tid = 70, .comm = "init"};
  root.cgroup_text = "0::/\n";
  for (const auto& t : {a, b, root}) proc.add(t);
  proc.add_cgroup("/svc.slice/a.service", 5'000'000);
  proc.add_cgroup("/batch.slice", 7);
  proc.add_cgroup("", 99);  // the root cgroup
  // batch.slice: no memory or pids controller, a corrupt cpu.max, cpu.weight not a file.
  for (const char* f : {"memory.current", "memory.max", "memory.high", "memory.low", "memory.min",
                        "memory.stat", "memory.events", "pids.current", "pids.max", "irq.pressure"})
    proc.remove(std::string("cgroupfs/batch.slice/") + f);
  proc.write("cgroupfs/batch.slice/cpu.max", "lots 100000\n");
  proc.remove("cgroupfs/batch.slice/cpu.weight");
  proc.write("cgroupfs/batch.slice/cpu.weight/x", "");

  std::ostringstream diag;
  const Snapshot s = capture(fake_options(proc, nullptr), diag);
  REQUIRE(s.cgroup_stats.size() == 3);
  CHECK(s.sources.cgroups_read == 3);
  const CgroupStats& svc = s.cgroup_stats.at("/svc.slice/a.service");
  CHECK(svc.usage_usec == 5'000'000u);
  CHECK(svc.nr_throttled == 3u);
  CHECK(svc.throttled_usec == 700u);
  CHECK(svc.max_quota_us == 50'000u);
  CHECK(svc.max_period_us == 100'000u);
  CHECK(svc.weight == 200u);
  CHECK(svc.weight_nice == -3);
  CHECK(svc.memory_current == 1'048'576u);
  CHECK(svc.memory_max == kUnlimited);
  CHECK(svc.memory_high == 2'097'152u);
  CHECK(svc.memory_low == 0u);
  CHECK(svc.memory_min == kUnlimited);
  CHECK(svc.memory_stat ==
        std::map<std::string, std::uint64_t>{{"anon", 4096}, {"file", 8192}, {"pgfault", 77}});
  CHECK(svc.memory_events.at("high") == 2);
  CHECK(svc.pids_current == 4u);
  CHECK(svc.pids_max == kUnlimited);
  for (const auto& r : svc.psi.resource) {
    CHECK(r.present);
    CHECK(r.some == PsiLine{150, 25, 0, 12345});
    CHECK(r.full == PsiLine{});
  }

  const CgroupStats& batch = s.cgroup_stats.at("/batch.slice");
  CHECK(batch.usage_usec == 7u);
  CHECK_FALSE(batch.max_quota_us);  // corrupt
  CHECK_FALSE(batch.weight);        // unreadable
  CHECK_FALSE(batch.memory_current);
  CHECK(batch.memory_stat.empty());
  CHECK_FALSE(batch.pids_current);
  CHECK(batch.psi.resource[kPsiCpu].present);
  CHECK_FALSE(batch.psi.resource[kPsiIrq].present);

  // The root cgroup has no limit files; they are not read, so not counted.
  const CgroupStats& top = s.cgroup_stats.at("/");
  CHECK(top.usage_usec == 99u);
  CHECK_FALSE(top.has_limits());

  const auto& f = s.sources.failures;
  CHECK(f.at("cgroup cpu.max") == 1);
  CHECK(f.at("cgroup cpu.weight") == 1);
  CHECK(f.at("cgroup memory.current") == 1);
  CHECK(f.at("cgroup memory.stat") == 1);
  CHECK(f.at("cgroup irq.pressure") == 1);
  CHECK(f.count("cgroup cpu.stat") == 0);
  CHECK(diag.str().find("ctprof sources: 3 cgroups read, ") != std::string::npos);
}

TEST_CASE("ctprof capture hints at a controller missing from every cgroup and at missing PSI") {
  FakeProc proc;
  FakeThread a{.tgid = 80, .tid = 80};
  a.cgroup_text = "0::/only.slice\n";
  proc.add(a);
  proc.add_cgroup("/only.slice", 1);
  for (const char* f : {"memory.current", "memory.max", "memory.high", "memory.low", "memory.min",
                        "memory.stat", "memory.events"})
    proc.remove(std::string("cgroupfs/only.slice/") + f);
  proc.remove("pressure");
  std::ostringstream diag;
  const Snapshot s = capture(fake_options(proc, nullptr), diag);
  CHECK_FALSE(s.host_psi.any());
  CHECK(s.sources.failures.at("host pressure/cpu") == 1);
  const std::string d = diag.str();
  CHECK(d.find("memory.* files missing in every cgroup — controller not enabled in "
               "cgroup.subtree_control") != std::string::npos);
  CHECK(d.find("no /proc/pressure — kernel built without CONFIG_PSI or booted with psi=0") !=
        std::string::npos);
  CHECK(d.find("pids.*") == std::string::npos);  // pids files are there
}

TEST_CASE("ctprof capture records the host context, host pressure and sched_ext state") {
  FakeProc proc;
  proc.add(FakeThread{.tgid = 90, .tid = 90});
  proc.remove("pressure/irq");  // kernels without IRQ time accounting have no irq pressure
  proc.write("sysfs/kernel/sched_ext/state", "enabled\n");
  proc.write("sysfs/kernel/sched_ext/switch_all", "1\n");
  proc.write("sysfs/kernel/sched_ext/nr_rejected", "4\n");
  proc.write("sysfs/kernel/sched_ext/hotplug_seq", "9\n");
  proc.write("sysfs/kernel/sched_ext/enable_seq", "garbage\n");
  std::ostringstream diag;
  const Snapshot s = capture(fake_options(proc, nullptr), diag);
  CHECK(s.host.cpu_model == "Test CPU @ 1GHz");
  CHECK(s.host.cpu_vendor == "GenuineTest");
  CHECK(s.host.total_memory_kb == 16384u);
  CHECK(s.host.kernel_cmdline == "BOOT_IMAGE=/vmlinuz quiet");
  CHECK(s.host.sched_tunables ==
        std::map<std::string, std::string>{{"sched_autogroup_enabled", "1"}});
  CHECK(s.host.kernel_name == "Linux");
  CHECK(s.host.arch.has_value());
  CHECK(s.host_psi.resource[kPsiCpu].some.avg10 == 150);
  CHECK(s.host_psi.resource[kPsiMemory].present);
  CHECK_FALSE(s.host_psi.resource[kPsiIrq].present);
  CHECK(s.sources.failures.at("host pressure/irq") == 1);
  REQUIRE(s.sched_ext.has_value());
  CHECK(s.sched_ext->state == "enabled");
  CHECK(s.sched_ext->switch_all == 1u);
  CHECK(s.sched_ext->nr_rejected == 4u);
  CHECK(s.sched_ext->hotplug_seq == 9u);
  CHECK_FALSE(s.sched_ext->enable_seq);
  CHECK(s.sources.failures.at("sched_ext enable_seq") == 1);

  // Without the sysfs directory (no CONFIG_SCHED_CLASS_EXT): no state, nothing counted.
  proc.remove("sysfs");
  proc.remove("cmdline");
  std::ostringstream again;
  const Snapshot t = capture(fake_options(proc, nullptr), again);
  CHECK_FALSE(t.sched_ext.has_value());
  CHECK(t.sources.failures.count("sched_ext enable_seq") == 0);
  CHECK_FALSE(t.host.kernel_cmdline.has_value());
  CHECK(t.sources.failures.at("host cmdline") == 1);
}

TEST_CASE("ctprof capture: sched fields of newer kernels and the status fallback") {
  FakeProc proc;
  FakeThread t{.tgid = 95, .tid = 95, .comm = "ext", .vcsw = 31, .nvcsw = 7};
  proc.add(t);
  std::string sched =
      "ext (95, #threads: 1)\n---\nse.nr_migrations : 2\nnr_voluntary_switches : 31\n"
      "nr_involuntary_switches : 7\nse.slice : 700000\next.enabled : 1\n"
      "stats.core_forceidle_sum : 1.500000\n";
  proc.write("95/task/95/sched", sched);
  std::ostringstream diag;
  Snapshot s = capture(fake_options(proc, nullptr), diag);
  REQUIRE(s.threads.size() == 1);
  CHECK(s.text(s.threads[0].value[kExtEnabled]) == "true");
  CHECK(s.threads[0].value[kFairSliceNs] == 700'000);
  CHECK(s.threads[0].value[kCoreForceidleSum] == 1'500'000);
  CHECK(s.threads[0].value[kVoluntaryCsw] == 31);

  // Without sched (no CONFIG_SCHED_DEBUG) the context switches come from status.
  proc.remove("95/task/95/sched");
  s = capture(fake_options(proc, nullptr), diag);
  CHECK(s.threads[0].value[kVoluntaryCsw] == 31);
  CHECK(s.threads[0].value[kNonvoluntaryCsw] == 7);
  CHECK(s.parse.failures_by_file[kSchedFile] == 1);
  CHECK(s.parse.failures_by_file[kStatusFile] == 0);
}
