// The lines capture logs after a walk: read-failure summaries with their kconfig and controller
// hints, the taskstats gating hints and the jemalloc probe summary.
#pragma once

#include <string>
#include <vector>

#include "snapshot.h"

namespace dsched::ctprof {

// How taskstats went for one capture.
struct TaskstatsOutcome {
  enum State { Disabled, Unavailable, Queried } state = Queried;
  std::string reason;  // why the netlink family could not be opened (Unavailable)
};

// jemalloc probing that did not run although asked for: why (else "").
struct CaptureNotes {
  TaskstatsOutcome taskstats;
  std::string jemalloc_skipped;
};

std::vector<std::string> capture_hints(const Snapshot& snap, const CaptureNotes& notes);

}  // namespace dsched::ctprof
