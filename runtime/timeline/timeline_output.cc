#include "runtime/timeline/timeline_output.h"

#include "runtime/output/printf_render.h"
#include "runtime/output/probe_lines.h"

namespace dsched::timeline {
namespace {

// The printed text without the blanks around it (the trailing newline, trace()'s padding).
std::string trimmed(const std::string& text) {
  const char* blanks = " \t\n";
  size_t first = text.find_first_not_of(blanks);
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(blanks) + 1 - first);
}

}  // namespace

std::string counter_name(const abi::Aggregation& aggregation, const abi::AggEntry& entry) {
  const abi::AggregationSpec& spec = aggregation.spec();
  std::string name = "@" + spec.name;
  if (spec.keys.empty()) return name;
  name += "[";
  for (size_t i = 0; i < spec.keys.size(); ++i) {
    if (i) name += ", ";
    const abi::KeyComponent& key = spec.keys[i];
    if (key.kind == abi::KeyComponent::Kind::String)
      name += abi::key_string(spec, entry.key, i);
    else if (key.is_signed)
      name += std::to_string(abi::key_integer(spec, entry.key, i));
    else
      name += std::to_string(static_cast<uint64_t>(abi::key_integer(spec, entry.key, i)));
  }
  return name + "]";
}

int64_t counter_value(const abi::Aggregation& aggregation, const abi::AggEntry& entry) {
  abi::AggValue value = aggregation.value(entry.value);
  if (value.kind != abi::AggValue::Kind::Histogram) return value.number;
  int64_t values = 0;
  for (const abi::HistogramRow& row : value.rows) values += row.count;
  return values;
}

TimelineOutput::TimelineOutput(abi::Output& text, TrackEvents& tracks, const abi::Options& options)
    : text_(text), tracks_(tracks), options_(options) {}

void TimelineOutput::matched(std::string_view what, bool is_script, uint64_t probes) {
  text_.matched(what, is_script, probes);
}

void TimelineOutput::begin_firing(const abi::Firing& firing) {
  text_.begin_firing(firing);
  stamp_ = firing.stamp;
  probe_ = std::string(firing.function) + ":" + std::string(firing.name);
  printed_.clear();
  quiet_ = options_.quiet();
}

void TimelineOutput::end_firing() {
  text_.end_firing();
  std::string name = trimmed(printed_);
  if (stamp_ && !name.empty())
    tracks_.instant(stamp_->boot_ns, static_cast<int32_t>(stamp_->tgid), static_cast<int32_t>(stamp_->tid), name,
                    {{"probe", probe_}});
  stamp_.reset();
}

void TimelineOutput::trace(const abi::Value& value) {
  text_.trace(value);
  printed_ += output::render_trace(value, quiet_);
}

void TimelineOutput::printf(const printf_spec::Format& format, std::span<const abi::Value> args) {
  text_.printf(format, args);
  printed_ += output::render_format(format, args);
}

void TimelineOutput::printa(const printf_spec::Format* format, std::span<abi::Aggregation* const> aggregations) {
  text_.printa(format, aggregations);
  if (!stamp_) return;
  for (const abi::Aggregation* aggregation : aggregations)
    for (const abi::AggEntry& entry : aggregation->entries())
      tracks_.sample(tracks_.counter(counter_name(*aggregation, entry)), stamp_->boot_ns,
                     counter_value(*aggregation, entry));
}

void TimelineOutput::report(std::string_view function, std::string_view text) { text_.report(function, text); }

void TimelineOutput::interrupted() { text_.interrupted(); }

void TimelineOutput::end_of_run(std::span<const abi::Aggregation* const> aggregations) {
  text_.end_of_run(aggregations);
}

void TimelineOutput::drops(abi::DropKind kind, uint64_t count, std::optional<unsigned> cpu) {
  text_.drops(kind, count, cpu);
}

void TimelineOutput::fault(const abi::Fault& fault) { text_.fault(fault); }

void TimelineOutput::error(std::string_view message) { text_.error(message); }

void TimelineOutput::warning(std::string_view message) { text_.warning(message); }

void TimelineOutput::flush() { text_.flush(); }

bool TimelineOutput::failed() const { return text_.failed(); }

}  // namespace dsched::timeline
