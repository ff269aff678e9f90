// Printing of aggregations as DTrace prints them: the end-of-run dump, printa() without a format
// (both print every entry as its keys, then its value(s), then "\n") and printa() with a format
// (the format once per entry: key conversions take the keys, '%@' conversions the values).
//
// Keys: integers by D size " %16lld", " %8d", " %5d", " %3d" (unsigned types with 'u'),
// strings and symbols "  %-50s", stacks "\n" and a line per frame. With folded stacks, an
// aggregation keyed by a stack prints each entry as one flame-graph line instead: its keys joined
// by ';' (stacks root first), a space and its value. Values: " %16lld" (signed) or " %16llu" (unsigned), histograms as
// histogram.h renders them (their leading "\n" ends the key line). Entries that keep per-CPU values
// (aggpercpu) follow each value with "\n    [CPU n]" and that CPU's value, for every CPU.
#pragma once

#include <span>
#include <string>

#include "abi/aggregation.h"
#include "abi/aggregation_order.h"
#include "abi/printf_spec.h"
#include "printf_render.h"

namespace dsched::output {

std::string format_keys(const abi::AggregationSpec& spec, std::string_view key, const RenderContext& context = {});
std::string format_value(const abi::AggValue& value, const RenderContext& context = {});

// Every entry of `aggs` (one aggregation, or several with the same key signature side by
// side), sorted, without any leading newline.
std::string print_entries(std::span<const abi::Aggregation* const> aggs, const abi::SortOptions& options,
                          const RenderContext& context = {});

// printa(@a, ...) without a format: "\n" then the entries. Marks the aggregations printed.
std::string printa_plain(std::span<abi::Aggregation* const> aggs, const abi::SortOptions& options,
                        const RenderContext& context = {});

// printa(format, @a, ...). `format` must have passed printf_spec::check_printa_args for these
// aggregations. Marks the aggregations printed.
std::string printa_formatted(const printf_spec::Format& format, std::span<abi::Aggregation* const> aggs,
                             const abi::SortOptions& options, const RenderContext& context = {});

// At exit (after END): "\n", then every aggregation never printed by printa() that has
// entries, in aggregation id order (reversed under aggsortrev, as DTrace does).
std::string print_end_of_run(std::span<const abi::Aggregation* const> all, const abi::SortOptions& options,
                             const RenderContext& context = {});

}  // namespace dsched::output
