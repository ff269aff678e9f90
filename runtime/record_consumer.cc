#include "runtime/record_consumer.h"

#include <cstdio>
#include <cstring>
#include <utility>
#include <iostream>
#include <sstream>

#include "lang/printf_spec.h"
#include "probes/ctprof/ctprof.h"
#include "runtime/output/agg_print.h"
#include "runtime/output/printf_render.h"
#include "runtime/output/probe_lines.h"

namespace dsched {
namespace {

output::Value field_value(std::string_view record, const RecordField& field) {
  if (field.kind == RecordField::Kind::String) {
    std::string_view text = record.substr(field.offset, field.size);
    return output::Value::string(std::string(text.substr(0, text.find('\0'))));
  }
  int64_t bits;
  std::memcpy(&bits, record.data() + field.offset, sizeof bits);
  return output::Value::integer(bits, field.size, field.is_signed);
}

std::vector<output::Value> field_values(std::string_view record, const std::vector<RecordField>& fields) {
  std::vector<output::Value> values;
  for (const RecordField& field : fields) values.push_back(field_value(record, field));
  return values;
}


}  // namespace

RecordConsumer::RecordConsumer(const CompiledProgram& program, AggregationStore& aggregations,
                               ConsumerOptions options)
    : program_(program), aggregations_(aggregations), options_(options) {}

std::string RecordConsumer::take_output() { return std::exchange(out_, {}); }

void RecordConsumer::consume(std::string_view record) {
  if (record.size() < sizeof(RecordHeader)) return;
  RecordHeader header;
  std::memcpy(&header, record.data(), sizeof header);
  if (header.epid == kFaultEpid) return report_fault(record);
  if (header.epid >= program_.records.size()) return;
  const RecordLayout& layout = program_.records[header.epid];
  if (record.size() < layout.size) return;
  if (header.speculative) {
    if (header.spec == 0) return;  // speculate(0): speculation() found no free buffer: dropped
    uint64_t& used = speculation_bytes_[header.spec];
    if (options_.specsize && used + record.size() > options_.specsize) {
      ++speculative_drops_;
      return;
    }
    used += record.size();
    speculations_[header.spec].emplace_back(record);
    return;
  }
  print(record, layout);
}

const printf_spec::Format& RecordConsumer::format_of(const RecordedAction& action) {
  auto [it, inserted] = formats_.try_emplace(&action);
  if (inserted) it->second = printf_spec::parse_format(action.format).format;
  return it->second;
}

void RecordConsumer::report_fault(std::string_view record) {
  if (record.size() < sizeof(FaultRecord)) return;
  FaultRecord fault;
  std::memcpy(&fault, record.data(), sizeof fault);
  if (fault.clause_epid >= program_.records.size()) return;
  const RecordLayout& layout = program_.records[fault.clause_epid];
  std::string what = "divide-by-zero";
  if (fault.kind == static_cast<uint32_t>(FaultKind::InvalidAddress)) {
    char address[32];
    std::snprintf(address, sizeof address, "0x%llx", static_cast<unsigned long long>(fault.address));
    what = std::string("invalid address (") + address + ")";
  }
  if (flush_) flush_(take_output());  // the error line comes after what the run printed before it
  std::cerr << output::probe_error(fault.clause_epid + 1, layout.probe_id, layout.probe_description, what,
                                   fault.action, fault.site);
  if (on_fault_) on_fault_(fault);
}

void RecordConsumer::print(std::string_view record, const RecordLayout& layout) {
  RecordHeader header;
  std::memcpy(&header, record.data(), sizeof header);
  if (!options_.quiet) {
    if (!heading_printed_) out_ += output::heading();
    heading_printed_ = true;
    out_ += output::probe_prefix(header.cpu, layout.probe_id, layout.probe_function, layout.probe_name);
  }
  for (const RecordedAction& action : layout.actions) run_action(record, action);
  if (!options_.quiet) out_ += "\n";
}

void RecordConsumer::run_action(std::string_view record, const RecordedAction& action) {
  using Kind = RecordedAction::Kind;
  auto aggregations = [&] {
    std::vector<output::Aggregation*> aggs;
    for (uint32_t id : action.aggregations) aggs.push_back(&aggregations_.refresh(id));
    return aggs;
  };
  switch (action.kind) {
    case Kind::Trace:
      out_ += output::render_trace(field_value(record, action.fields[0]), options_.quiet);
      break;
    case Kind::Printf:
      out_ += output::render_format(format_of(action), field_values(record, action.fields));
      break;
    case Kind::Printa: {
      auto aggs = aggregations();
      if (action.format.empty())
        out_ += output::printa_plain(aggs, options_.sort);
      else
        out_ += output::printa_formatted(format_of(action), aggs, options_.sort);
      break;
    }
    case Kind::Exit:
      if (!exit_status_) exit_status_ = static_cast<int>(field_value(record, action.fields[0]).as_signed());
      break;
    case Kind::Clear:
      for (uint32_t id : action.aggregations) aggregations_.clear(id);
      break;
    case Kind::Trunc:
      for (uint32_t id : action.aggregations)
        aggregations_.trunc(id, action.has_count ? field_value(record, action.fields[0]).as_signed() : 0);
      break;
    case Kind::Normalize:
      for (uint32_t id : action.aggregations) {
        int64_t factor = field_value(record, action.fields[0]).as_signed();
        if (factor > 0) aggregations_.get(id).normalize(static_cast<uint64_t>(factor));
      }
      break;
    case Kind::Denormalize:
      for (uint32_t id : action.aggregations) aggregations_.get(id).denormalize();
      break;
    case Kind::Commit:
    case Kind::Discard: {
      auto id = static_cast<uint32_t>(field_value(record, action.fields[0]).as_unsigned());
      auto buffered = speculations_.extract(id);
      speculation_bytes_.erase(id);
      if (action.kind == Kind::Commit && !buffered.empty()) {
        for (const std::string& saved : buffered.mapped()) {
          RecordHeader header;
          std::memcpy(&header, saved.data(), sizeof header);
          print(saved, program_.records[header.epid]);
        }
      }
      break;
    }
    case Kind::System: {
      std::string command = output::render_format(format_of(action), field_values(record, action.fields));
      if (flush_) flush_(take_output());
      if (std::system(command.c_str()) == -1) std::cerr << "dsched: system() failed to run: " << command << "\n";
      break;
    }
    case Kind::Setopt:
      if (action.format == "quiet") options_.quiet = true;
      break;
    case Kind::CtprofSnapshot: {
      std::ostringstream diagnostics;
      std::string error = ctprof::write_snapshot(field_value(record, action.fields[0]).text, diagnostics);
      std::cerr << diagnostics.str();
      if (!error.empty()) std::cerr << "dsched: ctprof_snapshot(): " << error << "\n";
      break;
    }
    case Kind::CtprofCompare: {
      std::vector<output::Value> args = field_values(record, action.fields);
      std::ostringstream table;
      std::string error =
          ctprof::compare_files(args[0].text, args[1].text, args.size() > 2 ? args[2].text : "", table);
      out_ += table.str();
      if (!error.empty()) std::cerr << "dsched: ctprof_compare(): " << error << "\n";
      break;
    }
  }
}

}  // namespace dsched
