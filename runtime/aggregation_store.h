// The user-space side of aggregations: reads the per-CPU maps into abi::Aggregation snapshots
// and applies clear() and trunc() to the kernel's maps as well. Keys of sym()/func() and mod()
// (and their user-space twins) are merged as DTrace merges them: every address in one function,
// or in one module, is one entry.
#pragma once

#include <functional>
#include <memory>
#include <span>
#include <vector>

#include <map>
#include <string>
#include <unordered_map>

#include "abi/aggregation.h"
#include "abi/symbols.h"

namespace dsched {

class LoadedObject;

class AggregationStore {
 public:
  // `symbols` (may be null: symbol keys stay as recorded) finds what holds the addresses of keys.
  // `per_cpu` (aggpercpu): entries keep each CPU's value too.
  AggregationStore(const std::vector<abi::AggregationSpec>& specs, const LoadedObject& object,
                   abi::Symbolizer* symbols = nullptr, bool per_cpu = false);

  // Re-reads aggregation `id` from its map (entries only; normalisation and the printed mark stay).
  abi::Aggregation& refresh(uint32_t id);
  // Every aggregation, each refreshed.
  std::vector<const abi::Aggregation*> refresh_all();
  abi::Aggregation& get(uint32_t id) { return aggregations_.at(id); }

  void clear(uint32_t id);             // zero every value, keep the keys
  void trunc(uint32_t id, int64_t n);  // keep the n largest (n < 0: smallest); 0 removes all

 private:
  using KeyValues = std::function<void(std::span<const uint8_t> key, std::span<const uint64_t> per_cpu_values)>;
  // Reads map `fd` up to `batch` keys per system call, handing each key to `take`; false when the
  // kernel cannot (a hash bucket larger than a batch), after handing over part of the map.
  static bool read_batches(int fd, uint32_t batch, size_t key_size, size_t words_per_key, const KeyValues& take);
  // A key as it prints: each symbol component's address replaced by its function's start, or by
  // the first address met in its module.
  std::string merged_key(const abi::AggregationSpec& spec, std::string key);
  // The map keys behind an entry of aggregation `id` (several when symbol keys merged).
  std::vector<std::string> map_keys(uint32_t id, const std::string& entry_key) const;
  // Writes the one entry of key-less aggregation `id`: each CPU's value and presence words.
  void clear_key_less(uint32_t id, const std::vector<uint64_t>& map_values);

  std::vector<abi::Aggregation> aggregations_;
  std::vector<int> fds_;
  std::vector<uint32_t> batches_;  // by id: keys read per system call, no more than the map holds
  int cpus_;
  abi::Symbolizer* symbols_;
  // By aggregation id: merged key -> the map keys merged into it (only where keys merge).
  std::vector<std::unordered_map<std::string, std::vector<std::string>>> merged_;
  // (pid, module) -> the address that stands for the module in merged keys.
  std::map<std::pair<uint32_t, std::string>, uint64_t> module_address_;
};

}  // namespace dsched
