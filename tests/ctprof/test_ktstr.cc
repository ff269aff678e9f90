// Snapshots written by ktstr: a fixture built from ktstr's documented schema (CtprofSnapshot,
// ThreadState, CgroupStats, Psi, SchedExtSysfs, HostContext and the summaries) is read field by
// field and compared against a dsched snapshot.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "ctprof.h"
#include "options.h"
#include "report.h"
#include "snapshot_builder.h"
#include "snapshot_io.h"
#include "test_files_util.h"

using namespace dsched::ctprof;
using ctprof_test::TempDir;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// A ktstr ThreadState: every metric field ktstr writes (ctprof's metric names), with values
// that tell the fields apart.
json ktstr_thread(int tid, int tgid, const std::string& comm, const std::string& pcomm) {
  json t = {
      {"tid", tid},
      {"tgid", tgid},
      {"pcomm", pcomm},
      {"comm", comm},
      {"cgroup", "/app.slice/web-1.scope"},
      {"policy", "SCHED_OTHER"},
      {"cpu_affinity", {0, 1, 2, 3, 6}},
      {"state", "S"},
      {"ext_enabled", false},
      {"smaps_rollup_kib", tid == tgid ? json{{"Rss", 2048}, {"Pss", 1024}} : json::object()}};
  for (std::size_t id = 0; id < kStoredMetricCount; ++id) {
    const auto& def = metric(id);
    if (def.unit == Unit::Text) continue;
    t[std::string(def.name)] =
        def.is_signed ? json(-static_cast<std::int64_t>(id)) : json(1000 + id);
  }
  t["start_time_clock_ticks"] = 500 + tid;
  return t;
}

json ktstr_psi(int scale) {
  json half = {{"avg10", 12 * scale}, {"avg60", 5}, {"avg300", 1}, {"total_usec", 1000 * scale}};
  json res = {{"some", half},
              {"full", {{"avg10", 0}, {"avg60", 0}, {"avg300", 0}, {"total_usec", 0}}}};
  return {{"cpu", res}, {"memory", res}, {"io", res}, {"irq", res}};
}

json ktstr_snapshot() {
  json unmeasured = ktstr_thread(300, 300, "batch", "batch");
  unmeasured["taskstats_measured"] = false;
  unmeasured["jemalloc_measured"] = false;
  unmeasured["state"] = "~";
  unmeasured["cpu_affinity"] = json::array();
  unmeasured["a_field_of_a_later_ktstr"] = {1, 2, 3};
  return {{"captured_at_unix_ns", 1'700'000'000'000'000'000ULL},
          {"host",
           {{"cpu_model", "Intel(R) Xeon(R) Test CPU"},
            {"cpu_vendor", "GenuineIntel"},
            {"total_memory_kb", 67108864},
            {"hugepages_total", 0},
            {"thp_enabled", "always [madvise] never"},
            {"sched_tunables", {{"sched_migration_cost_ns", "500000"}}},
            {"online_cpus", 16},
            {"numa_nodes", 2},
            {"cpufreq_governor", {{"0", "performance"}}},
            {"kernel_name", "Linux"},
            {"kernel_release", "6.16.0-test"},
            {"arch", "x86_64"},
            {"kernel_cmdline", "BOOT_IMAGE=/boot/vmlinuz-test root=/dev/sda1"}}},
          {"threads",
           {ktstr_thread(100, 100, "web", "web"), ktstr_thread(101, 100, "web-worker", "web"),
            unmeasured}},
          {"cgroup_stats",
           {{"/app.slice/web-1.scope",
             {{"cpu",
               {{"usage_usec", 9000},
                {"nr_throttled", 1},
                {"throttled_usec", 50},
                {"max_quota_us", nullptr},
                {"max_period_us", 100000},
                {"weight", 100},
                {"weight_nice", 0}}},
              {"memory",
               {{"current", 4096},
                {"max", nullptr},
                {"high", 8192},
                {"low", nullptr},
                {"min", nullptr},
                {"stat", {{"anon", 4096}}},
                {"events", {{"oom", 0}}}}},
              {"pids", {{"current", 5}, {"max", nullptr}}},
              {"psi", ktstr_psi(2)}}}}},
          {"probe_summary",
           {{"tgids_walked", 2},
            {"jemalloc_detected", 1},
            {"probed_ok", 2},
            {"failed", 1},
            {"dominant_failure", "ptrace-seize"},
            {"privilege_dominant", true}}},
          {"parse_summary",
           {{"tids_walked", 3},
            {"read_failures", 1},
            {"read_failures_by_file", {{"smaps_rollup", 1}}},
            {"dominant_read_failure", "smaps_rollup"},
            {"kernel_config_dominant", false},
            {"negative_dotted_values", 0}}},
          {"taskstats_summary",
           {{"ok_count", 2}, {"eperm_count", 0}, {"esrch_count", 1}, {"other_err_count", 0}}},
          {"psi", ktstr_psi(1)},
          {"sched_ext",
           {{"state", "enabled"},
            {"switch_all", 1},
            {"nr_rejected", 0},
            {"hotplug_seq", 3},
            {"enable_seq", 1}}}};
}

// The words of the first line starting with `start`.
std::vector<std::string> row(const std::string& text, const std::string& start) {
  const auto at = text.find("\n" + start);
  if (at == std::string::npos) return {};
  std::istringstream line(text.substr(at + 1, text.find('\n', at + 1) - at - 1));
  std::vector<std::string> words;
  for (std::string w; line >> w;) words.push_back(w);
  return words;
}

const ThreadRecord& by_tid(const Snapshot& s, int tid) {
  for (const auto& t : s.threads)
    if (t.tid == tid) return t;
  FAIL("no thread " << tid);
  throw 0;
}

}  // namespace

TEST_CASE("ctprof reads every field of a ktstr snapshot") {
  TempDir dir;
  // ktstr's serde writes the struct fields in declaration order: captured_at_unix_ns first.
  const std::string path = dir.file("ktstr.ctprof.zst", compress(ktstr_snapshot().dump()));
  const Snapshot s = read_snapshot_file(path);
  REQUIRE(s.threads.size() == 3);

  const ThreadRecord& web = by_tid(s, 100);
  CHECK(web.comm == "web");
  CHECK(web.pcomm == "web");
  CHECK(web.cgroup == "/app.slice/web-1.scope");
  for (std::size_t id = 0; id < kStoredMetricCount; ++id) {
    const auto& def = metric(id);
    CAPTURE(def.name);
    REQUIRE(web.has.test(id));
    if (def.unit == Unit::Text) continue;
    if (id == kStartTimeTicks)
      CHECK(web.value[id] == 600);
    else if (def.is_signed)
      CHECK(static_cast<std::int64_t>(web.value[id]) == -static_cast<std::int64_t>(id));
    else
      CHECK(web.value[id] == 1000 + id);
  }
  CHECK(s.text(web.value[kPolicy]) == "SCHED_OTHER");
  CHECK(s.text(web.value[kState]) == "S");
  CHECK(s.text(web.value[kCpuAffinity]) == "0-3,6");
  CHECK(s.text(web.value[kExtEnabled]) == "false");
  CHECK(web.smaps_kib == std::map<std::string, std::uint64_t>{{"Pss", 1024}, {"Rss", 2048}});
  CHECK(by_tid(s, 101).smaps_kib.empty());

  // Fields ktstr flags as not measured carry no value (their zeros are not readings).
  const ThreadRecord& batch = by_tid(s, 300);
  CHECK_FALSE(batch.has.test(kState));
  CHECK_FALSE(batch.has.test(kCpuAffinity));
  CHECK_FALSE(batch.has.test(kAllocatedBytes));
  CHECK_FALSE(batch.has.test(delay_metric(0, kDelayTotal)));
  CHECK_FALSE(batch.has.test(kHiwaterRssBytes));
  CHECK(batch.has.test(kRunTimeNs));

  CHECK(s.host.captured_at_unix_ns == 1'700'000'000'000'000'000ULL);
  CHECK(s.host.cpu_model == "Intel(R) Xeon(R) Test CPU");
  CHECK(s.host.cpu_vendor == "GenuineIntel");
  CHECK(s.host.total_memory_kb == 67108864u);
  CHECK(s.host.cpu_count == 16);
  CHECK(s.host.kernel_release == "6.16.0-test");
  CHECK(s.host.kernel_name == "Linux");
  CHECK(s.host.arch == "x86_64");
  CHECK(s.host.kernel_cmdline == "BOOT_IMAGE=/boot/vmlinuz-test root=/dev/sda1");
  CHECK(s.host.sched_tunables.at("sched_migration_cost_ns") == "500000");
  CHECK(s.host.clock_ticks_per_s == 100);
  CHECK(s.host.uptime_ns == 8'000'000'000ULL);  // the newest thread (start 800 ticks) is "now"

  const CgroupStats& cg = s.cgroup_stats.at("/app.slice/web-1.scope");
  CHECK(cg.usage_usec == 9000u);
  CHECK(cg.max_quota_us == kUnlimited);  // ktstr writes null for "max"
  CHECK(cg.max_period_us == 100000u);
  CHECK(cg.weight == 100u);
  CHECK(cg.weight_nice == 0);
  CHECK(cg.memory_current == 4096u);
  CHECK(cg.memory_max == kUnlimited);
  CHECK(cg.memory_high == 8192u);
  CHECK_FALSE(cg.memory_low);  // no floor
  CHECK(cg.memory_stat.at("anon") == 4096);
  CHECK(cg.pids_current == 5u);
  CHECK(cg.pids_max == kUnlimited);
  CHECK(cg.psi.resource[kPsiIrq].some.avg10 == 24);
  CHECK(s.host_psi.resource[kPsiCpu].some.total_usec == 1000);
  REQUIRE(s.sched_ext.has_value());
  CHECK(*s.sched_ext == SchedExtState{"enabled", 1, 0, 3, 1});
  CHECK(s.taskstats.esrch_count == 1);
  CHECK(s.parse.tids_walked == 3);
  CHECK(s.parse.failures_by_file[kSmapsFile] == 1);
  REQUIRE(s.jemalloc.has_value());
  CHECK(s.jemalloc->jemalloc_detected == 1);
  CHECK(s.jemalloc->dominant() == "ptrace-seize");
  CHECK(s.jemalloc->privilege_dominant());
}

TEST_CASE("ctprof compares a ktstr snapshot against a dsched snapshot") {
  TempDir dir;
  const std::string ktstr = dir.file("ktstr.ctprof.zst", compress(ktstr_snapshot().dump()));
  Snapshot ours = ctprof_test::empty_snapshot(10);
  for (int tid : {100, 101}) {
    auto& t = ctprof_test::add_thread(ours, tid, tid == 100 ? "web" : "web-worker", "web",
                                      {{kRunTimeNs, 2000}, {kStartTimeTicks, 100}});
    t.tgid = 100;
    t.cgroup = "/app.slice/web-1.scope";
  }
  ours.cgroup_stats["/app.slice/web-1.scope"].usage_usec = 12000;
  const std::string dsched = (dir.path / "dsched.ctprof.zst").string();
  write_snapshot_file(ours, dsched);

  std::ostringstream out, err;
  REQUIRE(run_cli({"compare", ktstr, dsched, "--metrics", "run_time_ns", "--limit", "0"}, out,
                  err) == 0);
  const std::string table = out.str();
  // Every block joins the groups of the two files; ktstr's batch thread is the only orphan.
  CHECK(table.find("## Primary metrics (by cgroup)\ncgroup ") == 0);
  CHECK(row(table, "/app.slice/web-{N}.scope ") ==
        std::vector<std::string>{"/app.slice/web-{N}.scope", "3→2", "run_time_ns", "3.000us", "→",
                                 "4.000us", "+1.000us", "+33.3%", "100%"});
  CHECK(row(table, "web ") == std::vector<std::string>{"web", "2", "run_time_ns", "2.000us", "→",
                                                       "4.000us", "+2.000us", "+100.0%", "100%"});
  CHECK(table.find("1 group(s) only in baseline (" + ktstr + "):\n  batch\n") != std::string::npos);
  CHECK(table.find("only in candidate") == std::string::npos);
  CHECK(table.find("cpu_usage_usec") != std::string::npos);
  CHECK(table.find("9.000ms → 12.000ms (+3.000ms)") != std::string::npos);
  CHECK(err.str().empty());
}

TEST_CASE("ctprof rejects a malformed ktstr snapshot with the file and the field") {
  TempDir dir;
  json bad = ktstr_snapshot();
  bad["threads"][1]["run_time_ns"] = "lots";
  const std::string path = dir.file("bad.ctprof.zst", compress(bad.dump()));
  std::ostringstream out, err;
  CHECK(run_cli({"show", path}, out, err) == 1);
  CHECK(err.str() ==
        "dsched ctprof: " + path +
            ": not a ctprof snapshot: thread 101: type must be number, but is string\n");
}
