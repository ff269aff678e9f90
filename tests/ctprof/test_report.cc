// Aggregation, derived metrics, value formatting, flags, and the compare/show tables (golden).
#include <doctest/doctest.h>

#include "aggregate.h"
#include "format.h"
#include "options.h"
#include "report.h"
#include "snapshot_builder.h"

using namespace dsched::ctprof;
using ctprof_test::add_thread;
using ctprof_test::empty_snapshot;

namespace {

// The first line of `text` containing `needle`.
std::string line_with(const std::string& text, const std::string& needle) {
  const auto at = text.find(needle);
  if (at == std::string::npos) return {};
  const auto start = text.rfind('\n', at) + 1;
  return text.substr(start, text.find('\n', at) - start);
}

std::vector<std::string> words(const std::string& line) { return split_flags(line); }

// Compare flags, grouped by process unless the test says otherwise.
ReportOptions flags(std::vector<std::string> args) {
  std::vector<std::string> positional;
  args.insert(args.begin(), {"--group-by", "pcomm"});
  return parse_report_flags(args, positional, ReportKind::Compare);
}

// Baseline and candidate of a small "compile job" scenario.
std::pair<Snapshot, Snapshot> scenario() {
  Snapshot b = empty_snapshot(100), c = empty_snapshot(160);
  const auto wq = "kworker/0:1-mm_percpu_wq";
  const auto wq2 = "kworker/1:0-mm_percpu_wq";
  add_thread(b, 10, wq, wq,
             {{kVoluntaryCsw, 4000},
              {kWaitTimeNs, 1'000'000'000},
              {kStimeTicks, 10},
              {kStartTimeTicks, 500}});
  add_thread(b, 11, wq2, wq2,
             {{kVoluntaryCsw, 4697},
              {kWaitTimeNs, 1'684'000'000},
              {kStimeTicks, 12},
              {kStartTimeTicks, 600}});
  add_thread(c, 10, wq, wq,
             {{kVoluntaryCsw, 50000},
              {kWaitTimeNs, 13'000'000'000},
              {kStimeTicks, 100},
              {kStartTimeTicks, 500}});
  add_thread(c, 11, wq2, wq2,
             {{kVoluntaryCsw, 51154},
              {kWaitTimeNs, 14'653'000'000},
              {kStimeTicks, 117},
              {kStartTimeTicks, 600}});
  add_thread(c, 12, wq2, wq2,
             {{kVoluntaryCsw, 0}, {kWaitTimeNs, 0}, {kStimeTicks, 0}, {kStartTimeTicks, 15000}});
  add_thread(b, 20, "sshd", "sshd",
             {{kVoluntaryCsw, 22}, {kWaitTimeNs, 0}, {kStimeTicks, 3}, {kStartTimeTicks, 4000}});
  add_thread(c, 20, "sshd", "sshd",
             {{kVoluntaryCsw, 11}, {kWaitTimeNs, 5000}, {kStimeTicks, 3}, {kStartTimeTicks, 4000}});
  add_thread(b, 30, "gone", "gone", {{kVoluntaryCsw, 5}, {kStartTimeTicks, 9000}});
  return {b, c};
}

}  // namespace

TEST_CASE("ctprof value formatting") {
  CHECK(format_scalar(11, Unit::Count) == "11");
  CHECK(format_scalar(8697, Unit::Count) == "8.697K");
  CHECK(format_scalar(101154, Unit::Count) == "101.154K");
  CHECK(format_scalar(3'500'000'000, Unit::Count) == "3.500G");
  CHECK(format_scalar(22, Unit::Ticks) == "22ticks");
  CHECK(format_scalar(512, Unit::Ns) == "512ns");
  CHECK(format_scalar(12'345, Unit::Ns) == "12.345us");
  CHECK(format_scalar(243'378'000, Unit::Ns) == "243.378ms");
  CHECK(format_scalar(2'684'000'000, Unit::Ns) == "2.684s");
  CHECK(format_scalar(999.7L, Unit::Ns) == "1.000us");
  CHECK(format_scalar(1000, Unit::Bytes) == "1000B");
  CHECK(format_scalar(1536, Unit::Bytes) == "1.500KiB");
  CHECK(format_scalar(3 * 1048576.0L, Unit::Bytes) == "3.000MiB");
  CHECK(format_scalar(0.25L, Unit::Ratio) == "0.250");
  CHECK(format_scalar(92457, Unit::Count, true) == "+92.457K");
  CHECK(format_scalar(-11, Unit::Count, true) == "-11");
  CHECK(format_scalar(195, Unit::Ticks, true) == "+195ticks");
  CHECK(format_scalar(-25'618'000'000, Unit::Ns, true) == "-25.618s");
  CHECK(format_scalar(0, Unit::Ns, true) == "0ns");
  CHECK(format_scalar(-0.2L, Unit::Count, true) == "0");
  CHECK(format_percent(930.2L) == "+930.2%");
  CHECK(format_percent(-50) == "-50.0%");
  CHECK(format_percent(-0.04L) == "0.0%");
  CHECK(format_scalar(-0.0002L, Unit::Ratio, true) == "0.000");
  CHECK(format_scalar(-0.0122L, Unit::Ratio, true) == "-0.012");
  CHECK(format_scalar(0.0122L, Unit::Ratio, true) == "+0.012");
  CHECK(format_value(AggValue{AggValue::Range, 0, -20, 0, {}}, Unit::Number) == "[-20,0]");
  CHECK(format_value(AggValue{}, Unit::Ns) == "-");
}

TEST_CASE("ctprof aggregation rules and derived metrics") {
  Snapshot s = empty_snapshot();
  auto& a = add_thread(s, 1, "a", "app",
                       {{kRunTimeNs, 600},
                        {kWaitTimeNs, 100},
                        {kTimeslices, 0},
                        {kWaitMax, 70},
                        {delay_metric(0, kDelayMin), 0},
                        {delay_metric(0, kDelayCount), 2},
                        {delay_metric(0, kDelayTotal), 300},
                        {kProcessor, 3},
                        {kVoluntaryCsw, 3},
                        {kNonvoluntaryCsw, 1},
                        {kReadBytes, 10},
                        {kRchar, 0}},
                       {{kPolicy, "SCHED_OTHER"}});
  a.set_signed(kNice, -5);
  auto& b = add_thread(s, 2, "b", "app",
                       {{kRunTimeNs, 200},
                        {kWaitTimeNs, 100},
                        {kTimeslices, 0},
                        {kWaitMax, 90},
                        {delay_metric(0, kDelayMin), 40},
                        {delay_metric(0, kDelayCount), 1},
                        {delay_metric(0, kDelayTotal), 0},
                        {kProcessor, 0},
                        {kVoluntaryCsw, 1},
                        {kNonvoluntaryCsw, 3},
                        {kReadBytes, 5},
                        {kRchar, 0}},
                       {{kPolicy, "SCHED_FIFO"}});
  b.set_signed(kNice, 2);
  add_thread(s, 3, "c", "app", {{kRunTimeNs, ~0ULL}, {delay_metric(0, kDelayMin), 25}},
             {{kPolicy, "SCHED_FIFO"}});
  const auto groups = group_threads(s, [](const ThreadRecord& t) { return t.pcomm; });
  REQUIRE(groups.size() == 1);
  const Group& g = groups.at("app");
  CHECK(g.threads == 3);
  CHECK(g.values[kRunTimeNs].scalar == static_cast<long double>(~0ULL));  // saturated, not wrapped
  CHECK(g.values[kWaitTimeNs].scalar == 200);
  CHECK(g.values[kWaitMax].scalar == 90);
  CHECK(g.values[delay_metric(0, kDelayMin)].scalar == 25);  // smallest non-zero
  CHECK(g.values[kProcessor] == AggValue{AggValue::Range, 0, 0, 3, {}});
  CHECK(g.values[kNice] == AggValue{AggValue::Range, 0, -5, 2, {}});
  CHECK(g.values[kPolicy].text == "SCHED_FIFO");  // most frequent
  CHECK(g.values[kWaitSum].kind == AggValue::None);
  // Derived.
  CHECK(g.values[kFirstAvgDelay].scalar == 100);                // 300 / 3
  CHECK(g.values[kAvgSliceNs].kind == AggValue::None);          // zero timeslices
  CHECK(g.values[kInvoluntaryCswRatio].scalar == 0.5);          // 4 / 8
  CHECK(g.values[kDiskIoFraction].kind == AggValue::None);      // rchar 0
  CHECK(g.values[kAvgWaitNs].kind == AggValue::None);           // no schedstats
  CHECK(g.values[kTotalOffcpuDelayNs].kind == AggValue::None);  // other buckets missing
  CHECK(g.alive_ns.has_value() == false);                       // no start time

  Group d;
  for (std::size_t b2 = 0; b2 < 8; ++b2)
    d.values[delay_metric(b2, kDelayTotal)] = AggValue::of(b2 + 1);
  d.values[kRunTimeNs] = AggValue::of(300);
  d.values[kWaitTimeNs] = AggValue::of(100);
  derive(d);
  // cpu 1 + blkio 2 + freepages 4 + compact 6 + wpcopy 7 + irq 8 + max(swapin 3, thrashing 5)
  CHECK(d.values[kTotalOffcpuDelayNs].scalar == 33);
  CHECK(d.values[kCpuEfficiency].scalar == 0.75L);
}

TEST_CASE("ctprof compare table, arrow layout (golden)") {
  auto [b, c] = scenario();
  const std::string out =
      render_compare(b, c, flags({"--metrics", "voluntary_csw,wait_time_ns,stime_clock_ticks"}));
  CHECK(out == R"(## Primary metrics
pcomm                         threads  metric             value                   delta         %  %uptime
kworker/{N}:{N}-mm_percpu_wq      2→3  voluntary_csw       8.697K → 101.154K   +92.457K  +1063.1%     100%
kworker/{N}:{N}-mm_percpu_wq      2→3  wait_time_ns        2.684s → 27.653s    +24.969s   +930.3%     100%
kworker/{N}:{N}-mm_percpu_wq      2→3  stime_clock_ticks  22ticks → 217ticks  +195ticks   +886.4%     100%
sshd                                1  voluntary_csw           22 → 11              -11    -50.0%      77%
sshd                                1  wait_time_ns           0ns → 5.000us    +5.000us         -      77%
sshd                                1  stime_clock_ticks   3ticks → 3ticks       0ticks      0.0%      77%
gone                              1→-  wait_time_ns             - → -                 -         -       6%
gone                              1→-  voluntary_csw            5 → -                 -         -       6%
gone                              1→-  stime_clock_ticks        - → -                 -         -       6%

1 group(s) only in baseline (baseline):
  gone
)");
}

namespace {

// Two processes whose delay buckets grow between the snapshots.
std::pair<Snapshot, Snapshot> delay_scenario() {
  Snapshot b = empty_snapshot(100), c = empty_snapshot(100);
  auto fill = [](ThreadRecord& t, std::uint64_t cpu_total, std::uint64_t blkio_total,
                 std::uint64_t cpu_count) {
    for (std::size_t k = 0; k < 8; ++k) {
      t.set(delay_metric(k, kDelayCount), k == 0 ? cpu_count : k == 1 ? 1 : 0);
      t.set(delay_metric(k, kDelayTotal), k == 0 ? cpu_total : k == 1 ? blkio_total : 0);
    }
    t.set(kStartTimeTicks, 100);
  };
  fill(add_thread(b, 1, "db", "db", {}), 1000, 0, 10);
  fill(add_thread(b, 2, "web", "web", {}), 2000, 0, 4);
  fill(add_thread(c, 1, "db", "db", {}), 9000, 500, 10);
  fill(add_thread(c, 2, "web", "web", {}), 18000, 0, 4);
  return {b, c};
}

const char* kDelayMetrics =
    "cpu_delay_total_ns,avg_cpu_delay_ns,total_offcpu_delay_ns,blkio_delay_total_ns";

}  // namespace

TEST_CASE("ctprof compare: taskstats lens sorted by total_offcpu_delay_ns, full layout (golden)") {
  auto [b, c] = delay_scenario();
  const std::string out = render_compare(
      b, c,
      flags({"--sections", "taskstats-delay", "--sort-by", "total_offcpu_delay_ns:desc",
             "--metrics", kDelayMetrics, "--display-format", "full"}));
  CHECK(out == R"(## Taskstats delay
pcomm  threads  metric                 baseline  candidate      delta        %  %uptime
web          1  cpu_delay_total_ns      2.000us   18.000us  +16.000us  +800.0%     100%
web          1  avg_cpu_delay_ns          500ns    4.500us   +4.000us  +800.0%     100%
web          1  total_offcpu_delay_ns   2.000us   18.000us  +16.000us  +800.0%     100%
web          1  blkio_delay_total_ns        0ns        0ns        0ns        -     100%
db           1  total_offcpu_delay_ns   1.000us    9.500us   +8.500us  +850.0%     100%
db           1  cpu_delay_total_ns      1.000us    9.000us   +8.000us  +800.0%     100%
db           1  avg_cpu_delay_ns          100ns      900ns     +800ns  +800.0%     100%
db           1  blkio_delay_total_ns        0ns      500ns     +500ns        -     100%
)");
  // Ascending puts the smaller growth first; the default order ranks by biggest % mover (db).
  const std::string asc = render_compare(
      b, c, flags({"--sections", "taskstats-delay", "--sort-by", "total_offcpu_delay_ns:asc"}));
  CHECK(asc.find("\ndb ") < asc.find("\nweb "));
  const std::string dflt = render_compare(b, c, flags({"--sections", "taskstats-delay"}));
  CHECK(dflt.find("\ndb ") < dflt.find("\nweb "));
  CHECK(dflt.find("## Primary metrics") == std::string::npos);
  CHECK(dflt.find("## Derived metrics") == std::string::npos);
  // The lens keeps every bucket's raw counters and all nine delay derivations.
  for (std::string_view bucket : kDelayBuckets) {
    const std::string c0(bucket);
    CHECK(dflt.find(" " + c0 + "_delay_count ") != std::string::npos);
    CHECK(dflt.find(" avg_" + c0 + "_delay_ns ") != std::string::npos);
  }
  CHECK(dflt.find(" total_offcpu_delay_ns ") != std::string::npos);
}

TEST_CASE("ctprof compare: --limit, every section heading, groups on one side") {
  auto [b, c] = delay_scenario();
  // Four rows per group: the header and db's rows fill five lines, web's are cut.
  const std::string limited =
      render_compare(b, c, flags({"--limit", "5", "--metrics", kDelayMetrics}));
  CHECK(limited.find("\ndb ") != std::string::npos);
  CHECK(limited.find("\nweb ") == std::string::npos);
  CHECK(limited.find("\n... 4 more lines truncated (use --limit 0 for unlimited)\n") !=
        std::string::npos);
  const std::string unlimited =
      render_compare(b, c, flags({"--limit", "0", "--metrics", kDelayMetrics}));
  CHECK(unlimited.find("\nweb ") != std::string::npos);
  CHECK(unlimited.find("truncated") == std::string::npos);

  const std::string all = render_compare(b, c, flags({"--limit", "0"}));
  CHECK(all.find("## Primary metrics\n") == 0);
  CHECK(all.find("\n\n## Taskstats delay\n") != std::string::npos);
  CHECK(all.find("\n\n## Derived metrics\n") != std::string::npos);
  // Every metric of the registry gets a row for each group.
  for (std::size_t id = 0; id < kMetricCount; ++id)
    CHECK(all.find("  " + std::string(metric(id).name) + " ") != std::string::npos);
  // A metric no thread provides renders as "-" on both sides.
  CHECK(words(line_with(all, " wait_sum ")) ==
        std::vector<std::string>{"db", "1", "wait_sum", "-", "→", "-", "-", "-", "100%"});
}

TEST_CASE("ctprof show: one snapshot grouped and ranked (golden)") {
  auto [b, c] = delay_scenario();
  (void)b;
  std::vector<std::string> positional;
  const auto o = parse_report_flags(
      {"--metrics", "cpu_delay_total_ns,avg_cpu_delay_ns,nice", "--sort-by", "cpu_delay_total_ns"},
      positional, ReportKind::Show);
  CHECK(render_show(c, o) == R"(## Primary metrics
pcomm  threads  metric  value
web          1  nice        -
db           1  nice        -

## Taskstats delay
pcomm  threads  metric                 value
web          1  cpu_delay_total_ns  18.000us
web          1  avg_cpu_delay_ns     4.500us
db           1  cpu_delay_total_ns   9.000us
db           1  avg_cpu_delay_ns       900ns
)");
}

TEST_CASE("ctprof flags: values, both spellings, and rejections listing valid names") {
  std::vector<std::string> positional;
  const auto o = parse_report_flags(
      {"a.zst", "--group-by=comm", "--sections", "primary,derived", "--sort-by",
       "run_time_ns:ASC, wait_time_ns", "b.zst", "--limit=3", "--cgroup-flatten", "/k/*",
       "--cgroup-flatten=/j/*", "--no-thread-normalize", "--no-cg-normalize"},
      positional, ReportKind::Compare);
  CHECK(positional == std::vector<std::string>{"a.zst", "b.zst"});
  CHECK(o.group_by == GroupBy::Comm);
  CHECK(o.sections == std::set<Section>{Section::Primary, Section::Derived});
  REQUIRE(o.sort_by.size() == 2);
  CHECK(o.sort_by[0].metric == kRunTimeNs);
  CHECK_FALSE(o.sort_by[0].descending);
  CHECK(o.sort_by[1].descending);
  CHECK(o.limit == 3);
  CHECK(o.cgroup_flatten == std::vector<std::string>{"/k/*", "/j/*"});
  CHECK(o.no_thread_normalize);
  CHECK(o.no_cg_normalize);
  CHECK(o.shows(kRunTimeNs));
  CHECK_FALSE(o.shows(delay_metric(0, kDelayCount)));

  auto error_of = [](std::vector<std::string> args, bool compare = true) {
    std::vector<std::string> pos;
    try {
      parse_report_flags(args, pos, compare ? ReportKind::Compare : ReportKind::Show);
    } catch (const UsageError& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  const std::string bad_metric = error_of({"--metrics", "run_time_ns,bogus_ns"});
  CHECK(bad_metric.find("unknown metric 'bogus_ns' in --metrics") == 0);
  CHECK(bad_metric.find("total_offcpu_delay_ns") != std::string::npos);  // lists valid names
  CHECK(
      error_of({"--sections", "delay"}).find("valid sections: primary, taskstats-delay, derived") !=
      std::string::npos);
  CHECK(error_of({"--group-by", "pid"}).find("valid: all, pcomm, comm, comm-exact, cgroup") !=
        std::string::npos);
  CHECK(error_of({"--sort-by", "nope:desc"}).find("unknown metric 'nope' in --sort-by") == 0);
  CHECK(error_of({"--sort-by", "run_time_ns:up"}).find("use asc or desc") != std::string::npos);
  CHECK(error_of({"--sort-by", "policy"}).find("only numeric metrics") != std::string::npos);
  CHECK(error_of({"--display-format", "wide"})
            .find("valid: full, delta-only, no-pct, arrow, pct-only") != std::string::npos);
  CHECK(error_of({"--display-format", "full"}, false).find("unknown flag --display-format") == 0);
  CHECK(error_of({"--limit", "-1"}).find("number of lines") != std::string::npos);
  CHECK(error_of({"--limit"}) == "--limit needs a value");
  CHECK(error_of({"--sort-by", "run_time_ns,run_time_ns"}).find("duplicate metric") == 0);
  CHECK(error_of({"--sort-by", "run_time_ns,,wait_sum"}).find("empty entry") == 0);
  CHECK(error_of({"--columns", "group,value"}).find("unknown column 'value'") == 0);
  CHECK(error_of({"--columns", "group,baseline"}, false).find("unknown column 'baseline'") == 0);
  CHECK(error_of({"--columns", "arrow,baseline"}).find("arrow already shows") != std::string::npos);
  CHECK(error_of({"--columns", "metric,metric"}).find("duplicate column") == 0);
  CHECK(error_of({"--cgroup-flatten", "/a/[b"}).find("unclosed '['") != std::string::npos);
  CHECK(error_of({"--wrap"}).find("--wrap is not supported") == 0);
  CHECK(error_of({"--no-cg-normalize=yes"}) == "--no-cg-normalize takes no value");
  CHECK(error_of({"--colour", "yes"}).find("unknown flag --colour") == 0);
}

TEST_CASE("ctprof metric-list names every metric with section, unit, rule and source") {
  const std::string list = render_metric_list();
  std::size_t lines = 0;
  for (char ch : list) lines += ch == '\n';
  CHECK(lines == kMetricCount + 1 + 4);  // the header, a row per metric, the gating legend
  CHECK(list.find("\ngating: [NAME] needs a kernel built with CONFIG_NAME;") != std::string::npos);
  const auto total = words(line_with(list, "total_offcpu_delay_ns "));
  REQUIRE(total.size() > 7);
  CHECK(std::vector<std::string>(total.begin(), total.begin() + 8) ==
        std::vector<std::string>{"total_offcpu_delay_ns", "taskstats-delay", "ns", "derived",
                                 "[TASKSTATS]", "[TASK_DELAY_ACCT]", "[delayacct=on]", "cpu"});
  CHECK(list.find("metric  ") == 0);
  CHECK(words(line_with(list, "metric ")) ==
        std::vector<std::string>{"metric", "section", "unit", "aggregation", "gating", "source"});
  const auto wait_sum = words(line_with(list, "wait_sum "));
  CHECK(std::vector<std::string>(wait_sum.begin(), wait_sum.begin() + 6) ==
        std::vector<std::string>{"wait_sum", "primary", "ns", "sum", "[SCHED_DEBUG]",
                                 "[SCHEDSTATS]"});
  CHECK(words(line_with(list, "minflt "))[4] == "-");  // ungated
  const auto heap = words(line_with(list, "live_heap_estimate "));
  CHECK(std::vector<std::string>(heap.begin(), heap.begin() + 6) ==
        std::vector<std::string>{"live_heap_estimate", "derived", "bytes", "derived", "[jemalloc]",
                                 "[ptrace]"});
  // Every metric has a gating cell and a source.
  for (std::size_t id = 0; id < kMetricCount; ++id)
    CHECK(words(line_with(list, std::string(metric(id).name) + " ")).size() >= 6);
  const auto nice = words(line_with(list, "nice "));
  CHECK(std::vector<std::string>(nice.begin(), nice.begin() + 4) ==
        std::vector<std::string>{"nice", "primary", "number", "range"});
  const auto wait_max = words(line_with(list, "wait_max "));
  CHECK(wait_max[3] == "max");
}
