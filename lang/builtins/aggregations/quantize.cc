// quantize(v [, increment]): a power-of-two histogram. 127 buckets: index 63 holds 0, index 64+k
// holds [2^k, 2^(k+1)) for k = 0..62 (the last one everything >= 2^62), index 62-k holds
// (-2^(k+1), -2^k] (the first one everything <= -2^62).
#include "lang/builtins/aggregations/histogram.h"
#include "lang/codegen/aggregations.h"
#include "lang/codegen/ir.h"

namespace dsched::lang {
namespace {

constexpr size_t kBuckets = 127;
constexpr size_t kZeroBucket = 63;

int floor_log2(uint64_t v) { return 63 - __builtin_clzll(v); }

int64_t bucket_value(size_t index) {
  if (index < kZeroBucket) return -(int64_t(1) << (kZeroBucket - 1 - index));
  if (index == kZeroBucket) return 0;
  return int64_t(1) << (index - kZeroBucket - 1);
}

// floor(log2(v)) for v > 0 by binary search: BPF has no count-leading-zeros instruction. Each step
// is arithmetic, not a branch: with v below 2^(2s), (v >> s) + 2^s - 1 reaches 2^s exactly when
// v >= 2^s. Branches would give the verifier 2^6 paths to walk, each with its own constant index.
llvm::Value* log2_floor(codegen::Ir& ir, llvm::Value* v) {
  auto& b = ir.b();
  llvm::Value* result = ir.const64(0);
  for (int step : {5, 4, 3, 2, 1, 0}) {
    const int shift = 1 << step;
    llvm::Value* high = b.CreateLShr(b.CreateAdd(b.CreateLShr(v, shift), ir.const64((int64_t(1) << shift) - 1)), shift);
    llvm::Value* by = b.CreateShl(high, step);
    v = b.CreateLShr(v, by);
    result = b.CreateAdd(result, by);
  }
  return result;
}

class Quantize : public Histogram {
 public:
  std::string_view name() const override { return "quantize"; }
  Arity arity() const override { return {1, 1}; }
  size_t value_words(std::span<const int64_t>) const override { return kBuckets; }

  size_t bucket(std::span<const int64_t>, int64_t value) const override {
    if (value == 0) return kZeroBucket;
    if (value > 0) return kZeroBucket + 1 + size_t(floor_log2(uint64_t(value)));
    return kZeroBucket - 1 - size_t(std::min(floor_log2(0 - uint64_t(value)), 62));
  }

  // Bucket index: 63 for 0, 64 + log2(v) above, 62 - log2(-v) below, clamped.
  void lower(codegen::AggregationUpdate& u) const override {
    codegen::Ir& ir = u.l.ir;
    auto& b = ir.b();
    llvm::Value* v = u.value();
    llvm::Value* negative = b.CreateICmpSLT(v, ir.const64(0));
    llvm::Value* magnitude = b.CreateSelect(negative, b.CreateNeg(v), v);
    llvm::Value* log2 = log2_floor(ir, magnitude);
    log2 = b.CreateSelect(b.CreateICmpUGT(log2, ir.const64(62)), ir.const64(62), log2);
    llvm::Value* index = b.CreateSelect(negative, b.CreateSub(ir.const64(62), log2), b.CreateAdd(ir.const64(64), log2));
    u.add_increment_at(b.CreateSelect(b.CreateICmpEQ(v, ir.const64(0)), ir.const64(kZeroBucket), index));
  }

 protected:
  std::vector<abi::HistogramRow> rows(std::span<const int64_t>) const override {
    std::vector<abi::HistogramRow> out;
    for (size_t i = 0; i < kBuckets; ++i) out.push_back({bucket_value(i), "", 0});
    return out;
  }
  std::vector<int64_t> order_values(std::span<const int64_t>) const override {
    std::vector<int64_t> out;
    for (size_t i = 0; i < kBuckets; ++i) out.push_back(bucket_value(i));
    return out;
  }
  // A value in the top bucket alone reads as "no data", as in DTrace.
  size_t data_end(size_t buckets) const override { return buckets - 1; }
  EmptyRows empty_rows() const override { return {kZeroBucket - 1, kZeroBucket + 1}; }
};

const Registered<Quantize> registered;

}  // namespace
}  // namespace dsched::lang
