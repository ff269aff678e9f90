// stddev(v): the population standard deviation, as an integer. Words per CPU:
// [count, sum, sum of squares low, sum of squares high] (128 bits of squares).
#include "lang/builtins/builtin.h"
#include "lang/codegen/aggregations.h"
#include "lang/codegen/ir.h"

namespace dsched::lang {
namespace {

using u128 = unsigned __int128;

// floor(sqrt(v)), bit by bit from the top.
uint64_t isqrt128(u128 v) {
  u128 result = 0;
  u128 bit = u128(1) << 126;
  while (bit > v) bit >>= 2;
  while (bit != 0) {
    if (v >= result + bit) {
      v -= result + bit;
      result = (result >> 1) + bit;
    } else {
      result >>= 1;
    }
    bit >>= 2;
  }
  return uint64_t(result);
}

uint64_t deviation(std::span<const int64_t> words, uint64_t normal) {
  const uint64_t count = uint64_t(words[0]);
  if (count == 0) return 0;
  const u128 sumsq = (u128(uint64_t(words[3])) << 64) | uint64_t(words[2]);
  // The mean of the squares (normalized twice, as the squares are) minus the square of the mean.
  const u128 mean_of_squares = sumsq / normal / normal / count;
  const int64_t mean = words[1] / int64_t(normal) / int64_t(count);
  const uint64_t abs_mean = mean < 0 ? 0 - uint64_t(mean) : uint64_t(mean);
  const u128 square_of_mean = u128(abs_mean) * abs_mean;
  return isqrt128(mean_of_squares - square_of_mean);
}

class Stddev : public AggregatingFunction {
 public:
  std::string_view name() const override { return "stddev"; }
  Arity arity() const override { return {1, 1}; }
  size_t value_words(std::span<const int64_t>) const override { return 4; }

  void lower(codegen::AggregationUpdate& u) const override {
    codegen::Ir& ir = u.l.ir;
    auto& b = ir.b();
    llvm::Value* value = u.value();
    u.add(u.word(0), ir.const64(1));
    u.add(u.word(1), value);
    // value^2 as 128 bits from 32-bit halves (BPF has no 128-bit multiply).
    llvm::Value* a = b.CreateSelect(b.CreateICmpSLT(value, ir.const64(0)), b.CreateNeg(value), value);
    llvm::Value* lo32 = b.CreateAnd(a, ir.const64(0xffffffff));
    llvm::Value* hi32 = b.CreateLShr(a, 32);
    llvm::Value* low = b.CreateMul(lo32, lo32);
    llvm::Value* cross = b.CreateMul(lo32, hi32);
    llvm::Value* high = b.CreateMul(hi32, hi32);
    llvm::Value* square_lo = b.CreateAdd(low, b.CreateShl(cross, 33));
    llvm::Value* carry = b.CreateZExt(b.CreateICmpULT(square_lo, low), ir.i64());
    llvm::Value* square_hi = b.CreateAdd(b.CreateAdd(high, b.CreateLShr(cross, 31)), carry);
    llvm::Value* old_lo = b.CreateLoad(ir.i64(), u.word(2));
    llvm::Value* new_lo = b.CreateAdd(old_lo, square_lo);
    b.CreateStore(new_lo, u.word(2));
    llvm::Value* carry_lo = b.CreateZExt(b.CreateICmpULT(new_lo, old_lo), ir.i64());
    u.add(u.word(3), b.CreateAdd(square_hi, carry_lo));
  }

  void combine(std::span<int64_t> into, std::span<const int64_t> from) const override {
    auto add = [](int64_t a, int64_t b) { return int64_t(uint64_t(a) + uint64_t(b)); };
    into[0] = add(into[0], from[0]);
    into[1] = add(into[1], from[1]);
    const uint64_t lo = uint64_t(into[2]) + uint64_t(from[2]);
    const uint64_t carry = lo < uint64_t(from[2]) ? 1 : 0;
    into[2] = int64_t(lo);
    into[3] = int64_t(uint64_t(into[3]) + uint64_t(from[3]) + carry);
  }

  abi::AggValue value(std::span<const int64_t>, std::span<const int64_t> words, uint64_t normal) const override {
    return {abi::AggValue::Kind::Unsigned, int64_t(deviation(words, normal)), {}, normal};
  }
  abi::OrderKey order_key(std::span<const int64_t>, std::span<const int64_t> words) const override {
    return {static_cast<long double>(deviation(words, 1)), 0};
  }
};

const Registered<Stddev> registered;

}  // namespace
}  // namespace dsched::lang
