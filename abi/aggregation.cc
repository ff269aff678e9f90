#include "abi/aggregation.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "abi/aggregation_order.h"

namespace dsched::abi {

void AggregatingFunction::combine(std::span<int64_t> into, std::span<const int64_t> from) const {
  for (size_t i = 0; i < into.size(); ++i) into[i] = int64_t(uint64_t(into[i]) + uint64_t(from[i]));
}

size_t AggregationSpec::key_size() const {
  size_t n = 0;
  for (const KeyComponent& k : keys) n += k.byte_size();
  return n;
}

size_t AggregationSpec::value_words() const { return function->value_words(params); }

size_t AggregationSpec::map_value_words() const { return value_words() + (keys.empty() ? 1 : 0); }

std::string aggregation_map_name(uint32_t id) { return "agg_" + std::to_string(id); }

void Aggregation::index_new() const {
  for (; indexed_ < entries_.size(); ++indexed_) index_.try_emplace(entries_[indexed_].key, indexed_);
}

const AggEntry* Aggregation::find(std::string_view key) const {
  index_new();
  auto it = index_.find(std::string(key));
  return it == index_.end() ? nullptr : &entries_[it->second];
}

void Aggregation::merge(std::span<const uint8_t> key, std::span<const uint64_t> per_cpu_values) {
  check_sizes(key, per_cpu_values);
  index_new();
  std::string k(reinterpret_cast<const char*>(key.data()), key.size());
  auto [it, inserted] = index_.try_emplace(k, entries_.size());
  if (inserted) {
    entries_.push_back(AggEntry{std::move(k), std::vector<int64_t>(spec_.value_words(), 0)});
    indexed_ = entries_.size();
  }
  combine(entries_[it->second], per_cpu_values);
}

void Aggregation::merge_new(std::span<const uint8_t> key, std::span<const uint64_t> per_cpu_values) {
  check_sizes(key, per_cpu_values);
  entries_.push_back(AggEntry{std::string(reinterpret_cast<const char*>(key.data()), key.size()),
                              std::vector<int64_t>(spec_.value_words(), 0)});
  combine(entries_.back(), per_cpu_values);
}

void Aggregation::check_sizes(std::span<const uint8_t> key, std::span<const uint64_t> per_cpu_values) const {
  const size_t words = spec_.value_words();
  if (key.size() != spec_.key_size())
    throw std::invalid_argument("@" + spec_.name + ": key has " + std::to_string(key.size()) + " bytes, expected " +
                                std::to_string(spec_.key_size()));
  if (per_cpu_values.empty() || per_cpu_values.size() % words != 0)
    throw std::invalid_argument("@" + spec_.name + ": value has " + std::to_string(per_cpu_values.size()) +
                                " words, expected a multiple of " + std::to_string(words));
}

void Aggregation::combine(AggEntry& entry, std::span<const uint64_t> per_cpu_values) {
  const size_t words = spec_.value_words();
  const size_t cpus = per_cpu_values.size() / words;
  if (per_cpu_) entry.per_cpu.resize(cpus, std::vector<int64_t>(words, 0));
  for (size_t c = 0; c < cpus; ++c) {
    // The words as the signed values they hold (same bits).
    std::span<const int64_t> cpu(reinterpret_cast<const int64_t*>(per_cpu_values.data()) + c * words, words);
    spec_.function->combine(entry.value, cpu);
    if (per_cpu_) spec_.function->combine(entry.per_cpu[c], cpu);
  }
}

void Aggregation::reset() {
  entries_.clear();
  index_.clear();
  indexed_ = 0;
}

void Aggregation::clear() {
  for (AggEntry& e : entries_) {
    std::fill(e.value.begin(), e.value.end(), 0);
    for (std::vector<int64_t>& cpu : e.per_cpu) std::fill(cpu.begin(), cpu.end(), 0);
  }
}

std::vector<std::string> Aggregation::trunc(int64_t n) {
  std::vector<const AggEntry*> order = sort_by_value(*this);
  if (n > 0) std::reverse(order.begin(), order.end());
  const size_t keep = std::min<uint64_t>(n < 0 ? 0 - uint64_t(n) : uint64_t(n), order.size());
  std::vector<std::string> removed;
  for (size_t i = keep; i < order.size(); ++i) removed.push_back(order[i]->key);
  if (removed.empty()) return removed;
  std::vector<AggEntry> kept;
  for (size_t i = 0; i < keep; ++i) kept.push_back(*order[i]);
  entries_ = std::move(kept);
  index_.clear();
  indexed_ = 0;
  return removed;
}

void Aggregation::normalize(uint64_t n) {
  if (n == 0) throw std::invalid_argument("normalize( ) of @" + spec_.name + ": the divisor must be positive");
  normal_ = n;
}

AggValue Aggregation::value(std::span<const int64_t> words) const {
  return spec_.function->value(spec_.params, words, normal_);
}

OrderKey Aggregation::order_key(std::span<const int64_t> words) const {
  return spec_.function->order_key(spec_.params, words);
}

size_t key_offset(const AggregationSpec& spec, size_t i) {
  size_t off = 0;
  for (size_t k = 0; k < i; ++k) off += spec.keys[k].byte_size();
  return off;
}

int64_t key_integer(const AggregationSpec& spec, std::string_view key, size_t i) {
  const KeyComponent& c = spec.keys[i];
  uint64_t raw = 0;
  std::memcpy(&raw, key.data() + key_offset(spec, i), std::min<size_t>(c.byte_size(), sizeof raw));
  if (c.size >= 8) return int64_t(raw);
  const unsigned bits = c.size * 8;
  const uint64_t mask = (uint64_t(1) << bits) - 1;
  raw &= mask;
  if (c.is_signed && (raw >> (bits - 1)) != 0) raw |= ~mask;
  return int64_t(raw);
}

std::string_view key_string(const AggregationSpec& spec, std::string_view key, size_t i) {
  std::string_view s = key.substr(key_offset(spec, i), spec.keys[i].size);
  const size_t nul = s.find('\0');
  return nul == std::string_view::npos ? s : s.substr(0, nul);
}

Value key_value(const AggregationSpec& spec, std::string_view key, size_t i) {
  const KeyComponent& c = spec.keys[i];
  switch (c.kind) {
    case KeyComponent::Kind::String: return Value::string(std::string(key_string(spec, key, i)));
    case KeyComponent::Kind::Stack:
    case KeyComponent::Kind::Symbol:
      return Value::addresses(c.kind == KeyComponent::Kind::Stack ? Value::Kind::Stack : Value::Kind::Symbol,
                              c.addresses, key.data() + key_offset(spec, i));
    case KeyComponent::Kind::Integer: break;
  }
  return Value::integer(key_integer(spec, key, i), c.size, c.is_signed);
}

KeyBuilder& KeyBuilder::integer(int64_t v, unsigned width) {
  char raw[8];
  std::memcpy(raw, &v, sizeof raw);
  bytes_.append(raw, std::min<size_t>(width, sizeof raw));
  return *this;
}

KeyBuilder& KeyBuilder::string(std::string_view s, unsigned bytes) {
  std::string padded(bytes, '\0');
  std::memcpy(padded.data(), s.data(), std::min<size_t>(s.size(), bytes ? bytes - 1 : 0));
  bytes_ += padded;
  return *this;
}

}  // namespace dsched::abi
