// The report layouts: --group-by all's three blocks, renamed-cgroup fudging, the cgroup,
// pressure, smaps_rollup and sched_ext tables, display formats, columns and multi-key sorting.
#include <doctest/doctest.h>

#include "options.h"
#include "report.h"
#include "snapshot_builder.h"

using namespace dsched::ctprof;
using ctprof_test::add_thread;
using ctprof_test::empty_snapshot;

namespace {

ReportOptions compare_flags(std::vector<std::string> args) {
  std::vector<std::string> positional;
  return parse_report_flags(args, positional, ReportKind::Compare);
}

ReportOptions show_flags(std::vector<std::string> args) {
  std::vector<std::string> positional;
  return parse_report_flags(args, positional, ReportKind::Show);
}

// The lines of `text` between the line starting with `heading` and the next blank line.
std::string section(const std::string& text, const std::string& heading) {
  const auto start = text.find(heading);
  if (start == std::string::npos) return {};
  const auto end = text.find("\n\n", start);
  return text.substr(start, end == std::string::npos ? std::string::npos : end - start + 1);
}

// The text from `from` to `to` (or the end).
std::string between(const std::string& text, const std::string& from, const std::string& to = "") {
  const auto start = text.find(from);
  if (start == std::string::npos) return {};
  const auto end = to.empty() ? std::string::npos : text.find(to, start + from.size());
  return text.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

ThreadRecord& in_cgroup(ThreadRecord& t, const std::string& cgroup) {
  t.cgroup = cgroup;
  return t;
}

// Baseline and candidate of one service whose cgroup was renamed from blue to green between
// the captures (same 12 kinds of threads, one more in the candidate), with a sidecar child
// cgroup renamed along, and a cgroup that only the baseline has.
std::pair<Snapshot, Snapshot> renamed_cgroups() {
  Snapshot b = empty_snapshot(), c = empty_snapshot();
  const char* kinds[] = {"acceptor", "parser", "router", "cache", "logger", "flusher",
                         "timer",    "reaper", "signal", "stats", "health", "admin"};
  int tid = 100;
  for (const char* kind : kinds) {
    in_cgroup(add_thread(b, tid, kind, "server", {{kRunTimeNs, 1000}, {kStartTimeTicks, 10}}),
              "/svc/blue");
    in_cgroup(add_thread(c, tid, kind, "server", {{kRunTimeNs, 3000}, {kStartTimeTicks, 10}}),
              "/svc/green");
    ++tid;
  }
  in_cgroup(add_thread(c, tid++, "extra", "server", {{kRunTimeNs, 10}, {kStartTimeTicks, 10}}),
            "/svc/green");
  in_cgroup(add_thread(b, 300, "proxy", "sidecar", {{kRunTimeNs, 50}, {kStartTimeTicks, 10}}),
            "/svc/blue/side");
  in_cgroup(add_thread(c, 300, "proxy", "sidecar", {{kRunTimeNs, 70}, {kStartTimeTicks, 10}}),
            "/svc/green/side");
  in_cgroup(add_thread(b, 400, "cron", "cron", {{kRunTimeNs, 5}, {kStartTimeTicks, 10}}), "/other");
  return {b, c};
}

}  // namespace

TEST_CASE(
    "ctprof compare --group-by all (the default): cgroup, pcomm and comm blocks, each limited") {
  auto [b, c] = renamed_cgroups();
  const std::string out =
      render_compare(b, c, compare_flags({"--metrics", "run_time_ns"}), "a.zst", "b.zst");
  const auto cgroup = out.find("## Primary metrics (by cgroup)\ncgroup ");
  const auto pcomm = out.find("## Primary metrics (by pcomm)\npcomm ");
  const auto comm = out.find("## Primary metrics (by comm)\ncomm ");
  REQUIRE(cgroup != std::string::npos);
  REQUIRE(pcomm != std::string::npos);
  REQUIRE(comm != std::string::npos);
  CHECK(cgroup == 0);
  CHECK(cgroup < pcomm);
  CHECK(pcomm < comm);
  // One row per group of each axis.
  CHECK(section(out, "## Primary metrics (by pcomm)") ==
        "## Primary metrics (by pcomm)\n"
        "pcomm    threads  metric       value                    delta        %  %uptime\n"
        "server     12→13  run_time_ns  12.000us → 36.010us  +24.010us  +200.1%     100%\n"
        "sidecar        1  run_time_ns      50ns → 70ns          +20ns   +40.0%     100%\n"
        "cron         1→-  run_time_ns       5ns → -                 -        -     100%\n");
  // Each block lists its own unmatched groups after its tables.
  CHECK(between(out, "## Primary metrics (by pcomm)", "## Primary metrics (by comm)")
            .ends_with("\n1 group(s) only in baseline (a.zst):\n  cron\n\n"));
  CHECK(between(out, "## Primary metrics (by comm)")
            .find("1 group(s) only in candidate (b.zst):\n  extra\n") != std::string::npos);

  // --limit cuts each block's section on its own.
  const std::string limited = render_compare(
      b, c, compare_flags({"--metrics", "run_time_ns", "--limit", "2"}), "a.zst", "b.zst");
  CHECK(between(limited, "## Primary metrics (by pcomm)", "## Primary metrics (by comm)") ==
        "## Primary metrics (by pcomm)\n"
        "pcomm    threads  metric       value                    delta        %  %uptime\n"
        "server     12→13  run_time_ns  12.000us → 36.010us  +24.010us  +200.1%     100%\n"
        "... 2 more lines truncated (use --limit 0 for unlimited)\n"
        "\n1 group(s) only in baseline (a.zst):\n  cron\n\n");
  CHECK(section(limited, "## Primary metrics (by comm)")
            .ends_with(
                "acceptor        1  run_time_ns  1.000us → 3.000us  +2.000us  +200.0%     100%\n"
                "... 14 more lines truncated (use --limit 0 for unlimited)\n"));
}

TEST_CASE("ctprof compare --group-by all joins a renamed cgroup and its children (fudging)") {
  auto [b, c] = renamed_cgroups();
  const std::string out =
      render_compare(b, c, compare_flags({"--metrics", "run_time_ns"}), "a.zst", "b.zst");
  const std::string block =
      between(out, "## Primary metrics (by cgroup)", "## Primary metrics (by pcomm)");
  CHECK(block ==
        "## Primary metrics (by cgroup)\n"
        "cgroup                         threads  metric       value                    delta       "
        " %  %uptime\n"
        "[fudged: green] /svc/blue        12→13  run_time_ns  12.000us → 36.010us  +24.010us  "
        "+200.1%     100%\n"
        "[fudged: side] /svc/blue/side        1  run_time_ns      50ns → 70ns          +20ns   "
        "+40.0%     100%\n"
        "/other                             1→-  run_time_ns       5ns → -                 -       "
        " -     100%\n"
        "\n"
        "1 group(s) only in baseline (a.zst):\n"
        "  /other\n"
        "\n");
  CHECK(between(out, "\n## Fudged cgroup matches") ==
        "\n## Fudged cgroup matches (1 pair(s))\n"
        "\n"
        "  baseline: /svc/blue\n"
        "  candidate: /svc/green\n"
        "  overlap: 12 thread types, Jaccard: 92.3%, cascaded children: 1\n"
        "  residual (candidate only): server:extra\n");

  // Fudging belongs to --group-by all: grouped by cgroup alone the renamed groups stay apart.
  const std::string plain =
      render_compare(b, c, compare_flags({"--group-by", "cgroup", "--metrics", "run_time_ns"}));
  CHECK(plain.find("fudged") == std::string::npos);
  CHECK(plain.find("3 group(s) only in baseline") != std::string::npos);

  // Too few thread kinds to tell a rename from a coincidence: not joined.
  Snapshot small_b = empty_snapshot(), small_c = empty_snapshot();
  in_cgroup(add_thread(small_b, 1, "a", "p", {{kRunTimeNs, 1}}), "/x/old");
  in_cgroup(add_thread(small_c, 1, "a", "p", {{kRunTimeNs, 1}}), "/x/new");
  CHECK(render_compare(small_b, small_c, compare_flags({})).find("fudged") == std::string::npos);
}

namespace {

CgroupStats stats(std::uint64_t usage, std::uint64_t current, std::uint64_t high) {
  CgroupStats s;
  s.usage_usec = usage;
  s.nr_throttled = 2;
  s.throttled_usec = 500;
  s.max_quota_us = kUnlimited;
  s.max_period_us = 100000;
  s.weight = 100;
  s.memory_current = current;
  s.memory_max = kUnlimited;
  s.memory_high = high;
  s.memory_stat = {{"anon", current}, {"file", 4096}};
  s.memory_events = {{"high", high / 1024}, {"oom", 0}};
  s.pids_current = 3;
  s.pids_max = kUnlimited;
  s.psi.resource[kPsiCpu] = {true, {1234, 500, 10, 2'000'000}, {}};
  return s;
}

std::pair<Snapshot, Snapshot> with_state() {
  Snapshot b = empty_snapshot(), c = empty_snapshot();
  in_cgroup(add_thread(b, 1, "db", "db", {{kRunTimeNs, 1}}), "/db.slice").smaps_kib = {
      {"Rss", 1024}, {"Pss", 512}};
  in_cgroup(add_thread(c, 1, "db", "db", {{kRunTimeNs, 1}}), "/db.slice").smaps_kib = {
      {"Rss", 3072}, {"Pss", 512}};
  b.cgroup_stats["/db.slice"] = stats(1'000'000, 1 << 20, 2 << 20);
  c.cgroup_stats["/db.slice"] = stats(4'000'000, 3 << 20, 4 << 20);
  b.host_psi.resource[kPsiIo] = {true, {100, 50, 25, 1000}, {0, 0, 0, 10}};
  c.host_psi.resource[kPsiIo] = {true, {300, 50, 25, 9000}, {0, 0, 0, 10}};
  b.sched_ext = SchedExtState{"disabled", 0, 0, 5, 1};
  c.sched_ext = SchedExtState{"enabled", 1, 2, 5, 2};
  return {b, c};
}

}  // namespace

TEST_CASE("ctprof compare: cgroup files, pressure, smaps_rollup and sched_ext tables") {
  auto [b, c] = with_state();
  const std::string out =
      render_compare(b, c, compare_flags({"--group-by", "cgroup", "--metrics", "run_time_ns"}));
  CHECK(section(out, "## Cgroup stats") ==
        "## Cgroup stats\n"
        "cgroup     cpu_usage_usec             nr_throttled  throttled_usec               "
        "memory_current\n"
        "/db.slice  1.000s → 4.000s (+3.000s)  2 → 2 (0)     500.000us → 500.000us (0ns)  "
        "1.000MiB → 3.000MiB (+2.000MiB)\n");
  CHECK(section(out, "## Cgroup limits / knobs") ==
        "## Cgroup limits / knobs\n"
        "cgroup     cpu.max     cpu.weight     cpu.weight.nice  memory.max  memory.high            "
        "          "
        "memory.low  memory.min  pids.current  pids.max\n"
        "/db.slice  max/100000  100 → 100 (0)  -                max         2.000MiB → 4.000MiB "
        "(+2.000MiB)  "
        "-           -           3 → 3 (0)     max\n");
  CHECK(section(out, "## memory.stat") ==
        "## memory.stat\ncgroup     key   value\n/db.slice  anon  1.049M → 3.146M (+2.097M)\n");
  CHECK(section(out, "## memory.events") ==
        "## memory.events\ncgroup     event  count\n/db.slice  high   2.048K → 4.096K (+2.048K)\n");
  CHECK(section(out, "## Pressure / cpu").find("/db.slice  some  12.34% → 12.34% (+0.00)") !=
        std::string::npos);
  CHECK(out.find("## Pressure / io") == std::string::npos);  // no cgroup io pressure read
  CHECK(section(out, "## smaps_rollup") ==
        "## smaps_rollup\nprocess  key  value                    delta        %\n"
        "db       Rss  1.000MiB → 3.000MiB  +2.000MiB  +200.0%\n");  // Pss did not move
  CHECK(section(out, "## Host pressure / io").find("some  1.00% → 3.00% (+2.00)") !=
        std::string::npos);
  CHECK(
      section(out, "## sched_ext") ==
      "## sched_ext\nattr         value\nstate        disabled → enabled\nswitch_all   0 → 1 (+1)\n"
      "nr_rejected  0 → 2 (+2)\nhotplug_seq  5 → 5 (0)\nenable_seq   1 → 2 (+1)\n");

  // --sections picks tables; cgroup tables under a process grouping warn and render nothing.
  const ReportOptions pcomm =
      compare_flags({"--group-by", "pcomm", "--sections", "memory-stat,host-pressure"});
  REQUIRE(pcomm.warnings.size() == 1);
  CHECK(pcomm.warnings[0] ==
        "--sections memory-stat needs --group-by cgroup (or all); it renders nothing under "
        "--group-by pcomm");
  const std::string only = render_compare(b, c, pcomm);
  CHECK(only.find("## Host pressure / io") != std::string::npos);
  CHECK(only.find("memory.stat") == std::string::npos);
  CHECK(only.find("## Primary") == std::string::npos);
  // Unchanged sched_ext is not worth a table.
  Snapshot same = b;
  CHECK(render_compare(b, same, compare_flags({})).find("## sched_ext") == std::string::npos);
}

TEST_CASE("ctprof show: the same tables with one value per cell") {
  auto [b, c] = with_state();
  (void)c;
  const std::string out =
      render_show(b, show_flags({"--group-by", "cgroup", "--metrics", "run_time_ns"}));
  CHECK(section(out, "## Cgroup stats") ==
        "## Cgroup stats\ncgroup     cpu_usage_usec  nr_throttled  throttled_usec  memory_current\n"
        "/db.slice  1.000s          2             500.000us       1.000MiB\n");
  CHECK(section(out, "## smaps_rollup") ==
        "## smaps_rollup\nprocess  key       value\ndb       Pss  512.000KiB\ndb       Rss    "
        "1.000MiB\n");
  CHECK(section(out, "## sched_ext").find("state        disabled\n") != std::string::npos);
  CHECK(out.find("## Host pressure / io\nrow   avg10  avg60  avg300  total\nsome  1.00%  0.50%  "
                 "0.25%   1.000ms\n") != std::string::npos);
  // show's default grouping is pcomm.
  CHECK(
      render_show(b, show_flags({"--metrics", "run_time_ns"})).find("## Primary metrics\npcomm ") ==
      0);
}

TEST_CASE("ctprof compare display formats, columns and multi-key sort") {
  Snapshot b = empty_snapshot(), c = empty_snapshot();
  add_thread(b, 1, "a", "a", {{kRunTimeNs, 100}, {kWaitTimeNs, 10}});
  add_thread(c, 1, "a", "a", {{kRunTimeNs, 200}, {kWaitTimeNs, 10}});
  add_thread(b, 2, "b", "b", {{kRunTimeNs, 100}, {kWaitTimeNs, 10}});
  add_thread(c, 2, "b", "b", {{kRunTimeNs, 200}, {kWaitTimeNs, 90}});
  add_thread(b, 3, "z", "z", {{kRunTimeNs, 100}, {kWaitTimeNs, 10}});
  add_thread(c, 3, "z", "z", {{kRunTimeNs, 900}, {kWaitTimeNs, 10}});
  auto render = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = {"--group-by", "pcomm", "--metrics", "run_time_ns"};
    args.insert(args.end(), extra.begin(), extra.end());
    return section(render_compare(b, c, compare_flags(args)), "## Primary metrics");
  };
  CHECK(
      render({"--display-format", "delta-only"}) ==
      "## Primary metrics\npcomm  threads  metric        delta        %\n"
      "z            1  run_time_ns  +800ns  +800.0%\na            1  run_time_ns  +100ns  +100.0%\n"
      "b            1  run_time_ns  +100ns  +100.0%\n");
  CHECK(render({"--display-format", "pct-only"}) ==
        "## Primary metrics\npcomm  threads  metric             %\nz            1  run_time_ns  "
        "+800.0%\n"
        "a            1  run_time_ns  +100.0%\nb            1  run_time_ns  +100.0%\n");
  CHECK(render({"--display-format", "no-pct"})
            .starts_with(
                "## Primary metrics\npcomm  threads  metric       baseline  candidate   delta\n"));
  CHECK(render({"--display-format", "full"})
            .starts_with("## Primary metrics\npcomm  threads  metric       baseline  candidate   "
                         "delta        %  %uptime\n"));
  CHECK(
      render({"--columns", "metric,tags,uptime"}) ==
      "## Primary metrics\nmetric       tags          %uptime\nrun_time_ns  [SCHED_INFO]        -\n"
      "run_time_ns  [SCHED_INFO]        -\nrun_time_ns  [SCHED_INFO]        -\n");
  // Two keys: run_time_ns ties a and b, wait_time_ns then puts b first.
  const std::string sorted =
      render({"--sort-by", "run_time_ns:asc,wait_time_ns:desc", "--columns", "group"});
  CHECK(sorted == "## Primary metrics\npcomm\nb\na\nz\n");
}
