#include "json_output.h"

#include <ctime>

#include "abi/aggregation_order.h"
#include "addresses.h"
#include "agg_print.h"
#include "printf_render.h"
#include "probe_lines.h"

namespace dsched::output {
namespace {

using json = nlohmann::ordered_json;

int64_t wall_clock_ns() {
  timespec now{};
  clock_gettime(CLOCK_REALTIME, &now);
  return int64_t(now.tv_sec) * 1000000000 + now.tv_nsec;
}

// Stacks are arrays of frames, leaf first, as the text output names them.
json value_json(const abi::Value& v, abi::Symbolizer* symbols) {
  switch (v.kind) {
    case abi::Value::Kind::Integer: return v.is_signed ? json(v.as_signed()) : json(v.as_unsigned());
    case abi::Value::Kind::String: return v.text;
    case abi::Value::Kind::Float: return double(v.real);
    case abi::Value::Kind::Stack: return stack_frames(symbols, v);
    case abi::Value::Kind::Symbol: return address_text(symbols, v);
    case abi::Value::Kind::Bytes: {
      json bytes = json::array();
      for (unsigned char c : v.text) bytes.push_back(c);
      return bytes;
    }
  }
  return nullptr;
}

// The components of a packed key, as their D types read them.
json keys_json(const abi::AggregationSpec& spec, std::string_view key, abi::Symbolizer* symbols) {
  json keys = json::array();
  for (size_t i = 0; i < spec.keys.size(); ++i) keys.push_back(value_json(abi::key_value(spec, key, i), symbols));
  return keys;
}

// A value as its function names it ("count": 3), or a histogram's "buckets".
void add_value_json(const abi::Aggregation& agg, std::span<const int64_t> words, json& into) {
  abi::AggValue value = agg.value(words);
  if (value.kind == abi::AggValue::Kind::Histogram) {
    json buckets = json::array();
    for (const abi::HistogramRow& row : value.rows)
      buckets.push_back({{"value", row.label.empty() ? json(row.value) : json(row.label)},
                         {"count", row.count / int64_t(value.normal)}});
    into["buckets"] = std::move(buckets);
  } else {
    std::string name(agg.spec().function->name());
    into[name] = value.kind == abi::AggValue::Kind::Signed ? json(value.number) : json(uint64_t(value.number));
  }
}

// With aggpercpu, "per-cpu" holds each CPU's value as {"cpu": n, ...the value...}.
json entry_json(const abi::Aggregation& agg, const std::string& key, const std::vector<int64_t>& words,
                abi::Symbolizer* symbols) {
  json entry = {{"keys", keys_json(agg.spec(), key, symbols)}};
  add_value_json(agg, words, entry);
  const abi::AggEntry* kept = agg.with_per_cpu(key);
  if (!kept || kept->per_cpu.empty()) return entry;
  json per_cpu = json::array();
  for (size_t cpu = 0; cpu < kept->per_cpu.size(); ++cpu) {
    json one = {{"cpu", cpu}};
    add_value_json(agg, kept->per_cpu[cpu], one);
    per_cpu.push_back(std::move(one));
  }
  entry["per-cpu"] = std::move(per_cpu);
  return entry;
}

const char* drop_kind(abi::DropKind kind) {
  switch (kind) {
    case abi::DropKind::Output: return "output";
    case abi::DropKind::Aggregation: return "aggregation";
    case abi::DropKind::DynamicVariable: return "dynamic-variable";
    case abi::DropKind::Speculative: return "speculative";
    case abi::DropKind::SpeculationUnavailable: return "speculation-unavailable";
    case abi::DropKind::KernelSkipped: return "kernel-skipped";
    case abi::DropKind::ErrorInErrorProbe: return "error-in-error-probe";
    case abi::DropKind::ThreadLocalRefused: return "thread-local-refused";
  }
  return "";
}

// The pseudo-probe FreeBSD DTrace reports drops and faults as.
json internal_event(const char* name, std::optional<unsigned> cpu) {
  return {{"cpu", cpu ? json(*cpu) : json(-1)}, {"id", -1},          {"provider", "dtrace"},
          {"module", "INTERNAL"},                 {"function", "INTERNAL"}, {"name", name},
          {"timestamp", wall_clock_ns()}};
}

std::string without_newline(std::string text) {
  if (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

}  // namespace

json aggregation_json(const abi::Aggregation& agg, const abi::SortOptions& order, abi::Symbolizer* symbols) {
  json data = json::array();
  const abi::Aggregation* one[] = {&agg};
  for (const abi::JoinedRow& row : abi::joined_rows(one, order))
    data.push_back(entry_json(agg, row.key, row.values[0], symbols));
  return {{"aggregation-name", agg.spec().name}, {"aggregation-data", std::move(data)}};
}

JsonOutput::JsonOutput(FILE* out, std::string out_name, FILE* err, const abi::Options& options,
                       abi::Symbolizer* symbols)
    : data_(out, std::move(out_name)), err_(err), options_(options), symbols_(symbols) {}

void JsonOutput::matched(std::string_view what, bool is_script, uint64_t probes) {
  message({{"matched", probes}, {is_script ? "script" : "description", what}});
}

void JsonOutput::begin_firing(const abi::Firing& firing) {
  firing_ = {{"timestamp", wall_clock_ns()},    {"cpu", firing.cpu},          {"id", firing.probe_id},
             {"provider", firing.provider},     {"module", firing.module},    {"function", firing.function},
             {"name", firing.name},             {"output", json::array()}};
}

void JsonOutput::end_firing() {
  // A quiet run prints nothing for a firing that printed nothing, as the text output does.
  if (!firing_.is_null() && (!options_.quiet() || !firing_["output"].empty())) data(firing_);
  firing_ = nullptr;
}

void JsonOutput::trace(const abi::Value& value) { firing_["output"].push_back({{"value", value_json(value, symbols_)}}); }

void JsonOutput::printf(const printf_spec::Format& format, std::span<const abi::Value> args) {
  json& output = firing_["output"];
  output.push_back({{"message", render_format(format, args, {symbols_})}});
  for (const abi::Value& arg : args) output.push_back({{"value", value_json(arg, symbols_)}});
}

void JsonOutput::printa(const printf_spec::Format* format, std::span<abi::Aggregation* const> aggregations) {
  const abi::SortOptions order = abi::sort_options(options_);
  std::string text = format ? printa_formatted(*format, aggregations, order, {symbols_})
                            : printa_plain(aggregations, order, {symbols_});
  for (const abi::Aggregation* agg : aggregations) {
    json object = aggregation_json(*agg, order, symbols_);
    if (format) object["message"] = text;
    if (firing_.is_null()) {
      data(object);
    } else {
      firing_["output"].push_back(std::move(object));
    }
  }
}

void JsonOutput::report(std::string_view function, std::string_view text) {
  json object = {{std::string(function), text}};
  if (firing_.is_null()) {
    data(object);
  } else {
    firing_["output"].push_back(std::move(object));
  }
}

void JsonOutput::end_of_run(std::span<const abi::Aggregation* const> aggregations) {
  const abi::SortOptions order = abi::sort_options(options_);
  for (const abi::Aggregation* agg : aggregations)
    if (!agg->printed() && !agg->entries().empty()) data(aggregation_json(*agg, order, symbols_));
}

void JsonOutput::drops(abi::DropKind kind, uint64_t count, std::optional<unsigned> cpu) {
  json event = internal_event("DROP", kind == abi::DropKind::Output || kind == abi::DropKind::Aggregation
                                          ? std::optional<unsigned>(cpu.value_or(0)) : cpu);
  event["count"] = count;
  event["kind"] = drop_kind(kind);
  event["msg"] = without_newline(drop_report(kind, count, cpu));
  message(event);
}

void JsonOutput::fault(const abi::Fault& f) {
  json event = internal_event("ERROR", std::nullopt);
  event["enabled-probe-id"] = f.enabled_id;
  event["probe-id"] = f.probe_id;
  event["probe"] = f.probe;
  event["fault"] = f.what;
  event["action"] = f.action;
  event["msg"] = without_newline(probe_error(f.enabled_id, f.probe_id, f.probe, f.what, f.action, f.site));
  message(event);
}

void JsonOutput::error(std::string_view text) { message({{"error", text}}); }

void JsonOutput::warning(std::string_view text) { message({{"warning", text}}); }

// Kernel strings need not be UTF-8: invalid bytes become U+FFFD rather than an exception.
std::string JsonOutput::line(const json& object) {
  return object.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
}

void JsonOutput::data(const json& object) { data_.append(line(object)); }

void JsonOutput::truncate() {
  if (std::optional<std::string> failure = data_.truncate()) message({{"error", *failure}});
}

void JsonOutput::reopen(const std::string& path) {
  if (std::optional<std::string> failure = data_.reopen(path)) message({{"error", *failure}});
}

void JsonOutput::flush() {
  if (std::optional<std::string> failure = data_.flush()) message({{"error", *failure}});
}

void JsonOutput::message(const json& object) {
  flush();  // a message follows the data before it
  std::string text = line(object);
  std::fwrite(text.data(), 1, text.size(), err_);
  std::fflush(err_);
}

}  // namespace dsched::output
