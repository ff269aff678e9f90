// The state tables of compare and show: per-cgroup files (cgroup-stats, cgroup-limits,
// memory-stat, memory-events, pressure), host pressure, smaps_rollup and sched_ext. Compare
// cells read "baseline → candidate (delta)"; show cells one value. `candidate` is null for show.
#pragma once

#include <map>
#include <string>

#include "cgroup_stats.h"
#include "options.h"
#include "snapshot.h"

namespace dsched::ctprof {

using CgroupTable = std::map<std::string, CgroupStats>;  // by group key
using SmapsTable =
    std::map<std::string, std::map<std::string, std::uint64_t>>;  // key -> field -> kB

// The five per-cgroup sections, each only when enabled and holding data.
std::string render_cgroup_tables(const CgroupTable& baseline, const CgroupTable* candidate,
                                 const ReportOptions& o);
std::string render_host_pressure(const Psi& baseline, const Psi* candidate, const ReportOptions& o);
std::string render_sched_ext(const std::optional<SchedExtState>& baseline,
                             const std::optional<SchedExtState>* candidate, const ReportOptions& o);
std::string render_smaps(const SmapsTable& baseline, const SmapsTable* candidate,
                         const ReportOptions& o);

// smaps_rollup of a snapshot's process leaders, summed per process-name pattern (or per
// "pcomm[tgid]" with --no-thread-normalize).
SmapsTable smaps_by_process(const Snapshot& snap, bool no_thread_normalize);

}  // namespace dsched::ctprof
