// avg(v): the mean of the values, truncated toward zero. Words per CPU: [sum, count].
#include "lang/builtins/builtin.h"
#include "lang/codegen/aggregations.h"
#include "lang/codegen/ir.h"

namespace dsched::lang {
namespace {

// (sum / normal) / count, 0 without values: normalization applies to the sum, as in DTrace.
int64_t mean(std::span<const int64_t> words, uint64_t normal) {
  const int64_t sum = words[0], count = words[1];
  return count == 0 ? 0 : sum / int64_t(normal) / count;
}

class Avg : public AggregatingFunction {
 public:
  std::string_view name() const override { return "avg"; }
  Arity arity() const override { return {1, 1}; }
  size_t value_words(std::span<const int64_t>) const override { return 2; }

  void lower(codegen::AggregationUpdate& u) const override {
    u.add(u.word(0), u.value());
    u.add(u.word(1), u.l.ir.const64(1));
  }

  abi::AggValue value(std::span<const int64_t>, std::span<const int64_t> words, uint64_t normal) const override {
    return {abi::AggValue::Kind::Signed, mean(words, normal), {}, normal};
  }
  abi::OrderKey order_key(std::span<const int64_t>, std::span<const int64_t> words) const override {
    return {static_cast<long double>(mean(words, 1)), 0};
  }
};

const Registered<Avg> registered;

}  // namespace
}  // namespace dsched::lang
