// Text of values, deltas and percentages in the ctprof tables.
#pragma once

#include <string>
#include <vector>

#include "aggregate.h"
#include "metrics.h"

namespace dsched::ctprof {

// Small values print as an integer with their base unit ("22ticks", "11", "512ns"); larger ones
// with 3 decimals and a scaled unit ("8.697K", "243.378ms", "1.500MiB"). Ratios always print 3
// decimals. signed_form adds "+" to positive numbers (for deltas).
std::string format_scalar(long double v, Unit unit, bool signed_form = false);
// A whole group value: scalar as above, Range as "[lo,hi]", Text as is, None as "-".
std::string format_value(const AggValue& v, Unit unit);
// "+930.2%".
std::string format_percent(long double pct);

// Columns of plain text, padded to their widest cell (widths count UTF-8 characters, so "→"
// is one column).
struct Table {
  std::vector<std::string> header;
  std::vector<bool> right_aligned;  // per column
  std::vector<std::vector<std::string>> rows;
  std::string render() const;
};

std::size_t display_width(const std::string& s);

}  // namespace dsched::ctprof
