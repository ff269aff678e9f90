// The compare and show tables.
#pragma once

#include <string>

#include "options.h"
#include "snapshot.h"

namespace dsched::ctprof {

// Baseline vs candidate, one row per (group, metric), under one heading per section.
std::string render_compare(const Snapshot& baseline, const Snapshot& candidate,
                           const ReportOptions& options);
// One snapshot, grouped the same way.
std::string render_show(const Snapshot& snap, const ReportOptions& options);
// Every metric with its section, unit, aggregation rule and source.
std::string render_metric_list();

}  // namespace dsched::ctprof
