// Flags of `ctprof compare` and `ctprof show` (also the flags string of ctprof_compare()).
#pragma once

#include <cstddef>
#include <optional>
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

struct ReportOptions {
  GroupBy group_by = GroupBy::Pcomm;
  std::set<Section> sections;      // empty: all
  std::set<std::size_t> metrics;   // empty: all
  std::vector<SortKey> sort_by;    // empty: biggest movers first
  bool full_layout = false;        // --display-format full
  std::optional<std::size_t> limit;  // groups per section

  bool shows(std::size_t metric_id) const;
};

// Parses flags (both "--flag value" and "--flag=value"); positional arguments are returned in
// `positional`. allow_display_format is false for `show`. Throws UsageError.
ReportOptions parse_report_flags(const std::vector<std::string>& args,
                                 std::vector<std::string>& positional, bool allow_display_format);

// Splits a flags string on whitespace (for ctprof_compare's third argument).
std::vector<std::string> split_flags(const std::string& flags);

}  // namespace dsched::ctprof
