// count(): the number of times the statement ran. One word per CPU.
#include "lang/builtins/builtin.h"
#include "lang/codegen/aggregations.h"
#include "lang/codegen/ir.h"

namespace dsched::lang {
namespace {

class Count : public AggregatingFunction {
 public:
  std::string_view name() const override { return "count"; }
  Arity arity() const override { return {0, 0}; }
  bool takes_value() const override { return false; }
  bool printa_unsigned() const override { return true; }
  size_t value_words(std::span<const int64_t>) const override { return 1; }

  void lower(codegen::AggregationUpdate& u) const override { u.add(u.word(0), u.l.ir.const64(1)); }

  abi::AggValue value(std::span<const int64_t>, std::span<const int64_t> words, uint64_t normal) const override {
    return {abi::AggValue::Kind::Unsigned, int64_t(uint64_t(words[0]) / normal), {}, normal};
  }
  abi::OrderKey order_key(std::span<const int64_t>, std::span<const int64_t> words) const override {
    return {static_cast<long double>(words[0]), 0};
  }
};

const Registered<Count> registered;

}  // namespace
}  // namespace dsched::lang
