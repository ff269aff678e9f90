// Aggregation statements: @name[keys] = f(value). The entry for the key is found (or created) in
// the aggregation's per-CPU map here; the aggregating function's descriptor emits the update of
// its value words through an AggregationUpdate.
#pragma once

#include <cstdint>
#include <span>

#include <llvm/IR/Value.h>

#include "lang/codegen/lowering.h"

namespace dsched::codegen {

class AggregationUpdate {
 public:
  AggregationUpdate(Lowering& lowering, llvm::Value* words, llvm::Value* value, llvm::Value* increment,
                    std::span<const int64_t> params, size_t word_count)
      : l(lowering), words_(words), value_(value), increment_(increment), params_(params), word_count_(word_count) {}

  Lowering& l;
  llvm::Value* value() const { return value_; }          // the value argument (0 for count())
  llvm::Value* increment() const { return increment_; }  // histograms' increment (1 by default)
  std::span<const int64_t> params() const { return params_; }
  // This CPU's word i.
  llvm::Value* word(uint64_t i);
  void add(llvm::Value* word, llvm::Value* amount);
  // Adds the increment to word `index` (a bucket), bounded to the value's words.
  void add_increment_at(llvm::Value* index);

 private:
  llvm::Value* words_;
  llvm::Value* value_;
  llvm::Value* increment_;
  std::span<const int64_t> params_;
  size_t word_count_;
};

void aggregate(Lowering& l, const lang::Stmt& stmt);

}  // namespace dsched::codegen
