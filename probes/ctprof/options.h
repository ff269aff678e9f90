// Flags of `ctprof compare` and `ctprof show`; the flags string of ctprof_compare() goes through
// the same parser.
#pragma once

#include <cstddef>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "metrics.h"
#include "names.h"

namespace dsched::ctprof {

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct SortKey {
  std::size_t metric;
  bool descending = true;
};

// --display-format: which value columns a compare row has.
enum class DisplayFormat { Full, DeltaOnly, NoPct, Arrow, PctOnly };

// Table columns (--columns); Value is show's, Baseline..Arrow are compare's.
enum class Column {
  Group,
  Threads,
  Metric,
  Baseline,
  Candidate,
  Delta,
  Pct,
  Arrow,
  Value,
  Tags,
  Uptime
};

enum class ReportKind { Compare, Show };

struct ReportOptions {
  ReportKind kind = ReportKind::Compare;
  GroupBy group_by = GroupBy::All;          // compare's default; show's is pcomm
  std::vector<std::string> cgroup_flatten;  // glob patterns, tried in order
  bool no_thread_normalize = false;         // literal comm / pcomm (and smaps_rollup per pid)
  bool no_cg_normalize = false;             // literal cgroup paths (after --cgroup-flatten)
  std::set<Section> sections;               // empty: all
  std::set<std::size_t> metrics;            // empty: all
  std::vector<SortKey> sort_by;             // empty: biggest movers first (show: by group name)
  DisplayFormat display_format = DisplayFormat::Arrow;
  std::vector<Column> columns;        // empty: the display format's
  std::size_t limit = 500;            // lines per section; 0: no limit
  std::vector<std::string> warnings;  // flag combinations that render nothing

  bool shows(std::size_t metric_id) const;  // --sections and --metrics
  bool shows(Section s) const;              // --sections, and cgroup tables need a cgroup axis
  std::vector<Column> resolved_columns() const;
};

// Parses flags (both "--flag value" and "--flag=value"); positional arguments are returned in
// `positional`. Throws UsageError.
ReportOptions parse_report_flags(const std::vector<std::string>& args,
                                 std::vector<std::string>& positional, ReportKind kind);

// Splits a flags string on whitespace (for the flags argument of the ctprof D functions).
std::vector<std::string> split_flags(const std::string& flags);

std::string_view column_name(Column c);

}  // namespace dsched::ctprof
