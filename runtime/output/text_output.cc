#include "text_output.h"

#include "abi/aggregation_order.h"
#include "agg_print.h"
#include "printf_render.h"
#include "probe_lines.h"

namespace dsched::output {

TextOutput::TextOutput(FILE* out, std::string out_name, FILE* err, const abi::Options& options,
                       abi::Symbolizer* symbols)
    : data_(out, std::move(out_name)), err_(err), options_(options), symbols_(symbols) {}

RenderContext TextOutput::context() const {
  return {symbols_,
          int(options_.number("stackindent")),
          options_.flag("foldstacks"),
          options_.flag("rawbytes"),
          options_.flag("aggzoom"),
          options_.string_capacity()};
}

void TextOutput::matched(std::string_view what, bool is_script, uint64_t probes) {
  if (!options_.quiet()) message(matched_probes(is_script, what, probes));
}

void TextOutput::begin_firing(const abi::Firing& firing) {
  quiet_firing_ = options_.quiet();
  bool flow = options_.flag("flowindent");
  if (quiet_firing_ && !flow) return;  // dtrace(1) prints the flow column quiet or not
  if (!heading_printed_) data_.append(flow ? flow_heading() : heading());
  heading_printed_ = true;
  data_.append(flow ? flow_prefix(firing.cpu, firing.provider, firing.function, firing.name, flow_depth_)
                    : probe_prefix(firing.cpu, firing.probe_id, firing.function, firing.name));
}

void TextOutput::end_firing() {
  if (!quiet_firing_) data_.append("\n");
}

void TextOutput::trace(const abi::Value& value) { data_.append(render_trace(value, quiet_firing_, context())); }

void TextOutput::printf(const printf_spec::Format& format, std::span<const abi::Value> args) {
  data_.append(render_format(format, args, context()));
}

void TextOutput::printa(const printf_spec::Format* format, std::span<abi::Aggregation* const> aggregations) {
  const abi::SortOptions sort = abi::sort_options(options_);
  data_.append(format ? printa_formatted(*format, aggregations, sort, context())
                      : printa_plain(aggregations, sort, context()));
}

void TextOutput::report(std::string_view, std::string_view text) { data_.append(text); }

void TextOutput::interrupted() { data_.append("\n"); }

void TextOutput::end_of_run(std::span<const abi::Aggregation* const> aggregations) {
  data_.append(print_end_of_run(aggregations, abi::sort_options(options_), context()));
}

void TextOutput::drops(abi::DropKind kind, uint64_t count, std::optional<unsigned> cpu) {
  message(drop_report(kind, count, cpu));
}

void TextOutput::fault(const abi::Fault& f) {
  message(probe_error(f.enabled_id, f.probe_id, f.probe, f.what, f.action, f.site));
}

void TextOutput::error(std::string_view text) { message("dsched: " + std::string(text) + "\n"); }

void TextOutput::warning(std::string_view text) { message("dsched: " + std::string(text) + "\n"); }

void TextOutput::truncate() {
  if (std::optional<std::string> failure = data_.truncate()) message("dsched: " + *failure + "\n");
}

void TextOutput::reopen(const std::string& path) {
  if (std::optional<std::string> failure = data_.reopen(path)) message("dsched: " + *failure + "\n");
}

void TextOutput::flush() {
  if (std::optional<std::string> failure = data_.flush()) message("dsched: " + *failure + "\n");
}

void TextOutput::message(const std::string& line) {
  flush();  // a message follows the data printed before it
  std::fwrite(line.data(), 1, line.size(), err_);
  std::fflush(err_);
}

}  // namespace dsched::output
