// Per-cgroup and host-wide state a snapshot carries besides its threads: cgroup controller files,
// pressure stall information and the sched_ext sysfs state.
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace dsched::ctprof {

// A limit file reading "max" (no limit, or full protection for memory.low/min).
inline constexpr std::uint64_t kUnlimited = std::numeric_limits<std::uint64_t>::max();

// One "some" or "full" line of a pressure file. Averages in hundredths of a percent, so values
// stay integers and compare exactly.
struct PsiLine {
  std::uint32_t avg10 = 0, avg60 = 0, avg300 = 0;
  std::uint64_t total_usec = 0;
  bool operator==(const PsiLine&) const = default;
};

struct PsiResource {
  bool present = false;  // the file was read
  PsiLine some, full;
};

enum PsiKind : std::size_t { kPsiCpu, kPsiMemory, kPsiIo, kPsiIrq, kPsiCount };
inline constexpr std::string_view kPsiNames[kPsiCount] = {"cpu", "memory", "io", "irq"};

struct Psi {
  std::array<PsiResource, kPsiCount> resource{};
  bool any() const;  // any resource read
};

// The cgroup v2 files of one cgroup; nullopt marks a file (or key) that could not be read.
struct CgroupStats {
  // cpu.stat
  std::optional<std::uint64_t> usage_usec, nr_throttled, throttled_usec;
  // cpu.max ("max" quota is kUnlimited), cpu.weight, cpu.weight.nice
  std::optional<std::uint64_t> max_quota_us, max_period_us, weight;
  std::optional<std::int64_t> weight_nice;
  // memory.current / max / high / low / min
  std::optional<std::uint64_t> memory_current, memory_max, memory_high, memory_low, memory_min;
  std::map<std::string, std::uint64_t> memory_stat, memory_events;
  // pids.current / pids.max
  std::optional<std::uint64_t> pids_current, pids_max;
  Psi psi;

  bool has_limits() const;
};

// /sys/kernel/sched_ext: the class state and its global counters.
struct SchedExtState {
  std::string state;  // enabling, enabled, disabling, disabled; "" when unreadable
  std::optional<std::uint64_t> switch_all, nr_rejected, hotplug_seq, enable_seq;
  bool operator==(const SchedExtState&) const = default;
};

// Merging cgroups that share a group key (--cgroup-flatten, normalised or fudged paths):
// counters add, gauges and limits take the larger value (an unlimited member leaves the group
// unlimited), protection floors the smaller one, pressure averages the larger and totals add.
void merge_into(CgroupStats& into, const CgroupStats& from);

}  // namespace dsched::ctprof
