#include "runtime/record_ring.h"

#include <algorithm>
#include <cstring>

namespace dsched {

void RecordRing::CpuBuffer::copy_in(uint64_t at, const void* from, size_t size) {
  at %= bytes_.size();
  const size_t first = std::min<uint64_t>(size, bytes_.size() - at);
  std::memcpy(bytes_.data() + at, from, first);
  std::memcpy(bytes_.data(), static_cast<const char*>(from) + first, size - first);
}

void RecordRing::CpuBuffer::copy_out(uint64_t at, void* to, size_t size) const {
  at %= bytes_.size();
  const size_t first = std::min<uint64_t>(size, bytes_.size() - at);
  std::memcpy(to, bytes_.data() + at, first);
  std::memcpy(static_cast<char*>(to) + first, bytes_.data(), size - first);
}

uint64_t RecordRing::CpuBuffer::front_size() const {
  uint64_t size;
  copy_out(head_, &size, sizeof size);
  return size;
}

void RecordRing::CpuBuffer::push_back(std::string_view record) {
  const uint64_t footprint = buffer_footprint(record.size());
  // Until the array is full the records start at 0 and lie in one piece, so it can grow.
  if (used_ + footprint > bytes_.size() && bytes_.size() < capacity_)
    bytes_.resize(std::min(capacity_, std::max({used_ + footprint, 2 * bytes_.size(), uint64_t(4096)})));
  while (used_ + footprint > bytes_.size()) {
    const uint64_t oldest = buffer_footprint(front_size());
    head_ = (head_ + oldest) % bytes_.size();
    used_ -= oldest;
    --records_;
    if (begin_records) --begin_records;
  }
  const uint64_t size = record.size();
  copy_in(head_ + used_, &size, sizeof size);
  copy_in(head_ + used_ + sizeof size, record.data(), record.size());
  used_ += footprint;
  ++records_;
}

std::string RecordRing::CpuBuffer::pop_front() {
  std::string record(front_size(), '\0');
  copy_out(head_ + sizeof(uint64_t), record.data(), record.size());
  const uint64_t footprint = buffer_footprint(record.size());
  head_ = (head_ + footprint) % bytes_.size();
  used_ -= footprint;
  --records_;
  if (begin_records) --begin_records;
  return record;
}

void RecordRing::keep(uint32_t cpu, std::string_view record) {
  if (phase_ == Phase::Begin) begin_cpu_ = cpu;
  if (phase_ == Phase::End) end_cpu_ = cpu;
  if (buffer_footprint(record.size()) > bytes_per_cpu_) {
    ++drops_[cpu];
    return;
  }
  cpus_.try_emplace(cpu, bytes_per_cpu_).first->second.push_back(record);
}

void RecordRing::begin(uint32_t cpu) {
  phase_ = Phase::Begin;
  begin_cpu_ = cpu;
}

void RecordRing::begin_done() {
  phase_ = Phase::Tracing;
  if (auto first = cpus_.find(begin_cpu_); first != cpus_.end()) first->second.begin_records = first->second.size();
}

void RecordRing::begin_end(uint32_t cpu) {
  phase_ = Phase::End;
  end_cpu_ = cpu;
}

void RecordRing::drain(const std::function<void(std::string_view record)>& print) {
  auto print_front = [&](CpuBuffer& buffer, size_t count) {
    for (; count && !buffer.empty(); --count) print(buffer.pop_front());
  };
  if (auto first = cpus_.find(begin_cpu_); first != cpus_.end())
    print_front(first->second, begin_cpu_ == end_cpu_ ? first->second.begin_records : first->second.size());
  for (auto& [cpu, buffer] : cpus_)
    if (cpu != end_cpu_) print_front(buffer, buffer.size());
  if (auto last = cpus_.find(end_cpu_); last != cpus_.end()) print_front(last->second, last->second.size());
  cpus_.clear();
}

}  // namespace dsched
