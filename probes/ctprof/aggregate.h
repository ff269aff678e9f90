// Folding the threads of a group into one value per metric, and the derived metrics.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>

#include "metrics.h"
#include "snapshot.h"

namespace dsched::ctprof {

struct AggValue {
  enum Kind { None, Scalar, Range, Text } kind = None;
  long double scalar = 0;       // long double keeps every uint64 exact
  std::int64_t lo = 0, hi = 0;  // Range
  std::string text;             // Text

  static AggValue of(long double v) { return {Scalar, v, 0, 0, {}}; }
  bool operator==(const AggValue&) const = default;
};

struct Group {
  std::string key;
  std::size_t threads = 0;
  std::array<AggValue, kMetricCount> values;
  // Nanoseconds the group had been alive at capture (from its earliest thread start), if known.
  std::optional<long double> alive_ns;
};

using KeyFn = std::function<std::string(const ThreadRecord&)>;

// Groups of one snapshot, by the key `key_of` gives each thread.
std::map<std::string, Group> group_threads(const Snapshot& snap, const KeyFn& key_of);

// The number a group ranks by for a metric: the scalar, or the middle of a range.
std::optional<long double> rank_value(const AggValue& v);

// Fills the derived metrics of `g` from its aggregated values.
void derive(Group& g);

}  // namespace dsched::ctprof
