// In-memory form of one ctprof snapshot: host context, capture tallies and one record per thread.
#pragma once

#include <array>
#include <bitset>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "metrics.h"

namespace dsched::ctprof {

struct HostInfo {
  std::string hostname;
  std::string kernel_release;
  std::uint32_t cpu_count = 0;
  std::uint64_t uptime_ns = 0;          // system uptime at capture
  std::uint64_t boot_time_unix_s = 0;   // btime from <proc>/stat
  std::uint32_t clock_ticks_per_s = 100;
  std::uint64_t captured_at_unix_ns = 0;
  std::optional<int> task_delayacct;    // kernel.task_delayacct, absent when unreadable
};

struct TaskstatsTally {
  std::uint64_t ok_count = 0, eperm_count = 0, esrch_count = 0, other_err_count = 0;
};

// Files read per thread; the names double as the keys of read_failures_by_file.
enum ProcFile : std::size_t { kStatFile, kSchedstatFile, kStatusFile, kIoFile, kSchedFile,
                              kCgroupFile, kProcFileCount };
inline constexpr std::string_view kProcFileNames[kProcFileCount] = {"stat", "schedstat", "status",
                                                                    "io",   "sched",     "cgroup"};

struct ParseTally {
  std::uint64_t tids_walked = 0;   // threads whose directory was listed
  std::uint64_t tids_exited = 0;   // threads that vanished during the walk (not failures)
  std::array<std::uint64_t, kProcFileCount> failures_by_file{};
  std::uint64_t read_failures() const;
  std::string dominant() const;    // file with most failures, "" when none failed
};

// Text metrics (state, policy, cpu affinity) store an index into Snapshot::strings.
struct ThreadRecord {
  std::int32_t tid = 0, tgid = 0;
  std::string comm, pcomm, cgroup;
  std::array<std::uint64_t, kStoredMetricCount> value{};
  std::bitset<kStoredMetricCount> has;

  void set(std::size_t id, std::uint64_t v) { value[id] = v; has.set(id); }
  void set_signed(std::size_t id, std::int64_t v) { set(id, static_cast<std::uint64_t>(v)); }
};

struct Snapshot {
  HostInfo host;
  TaskstatsTally taskstats;
  ParseTally parse;
  std::vector<ThreadRecord> threads;
  std::vector<std::string> strings;  // interned text-metric values

  std::uint32_t intern(std::string_view text);
  const std::string& text(std::uint64_t index) const { return strings.at(index); }

 private:
  std::unordered_map<std::string, std::uint32_t> string_index_;
};

}  // namespace dsched::ctprof
