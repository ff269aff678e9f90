#include "runtime/aggregation_store.h"

#include <algorithm>
#include <cerrno>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "runtime/loader.h"

namespace dsched {

AggregationStore::AggregationStore(const std::vector<abi::AggregationSpec>& specs, const LoadedObject& object)
    : cpus_(libbpf_num_possible_cpus()) {
  for (const abi::AggregationSpec& spec : specs) {
    aggregations_.emplace_back(spec);
    fds_.push_back(object.map_fd(abi::aggregation_map_name(spec.id)));
  }
}

abi::Aggregation& AggregationStore::refresh(uint32_t id) {
  abi::Aggregation& agg = aggregations_.at(id);
  agg.reset();
  const abi::AggregationSpec& spec = agg.spec();
  std::vector<uint64_t> values(spec.value_words() * cpus_);
  int fd = fds_.at(id);
  if (spec.keys.empty()) {
    uint32_t zero = 0;
    if (bpf_map_lookup_elem(fd, &zero, values.data()) == 0 &&
        std::any_of(values.begin(), values.end(), [](uint64_t v) { return v != 0; }))
      agg.merge({}, values);
    return agg;
  }
  if (read_batches(fd, agg, values.size())) return agg;
  agg.reset();
  std::vector<uint8_t> key(spec.key_size()), next(spec.key_size());
  const void* previous = nullptr;
  while (bpf_map_get_next_key(fd, previous, next.data()) == 0) {
    key.swap(next);
    previous = key.data();
    if (bpf_map_lookup_elem(fd, key.data(), values.data()) == 0) agg.merge(key, values);
  }
  return agg;
}

// Many keys per system call (a key at a time, a million keys took 2 million calls); false when
// the kernel cannot (a hash bucket larger than a batch): the caller then walks key by key.
bool AggregationStore::read_batches(int fd, abi::Aggregation& agg, size_t words_per_key) {
  constexpr uint32_t kBatch = 4096;
  size_t key_size = agg.spec().key_size();
  std::vector<uint8_t> keys(kBatch * key_size);
  std::vector<uint64_t> values(kBatch * words_per_key);
  // The position between calls is opaque to user space; it is at most a key's size.
  std::vector<uint8_t> position(std::max<size_t>(key_size, 8)), next_position(position.size());
  void* from = nullptr;
  for (;;) {
    uint32_t count = kBatch;
    int err = bpf_map_lookup_batch(fd, from, next_position.data(), keys.data(), values.data(), &count, nullptr);
    if (err && errno != ENOENT) return false;
    for (uint32_t i = 0; i < count; ++i)
      agg.merge(std::span<const uint8_t>(keys.data() + i * key_size, key_size),
                std::span<const uint64_t>(values.data() + i * words_per_key, words_per_key));
    if (err) return true;  // ENOENT: that was the last batch
    position.swap(next_position);
    from = position.data();
  }
}

std::vector<const abi::Aggregation*> AggregationStore::refresh_all() {
  std::vector<const abi::Aggregation*> all;
  for (uint32_t id = 0; id < aggregations_.size(); ++id) all.push_back(&refresh(id));
  return all;
}

void AggregationStore::clear(uint32_t id) {
  abi::Aggregation& agg = refresh(id);
  std::vector<uint64_t> zeroes(agg.spec().value_words() * cpus_);
  uint32_t zero = 0;
  for (const abi::AggEntry& entry : agg.entries()) {
    const void* key = agg.spec().keys.empty() ? static_cast<const void*>(&zero) : entry.key.data();
    bpf_map_update_elem(fds_.at(id), key, zeroes.data(), BPF_EXIST);
  }
  agg.clear();
}

void AggregationStore::trunc(uint32_t id, int64_t n) {
  abi::Aggregation& agg = refresh(id);
  for (const std::string& key : agg.trunc(n)) {
    if (agg.spec().keys.empty()) {
      clear(id);
      break;
    }
    bpf_map_delete_elem(fds_.at(id), key.data());
  }
}

}  // namespace dsched
