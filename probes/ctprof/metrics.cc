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
           bool is_signed = false) {
    defs[id] = MetricDef{name, s, u, a, src, is_signed};
  }

  Registry() {
    const auto P = Section::Primary;
    set(kRunTimeNs, "run_time_ns", P, Unit::Ns, Agg::Sum, "schedstat field 1 (time on cpu)");
    set(kWaitTimeNs, "wait_time_ns", P, Unit::Ns, Agg::Sum, "schedstat field 2 (runqueue wait)");
    set(kTimeslices, "timeslices", P, Unit::Count, Agg::Sum, "schedstat field 3 (timeslices run)");
    set(kVoluntaryCsw, "voluntary_csw", P, Unit::Count, Agg::Sum, "status voluntary_ctxt_switches");
    set(kNonvoluntaryCsw, "nonvoluntary_csw", P, Unit::Count, Agg::Sum,
        "status nonvoluntary_ctxt_switches");
    set(kState, "state", P, Unit::Text, Agg::Mode, "status State");
    set(kNrThreads, "nr_threads", P, Unit::Count, Agg::Sum, "status Threads (leader only)");
    set(kMinflt, "minflt", P, Unit::Count, Agg::Sum, "stat field 10");
    set(kMajflt, "majflt", P, Unit::Count, Agg::Sum, "stat field 12");
    set(kUtimeTicks, "utime_clock_ticks", P, Unit::Ticks, Agg::Sum, "stat field 14");
    set(kStimeTicks, "stime_clock_ticks", P, Unit::Ticks, Agg::Sum, "stat field 15");
    set(kPriority, "priority", P, Unit::Number, Agg::Range, "stat field 18", true);
    set(kNice, "nice", P, Unit::Number, Agg::Range, "stat field 19", true);
    set(kRtPriority, "rt_priority", P, Unit::Number, Agg::Range, "stat field 40");
    set(kPolicy, "policy", P, Unit::Text, Agg::Mode, "stat field 41 (SCHED_* name)");
    set(kProcessor, "processor", P, Unit::Number, Agg::Range, "stat field 39 (last cpu)");
    set(kStartTimeTicks, "start_time_clock_ticks", P, Unit::Ticks, Agg::Earliest,
        "stat field 22 (ticks after boot)");
    set(kCpuAffinity, "cpu_affinity", P, Unit::Text, Agg::Mode, "sched_getaffinity (cpu list)");

    struct SchedField { std::size_t id; std::string_view name; Unit unit; Agg agg; };
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
      set(f.id, f.name, P, f.unit, f.agg,
          always ? "sched se.nr_migrations" : "sched (needs CONFIG_SCHEDSTATS)");
    }
    set(kVoluntarySleepNs, "voluntary_sleep_ns", P, Unit::Ns, Agg::Sum,
        "sched sum_sleep_runtime - sum_block_runtime (needs CONFIG_SCHEDSTATS)");

    set(kRchar, "rchar", P, Unit::Bytes, Agg::Sum, "io rchar");
    set(kWchar, "wchar", P, Unit::Bytes, Agg::Sum, "io wchar");
    set(kReadBytes, "read_bytes", P, Unit::Bytes, Agg::Sum, "io read_bytes");
    set(kWriteBytes, "write_bytes", P, Unit::Bytes, Agg::Sum, "io write_bytes");
    set(kCancelledWriteBytes, "cancelled_write_bytes", P, Unit::Bytes, Agg::Sum,
        "io cancelled_write_bytes");
    set(kSyscr, "syscr", P, Unit::Count, Agg::Sum, "io syscr");
    set(kSyscw, "syscw", P, Unit::Count, Agg::Sum, "io syscw");

    const auto T = Section::TaskstatsDelay;
    for (std::size_t b = 0; b < 8; ++b) {
      const std::string c(kDelayBuckets[b]);
      set(delay_metric(b, kDelayCount), keep(c + "_delay_count"), T, Unit::Count, Agg::Sum,
          keep("taskstats " + c + "_count"));
      set(delay_metric(b, kDelayTotal), keep(c + "_delay_total_ns"), T, Unit::Ns, Agg::Sum,
          keep("taskstats " + c + "_delay_total"));
      set(delay_metric(b, kDelayMax), keep(c + "_delay_max_ns"), T, Unit::Ns, Agg::Max,
          keep("taskstats " + c + "_delay_max (v16+)"));
      set(delay_metric(b, kDelayMin), keep(c + "_delay_min_ns"), T, Unit::Ns, Agg::MinNonZero,
          keep("taskstats " + c + "_delay_min (v16+)"));
      set(kFirstAvgDelay + b, keep("avg_" + c + "_delay_ns"), T, Unit::Ns, Agg::Derived,
          keep(c + "_delay_total_ns / " + c + "_delay_count"));
    }
    set(kHiwaterRssBytes, "hiwater_rss_bytes", T, Unit::Bytes, Agg::Max, "taskstats hiwater_rss");
    set(kHiwaterVmBytes, "hiwater_vm_bytes", T, Unit::Bytes, Agg::Max, "taskstats hiwater_vm");
    set(kTotalOffcpuDelayNs, "total_offcpu_delay_ns", T, Unit::Ns, Agg::Derived,
        "cpu + blkio + freepages + compact + wpcopy + irq + max(swapin, thrashing) delay totals");

    const auto D = Section::Derived;
    set(kAvgWaitNs, "avg_wait_ns", D, Unit::Ns, Agg::Derived, "wait_sum / wait_count");
    set(kAffineSuccessRatio, "affine_success_ratio", D, Unit::Ratio, Agg::Derived,
        "nr_wakeups_affine / nr_wakeups_affine_attempts");
    set(kCpuEfficiency, "cpu_efficiency", D, Unit::Ratio, Agg::Derived,
        "run_time_ns / (run_time_ns + wait_time_ns)");
    set(kAvgSliceNs, "avg_slice_ns", D, Unit::Ns, Agg::Derived, "run_time_ns / timeslices");
    set(kInvoluntaryCswRatio, "involuntary_csw_ratio", D, Unit::Ratio, Agg::Derived,
        "nonvoluntary_csw / (voluntary_csw + nonvoluntary_csw)");
    set(kDiskIoFraction, "disk_io_fraction", D, Unit::Ratio, Agg::Derived, "read_bytes / rchar");

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

std::string_view section_name(Section s) {
  switch (s) {
    case Section::Primary: return "primary";
    case Section::TaskstatsDelay: return "taskstats-delay";
    case Section::Derived: return "derived";
  }
  return "?";
}

std::string_view section_heading(Section s) {
  switch (s) {
    case Section::Primary: return "Primary metrics";
    case Section::TaskstatsDelay: return "Taskstats delay";
    case Section::Derived: return "Derived metrics";
  }
  return "?";
}

std::optional<Section> find_section(std::string_view name) {
  for (Section s : {Section::Primary, Section::TaskstatsDelay, Section::Derived})
    if (section_name(s) == name) return s;
  return std::nullopt;
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

std::string all_section_names() { return "primary, taskstats-delay, derived"; }

}  // namespace dsched::ctprof
