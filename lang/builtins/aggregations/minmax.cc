// min(v) and max(v): the smallest and largest value. Words per CPU: [value, seen]; CPUs that saw
// no value do not take part.
#include "lang/builtins/builtin.h"
#include "lang/codegen/aggregations.h"
#include "lang/codegen/ir.h"

namespace dsched::lang {
namespace {

class Extreme : public AggregatingFunction {
 public:
  Extreme(std::string_view name, bool smallest) : name_(name), smallest_(smallest) {}
  std::string_view name() const override { return name_; }
  Arity arity() const override { return {1, 1}; }
  size_t value_words(std::span<const int64_t>) const override { return 2; }

  void lower(codegen::AggregationUpdate& u) const override {
    auto& b = u.l.ir.b();
    llvm::Value* current = b.CreateLoad(u.l.ir.i64(), u.word(0));
    llvm::Value* seen = b.CreateICmpNE(b.CreateLoad(u.l.ir.i64(), u.word(1)), u.l.ir.const64(0));
    llvm::Value* better = smallest_ ? b.CreateICmpSLT(u.value(), current) : b.CreateICmpSGT(u.value(), current);
    b.CreateStore(b.CreateSelect(b.CreateAnd(seen, b.CreateNot(better)), current, u.value()), u.word(0));
    b.CreateStore(u.l.ir.const64(1), u.word(1));
  }

  void combine(std::span<int64_t> into, std::span<const int64_t> from) const override {
    if (from[1] == 0) return;
    const bool better = smallest_ ? from[0] < into[0] : from[0] > into[0];
    if (into[1] == 0 || better) {
      into[0] = from[0];
      into[1] = 1;
    }
  }

  abi::AggValue value(std::span<const int64_t>, std::span<const int64_t> words, uint64_t normal) const override {
    return {abi::AggValue::Kind::Signed, words[0] / int64_t(normal), {}, normal};
  }
  abi::OrderKey order_key(std::span<const int64_t>, std::span<const int64_t> words) const override {
    return {static_cast<long double>(words[0]), 0};
  }

 private:
  std::string_view name_;
  bool smallest_;
};

const Registered<Extreme> min_function("min", true);
const Registered<Extreme> max_function("max", false);

}  // namespace
}  // namespace dsched::lang
