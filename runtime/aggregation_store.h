// The user-space side of aggregations: reads the per-CPU maps into abi::Aggregation snapshots
// and applies clear() and trunc() to the kernel's maps as well.
#pragma once

#include <memory>
#include <vector>

#include "abi/aggregation.h"

namespace dsched {

class LoadedObject;

class AggregationStore {
 public:
  AggregationStore(const std::vector<abi::AggregationSpec>& specs, const LoadedObject& object);

  // Re-reads aggregation `id` from its map (entries only; normalisation and the printed mark stay).
  abi::Aggregation& refresh(uint32_t id);
  // Every aggregation, each refreshed.
  std::vector<const abi::Aggregation*> refresh_all();
  abi::Aggregation& get(uint32_t id) { return aggregations_.at(id); }

  void clear(uint32_t id);             // zero every value, keep the keys
  void trunc(uint32_t id, int64_t n);  // keep the n largest (n < 0: smallest); 0 removes all

 private:
  bool read_batches(int fd, abi::Aggregation& agg, size_t words_per_key);

  std::vector<abi::Aggregation> aggregations_;
  std::vector<int> fds_;
  int cpus_;
};

}  // namespace dsched
