// Text of values, deltas and percentages in the ctprof tables.
#pragma once

#include <cstdint>
#include <optional>
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

// One value of the state tables (cgroup files, pressure, sched_ext): a number in some unit, a
// text, or nothing.
struct StateValue {
  enum Kind { None, Number, Text } kind = None;
  long double number = 0;
  std::string text;
  static StateValue of(std::optional<std::uint64_t> v);
  static StateValue of_text(std::string t) { return {Text, 0, std::move(t)}; }
};

// How a state value prints: the metric units plus microseconds, hundredths of a percent, and
// limits (kUnlimited prints "max").
enum class StateUnit { Count, Usec, Bytes, CentiPercent, Signed, CountLimit, BytesLimit, Text };
std::string format_state(const StateValue& v, StateUnit unit);
// "a → b (+d)" for numbers, "a → b" for texts that differ, "a" for equal texts, "a → -" when
// one side is missing, "-" when both are.
std::string format_state_change(const StateValue& a, const StateValue& b, StateUnit unit);

// Cuts the table under every "## " heading of `text` (its lines up to the next blank line) to
// `limit` lines, with a notice of how many were dropped; 0 keeps everything.
std::string limit_sections(const std::string& text, std::size_t limit);

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
