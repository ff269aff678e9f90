#include "agg_print.h"

#include <algorithm>
#include <vector>

#include "abi/hex_dump.h"
#include "addresses.h"
#include "cformat.h"
#include "histogram.h"
#include "probe_lines.h"

namespace dsched::output {

using abi::AggEntry;
using abi::Aggregation;
using abi::AggregationSpec;
using abi::AggValue;
using abi::JoinedRow;
using abi::KeyComponent;
using abi::SortOptions;

namespace {

std::vector<const Aggregation*> as_const(std::span<Aggregation* const> aggs) {
  return std::vector<const Aggregation*>(aggs.begin(), aggs.end());
}

void mark_printed_if_any(std::span<Aggregation* const> aggs, bool any) {
  if (!any) return;
  for (Aggregation* a : aggs) a->mark_printed();
}

std::vector<Value> key_values(const AggregationSpec& spec, std::string_view key) {
  std::vector<Value> out;
  for (size_t i = 0; i < spec.keys.size(); ++i) out.push_back(abi::key_value(spec, key, i));
  return out;
}

bool has_stack_key(const AggregationSpec& spec) {
  return std::any_of(spec.keys.begin(), spec.keys.end(),
                     [](const KeyComponent& c) { return c.kind == KeyComponent::Kind::Stack; });
}

// One key component as a segment of a folded line.
std::string folded_key(const Value& v, const RenderContext& context) {
  switch (v.kind) {
    case Value::Kind::Stack:
      return folded_stack(context.symbols, v);
    case Value::Kind::Symbol:
      return address_text(context.symbols, v);
    case Value::Kind::String:
      return v.text;
    default:
      return v.is_signed ? std::to_string(v.as_signed()) : std::to_string(v.as_unsigned());
  }
}

// A histogram's folded value is its number of samples.
int64_t folded_value(const AggValue& value) {
  if (value.kind != AggValue::Kind::Histogram) return value.number;
  int64_t total = 0;
  for (const abi::HistogramRow& row : value.rows) total += row.count / int64_t(value.normal);
  return total;
}

std::string print_folded(const Aggregation& agg, const SortOptions& options, const RenderContext& context) {
  const Aggregation* one[] = {&agg};
  std::string out;
  for (const JoinedRow& row : abi::joined_rows(one, options)) {
    std::string line;
    for (const Value& key : key_values(agg.spec(), row.key)) {
      std::string segment = folded_key(key, context);
      if (segment.empty()) continue;
      if (!line.empty()) line += ";";
      line += segment;
    }
    out += line + " " + std::to_string(folded_value(agg.value(row.values[0]))) + "\n";
  }
  return out;
}

// aggpercpu: after an entry's value, each CPU's on its own line, as Oracle's DTrace for Linux
// prints them (dt_print_aggs: "\n    [CPU n]" and the value as the total prints).
std::string per_cpu_values(const Aggregation& agg, std::string_view key, const RenderContext& context) {
  const AggEntry* entry = agg.with_per_cpu(key);
  std::string out;
  if (!entry) return out;
  for (size_t cpu = 0; cpu < entry->per_cpu.size(); ++cpu)
    out += cformat("\n    [CPU %zu]", cpu) + format_value(agg.value(entry->per_cpu[cpu]), context);
  return out;
}

}  // namespace

std::string format_keys(const AggregationSpec& spec, std::string_view key, const RenderContext& context) {
  std::string out;
  for (size_t i = 0; i < spec.keys.size(); ++i) {
    const KeyComponent& c = spec.keys[i];
    if (c.kind == KeyComponent::Kind::String) {
      // As DTrace prints a key's recorded bytes: an empty or unprintable string as a hex dump.
      std::string bytes(key_string(spec, key, i));
      bytes.resize(std::max(bytes.size(), context.string_capacity), '\0');
      out += context.rawbytes ? abi::hex_dump(bytes) : abi::traced_bytes(bytes, false, 50);
      continue;
    }
    if (c.kind == KeyComponent::Kind::Stack || c.kind == KeyComponent::Kind::Symbol) {
      out += render_trace(abi::key_value(spec, key, i), false, context);
      continue;
    }
    // DTrace prints an integer key by its size alone: 1 and 2 bytes zero-extended, 4 and 8 bytes
    // signed (dt_print_datum), so a char -1 prints 255 and a kernel address prints negative.
    const int64_t v = key_integer(spec, key, i);
    switch (c.size) {
      case 1: out += cformat(" %3d", int(uint8_t(v))); break;
      case 2: out += cformat(" %5d", int(uint16_t(v))); break;
      case 4: out += cformat(" %8d", int(int32_t(v))); break;
      default: out += cformat(" %16lld", (long long)v); break;
    }
  }
  return out;
}

std::string format_value(const AggValue& value, const RenderContext& context) {
  switch (value.kind) {
    case AggValue::Kind::Histogram:
      return render_histogram(value, context.zoom_histograms);
    case AggValue::Kind::Unsigned:
      return cformat(" %16llu", (unsigned long long)value.number);
    case AggValue::Kind::Signed:
      break;
  }
  return cformat(" %16lld", (long long)value.number);
}

std::string print_entries(std::span<const Aggregation* const> aggs, const SortOptions& options,
                          const RenderContext& context) {
  std::string out;
  if (aggs.empty()) return out;
  if (context.folded_stacks && aggs.size() == 1 && has_stack_key(aggs[0]->spec()))
    return print_folded(*aggs[0], options, context);
  for (const JoinedRow& row : abi::joined_rows(aggs, options)) {
    out += format_keys(aggs[0]->spec(), row.key, context);
    for (size_t a = 0; a < aggs.size(); ++a)
      out += format_value(aggs[a]->value(row.values[a]), context) + per_cpu_values(*aggs[a], row.key, context);
    out += "\n";
  }
  return out;
}

std::string printa_plain(std::span<Aggregation* const> aggs, const SortOptions& options, const RenderContext& context) {
  const std::vector<const Aggregation*> view = as_const(aggs);
  std::string out = "\n" + print_entries(view, options, context);
  mark_printed_if_any(aggs, out.size() > 1);
  return out;
}

std::string printa_formatted(const printf_spec::Format& format, std::span<Aggregation* const> aggs,
                             const SortOptions& options, const RenderContext& context) {
  const std::vector<const Aggregation*> view = as_const(aggs);
  const std::vector<JoinedRow> rows = abi::joined_rows(view, options);
  std::string out;
  for (const JoinedRow& row : rows) {
    // '%@' conversions take the aggregations in order; extra ones repeat the last.
    size_t next_agg = 0;
    auto aggregation = [&](const printf_spec::Conversion& conv, int width, int precision) {
      const size_t a = std::min(next_agg, aggs.size() - 1);
      if (next_agg < aggs.size()) ++next_agg;
      const AggValue value = aggs[a]->value(row.values[a]);
      if (value.kind == AggValue::Kind::Histogram) return render_histogram(value, context.zoom_histograms);
      const Value v = Value::integer(value.number, 8, value.kind == AggValue::Kind::Signed);
      return render_conversion(conv, width, precision, v, context);
    };
    const std::vector<Value> keys = key_values(aggs[0]->spec(), row.key);
    out += render_format(format, keys, context, aggregation);
  }
  mark_printed_if_any(aggs, !rows.empty());
  return out;
}

std::string print_end_of_run(std::span<const Aggregation* const> all, const SortOptions& options,
                             const RenderContext& context) {
  std::vector<const Aggregation*> order(all.begin(), all.end());
  std::stable_sort(order.begin(), order.end(), [&](const Aggregation* l, const Aggregation* r) {
    return options.reverse ? l->spec().id > r->spec().id : l->spec().id < r->spec().id;
  });
  std::string out = "\n";
  for (const Aggregation* agg : order) {
    if (agg->printed() || agg->entries().empty()) continue;
    const Aggregation* one[] = {agg};
    out += print_entries(one, options, context);
  }
  return out;
}

}  // namespace dsched::output
