// Printing of aggregations: the end-of-run dump, printa() without a format (both print every
// entry as its keys, then its value(s), then "\n") and printa() with a format (the format once
// per entry: key conversions take the keys, '%@' conversions the aggregation values).
//
// Keys: integers by D size " %16lld", " %8d", " %5d", " %3d" (unsigned types with 'u'),
// strings "  %-50s". Values: " %16lld" (value / normal), avg " %16lld", stddev " %16llu",
// histograms as in histogram.h (their leading "\n" ends the key line).
#pragma once

#include <span>
#include <string>

#include "agg_order.h"
#include "aggregation.h"
#include "lang/printf_spec.h"
#include "printf_render.h"

namespace dsched::output {

std::string format_keys(const AggregationSpec& spec, std::string_view key);
std::string format_value(const Aggregation& agg, std::span<const int64_t> value);

// Every entry of `aggs` (one aggregation, or several with the same key signature side by
// side), sorted, without any leading newline.
std::string print_entries(std::span<const Aggregation* const> aggs, const SortOptions& options);

// printa(@a, ...) without a format: "\n" then the entries. Marks the aggregations printed.
std::string printa_plain(std::span<Aggregation* const> aggs, const SortOptions& options);

// printa(format, @a, ...). `format` must have passed printf_spec::check_printa_args for these
// aggregations. Marks the aggregations printed.
std::string printa_formatted(const printf_spec::Format& format, std::span<Aggregation* const> aggs,
                             const SortOptions& options, const RenderContext& context = {});

// At exit (after END): "\n", then every aggregation never printed by printa() that has
// entries, in aggregation id order (reversed under aggsortrev, as DTrace does).
std::string print_end_of_run(std::span<const Aggregation* const> all, const SortOptions& options);

}  // namespace dsched::output
