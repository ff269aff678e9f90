#include "lang/builtins/aggregations/histogram.h"


namespace dsched::lang {

abi::AggValue Histogram::value(std::span<const int64_t> params, std::span<const int64_t> words, uint64_t normal) const {
  const size_t n = words.size();
  const size_t end = data_end(n);
  size_t first = 0, last = n - 1;
  while (first < end && words[first] == 0) ++first;
  if (first == end) {
    EmptyRows empty = empty_rows();
    first = empty.first_empty;
    last = empty.last_empty;
  } else {
    if (first > 0) --first;
    while (last > 0 && words[last] == 0) --last;
    if (last < n - 1) ++last;
  }
  std::vector<abi::HistogramRow> all = rows(params);
  abi::AggValue out{abi::AggValue::Kind::Histogram, 0, {}, normal};
  for (size_t i = first; i <= last; ++i) {
    out.rows.push_back(std::move(all[i]));
    out.rows.back().count = words[i];
  }
  return out;
}

std::string Histogram::bound_label(const char* relation, int64_t bound) {
  return std::string(relation) + " " + std::to_string(bound);
}

abi::OrderKey Histogram::order_key(std::span<const int64_t> params, std::span<const int64_t> words) const {
  std::vector<int64_t> values = order_values(params);
  abi::OrderKey key;
  bool zero_seen = false;
  for (size_t i = 0; i < words.size(); ++i) {
    key.primary += (long double)values[i] * words[i];
    if (values[i] == 0 && !zero_seen) {
      key.secondary = words[i];
      zero_seen = true;
    }
  }
  return key;
}

}  // namespace dsched::lang
