// What quantize(), lquantize() and llquantize() share: their value words are bucket counts; each
// says which bucket a value falls in (in BPF and here), how its buckets print, and which rows
// DTrace prints around the data. Ordering is DTrace's: by the sum of bucket value * count, then by
// the count of the bucket that holds zero.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "lang/builtins/builtin.h"

namespace dsched::lang {

class Histogram : public AggregatingFunction {
 public:
  bool takes_increment() const override { return true; }

  // The bucket `value` falls in (the BPF update computes the same).
  virtual size_t bucket(std::span<const int64_t> params, int64_t value) const = 0;

  abi::AggValue value(std::span<const int64_t> params, std::span<const int64_t> words, uint64_t normal) const override;
  abi::OrderKey order_key(std::span<const int64_t> params, std::span<const int64_t> words) const override;

 protected:
  // How each bucket prints: its lower bound, or a label for an open-ended outer bucket.
  virtual std::vector<abi::HistogramRow> rows(std::span<const int64_t> params) const = 0;
  // The value each bucket stands for when ordering (the outer buckets stand just outside the range).
  virtual std::vector<int64_t> order_values(std::span<const int64_t> params) const = 0;
  // Rows are printed from one empty bucket before the first with data to one after the last. Only
  // buckets before `data_end` count as data; without data, buckets [first_empty, last_empty] print.
  struct EmptyRows {
    size_t first_empty, last_empty;
  };
  virtual size_t data_end(size_t buckets) const { return buckets; }
  virtual EmptyRows empty_rows() const = 0;
  // The label of an open-ended bucket: "< 10", ">= 100".
  static std::string bound_label(const char* relation, int64_t bound);
};

}  // namespace dsched::lang
