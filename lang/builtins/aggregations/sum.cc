// sum(v): the total of the values. One word per CPU.
#include "lang/builtins/builtin.h"
#include "lang/codegen/aggregations.h"

namespace dsched::lang {
namespace {

class Sum : public AggregatingFunction {
 public:
  std::string_view name() const override { return "sum"; }
  Arity arity() const override { return {1, 1}; }
  size_t value_words(std::span<const int64_t>) const override { return 1; }

  void lower(codegen::AggregationUpdate& u) const override { u.add(u.word(0), u.value()); }

  abi::AggValue value(std::span<const int64_t>, std::span<const int64_t> words, uint64_t normal) const override {
    return {abi::AggValue::Kind::Signed, words[0] / int64_t(normal), {}, normal};
  }
  abi::OrderKey order_key(std::span<const int64_t>, std::span<const int64_t> words) const override {
    return {static_cast<long double>(words[0]), 0};
  }
};

const Registered<Sum> registered;

}  // namespace
}  // namespace dsched::lang
