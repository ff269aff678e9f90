#include "abi/aggregation_order.h"

#include <algorithm>
#include <cstring>
#include <unordered_map>

#include "abi/options.h"

namespace dsched::abi {

namespace {

template <typename T>
int three_way(T a, T b) {
  return a < b ? -1 : (a > b ? 1 : 0);
}

uint64_t unsigned_key(const KeyComponent& c, std::string_view bytes) {
  uint64_t raw = 0;
  std::memcpy(&raw, bytes.data(), std::min(bytes.size(), sizeof raw));
  return c.size >= 8 ? raw : raw & ((uint64_t(1) << (c.size * 8)) - 1);
}

}  // namespace

SortOptions sort_options(const Options& options) {
  SortOptions sort;
  sort.by_key = options.flag("aggsortkey");
  sort.reverse = options.flag("aggsortrev");
  sort.key_position = size_t(options.number("aggsortkeypos"));
  sort.aggregation_position = size_t(options.number("aggsortpos"));
  return sort;
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
  // Each value's place in the order is computed once, not at every comparison.
  std::vector<std::vector<OrderKey>> keys(rows.size());
  for (size_t r = 0; r < rows.size(); ++r)
    for (size_t a = 0; a < aggs.size(); ++a) keys[r].push_back(aggs[a]->order_key(rows[r].values[a]));
  std::vector<size_t> order(rows.size());
  for (size_t r = 0; r < rows.size(); ++r) order[r] = r;
  const AggregationSpec& key_spec = aggs[0]->spec();
  const size_t first_agg = options.aggregation_position >= aggs.size() ? 0 : options.aggregation_position;
  auto compare = [&](size_t l, size_t r) {
    if (options.by_key)
      if (int c = compare_keys(key_spec, rows[l].key, rows[r].key, options.key_position)) return c;
    for (size_t i = 0; i < aggs.size(); ++i) {
      const size_t a = (first_agg + i) % aggs.size();
      if (int c = keys[l][a].compare(keys[r][a])) return c;
    }
    return options.by_key ? 0 : compare_keys(key_spec, rows[l].key, rows[r].key, options.key_position);
  };
  std::stable_sort(order.begin(), order.end(), [&](size_t l, size_t r) {
    const int c = compare(l, r);
    return options.reverse ? c > 0 : c < 0;
  });
  std::vector<JoinedRow> sorted;
  sorted.reserve(rows.size());
  for (size_t r : order) sorted.push_back(std::move(rows[r]));
  return sorted;
}

std::vector<const AggEntry*> sort_by_value(const Aggregation& agg) {
  struct Ranked {
    const AggEntry* entry;
    OrderKey key;
  };
  std::vector<Ranked> ranked;
  for (const AggEntry& e : agg.entries()) ranked.push_back({&e, agg.order_key(e.value)});
  std::stable_sort(ranked.begin(), ranked.end(), [&](const Ranked& l, const Ranked& r) {
    if (int c = l.key.compare(r.key)) return c < 0;
    return compare_keys(agg.spec(), l.entry->key, r.entry->key, 0) < 0;
  });
  std::vector<const AggEntry*> order;
  for (const Ranked& r : ranked) order.push_back(r.entry);
  return order;
}

}  // namespace dsched::abi
