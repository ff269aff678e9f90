// The metric registry: every per-thread and derived metric ctprof knows, with its section, unit,
// source, kernel gating and the rule that folds the threads of a group into one value.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dsched::ctprof {

// Sections of the report. The first three hold metric rows; the others are tables of their own
// (cgroup files, pressure, smaps_rollup, sched_ext) that --sections can also select.
enum class Section {
  Primary,
  TaskstatsDelay,
  Derived,
  CgroupStats,
  CgroupLimits,
  MemoryStat,
  MemoryEvents,
  Pressure,  // need --group-by cgroup
  HostPressure,
  SmapsRollup,
  SchedExt,
};
inline constexpr Section kAllSections[] = {
    Section::Primary,      Section::TaskstatsDelay, Section::Derived,      Section::CgroupStats,
    Section::CgroupLimits, Section::MemoryStat,     Section::MemoryEvents, Section::Pressure,
    Section::HostPressure, Section::SmapsRollup,    Section::SchedExt};

enum class Unit {
  Count,   // plain event counter: 11, 8.697K
  Ns,      // nanoseconds: 512ns, 243.378ms, 2.684s
  Ticks,   // USER_HZ clock ticks: 22ticks
  Bytes,   // 512B, 1.500KiB
  Ratio,   // derived quotient, 3 decimals
  Number,  // identity number printed as is (priority, CPU number)
  Text,    // categorical value (state letter, SCHED_* name, CPU list)
};

enum class Agg {
  Sum,         // counters and times: saturating sum
  Max,         // peaks and gauges
  MinNonZero,  // minima: smallest non-zero value
  Earliest,    // smallest value including zero (start time)
  Range,       // [min,max] (nice, priority, processor)
  Mode,        // most frequent value (state, policy, affinity)
  Derived,     // computed from other group values
};

// Stable metric identifiers; the order is the registry order (and the metric-list order).
enum MetricId : std::size_t {
  // schedstat (or the same three counters from taskstats)
  kRunTimeNs,
  kWaitTimeNs,
  kTimeslices,
  // context switches, state, thread count
  kVoluntaryCsw,
  kNonvoluntaryCsw,
  kState,
  kNrThreads,
  // stat
  kMinflt,
  kMajflt,
  kUtimeTicks,
  kStimeTicks,
  kPriority,
  kNice,
  kRtPriority,
  kPolicy,
  kProcessor,
  kStartTimeTicks,
  // affinity
  kCpuAffinity,
  // sched
  kNrWakeups,
  kNrWakeupsLocal,
  kNrWakeupsRemote,
  kNrWakeupsSync,
  kNrWakeupsMigrate,
  kNrWakeupsAffine,
  kNrWakeupsAffineAttempts,
  kNrMigrations,
  kNrForcedMigrations,
  kNrFailedMigrationsAffine,
  kNrFailedMigrationsRunning,
  kNrFailedMigrationsHot,
  kWaitSum,
  kWaitCount,
  kWaitMax,
  kSleepMax,
  kBlockSum,
  kBlockMax,
  kIowaitSum,
  kIowaitCount,
  kExecMax,
  kSliceMax,
  kVoluntarySleepNs,
  kCoreForceidleSum,
  kFairSliceNs,
  kExtEnabled,
  // io
  kRchar,
  kWchar,
  kReadBytes,
  kWriteBytes,
  kCancelledWriteBytes,
  kSyscr,
  kSyscw,
  // jemalloc per-thread counters
  kAllocatedBytes,
  kDeallocatedBytes,
  // taskstats: four metrics per delay bucket, buckets in kDelayBuckets order
  kFirstDelayMetric,
  kHiwaterRssBytes = kFirstDelayMetric + 8 * 4,
  kHiwaterVmBytes,
  // derived
  kFirstAvgDelay,
  kTotalOffcpuDelayNs = kFirstAvgDelay + 8,
  kAvgWaitNs,
  kAvgIowaitNs,
  kAffineSuccessRatio,
  kCpuEfficiency,
  kAvgSliceNs,
  kInvoluntaryCswRatio,
  kDiskIoFraction,
  kLiveHeapEstimate,
  kMetricCount
};

// The eight taskstats delay buckets, in the order of their metric ids.
inline constexpr std::string_view kDelayBuckets[8] = {"cpu",       "blkio",   "swapin", "freepages",
                                                      "thrashing", "compact", "wpcopy", "irq"};
enum DelayField : std::size_t { kDelayCount, kDelayTotal, kDelayMax, kDelayMin };
constexpr std::size_t delay_metric(std::size_t bucket, DelayField f) {
  return kFirstDelayMetric + bucket * 4 + f;
}

// Per-thread metrics stored in a snapshot (everything before the derived ones).
inline constexpr std::size_t kStoredMetricCount = kFirstAvgDelay;

struct MetricDef {
  std::string_view name;
  Section section;
  Unit unit;
  Agg agg;
  std::string_view source;  // where the value comes from, or the derivation formula
  std::string_view gating;  // kernel options, toggles or privileges the value needs ("" = none)
  bool is_signed = false;   // stored as int64 in the uint64 slot
};

const MetricDef& metric(std::size_t id);
std::optional<std::size_t> find_metric(std::string_view name);
std::string_view section_name(Section s);     // command-line name: primary, taskstats-delay, ...
std::string_view section_heading(Section s);  // "Primary metrics", ...
std::optional<Section> find_section(std::string_view name);
// Sections whose tables exist only when threads are grouped by cgroup.
bool is_cgroup_section(Section s);
bool is_metric_section(Section s);
std::string_view unit_name(Unit u);
std::string_view agg_name(Agg a);
// "[SCHEDSTATS] [SCHED_DEBUG]": the gating of a metric as bracketed tags, "" when ungated.
std::string gating_tags(const MetricDef& def);

// Comma-separated list of every metric name / section name, for error messages.
std::string all_metric_names();
std::string all_section_names();

}  // namespace dsched::ctprof
