// One pass over a /proc tree (real or synthetic) and its cgroup and sysfs trees into a Snapshot.
#pragma once

#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "snapshot.h"
#include "taskstats.h"

namespace dsched::ctprof {

struct CaptureOptions {
  std::string proc_root = "/proc";
  // The cgroup v2 mount the per-cgroup files are read from; "" finds it in /proc/self/mountinfo
  // (/sys/fs/cgroup, or /sys/fs/cgroup/unified on a hybrid host).
  std::string cgroup_root;
  std::string sys_root = "/sys";  // for /sys/kernel/sched_ext
  // Where taskstats come from: Kernel opens the TASKSTATS netlink family for this capture,
  // Injected uses `injected` (tests), Off records no taskstats at all.
  enum class Taskstats { Kernel, Injected, Off } taskstats = Taskstats::Kernel;
  TaskstatsSource* injected = nullptr;
  // Read the jemalloc counters of processes linking libjemalloc (ptrace). Only done when
  // proc_root is /proc: the tids of another tree are not this machine's threads.
  bool jemalloc = true;
  std::vector<int> jemalloc_tgids;  // probe only these processes; empty: every process
  // CPU list ("0-3,6") of a thread, or nullopt when it cannot be read. Default: sched_getaffinity.
  // Must be callable from several threads at once.
  std::function<std::optional<std::string>(int tid)> affinity;
  // Threads reading /proc; 0 picks one per 128 tasks, at most min(CPUs, 4).
  unsigned walkers = 0;
};

Snapshot capture(const CaptureOptions& options, std::ostream& diagnostics);

// sched_getaffinity of `tid` as a CPU list.
std::optional<std::string> kernel_affinity(int tid);

// The cgroup2 mount point listed in a mountinfo text, or "" when there is none.
std::string cgroup2_mount(std::string_view mountinfo);

}  // namespace dsched::ctprof
