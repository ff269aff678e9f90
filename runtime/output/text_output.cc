#include "text_output.h"

#include <cerrno>
#include <cstring>

#include "abi/aggregation_order.h"
#include "agg_print.h"
#include "printf_render.h"
#include "probe_lines.h"

namespace dsched::output {

TextOutput::TextOutput(FILE* out, std::string out_name, FILE* err, const abi::Options& options)
    : out_(out), out_name_(std::move(out_name)), err_(err), options_(options) {}

void TextOutput::matched(std::string_view what, bool is_script, uint64_t probes) {
  if (!options_.quiet()) message(matched_probes(is_script, what, probes));
}

void TextOutput::begin_firing(const abi::Firing& firing) {
  quiet_firing_ = options_.quiet();
  if (quiet_firing_) return;
  bool flow = options_.flag("flowindent");
  if (!heading_printed_) pending_ += flow ? flow_heading() : heading();
  heading_printed_ = true;
  pending_ += flow ? flow_prefix(firing.cpu, firing.provider, firing.function, firing.name, flow_depth_)
                   : probe_prefix(firing.cpu, firing.probe_id, firing.function, firing.name);
}

void TextOutput::end_firing() {
  if (!quiet_firing_) pending_ += "\n";
}

void TextOutput::trace(const abi::Value& value) { pending_ += render_trace(value, quiet_firing_); }

void TextOutput::printf(const printf_spec::Format& format, std::span<const abi::Value> args) {
  pending_ += render_format(format, args);
}

void TextOutput::printa(const printf_spec::Format* format, std::span<abi::Aggregation* const> aggregations) {
  const abi::SortOptions sort = abi::sort_options(options_);
  pending_ += format ? printa_formatted(*format, aggregations, sort) : printa_plain(aggregations, sort);
}

void TextOutput::report(std::string_view, std::string_view text) { pending_ += text; }

void TextOutput::end_of_run(std::span<const abi::Aggregation* const> aggregations) {
  pending_ += print_end_of_run(aggregations, abi::sort_options(options_));
}

void TextOutput::drops(abi::DropKind kind, uint64_t count, std::optional<unsigned> cpu) {
  switch (kind) {
    case abi::DropKind::Output: return message(output_drops(count, cpu.value_or(0)));
    case abi::DropKind::Aggregation: return message(aggregation_drops(count, cpu.value_or(0)));
    case abi::DropKind::DynamicVariable: return message(dynamic_variable_drops(count, cpu));
    case abi::DropKind::Speculative: return message(speculative_drops(count, cpu));
    case abi::DropKind::SpeculationUnavailable: return message(failed_speculations_unavailable(count));
  }
}

void TextOutput::fault(const abi::Fault& f) {
  message(probe_error(f.enabled_id, f.probe_id, f.probe, f.what, f.action, f.site));
}

void TextOutput::error(std::string_view text) { message("dsched: " + std::string(text) + "\n"); }

void TextOutput::warning(std::string_view text) { message("dsched: " + std::string(text) + "\n"); }

void TextOutput::flush() {
  if (pending_.empty() || failed_) {
    pending_.clear();
    return;
  }
  bool written = std::fwrite(pending_.data(), 1, pending_.size(), out_) == pending_.size();
  written = std::fflush(out_) == 0 && written;
  pending_.clear();
  if (!written) {
    failed_ = true;
    message("dsched: write error on " + out_name_ + ": " + std::strerror(errno) + "\n");
  }
}

void TextOutput::message(const std::string& line) {
  flush();  // a message follows the data printed before it
  std::fwrite(line.data(), 1, line.size(), err_);
  std::fflush(err_);
}

}  // namespace dsched::output
