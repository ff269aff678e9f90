#include "metrics.h"

#include <array>
#include <deque>
#include <stdexcept>
#include <string>

namespace dsched::ctprof {
namespace {

struct Registry {
  std::array<MetricDef, kMetricCount> defs{};
  std::deque<std::string> generated_names;  // storage for the names built from bucket names

  std::string_view keep(std::string s) { return generated_names.emplace_back(std::move(s)); }

  void set(std::size_t id, std::string_view name, Section s, Unit u, Agg a, std::string_view src,
           std::string_view gating = "", bool is_signed = false) {
    defs[id] = MetricDef{name, s, u, a, src, gating, is_signed};
  }

  Registry() {
    const auto P = Section::Primary;
    constexpr std::string_view kSchedInfo = "SCHED_INFO";
    constexpr std::string_view kSchedDebug = "SCHED_DEBUG";
    constexpr std::string_view kSchedstats = "SCHED_DEBUG,SCHEDSTATS";
    constexpr std::string_view kIoAcct = "TASK_IO_ACCOUNTING";
    set(kRunTimeNs, "run_time_ns", P, Unit::Ns, Agg::Sum,
        "schedstat field 1 (time on cpu; taskstats cpu_run_virtual_total when queried)",
        kSchedInfo);
    set(kWaitTimeNs, "wait_time_ns", P, Unit::Ns, Agg::Sum,
        "schedstat field 2 (runqueue wait; taskstats cpu_delay_total when queried)", kSchedInfo);
    set(kTimeslices, "timeslices", P, Unit::Count, Agg::Sum,
        "schedstat field 3 (timeslices run; taskstats cpu_count when queried)", kSchedInfo);
    set(kVoluntaryCsw, "voluntary_csw", P, Unit::Count, Agg::Sum,
        "sched nr_voluntary_switches (status voluntary_ctxt_switches without sched)");
    set(kNonvoluntaryCsw, "nonvoluntary_csw", P, Unit::Count, Agg::Sum,
        "sched nr_involuntary_switches (status nonvoluntary_ctxt_switches without sched)");
    set(kState, "state", P, Unit::Text, Agg::Mode, "stat field 3 (state letter)");
    set(kNrThreads, "nr_threads", P, Unit::Count, Agg::Max, "stat field 20 (leader only; gauge)");
    set(kMinflt, "minflt", P, Unit::Count, Agg::Sum, "stat field 10");
    set(kMajflt, "majflt", P, Unit::Count, Agg::Sum, "stat field 12");
    set(kUtimeTicks, "utime_clock_ticks", P, Unit::Ticks, Agg::Sum, "stat field 14");
    set(kStimeTicks, "stime_clock_ticks", P, Unit::Ticks, Agg::Sum, "stat field 15");
    set(kPriority, "priority", P, Unit::Number, Agg::Range, "stat field 18", "", true);
    set(kNice, "nice", P, Unit::Number, Agg::Range, "stat field 19", "", true);
    set(kRtPriority, "rt_priority", P, Unit::Number, Agg::Range, "stat field 40");
    set(kPolicy, "policy", P, Unit::Text, Agg::Mode, "stat field 41 (SCHED_* name)");
    set(kProcessor, "processor", P, Unit::Number, Agg::Range, "stat field 39 (last cpu)");
    set(kStartTimeTicks, "start_time_clock_ticks", P, Unit::Ticks, Agg::Earliest,
        "stat field 22 (ticks after boot)");
    set(kCpuAffinity, "cpu_affinity", P, Unit::Text, Agg::Mode, "sched_getaffinity (cpu list)");

    struct SchedField {
      std::size_t id;
      std::string_view name;
      Unit unit;
      Agg agg;
    };
    const SchedField sched_fields[] = {
        {kNrWakeups, "nr_wakeups", Unit::Count, Agg::Sum},
        {kNrWakeupsLocal, "nr_wakeups_local", Unit::Count, Agg::Sum},
        {kNrWakeupsRemote, "nr_wakeups_remote", Unit::Count, Agg::Sum},
        {kNrWakeupsSync, "nr_wakeups_sync", Unit::Count, Agg::Sum},
        {kNrWakeupsMigrate, "nr_wakeups_migrate", Unit::Count, Agg::Sum},
        {kNrWakeupsAffine, "nr_wakeups_affine", Unit::Count, Agg::Sum},
        {kNrWakeupsAffineAttempts, "nr_wakeups_affine_attempts", Unit::Count, Agg::Sum},
        {kNrMigrations, "nr_migrations", Unit::Count, Agg::Sum},
        {kNrForcedMigrations, "nr_forced_migrations", Unit::Count, Agg::Sum},
        {kNrFailedMigrationsAffine, "nr_failed_migrations_affine", Unit::Count, Agg::Sum},
        {kNrFailedMigrationsRunning, "nr_failed_migrations_running", Unit::Count, Agg::Sum},
        {kNrFailedMigrationsHot, "nr_failed_migrations_hot", Unit::Count, Agg::Sum},
        {kWaitSum, "wait_sum", Unit::Ns, Agg::Sum},
        {kWaitCount, "wait_count", Unit::Count, Agg::Sum},
        {kWaitMax, "wait_max", Unit::Ns, Agg::Max},
        {kSleepMax, "sleep_max", Unit::Ns, Agg::Max},
        {kBlockSum, "block_sum", Unit::Ns, Agg::Sum},
        {kBlockMax, "block_max", Unit::Ns, Agg::Max},
        {kIowaitSum, "iowait_sum", Unit::Ns, Agg::Sum},
        {kIowaitCount, "iowait_count", Unit::Count, Agg::Sum},
        {kExecMax, "exec_max", Unit::Ns, Agg::Max},
        {kSliceMax, "slice_max", Unit::Ns, Agg::Max},
    };
    for (const auto& f : sched_fields) {
      const bool always = f.id == kNrMigrations;
      set(f.id, f.name, P, f.unit, f.agg, always ? "sched se.nr_migrations" : "sched stats.*",
          always ? kSchedDebug : kSchedstats);
    }
    set(kVoluntarySleepNs, "voluntary_sleep_ns", P, Unit::Ns, Agg::Sum,
        "sched sum_sleep_runtime - sum_block_runtime", kSchedstats);
    set(kCoreForceidleSum, "core_forceidle_sum", P, Unit::Ns, Agg::Sum, "sched core_forceidle_sum",
        "SCHED_DEBUG,SCHEDSTATS,SCHED_CORE");
    set(kFairSliceNs, "fair_slice_ns", P, Unit::Ns, Agg::Max,
        "sched se.slice (fair policies only; gauge)", kSchedDebug);
    set(kExtEnabled, "ext_enabled", P, Unit::Text, Agg::Mode, "sched ext.enabled (true/false)",
        "SCHED_DEBUG,SCHED_CLASS_EXT");

    set(kRchar, "rchar", P, Unit::Bytes, Agg::Sum, "io rchar", kIoAcct);
    set(kWchar, "wchar", P, Unit::Bytes, Agg::Sum, "io wchar", kIoAcct);
    set(kReadBytes, "read_bytes", P, Unit::Bytes, Agg::Sum, "io read_bytes", kIoAcct);
    set(kWriteBytes, "write_bytes", P, Unit::Bytes, Agg::Sum, "io write_bytes", kIoAcct);
    set(kCancelledWriteBytes, "cancelled_write_bytes", P, Unit::Bytes, Agg::Sum,
        "io cancelled_write_bytes", kIoAcct);
    set(kSyscr, "syscr", P, Unit::Count, Agg::Sum, "io syscr", kIoAcct);
    set(kSyscw, "syscw", P, Unit::Count, Agg::Sum, "io syscw", kIoAcct);
    constexpr std::string_view kJemalloc = "jemalloc,ptrace";
    set(kAllocatedBytes, "allocated_bytes", P, Unit::Bytes, Agg::Sum,
        "jemalloc thread_allocated (processes linking libjemalloc)", kJemalloc);
    set(kDeallocatedBytes, "deallocated_bytes", P, Unit::Bytes, Agg::Sum,
        "jemalloc thread_deallocated (processes linking libjemalloc)", kJemalloc);

    const auto T = Section::TaskstatsDelay;
    for (std::size_t b = 0; b < 8; ++b) {
      const std::string c(kDelayBuckets[b]);
      // The cpu bucket is run-delay accounting, filled without the delayacct toggle.
      const std::string_view gate =
          b == 0 ? "TASKSTATS,TASK_DELAY_ACCT" : "TASKSTATS,TASK_DELAY_ACCT,delayacct=on";
      set(delay_metric(b, kDelayCount), keep(c + "_delay_count"), T, Unit::Count, Agg::Sum,
          keep("taskstats " + c + "_count"), gate);
      set(delay_metric(b, kDelayTotal), keep(c + "_delay_total_ns"), T, Unit::Ns, Agg::Sum,
          keep("taskstats " + c + "_delay_total"), gate);
      set(delay_metric(b, kDelayMax), keep(c + "_delay_max_ns"), T, Unit::Ns, Agg::Max,
          keep("taskstats " + c + "_delay_max (v16+)"), gate);
      set(delay_metric(b, kDelayMin), keep(c + "_delay_min_ns"), T, Unit::Ns, Agg::MinNonZero,
          keep("taskstats " + c + "_delay_min (v16+)"), gate);
      set(kFirstAvgDelay + b, keep("avg_" + c + "_delay_ns"), T, Unit::Ns, Agg::Derived,
          keep(c + "_delay_total_ns / " + c + "_delay_count"), gate);
    }
    set(kHiwaterRssBytes, "hiwater_rss_bytes", T, Unit::Bytes, Agg::Max, "taskstats hiwater_rss",
        "TASKSTATS,TASK_XACCT");
    set(kHiwaterVmBytes, "hiwater_vm_bytes", T, Unit::Bytes, Agg::Max, "taskstats hiwater_vm",
        "TASKSTATS,TASK_XACCT");
    set(kTotalOffcpuDelayNs, "total_offcpu_delay_ns", T, Unit::Ns, Agg::Derived,
        "cpu + blkio + freepages + compact + wpcopy + irq + max(swapin, thrashing) delay totals",
        "TASKSTATS,TASK_DELAY_ACCT,delayacct=on");

    const auto D = Section::Derived;
    set(kAvgWaitNs, "avg_wait_ns", D, Unit::Ns, Agg::Derived, "wait_sum / wait_count", kSchedstats);
    set(kAvgIowaitNs, "avg_iowait_ns", D, Unit::Ns, Agg::Derived, "iowait_sum / iowait_count",
        kSchedstats);
    set(kAffineSuccessRatio, "affine_success_ratio", D, Unit::Ratio, Agg::Derived,
        "nr_wakeups_affine / nr_wakeups_affine_attempts (fair class only)", kSchedstats);
    set(kCpuEfficiency, "cpu_efficiency", D, Unit::Ratio, Agg::Derived,
        "run_time_ns / (run_time_ns + wait_time_ns)", kSchedInfo);
    set(kAvgSliceNs, "avg_slice_ns", D, Unit::Ns, Agg::Derived, "run_time_ns / timeslices",
        kSchedInfo);
    set(kInvoluntaryCswRatio, "involuntary_csw_ratio", D, Unit::Ratio, Agg::Derived,
        "nonvoluntary_csw / (voluntary_csw + nonvoluntary_csw)");
    set(kDiskIoFraction, "disk_io_fraction", D, Unit::Ratio, Agg::Derived, "read_bytes / rchar",
        kIoAcct);
    set(kLiveHeapEstimate, "live_heap_estimate", D, Unit::Bytes, Agg::Derived,
        "allocated_bytes - deallocated_bytes (signed)", kJemalloc, true);

    for (std::size_t id = 0; id < kMetricCount; ++id)
      if (defs[id].name.empty()) throw std::logic_error("ctprof metric registry has a gap");
  }
};

const Registry& registry() {
  static const Registry r;
  return r;
}

}  // namespace

const MetricDef& metric(std::size_t id) { return registry().defs.at(id); }

std::optional<std::size_t> find_metric(std::string_view name) {
  const auto& defs = registry().defs;
  for (std::size_t id = 0; id < defs.size(); ++id)
    if (defs[id].name == name) return id;
  return std::nullopt;
}

namespace {

struct SectionNames {
  Section section;
  std::string_view name, heading;
};

constexpr SectionNames kSectionNames[] = {
    {Section::Primary, "primary", "Primary metrics"},
    {Section::TaskstatsDelay, "taskstats-delay", "Taskstats delay"},
    {Section::Derived, "derived", "Derived metrics"},
    {Section::CgroupStats, "cgroup-stats", "Cgroup stats"},
    {Section::CgroupLimits, "cgroup-limits", "Cgroup limits / knobs"},
    {Section::MemoryStat, "memory-stat", "memory.stat"},
    {Section::MemoryEvents, "memory-events", "memory.events"},
    {Section::Pressure, "pressure", "Pressure"},
    {Section::HostPressure, "host-pressure", "Host pressure"},
    {Section::SmapsRollup, "smaps-rollup", "smaps_rollup"},
    {Section::SchedExt, "sched-ext", "sched_ext"},
};

const SectionNames& names_of(Section s) {
  for (const auto& n : kSectionNames)
    if (n.section == s) return n;
  throw std::logic_error("ctprof section without a name");
}

}  // namespace

std::string_view section_name(Section s) { return names_of(s).name; }
std::string_view section_heading(Section s) { return names_of(s).heading; }

std::optional<Section> find_section(std::string_view name) {
  for (const auto& n : kSectionNames)
    if (n.name == name) return n.section;
  return std::nullopt;
}

bool is_cgroup_section(Section s) {
  return s == Section::CgroupStats || s == Section::CgroupLimits || s == Section::MemoryStat ||
         s == Section::MemoryEvents || s == Section::Pressure;
}

bool is_metric_section(Section s) {
  return s == Section::Primary || s == Section::TaskstatsDelay || s == Section::Derived;
}

std::string_view unit_name(Unit u) {
  switch (u) {
    case Unit::Count: return "count";
    case Unit::Ns: return "ns";
    case Unit::Ticks: return "ticks";
    case Unit::Bytes: return "bytes";
    case Unit::Ratio: return "ratio";
    case Unit::Number: return "number";
    case Unit::Text: return "text";
  }
  return "?";
}

std::string_view agg_name(Agg a) {
  switch (a) {
    case Agg::Sum: return "sum";
    case Agg::Max: return "max";
    case Agg::MinNonZero: return "min-nonzero";
    case Agg::Earliest: return "earliest";
    case Agg::Range: return "range";
    case Agg::Mode: return "mode";
    case Agg::Derived: return "derived";
  }
  return "?";
}

std::string all_metric_names() {
  std::string out;
  for (const auto& d : registry().defs) {
    if (!out.empty()) out += ", ";
    out += d.name;
  }
  return out;
}

std::string all_section_names() {
  std::string out;
  for (const auto& n : kSectionNames) {
    if (!out.empty()) out += ", ";
    out += n.name;
  }
  return out;
}

std::string gating_tags(const MetricDef& def) {
  std::string out;
  std::string_view rest = def.gating;
  while (!rest.empty()) {
    const auto comma = rest.find(',');
    if (!out.empty()) out += ' ';
    out += '[';
    out += rest.substr(0, comma);
    out += ']';
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
  }
  return out;
}

}  // namespace dsched::ctprof
