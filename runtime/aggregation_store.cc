#include "runtime/aggregation_store.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "runtime/loader.h"

namespace dsched {

namespace {

constexpr uint32_t kMostKeysPerRead = 4096;

bool merges_keys(const abi::AggregationSpec& spec) {
  return std::any_of(spec.keys.begin(), spec.keys.end(), [](const abi::KeyComponent& c) {
    return c.kind == abi::KeyComponent::Kind::Symbol && c.addresses.form != abi::AddressForm::Frame;
  });
}

}  // namespace

AggregationStore::AggregationStore(const std::vector<abi::AggregationSpec>& specs, const LoadedObject& object,
                                   abi::Symbolizer* symbols, bool per_cpu)
    : cpus_(libbpf_num_possible_cpus()), symbols_(symbols), merged_(specs.size()) {
  for (const abi::AggregationSpec& spec : specs) {
    aggregations_.emplace_back(spec);
    if (per_cpu) aggregations_.back().keep_per_cpu();
    fds_.push_back(object.map_fd(abi::aggregation_map_name(spec.id)));
    // A buffer for 4096 keys of a map that holds two (@[cpu]) took longer to clear than to read.
    bpf_map_info info{};
    uint32_t size = sizeof info;
    batches_.push_back(bpf_obj_get_info_by_fd(fds_.back(), &info, &size) == 0 && info.max_entries
                           ? std::min<uint32_t>(info.max_entries, kMostKeysPerRead)
                           : kMostKeysPerRead);
  }
}

abi::Aggregation& AggregationStore::refresh(uint32_t id) {
  abi::Aggregation& agg = aggregations_.at(id);
  agg.reset();
  const abi::AggregationSpec& spec = agg.spec();
  std::vector<uint64_t> values(spec.value_words() * cpus_);
  int fd = fds_.at(id);
  if (spec.keys.empty()) {
    // Each CPU's value is followed by its presence word, which merge() does not take.
    const size_t words = spec.value_words();
    std::vector<uint64_t> map_values(spec.map_value_words() * cpus_);
    uint32_t zero = 0;
    if (bpf_map_lookup_elem(fd, &zero, map_values.data()) != 0) return agg;
    bool present = false;
    for (int cpu = 0; cpu < cpus_; ++cpu) {
      const uint64_t* from = &map_values[cpu * (words + 1)];
      std::copy(from, from + words, &values[cpu * words]);
      present = present || from[words] != 0;
    }
    if (present) agg.merge({}, values);
    return agg;
  }
  const bool merging = symbols_ && merges_keys(spec);
  // A batched read gives each key once; a key-by-key walk restarts when the key it stands on is
  // deleted meanwhile, and may give a key again.
  bool distinct = true;
  auto take = [&](std::span<const uint8_t> key, std::span<const uint64_t> per_cpu_values) {
    if (!merging) return distinct ? agg.merge_new(key, per_cpu_values) : agg.merge(key, per_cpu_values);
    std::string raw(key.begin(), key.end());
    std::string merged = merged_key(spec, raw);
    agg.merge({reinterpret_cast<const uint8_t*>(merged.data()), merged.size()}, per_cpu_values);
    merged_[id][merged].push_back(std::move(raw));
  };
  merged_.at(id).clear();
  if (read_batches(fd, batches_.at(id), spec.key_size(), values.size(), take)) return agg;
  agg.reset();
  merged_.at(id).clear();
  distinct = false;
  std::vector<uint8_t> key(spec.key_size()), next(spec.key_size());
  const void* previous = nullptr;
  while (bpf_map_get_next_key(fd, previous, next.data()) == 0) {
    key.swap(next);
    previous = key.data();
    if (bpf_map_lookup_elem(fd, key.data(), values.data()) == 0) take(key, values);
  }
  return agg;
}

// A key at a time, a million keys took two million system calls.
bool AggregationStore::read_batches(int fd, uint32_t batch, size_t key_size, size_t words_per_key,
                                    const KeyValues& take) {
  // Not cleared first: the kernel writes what is read.
  auto keys = std::make_unique_for_overwrite<uint8_t[]>(batch * key_size);
  auto values = std::make_unique_for_overwrite<uint64_t[]>(batch * words_per_key);
  // The position between calls is opaque to user space; it is at most a key's size.
  std::vector<uint8_t> position(std::max<size_t>(key_size, 8)), next_position(position.size());
  void* from = nullptr;
  for (;;) {
    uint32_t count = batch;
    int err = bpf_map_lookup_batch(fd, from, next_position.data(), keys.get(), values.get(), &count, nullptr);
    if (err && errno != ENOENT) return false;
    for (uint32_t i = 0; i < count; ++i)
      take({keys.get() + i * key_size, key_size}, {values.get() + i * words_per_key, words_per_key});
    if (err) return true;  // ENOENT: that was the last batch
    position.swap(next_position);
    from = position.data();
  }
}

std::string AggregationStore::merged_key(const abi::AggregationSpec& spec, std::string key) {
  for (size_t i = 0; i < spec.keys.size(); ++i) {
    const abi::KeyComponent& c = spec.keys[i];
    if (c.kind != abi::KeyComponent::Kind::Symbol || c.addresses.form == abi::AddressForm::Frame) continue;
    const abi::Value v = abi::key_value(spec, key, i);
    const abi::Symbol found = v.user ? symbols_->user(v.pid, v.bits) : symbols_->kernel(v.bits);
    uint64_t address = v.bits;
    if (c.addresses.form == abi::AddressForm::Function && !found.function.empty())
      address = found.start;
    else if (c.addresses.form == abi::AddressForm::Module && !found.module.empty())
      address = module_address_.try_emplace({v.pid, found.module}, v.bits).first->second;
    std::memcpy(key.data() + abi::key_offset(spec, i) + (v.user ? 8 : 0), &address, sizeof address);
  }
  return key;
}

std::vector<std::string> AggregationStore::map_keys(uint32_t id, const std::string& entry_key) const {
  auto found = merged_.at(id).find(entry_key);
  if (found == merged_.at(id).end()) return {entry_key};
  return found->second;
}

std::vector<const abi::Aggregation*> AggregationStore::refresh_all() {
  std::vector<const abi::Aggregation*> all;
  for (uint32_t id = 0; id < aggregations_.size(); ++id) all.push_back(&refresh(id));
  return all;
}

void AggregationStore::clear(uint32_t id) {
  abi::Aggregation& agg = refresh(id);
  const abi::AggregationSpec& spec = agg.spec();
  std::vector<uint64_t> zeroes(spec.map_value_words() * cpus_);
  for (const abi::AggEntry& entry : agg.entries()) {
    if (spec.keys.empty()) {
      zeroes[spec.value_words()] = 1;  // the key-less entry stays, as keys do
      clear_key_less(id, zeroes);
      continue;
    }
    for (const std::string& key : map_keys(id, entry.key))
      bpf_map_update_elem(fds_.at(id), key.data(), zeroes.data(), BPF_EXIST);
  }
  agg.clear();
}

void AggregationStore::clear_key_less(uint32_t id, const std::vector<uint64_t>& map_values) {
  uint32_t zero = 0;
  bpf_map_update_elem(fds_.at(id), &zero, map_values.data(), BPF_EXIST);
}

void AggregationStore::trunc(uint32_t id, int64_t n) {
  abi::Aggregation& agg = refresh(id);
  for (const std::string& key : agg.trunc(n)) {
    if (agg.spec().keys.empty()) {
      clear_key_less(id, std::vector<uint64_t>(agg.spec().map_value_words() * cpus_));
      break;
    }
    for (const std::string& map_key : map_keys(id, key)) bpf_map_delete_elem(fds_.at(id), map_key.data());
  }
}

}  // namespace dsched
