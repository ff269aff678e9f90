// The metric sections of a report block (## Primary metrics, ## Taskstats delay, ## Derived
// metrics): one row per (group, metric), for compare or show.
#pragma once

#include <map>
#include <string>

#include "aggregate.h"
#include "options.h"

namespace dsched::ctprof {

using Groups = std::map<std::string, Group>;

struct ComparedGroups {
  Groups baseline, candidate;
  std::map<std::string, std::string> labels;  // display label of a key, when not the key itself
};

// `suffix` follows every heading (" (by cgroup)" in the blocks of --group-by all).
std::string render_compare_metrics(const ComparedGroups& groups, GroupBy axis,
                                   const std::string& suffix, const ReportOptions& o);
std::string render_show_metrics(const Groups& groups, GroupBy axis, const std::string& suffix,
                                const ReportOptions& o);

}  // namespace dsched::ctprof
