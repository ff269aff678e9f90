#include "runtime/record_consumer.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

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
    if (fault.clause_epid < program_.records.size()) report_fault(fault);
    return;
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
      return;
    }
    used += record.size();
    speculations_[header.spec].emplace_back(record);
    return;
  }
  print(record, layout);
}

void RecordConsumer::report_fault(const abi::FaultRecord& fault) {
  const abi::RecordLayout& layout = program_.records[fault.clause_epid];
  std::string what = "divide-by-zero";
  if (fault.kind == static_cast<uint32_t>(abi::FaultKind::IllegalOperation)) what = "illegal operation";
  if (fault.kind == static_cast<uint32_t>(abi::FaultKind::NoScratch)) what = "out of scratch space";
  if (fault.kind == static_cast<uint32_t>(abi::FaultKind::InvalidAddress)) {
    char address[32];
    std::snprintf(address, sizeof address, "0x%llx", static_cast<unsigned long long>(fault.address));
    what = std::string("invalid address (") + address + ")";
  }
  output_.fault({fault.clause_epid + 1, layout.probe_id, layout.probe_description, what, fault.action, fault.site});
}

void RecordConsumer::print(std::string_view bytes, const abi::RecordLayout& layout) {
  abi::RecordHeader header;
  std::memcpy(&header, bytes.data(), sizeof header);
  abi::RecordView record(bytes);
  abi::Firing firing{header.cpu,         layout.probe_id,       layout.probe_provider, layout.probe_module,
                     layout.probe_function, layout.probe_name, std::nullopt};
  if (program_.stamped_records) {
    abi::RecordStamp stamp;
    std::memcpy(&stamp, bytes.data() + sizeof header, sizeof stamp);
    firing.stamp = stamp;
  }
  if (symbols_) {
    for (const abi::RecordedAction& action : layout.actions)
      for (const abi::RecordField& field : action.fields)
        if (field.addresses.user && (field.kind == abi::RecordField::Kind::Stack ||
                                     field.kind == abi::RecordField::Kind::Symbol))
          symbols_->remember_process(record.field(field).pid);
  }
  output_.begin_firing(firing);
  for (const abi::RecordedAction& action : layout.actions) action.handler->run(action, record, *this);
  output_.end_firing();
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
    print(saved, program_.records[header.epid]);
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
