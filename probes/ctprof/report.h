// The compare and show reports: one block per grouping axis (three with --group-by all: cgroup,
// then pcomm, then comm), then the host-wide tables, each "## " section cut to --limit lines.
#pragma once

#include <string>

#include "options.h"
#include "snapshot.h"

namespace dsched::ctprof {

// `baseline_name` and `candidate_name` name the files in the lists of unmatched groups.
std::string render_compare(const Snapshot& baseline, const Snapshot& candidate,
                           const ReportOptions& options,
                           const std::string& baseline_name = "baseline",
                           const std::string& candidate_name = "candidate");
std::string render_show(const Snapshot& snap, const ReportOptions& options);
// Every metric with its section, unit, aggregation rule, gating and source.
std::string render_metric_list();

}  // namespace dsched::ctprof
