// One pass over a /proc tree (real or synthetic) into a Snapshot.
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
  // Where taskstats come from: Kernel opens the TASKSTATS netlink family for this capture,
  // Injected uses `injected` (tests), Off records no taskstats at all.
  enum class Taskstats { Kernel, Injected, Off } taskstats = Taskstats::Kernel;
  TaskstatsSource* injected = nullptr;
  // CPU list ("0-3,6") of a thread, or nullopt when it cannot be read. Default: sched_getaffinity.
  // Must be callable from several threads at once.
  std::function<std::optional<std::string>(int tid)> affinity;
  // Threads reading /proc; 0 picks one per 128 tasks, at most min(CPUs, 4).
  unsigned walkers = 0;
};

Snapshot capture(const CaptureOptions& options, std::ostream& diagnostics);

// How taskstats went for one capture.
struct TaskstatsOutcome {
  enum State { Disabled, Unavailable, Queried } state = Queried;
  std::string reason;  // why the netlink family could not be opened (Unavailable)
};

// The lines capture logs after a walk: the read-failure summary with its kconfig hint, and the
// taskstats gating hints.
std::vector<std::string> capture_hints(const Snapshot& snap, const TaskstatsOutcome& taskstats);

// sched_getaffinity of `tid` as a CPU list.
std::optional<std::string> kernel_affinity(int tid);

}  // namespace dsched::ctprof
