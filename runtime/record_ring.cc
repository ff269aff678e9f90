#include "runtime/record_ring.h"

namespace dsched {

void RecordRing::keep(uint32_t cpu, std::string_view record) {
  const uint64_t size = buffer_footprint(record.size());
  if (phase_ == Phase::Begin) begin_cpu_ = cpu;
  if (phase_ == Phase::End) end_cpu_ = cpu;
  if (size > bytes_per_cpu_) {
    ++drops_[cpu];
    return;
  }
  CpuBuffer& buffer = cpus_[cpu];
  while (buffer.bytes + size > bytes_per_cpu_) {
    buffer.bytes -= buffer_footprint(buffer.records.front().size());
    buffer.records.pop_front();
    if (buffer.begin_records) --buffer.begin_records;
  }
  buffer.records.emplace_back(record);
  buffer.bytes += size;
}

void RecordRing::begin(uint32_t cpu) {
  phase_ = Phase::Begin;
  begin_cpu_ = cpu;
}

void RecordRing::begin_done() {
  phase_ = Phase::Tracing;
  if (auto first = cpus_.find(begin_cpu_); first != cpus_.end()) first->second.begin_records = first->second.records.size();
}

void RecordRing::begin_end(uint32_t cpu) {
  phase_ = Phase::End;
  end_cpu_ = cpu;
}

void RecordRing::drain(const std::function<void(std::string_view record)>& print) {
  auto print_front = [&](CpuBuffer& buffer, size_t count) {
    for (; count && !buffer.records.empty(); --count) {
      std::string record = std::move(buffer.records.front());
      buffer.records.pop_front();
      buffer.bytes -= buffer_footprint(record.size());
      print(record);
    }
  };
  if (auto first = cpus_.find(begin_cpu_); first != cpus_.end())
    print_front(first->second, begin_cpu_ == end_cpu_ ? first->second.begin_records : first->second.records.size());
  for (auto& [cpu, buffer] : cpus_)
    if (cpu != end_cpu_) print_front(buffer, buffer.records.size());
  if (auto last = cpus_.find(end_cpu_); last != cpus_.end()) print_front(last->second, last->second.records.size());
  cpus_.clear();
}

}  // namespace dsched
