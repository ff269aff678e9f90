#include "help.h"

#include <string>

namespace dsched::ctprof {
namespace {

constexpr std::string_view kUsage =
    "usage: dsched ctprof capture -o FILE [--proc-root DIR] [--cgroup-root DIR] [--sys-root DIR]\n"
    "                             [--no-taskstats] [--no-jemalloc] [--jemalloc-pid PID]\n"
    "       dsched ctprof compare BASELINE CANDIDATE [flags]\n"
    "       dsched ctprof show FILE [flags]\n"
    "       dsched ctprof metric-list\n"
    "`dsched ctprof COMMAND --help` describes a command and its flags.\n";

constexpr std::string_view kCapture =
    "usage: dsched ctprof capture -o FILE [flags]\n"
    "\n"
    "Walks /proc once and writes a zstd-compressed JSON snapshot of every thread: scheduling,\n"
    "memory, I/O and taskstats delay counters, plus each cgroup's cpu/memory/pids files and\n"
    "pressure, host pressure, smaps_rollup of every process, the sched_ext state and the host\n"
    "context (kernel, CPU model, memory, sched_* tunables, command line). Threads of processes\n"
    "linking libjemalloc also get their allocated/deallocated bytes: each such thread is stopped\n"
    "for a moment with PTRACE_SEIZE/PTRACE_INTERRUPT (never SIGSTOP) and released at once.\n"
    "A source that cannot be read is counted and summarised on stderr, never fatal.\n"
    "\n"
    "  -o, --output FILE    where to write; an existing file is replaced only when it is a\n"
    "                       snapshot, never through a symbolic link\n"
    "  --proc-root DIR      read another /proc tree (a container's, a test tree); jemalloc\n"
    "                       probing is then skipped\n"
    "  --cgroup-root DIR    the cgroup v2 mount (default: found in /proc/self/mountinfo)\n"
    "  --sys-root DIR       where kernel/sched_ext is looked for (default /sys)\n"
    "  --no-taskstats       skip the TASKSTATS netlink queries (delay metrics read '-')\n"
    "  --no-jemalloc        do not probe jemalloc-linked processes (no ptrace at all)\n"
    "  --jemalloc-pid PID   probe only this process (repeatable)\n";

constexpr std::string_view kReportFlags =
    "  --group-by all|pcomm|comm|comm-exact|cgroup\n"
    "                       grouping axis (compare: all, show: pcomm); all prints one block per\n"
    "                       axis: cgroup, then pcomm, then comm\n"
    "  --cgroup-flatten GLOB  cgroup paths matching GLOB group as GLOB (repeatable; the first\n"
    "                       match wins), e.g. '/kubepods/*/pod-*'\n"
    "  --no-thread-normalize  group pcomm/comm (and smaps_rollup) by literal name\n"
    "  --no-cg-normalize    group cgroups by literal path (after --cgroup-flatten)\n"
    "  --sections a,b       primary, taskstats-delay, derived, cgroup-stats, cgroup-limits,\n"
    "                       memory-stat, memory-events, pressure, host-pressure, smaps-rollup,\n"
    "                       sched-ext (the cgroup ones need a cgroup axis)\n"
    "  --metrics m1,m2      only these metric rows (see metric-list)\n"
    "  --sort-by m[:asc|desc],...  rank groups by these metrics, later keys break ties\n"
    "  --columns c1,c2      table columns in this order\n"
    "  --limit N            lines per section (default 500, 0: no limit)\n";

constexpr std::string_view kCompare =
    "usage: dsched ctprof compare BASELINE CANDIDATE [flags]\n"
    "\n"
    "Diffs two snapshots (dsched's or ktstr's) group by group: one row per (group, metric) with\n"
    "baseline → candidate, delta, % and %uptime, biggest movers first. Groups on one side only\n"
    "are listed after each block; under --group-by all, cgroups renamed between the snapshots\n"
    "whose thread populations match are joined ([fudged: ...]) and listed at the end.\n"
    "\n"
    "  --display-format arrow|full|delta-only|no-pct|pct-only\n"
    "                       value columns (default arrow: one 'baseline → candidate' column)\n"
    "  --columns            group, threads, metric, baseline, candidate, delta, %, arrow, tags,\n"
    "                       uptime\n";

constexpr std::string_view kShow =
    "usage: dsched ctprof show FILE [flags]\n"
    "\n"
    "Prints one snapshot grouped like compare: one value per (group, metric).\n"
    "\n"
    "  --columns            group, threads, metric, value, tags, uptime\n";

constexpr std::string_view kMetricList =
    "usage: dsched ctprof metric-list\n"
    "\n"
    "Prints every metric with its section, unit, aggregation rule across a group's threads,\n"
    "the kernel options, toggles or privileges it needs, and where it comes from.\n";

std::string compose(std::string_view head, bool report_flags) {
  std::string out(head);
  if (report_flags) out += kReportFlags;
  return out;
}

}  // namespace

std::string_view usage_text() { return kUsage; }

std::string_view help_text(std::string_view command) {
  static const std::string compare = compose(kCompare, true);
  static const std::string show = compose(kShow, true);
  if (command == "capture") return kCapture;
  if (command == "compare") return compare;
  if (command == "show") return show;
  if (command == "metric-list") return kMetricList;
  return {};
}

}  // namespace dsched::ctprof
