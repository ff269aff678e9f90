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

// `key` as bytes that compare (memcmp) as keys are ordered, from component `key_position` on:
// integers as unsigned at their D size and symbols (sym(), usym()...: a process id, then an
// address) word by word as unsigned numbers, both most significant byte first, as DTrace compares
// them; strings and stacks as they are. Sorting many rows compares these instead of decoding both
// keys at each comparison.
std::string sort_bytes(const AggregationSpec& spec, std::string_view key, size_t key_position) {
  const size_t n = spec.keys.size();
  const size_t first = key_position >= n ? 0 : key_position;
  std::string bytes;
  for (size_t i = 0; i < n; ++i) {
    const size_t k = (first + i) % n;
    const KeyComponent& c = spec.keys[k];
    const std::string_view part = key.substr(key_offset(spec, k), c.byte_size());
    auto append_number = [&](uint64_t value) {
      for (int shift = 56; shift >= 0; shift -= 8) bytes.push_back(char(value >> shift));
    };
    if (c.kind == KeyComponent::Kind::Integer) {
      append_number(unsigned_key(c, part));
    } else if (c.kind == KeyComponent::Kind::Symbol) {
      for (size_t word = 0; word + 8 <= part.size(); word += 8) {
        uint64_t value;
        std::memcpy(&value, part.data() + word, sizeof value);
        append_number(value);
      }
    } else {
      bytes.append(part);
    }
  }
  return bytes;
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

std::vector<JoinedRow> joined_rows(std::span<const Aggregation* const> aggs, const SortOptions& options) {
  std::vector<JoinedRow> rows;
  if (aggs.empty()) return rows;
  // Rows by key; one aggregation's entries are its rows as they are.
  std::unordered_map<std::string, size_t> index;
  for (size_t a = 0; a < aggs.size(); ++a) {
    rows.reserve(rows.size() + aggs[a]->entries().size());
    for (const AggEntry& e : aggs[a]->entries()) {
      size_t row = rows.size();
      if (aggs.size() > 1) {
        auto [it, inserted] = index.try_emplace(e.key, rows.size());
        row = it->second;
        if (!inserted) {
          rows[row].values[a] = e.value;
          continue;
        }
      }
      rows.push_back(JoinedRow{e.key, {}});
      rows.back().values.reserve(aggs.size());
      for (const Aggregation* agg : aggs) rows.back().values.emplace_back(agg->spec().value_words(), 0);
      rows.back().values[a] = e.value;
    }
  }
  // Each row's place by value and by key is computed once, not at every comparison.
  const size_t n = aggs.size();
  std::vector<OrderKey> values(rows.size() * n);
  std::vector<std::string> keys(rows.size());
  for (size_t r = 0; r < rows.size(); ++r) {
    for (size_t a = 0; a < n; ++a) values[r * n + a] = aggs[a]->order_key(rows[r].values[a]);
    keys[r] = sort_bytes(aggs[0]->spec(), rows[r].key, options.key_position);
  }
  std::vector<size_t> order(rows.size());
  for (size_t r = 0; r < rows.size(); ++r) order[r] = r;
  const size_t first_agg = options.aggregation_position >= n ? 0 : options.aggregation_position;
  auto compare = [&](size_t l, size_t r) {
    if (options.by_key)
      if (int c = keys[l].compare(keys[r])) return c;
    for (size_t i = 0; i < n; ++i) {
      const size_t a = (first_agg + i) % n;
      if (int c = values[l * n + a].compare(values[r * n + a])) return c;
    }
    return options.by_key ? 0 : keys[l].compare(keys[r]);
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
    OrderKey value;
    std::string key;
  };
  std::vector<Ranked> ranked;
  ranked.reserve(agg.entries().size());
  for (const AggEntry& e : agg.entries()) ranked.push_back({&e, agg.order_key(e.value), sort_bytes(agg.spec(), e.key, 0)});
  std::stable_sort(ranked.begin(), ranked.end(), [&](const Ranked& l, const Ranked& r) {
    if (int c = l.value.compare(r.value)) return c < 0;
    return l.key < r.key;
  });
  std::vector<const AggEntry*> order;
  order.reserve(ranked.size());
  for (const Ranked& r : ranked) order.push_back(r.entry);
  return order;
}

}  // namespace dsched::abi
