// In-memory form of one ctprof snapshot: host context, capture tallies and one record per thread.
#pragma once

#include <array>
#include <bitset>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "cgroup_stats.h"
#include "metrics.h"

namespace dsched::ctprof {

struct HostInfo {
  std::string hostname;
  std::string kernel_release;
  std::uint32_t cpu_count = 0;
  std::uint64_t uptime_ns = 0;         // system uptime at capture
  std::uint64_t boot_time_unix_s = 0;  // btime from <proc>/stat
  std::uint32_t clock_ticks_per_s = 100;
  std::uint64_t captured_at_unix_ns = 0;
  std::optional<int> task_delayacct;  // kernel.task_delayacct, absent when unreadable
  // Host context: what the machine is and how its scheduler is tuned.
  std::optional<std::string> kernel_name, arch, cpu_model, cpu_vendor, kernel_cmdline;
  std::optional<std::uint64_t> total_memory_kb;
  std::map<std::string, std::string> sched_tunables;  // /proc/sys/kernel/sched_* by leaf name
};

struct TaskstatsTally {
  std::uint64_t ok_count = 0, eperm_count = 0, esrch_count = 0, other_err_count = 0;
};

// Files read per thread; the names double as the keys of read_failures_by_file.
enum ProcFile : std::size_t {
  kStatFile,
  kSchedstatFile,
  kStatusFile,
  kIoFile,
  kSchedFile,
  kCgroupFile,
  kSmapsFile,
  kProcFileCount
};
inline constexpr std::string_view kProcFileNames[kProcFileCount] = {
    "stat", "schedstat", "status", "io", "sched", "cgroup", "smaps_rollup"};

struct ParseTally {
  std::uint64_t tids_walked = 0;  // threads whose directory was listed
  std::uint64_t tids_exited = 0;  // threads that vanished during the walk (not failures)
  std::array<std::uint64_t, kProcFileCount> failures_by_file{};
  std::uint64_t read_failures() const;
  std::string dominant() const;  // file with most failures, "" when none failed
};

// Reads of the per-cgroup and host-wide sources. A file that cannot be read is counted here
// under "<source> <file>" (e.g. "cgroup memory.current", "host pressure/irq"), never fatal.
struct SourceTally {
  std::uint64_t cgroups_read = 0;
  std::map<std::string, std::uint64_t> failures;
  std::uint64_t total() const;
};

// How the jemalloc counters went (absent from a snapshot when probing was off).
struct JemallocTally {
  std::uint64_t tgids_walked = 0;       // processes looked at
  std::uint64_t jemalloc_detected = 0;  // processes whose jemalloc counters could be located
  std::uint64_t probed_ok = 0;          // threads read
  std::uint64_t failed = 0;             // attach or per-thread failures worth acting on
  std::map<std::string, std::uint64_t> failures_by_tag;
  std::string dominant() const;     // most frequent tag, "" when none
  bool privilege_dominant() const;  // ptrace refusals are at least half of the failures
};

// Text metrics (state, policy, cpu affinity) store an index into Snapshot::strings.
struct ThreadRecord {
  std::int32_t tid = 0, tgid = 0;
  std::string comm, pcomm, cgroup;
  std::array<std::uint64_t, kStoredMetricCount> value{};
  std::bitset<kStoredMetricCount> has;
  std::map<std::string, std::uint64_t> smaps_kib;  // smaps_rollup in kB, leaders only
  bool kernel_thread = false;  // capture-time only (skips memory sources); not stored

  void set(std::size_t id, std::uint64_t v) {
    value[id] = v;
    has.set(id);
  }
  void set_signed(std::size_t id, std::int64_t v) { set(id, static_cast<std::uint64_t>(v)); }
};

struct Snapshot {
  HostInfo host;
  TaskstatsTally taskstats;
  ParseTally parse;
  SourceTally sources;
  std::optional<JemallocTally> jemalloc;
  // A deque: records never move, so growing it never needs twice their memory.
  std::deque<ThreadRecord> threads;
  std::vector<std::string> strings;                 // interned text-metric values
  std::map<std::string, CgroupStats> cgroup_stats;  // by thread cgroup path
  Psi host_psi;
  std::optional<SchedExtState> sched_ext;  // absent without CONFIG_SCHED_CLASS_EXT

  std::uint32_t intern(std::string_view text);
  const std::string& text(std::uint64_t index) const { return strings.at(index); }

 private:
  // Looked up by string_view, so interning a value already seen allocates nothing.
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
  };
  std::unordered_map<std::string, std::uint32_t, Hash, std::equal_to<>> string_index_;
};

}  // namespace dsched::ctprof
