// Ordering of aggregation entries, as DTrace orders them for printing: by value (as each
// aggregating function orders its values), ties broken by key; integer keys compare as unsigned at their D
// size, strings byte by byte. Options: aggsortkey (key first), aggsortrev (every comparison
// reversed), aggsortkeypos (the key compared first), aggsortpos (for printa of several
// aggregations: the aggregation whose value is compared first).
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "abi/aggregation.h"

namespace dsched::abi {

struct SortOptions {
  bool by_key = false;              // aggsortkey
  bool reverse = false;             // aggsortrev
  size_t key_position = 0;          // aggsortkeypos
  size_t aggregation_position = 0;  // aggsortpos
};

class Options;
// The sort options a program's options set.
SortOptions sort_options(const Options& options);

// One printed line of one or several aggregations that share a key signature: the key and,
// for each aggregation, its value (zeros where the aggregation has no such key).
struct JoinedRow {
  std::string key;
  std::vector<std::vector<int64_t>> values;
};

// The rows of `aggs` (all with the same key signature) in print order.
std::vector<JoinedRow> joined_rows(std::span<const Aggregation* const> aggs, const SortOptions& options);

// The entries of one aggregation by ascending value, ties by ascending key (trunc() uses it).
std::vector<const AggEntry*> sort_by_value(const Aggregation& agg);

}  // namespace dsched::abi
