#include "agg_order.h"

#include <algorithm>
#include <cstring>
#include <unordered_map>

#include "agg_values.h"
#include "histogram.h"

namespace dsched::output {

namespace {

template <typename T>
int three_way(T a, T b) {
  return a < b ? -1 : (a > b ? 1 : 0);
}

uint64_t unsigned_key(const KeyComponent& c, std::string_view bytes) {
  uint64_t raw = 0;
  std::memcpy(&raw, bytes.data(), sizeof raw);
  return c.size >= 8 ? raw : raw & ((uint64_t(1) << (c.size * 8)) - 1);
}

}  // namespace

int compare_values(const AggregationSpec& spec, std::span<const int64_t> a, std::span<const int64_t> b) {
  switch (spec.function) {
    case AggFunc::Count:
    case AggFunc::Sum:
    case AggFunc::Min:
    case AggFunc::Max:
      return three_way(a[0], b[0]);
    case AggFunc::Avg:
      return three_way(avg_value(a, 1), avg_value(b, 1));
    case AggFunc::Stddev:
      return three_way(stddev_value(a, 1), stddev_value(b, 1));
    default:
      if (int c = three_way(histogram_weight(spec, a), histogram_weight(spec, b))) return c;
      return three_way(histogram_zero_count(spec, a), histogram_zero_count(spec, b));
  }
}

int compare_keys(const AggregationSpec& spec, std::string_view a, std::string_view b, size_t key_position) {
  const size_t n = spec.keys.size();
  const size_t first = key_position >= n ? 0 : key_position;
  for (size_t i = 0; i < n; ++i) {
    const size_t k = (first + i) % n;
    const KeyComponent& c = spec.keys[k];
    const size_t off = key_offset(spec, k);
    const std::string_view ka = a.substr(off, c.byte_size()), kb = b.substr(off, c.byte_size());
    int r = 0;
    if (c.kind == KeyComponent::Kind::Integer)
      r = three_way(unsigned_key(c, ka), unsigned_key(c, kb));
    else
      r = three_way(std::memcmp(ka.data(), kb.data(), ka.size()), 0);
    if (r != 0) return r;
  }
  return 0;
}

std::vector<JoinedRow> joined_rows(std::span<const Aggregation* const> aggs, const SortOptions& options) {
  std::vector<JoinedRow> rows;
  if (aggs.empty()) return rows;
  std::unordered_map<std::string, size_t> index;
  for (size_t a = 0; a < aggs.size(); ++a) {
    for (const AggEntry& e : aggs[a]->entries()) {
      auto [it, inserted] = index.try_emplace(e.key, rows.size());
      if (inserted) {
        JoinedRow row{e.key, {}};
        for (const Aggregation* agg : aggs) row.values.emplace_back(agg->spec().value_words(), 0);
        rows.push_back(std::move(row));
      }
      rows[it->second].values[a] = e.value;
    }
  }
  const AggregationSpec& key_spec = aggs[0]->spec();
  const size_t first_agg = options.aggregation_position >= aggs.size() ? 0 : options.aggregation_position;
  auto compare = [&](const JoinedRow& l, const JoinedRow& r) {
    if (options.by_key)
      if (int c = compare_keys(key_spec, l.key, r.key, options.key_position)) return c;
    for (size_t i = 0; i < aggs.size(); ++i) {
      const size_t a = (first_agg + i) % aggs.size();
      if (int c = compare_values(aggs[a]->spec(), l.values[a], r.values[a])) return c;
    }
    return options.by_key ? 0 : compare_keys(key_spec, l.key, r.key, options.key_position);
  };
  std::stable_sort(rows.begin(), rows.end(), [&](const JoinedRow& l, const JoinedRow& r) {
    const int c = compare(l, r);
    return options.reverse ? c > 0 : c < 0;
  });
  return rows;
}

std::vector<const AggEntry*> sort_by_value(const Aggregation& agg) {
  std::vector<const AggEntry*> order;
  for (const AggEntry& e : agg.entries()) order.push_back(&e);
  std::stable_sort(order.begin(), order.end(), [&](const AggEntry* l, const AggEntry* r) {
    if (int c = compare_values(agg.spec(), l->value, r->value)) return c < 0;
    return compare_keys(agg.spec(), l->key, r->key, 0) < 0;
  });
  return order;
}

}  // namespace dsched::output
