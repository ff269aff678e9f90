// Aggregations for the output tests: specs of the real aggregating functions, by name.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "abi/aggregation.h"
#include "lang/builtins/aggregations/histogram.h"
#include "lang/builtins/builtin.h"
#include "runtime/output/histogram.h"

namespace dsched::test {

inline abi::AggregationSpec spec_of(std::string_view function, std::vector<int64_t> params = {},
                                    std::vector<abi::KeyComponent> keys = {}, uint32_t id = 0) {
  abi::AggregationSpec s;
  s.id = id;
  if (id) s.name = "a" + std::to_string(id);
  s.function = lang::find_aggregating_function(function);
  s.params = std::move(params);
  s.keys = std::move(keys);
  return s;
}

// The bucket a histogram function puts `value` in.
inline size_t bucket(const abi::AggregationSpec& s, int64_t value) {
  return dynamic_cast<const lang::Histogram&>(*s.function).bucket(s.params, value);
}

// A histogram value as the text output prints it.
inline std::string render(const abi::AggregationSpec& s, std::span<const int64_t> words, uint64_t normal = 1) {
  return output::render_histogram(s.function->value(s.params, words, normal));
}

}  // namespace dsched::test
