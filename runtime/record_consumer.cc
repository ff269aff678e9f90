#include "runtime/record_consumer.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "runtime/output/printf_render.h"

namespace dsched {

RecordConsumer::RecordConsumer(const abi::CompiledProgram& program, AggregationStore& aggregations,
                               abi::Output& output, abi::Options& options, abi::Symbolizer* symbols)
    : program_(program), aggregations_(aggregations), output_(output), options_(options), symbols_(symbols) {}

void RecordConsumer::consume(std::string_view record) {
  if (record.size() < sizeof(abi::RecordHeader)) return;
  abi::RecordHeader header;
  std::memcpy(&header, record.data(), sizeof header);
  if (header.epid == abi::kFaultEpid) {
    if (record.size() < sizeof(abi::FaultRecord)) return;
    abi::FaultRecord fault;
    std::memcpy(&fault, record.data(), sizeof fault);
    if (fault.clause_epid >= program_.records.size()) return;
    return ring_ ? ring_->keep(header.cpu, record) : report_fault(fault);
  }
  if (header.epid == abi::kProcessEpid) {
    abi::ProcessRecord process;
    if (record.size() < sizeof process || !symbols_) return;
    std::memcpy(&process, record.data(), sizeof process);
    symbols_->remember_process(static_cast<uint32_t>(process.pid));
    return;
  }
  if (header.epid >= program_.records.size()) return;
  const abi::RecordLayout& layout = program_.records[header.epid];
  if (record.size() < layout.size) return;
  if (header.speculative) {
    if (header.spec == 0) return;  // speculate(0): speculation() found no free buffer: dropped
    uint64_t& used = speculation_bytes_[header.spec];
    if (used + record.size() > uint64_t(options_.number("specsize"))) {
      ++speculative_drops_;
    } else {
      used += record.size();
      speculations_[header.spec].emplace_back(record);
    }
    // A commit() or discard() after speculate() acts where the probe fires, on a buffer that
    // already holds this record.
    return run_actions(record, layout, Actions::WhenTraced);
  }
  deliver(record, layout, Actions::All);
}

void RecordConsumer::deliver(std::string_view record, const abi::RecordLayout& layout, Actions pending) {
  // The processes whose addresses the record holds are read now, while they still run.
  if (symbols_) {
    abi::RecordView view(record);
    for (const abi::RecordedAction& action : layout.actions)
      for (const abi::RecordField& field : action.fields)
        if (field.addresses.user && (field.kind == abi::RecordField::Kind::Stack ||
                                     field.kind == abi::RecordField::Kind::Symbol))
          symbols_->remember_process(view.field(field).pid);
  }
  if (!ring_) return print(record, layout, pending);
  abi::RecordHeader header;
  std::memcpy(&header, record.data(), sizeof header);
  ring_->keep(header.cpu, record);
  // exit(), commit() and discard() act now: a committed speculation's records are kept after this one.
  if (pending == Actions::All) run_actions(record, layout, Actions::WhenTraced);
}

void RecordConsumer::print_kept() {
  RecordRing* ring = std::exchange(ring_, nullptr);
  if (ring) ring->drain([this](std::string_view record) { print_kept_record(record); });
}

void RecordConsumer::print_kept_record(std::string_view record) {
  abi::RecordHeader header;
  std::memcpy(&header, record.data(), sizeof header);
  if (header.epid != abi::kFaultEpid) return print(record, program_.records[header.epid], Actions::Consumer);
  abi::FaultRecord fault;
  std::memcpy(&fault, record.data(), sizeof fault);
  report_fault(fault);
}

void RecordConsumer::report_fault(const abi::FaultRecord& fault) {
  const abi::RecordLayout& layout = program_.records[fault.clause_epid];
  // As DTrace, a fault of an ERROR clause is counted, not reported (it would fire ERROR again).
  if (layout.probe_provider == "dtrace" && layout.probe_name == "ERROR") {
    ++errors_in_error_probe_;
    return;
  }
  std::string what = "divide-by-zero";
  if (fault.kind == static_cast<uint32_t>(abi::FaultKind::IllegalOperation)) what = "illegal operation";
  if (fault.kind == static_cast<uint32_t>(abi::FaultKind::NoScratch)) what = "out of scratch space";
  if (fault.kind == static_cast<uint32_t>(abi::FaultKind::BadIndex))
    what = "index out of bounds (" + std::to_string(int64_t(fault.address)) + ")";
  if (fault.kind == static_cast<uint32_t>(abi::FaultKind::InvalidAddress)) {
    char address[32];
    std::snprintf(address, sizeof address, "0x%llx", static_cast<unsigned long long>(fault.address));
    what = std::string("invalid address (") + address + ")";
  }
  output_.fault({fault.clause_epid + 1, layout.probe_id, layout.probe_description, what, fault.action, fault.site});
}

abi::Aggregation& RecordConsumer::read_aggregation(uint32_t id) {
  if (id >= read_in_record_.size()) read_in_record_.resize(id + 1, false);
  if (read_in_record_[id]) return aggregations_.get(id);
  read_in_record_[id] = true;
  return aggregations_.refresh(id);
}

void RecordConsumer::print(std::string_view bytes, const abi::RecordLayout& layout, Actions actions) {
  read_in_record_.assign(read_in_record_.size(), false);
  abi::RecordHeader header;
  std::memcpy(&header, bytes.data(), sizeof header);
  abi::Firing firing{header.cpu,         layout.probe_id,       layout.probe_provider, layout.probe_module,
                     layout.probe_function, layout.probe_name, std::nullopt};
  if (program_.stamped_records) {
    abi::RecordStamp stamp;
    std::memcpy(&stamp, bytes.data() + sizeof header, sizeof stamp);
    firing.stamp = stamp;
  }
  output_.begin_firing(firing);
  run_actions(bytes, layout, actions);
  output_.end_firing();
}

void RecordConsumer::run_actions(std::string_view bytes, const abi::RecordLayout& layout, Actions actions) {
  abi::RecordView record(bytes);
  for (const abi::RecordedAction& action : layout.actions) {
    if (actions != Actions::All && action.handler->acts_when_traced() != (actions == Actions::WhenTraced)) continue;
    action.handler->run(action, record, *this);
  }
}

void RecordConsumer::exit(int status) {
  if (!exit_status_ || ending_) exit_status_ = status;
}

void RecordConsumer::commit(uint32_t speculation) {
  auto buffered = speculations_.extract(speculation);
  speculation_bytes_.erase(speculation);
  if (buffered.empty()) return;
  for (const std::string& saved : buffered.mapped()) {
    abi::RecordHeader header;
    std::memcpy(&header, saved.data(), sizeof header);
    deliver(saved, program_.records[header.epid], Actions::Consumer);
  }
}

void RecordConsumer::discard(uint32_t speculation) {
  speculations_.erase(speculation);
  speculation_bytes_.erase(speculation);
}

void RecordConsumer::run_command(const printf_spec::Format& format, std::span<const abi::Value> args) {
  std::string command = output::render_format(format, args);
  output_.flush();  // what the run printed before comes before what the command prints
  if (std::system(command.c_str()) == -1) output_.warning("system() failed to run: " + command);
}

void RecordConsumer::reopen_output(const printf_spec::Format& format, std::span<const abi::Value> args) {
  output_.reopen(output::render_format(format, args));
}

void RecordConsumer::set_option(std::string_view name, const std::optional<std::string>& value) {
  const abi::OptionSpec* spec = abi::find_option(name);
  abi::OptionValue parsed;
  std::string error;
  if (!abi::parse_option(name, value, &parsed, &error)) return output_.warning("setopt(): " + error);
  if (spec->phase != abi::OptionPhase::Dynamic)
    return output_.warning("setopt(): option " + std::string(name) + " cannot change while tracing");
  options_.set(name, parsed);
}

}  // namespace dsched
